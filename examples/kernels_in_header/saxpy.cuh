// saxpy.cuh: the kernel and its block size, in a header main.cu includes
// (a common layout; cuda-rewrite-opt tunes it and writes a rewritten copy).
#pragma once

#define SAXPY_BLOCK 128

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

inline void launch_saxpy(float a, const float *x, float *y, int n) {
  saxpy<<<(n + SAXPY_BLOCK - 1) / SAXPY_BLOCK, SAXPY_BLOCK>>>(a, x, y, n);
}
