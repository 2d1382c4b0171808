// cpp_argv_block: block dimensions chosen at run time from the command line
// (the "benchmark harness" style).  A 1-D standardisation kernel and a 2-D
// 3x3 box blur with clamped borders.
//
// usage: cpp_argv_block [n] [threads] [bx] [by] [width] [height]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err = call;                                                    \
    if (err != cudaSuccess) {                                                  \
      fprintf(stderr, "CUDA error in %s (%s:%d): %s\n", #call, __FILE__,       \
              __LINE__, cudaGetErrorString(err));                              \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

__global__ void standardize(const float *x, float *y, float mean,
                            float inv_std, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n)
    y[tid] = (x[tid] - mean) * inv_std;
}

__global__ void box_blur3(const float *src, float *dst, int width,
                          int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= width || row >= height)
    return;
  float acc = 0.0f;
  for (int dy = -1; dy <= 1; ++dy) {
    int r = min(max(row + dy, 0), height - 1);
    for (int dx = -1; dx <= 1; ++dx) {
      int c = min(max(col + dx, 0), width - 1);
      acc += src[r * width + c];
    }
  }
  dst[row * width + col] = acc * (1.0f / 9.0f);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4000000;
  int threads = argc > 2 ? atoi(argv[2]) : 128;
  int bx = argc > 3 ? atoi(argv[3]) : 32;
  int by = argc > 4 ? atoi(argv[4]) : 8;
  int width = argc > 5 ? atoi(argv[5]) : 2000;
  int height = argc > 6 ? atoi(argv[6]) : 1499;
  printf("n=%d threads=%d block2d=%dx%d image=%dx%d\n", n, threads, bx, by,
         width, height);

  srand(31337);
  std::vector<float> x(n), img((size_t)width * height);
  for (auto &v : x) v = 10.0f * rand() / (float)RAND_MAX + 3.0f;
  for (auto &v : img) v = (float)rand() / (float)RAND_MAX;

  double s = 0.0, s2 = 0.0;
  for (float v : x) { s += v; s2 += (double)v * v; }
  float mean = (float)(s / n);
  float inv_std = (float)(1.0 / std::sqrt(s2 / n - (s / n) * (s / n)));

  std::vector<float> y_ref(n), blur_ref(img.size());
  for (int i = 0; i < n; ++i) y_ref[i] = (x[i] - mean) * inv_std;
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c) {
      float acc = 0.0f;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int rr = std::min(std::max(r + dy, 0), height - 1);
          int cc = std::min(std::max(c + dx, 0), width - 1);
          acc += img[(size_t)rr * width + cc];
        }
      blur_ref[(size_t)r * width + c] = acc * (1.0f / 9.0f);
    }

  float *d_x, *d_y, *d_img, *d_blur;
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK(cudaMalloc(&d_img, img.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_blur, img.size() * sizeof(float)));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_img, img.data(), img.size() * sizeof(float), cudaMemcpyHostToDevice));

  int blocks = (n + threads - 1) / threads;
  standardize<<<blocks, threads>>>(d_x, d_y, mean, inv_std, n);
  CHECK(cudaGetLastError());

  dim3 block(bx, by);
  dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  box_blur3<<<grid, block>>>(d_img, d_blur, width, height);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> y(n), blur(img.size());
  CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(blur.data(), d_blur, blur.size() * sizeof(float), cudaMemcpyDeviceToHost));

  size_t bad = 0;
  for (int i = 0; i < n; ++i)
    if (!(fabsf(y[i] - y_ref[i]) <= 1e-5f * (1.0f + fabsf(y_ref[i])))) ++bad;
  for (size_t i = 0; i < blur.size(); ++i)
    if (!(fabsf(blur[i] - blur_ref[i]) <= 1e-5f * (1.0f + fabsf(blur_ref[i])))) ++bad;

  if (bad)
    printf("FAILED cpp_argv_block (%zu wrong)\n", bad);
  else
    printf("PASSED cpp_argv_block\n");
  cudaFree(d_x); cudaFree(d_y); cudaFree(d_img); cudaFree(d_blur);
  return bad ? 1 : 0;
}
