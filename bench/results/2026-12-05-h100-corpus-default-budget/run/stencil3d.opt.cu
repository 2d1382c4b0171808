// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-05 15:35 UTC.
// Rewrites, kernel stencil7: block-size stencil7.block = [64,4,1]
// Measured (the program's GPU time (every launch of every kernel)): 0.3280 ms (IQR 0.0009 ms) against 0.3967 ms (IQR 0.0020 ms) for the original: 1.21x (at least 1.20x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// stencil3d: 7-point Jacobi sweeps on a 256^3 grid, 4 time steps.
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

__global__ void stencil7(const float *in, float *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz)
    return;
  int i = (z * ny + y) * nx + x;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.4f * in[i] + 0.1f * (in[i - 1] + in[i + 1] + in[i - nx] +
                                  in[i + nx] + in[i - nx * ny] + in[i + nx * ny]);
}

int main() {
  const int nx = 256, ny = 256, nz = 256, steps = 4;
  size_t n = (size_t)nx * ny * nz;
  std::vector<float> a(n), ref, tmp(n);
  srand(21);
  for (float &v : a)
    v = rand() / (float)RAND_MAX;
  ref = a;
  for (int s = 0; s < steps; ++s) {
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
          size_t i = ((size_t)z * ny + y) * nx + x;
          if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1)
            tmp[i] = ref[i];
          else
            tmp[i] = 0.4f * ref[i] + 0.1f * (ref[i - 1] + ref[i + 1] + ref[i - nx] +
                                             ref[i + nx] + ref[i - (size_t)nx * ny] +
                                             ref[i + (size_t)nx * ny]);
        }
    std::swap(ref, tmp);
  }
  float *d0, *d1;
  CHECK(cudaMalloc(&d0, n * sizeof(float)));
  CHECK(cudaMalloc(&d1, n * sizeof(float)));
  CHECK(cudaMemcpy(d0, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(64, 4, 1);
  dim3 grid((nx + 63) / 64, (ny + 3) / 4, (nz + 0) / 1);
  for (int s = 0; s < steps; ++s) {
    stencil7<<<grid, block>>>(d0, d1, nx, ny, nz);
    std::swap(d0, d1);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(a.data(), d0, n * sizeof(float), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (!(std::fabs(a[i] - ref[i]) <= 1e-5f * (1.0f + std::fabs(ref[i]))))
      ++bad;
  std::printf("%s stencil3d (%zu wrong)\n", bad ? "FAILED" : "PASSED", bad);
  cudaFree(d0);
  cudaFree(d1);
  return bad ? 1 : 0;
}
