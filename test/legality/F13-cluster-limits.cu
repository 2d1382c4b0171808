// Legality repro F13: a __launch_bounds__ with a cluster limit keeps it
// through every rewrite; a clustered kernel's grid must stay a multiple of
// its cluster, so block-size and coarsen refuse it.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"lb_three.launch_bounds": 4}' > %t.json
// RUN: %cro %s --apply %t.json | %strip-checks | FileCheck %s --check-prefix=APPLY
// CHECK-DAG: launch_bounds.max_blocks_per_cluster.text = "4"
// CHECK-DAG: reason = "the kernel runs in thread-block clusters ('__cluster_dims__(2, 1, 1)'), and another grid need not be a multiple of the cluster"
// CHECK-NOT: knobs[{{[0-9]+}}].id = "clustered.{{block|coarsen}}"
// APPLY: __launch_bounds__(256, 4, 4)
#include <cuda_runtime.h>
__global__ void __launch_bounds__(1024) lb_big(float *v, const float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = w[i] + 1.0f;
}
__global__ void __launch_bounds__(256, 2, 4) lb_three(float *v, const float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = w[i] + 2.0f;
}
extern "C" __global__ void __cluster_dims__(2, 1, 1) clustered(float *v, const float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = w[i] + 3.0f;
}
__global__ __noinline__ void noinl(float *v, const float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = w[i] + 4.0f;
}
int main() {
  int n = 1536;   // 6 blocks of 256: a multiple of the cluster size 2
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float));
  lb_big<<<(n + 255) / 256, 256>>>(a, b, n);
  lb_three<<<(n + 255) / 256, 256>>>(a, b, n);
  clustered<<<(n + 255) / 256, 256>>>(a, b, n);
  noinl<<<(n + 255) / 256, 256>>>(a, b, n);
  cudaDeviceSynchronize();
  return 0;
}
