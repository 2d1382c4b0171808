// Host code built with -Xcompiler -fopenmp: <omp.h> comes from the host
// compiler's own include directory (as it does for nvcc's gcc), the pragmas
// are left to nvcc, and `#ifdef _OPENMP` code is what the build compiles.
// RUN: %cro %s --analyze -- -Xcompiler -fopenmp | %flatten | FileCheck %s
// Without the flag, omp.h is still found (gcc searches its directory for
// every file) and the other branch of the #ifdef is taken.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <omp.h>
#include <cstdio>

__global__ void scale(float *a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= s;
}

int main() {
  const int n = 100000;
  static float h[n];
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    h[i] = 0.5f * i;
#ifdef _OPENMP
  double t0 = omp_get_wtime();
  int threads = omp_get_max_threads();
#else
  double t0 = 0;
  int threads = 1;
#endif
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<(n + 127) / 128, 128>>>(d, 2.0f, n);
  cudaDeviceSynchronize();
  printf("%d threads, %f\n", threads, t0);
  return 0;
}

// CHECK-DAG: kernels[0].name = "scale"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].value = 128
