// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-06 22:26 UTC.
// Rewrites, all kernels: nvcc-flags nvcc.extra_device_vectorization = true
// Rewrites, kernel jacobi: launch-bounds jacobi.launch_bounds = 4; read-only jacobi.read_only = true; coarsen jacobi.coarsen = "x2"
// Measured (the program's GPU time (every launch of every kernel)): 0.6096 ms (IQR 0.0040 ms) against 0.7441 ms (IQR 0.0023 ms) for the original: 1.22x (at least 1.20x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: build this variant with nvcc -extra-device-vectorization
// stencil2d: 5-point Jacobi sweeps on a 4096 x 4096 grid, 10 time steps,
// ping-ponging two buffers.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <utility>
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

constexpr int BX = 32;
constexpr int BY = 8;

__global__ void __launch_bounds__(256, 4) jacobi(const float *__restrict__ in, float *out, int nx, int ny) {
  const int x_first = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  #pragma unroll
  for (int x_step = 0; x_step < 2; ++x_step) {
  const int x = x_first + x_step * blockDim.x;
  if (x >= nx || y >= ny)
    continue;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[y * nx + x] = in[y * nx + x];
    continue;
  }
  out[y * nx + x] = 0.2f * (in[y * nx + x] + in[y * nx + x - 1] +
                            in[y * nx + x + 1] + in[(y - 1) * nx + x] +
                            in[(y + 1) * nx + x]);
  }
}

int main(int argc, char **argv) {
  // Optional sizes (nx, ny) for small runs under compute-sanitizer.
  const int nx = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int ny = argc > 2 ? std::atoi(argv[2]) : nx;
  const int steps = 10;
  std::vector<float> a((size_t)nx * ny), b(a.size());
  srand(5);
  for (float &v : a)
    v = rand() / (float)RAND_MAX;
  std::vector<float> ref = a, tmp(a.size());
  for (int s = 0; s < steps; ++s) {
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        size_t i = (size_t)y * nx + x;
        if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1)
          tmp[i] = ref[i];
        else
          tmp[i] = 0.2f * (ref[i] + ref[i - 1] + ref[i + 1] + ref[i - nx] +
                           ref[i + nx]);
      }
    std::swap(ref, tmp);
  }
  float *d0, *d1;
  CHECK(cudaMalloc(&d0, a.size() * sizeof(float)));
  CHECK(cudaMalloc(&d1, a.size() * sizeof(float)));
  CHECK(cudaMemcpy(d0, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 threads(BX, BY);
  dim3 blocks((((nx) + 2 - 1) / 2 + BX - 1) / BX, (ny + BY - 1) / BY);
  for (int s = 0; s < steps; ++s) {
    jacobi<<<blocks, threads>>>(d0, d1, nx, ny);
    std::swap(d0, d1);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(b.data(), d0, b.size() * sizeof(float), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t i = 0; i < b.size(); ++i)
    if (!(std::fabs(b[i] - ref[i]) <= 1e-5f * (1.0f + std::fabs(ref[i]))))
      ++bad;
  std::printf("%s stencil2d (%zu wrong)\n", bad ? "FAILED" : "PASSED", bad);
  cudaFree(d0);
  cudaFree(d1);
  return bad ? 1 : 0;
}
