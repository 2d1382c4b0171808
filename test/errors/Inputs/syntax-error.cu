__global__ void broken(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x
  if (i < n) v[i] = 0.0f;
}
