// Legality repro F04: the launch passes the parameters of a host wrapper,
// and main calls the wrapper with one buffer twice (in place). The alias
// check follows the wrapper's calls in the file: read-only refuses.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// CHECK-DAG: kernels[0].launches[0].args[1].caller_param = 1
// CHECK-DAG: kernels[0].launches[0].caller_calls[0][1].root = "a"
// CHECK-DAG: reason = "'dst' and 'src' point into the same buffer 'a' (at a call of 'launch'); pass --assume-no-alias to allow __restrict__ anyway"
// CHECK-NOT: knobs[{{[0-9]+}}].id = "shift_add.read_only"
#include <cuda_runtime.h>
__global__ void shift_add(float *out, float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + in[(i + 1) % n];
}
void launch(float *dst, float *src, int n) {
  shift_add<<<(n + 255) / 256, 256>>>(dst, src, n);
}
int main() {
  int n = 1 << 20;
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  launch(a, a, n);   // in-place: out and in alias
  cudaDeviceSynchronize();
  return 0;
}
