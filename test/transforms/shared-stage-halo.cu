// shared-stage "halo": a 2-D stencil's neighbourhood of one read-only array
// goes through a shared tile loaded before the guard (so every thread
// reaches the barrier); reads outside the loaded region keep the global
// read. Refused when the thread's own element is not read on every path
// (loading it might not be safe) or the offsets are not constant.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"jacobi.shared_stage": "halo", "jacobi.block": [32, 8]}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: echo '{"smooth5.shared_stage": "halo", "interior.shared_stage": "halo", "line3.shared_stage": "halo"}' > %t.range.json
// RUN: %cro %s --apply %t.range.json -o %t.range.cu && nvcc -arch=sm_90 -c %t.range.cu -o %t.range.o
// RUN: %strip-checks < %t.range.cu | FileCheck %s --check-prefix=RANGE
#include <cuda_runtime.h>

#define BX 32
#define BY 4

__global__ void jacobi(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[y * nx + x] = in[y * nx + x];
    return;
  }
  out[y * nx + x] = 0.25f * (in[y * nx + x - 1] + in[y * nx + x + 1] +
                             in[(y - 1) * nx + x] + in[(y + 1) * nx + x]) +
                    0.5f * in[y * nx + x];
}

__global__ void maybe(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny && x < y)
    out[y * nx + x] = in[y * nx + x] - in[y * nx + x - 1] + in[y * nx + x + 1];
}

__global__ void edges(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  if (x > 0 && x < nx - 1)
    out[y * nx + x] = in[y * nx + x - 1] + in[y * nx + x + 1] + in[y * nx + x];
}

// A guard with lower bounds (the interior only), the index through block
// and thread locals scaled by the launch's constant block size, and the
// element's index through a local: the tile holds the block's part of the
// interior, loaded from the index's affine form.
// A line: 1-D index, early return on both sides, the element read through
// a local; the tile holds the block's elements plus one each side.
typedef float real;
#define LINE_THREADS 128
__global__ void line3(const real *u, real *d2, int len) {
  const int s = threadIdx.x + LINE_THREADS * blockIdx.x;
  if (s < 1 || s >= len - 1)
    return;
  int c = s;
  d2[c] = u[c - 1] - 2 * u[c] + u[c + 1];
}

#define BLOCK_SIZE_X 16
#define BLOCK_SIZE_Y 16
__global__ void smooth5(float *dst, float *src, int nx, int ny) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int i = bx * BLOCK_SIZE_X + tx;
  int j = by * BLOCK_SIZE_Y + ty;
  if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1) {
    int idx = j * nx + i;
    dst[idx] = 0.5f * src[idx] +
               0.125f * (src[idx - 1] + src[idx + 1] + src[idx - nx] +
                         src[idx + nx]);
  }
}

// The interior as the negation of leaving it.
__global__ void interior(const float *t, float *u, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (!(x < 1 || x >= w - 1 || y < 1 || y >= h - 1)) {
    u[y * w + x] = t[y * w + x] + 0.1f * (t[y * w + x - 1] + t[y * w + x + 1] -
                                          2.0f * t[y * w + x]);
  }
}

void run(const float *in, float *out, int nx, int ny) {
  line3<<<(nx + LINE_THREADS - 1) / LINE_THREADS, LINE_THREADS>>>(in, out, nx);
  smooth5<<<dim3((nx + BLOCK_SIZE_X - 1) / BLOCK_SIZE_X,
                 (ny + BLOCK_SIZE_Y - 1) / BLOCK_SIZE_Y),
            dim3(BLOCK_SIZE_X, BLOCK_SIZE_Y)>>>(out, (float *)in, nx, ny);
  interior<<<dim3((nx + 31) / 32, (ny + 7) / 8), dim3(32, 8)>>>(in, out, nx, ny);
  dim3 threads(BX, BY);
  dim3 blocks((nx + BX - 1) / BX, (ny + BY - 1) / BY);
  jacobi<<<blocks, threads>>>(in, out, nx, ny);
  maybe<<<dim3((nx + 15) / 16, (ny + 15) / 16), dim3(16, 16)>>>(in, out, nx, ny);
  edges<<<dim3((nx + 15) / 16, (ny + 15) / 16), dim3(16, 16)>>>(in, out, nx, ny);
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "jacobi.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].values[1] = "halo"
// KNOBS-DAG: reason = "{{.*}}no neighbourhood to stage (the guard is not a range on each thread index with an upper bound on each ('x < nx && y < ny && x < y'))"
// KNOBS-DAG: reason = "{{.*}}no neighbourhood to stage (the thread's own element of 'in' is not read on every path, so loading it is not known to be safe)"

// CHECK:      +  // cuda-rewrite-opt: 'in' and a halo of 1 row(s), 1 column(s) staged in shared memory
// CHECK-NEXT: +  __shared__ float in_tile[10][34];
// CHECK-NEXT: +  for (int e = threadIdx.y * 32 + threadIdx.x; e < 340; e += 256) {
// CHECK-NEXT: +    const int tr = e / 34, tc = e % 34;
// CHECK-NEXT: +    const int x = blockIdx.x * 32 + tc - 1;
// CHECK-NEXT: +    const int y = blockIdx.y * 8 + tr - 1;
// CHECK-NEXT: +    if (x >= 0 && y >= 0 && x < nx && y < ny)
// CHECK-NEXT: +      in_tile[tr][tc] = in[y * nx + x];
// CHECK-NEXT: +  }
// CHECK-NEXT: +  __syncthreads();
// CHECK-NEXT:    if (x >= nx || y >= ny)
// CHECK:      +    out[y * nx + x] = in_tile[threadIdx.y + 1][threadIdx.x + 1];
// CHECK:      +  out[y * nx + x] = 0.25f * ((x >= 1 ? in_tile[threadIdx.y + 1][threadIdx.x + 0] : in[y * nx + x - 1]) + (x + 1 < nx ? in_tile[threadIdx.y + 1][threadIdx.x + 2] : in[y * nx + x + 1]) +

// The interior only: the loader reads the guarded range (the index through
// the local 'idx' is read from its affine form), a neighbour outside it
// is read from global memory.
// RANGE-LABEL: __global__ void line3(
// RANGE:      __shared__ real u_tile[130];
// RANGE-NEXT: for (int tc = threadIdx.x; tc < 130; tc += 128) {
// RANGE-NEXT:   const int s = blockIdx.x * 128 + tc - 1;
// RANGE-NEXT:   if (s >= 0 && s >= 1 && s < len - 1)
// RANGE-NEXT:     u_tile[tc] = u[s];
// RANGE-NEXT: }
// RANGE-NEXT: __syncthreads();
// RANGE:      d2[c] = (s >= (1) + 1 ? u_tile[threadIdx.x + 0] : u[c - 1]) - 2 * u_tile[threadIdx.x + 1] + (s + 1 < len - 1 ? u_tile[threadIdx.x + 2] : u[c + 1]);
// RANGE-LABEL: __global__ void smooth5(
// RANGE:      __shared__ float src_tile[18][18];
// RANGE:      const int i = blockIdx.x * 16 + tc - 1;
// RANGE-NEXT: const int j = blockIdx.y * 16 + tr - 1;
// RANGE-NEXT: if (i >= 0 && j >= 0 && i >= 1 && j >= 1 && i < nx - 1 && j < ny - 1)
// RANGE-NEXT: src_tile[tr][tc] = src[(nx) * j + i];
// RANGE:      __syncthreads();
// RANGE:      0.125f * ((i >= (1) + 1 ? src_tile[threadIdx.y + 1][threadIdx.x + 0] : src[idx - 1]) + (i + 1 < nx - 1 ? src_tile[threadIdx.y + 1][threadIdx.x + 2] : src[idx + 1])
// RANGE-LABEL: __global__ void interior(
// RANGE:      if (x >= 0 && y >= 0 && x >= 1 && y >= 1 && x < w - 1 && y < h - 1)
// RANGE-NEXT: t_tile[tr][tc] = t[y * w + x];
