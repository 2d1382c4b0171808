// Legality repro F14: __launch_bounds__(1024) on a kernel launched with
// 256 threads. The empty configuration reproduces the file byte for byte;
// a block above the bound rewrites it.
// RUN: echo '{}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: diff %s %t.cu
#include <cuda_runtime.h>
__global__ void __launch_bounds__(1024) lb_big(float *v, const float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = w[i] + 1.0f;
}
int main() {
  int n = 1 << 20;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float));
  lb_big<<<(n + 255) / 256, 256>>>(a, b, n);
  cudaDeviceSynchronize();
  return 0;
}
