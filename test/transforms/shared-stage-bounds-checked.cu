// shared-stage "halo" on neighbours at affine offsets moved by small loops'
// variables (`img[(row + i) * width + col + j]` over i, j in [-R, R]) and
// read only inside a bounds check of the neighbour's coordinates (zero
// padding). The check passes in the iteration where the loop variables are
// 0 for any thread inside the guard (coordinates at least 0, below the
// guard's bounds), so that iteration reads the thread's own element and
// loading it for the tile is safe. A filter read at the same element by
// every thread stays a global read. (The 1-D taps loop is a reduction
// whose tap array every thread reads alike: it is staged as a contraction
// operand instead.) Refused: a check tighter than the guard
// (the centre may be skipped), a neighbourhood loop that does not reach
// offset 0. The program checks itself against the CPU
// (bench/memory-generality-gpu.sh runs it on the GPU).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: %cro %s --analyze --kernel inner_only | %flatten | FileCheck %s --check-prefix=EDGE
// RUN: %cro %s --analyze --kernel right_only | %flatten | FileCheck %s --check-prefix=EDGE
// RUN: echo '{"blur.shared_stage": "halo", "taps_1d.shared_stage": 32, "box_sum.shared_stage": "halo"}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: %strip-checks < %t.cu | FileCheck %s
// RUN: nvcc -arch=sm_90 -I %S -c %t.cu -o %t.o
#include "Inputs/bounds-checked-sizes.h"
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

typedef float pixel_t;

// 2-D zero-padded filter, the bound check written bound-first.
__global__ void blur(const pixel_t *__restrict__ img,
                     const pixel_t *__restrict__ weights, pixel_t *out,
                     int width, int height) {
  const int col = blockIdx.x * TILE_W + threadIdx.x;
  const int row = blockIdx.y * TILE_H + threadIdx.y;
  if (row < height && col < width) {
    pixel_t sum = 0;
    for (int i = -HALF; i <= HALF; i++) {
      for (int j = -HALF; j <= HALF; j++) {
        if (0 <= row + i && row + i < height && 0 <= col + j &&
            width > col + j)
          sum += weights[(i + HALF) * KSIZE + (j + HALF)] *
                 img[(row + i) * width + (col + j)];
      }
    }
    out[row * width + col] = sum;
  }
}

// 1-D taps, the neighbour in a local, the check `> -1` and `<= n - 1`.
__global__ void taps_1d(const float *in, const float *taps, float *res,
                        unsigned n) {
  int t = threadIdx.x + blockDim.x * blockIdx.x;
  if (t >= (int)n)
    return;
  float acc = 0.f;
  for (int k = -HALF; k < HALF + 1; ++k) {
    int s = t + k;
    if (s > -1 && s <= (int)n - 1)
      acc += taps[k + HALF] * in[s];
  }
  res[t] = acc;
}

// The sum of the neighbours that exist, unrolled by hand in y.
__global__ void box_sum(const float *a, float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dx = -1; dx <= 1; ++dx) {
    int xx = x + dx;
    if (xx >= 0 && xx < w) {
      s += a[y * w + xx];
      if (y > 0)
        s += a[(y - 1) * w + xx];
      if (y + 1 < h)
        s += a[(y + 1) * w + xx];
    }
  }
  b[y * w + x] = s;
}

// The check keeps one column off the right edge: in the last column the
// thread's own element is never read.
__global__ void inner_only(const float *a, float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dx = -1; dx <= 1; ++dx)
    if (x + dx >= 0 && x + dx < w - 1)
      s += a[y * w + x + dx];
  b[y * w + x] = s;
}

// Only the neighbours to the right: offset 0 is never read.
__global__ void right_only(const float *a, float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dx = 1; dx <= 2; ++dx)
    if (x + dx < w)
      s += a[y * w + x + dx];
  b[y * w + x] = s;
}

int main() {
  const int w = 301, h = 77, n = w * h; // no block extent divides them
  std::vector<float> a(n), wt(KSIZE * KSIZE), bl(n), t1(n), bs(n);
  for (int i = 0; i < n; ++i)
    a[i] = (i * 37 % 101) * 0.01f;
  for (int i = 0; i < KSIZE * KSIZE; ++i)
    wt[i] = 0.1f + 0.03f * i;
  float *da, *dw, *dbl, *dt, *dbs, *dx;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&dw, wt.size() * sizeof(float));
  cudaMalloc(&dbl, n * sizeof(float));
  cudaMalloc(&dt, n * sizeof(float));
  cudaMalloc(&dbs, n * sizeof(float));
  cudaMalloc(&dx, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dw, wt.data(), wt.size() * sizeof(float), cudaMemcpyHostToDevice);
  dim3 tile(TILE_W, TILE_H);
  dim3 grid((w + TILE_W - 1) / TILE_W, (h + TILE_H - 1) / TILE_H);
  blur<<<grid, tile>>>(da, dw, dbl, w, h);
  taps_1d<<<(n + 255) / 256, 256>>>(da, dw, dt, n);
  dim3 block(32, 4), grid2((w + 31) / 32, (h + 3) / 4);
  box_sum<<<grid2, block>>>(da, dbs, w, h);
  inner_only<<<grid2, block>>>(da, dx, w, h);
  right_only<<<grid2, block>>>(da, dx, w, h);
  cudaMemcpy(bl.data(), dbl, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(t1.data(), dt, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(bs.data(), dbs, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    fprintf(stderr, "CUDA error\n");
    return 2;
  }
  int bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double rb = 0, rs = 0;
      for (int i = -HALF; i <= HALF; i++)
        for (int j = -HALF; j <= HALF; j++)
          if (y + i >= 0 && y + i < h && x + j >= 0 && x + j < w)
            rb += wt[(i + HALF) * KSIZE + j + HALF] * a[(y + i) * w + x + j];
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (y + dy >= 0 && y + dy < h && x + dx >= 0 && x + dx < w)
            rs += a[(y + dy) * w + x + dx];
      bad += std::fabs(bl[y * w + x] - rb) > 1e-4 * (1 + std::fabs(rb));
      bad += std::fabs(bs[y * w + x] - rs) > 1e-4 * (1 + std::fabs(rs));
    }
  for (int t = 0; t < n; ++t) {
    double r = 0;
    for (int k = -HALF; k <= HALF; ++k)
      if (t + k >= 0 && t + k < n)
        r += wt[k + HALF] * a[t + k];
    bad += std::fabs(t1[t] - r) > 1e-4 * (1 + std::fabs(r));
  }
  printf("%s (%d mismatches)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "blur.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "taps_1d.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "box_sum.shared_stage"
// KNOBS-NOT: knobs[{{[0-9]+}}].id = "inner_only.shared_stage"
// KNOBS-NOT: knobs[{{[0-9]+}}].id = "right_only.shared_stage"
// EDGE: reason = "{{.*}}nor is it a neighbourhood to stage (the thread's own element of 'a' is not read on every path, so loading it is not known to be safe)"

// CHECK:      __shared__ pixel_t img_tile[12][36];
// CHECK:          img_tile[tr][tc] = img[(width) * row + col];
// CHECK:      sum += weights[(i + HALF) * KSIZE + (j + HALF)] *
// CHECK-NEXT:        ((col + j) >= 0 && (col + j) < width && (row + i) >= 0 && (row + i) < height ? img_tile[(row + i) - (int)blockIdx.y * 8 + 2][(col + j) - (int)blockIdx.x * 32 + 2] : img[(row + i) * width + (col + j)]);
// CHECK:      __shared__ float taps_tile[32];
// CHECK:      acc += taps_tile[k - k_tile] * in[s];
// CHECK:      __shared__ float a_tile[6][34];
// CHECK:      s += ((x + dx) >= 0 && (x + dx) < w && (y) >= 0 && (y) < h ? a_tile[(y) - (int)blockIdx.y * 4 + 1][(x + dx) - (int)blockIdx.x * 32 + 1] : a[y * w + xx]);
// CHECK:      s += ((x + dx) >= 0 && (x + dx) < w && (y - 1) >= 0 && (y - 1) < h ? a_tile[(y - 1) - (int)blockIdx.y * 4 + 1][(x + dx) - (int)blockIdx.x * 32 + 1] : a[(y - 1) * w + xx]);
