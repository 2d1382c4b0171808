// launch-bounds: added, changed and removed; it always names the block size
// of the same variant, so a larger block never exceeds the bound.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"plain.launch_bounds": 2, "bounded.block": 512}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: echo '{"bounded.launch_bounds": "none", "nvcc.maxrregcount": 64}' > %t2.json
// RUN: %cro %s --apply %t2.json --diff 2>%t.err | %strip-checks | FileCheck %s --check-prefix=REMOVE
// RUN: FileCheck %s --check-prefix=FLAGS < %t.err
#include <cuda_runtime.h>

#define THREADS 128

__global__ void plain(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 1.0f;
}

__global__ void __launch_bounds__(THREADS) bounded(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 2.0f;
}

void run(float *v, int n) {
  plain<<<(n + 255) / 256, 256>>>(v, n);
  bounded<<<(n + THREADS - 1) / THREADS, THREADS>>>(v, n);
}




// KNOBS-DAG: "plain.launch_bounds"
// KNOBS-DAG: "bounded.launch_bounds"
// KNOBS-DAG: "nvcc.maxrregcount"

// CHECK:      -__global__ void plain(float *v, int n) {
// CHECK-NEXT: +__global__ void __launch_bounds__(256, 2) plain(float *v, int n) {
// CHECK:      -__global__ void __launch_bounds__(THREADS) bounded(float *v, int n) {
// CHECK-NEXT: +__global__ void __launch_bounds__(512) bounded(float *v, int n) {
// CHECK:      -  bounded<<<(n + THREADS - 1) / THREADS, THREADS>>>(v, n);
// CHECK-NEXT: +  bounded<<<(n + bounded_THREADS - 1) / bounded_THREADS, bounded_THREADS>>>(v, n);

// REMOVE:      +// cuda-rewrite-opt: build this variant with nvcc -maxrregcount=64
// REMOVE:      -__global__ void __launch_bounds__(THREADS) bounded(float *v, int n) {
// REMOVE-NEXT: +__global__ void bounded(float *v, int n) {
// FLAGS: cuda-rewrite-opt: nvcc flags for this variant: -maxrregcount=64
