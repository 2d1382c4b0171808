// warp-reduce on work made of several loops in sequence (per-row
// statistics: a loop for one sum, statements that use it, a loop for the
// next): every loop is shared by the G lanes of a group; after each loop but
// the last the lanes' sums are added into every lane (a butterfly, so the
// statements between loops see the whole sum in every lane), after the last
// into lane 0, which alone writes the outputs. A loop after the sums that
// writes an element of its own per iteration (layer normalization's output
// loop) is split among the lanes too, with no sum to add. Also a template
// kernel whose sums have the template's type: what the launches
// instantiate it with.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"row_scaled_energy.warp_reduce": 16, "mean_var.warp_reduce": 32, "normalize_rows.warp_reduce": 8}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
#include <cuda_runtime.h>

typedef double real;
#define ROWS 4096
#define COLS 1000

// C style: the loop counter declared before the loops, a typedef'd type.
__global__ void row_scaled_energy(const real *a, real *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int j;
  if (r < ROWS) {
    real s1 = 0.0;
    for (j = 0; j < COLS; j++)
      s1 += fabs(a[r * COLS + j]);
    real scale = s1 > 0.0 ? 1.0 / s1 : 1.0;
    real s2 = 0.0;
    for (j = 0; j < COLS; j++)
      s2 += a[r * COLS + j] * a[r * COLS + j] * scale;
    out[r] = s2;
  }
}

// C++ style: a template launched with two types.
template <typename T>
__global__ void mean_var(const T *x, T *mean, T *var, int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  T sum = T(0);
  for (int c = 0; c < cols; ++c)
    sum += x[row * cols + c];
  const T m = sum / cols;
  T sq = T(0);
  for (int c = 0; c < cols; ++c) {
    const T d = x[row * cols + c] - m;
    sq += d * d;
  }
  mean[row] = m;
  var[row] = sq / cols;
}

// Refused: the mean is written between the loops, where every lane of a
// group would write it.
__global__ void mean_written_early(const float *x, float *mean, float *var,
                                   int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; c++)
      s += x[row * cols + c];
    mean[row] = s / cols;
    float q = 0.0f;
    for (int c = 0; c < cols; c++)
      q += x[row * cols + c] * x[row * cols + c];
    var[row] = q / cols - mean[row] * mean[row];
  }
}

// Refused: the first loop's counter is read after it, where each lane would
// have its own final value.
__global__ void counter_read_later(const float *x, float *out, int rows,
                                   int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    int c;
    float s = 0.0f;
    for (c = 0; c < cols; c++)
      s += x[row * cols + c];
    float t = 0.0f;
    for (int k = 0; k < cols; k++)
      t += x[row * cols + k] * s;
    out[row] = t + c;
  }
}

// Layer normalization's shape: two sums, then a loop writing the row, then
// a statement lane 0 alone runs once the lanes have met.
__global__ void normalize_rows(const float *x, const float *gamma, float *y,
                               float *rstd, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float mean = 0.0f;
  for (int c = 0; c < cols; ++c)
    mean += x[r * cols + c];
  mean /= cols;
  float var = 0.0f;
  for (int c = 0; c < cols; ++c)
    var += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
  float inv = rsqrtf(var / cols + 1e-5f);
  for (int c = 0; c < cols; ++c)
    y[r * cols + c] = (x[r * cols + c] - mean) * inv * gamma[c];
  rstd[r] = inv;
}

// Refused: the writing loop reads the row it writes one element ahead,
// which another lane may already have overwritten.
__global__ void shift_rows(float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += y[r * cols + c];
  for (int c = 0; c + 1 < cols; ++c)
    y[r * cols + c] = y[r * cols + c + 1] - s;
}

int main() {
  real *a, *o;
  cudaMalloc(&a, ROWS * COLS * sizeof(real));
  cudaMalloc(&o, ROWS * sizeof(real));
  row_scaled_energy<<<ROWS / 128, 128>>>(a, o);
  float *xf, *mf, *vf;
  double *xd, *md, *vd;
  cudaMalloc(&xf, 1 << 20);
  cudaMalloc(&mf, 1 << 12);
  cudaMalloc(&vf, 1 << 12);
  cudaMalloc(&xd, 1 << 20);
  cudaMalloc(&md, 1 << 12);
  cudaMalloc(&vd, 1 << 12);
  mean_var<float><<<4, 256>>>(xf, mf, vf, 1024, 256);
  mean_var<double><<<2, 256>>>(xd, md, vd, 512, 256);
  mean_written_early<<<4, 256>>>(xf, mf, vf, 1024, 256);
  counter_read_later<<<4, 256>>>(xf, mf, 1024, 256);
  float *rs;
  cudaMalloc(&rs, 1 << 12);
  normalize_rows<<<4, 256>>>(xf, mf, vf, rs, 1024, 256);
  shift_rows<<<4, 256>>>(vf, 1024, 256);
  cudaDeviceSynchronize();
  return 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "row_scaled_energy.warp_reduce"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "mean_var.warp_reduce"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "normalize_rows.warp_reduce"
// KNOBS-DAG: reason = "loop L1 reads 'y' at {{.*}}warp-reduce-loops.cu:{{[0-9]+}}:23 at another element than it writes, which another lane may write first"
// KNOBS-DAG: kernels[1].thread_mapping.sequential_loops[1] = "L1"
// KNOBS-DAG: kernels[1].loops[0].accumulator_type = "double, float"
// KNOBS-DAG: reason = "'mean[row]' at {{.*}}warp-reduce-loops.cu:{{[0-9]+}}:5 writes memory before the last of the work's loops, where every lane of a group would write it"
// KNOBS-DAG: reason = "loop L0 at {{.*}}warp-reduce-loops.cu:{{[0-9]+}}:5 cannot give each lane every G-th iteration: 'c' is read at {{.*}}warp-reduce-loops.cu:{{[0-9]+}}:20, outside the loops that assign it, and the tiled loop counts with a variable of its own"

// CHECK-LABEL: __global__ void row_scaled_energy(
// CHECK:         const unsigned lane = threadIdx.x % 16;
// CHECK:         int r = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
// CHECK:           if (lane != 0)
// CHECK-NEXT:        s1 = 0;
// CHECK-NEXT:      for (j = (0) + lane; j < COLS; j += 16)
// CHECK-NEXT:        s1 += fabs(a[r * COLS + j]);
// CHECK-NEXT:      for (int offset = 8; offset > 0; offset /= 2)
// CHECK-NEXT:        s1 += __shfl_xor_sync(group_mask, s1, offset, 16);
// CHECK-NEXT:      real scale = s1 > 0.0 ? 1.0 / s1 : 1.0;
// CHECK:           for (j = (0) + lane; j < COLS; j += 16)
// CHECK-NEXT:        s2 += a[r * COLS + j] * a[r * COLS + j] * scale;
// CHECK-NEXT:      for (int offset = 8; offset > 0; offset /= 2)
// CHECK-NEXT:        s2 += __shfl_down_sync(group_mask, s2, offset, 16);
// CHECK-NEXT:      if (lane == 0) {
// CHECK-NEXT:      out[r] = s2;
// CHECK-NEXT:      }
// CHECK-LABEL: __global__ void mean_var(
// CHECK:         const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK:         for (int c = (0) + lane; c < cols; c += 32)
// CHECK-NEXT:      sum += x[row * cols + c];
// CHECK-NEXT:    for (int offset = 16; offset > 0; offset /= 2)
// CHECK-NEXT:      sum += __shfl_xor_sync(group_mask, sum, offset, 32);
// CHECK:         sq += __shfl_down_sync(group_mask, sq, offset, 32);
// CHECK-NEXT:    if (lane == 0) {
// CHECK-NEXT:    mean[row] = m;
// CHECK-NEXT:    var[row] = sq / cols;
// CHECK-NEXT:    }
// CHECK-LABEL: __global__ void normalize_rows(
// CHECK:         mean += __shfl_xor_sync(group_mask, mean, offset, 8);
// CHECK:         var += __shfl_xor_sync(group_mask, var, offset, 8);
// CHECK-NEXT:    float inv = rsqrtf(var / cols + 1e-5f);
// CHECK-NEXT:    for (int c = (0) + lane; c < cols; c += 8)
// CHECK-NEXT:      y[r * cols + c] = (x[r * cols + c] - mean) * inv * gamma[c];
// CHECK-NEXT:    __syncwarp(group_mask);
// CHECK-NEXT:    if (lane == 0) {
// CHECK-NEXT:    rstd[r] = inv;
// CHECK-NEXT:    }
// CHECK-LABEL: int main()
// CHECK:         row_scaled_energy<<<{{.*}}16{{.*}}, 128>>>(a, o);
// CHECK:         mean_var<float><<<{{.*}}32{{.*}}, 256>>>(xf, mf, vf, 1024, 256);
// CHECK:         mean_var<double><<<{{.*}}32{{.*}}, 256>>>(xd, md, vd, 512, 256);
