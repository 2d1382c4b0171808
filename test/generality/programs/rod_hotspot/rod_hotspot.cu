/*
 * hotspot: iterative 5-point thermal solver in the style of Rodinia's
 * HotSpot. One thread per grid cell, BLOCK_SIZE x BLOCK_SIZE thread blocks;
 * the kernel maps threads to cells with BLOCK_SIZE itself, so the launch
 * block and the header macro must agree. Boundary cells are held fixed.
 *
 * Usage: rod_hotspot [grid_rows] [grid_cols] [sim_time]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "hotspot.h"

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__,         \
              cudaGetErrorString(err_));                                     \
      exit(2);                                                               \
    }                                                                        \
  } while (0)

__global__ void calculate_temp(float *power,    /* power input */
                               float *temp_src, /* temperature input */
                               float *temp_dst, /* temperature output */
                               int grid_cols, int grid_rows, float step_div_Cap,
                               float Rx_1, float Ry_1, float Rz_1)
{
  int bx = blockIdx.x;
  int by = blockIdx.y;

  int tx = threadIdx.x;
  int ty = threadIdx.y;

  /* global cell coordinates of this thread */
  int x = bx * BLOCK_SIZE + tx;
  int y = by * BLOCK_SIZE + ty;

  if (x < 1 || x >= grid_cols - 1 || y < 1 || y >= grid_rows - 1)
    return;

  int index = y * grid_cols + x;
  int N = index - grid_cols;
  int S = index + grid_cols;
  int W = index - 1;
  int E = index + 1;

  float t = temp_src[index];
  temp_dst[index] = t + step_div_Cap * (power[index] +
                                        (temp_src[S] + temp_src[N] - 2.0f * t) * Ry_1 +
                                        (temp_src[E] + temp_src[W] - 2.0f * t) * Rx_1 +
                                        ((float)AMB_TEMP - t) * Rz_1);
}

/* CPU version, same arithmetic */
void compute_tran_temp_cpu(float *power, float *temp, float *result, int grid_rows,
                           int grid_cols, int total_iterations, float step_div_Cap,
                           float Rx_1, float Ry_1, float Rz_1)
{
  float *src = temp, *dst = result;
  for (int it = 0; it < total_iterations; it++) {
    for (int r = 1; r < grid_rows - 1; r++)
      for (int c = 1; c < grid_cols - 1; c++) {
        int index = r * grid_cols + c;
        float t = src[index];
        dst[index] = t + step_div_Cap * (power[index] +
                                         (src[index + grid_cols] + src[index - grid_cols] - 2.0f * t) * Ry_1 +
                                         (src[index + 1] + src[index - 1] - 2.0f * t) * Rx_1 +
                                         ((float)AMB_TEMP - t) * Rz_1);
      }
    float *tmp = src; src = dst; dst = tmp;
  }
  if (src != result)
    for (int i = 0; i < grid_rows * grid_cols; i++)
      result[i] = src[i];
}

int main(int argc, char **argv)
{
  int grid_rows = argc > 1 ? atoi(argv[1]) : 1024;
  int grid_cols = argc > 2 ? atoi(argv[2]) : grid_rows;
  int total_iterations = argc > 3 ? atoi(argv[3]) : 200;
  int size = grid_rows * grid_cols;

  float *FilesavingTemp = (float *)malloc(size * sizeof(float));
  float *FilesavingPower = (float *)malloc(size * sizeof(float));
  float *MatrixOut = (float *)malloc(size * sizeof(float));
  float *RefTemp = (float *)malloc(size * sizeof(float));
  float *RefOut = (float *)malloc(size * sizeof(float));

  srand(7);
  for (int i = 0; i < size; i++) {
    FilesavingTemp[i] = 323.0f + 20.0f * ((float)rand() / (float)RAND_MAX);
    FilesavingPower[i] = 0.001f * ((float)rand() / (float)RAND_MAX);
  }

  float grid_height = CHIP_HEIGHT / grid_rows;
  float grid_width = CHIP_WIDTH / grid_cols;

  float Cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * grid_width * grid_height;
  float Rx = grid_width / (2.0 * K_SI * T_CHIP * grid_height);
  float Ry = grid_height / (2.0 * K_SI * T_CHIP * grid_width);
  float Rz = T_CHIP / (K_SI * grid_height * grid_width);

  float max_slope = MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI);
  float step = PRECISION / max_slope;
  float step_div_Cap = step / Cap;
  float Rx_1 = 1 / Rx, Ry_1 = 1 / Ry, Rz_1 = 1 / Rz;
  /* the time step is fixed (as in Rodinia), so very fine grids are unstable */
  if (2.0f * step_div_Cap * (Rx_1 + Ry_1) > 1.0f) {
    fprintf(stderr, "grid %d x %d is too fine for the explicit time step\n", grid_rows, grid_cols);
    return 2;
  }

  /* pyramid-free version: one time step per launch */
  int blockCols = grid_cols / BLOCK_SIZE + ((grid_cols % BLOCK_SIZE == 0) ? 0 : 1);
  int blockRows = grid_rows / BLOCK_SIZE + ((grid_rows % BLOCK_SIZE == 0) ? 0 : 1);

  float *MatrixTemp[2], *MatrixPower;
  CHECK(cudaMalloc((void **)&MatrixTemp[0], sizeof(float) * size));
  CHECK(cudaMalloc((void **)&MatrixTemp[1], sizeof(float) * size));
  CHECK(cudaMalloc((void **)&MatrixPower, sizeof(float) * size));
  /* both buffers start from the input so the fixed boundary is present in each */
  CHECK(cudaMemcpy(MatrixTemp[0], FilesavingTemp, sizeof(float) * size, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(MatrixTemp[1], FilesavingTemp, sizeof(float) * size, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(MatrixPower, FilesavingPower, sizeof(float) * size, cudaMemcpyHostToDevice));

  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid(blockCols, blockRows);

  int src = 0, dst = 1;
  for (int t = 0; t < total_iterations; t++) {
    calculate_temp<<<dimGrid, dimBlock>>>(MatrixPower, MatrixTemp[src], MatrixTemp[dst],
                                          grid_cols, grid_rows, step_div_Cap, Rx_1, Ry_1, Rz_1);
    CHECK(cudaGetLastError());
    int tmp = src; src = dst; dst = tmp;
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(MatrixOut, MatrixTemp[src], sizeof(float) * size, cudaMemcpyDeviceToHost));

  for (int i = 0; i < size; i++)
    RefOut[i] = RefTemp[i] = FilesavingTemp[i];
  compute_tran_temp_cpu(FilesavingPower, RefTemp, RefOut, grid_rows, grid_cols,
                        total_iterations, step_div_Cap, Rx_1, Ry_1, Rz_1);

  int bad = 0;
  for (int i = 0; i < size; i++)
    if (!(fabsf(MatrixOut[i] - RefOut[i]) <= 1e-5f * (1.0f + fabsf(RefOut[i]))))
      bad++;
  if (bad)
    printf("FAILED rod_hotspot (%d wrong)\n", bad);
  else
    printf("PASSED rod_hotspot\n");

  CHECK(cudaFree(MatrixTemp[0]));
  CHECK(cudaFree(MatrixTemp[1]));
  CHECK(cudaFree(MatrixPower));
  free(FilesavingTemp); free(FilesavingPower); free(MatrixOut); free(RefTemp); free(RefOut);
  return bad ? 1 : 0;
}
