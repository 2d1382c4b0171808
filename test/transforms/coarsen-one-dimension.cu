// Coarsening one dimension leaves the others' builtins their meaning: a
// kernel whose rows come from `blockIdx.y * STRIP` (a strip of rows per
// block, walked by a while loop) is still coarsened along x; a read of
// blockIdx.x outside the index refuses the thread form along x alone (the
// block form takes x).
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"strip_step.coarsen": "x2-contiguous"}' > %t.json
// RUN: %cro %s --apply %t.json | %strip-checks | FileCheck %s --check-prefix=APPLY
#include <cuda_runtime.h>

enum { BX = 128, STRIP = 16 };

__global__ void strip_step(const float *u, float *v, int n, int ny) {
  int x = threadIdx.x + blockIdx.x * blockDim.x;
  if (x < 1 || x > n - 2)
    return;
  int y = 1 + blockIdx.y * STRIP;
  int y_end = y + STRIP < ny - 1 ? y + STRIP : ny - 1;
  while (y < y_end) {
    v[y * n + x] = 0.5f * (u[y * n + x - 1] + u[y * n + x + 1]);
    y++;
  }
}

__global__ void tagged_rows(float *v, int n, int ny) {
  int x = threadIdx.x + blockIdx.x * blockDim.x;
  int y = threadIdx.y + blockIdx.y * blockDim.y;
  if (x < n && y < ny)
    v[y * n + x] = (float)blockIdx.x;
}

void step(const float *u, float *v, float *w, int n, int ny) {
  dim3 grid((n + BX - 1) / BX, (ny - 2 + STRIP - 1) / STRIP);
  strip_step<<<grid, BX>>>(u, v, n, ny);
  dim3 b2(32, 8);
  dim3 g2((n + 31) / 32, (ny + 7) / 8);
  tagged_rows<<<g2, b2>>>(w, n, ny);
}

// CHECK-DAG: knobs[{{[0-9]+}}].id = "strip_step.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].values[1] = "x2"
// tagged_rows reads blockIdx.x outside its index: the thread form refuses
// x, the block form (every blockIdx.x read renumbered) takes it.
// CHECK-DAG: knobs[{{[0-9]+}}].id = "tagged_rows.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].values[3] = "x8"
// CHECK-DAG: knobs[{{[0-9]+}}].values[9] = "y8-contiguous"

// APPLY: const int x_first = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
// APPLY: int y = 1 + blockIdx.y * STRIP;
// APPLY: dim3 grid((((n) + 2 - 1) / 2 + BX - 1) / BX, (ny - 2 + STRIP - 1) / STRIP);
