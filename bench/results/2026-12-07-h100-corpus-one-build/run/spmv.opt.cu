// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 17:01 UTC.
// Rewrites, all kernels: launch-bounds nvcc.maxrregcount = 168
// Rewrites, kernel spmv_csr: coarsen spmv_csr.coarsen = "x2"
// Measured (the program's GPU time (every launch of every kernel)): 0.1948 ms (IQR 0.0008 ms) against 0.2150 ms (IQR 0.0009 ms) for the original: 1.10x (at least 1.09x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: build this variant with nvcc -maxrregcount=168
// spmv: y = A x for a random CSR matrix, 1 Mi rows, ~16 nonzeros per row,
// one thread per row.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e_));                                    \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

__global__ void spmv_csr(int rows, const int *rowptr, const int *cols,
                         const float *vals, const float *x, float *y) {
  const int r_first = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  #pragma unroll
  for (int r_step = 0; r_step < 2; ++r_step) {
  const int r = r_first + r_step * blockDim.x;
  if (r < rows) {
    float acc = 0.0f;
    for (int j = rowptr[r]; j < rowptr[r + 1]; ++j)
      acc += vals[j] * x[cols[j]];
    y[r] = acc;
  }
  }
}

int main() {
  const int rows = 1 << 20, cols = 1 << 20;
  std::vector<int> rowptr(rows + 1), colidx;
  std::vector<float> vals, x(cols), y(rows);
  srand(29);
  rowptr[0] = 0;
  for (int r = 0; r < rows; ++r) {
    int nnz = 8 + rand() % 17;
    for (int k = 0; k < nnz; ++k) {
      colidx.push_back(rand() % cols);
      vals.push_back(rand() / (float)RAND_MAX - 0.5f);
    }
    rowptr[r + 1] = (int)colidx.size();
  }
  for (float &v : x)
    v = rand() / (float)RAND_MAX - 0.5f;
  int *dr, *dc;
  float *dv, *dx, *dy;
  CHECK(cudaMalloc(&dr, rowptr.size() * sizeof(int)));
  CHECK(cudaMalloc(&dc, colidx.size() * sizeof(int)));
  CHECK(cudaMalloc(&dv, vals.size() * sizeof(float)));
  CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
  CHECK(cudaMalloc(&dy, y.size() * sizeof(float)));
  CHECK(cudaMemcpy(dr, rowptr.data(), rowptr.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, colidx.data(), colidx.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, vals.data(), vals.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dy, 0xff, y.size() * sizeof(float)));
  spmv_csr<<<(((rows) + 2 - 1) / 2 + 255) / 256, 256>>>(rows, dr, dc, dv, dx, dy);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, y.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < rows; ++r) {
    double acc = 0, mag = 0;
    for (int j = rowptr[r]; j < rowptr[r + 1]; ++j) {
      acc += (double)vals[j] * x[colidx[j]];
      mag += std::fabs((double)vals[j] * x[colidx[j]]);
    }
    if (!(std::fabs(y[r] - acc) <= 1e-5 * mag + 1e-7))
      ++bad;
  }
  std::printf("%s spmv (%d of %d rows wrong)\n", bad ? "FAILED" : "PASSED", bad, rows);
  cudaFree(dr);
  cudaFree(dc);
  cudaFree(dv);
  cudaFree(dx);
  cudaFree(dy);
  return bad ? 1 : 0;
}
