// Shared-memory tree reduction whose shared array is sized by the block macro.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>

#define THREADS 512

__global__ void reduce_sum(const float *in, float *out, int n) {
  __shared__ float partial[THREADS];
  int tid = threadIdx.x;
  int i = blockIdx.x * THREADS + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(out, partial[0]);
}

void sum(const float *in, float *out, int n) {
  int blocks = (n + THREADS - 1) / THREADS;
  reduce_sum<<<blocks, THREADS>>>(in, out, n);
}

// CHECK-DAG: kernels[0].name = "reduce_sum"
// CHECK-DAG: kernels[0].shared_arrays[0].name = "partial"
// CHECK-DAG: kernels[0].shared_arrays[0].extents[0] = "THREADS"
// CHECK-DAG: kernels[0].shared_arrays[0].extent_values[0] = 512
// CHECK-DAG: kernels[0].launches[0].block.dims[0].symbol = "THREADS"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].via[0] = "blocks"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_term = "THREADS"
// CHECK-DAG: kernels[0].block_size.uses_blockDim = false
// CHECK-DAG: kernels[0].block_size.couplings[0].symbol = "THREADS"
// CHECK-DAG: kernels[0].block_size.couplings[0].context = "shared-array-extent"
// CHECK-DAG: kernels[0].block_size.couplings[2].context = "loop-init"
// CHECK-DAG: kernels[0].loops[0].step_kind = "geometric"
// CHECK-DAG: kernels[0].loops[0].contains_sync = true
// CHECK-DAG: kernels[0].accesses[2].space = "shared"
// CHECK-DAG: kernels[0].accesses[2].mode = "readwrite"
// CHECK-DAG: kernels[0].accesses[4].base = "out"
// CHECK-DAG: kernels[0].accesses[4].mode = "atomic"
// CHECK-DAG: kernels[0].params[1].atomic = true
// CHECK-DAG: kernels[0].uses_syncthreads = true
// CHECK-DAG: kernels[0].uses_atomics = true
