// transpose: naive out[x][y] = in[y][x] of a 8192 x 8192 float matrix.
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

constexpr int TILE = 16;

__global__ void transpose(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows)
    out[x * rows + y] = in[y * cols + x];
}

int main(int argc, char **argv) {
  // Optional sizes (rows, cols) for small runs under compute-sanitizer.
  const int rows = argc > 1 ? std::atoi(argv[1]) : 8192;
  const int cols = argc > 2 ? std::atoi(argv[2]) : rows;
  std::vector<float> in((size_t)rows * cols), out((size_t)rows * cols);
  // Inputs from a linear congruential generator: 64 Mi calls of rand() took
  // about 2 s of this program's 3 s, and the tuner runs it per variant.
  unsigned state = 3;
  for (float &v : in) {
    state = state * 1664525u + 1013904223u;
    v = (state >> 8) * (1.0f / 16777216.0f);
  }
  float *din, *dout;
  CHECK(cudaMalloc(&din, in.size() * sizeof(float)));
  CHECK(cudaMalloc(&dout, out.size() * sizeof(float)));
  CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0xff, out.size() * sizeof(float)));
  dim3 block(TILE, TILE);
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  transpose<<<grid, block>>>(din, dout, rows, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x)
      if (out[(size_t)x * rows + y] != in[(size_t)y * cols + x])
        ++bad;
  std::printf("%s transpose (%zu wrong)\n", bad ? "FAILED" : "PASSED", bad);
  cudaFree(din);
  cudaFree(dout);
  return bad ? 1 : 0;
}
