// Kernels of test/frontend/kernels-in-included-file.cu, included as a .cu.
#include "included-params.h"

__global__ void scale_rows(float *m, const float *s, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y;
  if (c < cols && r < rows)
    m[r * cols + c] *= s[r];
}

// Reads THREADS, the main file's block size for `fill`.
__global__ void per_block_first(const float *m, float *firsts, int n) {
  int i = blockIdx.x * THREADS;
  if (i < n && threadIdx.x == 0)
    firsts[blockIdx.x] = m[i];
}

static void launch_scale(float *m, const float *s, int rows, int cols) {
  dim3 block(128);
  dim3 grid((cols + 127) / 128, rows);
  scale_rows<<<grid, block>>>(m, s, rows, cols);
}
