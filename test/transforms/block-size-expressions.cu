// block-size where the launch computes its block from named numbers
// (`kWarps * 32`, `2 * HALF`): the expression's value is the block size,
// the launch gets the tuned number and its grid is recomputed from the
// extent. Refused where the kernel reads a symbol the expression uses: the
// body would keep the old value of `kWarps` while the block changes.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"axpy.block": 512, "shift.block": 64}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
#include <cuda_runtime.h>

namespace cfg {
constexpr int kWarps = 4;
}
#define HALF 64

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

__global__ void shift(double *v, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += 1.0;
}

// Each warp takes a row; the kernel counts its warps with kWarps.
__global__ void rows(const float *m, float *out, int nrows, int ncols) {
  int row = blockIdx.x * cfg::kWarps + threadIdx.x / 32;
  if (row < nrows && threadIdx.x % 32 == 0)
    out[row] = m[row * ncols];
}

void run(const float *x, float *y, double *v, int n, long m, float *out,
         int nrows) {
  axpy<<<(n + cfg::kWarps * 32 - 1) / (cfg::kWarps * 32), cfg::kWarps * 32>>>(
      2.0f, x, y, n);
  shift<<<(m + 2 * HALF - 1) / (2 * HALF), 2 * HALF>>>(v, m);
  rows<<<(nrows + cfg::kWarps - 1) / cfg::kWarps, cfg::kWarps * 32>>>(
      x, out, nrows, 100);
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "axpy.block"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "shift.block"
// KNOBS-DAG: reason = "the block size at {{.*}}block-size-expressions.cu:41:3 is 'cfg::kWarps * 32', computed from 'kWarps', which the kernel reads too: there it would keep the old value"

// CHECK: axpy<<<(n + 511) / 512, 512>>>(
// CHECK: shift<<<(m + 63) / 64, 64>>>(v, m);
// CHECK: rows<<<(nrows + cfg::kWarps - 1) / cfg::kWarps, cfg::kWarps * 32>>>(
