// Block size chosen at run time: nothing about it is a compile-time constant.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>

__global__ void fill(int *out, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value;
}

void run(int *out, int n, int threadsPerBlock) {
  int blocks = (n + threadsPerBlock - 1) / threadsPerBlock;
  fill<<<blocks, threadsPerBlock>>>(out, 7, n);
}

// CHECK-DAG: kernels[0].launches[0].block.dims[0].kind = "runtime"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].symbol = "threadsPerBlock"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].value = null
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].via[0] = "blocks"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_term = "threadsPerBlock"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_dim = "x"
// CHECK-DAG: kernels[0].params[0].access = "write"
