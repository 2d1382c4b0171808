// A grid that divides by a fixed number of blocks (each thread handles
// kItems elements): the divisor's variable is renamed with the block's
// constant, so the grid stays ceil(n / (kItems * block)).
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"scale4.block": 128}' > %t.json
// RUN: %cro %s --apply %t.json | %strip-checks | FileCheck %s --check-prefix=APPLY
#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kItems = 4;

__global__ void scale4(float *v, int n) {
  int base = blockIdx.x * blockDim.x * kItems + threadIdx.x;
  for (int k = 0; k < kItems; ++k) {
    int i = base + k * blockDim.x;
    if (i < n) v[i] *= 2.0f;
  }
}

// kBlock * kBlock is not a fixed number of blocks.
__global__ void square(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.0f;
}

void run(float *v, int n) {
  const int tile = kBlock * kItems;
  scale4<<<(n + tile - 1) / tile, kBlock>>>(v, n);
  const int sq = kBlock * kBlock;
  square<<<(n + sq - 1) / sq, kBlock>>>(v, n);
}

// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_multiple = 4
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_dim = "x"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "scale4.block"
// CHECK-DAG: kernels[1].launches[0].grid.dims[0].derived.block_dim = null
// CHECK-DAG: reason = "grid dimension x at {{.*}}block-size-multiple.cu:30:3 ('(n + sq - 1) / sq') does not follow the block size, so another block size would cover a different index range"

// APPLY: constexpr int scale4_kBlock = 128;
// APPLY: const int tile = scale4_kBlock * kItems;
// APPLY-NEXT: scale4<<<(n + tile - 1) / tile, scale4_kBlock>>>(v, n);
// APPLY: square<<<(n + sq - 1) / sq, kBlock>>>(v, n);
