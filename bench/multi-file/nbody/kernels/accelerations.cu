// The kernel of bench/kernels/nbody.cu and its block size, in a .cu the
// main file includes (bench/multi-file: the corpus's nbody in Rodinia's
// two-file layout).
#pragma once

#define BLOCK_SIZE 256
#define SOFTENING 1e-3f

__global__ void accelerations(const float4 *pos, float3 *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int j = 0; j < n; ++j) {
    float4 q = pos[j];
    float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
    float inv = rsqrtf(d2);
    float s = q.w * inv * inv * inv;
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  }
  acc[i] = make_float3(ax, ay, az);
}
