// Coarsening kernels whose work is grid-stride loops: any number of blocks
// computes the same outputs, so the coarsen knob launches ceil(G / F) of
// them and the loops hand each thread F times more indices. The division is
// written around the grid's value, or around the launch's own argument when
// other kernels read that value. Refused where the grid does matter: a loop
// that carries a value across indices, stops early, or a kernel that reads
// its block index or writes memory outside the loops.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"scale.coarsen": "x4", "saxpy_rows.coarsen": "y2", "count.coarsen": "x8"}' > %t.json
// RUN: %cro %s --apply %t.json | %strip-checks | FileCheck %s --check-prefix=APPLY
#include <cuda_runtime.h>

typedef unsigned int uint;

__device__ __forceinline__ uint first_index() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

// The index declared before its loop, the stride in a local, a helper.
__global__ void scale(float *v, float a, uint n) {
  uint i;
  const uint stride = gridDim.x * blockDim.x;
  for (i = first_index(); i < n; i += stride)
    v[i] *= a;
}

// Rows in y, columns in x, both grid-strided; the row stride written
// `r = r + ...`.
__global__ void saxpy_rows(const float *x, float *y, float a, int rows,
                           int cols) {
  for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows;
       r = r + blockDim.y * gridDim.y)
    for (int c = threadIdx.x + blockIdx.x * blockDim.x; c < cols;
         c += blockDim.x * gridDim.x)
      y[r * cols + c] += a * x[r * cols + c];
}

// Atomic updates inside the loop: the same updates, from fewer threads.
__global__ void count(const int *keys, int n, unsigned int *hist) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&hist[keys[i] & 255], 1u);
}

// A per-thread partial sum: which indices one thread adds depends on the
// grid.
__global__ void partial_sums(const float *v, int n, float *out) {
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    s += v[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Stops at the first negative value its thread meets.
__global__ void clamp_until_negative(float *v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    if (v[i] < 0.0f)
      break;
    v[i] = v[i] > 1.0f ? 1.0f : v[i];
  }
}

// Counts its threads outside the loop.
__global__ void touch(float *v, int n, int *threads) {
  atomicAdd(threads, 1);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v[i] += 1.0f;
}

// Block 0 marks the pass done: a read of blockIdx.x outside the loop.
__global__ void fill_and_mark(float *v, int n, int *done) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v[i] = 0.0f;
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *done = 1;
}

void run(float *v, const float *x, float *y, const int *keys,
         unsigned int *hist, float *out, int *threads, uint n, int rows,
         int cols, int sms) {
  int blocks = 4 * sms;
  scale<<<blocks, 256>>>(v, 2.0f, n);
  saxpy_rows<<<dim3(8, sms), dim3(32, 8)>>>(x, y, 3.0f, rows, cols);
  count<<<blocks, 128>>>(keys, (int)n, hist);
  partial_sums<<<blocks, 256>>>(v, (int)n, out);
  clamp_until_negative<<<blocks, 256>>>(v, (int)n);
  touch<<<blocks, 256>>>(v, (int)n, threads);
  fill_and_mark<<<blocks, 256>>>(v, (int)n, threads);
}

// CHECK-DAG: kernels[0].grid_stride.free_dims[0] = "x"
// CHECK-DAG: kernels[1].grid_stride.free_dims[0] = "x"
// CHECK-DAG: kernels[1].grid_stride.free_dims[1] = "y"
// CHECK-DAG: kernels[2].grid_stride.free_dims[0] = "x"
// CHECK-DAG: kernels[3].grid_stride.reason = "the grid-stride loop at {{.*}}:49:3 carries 's' from one index to the next, and which indices one thread takes depends on the grid"
// CHECK-DAG: kernels[4].grid_stride.reason = "the grid-stride loop at {{.*}}:57:3 may stop early, after a number of indices that depends on the grid"
// CHECK-DAG: kernels[5].grid_stride.reason = "the kernel calls 'atomicAdd' at {{.*}}:67:3 outside its grid-stride loops, once per thread of the grid"
// CHECK-DAG: kernels[6].grid_stride.reason = "the kernel reads blockIdx.x at {{.*}}:78:7 outside the start and step of its grid-stride loops"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "scale.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "saxpy_rows.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "count.coarsen"
// CHECK-DAG: refused[{{[0-9]+}}].reason = "the grid-stride loop at {{.*}}:49:3 carries 's'{{.*}}"
// CHECK-DAG: refused[{{[0-9]+}}].reason = "the kernel reads blockIdx.x at {{.*}}:78:7 {{.*}}"

// The kernels are unchanged; only the grids shrink ('blocks' is read by
// other kernels' launches, so each launch divides its own argument).
// APPLY: for (i = first_index(); i < n; i += stride)
// APPLY: scale<<<((blocks) + 4 - 1) / 4, 256>>>(v, 2.0f, n);
// APPLY-NEXT: saxpy_rows<<<dim3(8, ((sms) + 2 - 1) / 2), dim3(32, 8)>>>(x, y, 3.0f, rows, cols);
// APPLY-NEXT: count<<<((blocks) + 8 - 1) / 8, 128>>>(keys, (int)n, hist);
// APPLY-NEXT: partial_sums<<<blocks, 256>>>(v, (int)n, out);
