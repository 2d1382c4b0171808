// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 13:03 UTC.
// Rewrites, kernel add_offsets: coarsen add_offsets.coarsen = "x8"
// Rewrites, kernel scan_blocks: coarsen scan_blocks.coarsen = "x8"
// Rewrites, kernel scan_sums: launch-bounds scan_sums.launch_bounds = 4; parallel-scan scan_sums.parallel_scan = 1024
// Measured (the program's GPU time (every launch of every kernel)): 0.2019 ms (IQR 0.0034 ms) against 0.7149 ms (IQR 0.0039 ms) for the original: 3.54x (at least 3.47x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// scan: inclusive prefix sum of 16 Mi ints in three kernels -- a
// Hillis-Steele scan per block in shared memory, a scan of the block sums
// by one block, and adding each block's offset.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e_));                                    \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

#define SCAN_BLOCK 512

__global__ void scan_blocks(const int *in, int *out, int *sums, int n) {
  // cuda-rewrite-opt coarsen x8: this block does the work of the original grid's blocks
  // blockIdx.x * 8 ... blockIdx.x * 8 + 7 along x, one after another.
  const unsigned int orig_grid_x = (16777216 + blockDim.x - 1) / blockDim.x;
  for (unsigned int orig_block_x = blockIdx.x * 8; orig_block_x < blockIdx.x * 8 + 8 && orig_block_x < orig_grid_x; ++orig_block_x) {
  __shared__ int buf[SCAN_BLOCK];
  int i = orig_block_x * SCAN_BLOCK + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int off = 1; off < SCAN_BLOCK; off *= 2) {
    int v = threadIdx.x >= off ? buf[threadIdx.x - off] : 0;
    __syncthreads();
    buf[threadIdx.x] += v;
    __syncthreads();
  }
  if (i < n)
    out[i] = buf[threadIdx.x];
  if (threadIdx.x == SCAN_BLOCK - 1)
    sums[orig_block_x] = buf[threadIdx.x];
  __syncthreads(); // the next block's work reuses shared memory
  }
}

// One thread per block sum is enough for a first version.
__global__ void __launch_bounds__(1024, 4) scan_sums(int *sums, int count) {
  if (blockIdx.x == 0 && 0u == 0)
    { // cuda-rewrite-opt parallel-scan 1024: loop L0's running total computed 1024 iterations at a time, one per thread
      int scan_carry = (int)0;
      const unsigned scan_lane = threadIdx.x % 32;
      __shared__ int scan_warp_totals[32];
      const int scan_first = 1;
      for (int scan_base = scan_first;; scan_base += 1024) {
        int k = scan_base + (int)threadIdx.x;
        const bool scan_in = k < count;
        if (!__syncthreads_or(scan_in))
          break;
        int scan_value = (int)0;
        if (scan_in) {
          scan_value = sums[k];
          if (k == scan_first)
            scan_value = scan_value + sums[k - 1];
        }
        for (int scan_d = 1; scan_d < 32; scan_d *= 2) {
          const int scan_up = __shfl_up_sync(0xffffffffu, scan_value, scan_d);
          if (scan_lane >= (unsigned)scan_d)
            scan_value += scan_up;
        }
        if (scan_lane == 31)
          scan_warp_totals[threadIdx.x / 32] = scan_value;
        __syncthreads();
        if (threadIdx.x < 32) {
          int scan_w = threadIdx.x < 32 ? scan_warp_totals[threadIdx.x] : (int)0;
          for (int scan_d = 1; scan_d < 32; scan_d *= 2) {
            const int scan_up = __shfl_up_sync(0xffffffffu, scan_w, scan_d);
            if (scan_lane >= (unsigned)scan_d)
              scan_w += scan_up;
          }
          if (threadIdx.x < 32)
            scan_warp_totals[threadIdx.x] = scan_w;
        }
        __syncthreads();
        if (threadIdx.x >= 32) {
          const int scan_offset = scan_warp_totals[threadIdx.x / 32 - 1];
          scan_value += scan_offset;
        }
        const int scan_chunk = scan_warp_totals[31];
        __syncthreads();
        if (scan_in) {
          sums[k] = scan_carry + scan_value;
        }
        scan_carry += scan_chunk;
      }
    }
}

__global__ void add_offsets(int *out, const int *sums, int n) {
  const int i_first = blockIdx.x * blockDim.x * 8 + threadIdx.x;
  #pragma unroll
  for (int i_step = 0; i_step < 8; ++i_step) {
  const int i = i_first + i_step * blockDim.x;
  int b = i / SCAN_BLOCK;
  if (i < n && b > 0)
    out[i] += sums[b - 1];
  }
}

int main() {
  const int n = 1 << 24;
  std::vector<int> in(n), out(n);
  srand(41);
  for (int &v : in)
    v = rand() % 7 - 3;
  int blocks = (n + SCAN_BLOCK - 1) / SCAN_BLOCK;
  int *din, *dout, *dsums;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CHECK(cudaMalloc(&dsums, blocks * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  scan_blocks<<<((blocks) + 8 - 1) / 8, SCAN_BLOCK>>>(din, dout, dsums, n);
  scan_sums<<<1, 1024>>>(dsums, blocks);
  add_offsets<<<(((n) + 8 - 1) / 8 + 255) / 256, 256>>>(dout, dsums, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long run = 0;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    run += in[i];
    bad += out[i] != (int)run;
  }
  std::printf("%s scan (%d of %d wrong)\n", bad ? "FAILED" : "PASSED", bad, n);
  cudaFree(din);
  cudaFree(dout);
  cudaFree(dsums);
  return bad ? 1 : 0;
}
