// Legality repro F03: overloaded kernels. Each overload gets knobs of its
// own, named by its parameter types, with its own domain (vectorize 4 for
// float, 2 for double); a knob changes only the launches of its overload,
// and the block-size copies of a shared macro are distinct identifiers.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: kernels[0].id = "stage2(const float*,float*,int)"
// CHECK-DAG: kernels[1].id = "stage2(const double*,double*,int)"
// CHECK-DAG: kernels[2].id = "scale(float*,float,int)"
// CHECK-DAG: kernels[3].id = "scale(double*,double,int)"
// CHECK-DAG: kernels[4].id = "unique"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "unique.block"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "scale(float*,float,int).vectorize"
// CHECK-DAG: knobs[{{[0-9]+}}].values[2] = 4
//
// One overload vectorized by 4, the other's block changed: each at its own
// launch only.
// RUN: echo '{"scale(float*,float,int).vectorize": 4, "scale(double*,double,int).block": 64}' > %t1.json
// RUN: %cro %s --apply %t1.json -o %t1.cu
// RUN: %strip-checks < %t1.cu | FileCheck %s --check-prefix=SCALE
// SCALE: scale<<<(((n) + 4 - 1) / 4 + 255) / 256, 256>>>(f, 2.0f, n);
// SCALE: scale<<<(n + 63) / 64, 64>>>(d, 2.0, n);
// SCALE: stage2<<<(n + THREADS - 1) / THREADS, THREADS>>>(f, fo, n);
// RUN: nvcc -arch=sm_90 -c %t1.cu -o %t1.o
//
// The block macro both overloads use gets one copy per overload.
// RUN: echo '{"stage2(const float*,float*,int).block": 128, "stage2(const double*,double*,int).block": 512}' > %t2.json
// RUN: %cro %s --apply %t2.json -o %t2.cu
// RUN: %strip-checks < %t2.cu | FileCheck %s --check-prefix=STAGE
// STAGE: #define stage2_const_floatp_floatp_int_THREADS 128
// STAGE: #define stage2_const_doublep_doublep_int_THREADS 512
// STAGE: __shared__ float s[stage2_const_floatp_floatp_int_THREADS];
// STAGE: __shared__ double s[stage2_const_doublep_doublep_int_THREADS];
// STAGE: stage2<<<(n + stage2_const_floatp_floatp_int_THREADS - 1) / stage2_const_floatp_floatp_int_THREADS, stage2_const_floatp_floatp_int_THREADS>>>(f, fo, n);
// STAGE: stage2<<<(n + stage2_const_doublep_doublep_int_THREADS - 1) / stage2_const_doublep_doublep_int_THREADS, stage2_const_doublep_doublep_int_THREADS>>>(d, dd, n);
// RUN: nvcc -arch=sm_90 -c %t2.cu -o %t2.o
//
// The plain name is not a knob of an overloaded kernel; the error says
// which ids are.
// RUN: echo '{"scale.block": 64}' > %t3.json
// RUN: %expect-exit 10 %cro %s --apply %t3.json 2>&1 | %strip-checks | FileCheck %s --check-prefix=PLAIN
// PLAIN: unknown knob 'scale.block' {{.*}}'scale' is overloaded in this file, so its knobs name the overload: scale(double*,double,int).block scale(float*,float,int).block
//
// --kernel selects one overload by its id.
// RUN: %cro %s --kernel 'scale(double*,double,int)' --analyze | %flatten | FileCheck %s --check-prefix=ONE
// ONE: kernels[0].id = "scale(double*,double,int)"
// ONE-NOT: kernels[1]
#include <cuda_runtime.h>
#include <cstdio>
#define THREADS 256
__global__ void stage2(const float *in, float *out, int n) {
  __shared__ float s[THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = 2 * s[threadIdx.x];
}
__global__ void stage2(const double *in, double *out, int n) {
  __shared__ double s[THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0;
  __syncthreads();
  if (i < n) out[i] = 2 * s[threadIdx.x];
}
__global__ void scale(float *v, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= a;
}
__global__ void scale(double *v, double a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= a;
}
__global__ void unique(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.0f;
}
int main() {
  const int n = 1 << 20;
  float *f, *fo; double *d, *dd;
  cudaMalloc(&f, n * sizeof(float)); cudaMalloc(&d, n * sizeof(double));
  cudaMalloc(&fo, n * sizeof(float)); cudaMalloc(&dd, n * sizeof(double));
  scale<<<(n + 255) / 256, 256>>>(f, 2.0f, n);
  scale<<<(n + 127) / 128, 128>>>(d, 2.0, n);
  stage2<<<(n + THREADS - 1) / THREADS, THREADS>>>(f, fo, n);
  stage2<<<(n + THREADS - 1) / THREADS, THREADS>>>(d, dd, n);
  unique<<<(n + 255) / 256, 256>>>(f, n);
  cudaDeviceSynchronize();
  return 0;
}
