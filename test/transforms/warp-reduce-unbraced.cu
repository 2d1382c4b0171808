// warp-reduce where the loop is the sole statement of an `if` (no braces):
// what goes before and after the loop must stay under the same condition,
// so the rewrite adds the block the original left out.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=MODEL
// RUN: echo '{"gemv_rows.warp_reduce": 32}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
#include <cuda_runtime.h>

// The sum lives in the output element (gemv in Fortran-ish C).
__global__ void gemv_rows(const float *__restrict__ A,
                          const float *__restrict__ x, float *__restrict__ y,
                          int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    for (int k = 0; k < cols; k++)
      y[row] += A[row * cols + k] * x[k];
}

int main() {
  float *A, *x, *y;
  cudaMalloc(&A, 1024 * 512 * sizeof(float));
  cudaMalloc(&x, 512 * sizeof(float));
  cudaMalloc(&y, 1024 * sizeof(float));
  gemv_rows<<<1024 / 128, 128>>>(A, x, y, 1024, 512);
  cudaDeviceSynchronize();
  return 0;
}

// MODEL-DAG: kernels[0].loops[0].in_block = false

// CHECK:        if (row < rows)
// CHECK-NEXT:     {
// CHECK-NEXT:     float y_sum = 0;
// CHECK:          for (int k = (0) + lane; k < cols; k += 32)
// CHECK-NEXT:       y_sum += A[row * cols + k] * x[k];
// CHECK:          if (lane == 0 && k_loop_runs)
// CHECK-NEXT:       y[row] = y_sum;
// CHECK-NEXT:     }
// CHECK-NEXT: }

