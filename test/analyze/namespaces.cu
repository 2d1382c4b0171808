// Kernels in (nested) namespaces, launched through qualified names.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>

namespace physics {
namespace kernels {
__global__ void damp(float *v, float k, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v[i] *= k;
}
} // namespace kernels
} // namespace physics

namespace {
__global__ void clear(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = 0.0f;
}
} // namespace

void run(float *v, int n) {
  physics::kernels::damp<<<1024, 256>>>(v, 0.99f, n);
  clear<<<(n + 63) / 64, 64>>>(v, n);
}

// CHECK-DAG: kernels[0].name = "physics::kernels::damp"
// CHECK-DAG: kernels[0].launches[0].kernel = "physics::kernels::damp"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].kind = "literal"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].value = 1024
// CHECK-DAG: kernels[0].loops[0].step_kind = "grid-stride"
// CHECK-DAG: kernels[0].loops[0].induction_var = "i"
// CHECK-DAG: kernels[0].accesses[0].mode = "readwrite"
// CHECK-DAG: kernels[0].accesses[0].indices[0].form.text = "i"
// CHECK-DAG: kernels[1].name = "(anonymous namespace)::clear"
// CHECK-DAG: kernels[1].launches[0].block.dims[0].value = 64
