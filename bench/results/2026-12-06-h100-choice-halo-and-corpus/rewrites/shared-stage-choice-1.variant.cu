// shared-stage "halo" on neighbours chosen between flattened indices: the
// kernel computes its element's offset once (`size_t c = ...`, from the
// builtins themselves or from its row and column) and picks each neighbour
// with `?:` between c and c +- 1 or c +- the row pitch, through locals that
// keep their value. Every alternative is affine and the thread's element
// moved by a constant row and column, so the read's row and column are the
// same choice over `y + dy` and `x + dx`, and it takes that tile cell when
// the loader loaded it. The blocks keep their outputs, so builtins read
// outside the thread index (the flattened offset) are no obstacle.
// Refused: a condition reading a variable the kernel changes afterwards (at
// the read it may choose differently) or a name a local also declares, an
// alternative farther than the halo. Also checked: a centre read that
// spells the builtins itself (the loader must not reuse its text), a
// condition that is itself a choice (kept in parentheses), a 64-bit line
// index (the block's first element computed in 64 bits). The program
// checks itself against the CPU (bench/memory-generality-gpu.sh runs it on
// the GPU).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"gradient_mag.shared_stage": "halo", "reflect_smooth.shared_stage": "halo", "corner_pick.shared_stage": "halo", "spelled_centre.shared_stage": "halo", "long_line.shared_stage": "halo"}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: %strip-checks < %t.cu | FileCheck %s
// RUN: nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

typedef double real;

#define BW 32
#define BH 4

// Central differences with one-sided ones at the image edge; the offset is
// flattened from the builtins, not from ix and iy.
__global__ void gradient_mag(const real *__restrict__ f, real *g, int nx,
                             int ny) {
  const int ix = blockIdx.x * blockDim.x + threadIdx.x;
  const int iy = blockIdx.y * blockDim.y + threadIdx.y;
  // cuda-rewrite-opt: 'f' and a halo of 1 row(s), 1 column(s) staged in shared memory
  __shared__ real f_tile[6][34];
  for (int e = threadIdx.y * 32 + threadIdx.x; e < 204; e += 128) {
    const int tr = e / 34, tc = e % 34;
    const int ix = blockIdx.x * 32 + tc - 1;
    const int iy = blockIdx.y * 4 + tr - 1;
    if (ix >= 0 && iy >= 0 && ix < nx && iy < ny)
      f_tile[tr][tc] = f[(long long)(nx) * iy + ix];
  }
  __syncthreads();
  if (ix >= nx)
    return;
  if (iy >= ny)
    return;
  const size_t c = (size_t)(blockIdx.y * blockDim.y + threadIdx.y) * nx +
                   blockIdx.x * blockDim.x + threadIdx.x;
  const size_t west = (ix > 0) ? c - 1 : c;
  const size_t east = (ix < nx - 1) ? c + 1 : c;
  const size_t north = (iy > 0) ? c - nx : c;
  const size_t south = (iy < ny - 1) ? c + nx : c;
  const real gx = ((ix < nx - 1 ? ix + 1 : ix) >= 0 && (ix < nx - 1 ? ix + 1 : ix) < nx && (iy) >= 0 && (iy) < ny ? f_tile[(iy) - (int)blockIdx.y * 4 + 1][(ix < nx - 1 ? ix + 1 : ix) - (int)blockIdx.x * 32 + 1] : f[east]) - ((ix > 0 ? ix - 1 : ix) >= 0 && (ix > 0 ? ix - 1 : ix) < nx && (iy) >= 0 && (iy) < ny ? f_tile[(iy) - (int)blockIdx.y * 4 + 1][(ix > 0 ? ix - 1 : ix) - (int)blockIdx.x * 32 + 1] : f[west]);
  const real gy = ((ix) >= 0 && (ix) < nx && (iy < ny - 1 ? iy + 1 : iy) >= 0 && (iy < ny - 1 ? iy + 1 : iy) < ny ? f_tile[(iy < ny - 1 ? iy + 1 : iy) - (int)blockIdx.y * 4 + 1][(ix) - (int)blockIdx.x * 32 + 1] : f[south]) - ((ix) >= 0 && (ix) < nx && (iy > 0 ? iy - 1 : iy) >= 0 && (iy > 0 ? iy - 1 : iy) < ny ? f_tile[(iy > 0 ? iy - 1 : iy) - (int)blockIdx.y * 4 + 1][(ix) - (int)blockIdx.x * 32 + 1] : f[north]);
  g[c] = sqrt(gx * gx + gy * gy) + 0.25 * f_tile[threadIdx.y + 1][threadIdx.x + 1];
}

// Reflecting boundary: the neighbour beyond the edge is the one inside it
// (nested choices); rows and columns from the index variables.
__global__ void reflect_smooth(const float *in, float *out, int w, int h) {
  int col = threadIdx.x + blockIdx.x * blockDim.x;
  int row = threadIdx.y + blockIdx.y * blockDim.y;
  // cuda-rewrite-opt: 'in' and a halo of 0 row(s), 1 column(s) staged in shared memory
  __shared__ float in_tile[4][34];
  for (int e = threadIdx.y * 32 + threadIdx.x; e < 136; e += 128) {
    const int tr = e / 34, tc = e % 34;
    const int col = blockIdx.x * 32 + tc - 1;
    const int row = blockIdx.y * 4 + tr - 0;
    if (col >= 0 && row >= 0 && col < w && row < h)
      in_tile[tr][tc] = in[(w) * row + col];
  }
  __syncthreads();
  if (col < w && row < h) {
    int c = row * w + col;
    int l = col == 0 ? c + 1 : (col == w - 1 ? c - 1 : c - 1);
    int r = col == w - 1 ? c - 1 : c + 1;
    out[c] = 0.5f * in_tile[threadIdx.y + 0][threadIdx.x + 1] + 0.25f * (((col == 0 ? col + 1 : col - 1) >= 0 && (col == 0 ? col + 1 : col - 1) < w && (row) >= 0 && (row) < h ? in_tile[(row) - (int)blockIdx.y * 4 + 0][(col == 0 ? col + 1 : col - 1) - (int)blockIdx.x * 32 + 1] : in[l]) + ((col == w - 1 ? col - 1 : col + 1) >= 0 && (col == w - 1 ? col - 1 : col + 1) < w && (row) >= 0 && (row) < h ? in_tile[(row) - (int)blockIdx.y * 4 + 0][(col == w - 1 ? col - 1 : col + 1) - (int)blockIdx.x * 32 + 1] : in[r]));
  }
}

// The condition's variable changes after the choice: evaluated at the read
// it could choose the other neighbour.
__global__ void late_flag(const float *in, float *out, int w, int h) {
  int col = threadIdx.x + blockIdx.x * blockDim.x;
  int row = threadIdx.y + blockIdx.y * blockDim.y;
  if (col < w && row < h) {
    int c = row * w + col;
    int edge = col == w - 1;
    int r = edge ? c : c + 1;
    edge = 0;
    out[c] = in[c] + in[r] + edge;
  }
}

// The alternative reaches 6 columns: wider than a tile's halo.
__global__ void far_pick(const float *in, float *out, int w, int h) {
  int col = threadIdx.x + blockIdx.x * blockDim.x;
  int row = threadIdx.y + blockIdx.y * blockDim.y;
  if (col < w && row < h) {
    int c = row * w + col;
    int r = col + 6 < w ? c + 6 : c;
    out[c] = in[c] + in[r];
  }
}

// The condition is itself a choice: row 0 looks at the first column, the
// other rows at the last.
__global__ void corner_pick(const float *in, float *out, int w, int h) {
  int col = threadIdx.x + blockIdx.x * blockDim.x;
  int row = threadIdx.y + blockIdx.y * blockDim.y;
  if (col < w && row < h) {
    int c = row * w + col;
    int r = (row == 0 ? col == 0 : col == w - 1) ? c : c + 1;
    out[c] = in[c] + 2 * in[r];
  }
}

// The centre read spells the builtins instead of col and row.
__global__ void spelled_centre(const float *in, float *out, int w, int h) {
  int col = threadIdx.x + blockIdx.x * blockDim.x;
  int row = threadIdx.y + blockIdx.y * blockDim.y;
  if (col < w - 1 && row < h)
    out[row * w + col] =
        in[(blockIdx.y * blockDim.y + threadIdx.y) * w +
           blockIdx.x * blockDim.x + threadIdx.x] +
        2 * in[row * w + col + 1];
}

// A 64-bit line index with one-sided neighbours at the ends.
__global__ void long_line(const float *in, float *out, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  long l = i > 0 ? i - 1 : i;
  long r = i < n - 1 ? i + 1 : i;
  out[i] = in[l] + 2 * in[i] + 3 * in[r];
}

// The condition names the parameter 's', which the loop's own 's' hides
// at the read.
__global__ void hidden_param(const float *in, float *out, int w, int h,
                             int s) {
  int col = threadIdx.x + blockIdx.x * blockDim.x;
  int row = threadIdx.y + blockIdx.y * blockDim.y;
  if (col < w && row < h) {
    int c = row * w + col;
    int r = col + s >= w ? c : c + 1;
    float acc = 0;
    for (int s = 0; s < 3; ++s)
      acc += in[r] * s;
    out[c] = in[c] + acc;
  }
}

int main() {
  const int w = 203, h = 53, n = w * h; // no block extent divides them
  real *hf = (real *)malloc(n * sizeof(real)), *hg = (real *)malloc(n * sizeof(real));
  float *ha = (float *)malloc(n * sizeof(float)), *hs = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    hf[i] = (i * 29 % 97) * 0.05;
    ha[i] = (i * 13 % 61) * 0.1f;
  }
  real *df, *dg;
  float *da, *ds, *dz, *dc, *dp, *dl;
  cudaMalloc(&df, n * sizeof(real));
  cudaMalloc(&dg, n * sizeof(real));
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&ds, n * sizeof(float));
  cudaMalloc(&dz, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMalloc(&dp, n * sizeof(float));
  cudaMalloc(&dl, n * sizeof(float));
  float *hc = (float *)malloc(n * sizeof(float)), *hp = (float *)malloc(n * sizeof(float)),
        *hl = (float *)malloc(n * sizeof(float));
  cudaMemcpy(df, hf, n * sizeof(real), cudaMemcpyHostToDevice);
  cudaMemcpy(da, ha, n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(BW, BH), grid((w + BW - 1) / BW, (h + BH - 1) / BH);
  gradient_mag<<<grid, block>>>(df, dg, w, h);
  reflect_smooth<<<grid, block>>>(da, ds, w, h);
  late_flag<<<grid, block>>>(da, dz, w, h);
  far_pick<<<grid, block>>>(da, dz, w, h);
  corner_pick<<<grid, block>>>(da, dc, w, h);
  cudaMemset(dp, 0, n * sizeof(float));
  spelled_centre<<<grid, block>>>(da, dp, w, h);
  long_line<<<(n + 127) / 128, 128>>>(da, dl, (long)n);
  hidden_param<<<grid, block>>>(da, dz, w, h, 1);
  cudaMemcpy(hc, dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hp, dp, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hl, dl, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hg, dg, n * sizeof(real), cudaMemcpyDeviceToHost);
  cudaMemcpy(hs, ds, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    fprintf(stderr, "CUDA error\n");
    return 2;
  }
  int bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int c = y * w + x;
      double gx = hf[x < w - 1 ? c + 1 : c] - hf[x > 0 ? c - 1 : c];
      double gy = hf[y < h - 1 ? c + w : c] - hf[y > 0 ? c - w : c];
      double rg = sqrt(gx * gx + gy * gy) + 0.25 * hf[c];
      bad += fabs(hg[c] - rg) > 1e-12;
      int l = x == 0 ? c + 1 : c - 1, r = x == w - 1 ? c - 1 : c + 1;
      double rs = 0.5 * ha[c] + 0.25 * (ha[l] + ha[r]);
      bad += fabs(hs[c] - rs) > 1e-5;
      int q = (y == 0 ? x == 0 : x == w - 1) ? c : c + 1;
      bad += fabs(hc[c] - (ha[c] + 2 * ha[q])) > 1e-5;
      float rp = x < w - 1 ? ha[c] + 2 * ha[c + 1] : 0.f;
      bad += fabs(hp[c] - rp) > 1e-5;
      int il = c > 0 ? c - 1 : c, ir = c < n - 1 ? c + 1 : c;
      bad += fabs(hl[c] - (ha[il] + 2 * ha[c] + 3 * ha[ir])) > 1e-5;
    }
  printf("%s (%d mismatches)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "gradient_mag.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "reflect_smooth.shared_stage"
// KNOBS-DAG: reason = "{{.*}}'in' at {{.*}}shared-stage-choice.cu:77:22 is read at an index neither affine nor provably near the thread's element (the condition 'edge' of its choice reads 'edge', which the kernel changes: at the read it may choose otherwise))"
// KNOBS-DAG: reason = "{{.*}}'in' at {{.*}}shared-stage-choice.cu:88:22 is read up to 6 elements from the thread's (at most 4 are staged))"
// KNOBS-DAG: reason = "{{.*}}the condition 'col + s >= w' of its choice reads 's', a name the kernel declares for two variables))"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "corner_pick.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "spelled_centre.shared_stage"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "long_line.shared_stage"

// CHECK:      __shared__ real f_tile[6][34];
// CHECK:        f_tile[tr][tc] = f[(long long)(nx) * iy + ix];
// CHECK:      __syncthreads();
// CHECK-NEXT: if (ix >= nx)
// CHECK:      const real gx = ((ix < nx - 1 ? ix + 1 : ix) >= 0 && (ix < nx - 1 ? ix + 1 : ix) < nx && (iy) >= 0 && (iy) < ny ? f_tile[(iy) - (int)blockIdx.y * 4 + 1][(ix < nx - 1 ? ix + 1 : ix) - (int)blockIdx.x * 32 + 1] : f[east])
// CHECK-SAME: - ((ix > 0 ? ix - 1 : ix) >= 0
// CHECK:      const real gy = ((ix) >= 0 && (ix) < nx && (iy < ny - 1 ? iy + 1 : iy) >= 0
// CHECK:      g[c] = sqrt(gx * gx + gy * gy) + 0.25 * f_tile[threadIdx.y + 1][threadIdx.x + 1];
// CHECK:      __shared__ float in_tile[4][34];
// CHECK:        in_tile[tr][tc] = in[(w) * row + col];
// CHECK:      out[c] = 0.5f * in_tile[threadIdx.y + 0][threadIdx.x + 1] + 0.25f * (((col == 0 ? col + 1 : col - 1) >= 0
// CHECK-SAME: in_tile[(row) - (int)blockIdx.y * 4 + 0][(col == 0 ? col + 1 : col - 1) - (int)blockIdx.x * 32 + 1] : in[l])
// CHECK-SAME: in_tile[(row) - (int)blockIdx.y * 4 + 0][(col == w - 1 ? col - 1 : col + 1) - (int)blockIdx.x * 32 + 1] : in[r])
// CHECK:      in_tile[tr][tc] = in[(w) * row + col];
// CHECK:      out[c] = in_tile[threadIdx.y + 0][threadIdx.x + 1] + 2 * (((row == 0 ? col == 0 : col == w - 1) ? col : col + 1) >= 0
// The loader redeclares col and row; the builtins would give its own element.
// CHECK:      in_tile[tr][tc] = in[(w) * row + col];
// CHECK:      const long i = (long long)blockIdx.x * 128 + tc - 1;
// CHECK:      out[i] = ((l) >= 0 && (l) < n ? in_tile[(l) - (long long)blockIdx.x * 128 + 1] : in[l])
// CHECK-NOT:  __shared__
