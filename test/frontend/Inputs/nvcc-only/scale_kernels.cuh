// The project's kernels, in a header of its own.
#pragma once

__global__ void scale_rows(float *m, const float *s, int rows, int cols) {
  int r = blockIdx.y;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    m[r * cols + c] *= s[r];
}
