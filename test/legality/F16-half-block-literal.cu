// Legality repro F16: a tree reduction for 256 threads starts at the
// literal stride 128 (half the block). block-size refuses: the body
// hard-codes the block size.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: reason = "the body hard-codes the block size: the literal 128 (loop-init) has no link to the launch"
// CHECK-NOT: knobs[{{[0-9]+}}].id = "red.block"
#include <cuda_runtime.h>
// block-level tree reduction written for 256 threads: the first stride is the literal 128 (= B/2)
__global__ void red(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int st = 128; st > 0; st >>= 1) {
    if (t < st) s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, s[0]);
}
int main() {
  int n = 1 << 20;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float)); cudaMalloc(&out, sizeof(float));
  red<<<(n + 255) / 256, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
