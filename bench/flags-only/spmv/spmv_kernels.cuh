// Sparse matrix-vector product (CSR, one thread per row) and a polynomial
// smoother whose unrolled Horner chains keep many values in registers.
#pragma once
#include "config.h"

__global__ void spmv_csr(const int *row_ptr, const int *cols,
                         const real_t *vals, const real_t *x, real_t *y,
                         int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  real_t sum = 0;
  for (int j = row_ptr[row]; j < row_ptr[row + 1]; ++j)
    sum += vals[j] * x[cols[j]];
  y[row] = sum;
}

#define TERMS 16
__global__ void smooth(const real_t *in, real_t *out, const real_t *coef,
                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  real_t acc[TERMS];
#pragma unroll
  for (int t = 0; t < TERMS; ++t)
    acc[t] = in[(i + t * 977) % n];
  real_t r = 0;
#pragma unroll
  for (int t = 0; t < TERMS; ++t) {
    real_t h = coef[TERMS - 1];
#pragma unroll
    for (int c = TERMS - 2; c >= 0; --c)
      h = h * acc[t] + coef[c];
    r += h;
  }
  out[i] = r / TERMS;
}
