// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H200 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-02 11:32 UTC.
// Rewrites, kernel accelerations: launch-bounds accelerations.launch_bounds = 3; shared-stage accelerations.shared_stage = 64
// Measured: 0.5247 ms (IQR 0.3291 ms) against 2.0700 ms (IQR 1.2981 ms) for the original: 3.94x, 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: this variant also rewrites kernels/accelerations.cuh, as kernels/accelerations.nbody.cuh beside this file
// bench/kernels/nbody.cu with its kernel moved to kernels/accelerations.cuh,
// for bench/multi-file-gpu.sh: the main command tunes a kernel in an
// included file.
// nbody: naive all-pairs accelerations of 32 Ki bodies (softened gravity).
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

#include "kernels/accelerations.nbody.cuh"

int main(int argc, char **argv) {
  // Optional body count for small runs under compute-sanitizer.
  const int n = argc > 1 ? std::atoi(argv[1]) : 32768;
  std::vector<float4> pos(n);
  std::vector<float3> acc(n);
  srand(31);
  for (float4 &p : pos)
    p = make_float4(rand() / (float)RAND_MAX - 0.5f, rand() / (float)RAND_MAX - 0.5f,
                    rand() / (float)RAND_MAX - 0.5f, 0.5f + rand() / (float)RAND_MAX);
  float4 *dp;
  float3 *da;
  CHECK(cudaMalloc(&dp, n * sizeof(float4)));
  CHECK(cudaMalloc(&da, n * sizeof(float3)));
  CHECK(cudaMemcpy(dp, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  accelerations<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(dp, da, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(acc.data(), da, n * sizeof(float3), cudaMemcpyDeviceToHost));
  // Check 256 random bodies in double precision.
  int bad = 0;
  for (int s = 0; s < 256; ++s) {
    int i = rand() % n;
    double a[3] = {0, 0, 0}, mag = 0;
    for (int j = 0; j < n; ++j) {
      double d[3] = {pos[j].x - pos[i].x, pos[j].y - pos[i].y, pos[j].z - pos[i].z};
      double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + SOFTENING;
      double f = pos[j].w / (d2 * std::sqrt(d2));
      for (int c = 0; c < 3; ++c) {
        a[c] += d[c] * f;
        mag += std::fabs(d[c] * f);
      }
    }
    float got[3] = {acc[i].x, acc[i].y, acc[i].z};
    for (int c = 0; c < 3; ++c)
      if (!(std::fabs(got[c] - a[c]) <= 1e-4 * mag))
        ++bad;
  }
  std::printf("%s nbody (%d of 768 sampled components wrong)\n", bad ? "FAILED" : "PASSED", bad);
  cudaFree(dp);
  cudaFree(da);
  return bad ? 1 : 0;
}
