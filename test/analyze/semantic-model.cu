// The kernel model reads what the code means, not how it is spelled: the
// thread index through helpers, bx/tx locals, a header's TILE factor and a
// single assignment; loops declared before their `for`, `<=` bounds and
// `while` loops; strides held in locals; early-return guards with `||`.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>
#include "Inputs/semantic-sizes.h"

__device__ __forceinline__ int global_x() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ inline int row_of(int b, int t) { return b * BLOCK_SIZE + t; }

// CHECK-DAG: kernels[0].name = "by_helper"
// CHECK-DAG: kernels[0].thread_mapping.index_vars[0].name = "i"
// CHECK-DAG: kernels[0].thread_mapping.guard = "early-return"
// CHECK-DAG: kernels[0].thread_mapping.upper_bounds.i = "n"
// CHECK-DAG: kernels[0].accesses[0].indices[0].form.text = "threadIdx.x + blockDim.x*blockIdx.x"
__global__ void by_helper(real_t *v, int n) {
  const int i = global_x();
  if (i >= n)
    return;
  v[i] *= 2.0f;
}

// A TILE factor is the thread index only because every launch uses it as
// the block extent; x is bounded inside the interior by two returns.
// CHECK-DAG: kernels[1].thread_mapping.index_vars[0].name = "x"
// CHECK-DAG: kernels[1].thread_mapping.index_vars[0].dim = "x"
// CHECK-DAG: kernels[1].thread_mapping.index_vars[1].name = "y"
// CHECK-DAG: kernels[1].thread_mapping.guard_condition = "!(x < 1 || x >= nx - 1) && !(y < 1 || y >= ny - 1)"
// CHECK-DAG: kernels[1].thread_mapping.upper_bounds.x = "nx - 1"
// CHECK-DAG: kernels[1].thread_mapping.upper_bounds.y = "ny - 1"
// CHECK-DAG: kernels[1].thread_mapping.guard_is_box = false
// CHECK-DAG: kernels[1].thread_mapping.stray_builtins = []
__global__ void tiled(const real_t *in, real_t *out, int nx, int ny) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = bx * BLOCK_SIZE + tx;
  int y = row_of(by, ty);
  if (x < 1 || x >= nx - 1)
    return;
  if (y < 1 || y >= ny - 1)
    return;
  out[y * nx + x] = 0.25f * (in[y * nx + x - 1] + in[y * nx + x + 1] +
                             in[(y - 1) * nx + x] + in[(y + 1) * nx + x]);
}

// The same factor, launched with another block: not the thread's index.
// CHECK-DAG: kernels[2].thread_mapping.reason = "'x' = threadIdx.x + 16*blockIdx.x scales blockIdx.x by 16, but the kernel is launched with blockDim.x = 32, so it is not the thread's global index"
__global__ void mismatched(real_t *v, int n) {
  int x = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  if (x < n)
    v[x] = 0.0f;
}

// PolyBench's `int k;` before its loop, `<=` bounds, a statement before the
// loop; `i` is assigned once.
// CHECK-DAG: kernels[3].loops[0].induction_var = "k"
// CHECK-DAG: kernels[3].loops[0].compare = "<="
// CHECK-DAG: kernels[3].thread_mapping.upper_bounds.i = "N_ROWS"
// CHECK-DAG: kernels[3].accesses[{{[0-9]+}}].indices[0].form.text = "1024*threadIdx.x + 1024*blockDim.x*blockIdx.x + k"
__global__ void rows(const real_t *a, real_t *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k;
  if (i < N_ROWS) {
    s[i] = 0.0f;
    for (k = 0; k <= N_ROWS - 1; k++)
      s[i] += a[i * N_ROWS + k];
  }
}

// A while loop whose stride lives in a local is a grid-stride loop.
// CHECK-DAG: kernels[4].loops[0].kind = "while"
// CHECK-DAG: kernels[4].loops[0].induction_var = "i"
// CHECK-DAG: kernels[4].loops[0].step_kind = "grid-stride"
// CHECK-DAG: kernels[4].loops[1].step_kind = "grid-stride"
__global__ void strided(real_t *v, unsigned n) {
  const unsigned stride = blockDim.x * gridDim.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) {
    v[i] += 1.0f;
    i += stride;
  }
  for (unsigned j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j = j + stride)
    v[j] *= 0.5f;
}

// CHECK-DAG: kernels[5].thread_mapping.index_vars[0].name = "i"
// CHECK-DAG: kernels[5].accesses[0].indices[0].form.text = "threadIdx.x + blockDim.x*blockIdx.x"
__global__ void assigned_once(real_t *v, int n) {
  int i;
  i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = 1.0f;
}

void run(real_t *a, real_t *b, int nx, int ny) {
  by_helper<<<(nx + 255) / 256, 256>>>(a, nx);
  dim3 block(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid((nx + BLOCK_SIZE - 1) / BLOCK_SIZE, (ny + BLOCK_SIZE - 1) / BLOCK_SIZE);
  tiled<<<grid, block>>>(a, b, nx, ny);
  mismatched<<<(nx + 31) / 32, 32>>>(a, nx);
  rows<<<N_ROWS / 128, 128>>>(a, b);
  strided<<<132 * 4, 256>>>(a, nx);
  assigned_once<<<(nx + 127) / 128, 128>>>(a, nx);
}
