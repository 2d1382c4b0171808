// y = SCALE_FACTOR * x, with its parameters in include/params.h and the
// factor a compile definition of the CMake target.
#include "params.h"
#include <cstdio>
#include <cstdlib>

__global__ void scale(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = SCALE_FACTOR * x[i];
}

int main() {
  const int n = N_ELEMENTS;
  float *x, *y;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    x[i] = float(rand()) / RAND_MAX;
  scale<<<(n + BLOCK_THREADS - 1) / BLOCK_THREADS, BLOCK_THREADS>>>(x, y, n);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += y[i] != SCALE_FACTOR * x[i];
  printf("%s (%d of %d wrong)\n", bad ? "FAILED" : "PASSED", bad, n);
  return bad != 0;
}
