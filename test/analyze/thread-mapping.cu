// thread_mapping: index variables, the guard (wrap / early return / none),
// the work, returns, stray builtins and the reduction loop with its refusal.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>

__global__ void wrap2d(const float *A, float *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = threadIdx.x + blockIdx.x * blockDim.x;
  if (row < M && col < N) {
    float acc = 0.0f, bias = A[row];
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k];
    C[row * N + col] = acc + bias;
  }
}

__global__ void early(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  for (int j = 0; j < 4; ++j) {
    if (v[i] < 0.0f)
      return;
    v[i] *= 2.0f;
  }
}

__global__ void strided(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i < n; i += blockDim.x * gridDim.x)
    v[i] = 0.0f;
}

__global__ void writes(const float *A, float *s, int n, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > r) {
    float acc = 0.0f;
    for (int j = 0; j < m; ++j)
      s[r] = acc += A[r * m + j];
  }
}

__global__ void manual(float *v) { v[threadIdx.x] = 1.0f; }

// CHECK-DAG: kernels[0].thread_mapping.guard = "wrap"
// CHECK-DAG: kernels[0].thread_mapping.guard_condition = "row < M && col < N"
// CHECK-DAG: kernels[0].thread_mapping.index_vars[0].name = "row"
// CHECK-DAG: kernels[0].thread_mapping.index_vars[0].dim = "y"
// CHECK-DAG: kernels[0].thread_mapping.index_vars[1].name = "col"
// CHECK-DAG: kernels[0].thread_mapping.index_vars[1].dim = "x"
// CHECK-DAG: kernels[0].thread_mapping.reduction.var = "k"
// CHECK-DAG: kernels[0].thread_mapping.reduction.end = "K"
// CHECK-DAG: kernels[0].thread_mapping.reduction.before[0].name = "acc"
// CHECK-DAG: kernels[0].thread_mapping.reduction.before[0].pure = true
// CHECK-DAG: kernels[0].thread_mapping.reduction.before[1].name = "bias"
// CHECK-DAG: kernels[0].thread_mapping.reduction.before[1].pure = false
// CHECK-DAG: kernels[0].thread_mapping.reduction.refusal = null
// CHECK-DAG: kernels[1].thread_mapping.guard = "early-return"
// CHECK-DAG: kernels[1].thread_mapping.guard_condition = "!(i >= n)"
// CHECK-DAG: kernels[1].thread_mapping.returns[0].in_loop = true
// CHECK-DAG: kernels[2].thread_mapping.reason = "the thread index 'i' is modified after its declaration"
// CHECK-DAG: kernels[3].thread_mapping.guard_condition = "n > r"
// CHECK-DAG: kernels[3].thread_mapping.upper_bounds.r = "n"
// CHECK-DAG: kernels[3].thread_mapping.guard_is_box = true
// CHECK-DAG: kernels[0].thread_mapping.upper_bounds.col = "N"
// CHECK-DAG: kernels[3].thread_mapping.reduction.refusal = "the loop body writes memory ('s[r]') at {{.*}}thread-mapping.cu:{{[0-9]+}}:7"
// CHECK-DAG: kernels[4].thread_mapping.reason = "no local of the kernel holds the thread's global index (blockIdx * blockDim + threadIdx in some dimension) before its work begins"
// CHECK-DAG: kernels[4].thread_mapping.recognized = false
