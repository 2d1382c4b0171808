// 2D 5-point stencil: neighbours differ from the centre only by constants.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>

constexpr int TX = 32;
constexpr int TY = 8;

__global__ void stencil5(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1)
    return;
  out[y * nx + x] = 0.2f * (in[y * nx + x] + in[y * nx + x - 1] +
                            in[y * nx + x + 1] + in[(y - 1) * nx + x] +
                            in[(y + 1) * nx + x]);
}

void step(const float *in, float *out, int nx, int ny) {
  dim3 threads(TX, TY);
  dim3 blocks((nx + TX - 1) / TX, (ny + TY - 1) / TY);
  stencil5<<<blocks, threads>>>(in, out, nx, ny);
}

// CHECK-DAG: kernels[0].name = "stencil5"
// CHECK-DAG: kernels[0].launches[0].block.variable = "threads"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].kind = "constant"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].symbol = "TX"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].value = 32
// CHECK-DAG: kernels[0].launches[0].block.dims[1].symbol = "TY"
// CHECK-DAG: kernels[0].launches[0].block.dims[1].value = 8
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_dim = "x"
// CHECK-DAG: kernels[0].launches[0].grid.dims[1].derived.block_dim = "y"
// The five reads of `in` differ only in their constant part: the halo.
// CHECK-DAG: kernels[0].accesses[1].base = "in"
// CHECK-DAG: kernels[0].accesses[1].indices[0].form.constant = "0"
// CHECK-DAG: kernels[0].accesses[2].indices[0].form.constant = "-1"
// CHECK-DAG: kernels[0].accesses[3].indices[0].form.constant = "1"
// CHECK-DAG: kernels[0].accesses[4].indices[0].form.constant = "-nx"
// CHECK-DAG: kernels[0].accesses[5].indices[0].form.constant = "nx"
// CHECK-DAG: kernels[0].accesses[5].indices[0].form.coefficients.threadIdx.y = "nx"
// CHECK-DAG: kernels[0].params[0].access = "read"
// CHECK-DAG: kernels[0].params[1].access = "write"
