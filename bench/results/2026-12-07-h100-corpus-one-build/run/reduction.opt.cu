// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 16:59 UTC.
// Rewrites, all kernels: launch-bounds nvcc.maxrregcount = 128
// Rewrites, kernel reduce_sum: launch-bounds reduce_sum.launch_bounds = 1; unroll reduce_sum.unroll.L0 = 2; fold reduce_sum.fold = 128; warp-aggregate reduce_sum.warp_aggregate = true
// Measured (the program's GPU time (every launch of every kernel)): 0.0580 ms (IQR 0.0001 ms) against 0.1820 ms (IQR 0.0001 ms) for the original: 3.13x (at least 3.11x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: build this variant with nvcc -maxrregcount=128
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
// reduction: sum of 32 Mi floats; shared-memory tree per block sized by the
// block-size macro, then one atomicAdd per block.
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

#define THREADS 512

#ifndef CRO_WARP_AGGREGATED_ADD_reduce_sum_float
#define CRO_WARP_AGGREGATED_ADD_reduce_sum_float
// cuda-rewrite-opt: atomicAdd(target, value) for a target every lane
// shares: the lanes that arrive together combine their values, and
// one of them updates memory.
__device__ __forceinline__ void cro_warp_aggregated_add_reduce_sum_float(float *target, float value) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group lanes = cg::coalesced_threads();
  const float combined = cg::reduce(lanes, value, cg::plus<float>());
  if (lanes.thread_rank() == 0)
    atomicAdd(target, combined);
}
#endif
__global__ void __launch_bounds__(512, 1) reduce_sum(const float *in, float *out, int n) {
  __shared__ float partial[THREADS];
  int tid = threadIdx.x;
  int i = blockIdx.x * THREADS + tid;
  // cuda-rewrite-opt fold 128: this thread's values for the original blocks blockIdx.x * 128 ... blockIdx.x * 128 + 127, added up before the block combines them
  float folded_sum = 0;
  {
    const unsigned int orig_grid_x = (33554432 + blockDim.x - 1) / blockDim.x;
    for (unsigned int orig_block_x = blockIdx.x * 128; orig_block_x < blockIdx.x * 128 + 128 && orig_block_x < orig_grid_x; ++orig_block_x) {
      int tid = threadIdx.x;
      int i = orig_block_x * THREADS + tid;
      folded_sum += (i < n ? in[i] : 0.0f);
    }
  }
  partial[tid] = folded_sum;
  __syncthreads();
  #pragma unroll 2
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    cro_warp_aggregated_add_reduce_sum_float(out, partial[0]);
}

int main() {
  const int n = 1 << 25;
  std::vector<float> in(n);
  srand(11);
  double ref = 0, mag = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = rand() / (float)RAND_MAX - 0.25f;
    ref += in[i];
    mag += std::fabs(in[i]);
  }
  float *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, sizeof(float)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, sizeof(float)));
  int blocks = (((n + THREADS - 1) / THREADS) + 128 - 1) / 128;
  reduce_sum<<<blocks, THREADS>>>(din, dout, n);
  CHECK(cudaGetLastError());
  float got;
  CHECK(cudaMemcpy(&got, dout, sizeof(float), cudaMemcpyDeviceToHost));
  // fp32 partial sums in any order: error bounded by ~n*eps*sum|x|.
  bool ok = std::fabs(got - ref) <= 1e-5 * mag;
  std::printf("%s reduction (got %.6g, expected %.6g)\n", ok ? "PASSED" : "FAILED",
              got, ref);
  cudaFree(din);
  cudaFree(dout);
  return ok ? 0 : 1;
}
