// block-size on 2D launches: a dim3 of literals (the grid follows through
// block.x / block.y), and a dim3 of one constant for both dimensions with a
// coupled shared tile (square shapes only).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"add2d.block": [64, 4], "tiled.block": [32, 32]}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cuda_runtime.h>

constexpr int TILE = 16;

__global__ void add2d(const float *a, float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    b[y * w + x] += a[y * w + x];
}

__global__ void tiled(const float *in, float *out, int w, int h) {
  __shared__ float t[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h)
    t[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  if (x < w && y < h)
    out[y * w + x] = 2.0f * t[threadIdx.y][threadIdx.x];
}

void run(const float *a, float *b, int w, int h) {
  dim3 block(16, 16);
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  add2d<<<grid, block>>>(a, b, w, h);
  dim3 tb(TILE, TILE);
  dim3 tg((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
  tiled<<<tg, tb>>>(a, b, w, h);
}




// KNOBS-DAG: knobs[0].id = "add2d.block"
// KNOBS-DAG: knobs[0].default[0] = 16
// KNOBS-DAG: knobs[0].default[1] = 16
// KNOBS-DAG: knobs[1].id = "tiled.block"
// KNOBS-DAG: knobs[1].values[0][0] = 8
// KNOBS-DAG: knobs[1].values[0][1] = 8
// KNOBS-DAG: knobs[1].values[2][0] = 32
// KNOBS-DAG: knobs[1].values[2][1] = 32
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=SQUARE
// SQUARE-NOT: knobs[1].values[3]

// CHECK:      constexpr int TILE = 16;
// CHECK-NEXT: +constexpr int tiled_TILE = 32;
// CHECK:      -  __shared__ float t[TILE][TILE];
// CHECK-NEXT: -  int x = blockIdx.x * TILE + threadIdx.x;
// CHECK-NEXT: -  int y = blockIdx.y * TILE + threadIdx.y;
// CHECK-NEXT: +  __shared__ float t[tiled_TILE][tiled_TILE];
// CHECK-NEXT: +  int x = blockIdx.x * tiled_TILE + threadIdx.x;
// CHECK-NEXT: +  int y = blockIdx.y * tiled_TILE + threadIdx.y;
// CHECK:      -  dim3 block(16, 16);
// CHECK-NEXT: +  dim3 block(64, 4);
// CHECK:      -  dim3 tb(TILE, TILE);
// CHECK-NEXT: -  dim3 tg((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
// CHECK-NEXT: +  dim3 tb(tiled_TILE, tiled_TILE);
// CHECK-NEXT: +  dim3 tg((w + tiled_TILE - 1) / tiled_TILE, (h + tiled_TILE - 1) / tiled_TILE);
