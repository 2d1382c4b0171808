// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 16:53 UTC.
// Rewrites, kernel layernorm: block-size layernorm.block = 1024; warp-reduce layernorm.warp_reduce = 32
// Measured (the program's GPU time (every launch of every kernel)): 0.0841 ms (IQR 0.0006 ms) against 0.4501 ms (IQR 0.0007 ms) for the original: 5.35x (at least 5.27x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// layernorm: per-row layer normalization of 16384 x 1024 floats with gain
// and bias; first version: one thread per row.
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

__global__ void layernorm(const float *x, const float *gamma, const float *beta,
                          float *y, int rows, int cols, float eps) {
  // cuda-rewrite-opt: 32 lanes share each thread's loop
  const unsigned lane = threadIdx.x % 32;
  const unsigned group_mask = 0xffffffffu;
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (r >= rows)
    return;
  float mean = 0.0f;
  if (lane != 0)
    mean = 0;
  for (int c = (0) + lane; c < cols; c += 32)
    mean += x[r * cols + c];
  for (int offset = 16; offset > 0; offset /= 2)
    mean += __shfl_xor_sync(group_mask, mean, offset, 32);
  mean /= cols;
  float var = 0.0f;
  if (lane != 0)
    var = 0;
  for (int c = (0) + lane; c < cols; c += 32) {
    float d = x[r * cols + c] - mean;
    var += d * d;
  }
  for (int offset = 16; offset > 0; offset /= 2)
    var += __shfl_xor_sync(group_mask, var, offset, 32);
  var /= cols;
  float inv = rsqrtf(var + eps);
  for (int c = (0) + lane; c < cols; c += 32)
    y[r * cols + c] = (x[r * cols + c] - mean) * inv * gamma[c] + beta[c];
}

int main() {
  const int rows = 16384, cols = 1024;
  const float eps = 1e-5f;
  std::vector<float> x((size_t)rows * cols), g(cols), b(cols), y(x.size());
  srand(37);
  for (float &v : x)
    v = 4.0f * (rand() / (float)RAND_MAX) - 1.0f;
  for (int c = 0; c < cols; ++c) {
    g[c] = 0.5f + rand() / (float)RAND_MAX;
    b[c] = rand() / (float)RAND_MAX - 0.5f;
  }
  float *dx, *dg, *db, *dy;
  CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
  CHECK(cudaMalloc(&dg, cols * sizeof(float)));
  CHECK(cudaMalloc(&db, cols * sizeof(float)));
  CHECK(cudaMalloc(&dy, y.size() * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dg, g.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dy, 0xff, y.size() * sizeof(float)));
  layernorm<<<(((rows + 1023) / 1024) * 32), 1024>>>(dx, dg, db, dy, rows, cols, eps);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, y.size() * sizeof(float), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (int r = 0; r < rows; ++r) {
    const float *xr = &x[(size_t)r * cols];
    double mean = 0, var = 0;
    for (int c = 0; c < cols; ++c)
      mean += xr[c];
    mean /= cols;
    for (int c = 0; c < cols; ++c)
      var += (xr[c] - mean) * (xr[c] - mean);
    var /= cols;
    double inv = 1.0 / std::sqrt(var + eps);
    for (int c = 0; c < cols; ++c) {
      double ref = (xr[c] - mean) * inv * g[c] + b[c];
      if (!(std::fabs(y[(size_t)r * cols + c] - ref) <= 1e-4 * (1.0 + std::fabs(ref))))
        ++bad;
    }
  }
  std::printf("%s layernorm (%zu wrong)\n", bad ? "FAILED" : "PASSED", bad);
  cudaFree(dx);
  cudaFree(dg);
  cudaFree(db);
  cudaFree(dy);
  return bad ? 1 : 0;
}
