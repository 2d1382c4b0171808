// block-size on programs whose kernels share their block-size symbol, whose
// grids are rounded up in a statement of their own, and whose second pass
// runs as a single block: what a knob needs is that the symbol means each
// kernel's own block, that the grid covers the same indices, and that a
// block-strided loop covers any length.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"scale_pass.block": 64, "shift_pass.block": 512, "fold_partials.block": 32}' > %t.json
// RUN: %cro %s --apply %t.json | %strip-checks | FileCheck %s --check-prefix=APPLY
#include <cuda_runtime.h>

#define TPB 256
#define FOLD 256

__global__ void scale_pass(float *buf, unsigned len, float by) {
  unsigned at = blockIdx.x * TPB + threadIdx.x;
  if (at < len)
    buf[at] *= by;
}

__global__ void shift_pass(float *buf, unsigned len, float by) {
  unsigned at = blockIdx.x * TPB + threadIdx.x;
  if (at >= len)
    return;
  buf[at] += by;
}

// Per-block partial sums: the shared array is the block's own.
__global__ void block_partial(const float *in, float *partials, unsigned len) {
  __shared__ float part[FOLD];
  unsigned t = threadIdx.x;
  unsigned at = blockIdx.x * blockDim.x + t;
  part[t] = at < len ? in[at] : 0.0f;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
    if (t < half)
      part[t] += part[t + half];
    __syncthreads();
  }
  if (t == 0)
    partials[blockIdx.x] = part[0];
}

// One block folds however many partials there are, with a block-strided
// loop: any block size covers them.
__global__ void fold_partials(const float *partials, float *total, unsigned count) {
  __shared__ float part[FOLD];
  unsigned t = threadIdx.x;
  float acc = 0.0f;
  for (unsigned j = t; j < count; j += blockDim.x)
    acc += partials[j];
  part[t] = acc;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
    if (t < half)
      part[t] += part[t + half];
    __syncthreads();
  }
  if (t == 0)
    *total = part[0];
}

__global__ void negate(float *buf, int len) {
  int at = blockIdx.x * blockDim.x + threadIdx.x;
  if (at < len)
    buf[at] = -buf[at];
}

void passes(float *buf, float *partials, float *total, unsigned len) {
  int nblk = len / TPB;
  if (len % TPB != 0) {
    nblk = nblk + 1;
  }
  dim3 grid(nblk), block(TPB);
  scale_pass<<<grid, block>>>(buf, len, 2.0f);
  shift_pass<<<grid, block>>>(buf, len, 1.0f);

  unsigned parts = (len + FOLD - 1) / FOLD;
  block_partial<<<parts, FOLD>>>(buf, partials, len);
  fold_partials<<<1, FOLD>>>(partials, total, parts);

  // Rounded up with the number itself: the rounding statement would keep
  // the old number.
  int g = len / 128;
  if (len % 128)
    g++;
  negate<<<g, 128>>>(buf, len);
}

// CHECK-DAG: knobs[{{[0-9]+}}].id = "scale_pass.block"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "shift_pass.block"
// One partial per block, combined from elements the block's size decides:
// another block size sums other elements into each partial.
// CHECK-DAG: reason = "the kernel writes 'partials[blockIdx.x]' at {{.*}}block-size-multi-kernel.cu:40:5 once per block, from values the block's threads combined out of elements the block's size decides: another block size combines other elements into it"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "fold_partials.block"
// CHECK-DAG: derived.round_up.begin = "{{.*}}block-size-multi-kernel.cu:70:3"
// CHECK-DAG: reason = "grid dimension x at {{.*}}block-size-multi-kernel.cu:86:3 is rounded up by a separate statement that divides by the number 128 again; the tool recomputes a grid in one expression"
// CHECK-NOT: id = "negate.block"

// Each kernel gets its own copy; the shared grid and block become the
// launches' own, recomputed from the extent.
// APPLY: #define scale_pass_TPB 64
// APPLY-NEXT: #define shift_pass_TPB 512
// APPLY: #define fold_partials_FOLD 32
// APPLY: unsigned at = blockIdx.x * scale_pass_TPB + threadIdx.x;
// APPLY: unsigned at = blockIdx.x * shift_pass_TPB + threadIdx.x;
// APPLY: __shared__ float part[fold_partials_FOLD];
// APPLY: int nblk = len / TPB;
// APPLY-NEXT: if (len % TPB != 0) {
// APPLY: scale_pass<<<dim3((len + scale_pass_TPB - 1) / scale_pass_TPB), dim3(scale_pass_TPB)>>>(buf, len, 2.0f);
// APPLY-NEXT: shift_pass<<<dim3((len + shift_pass_TPB - 1) / shift_pass_TPB), dim3(shift_pass_TPB)>>>(buf, len, 1.0f);
// APPLY: unsigned parts = (len + FOLD - 1) / FOLD;
// APPLY-NEXT: block_partial<<<parts, FOLD>>>(buf, partials, len);
// APPLY-NEXT: fold_partials<<<1, fold_partials_FOLD>>>(partials, total, parts);
