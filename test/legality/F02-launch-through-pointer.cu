// Legality repro F02: the kernel's address is taken (`fp = blocksum`) and
// it is launched through the pointer too, which the model cannot follow:
// every transform that changes its launches refuses.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: kernels[0].address_taken[0] = "{{.*}}:25:45"
// CHECK-DAG: reason = "the program takes the kernel's address at {{.*}}:25:45, and a launch through that pointer would keep the original configuration"
// CHECK-NOT: knobs[{{[0-9]+}}].id = "blocksum.{{block|launch_bounds|coarsen}}"
#include <cuda_runtime.h>
#define BS 256
__global__ void blocksum(const float *in, float *out, int n) {
  __shared__ float s[BS];
  int i = blockIdx.x * BS + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int st = BS / 2; st > 0; st >>= 1) {
    if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
int main() {
  int n = 1 << 20;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float));
  void (*fp)(const float *, float *, int) = blocksum;
  blocksum<<<(n + BS - 1) / BS, BS>>>(a, b, n);
  fp<<<(n + BS - 1) / BS, BS>>>(a, b, n);
  cudaDeviceSynchronize();
  return 0;
}
