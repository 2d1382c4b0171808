// block-size where the grid counts groups of threads, not threads: a warp
// per row, launched with ceil(rows / warps per block) blocks of
// warps-per-block * 32 threads. The grid divides by the number of warps
// per block, a symbol the block is a multiple of, so another block size
// recomputes it as ceil(rows / (block / 32)); blocks stay whole warps.
// Refused where the kernel itself reads the number of warps per block
// (through a macro, or as a number that scales blockIdx).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"row_sums.block": 64, "row_max.block": 512}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
// A block that splits a warp would split a row: not offered, and an error.
// RUN: echo '{"row_max.block": 48}' > %t.bad.json
// RUN: not %cro %s --apply %t.bad.json -o %t.bad.cu 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: illegal value 48 for knob 'row_max.block' (legal: 32, 64, 128, 256, 512, 1024)
#include <cuda_runtime.h>

namespace cfg {
constexpr int kWarps = 4;
constexpr int kLanes = 32;
} // namespace cfg

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// C++ style: constants in a namespace, dim3 locals.
__global__ void row_sums(const float *m, float *sums, int rows, int cols) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / cfg::kLanes;
  const int lane = threadIdx.x % cfg::kLanes;
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += cfg::kLanes)
    s += m[(size_t)row * cols + c];
  s = warp_sum(s);
  if (lane == 0)
    sums[row] = s;
}

// C style: macros, the configuration written at the launch.
#define WARPS_PER_BLOCK 8
#define THREADS_PER_WARP 32
#define THREADS (WARPS_PER_BLOCK * THREADS_PER_WARP)
__global__ void row_max(const float *m, float *out, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (warp < rows) {
    float v = -1e30f;
    for (int c = lane; c < cols; c += 32)
      v = fmaxf(v, m[warp * cols + c]);
    for (int o = 16; o > 0; o >>= 1)
      v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));
    if (lane == 0)
      out[warp] = v;
  }
}

// Refused: the row comes from the block's number of warps, through a macro.
#define ROWS_PER_BLOCK 4
#define ROW_OF(b, t) ((b) * ROWS_PER_BLOCK + (t) / 32)
#define SCALE_THREADS (ROWS_PER_BLOCK * 32)
__global__ void row_scale(float *m, const float *f, int rows, int cols) {
  int row = ROW_OF(blockIdx.x, threadIdx.x);
  if (row >= rows)
    return;
  for (int c = threadIdx.x % 32; c < cols; c += 32)
    m[row * cols + c] *= f[row];
}

// Refused: the same numbering, with the number of warps written out.
#define PAIRS_PER_BLOCK 2
__global__ void row_copy(const float *m, float *out, int rows, int cols) {
  int row = blockIdx.x * 2 + threadIdx.x / 32;
  if (row < rows)
    for (int c = threadIdx.x % 32; c < cols; c += 32)
      out[row * cols + c] = m[row * cols + c];
}

int main() {
  const int rows = 1000, cols = 300;
  float *m, *v;
  cudaMalloc(&m, rows * cols * sizeof(float));
  cudaMalloc(&v, rows * sizeof(float));
  const int threads = cfg::kWarps * cfg::kLanes;
  dim3 grid((rows + cfg::kWarps - 1) / cfg::kWarps);
  row_sums<<<grid, threads>>>(m, v, rows, cols);
  row_max<<<(rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK, THREADS>>>(
      m, v, rows, cols);
  row_scale<<<(rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK, SCALE_THREADS>>>(
      m, v, rows, cols);
  const unsigned copy_threads = PAIRS_PER_BLOCK * 32;
  row_copy<<<(rows + PAIRS_PER_BLOCK - 1) / PAIRS_PER_BLOCK, copy_threads>>>(
      m, m, rows, cols);
  cudaDeviceSynchronize();
  return 0;
}

// KNOBS-DAG: kernels[0].launches[0].grid.dims[0].derived.block_fraction = 32
// KNOBS-DAG: kernels[0].launches[0].grid.dims[0].derived.block_symbol = "cfg::kWarps"
// KNOBS-DAG: kernels[1].launches[0].grid.dims[0].derived.block_symbol = "WARPS_PER_BLOCK"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "row_sums.block"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "row_max.block"
// KNOBS-DAG: reason = "the body hard-codes the block size: the literal 2 (other) has no link to the launch"
// KNOBS-DAG: reason = "grid dimension x at {{.*}}block-size-warp-groups.cu:92:3 divides by 'ROWS_PER_BLOCK', the number of 32-thread groups in a block, which the kernel also reads at {{.*}}block-size-warp-groups.cu:66:13; there it would keep the old number"

// 64 threads are 2 warps: ceil(rows / 2) blocks; 512 are 16.
// CHECK:      #define row_max_THREADS 512
// CHECK:        constexpr int row_sums_threads = 64;
// CHECK-NEXT:   dim3 grid((rows + 1) / 2);
// CHECK-NEXT:   row_sums<<<grid, row_sums_threads>>>(m, v, rows, cols);
// CHECK-NEXT:   row_max<<<(rows + 15) / 16, row_max_THREADS>>>(
// CHECK:        row_scale<<<(rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK, SCALE_THREADS>>>(
