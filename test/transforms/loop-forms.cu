// Counted loops in the spellings of legacy HPC code: the counter declared
// before the loop (`int k; for (k = 0; ...)`), `<=` bounds, the bound on
// the left (`n > k`), `k = k + 1`. tile and register-tile take them all;
// a counter read after its loop keeps its loop as written, since the
// rewritten loop counts with a variable of its own.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"rowsum_le.tile.L0": 8, "dot_left.tile.L0": 4, "two_loops.tile.L0": 16, "two_loops.tile.L1": 16, "matvec_old.register_tile": "1x2"}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
#include <cuda_runtime.h>

#define N_COLS 512

__global__ void rowsum_le(const float *a, float *s, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int k;
  float acc = 0.0f;
  if (r < rows) {
    for (k = 0; k <= n - 1; k++)
      acc += a[r * n + k];
    s[r] = acc;
  }
}

__global__ void dot_left(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float t = 0.0f;
  for (int k = 0; n > k; k = k + 1)
    t += a[i * n + k] * b[k];
  c[i] = t;
}

// The counter's last value is used: the loop stays as it is.
__global__ void counted_tail(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k;
  float acc = 0.0f;
  if (i < n) {
    for (k = 0; k < n; k++)
      acc += a[k];
    out[i] = acc + (float)k;
  }
}

// The enclosing loop counts with the same variable: its condition reads
// what the inner loop left in j, so the inner loop keeps j.
__global__ void shared_counter(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j;
  float acc = 0.0f;
  for (j = 0; j < 3; j++) {
    for (j = 0; j < n; j++)
      acc += a[j];
    out[i] = acc;
  }
}

// One counter, two loops, each assigning it first.
__global__ void two_loops(const float *a, float *p, float *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k;
  if (i < n) {
    float s = 0.0f, t = 0.0f;
    for (k = 0; k < n; k++)
      s += a[i * n + k];
    for (k = 0; k < n; k++)
      t += a[k * n + i];
    p[i] = s;
    q[i] = t;
  }
}

// PolyBench's matrix-vector product: `int j;` before the reduction loop.
__global__ void matvec_old(const float *A, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j;
  if (i < N_COLS) {
    float sum = 0.0f;
    for (j = 0; j < N_COLS; j++)
      sum += A[i * N_COLS + j] * x[j];
    y[i] = sum;
  }
}

int main() {
  const int n = 512;
  float *a, *b, *c, *d;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  rowsum_le<<<(n + 127) / 128, 128>>>(a, c, n, n);
  dot_left<<<(n + 127) / 128, 128>>>(a, b, c, n);
  counted_tail<<<(n + 127) / 128, 128>>>(a, c, n);
  two_loops<<<(n + 127) / 128, 128>>>(a, c, d, n);
  shared_counter<<<(n + 127) / 128, 128>>>(a, c, n);
  matvec_old<<<(N_COLS + 127) / 128, 128>>>(a, b, c);
  cudaDeviceSynchronize();
  return 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "rowsum_le.tile.L0"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "dot_left.tile.L0"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "two_loops.tile.L0"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "two_loops.tile.L1"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "matvec_old.register_tile"
// KNOBS-DAG: reason = "loop L1: 'j' is read at {{.*}}loop-forms.cu:53:15, outside the loops that assign it, and the tiled loop counts with a variable of its own"
// KNOBS-DAG: reason = "loop L0: 'k' is read at {{.*}}loop-forms.cu:43:27, outside the loops that assign it, and the tiled loop counts with a variable of its own"

// `<=` stays `<=`; the counter declared before gets one of its own.
// CHECK-LABEL: void rowsum_le(
// CHECK:       for (int k_tile = 0; k_tile <= n - 1; k_tile += 8)
// CHECK-NEXT:    for (int k = k_tile; k < k_tile + 8 && k <= n - 1; ++k)
// CHECK-LABEL: void dot_left(
// CHECK:       for (int k_tile = 0; k_tile < n; k_tile += 4)
// CHECK-NEXT:    for (int k = k_tile; k < k_tile + 4 && k < n; ++k)
// CHECK-LABEL: void two_loops(
// CHECK:       for (int k_tile = 0; k_tile < n; k_tile += 16)
// CHECK-NEXT:    for (int k = k_tile; k < k_tile + 16 && k < n; ++k)
// CHECK:       for (int k_tile = 0; k_tile < n; k_tile += 16)
// CHECK-NEXT:    for (int k = k_tile; k < k_tile + 16 && k < n; ++k)
// Two rows per thread; the rewritten loop declares its own counter (the
// `int j;` before the guard stays, unused).
// CHECK-LABEL: void matvec_old(
// CHECK:       float sum_r[1][2];
// CHECK:       for (int j = 0; j < N_COLS; ++j) {
