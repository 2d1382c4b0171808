// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 16:52 UTC.
// Rewrites, all kernels: nvcc-flags nvcc.ptxas_opt = 1
// Rewrites, kernel conv5x5: unroll conv5x5.unroll.L0 = 1; coarsen conv5x5.coarsen = "y4-contiguous"
// Measured (the program's GPU time (every launch of every kernel)): 0.1757 ms (IQR 0.0005 ms) against 0.1820 ms (IQR 0.0002 ms) for the original: 1.04x (at least 1.02x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
// cuda-rewrite-opt: build this variant with nvcc -Xptxas=-O1
// conv2d: 5x5 convolution of a 4096 x 4096 image, zero padding.
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

#include <utility>

#define BLOCK 16
#define R 2

__global__ void conv5x5(const float *img, const float *filt, float *out, int w,
                        int h) {
  int x = blockIdx.x * BLOCK + threadIdx.x;
  const int y_first = (blockIdx.y * blockDim.y + threadIdx.y) * 4;
  #pragma unroll
  for (int y_step = 0; y_step < 4; ++y_step) {
  const int y = y_first + y_step;
  if (x >= w || y >= h)
    continue;
  float acc = 0.0f;
  #pragma unroll 1
  for (int dy = -R; dy <= R; ++dy)
    for (int dx = -R; dx <= R; ++dx) {
      int xx = x + dx, yy = y + dy;
      if (xx >= 0 && xx < w && yy >= 0 && yy < h)
        acc += img[yy * w + xx] * filt[(dy + R) * (2 * R + 1) + dx + R];
    }
  out[y * w + x] = acc;
  }
}

int main(int argc, char **argv) {
  const int w = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int h = argc > 2 ? std::atoi(argv[2]) : w;
  const int k = 2 * R + 1;
  std::vector<float> img((size_t)w * h), filt(k * k), out(img.size());
  srand(23);
  for (float &v : img)
    v = rand() / (float)RAND_MAX - 0.5f;
  for (float &v : filt)
    v = rand() / (float)RAND_MAX;
  float *di, *df, *dout;
  CHECK(cudaMalloc(&di, img.size() * sizeof(float)));
  CHECK(cudaMalloc(&df, filt.size() * sizeof(float)));
  CHECK(cudaMalloc(&dout, out.size() * sizeof(float)));
  CHECK(cudaMemcpy(di, img.data(), img.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(df, filt.data(), filt.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0xff, out.size() * sizeof(float)));
  dim3 block(BLOCK, BLOCK);
  dim3 grid((w + BLOCK - 1) / BLOCK, (((h) + 4 - 1) / 4 + BLOCK - 1) / BLOCK);
  conv5x5<<<grid, block>>>(di, df, dout, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double acc = 0, mag = 0;
      for (int dy = -R; dy <= R; ++dy)
        for (int dx = -R; dx <= R; ++dx) {
          int xx = x + dx, yy = y + dy;
          if (xx >= 0 && xx < w && yy >= 0 && yy < h) {
            double t = (double)img[(size_t)yy * w + xx] * filt[(dy + R) * k + dx + R];
            acc += t;
            mag += std::fabs(t);
          }
        }
      if (!(std::fabs(out[(size_t)y * w + x] - acc) <= 1e-5 * mag + 1e-7))
        ++bad;
    }
  std::printf("%s conv2d (%zu wrong)\n", bad ? "FAILED" : "PASSED", bad);
  cudaFree(di);
  cudaFree(df);
  cudaFree(dout);
  return bad ? 1 : 0;
}
