// The kernel of bench/kernels/nbody.cu and its block size, in a .cu the
// main file includes (bench/multi-file: the corpus's nbody in Rodinia's
// two-file layout).
#pragma once

#define BLOCK_SIZE 256
#define SOFTENING 1e-3f

__global__ void __launch_bounds__(256, 3) accelerations(const float4 *pos, float3 *acc, int n) {
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
