// Whether a grid can be evaluated again at its launch: a variable it reads
// that is modified before the grid is computed (options parsed first) does
// not stop it; one modified after, or whose address escapes, does.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void first(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 1.0f;
}
__global__ void second(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 2.0f;
}
__global__ void third(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 3.0f;
}

void set_later(int *p) { *p = 64; }

void run(float *v, int argc, char **argv) {
  int n = 1 << 20, threads = 256;
  if (argc > 1) n = atoi(argv[1]);
  if (argc > 2) threads = atoi(argv[2]);
  int blocks = (n + threads - 1) / threads;
  first<<<blocks, threads>>>(v, n);

  int m = n;
  int grid2 = (m + 127) / 128;
  m = m / 2;
  second<<<grid2, 128>>>(v, m);

  int k = n;
  int grid3 = (k + 127) / 128;
  set_later(&k);
  third<<<grid3, 128>>>(v, k);
}

// CHECK-DAG: kernels[0].launches[0].grid.dims[0].stable_at_launch = true
// CHECK-DAG: kernels[1].launches[0].grid.dims[0].stable_at_launch = false
// CHECK-DAG: kernels[2].launches[0].grid.dims[0].stable_at_launch = false
// CHECK-DAG: knobs[{{[0-9]+}}].id = "first.block"
