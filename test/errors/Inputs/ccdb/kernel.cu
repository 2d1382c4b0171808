// Needs -I include and -DTILE=... from its build flags.
#include "config.h"
__global__ void tiled(float *v, int n) {
  __shared__ float t[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  t[threadIdx.x] = i < n ? v[i] : 0.0f;
  if (i < n) v[i] = t[threadIdx.x] * SCALE;
}
void run(float *v, int n) { tiled<<<(n + TILE - 1) / TILE, TILE>>>(v, n); }
