// warp-reduce on loops that keep a maximum or a minimum (`m = fmaxf(m, e)`,
// `lo = min(lo, e)`): the lanes split the iterations as for a sum, need no
// reset (each lane starts from the value the thread had, and taking it
// again changes nothing), and the tree combines the lanes' values with the
// function the loop calls. A row softmax written with a thread per row
// becomes a warp (or a group) per row: maximum, sum of exponentials, then
// the row's writes. Refused where one variable is both added to and
// maximized, and where the function called max is the program's own.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"softmax_rows.warp_reduce": 32, "row_min.warp_reduce": 8}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
// RUN: %cro %s --analyze | FileCheck %s --check-prefix=MODEL
#include <cuda_runtime.h>
#include <math.h>

#define ROWS_PER_BLOCK 64
typedef float real;

// Softmax over each row of x, one thread per row (the naive port of a CPU
// loop nest): three passes over the row.
__global__ void softmax_rows(const real *__restrict__ x, real *__restrict__ y,
                             int nrows, int ncols) {
  int r = blockIdx.x * ROWS_PER_BLOCK + threadIdx.x;
  if (r >= nrows)
    return;
  const real *row = x + (size_t)r * ncols;
  real m = -INFINITY;
  for (int j = 0; j < ncols; ++j)
    m = fmaxf(m, row[j]);
  real total = 0.f;
  for (int j = 0; j < ncols; ++j)
    total += expf(row[j] - m);
  for (int j = 0; j < ncols; ++j)
    y[(size_t)r * ncols + j] = expf(row[j] - m) / total;
}

// The smallest element of each row of an int matrix, starting from the
// row's first element.
__global__ void row_min(const int *a, int *lo_out, int n, int len) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    int lo = a[i * len];
    int k;
    for (k = 1; k < len; k++)
      lo = min(lo, a[i * len + k]);
    lo_out[i] = lo;
  }
}

// Refused: one variable both summed and maximized.
__global__ void mixed(const float *a, float *o, int n, int len) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    float v = 0.f;
    for (int k = 0; k < len; k++) {
      v += a[i * len + k];
      v = fmaxf(v, 0.f);
    }
    o[i] = v;
  }
}

// Refused: this max is the program's own (it could do anything).
__device__ float clampmax(float a, float b) { return a > b ? a : b + 1.f; }
namespace mine {
__device__ float max(float a, float b) { return clampmax(a, b); }
} // namespace mine
__global__ void own_max(const float *a, float *o, int n, int len) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    float v = a[i * len];
    for (int k = 1; k < len; k++)
      v = mine::max(v, a[i * len + k]);
    o[i] = v;
  }
}

int main() {
  const int n = 1024, len = 256;
  float *a, *b;
  int *ia, *ib;
  cudaMalloc(&a, n * len * sizeof(float));
  cudaMalloc(&b, n * len * sizeof(float));
  cudaMalloc(&ia, n * len * sizeof(int));
  cudaMalloc(&ib, n * sizeof(int));
  softmax_rows<<<(n + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK, ROWS_PER_BLOCK>>>(
      a, b, n, len);
  row_min<<<(n + 127) / 128, 128>>>(ia, ib, n, len);
  mixed<<<(n + 127) / 128, 128>>>(a, b, n, len);
  own_max<<<(n + 127) / 128, 128>>>(a, b, n, len);
  cudaDeviceSynchronize();
  return 0;
}

// MODEL: "accumulator": "m"
// MODEL: "accumulator_combine": "fmaxf"
// MODEL: "accumulator": "total"
// MODEL: "accumulator_combine": "+"
// MODEL: "accumulator": "lo"
// MODEL: "accumulator_combine": "min"

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "softmax_rows.warp_reduce"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "row_min.warp_reduce"
// KNOBS-DAG: reason = "the body of loop L0 at {{.*}}warp-reduce-maxmin.cu:56:5 does not only add to (or take a maximum or minimum into) one variable declared outside it, or add to one global element (it changes 'v' at {{.*}}warp-reduce-maxmin.cu:55:11)"
// KNOBS-DAG: reason = "the body of loop L0 at {{.*}}warp-reduce-maxmin.cu:73:5 does not only add to (or take a maximum or minimum into) one variable declared outside it, or add to one global element (it changes 'v' at {{.*}}warp-reduce-maxmin.cu:72:11)"

// CHECK-LABEL: __global__ void softmax_rows(
// CHECK: for (int j = (0) + lane; j < ncols; j += 32)
// CHECK-NEXT: m = fmaxf(m, row[j]);
// CHECK-NEXT: for (int offset = 16; offset > 0; offset /= 2)
// CHECK-NEXT: m = fmaxf(m, __shfl_xor_sync(group_mask, m, offset, 32));
// CHECK: for (int j = (0) + lane; j < ncols; j += 32)
// CHECK-NEXT: total += expf(row[j] - m);
// CHECK-NEXT: for (int offset = 16; offset > 0; offset /= 2)
// CHECK-NEXT: total += __shfl_xor_sync(group_mask, total, offset, 32);
// CHECK: for (int j = (0) + lane; j < ncols; j += 32)
// CHECK-NEXT: y[(size_t)r * ncols + j] = expf(row[j] - m) / total;

// CHECK-LABEL: __global__ void row_min(
// CHECK: int lo = a[i * len];
// CHECK-NOT: lo = 0
// CHECK: for (k = (1) + lane; k < len; k += 8)
// CHECK-NEXT: lo = min(lo, a[i * len + k]);
// CHECK-NEXT: for (int offset = 4; offset > 0; offset /= 2)
// CHECK-NEXT: lo = min(lo, __shfl_down_sync(group_mask, lo, offset, 8));
// CHECK-NEXT: if (lane == 0)
// CHECK: lo_out[i] = lo;
