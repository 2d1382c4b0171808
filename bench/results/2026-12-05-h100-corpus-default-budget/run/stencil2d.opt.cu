// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-05 15:33 UTC.
// Rewrites, all kernels: launch-bounds nvcc.maxrregcount = 48; nvcc-flags nvcc.dlcm = "ca"; nvcc-flags nvcc.extra_device_vectorization = true
// Rewrites, kernel jacobi: block-size jacobi.block = [128,2]; launch-bounds jacobi.launch_bounds = 4; coarsen jacobi.coarsen = "y4-contiguous"; shared-stage jacobi.shared_pad = 1
// Measured (the program's GPU time (every launch of every kernel)): 0.5750 ms (IQR 0.0101 ms) against 0.7429 ms (IQR 0.0011 ms) for the original: 1.29x (at least 1.27x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: build this variant with nvcc -maxrregcount=48 -Xptxas=-dlcm=ca -extra-device-vectorization
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
constexpr int jacobi_BX = 128;
constexpr int BY = 8;
constexpr int jacobi_BY = 2;

__global__ void __launch_bounds__(256, 4) jacobi(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y_first = (blockIdx.y * blockDim.y + threadIdx.y) * 4;
  #pragma unroll
  for (int y_step = 0; y_step < 4; ++y_step) {
  const int y = y_first + y_step;
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
  dim3 threads(jacobi_BX, jacobi_BY);
  dim3 blocks((nx + jacobi_BX - 1) / jacobi_BX, (((ny) + 4 - 1) / 4 + jacobi_BY - 1) / jacobi_BY);
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
