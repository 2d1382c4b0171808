// tile: strip-mining keeps the iterations and their order; "-inner" moves a
// loop's tile inside its inner loop only when no iteration of the body
// depends on another. Reductions, early exits and possible aliasing are
// refused with the reason.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: %cro %s --analyze --assume-no-alias | %flatten | FileCheck %s --check-prefix=NOALIAS
// RUN: echo '{"rows.tile.L0": 16, "trans.tile.L0": "8-inner"}' > %t.json
// RUN: %cro %s --assume-no-alias --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --assume-no-alias --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cuda_runtime.h>

__global__ void rows(const float *A, float *s, int m) {
  float acc = 0.0f;
  for (int j = 0; j < m; ++j)
    acc += A[blockIdx.x * m + j];
  s[blockIdx.x] = acc;
}

__global__ void trans(const float *in, float *out, int n, int m) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      out[i * m + j] = in[j * n + i] * 2.0f;
}

__global__ void sums(const float *in, float *out, int n, int m) {
  float acc = 0.0f;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      acc += in[i * m + j];
  out[0] = acc;
}

__global__ void early(const float *in, float *out, int n) {
  for (int i = 0; i < n; ++i) {
    if (in[i] < 0.0f)
      break;
    out[i] = in[i];
  }
}

void run(const float *A, float *s, int n, int m) {
  rows<<<n, 1>>>(A, s, m);
  trans<<<1, 1>>>(A, s, n, m);
  sums<<<1, 1>>>(A, s, n, m);
  early<<<1, 1>>>(A, s, n);
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "rows.tile.L0"
// KNOBS-DAG: reason = "loop L0 cannot move inside loop L1: 'in' may point into 'out' (neither is __restrict__); pass --assume-no-alias if they never overlap"
// KNOBS-DAG: reason = "loop L0 cannot move inside loop L1: the body writes 'acc', declared outside the nest: reordering the iterations would change it (or its rounding) at {{.*}}tile.cu:{{[0-9]+}}:7"
// KNOBS-DAG: reason = "loop L0: the body leaves the loop with break at {{.*}}tile.cu:{{[0-9]+}}:7"
// NOALIAS: knobs[{{[0-9]+}}].values[10] = "64-inner"

// CHECK:      -  for (int j = 0; j < m; ++j)
// CHECK-NEXT: +  for (int j_tile = 0; j_tile < m; j_tile += 16)
// CHECK-NEXT: +    for (int j = j_tile; j < j_tile + 16 && j < m; ++j)
// CHECK-NEXT:      acc += A[blockIdx.x * m + j];
// CHECK:      -  for (int i = 0; i < n; ++i)
// CHECK-NEXT: -    for (int j = 0; j < m; ++j)
// CHECK-NEXT: -      out[i * m + j] = in[j * n + i] * 2.0f;
// CHECK-NEXT: +  for (int i_tile = 0; i_tile < n; i_tile += 8)
// CHECK-NEXT: +    for (int j = 0; j < m; ++j) {
// CHECK-NEXT: +      for (int i = i_tile; i < i_tile + 8 && i < n; ++i)
// CHECK-NEXT: +        out[i * m + j] = in[j * n + i] * 2.0f;
// CHECK-NEXT: +    }
