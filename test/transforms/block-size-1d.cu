// block-size on a 1D kernel whose block size is a macro that another kernel
// also uses: the tuned kernel gets its own copy; the other keeps BLOCK.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"scale.block": 128}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void scale(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= s;
}

__global__ void shift(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += s;
}

void run(float *v, int n) {
  scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(v, 2.0f, n);
  shift<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(v, 1.0f, n);
}




// KNOBS-DAG: knobs[0].id = "scale.block"
// KNOBS-DAG: knobs[0].default = 256
// KNOBS-DAG: knobs[0].values[0] = 32
// KNOBS-DAG: knobs[0].values[5] = 1024
// KNOBS-DAG: knobs[0].transform = "block-size"
// KNOBS-DAG: knobs[1].id = "shift.block"

// CHECK:      #define BLOCK 256
// CHECK-NEXT: +#define scale_BLOCK 128
// CHECK:      -  scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(v, 2.0f, n);
// CHECK-NEXT: +  scale<<<(n + scale_BLOCK - 1) / scale_BLOCK, scale_BLOCK>>>(v, 2.0f, n);
// CHECK-NEXT:    shift<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(v, 1.0f, n);
