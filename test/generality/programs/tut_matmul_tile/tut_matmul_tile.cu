// tut_matmul_tile: textbook (Kirk & Hwu style) matrix multiplication with
// one thread per output element, no shared memory, plus a matrix-vector
// product.  Host wrapper functions do the allocation, copies and launch.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define TILE_WIDTH 16
#define MV_BLOCK_SIZE 256

#define CHECK(call)                                                            \
  {                                                                            \
    const cudaError_t error = call;                                            \
    if (error != cudaSuccess) {                                                \
      printf("Error: %s:%d, ", __FILE__, __LINE__);                            \
      printf("code:%d, reason: %s\n", error, cudaGetErrorString(error));       \
      exit(2);                                                                 \
    }                                                                          \
  }

// P = M * N, all Width x Width, row-major
__global__ void MatrixMulKernel(float *M, float *N, float *P, int Width) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;

  if ((Row < Width) && (Col < Width)) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k)
      Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Row * Width + Col] = Pvalue;
  }
}

// out = M * V
__global__ void MatVecKernel(float *M, float *V, float *out, int Width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k;
  float sum = 0.0f;
  if (i < Width) {
    for (k = 0; k < Width; k++)
      sum += M[i * Width + k] * V[k];
    out[i] = sum;
  }
}

void MatrixMulOnDevice(float *M, float *N, float *P, int Width) {
  int size = Width * Width * sizeof(float);
  float *Md, *Nd, *Pd;

  CHECK(cudaMalloc((void **)&Md, size));
  CHECK(cudaMemcpy(Md, M, size, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc((void **)&Nd, size));
  CHECK(cudaMemcpy(Nd, N, size, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc((void **)&Pd, size));

  dim3 dimGrid(ceil(Width / (float)TILE_WIDTH), ceil(Width / (float)TILE_WIDTH), 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
  CHECK(cudaGetLastError());

  CHECK(cudaMemcpy(P, Pd, size, cudaMemcpyDeviceToHost));
  cudaFree(Md);
  cudaFree(Nd);
  cudaFree(Pd);
}

void MatVecOnDevice(float *M, float *V, float *out, int Width) {
  float *Md, *Vd, *Od;
  CHECK(cudaMalloc((void **)&Md, Width * Width * sizeof(float)));
  CHECK(cudaMalloc((void **)&Vd, Width * sizeof(float)));
  CHECK(cudaMalloc((void **)&Od, Width * sizeof(float)));
  CHECK(cudaMemcpy(Md, M, Width * Width * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(Vd, V, Width * sizeof(float), cudaMemcpyHostToDevice));

  int numBlocks = (Width + MV_BLOCK_SIZE - 1) / MV_BLOCK_SIZE;
  MatVecKernel<<<numBlocks, MV_BLOCK_SIZE>>>(Md, Vd, Od, Width);
  CHECK(cudaGetLastError());

  CHECK(cudaMemcpy(out, Od, Width * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(Md);
  cudaFree(Vd);
  cudaFree(Od);
}

int main(int argc, char **argv) {
  int Width = argc > 1 ? atoi(argv[1]) : 1000;
  int i, j, k;

  float *M = (float *)malloc(Width * Width * sizeof(float));
  float *N = (float *)malloc(Width * Width * sizeof(float));
  float *P = (float *)malloc(Width * Width * sizeof(float));
  float *V = (float *)malloc(Width * sizeof(float));
  float *MV = (float *)malloc(Width * sizeof(float));
  double *Pref = (double *)calloc((size_t)Width * Width, sizeof(double));
  double *MVref = (double *)calloc(Width, sizeof(double));

  srand(2);
  for (i = 0; i < Width * Width; i++) {
    M[i] = rand() / (float)RAND_MAX - 0.5f;
    N[i] = rand() / (float)RAND_MAX - 0.5f;
  }
  for (i = 0; i < Width; i++)
    V[i] = rand() / (float)RAND_MAX;

  MatrixMulOnDevice(M, N, P, Width);
  MatVecOnDevice(M, V, MV, Width);

  // CPU reference (i-k-j order for cache friendliness), double accumulation
  for (i = 0; i < Width; i++)
    for (k = 0; k < Width; k++) {
      double m = M[i * Width + k];
      for (j = 0; j < Width; j++)
        Pref[(size_t)i * Width + j] += m * N[k * Width + j];
    }
  for (i = 0; i < Width; i++)
    for (k = 0; k < Width; k++)
      MVref[i] += (double)M[i * Width + k] * V[k];

  long bad = 0;
  for (i = 0; i < Width * Width; i++)
    if (!(fabs(P[i] - Pref[i]) <= 1e-3 * (1.0 + fabs(Pref[i]))))
      bad++;
  for (i = 0; i < Width; i++)
    if (!(fabs(MV[i] - MVref[i]) <= 1e-3 * (1.0 + fabs(MVref[i]))))
      bad++;

  if (bad)
    printf("FAILED tut_matmul_tile (%ld wrong)\n", bad);
  else
    printf("PASSED tut_matmul_tile\n");
  free(M); free(N); free(P); free(V); free(MV);
  free(Pref); free(MVref);
  return bad ? 1 : 0;
}
