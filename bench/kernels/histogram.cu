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

__global__ void histogram(const unsigned char *data, unsigned int *bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[data[i]], 1u);
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
  histogram<<<1320, 256>>>(dd, db, n);
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
