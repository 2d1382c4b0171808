// register-tile: RY x RX outputs per thread, strided by the block, with
// accumulators in register arrays and the grid shrunk; alone, with
// shared-stage, and on a 1-D kernel whose declarations before the loop read
// memory (read only inside the domain). Coarsening the same kernel too is
// an error that names both.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"mm.register_tile": "2x2"}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: echo '{"mm.register_tile": "4x2", "mm.shared_stage": 16, "forces.register_tile": "1x4", "forces.shared_stage": 64}' > %t.both.json
// RUN: %cro %s --apply %t.both.json --diff | %strip-checks | FileCheck %s --check-prefix=BOTH
// RUN: %cro %s --apply %t.both.json -o %t.both.cu && nvcc -arch=sm_90 -c %t.both.cu -o %t.both.o
// RUN: echo '{"mm.register_tile": "2x2", "mm.block": [32, 32], "nvcc.maxrregcount": 96}' > %t.big.json
// RUN: %cro %s --apply %t.big.json --diff | %strip-checks | FileCheck %s --check-prefix=BIG
// RUN: echo '{"mm.register_tile": "2x2", "mm.coarsen": "x2"}' > %t.bad.json
// RUN: %expect-exit 10 %cro %s --apply %t.bad.json -o %t.bad.cu 2>&1 | %strip-checks | FileCheck %s --check-prefix=BAD
#include <cuda_runtime.h>

__global__ void mm(const float *A, const float *B, float *C, int M, int N,
                   int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

__global__ void forces(const float2 *p, float2 *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float2 me = p[i];
  float fx = 0.0f, fy = 0.0f;
  for (int j = 0; j < n; ++j) {
    float2 o = p[j];
    float dx = o.x - me.x, dy = o.y - me.y;
    float inv = rsqrtf(dx * dx + dy * dy + 1e-3f);
    fx += dx * inv;
    fy += dy * inv;
  }
  f[i] = make_float2(fx, fy);
}

void run(const float *A, const float *B, float *C, const float2 *p, float2 *f,
         int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  mm<<<grid, block>>>(A, B, C, M, N, K);
  forces<<<(N + 127) / 128, 128>>>(p, f, N);
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "mm.register_tile"
// KNOBS-DAG: knobs[{{[0-9]+}}].values[15] = "8x8"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "forces.register_tile"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "forces.shared_stage"

// CHECK:      +  // cuda-rewrite-opt: 2x2 outputs per thread
// CHECK-NEXT: +  const int row_first = blockIdx.y * 32 + threadIdx.y;
// CHECK-NEXT: +  const int col_first = blockIdx.x * 32 + threadIdx.x;
// CHECK-NEXT: +  float acc_r[2][2];
// CHECK:      +    acc_r[oy][ox] = 0.0f;
// CHECK:      +  for (int k = 0; k < K; ++k) {
// CHECK:      +      const int row = row_first + oy * 16;
// CHECK-NEXT: +      const int col = col_first + ox * 16;
// CHECK-NEXT: +      if (row < M && col < N)
// CHECK-NEXT: +        acc_r[oy][ox] += A[row * K + k] * B[k * N + col];
// CHECK:      +      C[row * N + col] = acc_r[oy][ox];
// CHECK:      -  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
// CHECK-NEXT: +  dim3 grid((((N) + 2 - 1) / 2 + block.x - 1) / block.x, (((M) + 2 - 1) / 2 + block.y - 1) / block.y);

// BOTH:      +  __shared__ float A_tile[64][16];
// BOTH-NEXT: +  __shared__ float B_tile[16][32];
// BOTH:      +          acc_r[oy][ox] += A_tile[threadIdx.y + oy * 16][k - k_tile] * B_tile[k - k_tile][threadIdx.x + ox * 16];
// BOTH:      +  const int i_first = blockIdx.x * 512 + threadIdx.x;
// BOTH-NEXT: +  __shared__ float2 p_tile[64];
// BOTH:      +    fx_r[oy][ox] = 0.0f;
// BOTH-NEXT: +    fy_r[oy][ox] = 0.0f;
// BOTH-NEXT: +    if (!(i >= n)) {
// BOTH-NEXT: +      me_r[oy][ox] = p[i];
// BOTH:      +        float dx = o.x - me_r[oy][ox].x, dy = o.y - me_r[oy][ox].y;
// BOTH:      +      if (!(i >= n)) {
// BOTH-NEXT: +        f[i] = make_float2(fx_r[oy][ox], fy_r[oy][ox]);
// BOTH:      -  forces<<<(N + 127) / 128, 128>>>(p, f, N);
// BOTH-NEXT: +  forces<<<(((N) + 4 - 1) / 4 + 127) / 128, 128>>>(p, f, N);

// More than 512 threads per block: the register-hungry variant gets launch
// bounds so that it still launches.
// BIG: +__global__ void __launch_bounds__(1024) mm(const float *A, const float *B, float *C, int M, int N,

// BAD: kernel mm: coarsen and register-tile/shared-stage both remap its threads
