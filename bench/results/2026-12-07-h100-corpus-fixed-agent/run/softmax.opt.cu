// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 03:50 UTC.
// Rewrites, kernel softmax_rows: block-size softmax_rows.block = 512; unroll softmax_rows.unroll.L0 = 8; unroll softmax_rows.unroll.L4 = 8
// Measured (the program's GPU time (every launch of every kernel)): 0.0588 ms (IQR 0.0009 ms) against 0.0617 ms (IQR 0.0009 ms) for the original: 1.05x (at least 1.02x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// softmax: row-wise softmax of a 4096 x 4096 matrix, one block per row,
// block-strided loops and a shared-memory reduction sized by the block.
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

#define THREADS 256
#define softmax_rows_THREADS 512

__global__ void softmax_rows(const float *in, float *out, int cols) {
  __shared__ float red[softmax_rows_THREADS];
  const float *row = in + blockIdx.x * cols;
  float m = -INFINITY;
  #pragma unroll 8
  for (int c = threadIdx.x; c < cols; c += softmax_rows_THREADS)
    m = fmaxf(m, row[c]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = softmax_rows_THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += softmax_rows_THREADS)
    sum += expf(row[c] - m);
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int s = softmax_rows_THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  sum = red[0];
  #pragma unroll 8
  for (int c = threadIdx.x; c < cols; c += softmax_rows_THREADS)
    out[blockIdx.x * cols + c] = expf(row[c] - m) / sum;
}

int main(int argc, char **argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int cols = argc > 2 ? std::atoi(argv[2]) : 4096;
  std::vector<float> in((size_t)rows * cols), out(in.size());
  srand(13);
  for (float &v : in)
    v = 8.0f * (rand() / (float)RAND_MAX) - 4.0f;
  float *din, *dout;
  CHECK(cudaMalloc(&din, in.size() * sizeof(float)));
  CHECK(cudaMalloc(&dout, out.size() * sizeof(float)));
  CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0xff, out.size() * sizeof(float)));
  softmax_rows<<<rows, softmax_rows_THREADS>>>(din, dout, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (int r = 0; r < rows; ++r) {
    const float *x = &in[(size_t)r * cols];
    double m = -INFINITY, s = 0;
    for (int c = 0; c < cols; ++c)
      m = std::fmax(m, x[c]);
    for (int c = 0; c < cols; ++c)
      s += std::exp(x[c] - m);
    for (int c = 0; c < cols; ++c) {
      double ref = std::exp(x[c] - m) / s;
      if (!(std::fabs(out[(size_t)r * cols + c] - ref) <= 1e-5 * ref + 1e-9))
        ++bad;
    }
  }
  std::printf("%s softmax (%zu wrong)\n", bad ? "FAILED" : "PASSED", bad);
  cudaFree(din);
  cudaFree(dout);
  return bad ? 1 : 0;
}
