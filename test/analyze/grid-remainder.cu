// Grids written as "one more block when the block does not divide n" are
// ceil(n / B), whatever the spelling (Rodinia, Parboil); a bare n % B or a
// wrong indicator is not.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: %cro %s --analyze | %flatten | not grep -E 'launches.[45].grid.dims.0..derived'
#include <cuda_runtime.h>
#define BS 128

__global__ void k(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.0f;
}

void run(float *v, int n) {
  int a = n / BS + ((n % BS == 0) ? 0 : 1);
  k<<<a, BS>>>(v, n);
  k<<<n / BS + (n % BS != 0), BS>>>(v, n);
  k<<<n / BS + (n % BS ? 1 : 0), BS>>>(v, n);
  k<<<n / BS + (n % BS > 0 ? 1 : 0), BS>>>(v, n);
  k<<<n / BS + n % BS, BS>>>(v, n);
  k<<<n / BS + ((n % BS == 0) ? 1 : 0), BS>>>(v, n);
}

// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.form = "ceil-div"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.extent = "n"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_dim = "x"
// CHECK-DAG: kernels[0].launches[1].grid.dims[0].derived.form = "ceil-div"
// CHECK-DAG: kernels[0].launches[2].grid.dims[0].derived.form = "ceil-div"
// CHECK-DAG: kernels[0].launches[3].grid.dims[0].derived.form = "ceil-div"
// CHECK-DAG: kernels[0].launches[4].grid.dims[0].text = "n / BS + n % BS"
// CHECK-DAG: kernels[0].launches[5].grid.dims[0].text = "n / BS + ((n % BS == 0) ? 1 : 0)"
