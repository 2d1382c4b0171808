// vectorize on kernels without a guard, whose launches give exactly
// floor(extent / block) blocks because the host divides evenly (the
// transpose-tutorial style: "width must be a multiple of the tile"). Every
// thread the original launches works, so the threads that exist are the
// indices below (extent / block) * block; when the launch passes the extent
// to the kernel as a parameter, that bound is asked for each element and
// the grid gets ceil(G / width) blocks. The same bound serves a guard whose
// bound the grid is not known to cover: `i < n` in a grid of ceil(N_MAX /
// block) blocks, N_MAX a constant (the PolyBench style). Refused where the
// grid rounds up a run-time extent the guard does not follow, where the
// kernel does not receive the extent, and where it changes the parameter.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"rows_copy.vectorize": 4, "axpy_exact.vectorize": 2, "scale_upto.vectorize": 4}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

// A tile of TILE x TILE per block of TILE x ROWS threads, no bounds checks.
__global__ void rows_copy(float *dst, const float *src, int pitch) {
  unsigned col = blockIdx.x * TILE + threadIdx.x;
  unsigned row = blockIdx.y * TILE + threadIdx.y;
  for (unsigned r = 0; r < TILE; r += ROWS)
    dst[(row + r) * pitch + col] = src[(row + r) * pitch + col];
}

// 1-D, the extent a run-time value the host has checked.
__global__ void axpy_exact(double a, const double *x, double *y, long n) {
  long i = threadIdx.x + (long)blockIdx.x * blockDim.x;
  y[i] += a * x[i];
}

// The grid rounds up: the last block's extra threads write past n.
__global__ void round_up(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] *= 2.0f;
}

// The kernel is not told the extent the grid was sized by.
__global__ void untold(float *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = v[i] + 1.0f;
}

// The kernel changes the parameter it was given the extent in (each of a
// thread's elements would see the change).
__global__ void shifts_n(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  n -= 1;
  v[i] = v[i] * (float)n;
}

#define N_MAX 1000

// Guarded by the run-time n, launched for the compile-time N_MAX.
__global__ void scale_upto(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = 3.0f * v[i];
}

// Guarded by n, launched for another run-time value.
__global__ void scale_other(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = 3.0f * v[i];
}

void run(float *dst, const float *src, int w, int h, double *x, double *y,
         long n, float *v, int m) {
  dim3 block(TILE, ROWS);
  dim3 grid(w / TILE, h / TILE);
  rows_copy<<<grid, block>>>(dst, src, w);
  const int threads = 128;
  axpy_exact<<<n / threads, threads>>>(2.0, x, y, n);
  round_up<<<(m + 255) / 256, 256>>>(v, m);
  untold<<<m / 256, 256>>>(v);
  shifts_n<<<m / 256, 256>>>(v, m);
  scale_upto<<<(N_MAX + 127) / 128, 128>>>(v, m);
  scale_other<<<(2 * m + 127) / 128, 128>>>(v, m);
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "rows_copy.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "axpy_exact.vectorize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "scale_upto.vectorize"
// KNOBS-DAG: reason = "the launch at {{.*}}vectorize-exact-grid.cu:82:3 sizes the grid by '2*m' but passes 'm' as the bound 'n'; nor is it known which threads the launches have: the launch at {{.*}}vectorize-exact-grid.cu:82:3 rounds the grid up from '2*m', which is not a compile-time constant"
// KNOBS-DAG: reason = "the kernel has no guard, so every thread works, and the launch at {{.*}}vectorize-exact-grid.cu:78:3 rounds the grid up from 'm', which is not a compile-time constant"
// KNOBS-DAG: reason = "the kernel has no guard, so every thread works, and the launch at {{.*}}vectorize-exact-grid.cu:79:3 sizes the grid by 'm', which it passes as no parameter the kernel keeps"
// KNOBS-DAG: reason = "the work changes 'n' (a parameter) at {{.*}}vectorize-exact-grid.cu:51:5, declared outside it: a thread computing several outputs would start each from the value the previous one left"

// CHECK-LABEL: __global__ void rows_copy(
// CHECK:         const unsigned int col_first = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
// CHECK-NEXT:    unsigned row = blockIdx.y * TILE + threadIdx.y;
// CHECK-NEXT:    if (col_first + 4 <= pitch / (unsigned int)blockDim.x * (unsigned int)blockDim.x) {
// CHECK-NEXT:      for (unsigned r = 0; r < TILE; r += ROWS)
// CHECK:             const float4 src_v_q = *reinterpret_cast<const float4 *>(src +
// CHECK:             } else {
// CHECK:                 const unsigned int col = col_first + lane;
// CHECK-NEXT:            dst[(row + r) * pitch + col] = src[(row + r) * pitch + col];
// CHECK:         } else {
// CHECK-NEXT:      #pragma unroll
// CHECK-NEXT:      for (int lane = 0; lane < 4; ++lane) {
// CHECK-NEXT:        const unsigned int col = col_first + lane;
// CHECK-NEXT:        if (col < pitch / (unsigned int)blockDim.x * (unsigned int)blockDim.x) {
// CHECK-NEXT:          for (unsigned r = 0; r < TILE; r += ROWS)
// CHECK-NEXT:            dst[(row + r) * pitch + col] = src[(row + r) * pitch + col];
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }

// CHECK-LABEL: __global__ void axpy_exact(
// CHECK:         const long i_first = ((long)blockIdx.x * blockDim.x + threadIdx.x) * 2;
// CHECK-NEXT:    if (i_first + 2 <= n / (long)blockDim.x * (long)blockDim.x &&
// CHECK:           const double2 x_v_q = *reinterpret_cast<const double2 *>(x + i_first);
// CHECK:         } else {
// CHECK:             if (i < n / (long)blockDim.x * (long)blockDim.x) {
// CHECK-NEXT:          y[i] += a * x[i];

// CHECK-LABEL: __global__ void scale_upto(
// CHECK:         if (i_first + 4 <= n && i_first + 4 <= (1000 + (int)blockDim.x - 1) / (int)blockDim.x * (int)blockDim.x &&
// CHECK:             if ((i < n) && i < (1000 + (int)blockDim.x - 1) / (int)blockDim.x * (int)blockDim.x) {

// The grids have ceil(G / width) blocks, divided where they are written.
// CHECK: dim3 grid(((w / TILE) + 4 - 1) / 4, h / TILE);
// CHECK: axpy_exact<<<((n / threads) + 2 - 1) / 2, threads>>>(2.0, x, y, n);
// CHECK: round_up<<<(m + 255) / 256, 256>>>(v, m);
// CHECK: scale_upto<<<(((N_MAX + 127) / 128) + 4 - 1) / 4, 128>>>(v, m);
