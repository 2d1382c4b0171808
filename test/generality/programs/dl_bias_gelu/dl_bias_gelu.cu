// dl_bias_gelu: fused bias + GELU (tanh approximation) forward/backward
// kernels in the style of transformer MLP epilogues: unsigned indices,
// auto locals, and a small unrolled per-thread loop over several elements.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    auto err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d %s -> %s\n", __FILE__, __LINE__, #call,      \
                   cudaGetErrorName(err_));                                    \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

namespace {
constexpr unsigned kBlock = 256;
constexpr unsigned kItemsPerThread = 4;
constexpr float kSqrt2OverPi = 0.7978845608028654f;
constexpr float kCoeff = 0.044715f;
} // namespace

__device__ __forceinline__ float gelu_tanh(float x) {
  const auto inner = kSqrt2OverPi * (x + kCoeff * x * x * x);
  return 0.5f * x * (1.0f + tanhf(inner));
}

// Plain one-element-per-thread activation.
__global__ void gelu_kernel(const float *__restrict__ in,
                            float *__restrict__ out, unsigned n) {
  const unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) {
    auto x = in[idx];
    out[idx] = gelu_tanh(x);
  }
}

// y = gelu(x + bias[col]); each thread handles 4 elements spaced blockDim.x
// apart so that every access of the unrolled loop stays coalesced.
__global__ void bias_gelu_fwd(const float *__restrict__ x,
                              const float *__restrict__ bias,
                              float *__restrict__ y, unsigned n,
                              unsigned hidden) {
  const unsigned stride = blockDim.x;
  const unsigned base = blockIdx.x * blockDim.x * 4 + threadIdx.x;
#pragma unroll
  for (int v = 0; v < 4; ++v) {
    const unsigned i = base + v * stride;
    if (i < n) {
      auto h = x[i] + bias[i % hidden];
      y[i] = gelu_tanh(h);
    }
  }
}

// dx = dy * gelu'(x + bias[col])
__global__ void bias_gelu_bwd(const float *__restrict__ dy,
                              const float *__restrict__ x,
                              const float *__restrict__ bias,
                              float *__restrict__ dx, unsigned n,
                              unsigned hidden) {
  const unsigned base = blockIdx.x * (blockDim.x * kItemsPerThread) + threadIdx.x;
#pragma unroll
  for (unsigned v = 0; v < kItemsPerThread; ++v) {
    const unsigned i = base + v * blockDim.x;
    if (i >= n)
      break;
    const auto h = x[i] + bias[i % hidden];
    const auto h2 = h * h;
    const auto t = tanhf(kSqrt2OverPi * (h + kCoeff * h2 * h));
    const auto dt = kSqrt2OverPi * (1.0f + 3.0f * kCoeff * h2);
    const auto grad = 0.5f * (1.0f + t) + 0.5f * h * (1.0f - t * t) * dt;
    dx[i] = dy[i] * grad;
  }
}

static double gelu_ref(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}
static double gelu_grad_ref(double h) {
  const double k = 0.7978845608028654, c = 0.044715;
  double t = std::tanh(k * (h + c * h * h * h));
  return 0.5 * (1.0 + t) + 0.5 * h * (1.0 - t * t) * k * (1.0 + 3.0 * c * h * h);
}

int main(int argc, char **argv) {
  const unsigned tokens = argc > 1 ? std::atoi(argv[1]) : 2049;
  const unsigned hidden = argc > 2 ? std::atoi(argv[2]) : 3072;
  const unsigned n = tokens * hidden;

  std::mt19937 rng(20240601u);
  std::normal_distribution<float> dist(0.0f, 1.5f);
  std::vector<float> x(n), dy(n), bias(hidden);
  for (auto &v : x) v = dist(rng);
  for (auto &v : dy) v = dist(rng);
  for (auto &v : bias) v = 0.1f * dist(rng);

  float *d_x, *d_dy, *d_bias, *d_g, *d_y, *d_dx;
  const auto bytes = size_t(n) * sizeof(float);
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_dy, bytes));
  CHECK(cudaMalloc(&d_g, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_dx, bytes));
  CHECK(cudaMalloc(&d_bias, hidden * sizeof(float)));
  CHECK(cudaMemcpy(d_x, x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_dy, dy.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_bias, bias.data(), hidden * sizeof(float), cudaMemcpyHostToDevice));

  gelu_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(d_x, d_g, n);
  CHECK(cudaGetLastError());
  const auto tile = kBlock * 4;
  bias_gelu_fwd<<<(n + tile - 1) / tile, kBlock>>>(d_x, d_bias, d_y, n, hidden);
  CHECK(cudaGetLastError());
  const auto tile_b = kBlock * kItemsPerThread;
  bias_gelu_bwd<<<(n + tile_b - 1) / tile_b, kBlock>>>(d_dy, d_x, d_bias, d_dx, n, hidden);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> g(n), y(n), dx(n);
  CHECK(cudaMemcpy(g.data(), d_g, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(y.data(), d_y, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dx.data(), d_dx, bytes, cudaMemcpyDeviceToHost));

  size_t bad = 0;
  auto ok = [](double got, double want) {
    return std::fabs(got - want) <= 1e-5 * (1.0 + std::fabs(want));
  };
  for (unsigned i = 0; i < n; ++i) {
    const double h = double(x[i] + bias[i % hidden]);
    if (!ok(g[i], gelu_ref(x[i]))) ++bad;
    if (!ok(y[i], gelu_ref(h))) ++bad;
    if (!ok(dx[i], dy[i] * gelu_grad_ref(h))) ++bad;
  }
  if (bad)
    std::printf("FAILED dl_bias_gelu (%zu wrong)\n", bad);
  else
    std::printf("PASSED dl_bias_gelu\n");
  cudaFree(d_x); cudaFree(d_dy); cudaFree(d_g);
  cudaFree(d_y); cudaFree(d_dx); cudaFree(d_bias);
  return bad ? 1 : 0;
}
