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
  __shared__ int buf[SCAN_BLOCK];
  int i = blockIdx.x * SCAN_BLOCK + threadIdx.x;
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
    sums[blockIdx.x] = buf[threadIdx.x];
}

// One thread per block sum is enough for a first version.
__global__ void scan_sums(int *sums, int count) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    for (int k = 1; k < count; ++k)
      sums[k] += sums[k - 1];
}

__global__ void add_offsets(int *out, const int *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = i / SCAN_BLOCK;
  if (i < n && b > 0)
    out[i] += sums[b - 1];
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
  scan_blocks<<<blocks, SCAN_BLOCK>>>(din, dout, dsums, n);
  scan_sums<<<1, 1>>>(dsums, blocks);
  add_offsets<<<(n + 255) / 256, 256>>>(dout, dsums, n);
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
