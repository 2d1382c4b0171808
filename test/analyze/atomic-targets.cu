// Where an atomic update lands, as the model reports it: the pointer
// parameter behind the address however it is spelled (a macro, a local
// alias, pointer arithmetic), and whether the address is one for the whole
// launch -- what makes a float atomicAdd output a sum of one term per
// thread, compared at a tolerance that grows with the launch
// (docs/measure.md).
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda_runtime.h>

#define ACCUMULATE(dst, v) atomicAdd((dst), (v))
typedef float real;

// Every thread adds into result[0], through a macro, written `result`.
// CHECK-DAG: kernels[0].atomics[0].launch_uniform_target_why = null
// CHECK-DAG: kernels[0].atomics[0].target_param = "result"
// CHECK-DAG: kernels[0].atomics[0].uniform_target_why = null
// CHECK-DAG: kernels[0].atomics[0].value_type = "float"
__global__ void dot_macro(const real *a, const real *b, real *result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  ACCUMULATE(result, a[i] * b[i]);
}

// One sum per block: the same for a warp, not for the launch.
// CHECK-DAG: kernels[1].atomics[0].launch_uniform_target_why = "it depends on blockIdx.x"
// CHECK-DAG: kernels[1].atomics[0].target_param = "partial"
// CHECK-DAG: kernels[1].atomics[0].uniform_target_why = null
__global__ void block_sums(const float *x, float *partial, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&partial[blockIdx.x], x[i]);
}

// Through a local alias and pointer arithmetic: `sums + 1` in every thread.
// CHECK-DAG: kernels[2].atomics[0].launch_uniform_target_why = null
// CHECK-DAG: kernels[2].atomics[0].target_param = "sums"
// CHECK-DAG: kernels[2].atomics[0].value_type = "double"
__global__ void second_moment(const double *x, double *sums, int n) {
  double *slot = sums + 1;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(slot, x[i] * x[i]);
}

// A scatter: each thread's own element.
// CHECK-DAG: kernels[3].atomics[0].launch_uniform_target_why = "it reads memory ('keys[i]')"
// CHECK-DAG: kernels[3].atomics[0].target_param = "out"
__global__ void scatter_add(const int *keys, const float *v, float *out,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out + keys[i], v[i]);
}

// A block's tree, then one thread adds the block's sum: one term per
// block along x.
// CHECK-DAG: kernels[4].atomics[0].fixed_thread_dims[0] = "x"
// CHECK-DAG: kernels[4].atomics[0].launch_uniform_target_why = null
// CHECK-DAG: kernels[4].atomics[0].target_param = "total"
// CHECK-DAG: kernels[0].atomics[0].fixed_thread_dims = []
__global__ void tree_sum(const float *v, float *total, int n) {
  __shared__ float buf[256];
  const unsigned lane_in_block = threadIdx.x;
  int i = blockIdx.x * 256 + threadIdx.x;
  buf[lane_in_block] = i < n ? v[i] : 0.f;
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (lane_in_block < s)
      buf[lane_in_block] += buf[lane_in_block + s];
    __syncthreads();
  }
  if (0 == lane_in_block && n > 0)
    atomicAdd(total, buf[0]);
}

int main() {
  float *f = nullptr;
  double *d = nullptr;
  int *k = nullptr;
  dot_macro<<<4, 256>>>(f, f, f, 1024);
  block_sums<<<4, 256>>>(f, f, 1024);
  second_moment<<<4, 256>>>(d, d, 1024);
  scatter_add<<<4, 256>>>(k, f, f, 1024);
  tree_sum<<<4, 256>>>(f, f, 1024);
  return 0;
}
