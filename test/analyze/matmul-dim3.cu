// 2D naive matmul launched with dim3 variables.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=ROWSHARED
#include <cuda_runtime.h>

__global__ void matmul(const float *A, const float *B, float *C, int M, int N,
                       int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul<<<grid, block>>>(A, B, C, M, N, K);
}

// CHECK-DAG: kernels[0].name = "matmul"
// CHECK-DAG: kernels[0].launches[0].block.form = "dim3"
// CHECK-DAG: kernels[0].launches[0].block.variable = "block"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].value = 16
// CHECK-DAG: kernels[0].launches[0].block.dims[1].value = 16
// CHECK-DAG: kernels[0].launches[0].block.dims[2].kind = "default"
// CHECK-DAG: kernels[0].launches[0].grid.variable = "grid"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_term = "block.x"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.extent = "N"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_dim = "x"
// CHECK-DAG: kernels[0].launches[0].grid.dims[1].derived.extent = "M"
// CHECK-DAG: kernels[0].launches[0].grid.dims[1].derived.block_dim = "y"
// CHECK-DAG: kernels[0].loops[0].induction_var = "k"
// CHECK-DAG: kernels[0].loops[0].bound = "K"
// CHECK-DAG: kernels[0].loops[0].step_kind = "constant"
// CHECK-DAG: kernels[0].loops[0].trip_count = null
// A[row * K + k]: no threadIdx.x term, so every thread of a warp row shares it.
// CHECK-DAG: kernels[0].accesses[0].base = "A"
// CHECK-DAG: kernels[0].accesses[0].loop = "L0"
// CHECK-DAG: kernels[0].accesses[0].indices[0].form.coefficients.k = "1"
// CHECK-DAG: kernels[0].accesses[0].indices[0].form.coefficients.threadIdx.y = "K"
// CHECK-DAG: kernels[0].accesses[0].indices[0].form.coefficients.blockIdx.y = "K*blockDim.y"
// ROWSHARED-NOT: kernels[0].accesses[0].indices[0].form.coefficients.threadIdx.x
// CHECK-DAG: kernels[0].accesses[1].indices[0].form.coefficients.k = "N"
// CHECK-DAG: kernels[0].accesses[1].indices[0].form.coefficients.threadIdx.x = "1"
// CHECK-DAG: kernels[0].accesses[2].base = "C"
// CHECK-DAG: kernels[0].accesses[2].mode = "write"
// CHECK-DAG: kernels[0].params[2].access = "write"
// CHECK-DAG: kernels[0].block_size.blockDim_dims[1] = "y"
