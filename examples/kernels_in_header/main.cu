// main.cu: y = a * x + y on the GPU, checked on the CPU; the kernel lives in
// saxpy.cuh. Build and run: nvcc -O3 -arch=sm_90 main.cu -o saxpy && ./saxpy
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#include "saxpy.cuh"

int main() {
  const int n = 1 << 24;
  std::vector<float> x(n), y(n), ref(n);
  srand(2026);
  for (int i = 0; i < n; ++i) {
    x[i] = rand() / float(RAND_MAX);
    y[i] = rand() / float(RAND_MAX);
    ref[i] = 3.0f * x[i] + y[i];
  }
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  launch_saxpy(3.0f, dx, dy, n);
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (std::fabs(y[i] - ref[i]) > 1e-5f * (1 + std::fabs(ref[i]))) {
      std::printf("FAILED at %d: %f != %f\n", i, y[i], ref[i]);
      return 1;
    }
  std::printf("PASSED\n");
  cudaFree(dx);
  cudaFree(dy);
  return 0;
}
