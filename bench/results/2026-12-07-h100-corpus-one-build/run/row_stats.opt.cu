// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 16:54 UTC.
// Rewrites, kernel stats::row_stats: warp-reduce stats::row_stats.warp_reduce = 32
// Measured (the program's GPU time (every launch of every kernel)): 0.0928 ms (IQR 0.0003 ms) against 0.2950 ms (IQR 0.0006 ms) for the original: 3.18x (at least 3.17x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// row_stats: mean and variance of each row of 16384 x 2048 floats, one thread per row, two passes; modern C++ style.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    const cudaError_t err_ = (call);                                           \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(err_));                                  \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

namespace stats {

constexpr int kThreads = 128;
constexpr int kDefaultRows = 16384;
constexpr int kDefaultCols = 2048;

__device__ __forceinline__ std::size_t at(int row, int col, int cols) {
  return static_cast<std::size_t>(row) * cols + col;
}

template <typename T>
__global__ void row_stats(const T *data, T *mean, T *var, int rows, int cols) {
  // cuda-rewrite-opt: 32 lanes share each thread's loop
  const unsigned lane = threadIdx.x % 32;
  const unsigned group_mask = 0xffffffffu;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (row >= rows)
    return;
  T sum = T(0);
  if (lane != 0)
    sum = 0;
  for (int c = (0) + lane; c < cols; c += 32)
    sum += data[at(row, c, cols)];
  for (int offset_2 = 16; offset_2 > 0; offset_2 /= 2)
    sum += __shfl_xor_sync(group_mask, sum, offset_2, 32);
  const T m = sum / cols;
  T sq = T(0);
  if (lane != 0)
    sq = 0;
  for (int c = (0) + lane; c < cols; c += 32) {
    const T d = data[at(row, c, cols)] - m;
    sq += d * d;
  }
  for (int offset_2 = 16; offset_2 > 0; offset_2 /= 2)
    sq += __shfl_down_sync(group_mask, sq, offset_2, 32);
  if (lane == 0) {
  mean[row] = m;
  var[row] = sq / cols;
  }
}

class Lcg {
public:
  explicit Lcg(std::uint32_t seed) : state_(seed) {}
  // uniform in [lo, hi)
  float operator()(float lo, float hi) {
    state_ = state_ * 1664525u + 1013904223u;
    return lo + (hi - lo) * ((state_ >> 8) * (1.0f / 16777216.0f));
  }

private:
  std::uint32_t state_;
};

} // namespace stats

int main(int argc, char **argv) {
  using namespace stats;
  const int rows = argc > 1 ? std::atoi(argv[1]) : kDefaultRows;
  const int cols = argc > 2 ? std::atoi(argv[2]) : kDefaultCols;
  const std::size_t count = static_cast<std::size_t>(rows) * cols;

  // Each row has its own offset so the means differ; the spread keeps the
  // variance away from zero.
  std::vector<float> data(count);
  Lcg rng(41);
  for (int r = 0; r < rows; ++r) {
    const float offset = rng(-2.0f, 2.0f);
    for (int c = 0; c < cols; ++c)
      data[static_cast<std::size_t>(r) * cols + c] = offset + rng(0.0f, 1.0f);
  }

  float *d_data = nullptr, *d_mean = nullptr, *d_var = nullptr;
  CUDA_CHECK(cudaMalloc(&d_data, count * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_mean, rows * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_var, rows * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_data, data.data(), count * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_mean, 0xff, rows * sizeof(float))); // NaN
  CUDA_CHECK(cudaMemset(d_var, 0xff, rows * sizeof(float)));

  const int blocks = (((rows + kThreads - 1) / kThreads) * 32);
  row_stats<float><<<blocks, kThreads>>>(d_data, d_mean, d_var, rows, cols);
  CUDA_CHECK(cudaGetLastError());

  std::vector<float> mean(rows), var(rows);
  CUDA_CHECK(cudaMemcpy(mean.data(), d_mean, rows * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(var.data(), d_var, rows * sizeof(float),
                        cudaMemcpyDeviceToHost));

  // Every row in double. Tolerances: the fp32 sum of cols terms, in any
  // order, is within ~cols * 2^-24 of the sum of |x|; the variance's error
  // is dominated by the mean's, scaled by the row's spread.
  int bad = 0;
  for (int r = 0; r < rows; ++r) {
    const float *x = &data[static_cast<std::size_t>(r) * cols];
    double sum = 0.0, mag = 0.0;
    for (int c = 0; c < cols; ++c) {
      sum += x[c];
      mag += std::fabs(x[c]);
    }
    const double m = sum / cols;
    double sq = 0.0;
    for (int c = 0; c < cols; ++c)
      sq += (x[c] - m) * (x[c] - m);
    const double v = sq / cols;
    const bool ok = std::fabs(mean[r] - m) <= 1e-4 * mag / cols &&
                    std::fabs(var[r] - v) <= 1e-3 * v;
    if (!ok && bad++ < 5)
      std::fprintf(stderr, "row %d: mean %.8g var %.8g, expected %.8g %.8g\n",
                   r, mean[r], var[r], m, v);
  }
  std::printf("%s row_stats (%d of %d rows wrong)\n", bad ? "FAILED" : "PASSED",
              bad, rows);
  CUDA_CHECK(cudaFree(d_data));
  CUDA_CHECK(cudaFree(d_mean));
  CUDA_CHECK(cudaFree(d_var));
  return bad ? 1 : 0;
}
