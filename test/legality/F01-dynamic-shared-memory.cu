// Legality repro F01: a launch passes dynamic shared memory sized for its
// block (256 * sizeof(float)) to a kernel that indexes it by thread.
// block-size refuses that kernel; the other keeps its knob.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: reason = "the launch at {{.*}}:32:3 passes '256 * sizeof(float)' bytes of dynamic shared memory, sized for its block; another block size would need another amount"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "axpy.block"
// CHECK-NOT: knobs[{{[0-9]+}}].id = "dyn_reverse.block"
#include <cuda_runtime.h>
__global__ void dyn_reverse(float *d, int n) {
  extern __shared__ float s[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[t] = d[i];
  __syncthreads();
  int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - t);
  if (i < n && j < n) d[i] = s[blockDim.x - 1 - t];
}
__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
int main() {
  const int n = 1 << 20;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float)); cudaMalloc(&y, n * sizeof(float));
  cudaStream_t st;
  cudaStreamCreate(&st);
  cudaGraph_t g; cudaGraphExec_t ge;
  cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal);
  for (int r = 0; r < 4; ++r)
    axpy<<<(n + 511) / 512, 512, 0, st>>>(2.0f, x, y, n);
  dyn_reverse<<<(n + 255) / 256, 256, 256 * sizeof(float), st>>>(y, n);
  cudaStreamEndCapture(st, &g);
  cudaGraphInstantiate(&ge, g, 0);
  cudaGraphLaunch(ge, st);
  cudaStreamSynchronize(st);
  return 0;
}
