// One kernel reads blockDim; the other hard-codes the block size it assumes.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>

__global__ void uses_blockdim(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += 1.0f;
}

__global__ void hardcoded(float *v, int n) {
  __shared__ float buf[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  buf[threadIdx.x] = i < n ? v[i] : 0.0f;
  __syncthreads();
  if (i < n)
    v[i] = buf[255 - threadIdx.x];
}

void run(float *v, int n) {
  uses_blockdim<<<(n + 255) / 256, 256>>>(v, n);
  hardcoded<<<(n + 255) / 256, 256>>>(v, n);
}

// CHECK-DAG: kernels[0].name = "uses_blockdim"
// CHECK-DAG: kernels[0].block_size.uses_blockDim = true
// CHECK-DAG: kernels[0].block_size.hardcoded = []
// CHECK-DAG: kernels[1].name = "hardcoded"
// CHECK-DAG: kernels[1].block_size.uses_blockDim = false
// CHECK-DAG: kernels[1].block_size.hardcoded[0].value = 256
// CHECK-DAG: kernels[1].block_size.hardcoded[0].context = "shared-array-extent"
// CHECK-DAG: kernels[1].block_size.hardcoded[1].value = 256
// CHECK-DAG: kernels[1].block_size.hardcoded[1].context = "other"
// CHECK-DAG: kernels[1].block_size.hardcoded[2].value = 255
// CHECK-DAG: kernels[1].block_size.hardcoded[2].context = "index"
// CHECK-DAG: kernels[1].accesses[1].indices[0].form.coefficients.blockIdx.x = "256"
// CHECK-DAG: kernels[1].accesses[3].indices[0].form.text = "-threadIdx.x + 255"
