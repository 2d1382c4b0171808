// carry-forward: the element one iteration stores and the next one reads
// (`y[k]` then `y[k - 1]`) is handed over in a register, not read back from
// memory. A running total by one thread (counter declared before the loop,
// a body without braces), the forward sweep and back substitution of
// batched tridiagonal solves (systems interleaved, a typedef'd element, a
// step of -1, two arrays carried at once), a first-order filter per row
// whose first iteration reads no neighbour (an index macro): the first
// iteration reads memory where the original does, later ones the register.
// Refused: a store skipped by a branch, a `continue`, a store through a
// postfix increment, arrays the launch may alias, a barrier in the loop.
// The program checks itself against the CPU and times each kernel
// (bench/memory-generality-gpu.sh runs it on the GPU).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"running_total.carry_forward.L0": true, "thomas.carry_forward.L0": true, "thomas.carry_forward.L1": true, "iir_rows.carry_forward.L0": true, "iir_rows.unroll.L0": 4}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: %strip-checks < %t.cu | FileCheck %s
// RUN: nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

typedef float real;
#define IDX(r, c) ((r) * width + (c))

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "running_total.carry_forward.L0"
// CHECK-LABEL: __global__ void running_total(
// CHECK: if (blockIdx.x == 0 && threadIdx.x == 0) {
// CHECK-NEXT: { // cuda-rewrite-opt: totals[k - 1] carried in a register from the iteration that stores it
// CHECK-NEXT: bool k_carried = false;
// CHECK-NEXT: long long totals_prev, totals_next;
// CHECK-NEXT: for (k = 1; k < count; k++) {
// CHECK-NEXT: (totals_next = (totals[k] += (k_carried ? totals_prev : totals[k - 1])));
// CHECK-NEXT: totals_prev = totals_next;
// CHECK-NEXT: k_carried = true;
// CHECK-NEXT: }
// CHECK-NEXT: }
__global__ void running_total(long long *totals, int count) {
  int k;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    { // cuda-rewrite-opt: totals[k - 1] carried in a register from the iteration that stores it
    bool k_carried = false;
    long long totals_prev, totals_next;
    for (k = 1; k < count; k++) {
      (totals_next = (totals[k] += (k_carried ? totals_prev : totals[k - 1])));
      totals_prev = totals_next;
      k_carried = true;
    }
    }
  }
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "thomas.carry_forward.L0"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "thomas.carry_forward.L1"
// CHECK-LABEL: __global__ void thomas(
// CHECK: { // cuda-rewrite-opt: c[at - systems], d[at - systems] carried in a register from the iteration that stores it
// CHECK-NEXT: bool i_carried = false;
// CHECK-NEXT: real c_prev, c_next;
// CHECK-NEXT: real d_prev, d_next;
// CHECK-NEXT: for (int i = 1; i < n; i++) {
// CHECK: real m = 1.0f / (b[at] - a[at] * (i_carried ? c_prev : c[at - systems]));
// CHECK-NEXT: (c_next = (c[at] = c[at] * m));
// CHECK-NEXT: (d_next = (d[at] = (d[at] - a[at] * (i_carried ? d_prev : d[at - systems])) * m));
// CHECK-NEXT: c_prev = c_next;
// CHECK-NEXT: d_prev = d_next;
// CHECK-NEXT: i_carried = true;
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK: { // cuda-rewrite-opt: x[(i + 1) * systems + s] carried
// CHECK: for (int i = n - 2; i >= 0; --i) {
// CHECK-NEXT: (x_next = (x[i * systems + s] =
// CHECK-NEXT: d[i * systems + s] - c[i * systems + s] * (i_carried ? x_prev : x[(i + 1) * systems + s])));
__global__ void thomas(const real *__restrict__ a, const real *__restrict__ b,
                       real *__restrict__ c, real *__restrict__ d,
                       real *__restrict__ x, int n, int systems) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= systems)
    return;
  c[s] = c[s] / b[s];
  d[s] = d[s] / b[s];
  { // cuda-rewrite-opt: c[at - systems], d[at - systems] carried in a register from the iteration that stores it
  bool i_carried = false;
  real c_prev, c_next;
  real d_prev, d_next;
  for (int i = 1; i < n; i++) {
    int at = i * systems + s;
    real m = 1.0f / (b[at] - a[at] * (i_carried ? c_prev : c[at - systems]));
    (c_next = (c[at] = c[at] * m));
    (d_next = (d[at] = (d[at] - a[at] * (i_carried ? d_prev : d[at - systems])) * m));
    c_prev = c_next;
    d_prev = d_next;
    i_carried = true;
  }
  }
  x[(n - 1) * systems + s] = d[(n - 1) * systems + s];
  { // cuda-rewrite-opt: x[(i + 1) * systems + s] carried in a register from the iteration that stores it
  bool i_carried = false;
  real x_prev, x_next;
  for (int i = n - 2; i >= 0; --i) {
    (x_next = (x[i * systems + s] =
        d[i * systems + s] - c[i * systems + s] * (i_carried ? x_prev : x[(i + 1) * systems + s])));
    x_prev = x_next;
    i_carried = true;
  }
  }
}

// The neighbour is read only from the second iteration on: the first reads
// no memory through the register's fallback either.
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "iir_rows.carry_forward.L0"
// CHECK-LABEL: __global__ void iir_rows(
// CHECK: bool j_carried = false;
// CHECK-NEXT: float y_prev, y_next;
// CHECK-NEXT: #pragma unroll 4
// CHECK-NEXT: for (int j = 0; j < width; ++j) {
// CHECK-NEXT: float before = j > 0 ? (j_carried ? y_prev : y[IDX(row, j - 1)]) : 0.0f;
// CHECK-NEXT: (y_next = (y[IDX(row, j)] = alpha * x[IDX(row, j)] + (1.0f - alpha) * before));
// CHECK-NEXT: y_prev = y_next;
// CHECK-NEXT: j_carried = true;
// CHECK-NEXT: }
__global__ void iir_rows(const float *x, float *y, int rows, int width,
                         float alpha) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    { // cuda-rewrite-opt: y[IDX(row, j - 1)] carried in a register from the iteration that stores it
    bool j_carried = false;
    float y_prev, y_next;
    for (int j = 0; j < width; ++j) {
      float before = j > 0 ? (j_carried ? y_prev : y[IDX(row, j - 1)]) : 0.0f;
      (y_next = (y[IDX(row, j)] = alpha * x[IDX(row, j)] + (1.0f - alpha) * before));
      y_prev = y_next;
      j_carried = true;
    }
    }
  }
}

// Refused: in an iteration that skips the store the next one reads the
// element stored before the loop.
// KNOBS-DAG: refused[{{[0-9]+}}].reason = "loop L0: the store 'p[k]' at {{.*}} is skipped by a branch in some iterations, so the next iteration may read an element stored before the loop"
__global__ void skip_negative(float *p, int n) {
  for (int k = 1; k < n; ++k)
    if (p[k] > 0.0f)
      p[k] = p[k] + p[k - 1];
}

// KNOBS-DAG: refused[{{[0-9]+}}].reason = "loop L0: the body uses 'continue': an iteration may skip the store the next one reads"
__global__ void with_continue(float *p, int n) {
  for (int k = 1; k < n; ++k) {
    if (k == 7)
      continue;
    p[k] = p[k] * 0.5f + p[k - 1];
  }
}

// KNOBS-DAG: refused[{{[0-9]+}}].reason = "loop L0: the store 'h[k]' at {{.*}} is a postfix increment or an overloaded operator: the expression's value is not the element it stores"
__global__ void postfix_store(int *h, int *seen, int n) {
  for (int k = 1; k < n; ++k) {
    seen[k] = h[k - 1];
    h[k]++;
  }
}

// The launch passes one array as both: a write through 'out' may be the
// element 'in' carries.
// KNOBS-DAG: refused[{{[0-9]+}}].reason = "loop L0: 'out[k]' at {{.*}} may write the element 'acc[k - 1]' at {{.*}} reads ({{.*}}), which a register carried from the iteration before would not see"
__global__ void maybe_aliased(float *acc, float *out, int n) {
  for (int k = 1; k < n; ++k) {
    acc[k] = acc[k] + acc[k - 1];
    out[k] = 0.0f;
  }
}

// KNOBS-DAG: refused[{{[0-9]+}}].reason = "loop L0: threads synchronize or exchange data inside (a barrier, a warp intrinsic or inline assembly): another thread may write the element between two iterations"
__global__ void with_barrier(float *p, int n) {
  for (int k = 1; k < n; ++k) {
    if (threadIdx.x == 0)
      p[k] = 0.0f;
    __syncthreads();
    p[k] = p[k] + p[k - 1];
  }
}

static float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  cudaEventSynchronize(b);
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

int main() {
  bool ok = true;
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  // Loads the kernels before their timed launches (lazy module loading
  // would otherwise time the first launch's load).
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, running_total);
  cudaFuncGetAttributes(&attr, thomas);
  cudaFuncGetAttributes(&attr, iir_rows);

  // running_total
  const int count = 1 << 16;
  std::vector<long long> tot(count);
  for (int k = 0; k < count; ++k)
    tot[k] = (k * 7919) % 23 - 11;
  long long *dtot;
  cudaMalloc(&dtot, count * sizeof(long long));
  cudaMemcpy(dtot, tot.data(), count * sizeof(long long),
             cudaMemcpyHostToDevice);
  cudaEventRecord(t0);
  running_total<<<1, 1>>>(dtot, count);
  cudaEventRecord(t1);
  float msTotal = elapsed(t0, t1);
  std::vector<long long> gotTot(count);
  cudaMemcpy(gotTot.data(), dtot, count * sizeof(long long),
             cudaMemcpyDeviceToHost);
  for (int k = 1; k < count; ++k)
    tot[k] += tot[k - 1];
  ok &= gotTot == tot;

  // thomas: diagonally dominant systems
  const int n = 256, systems = 1 << 16;
  size_t all = (size_t)n * systems;
  std::vector<real> a(all), b(all), c(all), d(all);
  for (size_t e = 0; e < all; ++e) {
    a[e] = 0.1f + (e % 7) * 0.05f;
    b[e] = 2.0f + (e % 5) * 0.1f;
    c[e] = 0.2f + (e % 3) * 0.1f;
    d[e] = 1.0f + (e % 11) * 0.25f;
  }
  real *da, *db, *dc, *dd, *dx;
  for (real **p : {&da, &db, &dc, &dd, &dx})
    cudaMalloc(p, all * sizeof(real));
  cudaMemcpy(da, a.data(), all * sizeof(real), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), all * sizeof(real), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), all * sizeof(real), cudaMemcpyHostToDevice);
  cudaMemcpy(dd, d.data(), all * sizeof(real), cudaMemcpyHostToDevice);
  cudaEventRecord(t0);
  thomas<<<systems / 128, 128>>>(da, db, dc, dd, dx, n, systems);
  cudaEventRecord(t1);
  float msThomas = elapsed(t0, t1);
  std::vector<real> x(all);
  cudaMemcpy(x.data(), dx, all * sizeof(real), cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int s = 0; s < systems; s += 97) {
    std::vector<double> cc(n), dd2(n), xx(n);
    auto at = [&](int i) { return (size_t)i * systems + s; };
    cc[0] = c[at(0)] / b[at(0)];
    dd2[0] = d[at(0)] / b[at(0)];
    for (int i = 1; i < n; ++i) {
      double m = 1.0 / (b[at(i)] - a[at(i)] * cc[i - 1]);
      cc[i] = c[at(i)] * m;
      dd2[i] = (d[at(i)] - a[at(i)] * dd2[i - 1]) * m;
    }
    xx[n - 1] = dd2[n - 1];
    for (int i = n - 2; i >= 0; --i)
      xx[i] = dd2[i] - cc[i] * xx[i + 1];
    for (int i = 0; i < n; ++i)
      worst = std::fmax(worst, std::fabs(xx[i] - x[at(i)]) /
                                   (std::fabs(xx[i]) + 1e-3));
  }
  ok &= worst < 1e-4;

  // iir_rows
  const int rows = 1 << 15, width = 512;
  std::vector<float> in((size_t)rows * width);
  for (size_t e = 0; e < in.size(); ++e)
    in[e] = (float)((e * 31) % 17) - 8.0f;
  float *dxin, *dy;
  cudaMalloc(&dxin, in.size() * sizeof(float));
  cudaMalloc(&dy, in.size() * sizeof(float));
  cudaMemcpy(dxin, in.data(), in.size() * sizeof(float),
             cudaMemcpyHostToDevice);
  cudaEventRecord(t0);
  iir_rows<<<rows / 256, 256>>>(dxin, dy, rows, width, 0.25f);
  cudaEventRecord(t1);
  float msIir = elapsed(t0, t1);
  std::vector<float> y(in.size());
  cudaMemcpy(y.data(), dy, y.size() * sizeof(float), cudaMemcpyDeviceToHost);
  double worstIir = 0;
  for (int r = 0; r < rows; r += 61) {
    double before = 0;
    for (int j = 0; j < width; ++j) {
      double v = 0.25 * in[IDX(r, j)] + 0.75 * before;
      worstIir = std::fmax(worstIir, std::fabs(v - y[IDX(r, j)]) /
                                         (std::fabs(v) + 1e-3));
      before = v;
    }
  }
  ok &= worstIir < 1e-4;

  // The same array as both arguments (the refusal above).
  maybe_aliased<<<1, 1>>>(dy, dy, 64);
  cudaDeviceSynchronize();

  cudaError_t e = cudaGetLastError();
  ok &= e == cudaSuccess;
  std::printf("%s carry-forward (running_total %.3f ms, thomas %.3f ms, "
              "iir_rows %.3f ms; errors %.2g %.2g; %s)\n",
              ok ? "PASSED" : "FAILED", msTotal, msThomas, msIir, worst,
              worstIir, cudaGetErrorString(e));
  return ok ? 0 : 1;
}
