// A kernel template's pointer parameters: the pointee in the pattern is the
// template parameter; the instantiations the program launches give the
// element type its outputs are compared as (docs/analyze-json.md).
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=FIXED
#include <cuda_runtime.h>

template <typename scalar_t>
__global__ void row_sum(const scalar_t *__restrict__ in, scalar_t *out,
                        int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  scalar_t s = 0;
  for (int c = 0; c < cols; ++c)
    s += in[(size_t)r * cols + c];
  out[r] = s;
}

// Instantiated twice, for two element types.
template <class T> __global__ void axpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

// A pointer to a fixed type next to a dependent one.
template <typename T> __global__ void count(const T *v, int *hits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && v[i] > T(0))
    atomicAdd(hits, 1);
}

template <typename T> void launchRowSum(const T *in, T *out, int r, int c) {
  row_sum<<<(r + 127) / 128, 128>>>(in, out, r, c);
}

void run(const float *in, float *out, double *dy, const double *dx, int n,
         int *hits) {
  launchRowSum(in, out, n, n);
  axpy<float><<<(n + 255) / 256, 256>>>(2.0f, in, out, n);
  axpy<double><<<(n + 255) / 256, 256>>>(2.0, dx, dy, n);
  count<<<(n + 255) / 256, 256>>>(dx, hits, n);
}

// CHECK-DAG: kernels[0].name = "row_sum"
// CHECK-DAG: kernels[0].params[0].pointee_type = "const scalar_t"
// CHECK-DAG: kernels[0].params[0].instantiated_pointee_types[0] = "float"
// CHECK-DAG: kernels[0].params[1].instantiated_pointee_types[0] = "float"
// CHECK-DAG: kernels[1].name = "axpy"
// CHECK-DAG: kernels[1].params[1].instantiated_pointee_types[0] = "float"
// CHECK-DAG: kernels[1].params[1].instantiated_pointee_types[1] = "double"
// CHECK-DAG: kernels[1].params[2].instantiated_pointee_types[1] = "double"
// CHECK-DAG: kernels[2].name = "count"
// CHECK-DAG: kernels[2].params[0].instantiated_pointee_types[0] = "double"
// CHECK-DAG: kernels[2].params[1].canonical_pointee_type = "int"
// A pointer to a type no template parameter changes has none.
// FIXED-NOT: kernels[2].params[1].instantiated_pointee_types
