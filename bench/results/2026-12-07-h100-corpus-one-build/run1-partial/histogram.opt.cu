// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 16:49 UTC.
// Rewrites, all kernels: launch-bounds nvcc.maxrregcount = 64
// Rewrites, kernel histogram: block-size histogram.block = 1024; launch-bounds histogram.launch_bounds = 4; unroll histogram.unroll.L0 = 16; read-only histogram.read_only = true; privatize histogram.privatize = true
// Measured (the program's GPU time (every launch of every kernel)): 0.1156 ms (IQR 0.0012 ms) against 15.5763 ms (IQR 0.0217 ms) for the original: 134.74x (at least 133.40x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: build this variant with nvcc -maxrregcount=64
// histogram: 256-bin histogram of 64 Mi bytes with global atomics.
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

__global__ void __launch_bounds__(1024, 4) histogram(const unsigned char *__restrict__ data, unsigned int *bins, int n) {
  // cuda-rewrite-opt privatize: this block's atomic updates go to a copy
  // in shared memory, added to global memory once at the end.
  const unsigned cro_rank = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned cro_threads = blockDim.x * blockDim.y * blockDim.z;
  __shared__ unsigned int bins_block[256];
  for (unsigned cro_i = cro_rank; cro_i < 256u; cro_i += cro_threads)
    bins_block[cro_i] = 0;
  __syncthreads();
  #pragma unroll 16
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins_block[data[i]], 1u);
  __syncthreads();
  for (unsigned cro_i = cro_rank; cro_i < 256u; cro_i += cro_threads)
    if (bins_block[cro_i] != 0)
      atomicAdd(&bins[cro_i], bins_block[cro_i]);
}

int main() {
  const int n = 1 << 26;
  std::vector<unsigned char> data(n);
  std::vector<unsigned int> ref(256, 0), got(256);
  srand(17);
  for (int i = 0; i < n; ++i) {
    // Skewed, like real data: a few bins get most of the hits.
    int r = rand();
    data[i] = (unsigned char)((r & 3) ? (r >> 8) % 16 : (r >> 8) % 256);
    ++ref[data[i]];
  }
  unsigned char *dd;
  unsigned int *db;
  CHECK(cudaMalloc(&dd, n));
  CHECK(cudaMalloc(&db, 256 * sizeof(unsigned int)));
  CHECK(cudaMemcpy(dd, data.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(db, 0, 256 * sizeof(unsigned int)));
  histogram<<<1320, 1024>>>(dd, db, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got.data(), db, 256 * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < 256; ++b)
    bad += got[b] != ref[b];
  std::printf("%s histogram (%d bins wrong)\n", bad ? "FAILED" : "PASSED", bad);
  cudaFree(dd);
  cudaFree(db);
  return bad ? 1 : 0;
}
