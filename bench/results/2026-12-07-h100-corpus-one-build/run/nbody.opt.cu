// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 16:56 UTC.
// Rewrites, all kernels: launch-bounds nvcc.maxrregcount = 64
// Rewrites, kernel accelerations: shared-stage accelerations.shared_stage = 64
// Measured (the program's GPU time (every launch of every kernel)): 0.8447 ms (IQR 0.0014 ms) against 3.3938 ms (IQR 0.0018 ms) for the original: 4.02x (at least 4.01x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: build this variant with nvcc -maxrregcount=64
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

#define BLOCK_SIZE 256
#define SOFTENING 1e-3f

__global__ void accelerations(const float4 *pos, float3 *acc, int n) {
  // cuda-rewrite-opt: loop 'j' tiled by 64 through shared memory
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ float4 pos_tile[64];
  float4 p;
  float ax = 0.0f;
  float ay = 0.0f;
  float az = 0.0f;
  if (!(i >= n)) {
    p = pos[i];
  }
  for (int j_tile = 0; j_tile < n; j_tile += 64) {
    for (int e = threadIdx.x; e < 64; e += 256) {
      const int tk = e;
      pos_tile[tk] = (j_tile + tk < n && 0 < n) ? pos[(j_tile + tk)] : float4();
    }
    __syncthreads();
    if (j_tile + 64 <= n) {
      #pragma unroll
      for (int j = j_tile; j < j_tile + 64; ++j) {
        {
          float4 q = pos_tile[j - j_tile];
          float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
          float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
          float inv = rsqrtf(d2);
          float s = q.w * inv * inv * inv;
          ax += dx * s;
          ay += dy * s;
          az += dz * s;
        }
      }
    } else {
      for (int j = j_tile; j < n; ++j) {
        {
          float4 q = pos_tile[j - j_tile];
          float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
          float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
          float inv = rsqrtf(d2);
          float s = q.w * inv * inv * inv;
          ax += dx * s;
          ay += dy * s;
          az += dz * s;
        }
      }
    }
    __syncthreads();
  }
  if (!(i >= n)) {
    acc[i] = make_float3(ax, ay, az);
  }
}

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
