// block-size where the grid does not follow the block, yet coverage does not
// depend on it: a grid-stride loop, and one block per row with block-strided
// loops (the shared array and the strides follow the block's macro).
// RUN: echo '{"grid_stride.block": 512, "row_sum.block": 64}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
#include <cuda_runtime.h>

#define ROW_THREADS 128

__global__ void grid_stride(float *v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v[i] *= 2.0f;
}

__global__ void row_sum(const float *m, float *sums, int cols) {
  __shared__ float part[ROW_THREADS];
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += ROW_THREADS)
    s += m[blockIdx.x * cols + c];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int k = ROW_THREADS / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      part[threadIdx.x] += part[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    sums[blockIdx.x] = part[0];
}

void run(float *v, int n, const float *m, float *sums, int rows, int cols) {
  grid_stride<<<264, 256>>>(v, n);
  row_sum<<<rows, ROW_THREADS>>>(m, sums, cols);
}




// CHECK:      #define ROW_THREADS 128
// CHECK-NEXT: +#define row_sum_ROW_THREADS 64
// CHECK:      -  __shared__ float part[ROW_THREADS];
// CHECK-NEXT: +  __shared__ float part[row_sum_ROW_THREADS];
// CHECK:      -  for (int c = threadIdx.x; c < cols; c += ROW_THREADS)
// CHECK-NEXT: +  for (int c = threadIdx.x; c < cols; c += row_sum_ROW_THREADS)
// CHECK:      -  for (int k = ROW_THREADS / 2; k > 0; k >>= 1) {
// CHECK-NEXT: +  for (int k = row_sum_ROW_THREADS / 2; k > 0; k >>= 1) {
// CHECK:      -  grid_stride<<<264, 256>>>(v, n);
// CHECK-NEXT: -  row_sum<<<rows, ROW_THREADS>>>(m, sums, cols);
// CHECK-NEXT: +  grid_stride<<<264, 512>>>(v, n);
// CHECK-NEXT: +  row_sum<<<rows, row_sum_ROW_THREADS>>>(m, sums, cols);
