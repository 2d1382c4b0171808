// coarsen's block form: one block does the work of several consecutive
// original blocks, every read of blockIdx.d / gridDim.d in the kernel's
// text replaced by the original block's number / the original grid's
// extent. It needs no particular spelling of the thread index: a TILE x
// ROWS copy with no guard, a per-block partial sum from a shared tree and a
// grid-stride loop over gridDim, a 2-D grid flattened by hand with an early
// return. The obstacles are named: a read inside a macro, inside a helper or
// of blockIdx as a whole, an early return in a kernel with barriers, a grid
// the kernel cannot know, a parameter the kernel changes, a single block.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: knobs[{{[0-9]+}}].id = "tile_rows.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "block_partials.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "flat2d.coarsen"
// CHECK-DAG: kernels[0].block_reads.dims.x.block_idx = 1
// CHECK-DAG: kernels[1].block_reads.dims.x.grid_dim = 1
// CHECK-DAG: kernels[2].block_reads.returns[0].in_loop = false
// CHECK-DAG: reason = "threads of a block share data through shared memory; a block would no longer hold the same outputs; one block doing the work of several: blockIdx.x at {{.*}}coarsen-block-form.cu:{{[0-9]+}}:23 is read inside the macro 'BID', which the rewrite cannot change for this kernel alone"
// CHECK-DAG: reason = "{{.*}}one block doing the work of several: the device function 'tile_origin' called at {{.*}}coarsen-block-form.cu:{{[0-9]+}}:23 reads blockIdx.x or gridDim.x"
// CHECK-DAG: reason = "{{.*}}one block doing the work of several: threads of a block communicate (barriers, warp exchanges or shared memory) and a thread may return early (at {{.*}}coarsen-block-form.cu:{{[0-9]+}}:5): it would meet the others at the next block's exchanges instead of this one's"
// CHECK-DAG: reason = "{{.*}}one block doing the work of several: the grid at {{.*}}coarsen-block-form.cu:{{[0-9]+}}:3 ('blocks') is a run-time value the launch does not pass the kernel, so the kernel cannot tell which blocks the original grid has"
// CHECK-DAG: reason = "{{.*}}one block doing the work of several: the kernel changes its parameter 'out' at {{.*}}coarsen-block-form.cu:{{[0-9]+}}:3: the next block's work would start from the changed value"
// CHECK-DAG: reason = "{{.*}}one block doing the work of several: blockIdx or gridDim is read whole (converted to uint3/dim3) at {{.*}}coarsen-block-form.cu:{{[0-9]+}}:13"
// CHECK-DAG: reason = "{{.*}}one block doing the work of several: the launch at {{.*}}coarsen-block-form.cu:{{[0-9]+}}:3 starts one block along x"
//
// RUN: echo '{"tile_rows.coarsen": "y2", "block_partials.coarsen": "x4", "flat2d.coarsen": "x8"}' > %t1.json
// RUN: %cro %s --apply %t1.json -o %t1.cu
// RUN: %strip-checks < %t1.cu | FileCheck %s --check-prefix=BLOCK
// BLOCK: __global__ void tile_rows(
// BLOCK-NEXT: // cuda-rewrite-opt coarsen y2: this block does the work of the original grid's blocks
// BLOCK-NEXT: // blockIdx.y * 2 ... blockIdx.y * 2 + 1 along y, one after another.
// The grid divides h by TILE, which the launch uses as its block's x extent.
// BLOCK-NEXT: const unsigned int orig_grid_y = 512 / blockDim.x;
// BLOCK-NEXT: for (unsigned int orig_block_y = blockIdx.y * 2; orig_block_y < blockIdx.y * 2 + 2 && orig_block_y < orig_grid_y; ++orig_block_y) {
// BLOCK-NEXT: int x = blockIdx.x * TILE + threadIdx.x;
// BLOCK-NEXT: int y = orig_block_y * TILE + threadIdx.y;
// BLOCK: dst[(y + j) * width + x] = src[(y + j) * width + x];
// BLOCK-NEXT: }
// BLOCK-NEXT: }
// BLOCK: const unsigned int orig_grid_x = 120;
// BLOCK: for (unsigned i = orig_block_x * blockDim.x + threadIdx.x; i < n;
// BLOCK-NEXT: i += blockDim.x * orig_grid_x)
// BLOCK: partial[orig_block_x] = s[0];
// BLOCK-NEXT: __syncthreads(); // the next block's work reuses shared memory
// BLOCK-NEXT: }
// BLOCK-NEXT: }
// BLOCK: const unsigned int orig_grid_x = 64;
// BLOCK: unsigned id = blockDim.x * (orig_grid_x * blockIdx.y + orig_block_x) + threadIdx.x;
// BLOCK-NEXT: if (id >= count)
// BLOCK-NEXT: continue;
// BLOCK: dim3 tb(TILE, ROWS), tg(w / TILE, ((h / TILE) + 2 - 1) / 2);
// BLOCK: block_partials<<<((kPartialBlocks) + 4 - 1) / 4, 256>>>(a, p, n);
// BLOCK: dim3 fg(((64) + 8 - 1) / 8, rows);
// RUN: nvcc -arch=sm_90 -c %t1.cu -o %t1.o
#include <cuda_runtime.h>
#include <cstdio>

// Macros of the kind a program's header holds.
#define TILE 32
#define ROWS 8
#define BID blockIdx.x

constexpr int kPartialBlocks = 120;

// A TILE x ROWS copy with no bounds check: the grid is an exact division
// and the kernel receives the width it divides.
__global__ void tile_rows(float *dst, const float *src, int width) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    dst[(y + j) * width + x] = src[(y + j) * width + x];
}

// One partial sum per block, from a grid-stride loop and a shared tree.
__global__ void block_partials(const float *in, float *partial, unsigned n) {
  __shared__ float s[256];
  float acc = 0.0f;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h)
      s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s[0];
}

// A 2-D grid flattened by hand, with an early return.
__global__ void flat2d(float *d, unsigned count, float v) {
  unsigned id = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
  if (id >= count)
    return;
  d[id] = v * d[id];
}

// blockIdx read through a macro.
__global__ void macro_block(const float *in, float *out) {
  __shared__ float t[128];
  t[threadIdx.x] = in[BID * 128 + threadIdx.x];
  __syncthreads();
  out[BID * 128 + threadIdx.x] = t[127 - threadIdx.x];
}

// blockIdx read inside a helper.
__device__ unsigned tile_origin() { return blockIdx.x * 128u; }
__global__ void helper_block(const float *in, float *out) {
  __shared__ float t[128];
  t[threadIdx.x] = in[tile_origin() + threadIdx.x];
  __syncthreads();
  out[tile_origin() + threadIdx.x] = t[127 - threadIdx.x];
}

// A thread that returns early while the others meet at a barrier.
__global__ void return_then_barrier(const float *in, float *out, int n) {
  __shared__ float t[128];
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i >= n)
    return;
  t[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = t[threadIdx.x] + t[threadIdx.x ^ 1];
}

// The grid is a run-time value the kernel never sees.
__global__ void runtime_grid(const float *in, float *out) {
  __shared__ float t[128];
  t[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = t[127 - threadIdx.x];
}

// The kernel moves its own pointer parameter.
__global__ void moves_param(float *out, int n) {
  __shared__ float t[128];
  out += blockIdx.x * 128;
  t[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = t[127 - threadIdx.x];
}

// blockIdx converted whole.
__global__ void whole_index(float *out) {
  __shared__ float t[128];
  uint3 b = blockIdx;
  t[threadIdx.x] = out[b.x * 128 + threadIdx.x];
  __syncthreads();
  out[b.x * 128 + threadIdx.x] = t[127 - threadIdx.x];
}

// One block in all: no block has the work of another to take.
__global__ void single_block(float *out) {
  __shared__ float t[128];
  t[threadIdx.x] = out[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = t[127 - threadIdx.x];
}

int main(int argc, char **argv) {
  const int w = 1024, h = 512, n = 1 << 20;
  const int blocks = argc > 1 ? atoi(argv[1]) : 64;
  float *a, *b, *p;
  cudaMalloc(&a, w * h * sizeof(float));
  cudaMalloc(&b, w * h * sizeof(float));
  cudaMalloc(&p, kPartialBlocks * sizeof(float));
  dim3 tb(TILE, ROWS), tg(w / TILE, h / TILE);
  tile_rows<<<tg, tb>>>(b, a, w);
  block_partials<<<kPartialBlocks, 256>>>(a, p, n);
  unsigned rows = n / (64 * 256);
  dim3 fg(64, rows);
  flat2d<<<fg, 256>>>(a, n, 2.0f);
  macro_block<<<w * h / 128, 128>>>(a, b);
  helper_block<<<w * h / 128, 128>>>(a, b);
  return_then_barrier<<<(n + 127) / 128, 128>>>(a, b, n);
  runtime_grid<<<blocks, 128>>>(a, b);
  moves_param<<<w * h / 128, 128>>>(b, n);
  whole_index<<<w * h / 128, 128>>>(b);
  single_block<<<1, 128>>>(b);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
