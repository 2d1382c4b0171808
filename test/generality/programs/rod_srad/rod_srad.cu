/*
 * srad: speckle reducing anisotropic diffusion, in the style of Rodinia's
 * SRAD (v1 image conversion kernels, v2 diffusion kernels without the shared
 * memory tiles). The host computes the ROI statistics every iteration.
 *
 * Usage: rod_srad [rows] [cols] [niter] [lambda]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "srad.h"
#include "srad_ref.h"

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__,         \
              cudaGetErrorString(err_));                                     \
      exit(2);                                                               \
    }                                                                        \
  } while (0)

__global__ void extract(long d_Ne, fp *d_I)
{
  int bx = blockIdx.x;
  int tx = threadIdx.x;
  int ei = (bx * NUMBER_THREADS) + tx;

  if (ei < d_Ne) {
    d_I[ei] = expf(d_I[ei] / 255);
  }
}

__global__ void compress(long d_Ne, fp *d_I)
{
  int bx = blockIdx.x;
  int tx = threadIdx.x;
  int ei = (bx * NUMBER_THREADS) + tx;

  if (ei < d_Ne) {
    d_I[ei] = logf(d_I[ei]) * 255;
  }
}

__global__ void srad_cuda_1(fp *E_C, fp *W_C, fp *N_C, fp *S_C, fp *J_cuda, fp *C_cuda,
                            int cols, int rows, fp q0sqr)
{
  // block id
  int bx = blockIdx.x;
  int by = blockIdx.y;
  // thread id
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  int row = by * BLOCK_SIZE + ty;
  int col = bx * BLOCK_SIZE + tx;
  if (row >= rows || col >= cols)
    return;

  // indices, with the image edge replicated
  size_t index = (size_t)cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + (size_t)cols * ty + tx;
  size_t index_n = (row == 0) ? index : index - (size_t)cols;
  size_t index_s = (row == rows - 1) ? index : index + (size_t)cols;
  size_t index_w = (col == 0) ? index : index - 1;
  size_t index_e = (col == cols - 1) ? index : index + 1;

  fp Jc = J_cuda[index];
  fp n = J_cuda[index_n] - Jc;
  fp s = J_cuda[index_s] - Jc;
  fp w = J_cuda[index_w] - Jc;
  fp e = J_cuda[index_e] - Jc;

  fp g2 = (n * n + s * s + w * w + e * e) / (Jc * Jc);
  fp l = (n + s + w + e) / Jc;
  fp num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
  fp den = 1 + (.25f * l);
  fp qsqr = num / (den * den);

  // diffusion coefficient (equ 33)
  den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
  fp c = 1.0f / (1.0f + den);

  // saturate diffusion coefficient
  if (c < 0) C_cuda[index] = 0;
  else if (c > 1) C_cuda[index] = 1;
  else C_cuda[index] = c;

  E_C[index] = e;
  W_C[index] = w;
  S_C[index] = s;
  N_C[index] = n;
}

__global__ void srad_cuda_2(fp *E_C, fp *W_C, fp *N_C, fp *S_C, fp *J_cuda, fp *C_cuda,
                            int cols, int rows, fp lambda)
{
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  int row = by * BLOCK_SIZE + ty;
  int col = bx * BLOCK_SIZE + tx;
  if (row >= rows || col >= cols)
    return;

  size_t index = (size_t)cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + (size_t)cols * ty + tx;
  size_t index_s = (row == rows - 1) ? index : index + (size_t)cols;
  size_t index_e = (col == cols - 1) ? index : index + 1;

  fp cc = C_cuda[index];
  fp cs = C_cuda[index_s];
  fp ce = C_cuda[index_e];

  // divergence (equ 58), then image update (equ 61)
  fp d_sum = cc * N_C[index] + cs * S_C[index] + cc * W_C[index] + ce * E_C[index];
  J_cuda[index] = J_cuda[index] + 0.25f * lambda * d_sum;
}

int main(int argc, char *argv[])
{
  int rows = argc > 1 ? atoi(argv[1]) : 2048;
  int cols = argc > 2 ? atoi(argv[2]) : 2048;
  int niter = argc > 3 ? atoi(argv[3]) : 20;
  fp lambda = argc > 4 ? (fp)atof(argv[4]) : 0.5f;
  long Ne = (long)rows * cols;
  if (rows <= R2 || cols <= C2) {
    fprintf(stderr, "rows and cols must exceed the ROI (%d x %d)\n", R2 + 1, C2 + 1);
    return 2;
  }

  fp *image = (fp *)malloc(sizeof(fp) * Ne);
  fp *J = (fp *)malloc(sizeof(fp) * Ne);
  fp *ref = (fp *)malloc(sizeof(fp) * Ne);
  srand(7);
  for (long i = 0; i < Ne; i++)
    ref[i] = image[i] = (fp)(rand() % 256);

  fp *J_cuda, *C_cuda, *E_C, *W_C, *N_C, *S_C;
  size_t bytes = sizeof(fp) * Ne;
  CHECK(cudaMalloc((void **)&J_cuda, bytes)); CHECK(cudaMalloc((void **)&C_cuda, bytes));
  CHECK(cudaMalloc((void **)&E_C, bytes)); CHECK(cudaMalloc((void **)&W_C, bytes));
  CHECK(cudaMalloc((void **)&N_C, bytes)); CHECK(cudaMalloc((void **)&S_C, bytes));
  CHECK(cudaMemcpy(J_cuda, image, bytes, cudaMemcpyHostToDevice));

  // 1-D launch configuration for the conversion kernels
  dim3 threads(NUMBER_THREADS);
  int blocks_x = Ne / threads.x;
  if (Ne % threads.x != 0) {
    blocks_x = blocks_x + 1;
  }
  dim3 blocks(blocks_x);

  // 2-D launch configuration for the diffusion kernels
  int block_x = (cols + BLOCK_SIZE - 1) / BLOCK_SIZE;
  int block_y = (rows + BLOCK_SIZE - 1) / BLOCK_SIZE;
  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid(block_x, block_y);

  extract<<<blocks, threads>>>(Ne, J_cuda);
  CHECK(cudaGetLastError());

  for (int iter = 0; iter < niter; iter++) {
    // ROI statistics on the host, as in SRAD v2 (only the ROI rows are needed)
    CHECK(cudaMemcpy(J, J_cuda, sizeof(fp) * (R2 + 1) * cols, cudaMemcpyDeviceToHost));
    fp q0sqr = roi_q0sqr(J, cols);

    srad_cuda_1<<<dimGrid, dimBlock>>>(E_C, W_C, N_C, S_C, J_cuda, C_cuda, cols, rows, q0sqr);
    CHECK(cudaGetLastError());
    srad_cuda_2<<<dimGrid, dimBlock>>>(E_C, W_C, N_C, S_C, J_cuda, C_cuda, cols, rows, lambda);
    CHECK(cudaGetLastError());
  }

  compress<<<blocks, threads>>>(Ne, J_cuda);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(J, J_cuda, bytes, cudaMemcpyDeviceToHost));

  srad_cpu(ref, rows, cols, niter, lambda);

  long bad = 0;
  for (long i = 0; i < Ne; i++)
    if (!(fabsf(J[i] - ref[i]) <= 1e-3f * (1.0f + fabsf(ref[i]))))
      bad++;
  if (bad)
    printf("FAILED rod_srad (%ld wrong)\n", bad);
  else
    printf("PASSED rod_srad\n");

  CHECK(cudaFree(J_cuda)); CHECK(cudaFree(C_cuda));
  CHECK(cudaFree(E_C)); CHECK(cudaFree(W_C));
  CHECK(cudaFree(N_C)); CHECK(cudaFree(S_C));
  free(image); free(J); free(ref);
  return bad ? 1 : 0;
}
