// shared-stage "tile" on TILE x ROWS transposes: a block of T x R threads
// owns a T x T tile, each thread looping over T / R of its rows, and the
// store is strided across a warp. What decides it is the store's affine
// form after macro expansion -- rows y + j at unit stride, blockIdx moving
// both coordinates by T, the loop from 0 by R to T, blocks of T x R -- not
// how the kernel spells it: sizes in a header's macros, the loop variable
// declared before the loop, the index written without locals, unsigned
// locals, a different R. Refused: a value that reads the array the store
// writes (the tile moves a block's stores after its reads), a conditional
// store (a partial tile), a launch whose block is not T x R, a store already
// contiguous. The program checks itself against the CPU
// (bench/memory-generality-gpu.sh runs it on the GPU).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=SPACE
// RUN: echo '{"strip_transpose.shared_stage": "tile", "strip_transpose.shared_pad": 1, "scaled_transpose.shared_stage": "tile", "pitch_transpose.shared_stage": "tile"}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: %strip-checks < %t.cu | FileCheck %s
// RUN: nvcc -arch=sm_90 -I %S -c %t.cu -o %t.o
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "Inputs/strip-dims.h"

// Sizes from a header's macros; the loop variable declared first; the
// row spelled with the builtins, no local.
__global__ void strip_transpose(real_t *dst, const real_t *src, int rows,
                                int cols) {
  int c = blockIdx.x * TDIM + threadIdx.x;
  int k;
  for (k = 0; k < TDIM; k += BROWS)
    dst[c * rows + blockIdx.y * TDIM + threadIdx.y + k] =
        src[(blockIdx.y * TDIM + threadIdx.y + k) * cols + c];
}

// Unsigned locals, a computed value, 32 x 4 blocks.
__global__ void scaled_transpose(float *out, const float *in, unsigned n_in,
                                 unsigned n_out, float alpha, float beta) {
  const unsigned col = blockIdx.x * 32 + threadIdx.x;
  const unsigned row = blockIdx.y * 32 + threadIdx.y;
  for (unsigned i = 0; i < 32; i += 4)
    out[col * n_out + row + i] = alpha * in[(row + i) * n_in + col] + beta;
}

// The value reads the array the store writes.
__global__ void inplace_swap(float *m, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    m[x * n + y + j] = m[(y + j) * n + x];
}

// A store under a condition: a partial tile.
__global__ void edge_transpose(float *out, const float *in, int w, int h) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < w && y + j < h)
      out[x * h + y + j] = in[(y + j) * w + x];
}

// Launched with 32 x 16 blocks: a row is taken by two threads.
__global__ void wide_block(float *out, const float *in, int w, int h) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[x * h + y + j] = in[(y + j) * w + x];
}

// Already contiguous: a copy.
__global__ void strip_copy(float *out, const float *in, int w) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * w + x] = in[(y + j) * w + x];
}

// The stride n - 1 (a coefficient with a negative constant) and a `<=`
// bound: the transposed store's index is computed in signed 64 bits.
__global__ void pitch_transpose(float *out, const float *in, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j <= 24; j += 8)
    out[x * (n - 1) + y + j] = in[(y + j) * (n - 1) + x];
}

// The value reads what an earlier iteration stored, through pointer
// arithmetic rather than a subscript of the parameter.
__global__ void running_sum(float *out, const float *in, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[x * n + y + j] = in[(y + j) * n + x] + (j > 0 ? *(out + x * n + y + j - 8) : 0.f);
}

// A pitch held in a local narrower than int: 5 * n wraps at 256.
__global__ void narrow_pitch(float *out, const float *in, int n) {
  const unsigned char ld = n * 5;
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[x * ld + y + j] = in[(y + j) * n + x];
}

// The store written through a function-like macro.
#define ELEM_AT(a, i) a[i]
__global__ void macro_store(float *out, const float *in, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    ELEM_AT(out, x * n + y + j) = ELEM_AT(in, (y + j) * n + x);
}

int main() {
  const int rows = 96, cols = 160, n = rows * cols;
  float *h_in = (float *)malloc(n * sizeof(float));
  float *h_a = (float *)malloc(n * sizeof(float));
  float *h_b = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h_in[i] = (float)((i * 37) % 101) - 50.0f;
  float *in, *a, *b, *m;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&m, n * sizeof(float));
  cudaMemcpy(in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(a, 0, n * sizeof(float));
  cudaMemset(b, 0, n * sizeof(float));
  dim3 grid(cols / TDIM, rows / TDIM);
  strip_transpose<<<grid, dim3(TDIM, BROWS)>>>(a, in, rows, cols);
  scaled_transpose<<<grid, dim3(32, 4)>>>(b, in, cols, rows, 2.0f, 1.0f);
  cudaMemcpy(m, in, n * sizeof(float), cudaMemcpyDeviceToDevice);
  inplace_swap<<<dim3(rows / 32, rows / 32), dim3(32, 8)>>>(m, rows);
  edge_transpose<<<grid, dim3(32, 8)>>>(b, in, cols, rows);
  wide_block<<<grid, dim3(32, 16)>>>(a, in, cols, rows);
  strip_copy<<<grid, dim3(32, 8)>>>(m, in, cols);
  running_sum<<<dim3(2, 2), dim3(32, 8)>>>(m, in, 64);
  narrow_pitch<<<dim3(1, 1), dim3(32, 8)>>>(m, in, 32);
  macro_store<<<dim3(2, 2), dim3(32, 8)>>>(m, in, 64);
  // 64 x 64 of in, pitch 64, transposed into m.
  cudaMemset(m, 0, n * sizeof(float));
  pitch_transpose<<<dim3(2, 2), dim3(32, 8)>>>(m, in, 65);
  strip_transpose<<<grid, dim3(TDIM, BROWS)>>>(a, in, rows, cols);
  scaled_transpose<<<grid, dim3(32, 4)>>>(b, in, cols, rows, 2.0f, 1.0f);
  cudaMemcpy(h_a, a, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_b, b, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  float *h_m = (float *)malloc(64 * 64 * sizeof(float));
  cudaMemcpy(h_m, m, 64 * 64 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x)
      bad += h_m[x * 64 + y] != h_in[y * 64 + x];
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      float v = h_in[r * cols + c];
      bad += h_a[c * rows + r] != v;
      bad += h_b[c * rows + r] != 2.0f * v + 1.0f;
    }
  if (cudaDeviceSynchronize() != cudaSuccess)
    bad = -1;
  printf("%s shared-stage-strip (%d mismatches)\n", bad ? "FAILED" : "PASSED",
         bad);
  return bad != 0;
}

// SPACE-DAG: knobs[{{[0-9]+}}].id = "strip_transpose.shared_stage"
// SPACE-DAG: knobs[{{[0-9]+}}].id = "scaled_transpose.shared_stage"
// SPACE-DAG: reason = "{{.*}}nor a strip of transposed stores (the kernel names 'm' besides its store, and the tile moves a block's stores after its reads)"
// SPACE-DAG: reason = "{{.*}}nor a strip of transposed stores (the store is skipped by a condition in loop L0: a partial tile is not staged)"
// SPACE-DAG: reason = "{{.*}}nor a strip of transposed stores (the transposed tile needs blocks of 32 x 8 threads (the tile's side by the loop's step))"
// SPACE-DAG: reason = "{{.*}}nor a strip of transposed stores (the store is already contiguous across a warp)"
// SPACE-DAG: knobs[{{[0-9]+}}].id = "pitch_transpose.shared_stage"
// SPACE-DAG: reason = "{{.*}}nor a strip of transposed stores (the kernel names 'out' besides its store, and the tile moves a block's stores after its reads)"
// SPACE-DAG: reason = "{{.*}}nor a strip of transposed stores (the store's index not affine: {{.*}}variable 'ld' is narrower than int{{.*}})"
// SPACE-DAG: reason = "{{.*}}nor a strip of transposed stores (the store is written through a macro, whose text the rewrite cannot replace)"

// CHECK-LABEL: __global__ void strip_transpose(
// CHECK-NEXT:                   int cols) {
// CHECK-NEXT:   // cuda-rewrite-opt: a tile for the transposed store of loop L0
// CHECK-NEXT:   __shared__ real_t dst_tile[32][33];
// CHECK-NEXT:   int c = blockIdx.x * TDIM + threadIdx.x;
// CHECK-NEXT:   int k;
// CHECK-NEXT:   for (k = 0; k < TDIM; k += BROWS)
// CHECK-NEXT:     dst_tile[threadIdx.y + k][threadIdx.x] =
// CHECK-NEXT:         src[(blockIdx.y * TDIM + threadIdx.y + k) * cols + c];
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   // cuda-rewrite-opt: the block's values went through the tile; each thread stores the elements its transposed neighbours computed, so the store is contiguous
// CHECK-NEXT:   #pragma unroll
// CHECK-NEXT:   for (int [[R:r[_0-9]*]] = 0; [[R]] < 32; [[R]] += 8)
// CHECK-NEXT:     dst[(long long)rows * (long long)(threadIdx.y + [[R]]) + (long long)threadIdx.x + (long long)32 * rows * (long long)blockIdx.x + (long long)32 * (long long)blockIdx.y] = dst_tile[threadIdx.x][threadIdx.y + [[R]]];
// CHECK-NEXT: }
// CHECK-LABEL: __global__ void scaled_transpose(
// CHECK:        __shared__ float out_tile[32][32];
// CHECK:        for (unsigned i = 0; i < 32; i += 4)
// CHECK-NEXT:     out_tile[threadIdx.y + i][threadIdx.x] = alpha * in[(row + i) * n_in + col] + beta;
// CHECK-NEXT:   __syncthreads();
// CHECK:        for (int [[R]] = 0; [[R]] < 32; [[R]] += 4)
// CHECK-NEXT:     out[(long long)n_out * (long long)(threadIdx.y + [[R]]) + (long long)threadIdx.x + (long long)32 * n_out * (long long)blockIdx.x + (long long)32 * (long long)blockIdx.y] = out_tile[threadIdx.x][threadIdx.y + [[R]]];
// CHECK-LABEL: __global__ void inplace_swap(
// CHECK-NOT:    __shared__
// CHECK-LABEL: __global__ void pitch_transpose(
// CHECK:        for (int j = 0; j <= 24; j += 8)
// CHECK-NEXT:     out_tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * (n - 1) + x];
// CHECK:          out[-(long long)(threadIdx.y + [[R]]) + (long long)n * (long long)(threadIdx.y + [[R]]) + (long long)threadIdx.x - (long long)32 * (long long)blockIdx.x + (long long)32 * n * (long long)blockIdx.x + (long long)32 * (long long)blockIdx.y] = out_tile[threadIdx.x][threadIdx.y + [[R]]];
// CHECK-LABEL: int main(
