// warp-reduce: G consecutive lanes do one thread's work together; the loop
// that sums into a local -- or into one global element, through a register
// lane 0 loads and stores -- gives lane l the iterations l, l + G, ..., a
// shuffle tree adds the lanes' sums into lane 0, which runs what follows
// the loop; the grid grows G times. Refused where the loop is not such a
// sum, where something before it writes memory other than the element's
// own statements, where the element may alias what the loop reads, where
// what follows reads the loop variable, and where a group could straddle
// two warps.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"row_norms.warp_reduce": 32, "col_means.warp_reduce": 8, "count_above.warp_reduce": 16, "count_above.unroll.L0": 4, "gemv_t.warp_reduce": 32}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
// A new block size gives col_means's launch, whose grid and block products
// shares, a grid of its own, which warp-reduce cannot multiply.
// RUN: echo '{"col_means.warp_reduce": 8, "col_means.block": 128}' > %t.bad.json
// RUN: not %cro %s --apply %t.bad.json -o %t.bad.cu 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: kernel col_means: col_means.block gives the launch at {{.*}}warp-reduce.cu:{{[0-9]+}}:3 a grid of its own (its shape is shared with other code), which warp-reduce cannot multiply; choose one
#include <cuda_runtime.h>

namespace cfg {
constexpr int kThreads = 128;
}
typedef double acc_t;

// A thread per row, the sum declared in the work, sqrt after the loop.
__global__ void row_norms(const float *__restrict__ m, float *__restrict__ out,
                          int rows, int cols) {
  const int row = threadIdx.x + blockIdx.x * blockDim.x;
  if (row >= rows)
    return;
  acc_t s = 0.0;
  for (int c = 0; c < cols; ++c)
    s = s + (acc_t)m[row * cols + c] * m[row * cols + c];
  out[row] = (float)sqrt(s);
}

// A thread per column starting from a bias read before the loop; the
// counter declared before it, the bound inclusive.
__global__ void col_means(const float *a, const float *bias, float *mean,
                          int n, int last) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int r;
  if (j < n) {
    float total = bias[j];
    for (r = 0; r <= last; r++) {
      total += a[r * n + j];
    }
    mean[j] = total / (last + 1);
  }
}

// Integer counts are exact in any order.
__global__ void count_above(const int *v, unsigned *hits, int n, int len,
                            int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned c = 0;
    for (int k = 0; k < len; k++)
      c += v[i * len + k] > t ? 1u : 0u;
    hits[i] = c;
  }
}

// The sum kept in global memory, zeroed first (PolyBench's form): lane 0
// zeroes it and loads it into a register, the lanes add to the register.
__global__ void gemv_t(int m, int n, const float *At, const float *x,
                       float *y) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < n) {
    y[col] = 0.0f;
    for (int r = 0; r < m; ++r)
      y[col] += At[col * m + r] * x[r];
  }
}

// Refused: before the loop another array is written (by every lane), from
// the element, which lane 0 is about to write.
__global__ void keep_old(const float *a, float *y, float *old, int n,
                         int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    old[i] = y[i];
    y[i] = 0.0f;
    for (int k = 0; k < len; k++)
      y[i] += a[i * len + k];
  }
}

// Refused: the loop multiplies.
__global__ void products(const float *a, float *p, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float q = 1.0f;
    for (int k = 0; k < len; k++)
      q *= a[i * len + k];
    p[i] = q;
  }
}

// Refused: the output is written before the loop.
__global__ void zero_then_sum(const float *a, float *s, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[i] = 0.0f;
    float t = 0.0f;
    for (int k = 0; k < len; k++)
      t += a[i * len + k];
    s[i] = t;
  }
}

// Refused: what follows reads the loop variable.
__global__ void sum_and_count(const float *a, float *s, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k;
  if (i < n) {
    float t = 0.0f;
    for (k = 0; k < len; k++)
      t += a[i * len + k];
    s[i] = t / k;
  }
}

// Refused: 40 threads a block, so a group of lanes could straddle warps.
__global__ void odd_blocks(const float *a, float *s, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = 0.0f;
    for (int k = 0; k < len; k++)
      t += a[i * len + k];
    s[i] = t;
  }
}

// Refused: the launch passes one buffer as the sum and as what the loop
// reads, so the sum cannot move to a register.
__global__ void self_sum(const float *a, float *y, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int k = 0; k < len; k++)
      y[i] += a[i * len + k];
  }
}

int main() {
  const int n = 4096, len = 64;
  float *a, *b, *c;
  int *v;
  unsigned *h;
  cudaMalloc(&a, n * len * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  cudaMalloc(&v, n * len * sizeof(int));
  cudaMalloc(&h, n * sizeof(unsigned));
  row_norms<<<(n + cfg::kThreads - 1) / cfg::kThreads, cfg::kThreads>>>(a, b, n, len);
  dim3 grid((n + 255) / 256), block(256);
  col_means<<<grid, block>>>(a, b, c, n, len - 1);
  count_above<<<(n + 63) / 64, 64>>>(v, h, n, len, 7);
  products<<<grid, block>>>(a, b, n, len);
  zero_then_sum<<<(n + 255) / 256, 256>>>(a, b, n, len);
  sum_and_count<<<(n + 255) / 256, 256>>>(a, b, n, len);
  odd_blocks<<<(n + 39) / 40, 40>>>(a, b, n, len);
  gemv_t<<<(n + 127) / 128, 128>>>(len, n, a, b, c);
  keep_old<<<(n + 127) / 128, 128>>>(a, b, c, n, len);
  self_sum<<<(n + 127) / 128, 128>>>(a, a, n, len);
  cudaDeviceSynchronize();
  return 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "row_norms.warp_reduce"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "col_means.warp_reduce"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "count_above.warp_reduce"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "gemv_t.warp_reduce"
// KNOBS-DAG: knobs[{{[0-9]+}}].role = "warp-cooperation"
// KNOBS-DAG: reason = "'old[i]' at {{.*}}warp-reduce.cu:83:5 writes memory before the loop, where every lane of a group would write it"
// KNOBS-DAG: reason = "the body of loop L0 at {{.*}}warp-reduce.cu:95:5 does not only add to (or take a maximum or minimum into) one variable declared outside it, or add to one global element (it changes 'q' at {{.*}}warp-reduce.cu:94:11)"
// KNOBS-DAG: reason = "'s[i]' at {{.*}}warp-reduce.cu:105:5 writes memory before the loop, where every lane of a group would write it"
// KNOBS-DAG: reason = "loop L0 at {{.*}}warp-reduce.cu:119:5 cannot give each lane every G-th iteration: 'k' is read at {{.*}}warp-reduce.cu:121:16, outside the loops that assign it, and the tiled loop counts with a variable of its own"
// KNOBS-DAG: reason = "'a' may point into 'y' ('a' is passed twice at {{.*}}warp-reduce.cu:166:3), and the sum of 'y[i]' moves to a register; pass --assume-no-alias if they never overlap"
// KNOBS-DAG: reason = "the block's x extent at {{.*}}warp-reduce.cu:163:3 ('40') is not known to be a multiple of 32, so a group of lanes could straddle two warps"

// The rows: a warp per row, lane 0 writes the norm.
// CHECK:        const unsigned lane = threadIdx.x % 32;
// CHECK-NEXT:   const unsigned group_mask = 0xffffffffu;
// CHECK-NEXT:   const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   if (row >= rows)
// CHECK-NEXT:     return;
// CHECK-NEXT:   acc_t s = 0.0;
// CHECK-NEXT:   if (lane != 0)
// CHECK-NEXT:     s = 0;
// CHECK-NEXT:   for (int c = (0) + lane; c < cols; c += 32)
// CHECK-NEXT:     s = s + (acc_t)m[row * cols + c] * m[row * cols + c];
// CHECK-NEXT:   for (int offset = 16; offset > 0; offset /= 2)
// CHECK-NEXT:     s += __shfl_down_sync(group_mask, s, offset, 32);
// CHECK-NEXT:   if (lane == 0) {
// CHECK-NEXT:   out[row] = (float)sqrt(s);
// CHECK-NEXT:   }

// The columns: groups of 8, lane 0 keeps the bias.
// CHECK:        const unsigned group_mask = (0xffffffffu >> 24) << ((threadIdx.x % 32) / 8 * 8);
// CHECK-NEXT:   int j = (blockIdx.x * blockDim.x + threadIdx.x) / 8;
// CHECK:            float total = bias[j];
// CHECK-NEXT:       if (lane != 0)
// CHECK-NEXT:         total = 0;
// CHECK-NEXT:       for (r = (0) + lane; r <= last; r += 8) {
// CHECK:            for (int offset = 4; offset > 0; offset /= 2)
// CHECK-NEXT:         total += __shfl_down_sync(group_mask, total, offset, 8);
// CHECK-NEXT:       if (lane == 0) {
// CHECK-NEXT:       mean[j] = total / (last + 1);

// The counts: the zeroing comes before unroll's pragma.
// CHECK:            unsigned c = 0;
// CHECK-NEXT:       if (lane != 0)
// CHECK-NEXT:         c = 0;
// CHECK-NEXT:       #pragma unroll 4
// CHECK-NEXT:       for (int k = (0) + lane; k < len; k += 16)

// The global sum: lane 0 zeroes it and loads it, the lanes add to a
// register, lane 0 stores it back.
// CHECK:            if (lane == 0) { y[col] = 0.0f; }
// CHECK-NEXT:       float y_sum = 0;
// CHECK-NEXT:       const bool r_loop_runs = (0) < (m);
// CHECK-NEXT:       if (lane == 0 && r_loop_runs)
// CHECK-NEXT:         y_sum = y[col];
// CHECK-NEXT:       for (int r = (0) + lane; r < m; r += 32)
// CHECK-NEXT:         y_sum += At[col * m + r] * x[r];
// CHECK-NEXT:       for (int offset = 16; offset > 0; offset /= 2)
// CHECK-NEXT:         y_sum += __shfl_down_sync(group_mask, y_sum, offset, 32);
// CHECK-NEXT:       if (lane == 0 && r_loop_runs)
// CHECK-NEXT:         y[col] = y_sum;

// The grids: G times the blocks.
// CHECK:        row_norms<<<(((n + cfg::kThreads - 1) / cfg::kThreads) * 32), cfg::kThreads>>>(a, b, n, len);
// CHECK:        col_means<<<dim3((grid).x * 8, (grid).y, (grid).z), block>>>(a, b, c, n, len - 1);
// CHECK:        count_above<<<(((n + 63) / 64) * 16), 64>>>(v, h, n, len, 7);

