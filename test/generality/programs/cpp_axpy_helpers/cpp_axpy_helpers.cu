// cpp_axpy_helpers: BLAS-1 style kernels (axpy, waxpby) and a 2-D
// "matrix add with row scaling" kernel, all using index helpers from a
// header and block sizes from a cfg namespace.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "index_helpers.cuh"

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n",                         \
                   cudaGetErrorString(err_), __FILE__, __LINE__);              \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

__global__ void axpy_kernel(int n, float a, const float *x, float *y) {
  const int i = global_idx();
  if (i >= n) return;
  y[i] = a * x[i] + y[i];
}

__global__ void waxpby_kernel(int n, float alpha, const float *x, float beta,
                              const float *y, float *w) {
  const int i = global_idx();
  if (i >= n) return;
  w[i] = alpha * x[i] + beta * y[i];
}

// C[r][c] = A[r][c] + s[r] * B[r][c]
__global__ void scaled_add2d_kernel(int rows, int cols, const float *A,
                                    const float *B, const float *s, float *C) {
  const int2 p = idx2d();
  if (p.x >= cols || p.y >= rows) return;
  const int off = p.y * cols + p.x;
  C[off] = A[off] + s[p.y] * B[off];
}

static void fill(std::vector<float> &v) {
  for (auto &e : v) e = 2.0f * (rand() / (float)RAND_MAX) - 1.0f;
}

static size_t count_bad(const std::vector<float> &got,
                        const std::vector<float> &want, float tol) {
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= tol * (1.0f + std::fabs(want[i]))))
      ++bad;
  return bad;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : (1 << 22) + 37;
  const int rows = argc > 2 ? std::atoi(argv[2]) : 1500;
  const int cols = argc > 3 ? std::atoi(argv[3]) : 1003;
  const float a = 1.75f, alpha = 0.5f, beta = -2.25f;

  srand(1234);
  std::vector<float> x(n), y(n), w(n);
  fill(x);
  fill(y);
  std::vector<float> A((size_t)rows * cols), B(A.size()), s(rows), C(A.size());
  fill(A);
  fill(B);
  fill(s);

  // CPU reference
  std::vector<float> y_ref(n), w_ref(n), C_ref(A.size());
  for (int i = 0; i < n; ++i) y_ref[i] = a * x[i] + y[i];
  for (int i = 0; i < n; ++i) w_ref[i] = alpha * x[i] + beta * y_ref[i];
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      size_t o = (size_t)r * cols + c;
      C_ref[o] = A[o] + s[r] * B[o];
    }

  float *dx, *dy, *dw, *dA, *dB, *ds, *dC;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMalloc(&dw, n * sizeof(float)));
  CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
  CHECK(cudaMalloc(&ds, s.size() * sizeof(float)));
  CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ds, s.data(), s.size() * sizeof(float), cudaMemcpyHostToDevice));

  axpy_kernel<<<(n + cfg::kThreads - 1) / cfg::kThreads, cfg::kThreads>>>(n, a, dx, dy);
  CHECK(cudaGetLastError());
  waxpby_kernel<<<(n + cfg::kThreads - 1) / cfg::kThreads, cfg::kThreads>>>(
      n, alpha, dx, beta, dy, dw);
  CHECK(cudaGetLastError());
  const dim3 block2(cfg::kTileX, cfg::kTileY);
  const dim3 grid2(div_up(cols, cfg::kTileX), div_up(rows, cfg::kTileY));
  scaled_add2d_kernel<<<grid2, block2>>>(rows, cols, dA, dB, ds, dC);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(w.data(), dw, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));

  size_t bad = count_bad(y, y_ref, 1e-5f) + count_bad(w, w_ref, 1e-5f) +
               count_bad(C, C_ref, 1e-5f);
  if (bad)
    std::printf("FAILED cpp_axpy_helpers (%zu wrong)\n", bad);
  else
    std::printf("PASSED cpp_axpy_helpers\n");

  cudaFree(dx); cudaFree(dy); cudaFree(dw);
  cudaFree(dA); cudaFree(dB); cudaFree(ds); cudaFree(dC);
  return bad ? 1 : 0;
}
