// unroll: a pragma is inserted, changed, or removed; "full" is offered only
// for constant trip counts; loops inside macros are refused.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"k.unroll.L0": 4, "k.unroll.L1": "full", "k.unroll.L2": "none", "k.unroll.L3": 8}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cuda_runtime.h>

#define TIMES(n) for (int r = 0; r < (n); ++r)

__global__ void k(float *v, int n, int m) {
  float acc = 0.0f;
  for (int j = 0; j < m; ++j)
    acc += v[j];
  for (int j = 0; j < 8; j += 2) {
    acc *= 0.5f;
  }
#pragma unroll 2
  for (int j = 0; j < m; ++j)
    acc -= v[j];
  if (m > 4) for (int j = 0; j < m; ++j) acc += 1.0f;
  TIMES(3) acc += 2.0f;
  v[threadIdx.x] = acc;
}

void run(float *v, int n) { k<<<1, 32>>>(v, n, 16); }




// KNOBS-DAG: knobs[{{[0-9]+}}].id = "k.unroll.L0"
// KNOBS-DAG: knobs[{{[0-9]+}}].default = "none"
// KNOBS-DAG: knobs[{{[0-9]+}}].values[6] = "full"
// KNOBS-DAG: knobs[{{[0-9]+}}].default = 2
// KNOBS-DAG: reason = "loop L4 is written inside a macro; a pragma cannot be placed before it"

// CHECK:       float acc = 0.0f;
// CHECK-NEXT: +  #pragma unroll 4
// CHECK-NEXT:    for (int j = 0; j < m; ++j)
// CHECK:      +  #pragma unroll
// CHECK-NEXT:    for (int j = 0; j < 8; j += 2) {
// CHECK:      -#pragma unroll 2
// CHECK-NEXT:   for (int j = 0; j < m; ++j)
// CHECK:      -  if (m > 4) for (int j = 0; j < m; ++j) acc += 1.0f;
// CHECK-NEXT: +  if (m > 4) 
// CHECK-NEXT: +  #pragma unroll 8
// CHECK-NEXT: +  for (int j = 0; j < m; ++j) acc += 1.0f;
