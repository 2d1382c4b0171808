// Legality repro F09: the work moves a pointer parameter (`out += i;`). A
// coarsened thread running the work once per output would add every
// output's offset to the same pointer; coarsen and vectorize refuse.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: kernels[0].thread_mapping.outside_writes[0] = "'out' (a parameter) at {{.*}}:11:7"
// CHECK-DAG: refused[{{[0-9]+}}].reason = "the work changes 'out' (a parameter) at {{.*}}:11:7, declared outside it: a thread computing several outputs would start each from the value the previous one left"
#include <cuda_runtime.h>
__global__ void offs(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out += i;
  *out = in[i] * 2.0f;
}
int main() {
  int n = 1 << 20;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float));
  offs<<<(n + 255) / 256, 256>>>(a, b, n);
  cudaDeviceSynchronize();
  return 0;
}
