// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 17:00 UTC.
// Rewrites, kernel saxpy: vectorize saxpy.vectorize = 2
// Measured (the program's GPU time (every launch of every kernel)): 0.2671 ms (IQR 0.0040 ms) against 0.3070 ms (IQR 0.0036 ms) for the original: 1.15x (at least 1.13x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// saxpy: y = a*x + y over 64 Mi floats. First-version style: macro block size.
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

#define BLOCK_SIZE 256

__global__ void saxpy(int n, float a, const float *x, float *y) {
  // cuda-rewrite-opt: 2 consecutive elements per thread, loaded and stored as vectors when the addresses are aligned
  const int i_first = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
  if (i_first + 2 <= n &&
      reinterpret_cast<unsigned long long>(y + i_first) % sizeof(float2) == 0 &&
      reinterpret_cast<unsigned long long>(x + i_first) % sizeof(float2) == 0) {
    float y_v[2];
    const float2 y_v_q = *reinterpret_cast<const float2 *>(y + i_first);
    y_v[0] = y_v_q.x;
    y_v[1] = y_v_q.y;
    float x_v[2];
    const float2 x_v_q = *reinterpret_cast<const float2 *>(x + i_first);
    x_v[0] = x_v_q.x;
    x_v[1] = x_v_q.y;
    #pragma unroll
    for (int lane = 0; lane < 2; ++lane) {
      y_v[lane] = a * x_v[lane] + y_v[lane];
    }
    *reinterpret_cast<float2 *>(y + i_first) = make_float2(y_v[0], y_v[1]);
  } else {
    #pragma unroll
    for (int lane = 0; lane < 2; ++lane) {
      const int i = i_first + lane;
      if (i < n) {
        y[i] = a * x[i] + y[i];
      }
    }
  }
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 26;
  const float a = 1.75f;
  std::vector<float> x(n), y(n), ref(n);
  // Inputs from a linear congruential generator: 128 Mi calls of rand() took
  // 3 s, nearly all of this program's run, and the tuner runs it per variant.
  unsigned state = 7;
  auto uniform = [&state] { // in [-0.5, 0.5)
    state = state * 1664525u + 1013904223u;
    return (state >> 8) * (1.0f / 16777216.0f) - 0.5f;
  };
  for (int i = 0; i < n; ++i) {
    x[i] = uniform();
    y[i] = uniform();
    ref[i] = a * x[i] + y[i];
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  saxpy<<<(((n) + 2 - 1) / 2 + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(n, a, dx, dy);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (!(std::fabs(y[i] - ref[i]) <= 1e-6f * (1.0f + std::fabs(ref[i]))))
      ++bad;
  std::printf("%s saxpy (%d of %d wrong)\n", bad ? "FAILED" : "PASSED", bad, n);
  cudaFree(dx);
  cudaFree(dy);
  return bad ? 1 : 0;
}
