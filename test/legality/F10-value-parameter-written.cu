// Legality repro F10: the work writes by-value parameters (`s = s * 2.0f;`,
// `base += i;`): each output would see the previous output's value.
// coarsen and vectorize refuse; a return inside a switch is named as such.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: kernels[0].thread_mapping.outside_writes[0] = "'s' (a parameter) at {{.*}}"
// CHECK-DAG: kernels[1].thread_mapping.outside_writes[0] = "'base' (a parameter) at {{.*}}"
// CHECK-DAG: refused[{{[0-9]+}}].reason = "the work changes 's' (a parameter) {{.*}}"
// CHECK-DAG: refused[{{[0-9]+}}].reason = "the work changes 'base' (a parameter) {{.*}}"
// CHECK-DAG: refused[{{[0-9]+}}].reason = "the kernel returns from inside a loop or switch at {{.*}}"
// CHECK-NOT: knobs[{{[0-9]+}}].id = "{{scale_param|count_param}}.{{coarsen|vectorize}}"
#include <cuda_runtime.h>
__global__ void scale_param(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s = s * 2.0f;
    v[i] *= s;
  }
}
__global__ void count_param(float *v, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    base += i;
    v[i] = (float)base;
  }
}
__global__ void switch_ret(float *v, const int *sel, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (sel[i]) {
    case 0: v[i] = 0.0f; return;
    case 1: v[i] = 1.0f; break;
    default: v[i] = -1.0f;
  }
  v[i] += 0.5f;
}
int main() {
  int n = 1 << 20;
  float *a; int *s;
  cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&s, n * sizeof(int));
  scale_param<<<(n + 255) / 256, 256>>>(a, 3.0f, n);
  count_param<<<(n + 255) / 256, 256>>>(a, n, 7);
  switch_ret<<<(n + 255) / 256, 256>>>(a, s, n);
  cudaDeviceSynchronize();
  return 0;
}
