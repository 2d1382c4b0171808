// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H200 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-05 08:20 UTC.
// Rewrites, all kernels: launch-bounds nvcc.maxrregcount = 40; nvcc-flags nvcc.dlcm = "ca"; nvcc-flags nvcc.ptxas_opt = 2
// Rewrites, kernel transpose: launch-bounds transpose.launch_bounds = 8; coarsen transpose.coarsen = "y8"; shared-stage transpose.shared_stage = "tile"; shared-stage transpose.shared_pad = 1
// Measured (the program's GPU time (every launch of every kernel)): 0.1523 ms (IQR 0.0013 ms) against 0.5043 ms (IQR 0.0029 ms) for the original: 3.31x (at least 3.26x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: build this variant with nvcc -maxrregcount=40 -Xptxas=-dlcm=ca -Xptxas=-O2
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

__global__ void __launch_bounds__(256, 8) transpose(const float *in, float *out, int rows, int cols) {
  // cuda-rewrite-opt: the block's values go through a shared tile and are stored transposed, so the store is contiguous (8 rows per thread)
  __shared__ float out_tile[128][17];
  #pragma unroll
  for (int row = 0; row < 8; ++row) {
    const int x = blockIdx.x * 16 + threadIdx.x;
    const int y = blockIdx.y * 128 + threadIdx.y + row * 16;
    if (x < cols && y < rows)
      out_tile[threadIdx.y + row * 16][threadIdx.x] = in[y * cols + x];
  }
  __syncthreads();
  // Each thread now stores elements its transposed neighbours computed.
  #pragma unroll
  for (int row = 0; row < 8; ++row) {
    const int x = blockIdx.x * 16 + threadIdx.y;
    const int y = blockIdx.y * 128 + threadIdx.x + row * 16;
    if (x < cols && y < rows)
      out[x * rows + y] = out_tile[threadIdx.x + row * 16][threadIdx.y];
  }
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
  dim3 grid((cols + TILE - 1) / TILE, (((rows) + 8 - 1) / 8 + TILE - 1) / TILE);
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
