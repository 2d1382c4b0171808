// sgemm.cu: naive single-precision C = A * B, row-major, square n x n (the
// corpus's SGEMM; examples/matmul.cu is the same kernel at one size).
// Build and run: nvcc -O3 -arch=sm_90 sgemm.cu -o sgemm && ./sgemm [n]
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

__global__ void sgemm(const float *A, const float *B, float *C, int M, int N,
                       int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048;
  const int M = n, N = n, K = n;
  std::vector<float> A((size_t)M * K), B((size_t)K * N), C((size_t)M * N);
  srand(2026);
  for (float &x : A)
    x = rand() / (float)RAND_MAX - 0.5f;
  for (float &x : B)
    x = rand() / (float)RAND_MAX - 0.5f;
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
  CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
  CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dC, 0xff, C.size() * sizeof(float)));

  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  sgemm<<<grid, block>>>(dA, dB, dC, M, N, K);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // Check 256 random entries against a double-precision reference.
  int bad = 0;
  for (int s = 0; s < 256; ++s) {
    int i = rand() % M, j = rand() % N;
    double ref = 0, mag = 0;
    for (int k = 0; k < K; ++k) {
      ref += (double)A[(size_t)i * K + k] * B[(size_t)k * N + j];
      mag += std::fabs((double)A[(size_t)i * K + k] * B[(size_t)k * N + j]);
    }
    double got = C[(size_t)i * N + j];
    if (!(std::fabs(got - ref) <= 1e-5 * mag + 1e-6))
      ++bad;
  }
  std::printf("%s (%d of 256 sampled entries wrong)\n", bad ? "FAILED" : "PASSED", bad);
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  return bad ? 1 : 0;
}
