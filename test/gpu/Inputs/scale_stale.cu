// A program with no check of its own: only the tool's buffer comparison can
// tell a wrong variant from a right one. Prints a checksum of its output.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define THREADS 256

__global__ void scale(float *out, const float *in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    (void)in; /* never writes: out keeps what was there */
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 24;
  std::vector<float> in(n), out(n);
  srand(1);
  for (float &x : in)
    x = rand() / (float)RAND_MAX + 0.5f;
  float *din, *dout;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dout, 0xff, n * sizeof(float));
  for (int rep = 0; rep < 2; ++rep)
    scale<<<(n + THREADS - 1) / THREADS, THREADS>>>(dout, din, 1.5f, n);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (float x : out)
    sum += x;
  std::printf("checksum=%.6f\n", sum);
  return e == cudaSuccess ? 0 : 3;
}
