// Block sizes the program chooses at run time (from its command line, a
// struct it fills): a constant replaces them at the launch, with the grid
// recomputed from its extent, where the kernel's outputs cannot depend on
// how threads are grouped into blocks. The default keeps the program's own
// choice ("runtime").
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"offset_rows.block": [64, 4], "axpb.block": 512}' > %t.json
// RUN: %cro %s --apply %t.json | %strip-checks | FileCheck %s --check-prefix=APPLY
// RUN: echo '{"axpb.block": 512, "axpb.coarsen": "x2-contiguous"}' > %t.both.json
// RUN: %expect-exit 10 %cro %s --apply %t.both.json 2>&1 | %strip-checks | FileCheck %s --check-prefix=BOTH
#include <cstdlib>
#include <cuda_runtime.h>

typedef float real_t;

__global__ void axpb(const real_t *x, real_t *y, real_t a, real_t b, int count) {
  int idx;
  idx = threadIdx.x + blockDim.x * blockIdx.x;
  if (idx >= count) return;
  y[idx] = a * x[idx] + b;
}

__global__ void offset_rows(real_t *m, int width, int height, real_t d) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < width && row < height)
    m[row * width + col] += d;
}

// Partial sums per block: the program reads back as many as its own grid
// has, so its block size is part of what it computes.
__global__ void block_sums(const real_t *x, real_t *partial, int count) {
  __shared__ real_t s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < count ? x[i] : 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    real_t t = 0;
    for (unsigned k = 0; k < blockDim.x; ++k) t += s[k];
    partial[blockIdx.x] = t;
  }
}

// The guard's bound is not the extent the grid is sized by.
__global__ void fill_half(real_t *v, int limit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < limit) v[i] = 1;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  int threads = argc > 2 ? atoi(argv[2]) : 256;
  int bx = argc > 3 ? atoi(argv[3]) : 32, by = argc > 4 ? atoi(argv[4]) : 8;
  real_t *x, *y, *p;
  cudaMalloc(&x, n * sizeof(real_t));
  cudaMalloc(&y, n * sizeof(real_t));
  cudaMalloc(&p, n * sizeof(real_t));
  int blocks = (n + threads - 1) / threads;
  axpb<<<blocks, threads>>>(x, y, 2, 1, n);
  dim3 b2(bx, by);
  dim3 g2((1024 + b2.x - 1) / b2.x, (n / 1024 + b2.y - 1) / b2.y);
  offset_rows<<<g2, b2>>>(y, 1024, n / 1024, 0.5f);
  block_sums<<<blocks, threads>>>(y, p, n);
  fill_half<<<blocks, threads>>>(y, n / 2 + 7);
  cudaDeviceSynchronize();
  return 0;
}

// CHECK-DAG: knobs[{{[0-9]+}}].id = "axpb.block"
// CHECK-DAG: knobs[{{[0-9]+}}].default = "runtime"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "offset_rows.block"
// CHECK-DAG: reason = "the kernel writes 'partial[blockIdx.x]' at {{.*}}block-size-runtime.cu:40:5 once per block, from values the block's threads combined out of elements the block's size decides: another block size combines other elements into it"
// CHECK-DAG: reason = "the block size at {{.*}}block-size-runtime.cu:64:3 is chosen at run time ('threads'); a constant may replace it only where the kernel's outputs do not depend on how threads are grouped into blocks, and here the launch at {{.*}}block-size-runtime.cu:64:3 sizes the grid by 'n' but passes 'n / 2 + 7' as the bound 'limit'"

// The program's variables stay as they are; the launches get their own.
// APPLY: int blocks = (n + threads - 1) / threads;
// APPLY: axpb<<<dim3((n + 511) / 512), dim3(512)>>>(x, y, 2, 1, n);
// APPLY: dim3 g2((1024 + b2.x - 1) / b2.x, (n / 1024 + b2.y - 1) / b2.y);
// APPLY: offset_rows<<<dim3((1024 + 63) / 64, ((n / 1024) + 3) / 4), dim3(64, 4)>>>(y, 1024, n / 1024, 0.5f);
// APPLY: block_sums<<<blocks, threads>>>(y, p, n);

// BOTH: cuda-rewrite-opt: error: axpb.block replaces a block size chosen at run time at the launch, with a grid of one thread per index; axpb.coarsen would need that grid shrunk: choose one of them

// A block dimension the kernel does not read is written out again at the
// launch: here it is read through a pointer, which the launch cannot repeat.
__global__ void rows_only(real_t *v, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) v[i] = 0;
}

void one_dim(real_t *v, int count, int bx, const int *by) {
  dim3 b(bx, *by);
  rows_only<<<(count + b.x - 1) / b.x, b>>>(v, count);
}
// CHECK-DAG: reason = "the block size at {{.*}}block-size-runtime.cu:93:3 is chosen at run time ('bx'); a constant may replace it only where the kernel's outputs do not depend on how threads are grouped into blocks, and here its block dimension y ('*by'), which the kernel does not read, cannot be re-evaluated at the launch"
