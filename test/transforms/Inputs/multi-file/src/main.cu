// Input of test/transforms/multi-file.test: kernels in files the input
// includes, in the layouts a rewrite of several files must handle.
#include <cstdio>
#include "kernels/config.cuh"
#include "kernels/saxpy.cuh"
#include "kernels/both.cuh"
#define SCALE_FILE "kernels/scale.cuh"
#include SCALE_FILE
#include "../common/offset.cuh"

int main() {
  const int n = 1 << 20;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  saxpy<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(2.0f, x, y, n);
  twice(y, n);
  scale<<<(n + 255) / 256, 256>>>(y, 3.0f, n);
  offset<<<(n + 255) / 256, 256>>>(y, 1.0f, n);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
