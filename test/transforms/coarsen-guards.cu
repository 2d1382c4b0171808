// coarsen on guards written in other styles: declarations before a
// wrapping guard (`int k; float acc = 0.0f;` in the K&R style) and an
// else-if chain without a final else; the obstacles that remain named as
// such. The rewrites that regenerate the body (vectorize, shared_stage,
// register_tile) keep what comes between the index and the guard, and
// register_tile divides both dimensions of a grid variable another
// kernel's launch shares in one edit.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: knobs[{{[0-9]+}}].id = "row_dot.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "edge_fill.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "axpb.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "axpb.vectorize"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "mm.shared_stage"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "mm.register_tile"
// The thread form (the index redefined per output) cannot take these three
// guards, for the reasons the model names; the block form, which runs whole
// original blocks and skips those past the original grid, can.
// CHECK-DAG: kernels[2].thread_mapping.guard_reason = "the initializer of 'v' at {{.*}}coarsen-guards.cu:{{[0-9]+}}:9 reads memory or calls a function before the guard, for every thread"
// CHECK-DAG: kernels[3].thread_mapping.guard_reason = "the guard's final else at {{.*}}coarsen-guards.cu:{{[0-9]+}}:5 runs for the threads beyond its bounds"
// CHECK-DAG: kernels[4].thread_mapping.guard_reason = "the branches of the guard at {{.*}}coarsen-guards.cu:{{[0-9]+}}:3 do not all bound 'x' by 'n'"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "loads_first.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "with_else.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "mixed_bounds.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "row_dot.register_tile"
// CHECK-DAG: kernels[0].thread_mapping.leading_decls[0].name = "acc"
// CHECK-DAG: kernels[0].thread_mapping.leading_decls[0].per_output = "which the work changes"
// CHECK-DAG: kernels[0].thread_mapping.leading_decls[1].per_output = null
// CHECK-DAG: kernels[1].thread_mapping.guard = "branches"
// CHECK-DAG: kernels[1].thread_mapping.guard_condition = "(y > 0 && y < h && x < w) || (y == 0 && x < w)"
// CHECK-DAG: kernels[1].thread_mapping.upper_bounds.x = "w"
// CHECK-NOT: kernels[1].thread_mapping.upper_bounds.y
//
// RUN: echo '{"row_dot.coarsen": "x2", "edge_fill.coarsen": "x4-contiguous", "axpb.vectorize": 4}' > %t1.json
// RUN: %cro %s --apply %t1.json -o %t1.cu
// RUN: %strip-checks < %t1.cu | FileCheck %s --check-prefix=COARSEN
// COARSEN: const int r_first = blockIdx.x * blockDim.x * 2 + threadIdx.x;
// COARSEN-NEXT: #pragma unroll
// COARSEN-NEXT: for (int r_step = 0; r_step < 2; ++r_step) {
// COARSEN-NEXT: const int r = r_first + r_step * blockDim.x;
// COARSEN-NEXT: int k;
// COARSEN-NEXT: float acc = 0.0f, scale = 2.0f;
// COARSEN: const int x_first = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
// COARSEN: const int x = x_first + x_step;
// COARSEN-NEXT: if (y > 0 && y < h && x < w)
// COARSEN: const int i_first = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
// COARSEN-NEXT: const float b = 1.0f + a;
// COARSEN: row_dot<<<(((n) + 2 - 1) / 2 + 127) / 128, 128>>>(m, v, o, n);
// COARSEN: grid((((w) + 4 - 1) / 4 + 31) / 32, (h + 7) / 8);
// RUN: nvcc -arch=sm_90 -c %t1.cu -o %t1.o
//
// RUN: echo '{"mm.shared_stage": 16, "mm.register_tile": "2x2"}' > %t2.json
// RUN: %cro %s --apply %t2.json -o %t2.cu
// RUN: %strip-checks < %t2.cu | FileCheck %s --check-prefix=NEST
// NEST: const float scale = alpha * 0.5f;
// NEST: mm<<<dim3(((grd).x + 2 - 1) / 2, ((grd).y + 2 - 1) / 2, (grd).z), blk>>>(m, m, o, n, 1.0f);
// NEST-NEXT: blur<<<grd, blk>>>(m, o, n, n);
// RUN: nvcc -arch=sm_90 -c %t2.cu -o %t2.o
#include <cuda_runtime.h>
// Declarations before the guard, in the K&R style.
__global__ void row_dot(const float *m, const float *v, float *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int k;
  float acc = 0.0f, scale = 2.0f;
  if (r < n) {
    for (k = 0; k < n; k++)
      acc += m[r * n + k] * v[k];
    out[r] = scale * acc;
  }
}
// An else-if chain with no final else: both branches bound x by w.
__global__ void edge_fill(float *a, const float *edge, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y > 0 && y < h && x < w)
    a[y * w + x] = 0.5f * (a[y * w + x] + a[(y - 1) * w + x]);
  else if (y == 0 && x < w)
    a[x] = edge[x];
}
// A declaration before the guard reads memory: every thread of the variant
// would read it, those beyond n too.
__global__ void loads_first(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (i < n)
    out[i] = v * v;
}
// A final else runs for the threads beyond the bound.
__global__ void with_else(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
  else
    out[0] = 2.0f;
}
// The branches bound x by different values.
__global__ void mixed_bounds(float *out, int n, int m) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < n)
    out[x] = 1.0f;
  else if (x < m)
    out[x] = 2.0f;
}
// Element-wise work using a local declared before the guard.
__global__ void axpb(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float b = 1.0f + a;
  if (i < n)
    y[i] = a * x[i] + b;
}
// A matrix product with a constant computed before its guard: the
// shared-memory rewrites keep it, once per thread.
__global__ void mm(const float *a, const float *b, float *c, int n, float alpha) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  const float scale = alpha * 0.5f;
  if (row < n && col < n) {
    float s = 0.0f;
    for (int k = 0; k < n; ++k)
      s += a[row * n + k] * b[k * n + col];
    c[row * n + col] = scale * s;
  }
}
// blur shares the grid variable with mm.
__global__ void blur(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  const float third = 1.0f / 3.0f;
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
    out[y * w + x] = third * (in[y * w + x - 1] + in[y * w + x] + in[y * w + x + 1]) + in[(y-1)*w+x] - in[(y+1)*w+x];
}
int main() {
  const int n = 1000, w = 300, h = 200;
  float *m, *v, *o, *e;
  cudaMalloc(&m, n * n * sizeof(float)); cudaMalloc(&v, n * sizeof(float));
  cudaMalloc(&o, w * h * sizeof(float)); cudaMalloc(&e, n * sizeof(float));
  row_dot<<<(n + 127) / 128, 128>>>(m, v, o, n);
  dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  edge_fill<<<grid, block>>>(o, e, w, h);
  loads_first<<<(n + 255) / 256, 256>>>(v, o, n);
  with_else<<<(n + 255) / 256, 256>>>(o, n);
  mixed_bounds<<<(n + 255) / 256, 256>>>(o, n, n);
  axpb<<<(n + 255) / 256, 256>>>(v, o, 2.0f, n);
  dim3 blk(16, 16), grd((n + 15) / 16, (n + 15) / 16);
  mm<<<grd, blk>>>(m, m, o, n, 1.0f);
  blur<<<grd, blk>>>(m, o, n, n);
  cudaDeviceSynchronize();
  return 0;
}
