// Legality repro F19: a lambda's `return` leaves the lambda, not the
// kernel. Coarsening keeps it and compiles.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"fancy.coarsen": "x2"}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: %strip-checks < %t.cu | FileCheck %s --check-prefix=APPLY
// RUN: nvcc -arch=sm_90 -c %t.cu -o %t.o
// CHECK-NOT: kernels[0].returns[0]
// CHECK: knobs[{{[0-9]+}}].id = "fancy.coarsen"
// APPLY: for (int i_step = 0; i_step < 2; ++i_step) {
// APPLY: auto f = [&](int m) { return w[i] * m; };
#include <cuda_runtime.h>
__global__ void fancy(float *v, const float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    auto f = [&](int m) { return w[i] * m; };
    v[i] = f(8);
  }
}
int main() {
  int n = 1 << 20;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float));
  fancy<<<(n + 255) / 256, 256>>>(a, b, n);
  cudaDeviceSynchronize();
  return 0;
}
