#ifndef REDUCTION_H_
#define REDUCTION_H_

// SHOC-style sum reduction: launch configuration shared by host and device.
//
// RED_THREADS is both the shared memory extent of each block and the launch
// block size; the tree below halves blockDim.x, so it must be a power of two.
#define RED_THREADS 256

// Fixed number of blocks for the first pass (each block strides over the input)
#define RED_BLOCKS 64

#endif // REDUCTION_H_
