// Indices the analysis cannot express as affine forms get a reason; pointer
// parameters that escape into calls are marked "unknown"; local pointers into
// a parameter are seen through.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>

__device__ void consume(float *p) { p[0] = 1.0f; }

__global__ void gather(const int *idx, const float *src, float *dst,
                       float *scratch, int n, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float *row = src + (i / width) * width;
  dst[i] = src[idx[i]] + src[i % width] + row[threadIdx.x] + src[i * i];
  consume(scratch);
}

void run(const int *idx, const float *src, float *dst, float *s, int n) {
  gather<<<(n + 255) / 256, 256>>>(idx, src, dst, s, n, 64);
}

// CHECK-DAG: kernels[0].accesses[1].base = "src"
// CHECK-DAG: kernels[0].accesses[1].indices[0].affine = false
// CHECK-DAG: kernels[0].accesses[1].indices[0].reason = "index not affine: idx[i] (value loaded from memory)"
// CHECK-DAG: kernels[0].accesses[2].base = "idx"
// CHECK-DAG: kernels[0].accesses[2].indices[0].affine = true
// CHECK-DAG: kernels[0].accesses[3].indices[0].reason = "index not affine: i % width (operator '%')"
// CHECK-DAG: kernels[0].accesses[4].base = "src"
// CHECK-DAG: kernels[0].accesses[4].indices[0].reason = "index not affine: i / width (operator '/')"
// CHECK-DAG: kernels[0].accesses[5].indices[0].reason = "index not affine: i * i (product of two thread- or loop-dependent values)"
// CHECK-DAG: kernels[0].params[0].access = "read"
// CHECK-DAG: kernels[0].params[1].access = "read"
// CHECK-DAG: kernels[0].params[2].access = "write"
// CHECK-DAG: kernels[0].params[3].access = "unknown"
// CHECK-DAG: kernels[0].params[3].escape_reason = "passed to 'consume'"
