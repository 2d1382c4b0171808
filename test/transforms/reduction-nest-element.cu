// shared-stage and register-tile on reduction loops that add to a global
// element (`c[i * NJ + j] += ...` over k) after statements that scale or
// clear it (`c[...] *= BETA;`, `E[...] = 0;`), as naive GEMM, 3mm and
// matrix-vector code is written: the element is held in a register across
// the work (loaded unless the work first assigns it), the statements before
// the loop run per output where the guard holds, and the element is stored
// once after the loop. With no statement before the loop, the load and the
// store also need the loop to run. Refused when a statement before the loop
// writes another element or array, or another pointer may reach the
// element.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"gemm.shared_stage": 16, "clear_then_sum.register_tile": "2x2", "rowsum.shared_stage": 16, "rowsum.register_tile": "1x2", "only_loop.shared_stage": 8}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
#include <cuda_runtime.h>

typedef float DATA_TYPE;
#define NI 512
#define NJ 512
#define NK 512
#define ALPHA 32412.0f
#define BETA 2123.0f

// PolyBench's spelling: `int k;` before the loop, the bound a macro.
__global__ void gemm(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;

  if ((i < NI) && (j < NJ)) {
    c[i * NJ + j] *= BETA;
    int k;
    for (k = 0; k < NK; k++) {
      c[i * NJ + j] += ALPHA * a[i * NK + k] * b[k * NJ + j];
    }
  }
}
// CHECK-LABEL: void gemm(
// CHECK: __shared__ DATA_TYPE a_tile[8][16];
// CHECK: __shared__ DATA_TYPE b_tile[16][32];
// CHECK: DATA_TYPE c_reg;
// CHECK-NEXT: c_reg = DATA_TYPE();
// CHECK-NEXT: if ((i < NI) && (j < NJ)) {
// CHECK-NEXT:   c_reg = c[i * NJ + j];
// CHECK-NEXT:   c_reg *= BETA;
// CHECK-NEXT: }
// CHECK: c_reg += ALPHA * a_tile[threadIdx.y][k - k_tile] * b_tile[k - k_tile][threadIdx.x];
// CHECK: if ((i < NI) && (j < NJ)) {
// CHECK-NEXT:   c[i * NJ + j] = c_reg;
// CHECK-NEXT: }

// The element is cleared first: it is never loaded.
__global__ void clear_then_sum(const float *A, const float *B, float *E,
                               int ni, int nj, int nk) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= ni || col >= nj)
    return;
  E[row * nj + col] = 0;
  for (int k = 0; k < nk; ++k)
    E[row * nj + col] += A[row * nk + k] * B[k * nj + col];
}
// CHECK-LABEL: void clear_then_sum(
// CHECK: float E_reg_r[2][2];
// CHECK: E_reg_r[oy][ox] = float();
// CHECK-NEXT: if (!(row >= ni || col >= nj)) {
// CHECK-NEXT:   E_reg_r[oy][ox] = 0;
// CHECK-NEXT: }
// CHECK-NOT: = E[
// CHECK: E_reg_r[oy][ox] += A[row * nk + k] * B[k * nj + col];
// CHECK: E[row * nj + col] = E_reg_r[oy][ox];

// A thread per row; the vector read by every thread goes through a tile.
__global__ void rowsum(const double *A, const double *x, double *tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tmp[i] = 0;
    for (int j = 0; j < n; j++)
      tmp[i] += A[i * n + j] * x[j];
  }
}
// CHECK-LABEL: void rowsum(
// CHECK: __shared__ double A_tile[256][16];
// CHECK: __shared__ double x_tile[16];
// CHECK: double tmp_reg_r[1][2];
// CHECK: tmp_reg_r[oy][ox] += A_tile[threadIdx.x + ox * 128][j - j_tile] * x_tile[j - j_tile];
// CHECK: tmp[i] = tmp_reg_r[oy][ox];

// Nothing before the loop touches the element: loaded and stored only
// where the loop runs.
__global__ void only_loop(const float *A, const float *x, float *y, int m,
                          int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m)
    for (int c = 0; c < n; ++c)
      y[r] += A[r * n + c] * x[c];
}
// CHECK-LABEL: void only_loop(
// CHECK: float y_reg;
// CHECK-NEXT: y_reg = float();
// CHECK-NEXT: if (r < m) {
// CHECK-NEXT:   if ((0) < (n)) y_reg = y[r];
// CHECK: if ((0) < (n)) y[r] = y_reg;

// Refused: the statement before the loop writes another element.
__global__ void other_element(const float *A, const float *x, float *y,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i + 1] = 0;
    for (int j = 0; j < n; ++j)
      y[i] += A[i * n + j] * x[j];
  }
}
// KNOBS-DAG: reason = "'y[i + 1]' at {{.*}} is another element of 'y' than the 'y[i]' the loop adds to, which a register would hide from it"

// Refused: the statement before the loop writes a second array.
__global__ void two_arrays(const float *A, const float *x, float *y, float *z,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    z[i] = 1;
    for (int j = 0; j < n; ++j)
      y[i] += A[i * n + j] * x[j];
  }
}
// KNOBS-DAG: reason = "the statement before the loop writes 'z[i]', which is not the element 'y[i]' the loop adds to"

// Refused: launched with the vector and the output the same array.
__global__ void aliased(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = 0;
    for (int j = 0; j < n; ++j)
      y[i] += A[i * n + j] * x[j];
  }
}
// KNOBS-DAG: reason = "'A' may point into 'y' ('y' is passed twice at {{.*}}), and 'y[i]' moves to a register; pass --assume-no-alias if they never overlap"

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "gemm.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "gemm.register_tile"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "clear_then_sum.register_tile"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "rowsum.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "only_loop.shared_stage"

int main() {
  const int n = 1000;
  float *a, *b, *c, *e, *y, *z;
  double *da, *dx, *dt;
  cudaMalloc(&a, sizeof(float) * NI * NK);
  cudaMalloc(&b, sizeof(float) * NK * NJ);
  cudaMalloc(&c, sizeof(float) * NI * NJ);
  cudaMalloc(&e, sizeof(float) * n * n);
  cudaMalloc(&y, sizeof(float) * n);
  cudaMalloc(&z, sizeof(float) * n);
  cudaMalloc(&da, sizeof(double) * n * n);
  cudaMalloc(&dx, sizeof(double) * n);
  cudaMalloc(&dt, sizeof(double) * n);
  dim3 block(32, 8);
  dim3 grid((NJ + 31) / 32, (NI + 7) / 8);
  gemm<<<grid, block>>>(a, b, c);
  clear_then_sum<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(
      a, b, e, n, n, n);
  rowsum<<<(n + 127) / 128, 128>>>(da, dx, dt, n);
  only_loop<<<(n + 127) / 128, 128>>>(e, z, y, n, n);
  other_element<<<(n + 127) / 128, 128>>>(e, z, y, n);
  two_arrays<<<(n + 127) / 128, 128>>>(e, b, y, z, n);
  aliased<<<(n + 127) / 128, 128>>>(e, y, y, n);
  return cudaDeviceSynchronize() != cudaSuccess;
}
