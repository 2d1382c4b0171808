// Legality repro F08: `float *b = a + 1;` points into a's buffer; the
// kernel writes through one and reads through the other: read-only refuses.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: kernels[0].launches[0].args[1].root = "a"
// CHECK-DAG: reason = "'a' and 'b' point into the same buffer 'a' (at {{.*}}:17:3); pass --assume-no-alias to allow __restrict__ anyway"
// CHECK-NOT: knobs[{{[0-9]+}}].id = "shift.read_only"
#include <cuda_runtime.h>
__global__ void shift(float *dst, float *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i] * 0.5f;
}
int main() {
  int n = 1 << 20;
  float *a;
  cudaMalloc(&a, (n + 1) * sizeof(float));
  float *b = a + 1;          // b aliases a, shifted by one element
  shift<<<(n + 255) / 256, 256>>>(a, b, n);
  cudaDeviceSynchronize();
  return 0;
}
