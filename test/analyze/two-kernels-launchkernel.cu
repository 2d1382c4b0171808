// Two kernels; the second is launched through cudaLaunchKernel.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>

__global__ void init(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = 1.0f;
}

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

void run(float a, float *x, float *y, int n, cudaStream_t stream) {
  init<<<(n + 127) / 128, 128, 0, stream>>>(x, n);
  void *args[] = {&a, &x, &y, &n};
  cudaLaunchKernel((const void *)axpy, dim3((n + 255) / 256), dim3(256), args,
                   0, stream);
}

// CHECK-DAG: kernels[0].name = "init"
// CHECK-DAG: kernels[0].launches[0].syntax = "triple-chevron"
// CHECK-DAG: kernels[0].launches[0].stream = "stream"
// CHECK-DAG: kernels[0].launches[0].shared_mem.kind = "literal"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_term = "128"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_dim = "x"
// CHECK-DAG: kernels[1].name = "axpy"
// CHECK-DAG: kernels[1].launches[0].syntax = "cudaLaunchKernel"
// CHECK-DAG: kernels[1].launches[0].location = "{{.*}}two-kernels-launchkernel.cu:20:3"
// CHECK-DAG: kernels[1].launches[0].block.form = "dim3"
// CHECK-DAG: kernels[1].launches[0].block.dims[0].value = 256
// CHECK-DAG: kernels[1].launches[0].grid.dims[0].derived.form = "ceil-div"
// CHECK-DAG: kernels[1].launches[0].stream = "stream"
// CHECK-DAG: kernels[1].params[1].access = "read"
// CHECK-DAG: kernels[1].params[2].access = "readwrite"
