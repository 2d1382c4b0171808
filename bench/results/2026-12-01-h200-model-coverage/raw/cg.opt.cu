// cg: conjugate gradient for the 2D Poisson equation (5-point Laplacian,
// matrix-free) on a 1024 x 1024 grid, 50 iterations: a stencil, dot
// products with atomics, and vector updates, launched every iteration.
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

// y = A x for the 5-point Laplacian with zero Dirichlet boundaries.
__global__ void apply_laplacian(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * n)
    return;
  int r = i / n, c = i % n;
  float v = 4.0f * x[i];
  if (c > 0) v -= x[i - 1];
  if (c < n - 1) v -= x[i + 1];
  if (r > 0) v -= x[i - n];
  if (r < n - 1) v -= x[i + n];
  y[i] = v;
}

__global__ void dot(const float *a, const float *b, float *result, int len) {
  __shared__ float part[THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  part[threadIdx.x] = i < len ? a[i] * b[i] : 0.0f;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(result, part[0]);
}

// x += alpha p; r -= alpha Ap
__global__ void update_xr(float *x, float *r, const float *p, const float *ap,
                          const float *rr, const float *pap, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < len) {
    float alpha = *rr / *pap;
    x[i] += alpha * p[i];
    r[i] -= alpha * ap[i];
  }
}

// p = r + beta p
__global__ void update_p(float *p, const float *r, const float *rr_new,
                         const float *rr_old, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < len)
    p[i] = r[i] + (*rr_new / *rr_old) * p[i];
}

static void cpu_laplacian(const std::vector<double> &x, std::vector<double> &y, int n) {
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      size_t i = (size_t)r * n + c;
      double v = 4 * x[i];
      if (c > 0) v -= x[i - 1];
      if (c < n - 1) v -= x[i + 1];
      if (r > 0) v -= x[i - n];
      if (r < n - 1) v -= x[i + n];
      y[i] = v;
    }
}

int main() {
  const int n = 1024, iters = 50;
  const int len = n * n;
  std::vector<float> b(len), x(len);
  srand(43);
  for (float &v : b)
    v = rand() / (float)RAND_MAX - 0.5f;
  float *dx, *dr, *dp, *dap, *ddots;
  CHECK(cudaMalloc(&dx, len * sizeof(float)));
  CHECK(cudaMalloc(&dr, len * sizeof(float)));
  CHECK(cudaMalloc(&dp, len * sizeof(float)));
  CHECK(cudaMalloc(&dap, len * sizeof(float)));
  CHECK(cudaMalloc(&ddots, 3 * iters * sizeof(float) + sizeof(float)));
  CHECK(cudaMemset(dx, 0, len * sizeof(float)));
  CHECK(cudaMemcpy(dr, b.data(), len * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dp, b.data(), len * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(ddots, 0, 3 * iters * sizeof(float) + sizeof(float)));
  int blocks = (len + THREADS - 1) / THREADS;
  // dots[0] = r.r; per iteration k: [3k+1] = p.Ap, [3k+2] = r.r new.
  dot<<<blocks, THREADS>>>(dr, dr, ddots, len);
  for (int k = 0; k < iters; ++k) {
    float *rr = ddots + 3 * k, *pap = ddots + 3 * k + 1, *rr_new = ddots + 3 * k + 3;
    apply_laplacian<<<blocks, THREADS>>>(dp, dap, n);
    dot<<<blocks, THREADS>>>(dp, dap, pap, len);
    update_xr<<<blocks, THREADS>>>(dx, dr, dp, dap, rr, pap, len);
    dot<<<blocks, THREADS>>>(dr, dr, rr_new, len);
    update_p<<<blocks, THREADS>>>(dp, dr, rr_new, rr, len);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(x.data(), dx, len * sizeof(float), cudaMemcpyDeviceToHost));

  // The same iterations on the CPU in double precision.
  std::vector<double> cx(len, 0), cr(b.begin(), b.end()), cp(cr), cap(len);
  double rr = 0;
  for (double v : cr)
    rr += v * v;
  double rr0 = rr;
  for (int k = 0; k < iters; ++k) {
    cpu_laplacian(cp, cap, n);
    double pap = 0;
    for (int i = 0; i < len; ++i)
      pap += cp[i] * cap[i];
    double alpha = rr / pap;
    double rr_new = 0;
    for (int i = 0; i < len; ++i) {
      cx[i] += alpha * cp[i];
      cr[i] -= alpha * cap[i];
      rr_new += cr[i] * cr[i];
    }
    for (int i = 0; i < len; ++i)
      cp[i] = cr[i] + rr_new / rr * cp[i];
    rr = rr_new;
  }
  double err = 0, norm = 0;
  for (int i = 0; i < len; ++i) {
    err += (x[i] - cx[i]) * (x[i] - cx[i]);
    norm += cx[i] * cx[i];
  }
  double rel = std::sqrt(err / norm);
  bool ok = rel < 1e-3 && rr < rr0;
  std::printf("%s cg (relative difference %.2e from the float64 CPU iterates, "
              "residual %.3e -> %.3e)\n", ok ? "PASSED" : "FAILED", rel,
              std::sqrt(rr0), std::sqrt(rr));
  cudaFree(dx);
  cudaFree(dr);
  cudaFree(dp);
  cudaFree(dap);
  cudaFree(ddots);
  return ok ? 0 : 1;
}
