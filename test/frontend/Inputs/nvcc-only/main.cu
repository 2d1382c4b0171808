// A program its authors build with nvcc only, and say so: Clang stops at the
// #error, nvcc compiles it.
#if defined(__clang__)
#error "this project is built with nvcc"
#endif
#include "scale_kernels.cuh"
#include <cstdio>

int main() {
  const int rows = 64, cols = 1000;
  float *m, *s;
  cudaMalloc(&m, rows * cols * sizeof(float));
  cudaMalloc(&s, rows * sizeof(float));
  scale_rows<<<dim3(1, rows), 128>>>(m, s, rows, cols);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
