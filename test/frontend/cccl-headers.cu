// CUDA 13 keeps libcu++, Thrust and CUB under the toolkit's include/cccl,
// which nvcc adds by itself (bin/nvcc.profile): a file using them parses
// without any flag, and its hand-written kernel gets its knobs. A
// static_assert before the thread index runs no code: the index is found.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cuda/std/type_traits>
#include <cuda/std/limits>
#include <cuda/std/cmath>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <cub/block/block_reduce.cuh>
#include <cstdio>

template <typename T>
__global__ void clamp_scale(T *x, T a, int n) {
  static_assert(cuda::std::is_floating_point<T>::value, "floating point");
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * a < cuda::std::numeric_limits<T>::max() ? x[i] * a : T(0);
}

template <int BLOCK>
__global__ void block_sums(const float *in, float *out, int n) {
  using Reduce = cub::BlockReduce<float, BLOCK>;
  __shared__ typename Reduce::TempStorage tmp;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  float s = Reduce(tmp).Sum(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

// A qualified call a template leaves unresolved: every candidate of
// cuda::std::fmin takes its arguments by value, so 'hi' is only read and a
// thread may compute several outputs (coarsen). An unqualified call may find
// more candidates at instantiation (ADL), one of which may take 'lo' by
// reference: 'lo' counts as changed.
template <typename T> __device__ void widen(T &v) { v -= T(1); }

template <typename T>
__global__ void clamp_hi(T *x, T hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = cuda::std::fmin(x[i], hi);
}

template <typename T>
__global__ void clamp_lo(T *x, T lo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    widen(lo);
    x[i] = x[i] < lo ? lo : x[i];
  }
}

int main() {
  int n = 1 << 20;
  thrust::device_vector<float> v(n, 1.0f), sums((n + 255) / 256);
  clamp_scale<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(v.data()),
                                        2.0f, n);
  block_sums<256><<<(n + 255) / 256, 256>>>(
      thrust::raw_pointer_cast(v.data()), thrust::raw_pointer_cast(sums.data()),
      n);
  clamp_hi<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(v.data()), 4.0f,
                                     n);
  clamp_lo<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(v.data()), 1.0f,
                                     n);
  float s = thrust::reduce(sums.begin(), sums.end());
  printf("%f\n", s);
  return 0;
}

// CHECK-DAG: kernels[0].name = "clamp_scale"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].value = 256
// CHECK-DAG: kernels[0].thread_mapping.index_vars[0].name = "i"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "clamp_scale.coarsen"
// CHECK-DAG: kernels[1].name = "block_sums"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "clamp_scale.block"
// CHECK-DAG: kernels[2].name = "clamp_hi"
// CHECK-DAG: kernels[2].thread_mapping.outside_writes = []
// CHECK-DAG: knobs[{{[0-9]+}}].id = "clamp_hi.coarsen"
// CHECK-DAG: kernels[3].name = "clamp_lo"
// CHECK-DAG: kernels[3].thread_mapping.outside_writes[0] = "'lo' (a parameter) at {{.*}}"
