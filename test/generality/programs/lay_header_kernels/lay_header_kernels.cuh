/*
 * Kernels for lay_header_kernels: a tiled matrix multiply, a tiled transpose
 * and a fused bias + activation, all in one header in the style of the
 * CUDA samples' *_kernel.cuh files.
 */
#ifndef _LAY_HEADER_KERNELS_CUH_
#define _LAY_HEADER_KERNELS_CUH_

// Tile edge of the matrix multiply and the transpose (threads per block
// dimension).
#define BLOCK_DIM 16
// Threads per block of the 1-D bias + activation kernel.
#define ACT_BLOCK_SIZE 256
// Leaky ReLU slope
#define LEAKY_SLOPE 0.01f

#define AS(i, j) As[i][j]
#define BS(i, j) Bs[i][j]

__device__ inline float leakyRelu(float v) { return v > 0.0f ? v : LEAKY_SLOPE * v; }

// C (hA x wB) = A (hA x wA) * B (wA x wB), row-major; tiles past the edges
// are zero-filled so that any size works.
__global__ void matrixMulTiled(float *C, const float *A, const float *B, int hA,
                               int wA, int wB) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  int row = by * BLOCK_DIM + ty;
  int col = bx * BLOCK_DIM + tx;

  __shared__ float As[BLOCK_DIM][BLOCK_DIM];
  __shared__ float Bs[BLOCK_DIM][BLOCK_DIM];

  float Csub = 0.0f;
  int numTiles = (wA + BLOCK_DIM - 1) / BLOCK_DIM;

  for (int t = 0; t < numTiles; ++t) {
    int aCol = t * BLOCK_DIM + tx;
    int bRow = t * BLOCK_DIM + ty;
    AS(ty, tx) = (row < hA && aCol < wA) ? A[row * wA + aCol] : 0.0f;
    BS(ty, tx) = (bRow < wA && col < wB) ? B[bRow * wB + col] : 0.0f;
    __syncthreads();

#pragma unroll
    for (int k = 0; k < BLOCK_DIM; ++k) Csub += AS(ty, k) * BS(k, tx);
    __syncthreads();
  }

  if (row < hA && col < wB) C[row * wB + col] = Csub;
}

// odata (width x height) = transpose of idata (height x width); the shared
// tile is padded by one column to avoid bank conflicts.
__global__ void transposeTiled(float *odata, const float *idata, int width,
                               int height) {
  __shared__ float block[BLOCK_DIM][BLOCK_DIM + 1];

  unsigned int xIndex = blockIdx.x * BLOCK_DIM + threadIdx.x;
  unsigned int yIndex = blockIdx.y * BLOCK_DIM + threadIdx.y;
  if ((xIndex < width) && (yIndex < height)) {
    unsigned int index_in = yIndex * width + xIndex;
    block[threadIdx.y][threadIdx.x] = idata[index_in];
  }

  __syncthreads();

  xIndex = blockIdx.y * BLOCK_DIM + threadIdx.x;
  yIndex = blockIdx.x * BLOCK_DIM + threadIdx.y;
  if ((xIndex < height) && (yIndex < width)) {
    unsigned int index_out = yIndex * height + xIndex;
    odata[index_out] = block[threadIdx.x][threadIdx.y];
  }
}

// data[i] = leakyRelu(data[i] + bias[i % cols]) over a rows x cols matrix.
__global__ void biasActivation(float *data, const float *bias, int cols,
                               int numElements) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;

  if (i < numElements) {
    data[i] = leakyRelu(data[i] + bias[i % cols]);
  }
}

#endif  // _LAY_HEADER_KERNELS_CUH_
