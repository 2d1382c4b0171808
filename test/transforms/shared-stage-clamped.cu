// shared-stage "halo" on neighbours read through coordinates the kernel
// clamps or chooses (not affine): each coordinate provably stays within a
// constant distance of the thread's own wherever the guard holds (interval
// arithmetic, NeighbourReads.h), so the read takes the tile cell of its
// row and column when the loader loaded it. The loader is safe because the
// iteration of the neighbourhood loops where dy and dx are 0 reads the
// thread's own element, and every iteration runs. Refused: a clamp against
// a bound not known to lie beyond the thread, a reach wider than the tile's
// halo, a loop that may stop early. The program checks itself against the
// CPU (bench/memory-generality-gpu.sh runs it on the GPU).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: %cro %s --analyze --kernel shadowed | %flatten | FileCheck %s --check-prefix=SHADOW
// RUN: echo '{"sharpen.shared_stage": "halo", "smooth_line.shared_stage": "halo", "edge_x.shared_stage": "halo"}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: %strip-checks < %t.cu | FileCheck %s
// RUN: nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define TX 32
#define TY 8
#define RADIUS 2

// 3 x 3 sharpening with the image edge replicated: max(0, min(..)) order.
__global__ void sharpen(const float *img, float *res, int w, int h) {
  int gx = blockIdx.x * blockDim.x + threadIdx.x;
  int gy = blockIdx.y * blockDim.y + threadIdx.y;
  if (gx < w && gy < h) {
    float s = 0.f;
    for (int j = -1; j <= 1; ++j)
      for (int i = -1; i <= 1; ++i) {
        const int sy = max(0, min(gy + j, h - 1));
        const int sx = max(0, min(gx + i, w - 1));
        s += (i == 0 && j == 0 ? 9.f : -1.f) * img[sy * w + sx];
      }
    res[gy * w + gx] = s;
  }
}

// A line smoothed over 2 * RADIUS + 1 points, clamped at both ends.
__global__ void smooth_line(const float *u, float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = 0.f;
  for (int k = -RADIUS; k <= RADIUS; k++)
    acc += u[min(max(i + k, 0), n - 1)];
  v[i] = acc / (2 * RADIUS + 1);
}

// One-sided differences at the edges: the neighbour is chosen by `?:`.
__global__ void edge_x(const float *f, float *d, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  int l = x == 0 ? x : x - 1;
  int r = x == w - 1 ? x : x + 1;
  d[y * w + x] = f[y * w + r] - f[y * w + l] + 0.5f * f[y * w + x];
}

// Clamped to a constant, not to the image: the column stays at 64 while
// the thread's moves on, so the read is not known to be near the
// thread's element.
__global__ void clamp_const(const float *a, float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dx = -1; dx <= 1; ++dx)
    s += a[y * w + min(max(x + dx, 0), 64)];
  b[y * w + x] = s;
}

// Reaches 6 columns each side: wider than a tile's halo.
__global__ void wide(const float *a, float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dx = -6; dx <= 6; ++dx)
    s += a[y * w + min(max(x + dx, 0), w - 1)];
  b[y * w + x] = s;
}

// The loop may stop before dx reaches 0: the thread's own element is not
// certainly read, so loading it for the tile is not known to be safe.
__global__ void early_stop(const float *a, float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dx = -1; dx <= 1; ++dx) {
    float v = a[y * w + min(max(x + dx, 0), w - 1)];
    if (v < 0.f)
      break;
    s += v;
  }
  b[y * w + x] = s;
}

// The row stride's name also names a local of the kernel: a loader that
// writes the stride again cannot be sure which one it names.
__global__ void shadowed(const float *a, float *b, int w, int h, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dx = -1; dx <= 1; ++dx)
    s += a[y * pitch + min(max(x + dx, 0), w - 1)];
  {
    const float pitch = 0.5f;
    s *= pitch;
  }
  b[y * w + x] = s;
}

static float at(const std::vector<float> &a, int w, int h, int y, int x) {
  y = y < 0 ? 0 : y >= h ? h - 1 : y;
  x = x < 0 ? 0 : x >= w ? w - 1 : x;
  return a[y * w + x];
}

int main() {
  const int w = 301, h = 77, n = w * h; // no block extent divides them
  std::vector<float> a(n), s(n), l(n), e(n);
  for (int i = 0; i < n; ++i)
    a[i] = (i * 37 % 101) * 0.01f;
  float *da, *ds, *dl, *de;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&ds, n * sizeof(float));
  cudaMalloc(&dl, n * sizeof(float));
  cudaMalloc(&de, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(TX, TY), grid((w + TX - 1) / TX, (h + TY - 1) / TY);
  sharpen<<<grid, block>>>(da, ds, w, h);
  smooth_line<<<(n + 127) / 128, 128>>>(da, dl, n);
  edge_x<<<grid, block>>>(da, de, w, h);
  clamp_const<<<grid, block>>>(da, de, w, h);
  wide<<<grid, block>>>(da, de, w, h);
  early_stop<<<grid, block>>>(da, de, w, h);
  shadowed<<<grid, block>>>(da, de, w, h, w);
  edge_x<<<grid, block>>>(da, de, w, h);
  cudaMemcpy(s.data(), ds, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(l.data(), dl, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(e.data(), de, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    fprintf(stderr, "CUDA error\n");
    return 2;
  }
  int bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double rs = 0;
      for (int j = -1; j <= 1; ++j)
        for (int i = -1; i <= 1; ++i)
          rs += (i == 0 && j == 0 ? 9.0 : -1.0) * at(a, w, h, y + j, x + i);
      int lx = x == 0 ? x : x - 1, rx = x == w - 1 ? x : x + 1;
      double re = a[y * w + rx] - a[y * w + lx] + 0.5 * a[y * w + x];
      bad += std::fabs(s[y * w + x] - rs) > 1e-4;
      bad += std::fabs(e[y * w + x] - re) > 1e-5;
    }
  for (int i = 0; i < n; ++i) {
    double rl = 0;
    for (int k = -RADIUS; k <= RADIUS; ++k)
      rl += a[k + i < 0 ? 0 : k + i >= n ? n - 1 : k + i];
    bad += std::fabs(l[i] - rl / (2 * RADIUS + 1)) > 1e-5;
  }
  printf("%s (%d mismatches)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}

// SHADOW: reason = "{{.*}}the row stride of 'a' names 'pitch', a name the kernel declares for two variables: the tile loader cannot write it)"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "sharpen.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "smooth_line.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "edge_x.shared_stage"
// KNOBS-DAG: reason = "{{.*}}'a' at {{.*}}shared-stage-clamped.cu:{{[0-9]+}}:10 is read at an index neither affine nor provably near the thread's element ({{.*}})"
// KNOBS-DAG: reason = "{{.*}}'a' at {{.*}}shared-stage-clamped.cu:{{[0-9]+}}:10 is read up to 6 elements from the thread's (at most 4 are staged))"
// KNOBS-DAG: reason = "{{.*}}the thread's own element of 'a' is not read on every path, so loading it is not known to be safe)"

// CHECK:      __shared__ float img_tile[10][34];
// CHECK:        img_tile[tr][tc] = img[(w) * gy + gx];
// CHECK:      s += (i == 0 && j == 0 ? 9.f : -1.f) * ((sx) >= 0 && (sx) < w && (sy) >= 0 && (sy) < h ? img_tile[(sy) - (int)blockIdx.y * 8 + 1][(sx) - (int)blockIdx.x * 32 + 1] : img[sy * w + sx]);
// CHECK:      __shared__ float u_tile[132];
// CHECK:      acc += ((min(max(i + k, 0), n - 1)) >= 0 && (min(max(i + k, 0), n - 1)) < n ? u_tile[(min(max(i + k, 0), n - 1)) - (int)blockIdx.x * 128 + 2] : u[min(max(i + k, 0), n - 1)]);
// CHECK:      __shared__ float f_tile[8][34];
// CHECK:      d[y * w + x] = ((r) >= 0 && (r) < w && (y) >= 0 && (y) < h ? f_tile[(y) - (int)blockIdx.y * 8 + 0][(r) - (int)blockIdx.x * 32 + 1] : f[y * w + r])
