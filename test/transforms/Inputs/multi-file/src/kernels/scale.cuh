// Included through a macro (#include SCALE_FILE): no line names it.
__global__ void scale(float *y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= s;
}
