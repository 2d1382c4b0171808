// saxpy: y = a*x + y over 64 Mi floats. First-version style: macro block size.
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

#define BLOCK_SIZE 256

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 26;
  const float a = 1.75f;
  std::vector<float> x(n), y(n), ref(n);
  // Inputs from a linear congruential generator: 128 Mi calls of rand() took
  // 3 s, nearly all of this program's run, and the tuner runs it per variant.
  unsigned state = 7;
  auto uniform = [&state] { // in [-0.5, 0.5)
    state = state * 1664525u + 1013904223u;
    return (state >> 8) * (1.0f / 16777216.0f) - 0.5f;
  };
  for (int i = 0; i < n; ++i) {
    x[i] = uniform();
    y[i] = uniform();
    ref[i] = a * x[i] + y[i];
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  saxpy<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(n, a, dx, dy);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (!(std::fabs(y[i] - ref[i]) <= 1e-6f * (1.0f + std::fabs(ref[i]))))
      ++bad;
  std::printf("%s saxpy (%d of %d wrong)\n", bad ? "FAILED" : "PASSED", bad, n);
  cudaFree(dx);
  cudaFree(dy);
  return bad ? 1 : 0;
}
