/***************************************************************************
 *
 *  7-point Jacobi stencil on a 3-D grid, Parboil style: a 2-D grid of
 *  threads covers the x-y plane and every thread marches along z.
 *
 *  Usage: parboil_stencil [nx] [ny] [nz] [iterations] [tx] [ty]
 *         (tx, ty: thread block extents; default 32 x 4)
 *
 ***************************************************************************/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "common.h"

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__,         \
              cudaGetErrorString(err_));                                     \
      exit(2);                                                               \
    }                                                                        \
  } while (0)

__global__ void naive_kernel(float c0, float c1, float *A0, float *Anext, int nx, int ny, int nz)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;

  if (i > 0 && j > 0 && i < nx - 1 && j < ny - 1) {
    for (int k = 1; k < nz - 1; k++) {
      Anext[Index3D(nx, ny, i, j, k)] =
          c1 * (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
                A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
                A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) +
          c0 * A0[Index3D(nx, ny, i, j, k)];
    }
  }
}

static void cpu_stencil(float c0, float c1, float *A0, float *Anext, int nx, int ny, int nz)
{
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        Anext[Index3D(nx, ny, i, j, k)] =
            c1 * (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
                  A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
                  A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) +
            c0 * A0[Index3D(nx, ny, i, j, k)];
}

int main(int argc, char **argv)
{
  int nx = 512, ny = 512, nz = 64, iteration = 20;
  int tx = 32, ty = 4;

  if (argc > 1) nx = atoi(argv[1]);
  if (argc > 2) ny = atoi(argv[2]);
  if (argc > 3) nz = atoi(argv[3]);
  if (argc > 4) iteration = atoi(argv[4]);
  if (argc > 5) tx = atoi(argv[5]);
  if (argc > 6) ty = atoi(argv[6]);

  /* center weight and neighbour weight; they sum to one */
  float c0 = 0.25f;
  float c1 = 0.125f;

  size_t size = (size_t)nx * ny * nz;
  float *h_A0 = (float *)malloc(sizeof(float) * size);
  float *h_Anext = (float *)malloc(sizeof(float) * size);
  float *r_A0 = (float *)malloc(sizeof(float) * size);
  float *r_Anext = (float *)malloc(sizeof(float) * size);

  srand(54321);
  for (size_t n = 0; n < size; n++)
    h_A0[n] = (float)rand() / (float)RAND_MAX;

  float *d_A0, *d_Anext;
  CHECK(cudaMalloc((void **)&d_A0, sizeof(float) * size));
  CHECK(cudaMalloc((void **)&d_Anext, sizeof(float) * size));
  CHECK(cudaMemcpy(d_A0, h_A0, sizeof(float) * size, cudaMemcpyHostToDevice));
  /* the boundary planes are never written: both buffers start equal */
  CHECK(cudaMemcpy(d_Anext, h_A0, sizeof(float) * size, cudaMemcpyHostToDevice));

  dim3 block(tx, ty, 1);
  dim3 grid((nx + tx - 1) / tx, (ny + ty - 1) / ty, 1);

  for (int t = 0; t < iteration; t++) {
    naive_kernel<<<grid, block>>>(c0, c1, d_A0, d_Anext, nx, ny, nz);
    CHECK(cudaGetLastError());
    float *d_temp = d_A0;
    d_A0 = d_Anext;
    d_Anext = d_temp;
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_Anext, d_A0, sizeof(float) * size, cudaMemcpyDeviceToHost));

  for (size_t n = 0; n < size; n++)
    r_A0[n] = r_Anext[n] = h_A0[n];
  for (int t = 0; t < iteration; t++) {
    cpu_stencil(c0, c1, r_A0, r_Anext, nx, ny, nz);
    float *temp = r_A0;
    r_A0 = r_Anext;
    r_Anext = temp;
  }

  size_t wrong = 0;
  for (size_t n = 0; n < size; n++)
    if (!(fabsf(h_Anext[n] - r_A0[n]) <= 1e-5f * (1.0f + fabsf(r_A0[n]))))
      wrong++;
  if (wrong)
    printf("FAILED parboil_stencil (%zu wrong)\n", wrong);
  else
    printf("PASSED parboil_stencil\n");

  CHECK(cudaFree(d_A0));
  CHECK(cudaFree(d_Anext));
  free(h_A0); free(h_Anext); free(r_A0); free(r_Anext);
  return wrong ? 1 : 0;
}
