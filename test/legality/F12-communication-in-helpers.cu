// Legality repro F12: threads communicate only inside __device__ helpers
// (a shuffle reduction, a barrier). The kernel model follows calls, so the
// kernels count as communicating and coarsen/vectorize refuse.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: kernels[0].uses_warp_intrinsics = true
// CHECK-DAG: kernels[1].uses_syncthreads = true
// CHECK-DAG: refused[{{[0-9]+}}].reason = "threads exchange values with warp intrinsics"
// CHECK-DAG: refused[{{[0-9]+}}].reason = "threads of a block share data through shared memory; a block would no longer hold the same outputs"
// CHECK-NOT: knobs[{{[0-9]+}}].id = "{{warp_norm|with_barrier}}.{{coarsen|vectorize}}"
#include <cuda_runtime.h>
// threads communicate, but only inside __device__ helpers the kernel calls
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ void block_barrier() { __syncthreads(); }
__global__ void warp_norm(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] / warp_sum(in[i]);
}
__global__ void with_barrier(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    block_barrier();
    out[i] = v * 2.0f;
  }
}
int main() {
  int n = 1 << 20;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float));
  warp_norm<<<(n + 255) / 256, 256>>>(a, b, n);
  with_barrier<<<(n + 255) / 256, 256>>>(a, b, n);
  cudaDeviceSynchronize();
  return 0;
}
