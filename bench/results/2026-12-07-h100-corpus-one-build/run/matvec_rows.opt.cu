// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 16:58 UTC.
// Rewrites, all kernels: nvcc-flags nvcc.extra_device_vectorization = true
// Rewrites, kernel matvec_rows: warp-reduce matvec_rows.warp_reduce = 32
// Measured (the program's GPU time (every launch of every kernel)): 0.1073 ms (IQR 0.0002 ms) against 0.7272 ms (IQR 0.0013 ms) for the original: 6.78x (at least 6.74x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: build this variant with nvcc -extra-device-vectorization
/* matvec_rows: y = A x, 8192 x 8192 floats, one thread per row looping over it; C style. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CUDA_CALL(call)                                                        \
  do {                                                                         \
    cudaError_t err = (call);                                                  \
    if (err != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err));                                        \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

#define N_DEFAULT 8192
#define BLOCK_SIZE 128
#define CHECK_EVERY 16 /* rows checked on the CPU: every 16th */

typedef float real_t;

__global__ void matvec_rows(const real_t *A, const real_t *x, real_t *y,
                            int n) {
  // cuda-rewrite-opt: 32 lanes share each thread's loop
  const unsigned lane = threadIdx.x % 32;
  const unsigned group_mask = 0xffffffffu;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int j;
  real_t sum;
  if (row < n) {
    sum = 0.0f;
    if (lane != 0)
      sum = 0;
    for (j = (0) + lane; j < n; j += 32)
      sum += A[row * n + j] * x[j];
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(group_mask, sum, offset, 32);
    if (lane == 0) {
    y[row] = sum;
    }
  }
}

static unsigned int lcg_state = 3;

/* uniform in [0, 1) from a linear congruential generator (rand() is slow) */
static real_t lcg_uniform(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return (real_t)((lcg_state >> 8) * (1.0f / 16777216.0f));
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : N_DEFAULT; /* n * n must fit in an int */
  size_t bytes_A = (size_t)n * n * sizeof(real_t);
  size_t bytes_v = (size_t)n * sizeof(real_t);
  real_t *h_A, *h_x, *h_y;
  real_t *d_A, *d_x, *d_y;
  int i, j, bad, checked;
  double ref, mag, tol;

  h_A = (real_t *)malloc(bytes_A);
  h_x = (real_t *)malloc(bytes_v);
  h_y = (real_t *)malloc(bytes_v);
  if (!h_A || !h_x || !h_y) {
    fprintf(stderr, "out of host memory\n");
    return 2;
  }
  for (i = 0; i < n * n; i++)
    h_A[i] = lcg_uniform();
  for (i = 0; i < n; i++)
    h_x[i] = lcg_uniform();

  CUDA_CALL(cudaMalloc((void **)&d_A, bytes_A));
  CUDA_CALL(cudaMalloc((void **)&d_x, bytes_v));
  CUDA_CALL(cudaMalloc((void **)&d_y, bytes_v));
  CUDA_CALL(cudaMemcpy(d_A, h_A, bytes_A, cudaMemcpyHostToDevice));
  CUDA_CALL(cudaMemcpy(d_x, h_x, bytes_v, cudaMemcpyHostToDevice));
  CUDA_CALL(cudaMemset(d_y, 0xff, bytes_v)); /* NaN: unwritten rows fail */

  matvec_rows<<<(((n + BLOCK_SIZE - 1) / BLOCK_SIZE) * 32), BLOCK_SIZE>>>(d_A, d_x,
                                                                  d_y, n);
  CUDA_CALL(cudaGetLastError());
  CUDA_CALL(cudaMemcpy(h_y, d_y, bytes_v, cudaMemcpyDeviceToHost));

  /* Every CHECK_EVERY-th row and the last, in double. The terms are positive,
     so sum|terms| is the sum itself; fp32 accumulation of 8192 such terms,
     serial or in lane groups, is off by ~1e-6 of it, well within 1e-4. */
  bad = 0;
  checked = 0;
  for (i = 0; i < n; i++) {
    if (i % CHECK_EVERY != 0 && i != n - 1)
      continue;
    ref = 0.0;
    mag = 0.0;
    for (j = 0; j < n; j++) {
      double t = (double)h_A[(size_t)i * n + j] * (double)h_x[j];
      ref += t;
      mag += fabs(t);
    }
    tol = 1e-4 * mag + 1e-6;
    if (!(fabs((double)h_y[i] - ref) <= tol)) {
      if (bad < 5)
        fprintf(stderr, "row %d: got %.8g, expected %.8g\n", i, (double)h_y[i],
                ref);
      bad++;
    }
    checked++;
  }
  printf("%s matvec_rows (%d of %d checked rows wrong, n = %d)\n",
         bad ? "FAILED" : "PASSED", bad, checked, n);

  cudaFree(d_A);
  cudaFree(d_x);
  cudaFree(d_y);
  free(h_A);
  free(h_x);
  free(h_y);
  return bad ? 1 : 0;
}
