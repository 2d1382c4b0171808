// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 16:56 UTC.
// Rewrites, kernel sgemm: shared-stage sgemm.shared_stage = 32; register-tile sgemm.register_tile = "4x2"
// Measured (the program's GPU time (every launch of every kernel)): 0.8940 ms (IQR 0.0014 ms) against 3.1413 ms (IQR 0.0016 ms) for the original: 3.51x (at least 3.51x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
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
  // cuda-rewrite-opt: loop 'k' tiled by 32 through shared memory, 4x2 outputs per thread
  const int row_first = blockIdx.y * 64 + threadIdx.y;
  const int col_first = blockIdx.x * 32 + threadIdx.x;
  __shared__ float A_tile[64][32];
  __shared__ float B_tile[32][32];
  float acc_r[4][2];
  #pragma unroll
  for (int oy = 0; oy < 4; ++oy)
  #pragma unroll
  for (int ox = 0; ox < 2; ++ox) {
    acc_r[oy][ox] = 0.0f;
  }
  for (int k_tile = 0; k_tile < K; k_tile += 32) {
    for (int e = threadIdx.y * 16 + threadIdx.x; e < 2048; e += 256) {
      const int tp = e / 32, tk = e % 32;
      A_tile[tp][tk] = (k_tile + tk < K && blockIdx.y * 64 + tp < M && 0 < N) ? A[(blockIdx.y * 64 + tp) * K + (k_tile + tk)] : float();
    }
    for (int e = threadIdx.y * 16 + threadIdx.x; e < 1024; e += 256) {
      const int tk = e / 32, tp = e % 32;
      B_tile[tk][tp] = (k_tile + tk < K && 0 < M && blockIdx.x * 32 + tp < N) ? B[(k_tile + tk) * N + (blockIdx.x * 32 + tp)] : float();
    }
    __syncthreads();
    if (k_tile + 32 <= K) {
      #pragma unroll
      for (int k = k_tile; k < k_tile + 32; ++k) {
        #pragma unroll
        for (int oy = 0; oy < 4; ++oy)
        #pragma unroll
        for (int ox = 0; ox < 2; ++ox) {
          acc_r[oy][ox] += A_tile[threadIdx.y + oy * 16][k - k_tile] * B_tile[k - k_tile][threadIdx.x + ox * 16];
        }
      }
    } else {
      for (int k = k_tile; k < K; ++k) {
        #pragma unroll
        for (int oy = 0; oy < 4; ++oy)
        #pragma unroll
        for (int ox = 0; ox < 2; ++ox) {
          acc_r[oy][ox] += A_tile[threadIdx.y + oy * 16][k - k_tile] * B_tile[k - k_tile][threadIdx.x + ox * 16];
        }
      }
    }
    __syncthreads();
  }
  #pragma unroll
  for (int oy = 0; oy < 4; ++oy)
  #pragma unroll
  for (int ox = 0; ox < 2; ++ox) {
    const int row = row_first + oy * 16;
    const int col = col_first + ox * 16;
    if (row < M && col < N) {
      C[row * N + col] = acc_r[oy][ox];
    }
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
  dim3 grid((((N) + 2 - 1) / 2 + block.x - 1) / block.x, (((M) + 4 - 1) / 4 + block.y - 1) / block.y);
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
