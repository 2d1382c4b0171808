// Kernels launched with the same grid and block variables each get a block
// size of their own: the tuned kernel's launch gets its own arguments (the
// block from the new shape, the grid recomputed from its extent), and the
// shared variables stay as they are for the other kernels.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"scale.block": [64, 4]}' > %t.json
// RUN: %cro %s --apply %t.json | %strip-checks | FileCheck %s --check-prefix=APPLY
// RUN: echo '{"shift.block": 512}' > %t1.json
// RUN: %cro %s --apply %t1.json | %strip-checks | FileCheck %s --check-prefix=APPLY1
#include <cuda_runtime.h>
#include "Inputs/shared-config.cuh"

__global__ void scale(float *v, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) v[y * nx + x] *= 2.0f;
}
__global__ void offset(float *v, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) v[y * nx + x] += 1.0f;
}

namespace cfg {
constexpr int kThreads = 256;
}
__global__ void shift(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 3.0f;
}
__global__ void negate(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = -v[i];
}

void run(float *v, int nx, int ny) {
  dim3 block(TILE_X, TILE_Y, 1);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  for (int t = 0; t < 10; ++t) {
    scale<<<grid, block>>>(v, nx, ny);
    offset<<<grid, block>>>(v, nx, ny);
  }
  const int n = nx * ny;
  const int blocks = (n + cfg::kThreads - 1) / cfg::kThreads;
  shift<<<blocks, cfg::kThreads>>>(v, n);
  negate<<<blocks, cfg::kThreads>>>(v, n);
}

// The block macros live in a header, z is given but never read: a 2-D knob.
// CHECK-DAG: knobs[{{[0-9]+}}].id = "scale.block"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "offset.block"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "shift.block"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "negate.block"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].defined_outside_main_file = true
// CHECK-DAG: kernels[0].thread_dims_used[1] = "y"
// CHECK-DAG: kernels[2].launches[0].block.dims[0].qualified_symbol = "cfg::kThreads"

// APPLY: #define scale_TILE_X 64
// APPLY-NEXT: #define scale_TILE_Y 4
// APPLY-NEXT: __global__ void scale(
// APPLY: dim3 block(TILE_X, TILE_Y, 1);
// APPLY-NEXT: dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
// APPLY: scale<<<dim3((nx + scale_TILE_X - 1) / scale_TILE_X, (ny + scale_TILE_Y - 1) / scale_TILE_Y), dim3(scale_TILE_X, scale_TILE_Y, (1))>>>(v, nx, ny);
// APPLY-NEXT: offset<<<grid, block>>>(v, nx, ny);

// APPLY1: constexpr int shift_kThreads = 512;
// APPLY1: const int blocks = (n + cfg::kThreads - 1) / cfg::kThreads;
// APPLY1-NEXT: shift<<<dim3((n + cfg::shift_kThreads - 1) / cfg::shift_kThreads), dim3(cfg::shift_kThreads)>>>(v, n);
// APPLY1-NEXT: negate<<<blocks, cfg::kThreads>>>(v, n);

// A template argument spelled as the block's number may be the body's own
// copy of the block size. (Found on the H200: the variant with block 32 and
// BLOCK = 256 computed wrong results.) It is when the thread index scales
// blockIdx by it: then the argument changes with the block.
// RUN: echo '{"scale_tpl.block": 64}' > %t2.json
// RUN: %cro %s --apply %t2.json | %strip-checks | FileCheck %s --check-prefix=TIED
// TIED: const int grid = (n + 63) / 64;
// TIED-NEXT: scale_tpl<64><<<grid, 64>>>(v, n);
// TIED: fill_rows<256><<<(n + 255) / 256, 256>>>(v, n);
template <int BLOCK>
__global__ void scale_tpl(float *v, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) v[i] *= 2.0f;
}
void run_tpl(float *v, int n) {
  const int grid = (n + 256 - 1) / 256;
  scale_tpl<256><<<grid, 256>>>(v, n);
}

// Otherwise nothing ties the two: the number may be anything else the
// kernel is written for (here, how many elements each thread fills).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=TEMPLATE
// TEMPLATE: reason = "the template argument 256 for 'ROW' at {{.*}}block-size-shared-config.cu:[[@LINE+7]]:3 equals the block size, which nothing ties it to; the body would keep the old value"
template <int ROW>
__global__ void fill_rows(float *v, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) for (int j = 0; j < ROW; ++j) v[r * ROW + j] = 1.0f;
}
void run_rows(float *v, int n) {
  fill_rows<256><<<(n + 255) / 256, 256>>>(v, n);
}
