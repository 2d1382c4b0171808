// vector_add.cu: c = a + b, written the way a first version usually is.
// Build and run: nvcc -O3 -arch=sm_90 vector_add.cu -o vector_add && ./vector_add
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(err_));                                  \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

#define BLOCK_SIZE 256

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 26;
  std::vector<float> a(n), b(n), c(n);
  srand(12345);
  for (int i = 0; i < n; ++i) {
    a[i] = rand() / (float)RAND_MAX - 0.5f;
    b[i] = rand() / (float)RAND_MAX - 0.5f;
  }
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, n * sizeof(float)));
  CHECK(cudaMalloc(&db, n * sizeof(float)));
  CHECK(cudaMalloc(&dc, n * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dc, 0xff, n * sizeof(float))); // NaN: unwritten shows

  vector_add<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (!(std::fabs(c[i] - (a[i] + b[i])) <= 1e-6f))
      ++bad;
  std::printf("%s (%d of %d wrong)\n", bad ? "FAILED" : "PASSED", bad, n);
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  return bad ? 1 : 0;
}
