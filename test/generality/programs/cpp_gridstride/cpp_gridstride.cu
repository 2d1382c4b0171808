// cpp_gridstride: activation / bias kernels written with grid-stride loops
// and a grid fixed from the SM count (the "launch enough blocks to fill the
// machine" idiom), as found in many framework code bases.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    const cudaError_t e = (call);                                              \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "[%s:%d] %s failed: %s\n", __FILE__, __LINE__,      \
                   #call, cudaGetErrorString(e));                              \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

constexpr int kBlockSize = 256;
constexpr int kBlocksPerSM = 4;

__global__ void relu_forward(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    float v = in[i];
    out[i] = v > 0.0f ? v : 0.0f;
  }
}

__global__ void relu_backward(const float *grad_out, const float *in,
                              float *grad_in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    grad_in[i] = in[i] > 0.0f ? grad_out[i] : 0.0f;
}

// out[r, c] = in[r, c] + bias[c] for a row-major [rows x channels] tensor,
// flattened; uses size_t indexing so it is safe for > 2^31 elements.
__global__ void bias_add(const float *in, const float *bias, float *out,
                         size_t total, int channels) {
  const size_t stride = static_cast<size_t>(blockDim.x) * gridDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < total; i += stride) {
    out[i] = in[i] + bias[i % channels];
  }
}

int main(int argc, char **argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 8192;
  const int channels = argc > 2 ? std::atoi(argv[2]) : 771;
  const size_t total = static_cast<size_t>(rows) * channels;
  const int n = static_cast<int>(total);

  std::srand(2024);
  std::vector<float> x(total), g(total), bias(channels);
  for (auto &v : x) v = std::rand() / static_cast<float>(RAND_MAX) * 2.0f - 1.0f;
  for (auto &v : g) v = std::rand() / static_cast<float>(RAND_MAX);
  for (auto &v : bias) v = std::rand() / static_cast<float>(RAND_MAX) - 0.5f;

  std::vector<float> y_ref(total), gi_ref(total), b_ref(total);
  for (size_t i = 0; i < total; ++i) {
    b_ref[i] = x[i] + bias[i % channels];
    y_ref[i] = std::max(b_ref[i], 0.0f);
    gi_ref[i] = b_ref[i] > 0.0f ? g[i] : 0.0f;
  }

  int device = 0, sms = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int grid = sms * kBlocksPerSM;

  float *d_x, *d_g, *d_bias, *d_b, *d_y, *d_gi;
  const size_t bytes = total * sizeof(float);
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_g, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_gi, bytes));
  CHECK(cudaMalloc(&d_bias, channels * sizeof(float)));
  CHECK(cudaMemcpy(d_x, x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_g, g.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_bias, bias.data(), channels * sizeof(float), cudaMemcpyHostToDevice));

  bias_add<<<grid, kBlockSize>>>(d_x, d_bias, d_b, total, channels);
  CHECK(cudaGetLastError());
  relu_forward<<<grid, kBlockSize>>>(d_b, d_y, n);
  CHECK(cudaGetLastError());
  relu_backward<<<grid, kBlockSize>>>(d_g, d_b, d_gi, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> b(total), y(total), gi(total);
  CHECK(cudaMemcpy(b.data(), d_b, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(y.data(), d_y, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gi.data(), d_gi, bytes, cudaMemcpyDeviceToHost));

  size_t bad = 0;
  auto close = [](float a, float r) {
    return std::fabs(a - r) <= 1e-5f * (1.0f + std::fabs(r));
  };
  for (size_t i = 0; i < total; ++i) {
    if (!close(b[i], b_ref[i])) ++bad;
    if (!close(y[i], y_ref[i])) ++bad;
    if (!close(gi[i], gi_ref[i])) ++bad;
  }
  if (bad)
    std::printf("FAILED cpp_gridstride (%zu wrong)\n", bad);
  else
    std::printf("PASSED cpp_gridstride\n");
  cudaFree(d_x); cudaFree(d_g); cudaFree(d_b);
  cudaFree(d_y); cudaFree(d_gi); cudaFree(d_bias);
  return bad ? 1 : 0;
}
