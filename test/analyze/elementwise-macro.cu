// 1D elementwise kernel; block size from a macro, grid derived from it.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>

#define BLOCK_SIZE 256

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

void run(int n, float a, const float *x, float *y) {
  saxpy<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(n, a, x, y);
}

// CHECK-DAG: kernels[0].name = "saxpy"
// CHECK-DAG: kernels[0].location = "{{.*}}elementwise-macro.cu:7:17"
// CHECK-DAG: kernels[0].sides[0] = "host"
// CHECK-DAG: kernels[0].sides[1] = "device"
// CHECK-DAG: kernels[0].params[2].type = "const float *"
// CHECK-DAG: kernels[0].params[2].access = "read"
// CHECK-DAG: kernels[0].params[3].access = "readwrite"
// CHECK-DAG: kernels[0].launches[0].location = "{{.*}}elementwise-macro.cu:14:3"
// CHECK-DAG: kernels[0].launches[0].block.form = "scalar"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].kind = "macro"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].symbol = "BLOCK_SIZE"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].value = 256
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.form = "ceil-div"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.extent = "n"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_dim = "x"
// CHECK-DAG: kernels[0].accesses[0].base = "y"
// CHECK-DAG: kernels[0].accesses[0].mode = "write"
// CHECK-DAG: kernels[0].accesses[0].indices[0].form.text = "threadIdx.x + blockDim.x*blockIdx.x"
// CHECK-DAG: kernels[0].accesses[2].mode = "read"
// CHECK-DAG: kernels[0].block_size.uses_blockDim = true
// CHECK-DAG: knobs[0].id = "saxpy.block"
