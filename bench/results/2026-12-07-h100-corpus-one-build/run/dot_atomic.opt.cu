// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 16:55 UTC.
// Rewrites, all kernels: launch-bounds nvcc.maxrregcount = 64; nvcc-flags nvcc.dlcm = "ca"
// Rewrites, kernel dot_product: block-size dot_product.block = 32; launch-bounds dot_product.launch_bounds = 1; fold dot_product.fold = 32; warp-aggregate dot_product.warp_aggregate = true
// Measured (the program's GPU time (every launch of every kernel)): 0.0659 ms (IQR 0.0011 ms) against 29.4966 ms (IQR 0.0079 ms) for the original: 447.90x (at least 446.16x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: build this variant with nvcc -maxrregcount=64 -Xptxas=-dlcm=ca
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
// dot_atomic: dot product of 16 Mi floats, each thread atomicAdds its product to one global sum; tutorial style.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N (1 << 24)
#define THREADS_PER_BLOCK 256
#define dot_product_THREADS_PER_BLOCK 32

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err = call;                                                    \
    if (err != cudaSuccess) {                                                  \
      printf("CUDA error at %s:%d: %s\n", __FILE__, __LINE__,                  \
             cudaGetErrorString(err));                                         \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

#ifndef CRO_WARP_AGGREGATED_ADD_dot_product_float
#define CRO_WARP_AGGREGATED_ADD_dot_product_float
// cuda-rewrite-opt: atomicAdd(target, value) for a target every lane
// shares: the lanes that arrive together combine their values, and
// one of them updates memory.
__device__ __forceinline__ void cro_warp_aggregated_add_dot_product_float(float *target, float value) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group lanes = cg::coalesced_threads();
  const float combined = cg::reduce(lanes, value, cg::plus<float>());
  if (lanes.thread_rank() == 0)
    atomicAdd(target, combined);
}
#endif
__global__ void __launch_bounds__(32, 1) dot_product(const float *a, const float *b, float *result,
                            int n) {
  // cuda-rewrite-opt fold 32: the values this thread adds to 'result' for the original blocks below, added up first
  float folded_sum = 0;
  bool folded_any = false;
  // cuda-rewrite-opt coarsen x32: this block does the work of the original grid's blocks
  // blockIdx.x * 32 ... blockIdx.x * 32 + 31 along x, one after another.
  const unsigned int orig_grid_x = (n + blockDim.x - 1) / blockDim.x;
  for (unsigned int orig_block_x = blockIdx.x * 32; orig_block_x < blockIdx.x * 32 + 32 && orig_block_x < orig_grid_x; ++orig_block_x) {
  int i = orig_block_x * blockDim.x + threadIdx.x;
  if (i < n) {
    float prod = a[i] * b[i];
    (folded_sum += (prod), folded_any = true);
  }
  }
  if (folded_any)
    cro_warp_aggregated_add_dot_product_float(result, folded_sum);
}

int main(int argc, char **argv) {
  int n = N;
  if (argc > 1)
    n = atoi(argv[1]);
  size_t size = n * sizeof(float);

  // Host arrays
  float *h_a = (float *)malloc(size);
  float *h_b = (float *)malloc(size);
  float h_result = 0.0f;

  // Inputs from a linear congruential generator (rand() is slow): a in
  // [0, 1), b in [-0.45, 0.55). The sum is added one product at a time in
  // fp32, so it must not grow much larger than the products: with all
  // products positive (16 Mi of them, sum ~4 Mi) each add would round to a
  // fraction of its own size and the total comes out ~2% off. Mixed signs
  // with a small positive mean keep the sum at ~1/5 of sum|a*b| and the fp32
  // result within ~1e-4 of it.
  unsigned int seed = 2024;
  double expected = 0.0, magnitude = 0.0;
  for (int i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    h_a[i] = (seed >> 8) / 16777216.0f;
    seed = seed * 1664525u + 1013904223u;
    h_b[i] = (seed >> 8) / 16777216.0f - 0.45f;
    double p = (double)(h_a[i] * h_b[i]); // the product as the GPU rounds it
    expected += p;
    magnitude += fabs(p);
  }

  // Device arrays
  float *d_a, *d_b, *d_result;
  CUDA_CHECK(cudaMalloc(&d_a, size));
  CUDA_CHECK(cudaMalloc(&d_b, size));
  CUDA_CHECK(cudaMalloc(&d_result, sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_a, h_a, size, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, h_b, size, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_result, 0, sizeof(float)));

  // Launch the kernel
  int blocks = (((n + dot_product_THREADS_PER_BLOCK - 1) / dot_product_THREADS_PER_BLOCK) + 32 - 1) / 32;
  dot_product<<<blocks, dot_product_THREADS_PER_BLOCK>>>(d_a, d_b, d_result, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(&h_result, d_result, sizeof(float),
                        cudaMemcpyDeviceToHost));

  // Any summation order is fine: compare with 1e-3 of sum|a*b|.
  bool ok = fabs(h_result - expected) <= 1e-3 * magnitude;
  printf("%s dot_atomic (got %.8g, expected %.8g)\n", ok ? "PASSED" : "FAILED",
         h_result, expected);

  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_result));
  free(h_a);
  free(h_b);
  return ok ? 0 : 1;
}
