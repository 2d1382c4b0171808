// Edge cases the review of the guard work found (2026-12-02):
// - two grid dimensions given the same value (`dim3 grd(nb, nb)`): a
//   rewrite that shrinks one dimension divides the launch's own argument,
//   so the other keeps its blocks;
// - a local declared before the guard that the work changes through a
//   reference parameter of a helper is per output;
// - a declaration before the guard that reads memory through `->` is not
//   pure;
// - kernels of one name in two namespaces get distinct block-size copies.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: reason = "the work has no reduction loop to tile, no store to transpose (the guarded work uses 's', declared before the guard at {{.*}}remap-edge-cases.cu:{{[0-9]+}}:9 which the work changes: a rewrite of the work alone would share it between the outputs){{.*}}"
// The thread form refuses arrow_first (the model names why); the block form,
// which runs whole original blocks, takes it.
// CHECK-DAG: thread_mapping.guard_reason = "the initializer of 'w' at {{.*}}remap-edge-cases.cu:{{[0-9]+}}:9 reads memory or calls a function before the guard, for every thread"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "arrow_first.coarsen"
//
// RUN: echo '{"mm.coarsen": "x2"}' > %t1.json
// RUN: %cro %s --apply %t1.json | %strip-checks | FileCheck %s --check-prefix=COARSEN
// COARSEN: int nb = (n + 15) / 16;
// COARSEN: mm<<<dim3(((grd).x + 2 - 1) / 2, (grd).y, (grd).z), blk>>>(a, b, c, n);
// RUN: echo '{"mm.register_tile": "2x4"}' > %t2.json
// RUN: %cro %s --apply %t2.json -o %t2.cu
// RUN: %strip-checks < %t2.cu | FileCheck %s --check-prefix=TILE
// TILE: int nb = (n + 15) / 16;
// TILE: mm<<<dim3(((grd).x + 4 - 1) / 4, ((grd).y + 2 - 1) / 2, (grd).z), blk>>>(a, b, c, n);
// RUN: nvcc -arch=sm_90 -c %t2.cu -o %t2.o
//
// RUN: echo '{"a::twice.block": 128, "b::twice.block": 512}' > %t3.json
// RUN: %cro %s --apply %t3.json -o %t3.cu
// RUN: %strip-checks < %t3.cu | FileCheck %s --check-prefix=NS
// NS: #define a_twice_THREADS 128
// NS-NEXT: #define b_twice_THREADS 512
// RUN: nvcc -arch=sm_90 -c %t3.cu -o %t3.o
#include <cuda_runtime.h>
#define THREADS 256
__global__ void mm(const float *a, const float *b, float *c, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float s = 0.0f;
    for (int k = 0; k < n; ++k)
      s += a[row * n + k] * b[k * n + col];
    c[row * n + col] = s;
  }
}
__device__ void accumulate(float &s, float v) { s += v; }
__global__ void running(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 1.0f;
  if (i < n) {
    accumulate(s, x[i]);
    y[i] = s;
  }
}
struct Pair { float w, h; };
__global__ void arrow_first(const Pair *p, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float w = (p + i)->w;
  if (i < n)
    y[i] = w;
}
namespace a {
__global__ void twice(float *v, int n) {
  __shared__ float s[THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  s[threadIdx.x] = i < n ? v[i] : 0.0f;
  __syncthreads();
  if (i < n) v[i] = 2 * s[threadIdx.x];
}
}
namespace b {
__global__ void twice(float *v, int n) {
  __shared__ float s[THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  s[threadIdx.x] = i < n ? v[i] : 0.0f;
  __syncthreads();
  if (i < n) v[i] = 3 * s[threadIdx.x];
}
}
int main() {
  int n = 512;
  float *a, *b, *c;
  Pair *p;
  cudaMalloc(&a, n * n * 4); cudaMalloc(&b, n * n * 4); cudaMalloc(&c, n * n * 4);
  cudaMalloc(&p, n * sizeof(Pair));
  int nb = (n + 15) / 16;
  dim3 grd(nb, nb), blk(16, 16);
  mm<<<grd, blk>>>(a, b, c, n);
  running<<<(n + 255) / 256, 256>>>(a, b, n);
  arrow_first<<<(n + 255) / 256, 256>>>(p, c, n);
  a::twice<<<(n + THREADS - 1) / THREADS, THREADS>>>(a, n);
  b::twice<<<(n + THREADS - 1) / THREADS, THREADS>>>(b, n);
  cudaDeviceSynchronize();
  return 0;
}
