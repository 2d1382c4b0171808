// scalar-replace: a global element a loop reads and writes at one index
// (`C[i][j] += ...` over k, `y[i] += ...` over j) lives in a register for
// the whole loop, loaded before it and stored after it only when the loop
// runs. PolyBench's spelling (counter declared before the loop, sizes and
// element type in macros), a prologue before the loop, an unroll pragma
// kept next to its loop; refusals name what a register would break.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"gemm_like.scalar_replace.L0": true, "gemm_like.unroll.L0": 4, "row_dot.scalar_replace.L0": true, "accum_restrict.scalar_replace.L0": true}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
#include <cuda_runtime.h>

#define NI 256
#define NJ 256
#define NK 128
#define DATA_TYPE float

__global__ void gemm_like(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < NI && j < NJ) {
    int k;
    C[i * NJ + j] *= 0.5f;
    for (k = 0; k < NK; k++)
      C[i * NJ + j] += A[i * NK + k] * B[k * NJ + j];
  }
}

__global__ void row_dot(const double *M, const double *v, double *out,
                        int rows, int cols) {
  int r = threadIdx.x + blockIdx.x * blockDim.x;
  if (r >= rows)
    return;
  out[r] = 0.0;
#pragma unroll 2
  for (int c = 0; c <= cols - 1; ++c)
    out[r] = out[r] + M[(size_t)r * cols + c] * v[c];
}

// Refused: c[k] is c[i] when k == i.
__global__ void self_sum(float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < n; ++k)
      c[i] += c[k] * 0.001f;
}

// Refused: another thread may read the element after the barrier.
__global__ void with_barrier(float *acc, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; ++k) {
    acc[i] += x[k];
    __syncthreads();
  }
}

// Refused: the lanes of a warp read each other's running sums.
__global__ void warp_neighbours(float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  for (int j = 0; j < n; j++) {
    a[i] += b[j];
    __syncwarp();
    c[i] += lane < 31 ? a[i + 1] : 0.0f;
    __syncwarp();
  }
}

// Refused: r reads the element where the model sees only r.
__global__ void through_reference(int *a, const int *b, int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int &r = a[i];
  for (int j = 0; j < n; j++) {
    a[i] += b[j];
    c[j * n + i] = r;
  }
}

// Refused: a while loop.
__global__ void while_sum(float *s, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 0;
  while (k < n) {
    s[i] += x[k];
    k++;
  }
}

// Refused: only some iterations touch the element.
__global__ void positive_sum(float *s, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < n; ++k)
      if (x[k] > 0.0f)
        s[i] += x[k];
}

// Refused: launched with its caller's pointers, which may be one array...
__global__ void accum(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < 8; ++k)
      out[i] += in[i * 8 + k];
}

// ... unless __restrict__ says they are not.
__global__ void accum_restrict(float *__restrict__ out,
                               const float *__restrict__ in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < 8; ++k)
      out[i] += in[i * 8 + k];
}

void run(float *p, float *q, int n) {
  accum<<<(n + 255) / 256, 256>>>(p, q, n);
  accum_restrict<<<(n + 255) / 256, 256>>>(p, q, n);
}

int main() {
  float *A, *B, *C;
  double *M, *v, *o;
  cudaMalloc(&A, NI * NK * sizeof(float));
  cudaMalloc(&B, NK * NJ * sizeof(float));
  cudaMalloc(&C, NI * NJ * sizeof(float));
  cudaMalloc(&M, 1000 * 100 * sizeof(double));
  cudaMalloc(&v, 100 * sizeof(double));
  cudaMalloc(&o, 1000 * sizeof(double));
  gemm_like<<<dim3(NJ / 32, NI / 8), dim3(32, 8)>>>(A, B, C);
  row_dot<<<(1000 + 127) / 128, 128>>>(M, v, o, 1000, 100);
  self_sum<<<1, 256>>>(C, 256);
  with_barrier<<<1, 256>>>(C, A, 256);
  while_sum<<<1, 256>>>(C, A, 256);
  int *ia, *ib, *ic;
  cudaMalloc(&ia, 256 * sizeof(int));
  cudaMalloc(&ib, 256 * sizeof(int));
  cudaMalloc(&ic, 256 * 256 * sizeof(int));
  warp_neighbours<<<1, 256>>>(A, B, C, 256);
  through_reference<<<1, 256>>>(ia, ib, ic, 256);
  positive_sum<<<1, 256>>>(C, A, 256);
  cudaDeviceSynchronize();
  return 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "gemm_like.scalar_replace.L0"
// KNOBS-DAG: knobs[{{[0-9]+}}].role = "scalar-replacement"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "row_dot.scalar_replace.L0"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "accum_restrict.scalar_replace.L0"
// KNOBS-DAG: reason = "loop L0: 'c[k]' at {{.*}}scalar-replace.cu:45:15 may access the element 'c[i]' at {{.*}}:45:7 accesses, which a register would hide from it"
// KNOBS-DAG: reason = "loop L0: threads synchronize or exchange data inside (a barrier, a warp intrinsic or inline assembly): another thread may read the element between two iterations"
// KNOBS-DAG: reason = "loop L0: 'a' escapes the analysis (an element is bound to the reference 'r'), so 'a' may be accessed where the model does not see it"
// KNOBS-DAG: reason = "loop L0: a while loop: whether it runs at all is not known before it starts"
// KNOBS-DAG: reason = "loop L0: 's[i]' at {{.*}}:95:9 is skipped by a branch in some iterations, so the element is not known to lie inside its array"
// KNOBS-DAG: reason = "loop L0: 'in[i * 8 + k]' at {{.*}}:103:17 may access the element 'out[i]' at {{.*}}:103:7 accesses (the launch at {{.*}} passes parameters of 'run', and no call of 'run' in this file shows what they point to), which a register would hide from it"

// CHECK-LABEL: void gemm_like(
// CHECK:       C[i * NJ + j] *= 0.5f;
// CHECK-NEXT:  { // cuda-rewrite-opt: C[j + (long long)256 * i] held in a register across the loop
// CHECK-NEXT:  const bool k_loop_runs = (0) < (NK);
// CHECK-NEXT:  float C_reg;
// CHECK-NEXT:  if (k_loop_runs)
// CHECK-NEXT:    C_reg = C[j + (long long)256 * i];
// CHECK-NEXT:  #pragma unroll 4
// CHECK-NEXT:  for (k = 0; k < NK; k++)
// CHECK-NEXT:    C_reg += A[i * NK + k] * B[k * NJ + j];
// CHECK-NEXT:  if (k_loop_runs)
// CHECK-NEXT:    C[j + (long long)256 * i] = C_reg;
// CHECK-NEXT:  }
// The existing pragma stays next to its loop; `<=` is the loop's own test.
// CHECK-LABEL: void row_dot(
// CHECK:       out[r] = 0.0;
// CHECK-NEXT:  { // cuda-rewrite-opt: out[r] held in a register across the loop
// CHECK-NEXT:  const bool c_loop_runs = (0) <= (cols - 1);
// CHECK:       #pragma unroll 2
// CHECK-NEXT:  for (int c = 0; c <= cols - 1; ++c)
// CHECK-NEXT:    out_reg = out_reg + M[(size_t)r * cols + c] * v[c];
// CHECK-NEXT:  if (c_loop_runs)
// CHECK-NEXT:    out[r] = out_reg;
// CHECK-LABEL: void accum_restrict(
// CHECK:       out_reg += in[i * 8 + k];
