// Legality repro F11: the grid variable also sizes a buffer and is
// printed. block-size gives the launch a grid of its own; coarsen divides
// the launch's argument; the variable stays.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"fill.block": 1024}' > %t1.json
// RUN: %cro %s --apply %t1.json | %strip-checks | FileCheck %s --check-prefix=BLOCK
// RUN: echo '{"fill.coarsen": "x4"}' > %t2.json
// RUN: %cro %s --apply %t2.json | %strip-checks | FileCheck %s --check-prefix=COARSEN
// CHECK: kernels[0].launches[0].grid.dims[0].read_elsewhere = "{{.*}}:24:28"
// BLOCK: int blocks = (n + 255) / 256;
// BLOCK: fill<<<dim3((n + 1023) / 1024), dim3(1024)>>>(out, n);
// COARSEN: int blocks = (n + 255) / 256;
// COARSEN: fill<<<((blocks) + 4 - 1) / 4, 256>>>(out, n);
#include <cuda_runtime.h>
#include <cstdio>
__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}
int main() {
  int n = 1000000;
  int blocks = (n + 255) / 256;
  float *out;
  cudaMalloc(&out, (size_t)blocks * 256 * sizeof(float));   // padded to whole blocks
  fill<<<blocks, 256>>>(out, n);
  printf("launched %d blocks\n", blocks);
  cudaDeviceSynchronize();
  return 0;
}
