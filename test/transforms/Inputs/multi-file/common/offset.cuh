// Outside the input's directory: no place for a rewritten copy.
__global__ void offset(float *y, float d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += d;
}
