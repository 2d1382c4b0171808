// softmax: row-wise softmax of a 4096 x 4096 matrix, one block per row,
// block-strided loops and a shared-memory reduction sized by the block.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e_));                                    \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

#define THREADS 256

__global__ void softmax_rows(const float *in, float *out, int cols) {
  __shared__ float red[THREADS];
  const float *row = in + blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += THREADS)
    m = fmaxf(m, row[c]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += THREADS)
    sum += expf(row[c] - m);
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  sum = red[0];
  for (int c = threadIdx.x; c < cols; c += THREADS)
    out[blockIdx.x * cols + c] = expf(row[c] - m) / sum;
}

int main(int argc, char **argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int cols = argc > 2 ? std::atoi(argv[2]) : 4096;
  std::vector<float> in((size_t)rows * cols), out(in.size());
  srand(13);
  for (float &v : in)
    v = 8.0f * (rand() / (float)RAND_MAX) - 4.0f;
  float *din, *dout;
  CHECK(cudaMalloc(&din, in.size() * sizeof(float)));
  CHECK(cudaMalloc(&dout, out.size() * sizeof(float)));
  CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0xff, out.size() * sizeof(float)));
  softmax_rows<<<rows, THREADS>>>(din, dout, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (int r = 0; r < rows; ++r) {
    const float *x = &in[(size_t)r * cols];
    double m = -INFINITY, s = 0;
    for (int c = 0; c < cols; ++c)
      m = std::fmax(m, x[c]);
    for (int c = 0; c < cols; ++c)
      s += std::exp(x[c] - m);
    for (int c = 0; c < cols; ++c) {
      double ref = std::exp(x[c] - m) / s;
      if (!(std::fabs(out[(size_t)r * cols + c] - ref) <= 1e-5 * ref + 1e-9))
        ++bad;
    }
  }
  std::printf("%s softmax (%zu wrong)\n", bad ? "FAILED" : "PASSED", bad);
  cudaFree(din);
  cudaFree(dout);
  return bad ? 1 : 0;
}
