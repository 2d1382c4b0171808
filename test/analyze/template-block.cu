// Block size as a template parameter of both the kernel and its launcher.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>

template <int BLOCK, typename T>
__global__ void scale(T *data, T factor, int n) {
  __shared__ T tile[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = data[i];
    data[i] = tile[threadIdx.x] * factor;
  }
}

template <int B> void launchScale(float *d, float f, int n) {
  scale<B><<<(n + B - 1) / B, B>>>(d, f, n);
}

void run(float *d, int n) {
  launchScale<128>(d, 2.0f, n);
  launchScale<256>(d, 3.0f, n);
}

// CHECK-DAG: kernels[0].name = "scale"
// CHECK-DAG: kernels[0].template_params[0].name = "BLOCK"
// CHECK-DAG: kernels[0].template_params[0].kind = "non-type"
// CHECK-DAG: kernels[0].template_params[1].kind = "type"
// CHECK-DAG: kernels[0].launches[0].in_template = true
// CHECK-DAG: kernels[0].launches[0].caller = "launchScale"
// CHECK-DAG: kernels[0].launches[0].template_args[0] = "B"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].kind = "template-param"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].instantiated_values[0] = 128
// CHECK-DAG: kernels[0].launches[0].block.dims[0].instantiated_values[1] = 256
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_term = "B"
// CHECK-DAG: kernels[0].shared_arrays[0].extents[0] = "BLOCK"
// CHECK-DAG: kernels[0].block_size.couplings[0].symbol = "BLOCK"
// CHECK-DAG: kernels[0].block_size.couplings[0].kind = "template-param"
// CHECK-DAG: kernels[0].block_size.couplings[0].context = "shared-array-extent"
// CHECK-DAG: kernels[0].accesses[1].indices[0].form.coefficients.blockIdx.x = "BLOCK"
// CHECK-DAG: kernels[0].params[0].access = "readwrite"
