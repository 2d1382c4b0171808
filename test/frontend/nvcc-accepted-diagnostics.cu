// Code nvcc compiles although C++17 Clang calls it an error by default:
// `register` (gone from C++17; old CUDA code is full of it, nvcc says
// nothing) and narrowing a non-constant inside braces (nvcc warns). The file
// parses, and its kernel gets its knobs.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: parsed = true
// CHECK-DAG: kernels[0].name = "saxpy_old_style"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "saxpy_old_style.block"
#include <cstdio>

struct Stats {
  int elements;
  int megabytes;
};

__global__ void saxpy_old_style(float a, const float *x, float *y, int n) {
  register int i = blockIdx.x * blockDim.x + threadIdx.x;
  register float xi;
  if (i < n) {
    xi = x[i];
    y[i] = a * xi + y[i];
  }
}

int main() {
  int n = 1 << 20;
  double bytes = 3.0 * n * sizeof(float);
  Stats s = {n, bytes / (1 << 20)}; // double -> int narrowing
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  saxpy_old_style<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaDeviceSynchronize();
  printf("%d elements, %d MB\n", s.elements, s.megabytes);
  return 0;
}
