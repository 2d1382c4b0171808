// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H200 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-02 15:08 UTC.
// Rewrites, all kernels: launch-bounds nvcc.maxrregcount = 168
// Measured: 0.1371 ms (IQR 0.0035 ms) against 0.1610 ms (IQR 0.0037 ms) for the original: 1.17x, 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: build this variant with nvcc -maxrregcount=168
// spmv: y = A x on a random banded sparse matrix, then a polynomial smoother;
// checks both against the CPU and prints PASSED.
// Usage: spmv [rows] [nonzeros per row] [iterations]
#include "config.h"
#include "spmv_kernels.cuh"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                      \
              cudaGetErrorString(e_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 1 << 20;
  int per_row = argc > 2 ? atoi(argv[2]) : 24;
  int iterations = argc > 3 ? atoi(argv[3]) : 10;
  if (rows < 1 || per_row < 1 || iterations < 1) {
    fprintf(stderr, "usage: spmv [rows] [nonzeros per row] [iterations]\n");
    return 2;
  }
  srand(12345);
  std::vector<int> row_ptr(rows + 1), cols;
  std::vector<real_t> vals, x(rows), coef(TERMS);
  cols.reserve(size_t(rows) * per_row);
  vals.reserve(size_t(rows) * per_row);
  for (int r = 0; r < rows; ++r) {
    row_ptr[r] = int(cols.size());
    for (int k = 0; k < per_row; ++k) {
      int c = r + (rand() % 4097) - 2048; // a band: reuse of x in L1/L2
      cols.push_back(((c % rows) + rows) % rows);
      vals.push_back(real_t(rand()) / RAND_MAX - 0.5f);
    }
  }
  row_ptr[rows] = int(cols.size());
  for (real_t &v : x)
    v = real_t(rand()) / RAND_MAX;
  for (int t = 0; t < TERMS; ++t)
    coef[t] = real_t(1.0 / (t + 2));

  int *d_row_ptr, *d_cols;
  real_t *d_vals, *d_x, *d_y, *d_s, *d_coef;
  size_t nnz = cols.size();
  CHECK(cudaMalloc(&d_row_ptr, (rows + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_cols, nnz * sizeof(int)));
  CHECK(cudaMalloc(&d_vals, nnz * sizeof(real_t)));
  CHECK(cudaMalloc(&d_x, rows * sizeof(real_t)));
  CHECK(cudaMalloc(&d_y, rows * sizeof(real_t)));
  CHECK(cudaMalloc(&d_s, rows * sizeof(real_t)));
  CHECK(cudaMalloc(&d_coef, TERMS * sizeof(real_t)));
  CHECK(cudaMemcpy(d_row_ptr, row_ptr.data(), (rows + 1) * sizeof(int),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cols, cols.data(), nnz * sizeof(int),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vals, vals.data(), nnz * sizeof(real_t),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x.data(), rows * sizeof(real_t),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_coef, coef.data(), TERMS * sizeof(real_t),
                   cudaMemcpyHostToDevice));

  int blocks = (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK;
  for (int it = 0; it < iterations; ++it) {
    spmv_csr<<<blocks, ROWS_PER_BLOCK>>>(d_row_ptr, d_cols, d_vals, d_x, d_y,
                                         rows);
    smooth<<<blocks, ROWS_PER_BLOCK>>>(d_y, d_s, d_coef, rows);
  }
  CHECK(cudaGetLastError());
  std::vector<real_t> y(rows), s(rows);
  CHECK(cudaMemcpy(y.data(), d_y, rows * sizeof(real_t),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(s.data(), d_s, rows * sizeof(real_t),
                   cudaMemcpyDeviceToHost));

  // The CPU reference, in double; float sums of 24 terms agree to ~1e-5.
  int bad = 0;
  std::vector<double> ref(rows);
  for (int r = 0; r < rows; ++r) {
    double sum = 0;
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j)
      sum += double(vals[j]) * x[cols[j]];
    ref[r] = sum;
    if (std::fabs(sum - y[r]) > 1e-4 * (1 + std::fabs(sum)) && bad++ < 5)
      fprintf(stderr, "y[%d] = %g, expected %g\n", r, y[r], sum);
  }
  for (int i = 0; i < rows; ++i) {
    double r = 0;
    for (int t = 0; t < TERMS; ++t) {
      double a = y[(i + t * 977) % rows], h = coef[TERMS - 1];
      for (int c = TERMS - 2; c >= 0; --c)
        h = h * a + coef[c];
      r += h;
    }
    r /= TERMS;
    if (std::fabs(r - s[i]) > 1e-4 * (1 + std::fabs(r)) && bad++ < 5)
      fprintf(stderr, "s[%d] = %g, expected %g\n", i, s[i], r);
  }
  printf("spmv: %d rows, %zu nonzeros, %d iterations: %s\n", rows, nnz,
         iterations, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
