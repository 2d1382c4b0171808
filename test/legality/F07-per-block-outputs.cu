// Legality repro F07: kernels that write one element per block into
// buffers the host sized for the original grid. With grids that follow
// the block size, block-size refuses them; a partial sum the block's
// threads combine is refused before that, for its value changes too.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: reason = "the kernel writes 'partial[blockIdx.x]' at {{.*}} once per block, from values the block's threads combined out of elements the block's size decides: another block size combines other elements into it"
// CHECK-DAG: reason = "the kernel writes 'firsts[blockIdx.x]' at {{.*}}, one element per block along x: {{.*}}"
// CHECK-NOT: knobs[{{[0-9]+}}].id = "{{partial_sum|per_block_first}}.block"
#include <cuda_runtime.h>
#define BS 256
// one partial sum per block: the host sizes the buffer by the same block size
__global__ void partial_sum(const float *in, float *partial, int n) {
  __shared__ float s[BS];
  int i = blockIdx.x * BS + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int st = BS / 2; st > 0; st >>= 1) {
    if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}
__global__ void per_block_first(const float *in, float *firsts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && threadIdx.x == 0) firsts[blockIdx.x] = in[i];
}
int main() {
  int n = 1 << 20;
  float *in, *partial, *firsts;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, ((n + BS - 1) / BS) * sizeof(float));
  cudaMalloc(&firsts, ((n + 255) / 256) * sizeof(float));
  partial_sum<<<(n + BS - 1) / BS, BS>>>(in, partial, n);
  per_block_first<<<(n + 255) / 256, 256>>>(in, firsts, n);
  cudaDeviceSynchronize();
  return 0;
}
