// Elements of class type (float3, user structs) are written through
// operator=, which is a call, not a built-in assignment: still a write, so
// read-only must not make the pointer const.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"k.read_only": true}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cuda_runtime.h>

struct Pair {
  float a, b;
};

__global__ void k(const float4 *in, float3 *out, Pair *pairs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 p = in[i];
    out[i] = make_float3(p.x, p.y, p.z);
    pairs[i] = Pair{p.w, p.x};
  }
}

void run(const float4 *in, float3 *out, Pair *pairs, int n) {
  k<<<(n + 255) / 256, 256>>>(in, out, pairs, n);
}

// run's pointers point to distinct buffers.
void caller(int n) {
  float4 *in;
  float3 *out;
  Pair *pairs;
  cudaMalloc(&in, n * sizeof(float4));
  cudaMalloc(&out, n * sizeof(float3));
  cudaMalloc(&pairs, n * sizeof(Pair));
  run(in, out, pairs, n);
}

// CHECK-DAG: kernels[0].params[0].access = "read"
// CHECK-DAG: kernels[0].params[1].access = "write"
// CHECK-DAG: kernels[0].params[2].access = "write"
