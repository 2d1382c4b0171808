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

__global__ void reduce_sum(const float *in, float *out, int n) {
  __shared__ float partial[THREADS];
  int tid = threadIdx.x;
  int i = blockIdx.x * THREADS + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(out, partial[0]);
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
  int blocks = (n + THREADS - 1) / THREADS;
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
