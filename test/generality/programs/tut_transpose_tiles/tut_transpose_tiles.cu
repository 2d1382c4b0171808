// tut_transpose_tiles: tutorial-style matrix copy / transpose kernels.
// A block of TILE_DIM x BLOCK_ROWS threads handles a TILE_DIM x TILE_DIM
// tile, each thread looping over TILE_DIM / BLOCK_ROWS rows.  There are no
// bounds checks: width and height must be multiples of TILE_DIM.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t result = (call);                                               \
    if (result != cudaSuccess) {                                               \
      fprintf(stderr, "CUDA Runtime Error: %s (%s:%d)\n",                      \
              cudaGetErrorString(result), __FILE__, __LINE__);                 \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

const int TILE_DIM = 32;
const int BLOCK_ROWS = 8;

// Reference bandwidth kernel: straight copy with the same access pattern.
__global__ void copyTiles(float *odata, const float *idata, int width) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;

  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = idata[(y + j) * width + x];
}

// Naive transpose: reads coalesced, writes strided by height.
// idata is height x width (row-major), odata is width x height.
__global__ void transposeNaive(float *odata, const float *idata, int width,
                               int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;

  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

// Transpose through a padded shared-memory tile so that both the global
// reads and the global writes are coalesced.
__global__ void transposeCoalesced(float *odata, const float *idata,
                                   int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];

  __syncthreads();

  x = blockIdx.y * TILE_DIM + threadIdx.x; // transposed block offset
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv) {
  const int nx = argc > 1 ? atoi(argv[1]) : 4096; // width
  const int ny = argc > 2 ? atoi(argv[2]) : 2048; // height
  const size_t mem_size = (size_t)nx * ny * sizeof(float);

  if (nx % TILE_DIM || ny % TILE_DIM) {
    printf("nx and ny must be a multiple of TILE_DIM (%d)\n", TILE_DIM);
    printf("FAILED tut_transpose_tiles (bad size)\n");
    return 1;
  }

  dim3 dimGrid(nx / TILE_DIM, ny / TILE_DIM, 1);
  dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 1);

  std::vector<float> h_idata((size_t)nx * ny), h_cdata(h_idata.size()),
      h_tdata(h_idata.size()), gold(h_idata.size());
  srand(8);
  for (size_t i = 0; i < h_idata.size(); i++)
    h_idata[i] = (float)rand() / (float)RAND_MAX;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++)
      gold[(size_t)i * ny + j] = h_idata[(size_t)j * nx + i];

  float *d_idata, *d_cdata, *d_tdata;
  CHECK(cudaMalloc(&d_idata, mem_size));
  CHECK(cudaMalloc(&d_cdata, mem_size));
  CHECK(cudaMalloc(&d_tdata, mem_size));
  CHECK(cudaMemcpy(d_idata, h_idata.data(), mem_size, cudaMemcpyHostToDevice));

  size_t bad = 0;

  // --- copy ---
  CHECK(cudaMemset(d_cdata, 0, mem_size));
  copyTiles<<<dimGrid, dimBlock>>>(d_cdata, d_idata, nx);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_cdata.data(), d_cdata, mem_size, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < h_cdata.size(); i++)
    if (h_cdata[i] != h_idata[i]) bad++;

  // --- naive transpose ---
  CHECK(cudaMemset(d_tdata, 0, mem_size));
  transposeNaive<<<dimGrid, dimBlock>>>(d_tdata, d_idata, nx, ny);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_tdata.data(), d_tdata, mem_size, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < h_tdata.size(); i++)
    if (h_tdata[i] != gold[i]) bad++;

  // --- coalesced transpose ---
  CHECK(cudaMemset(d_tdata, 0, mem_size));
  transposeCoalesced<<<dimGrid, dimBlock>>>(d_tdata, d_idata, nx, ny);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_tdata.data(), d_tdata, mem_size, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < h_tdata.size(); i++)
    if (h_tdata[i] != gold[i]) bad++;

  if (bad)
    printf("FAILED tut_transpose_tiles (%zu wrong)\n", bad);
  else
    printf("PASSED tut_transpose_tiles\n");

  CHECK(cudaFree(d_idata));
  CHECK(cudaFree(d_cdata));
  CHECK(cudaFree(d_tdata));
  return bad ? 1 : 0;
}
