// read-only: `const T *__restrict__` on the pointers a kernel only reads,
// prototypes included; refused where arguments may alias, unless
// --assume-no-alias.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"axpy.read_only": true}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %cro %s --analyze --assume-no-alias | %flatten | FileCheck %s --check-prefix=ASSUME
#include <cuda_runtime.h>

__global__ void axpy(float a, float *x, const float *y, float *out, int n);

__global__ void inplace(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i];
}

void run(float a, float *x, float *y, float *out, int n) {
  axpy<<<(n + 255) / 256, 256>>>(a, x, y, out, n);
  inplace<<<(n + 255) / 256, 256>>>(y, y, n);
}

__global__ void axpy(float a, float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

// What run's pointers point to: three distinct buffers.
void caller(int n) {
  float *x, *y, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  run(2.0f, x, y, out, n);
}




// KNOBS-DAG: "axpy.read_only"
// KNOBS-DAG: reason = "'y' is passed twice at {{.*}}read-only.cu:20:3; pass --assume-no-alias to allow __restrict__ anyway"
// ASSUME-DAG: "inplace.read_only"

// CHECK:      -__global__ void axpy(float a, float *x, const float *y, float *out, int n);
// CHECK-NEXT: +__global__ void axpy(float a, const float *__restrict__ x, const float *__restrict__ y, float *out, int n);
// CHECK:      -__global__ void axpy(float a, float *x, const float *y, float *out, int n) {
// CHECK-NEXT: +__global__ void axpy(float a, const float *__restrict__ x, const float *__restrict__ y, float *out, int n) {
