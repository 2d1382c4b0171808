// Tuned by cuda-rewrite-opt 0.1.0 on NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04, nvcc 13.0.88), 2026-12-07 13:12 UTC.
// Rewrites, kernel apply_laplacian: vectorize apply_laplacian.vectorize = 4
// Rewrites, kernel dot: block-size dot.block = 512
// Rewrites, kernel update_xr: vectorize update_xr.vectorize = 2
// Measured (the program's GPU time (every launch of every kernel)): 1.3185 ms (IQR 0.0019 ms) against 1.6363 ms (IQR 0.0006 ms) for the original: 1.24x (at least 1.24x at 95% confidence), 5 interleaved runs each; outputs verified against the original's.
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
#define dot_THREADS 512

// y = A x for the 5-point Laplacian with zero Dirichlet boundaries.
__global__ void apply_laplacian(const float *x, float *y, int n) {
  // cuda-rewrite-opt: 4 consecutive elements per thread, loaded and stored as vectors when the addresses are aligned
  const int i_first = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i_first + 4 <= n * n && i_first + 4 <= (1048576 + (int)blockDim.x - 1) / (int)blockDim.x * (int)blockDim.x &&
      reinterpret_cast<unsigned long long>(x + i_first) % sizeof(float4) == 0 &&
      reinterpret_cast<unsigned long long>(y + i_first) % sizeof(float4) == 0) {
    float x_v[4];
    const float4 x_v_q = *reinterpret_cast<const float4 *>(x + i_first);
    x_v[0] = x_v_q.x;
    x_v[1] = x_v_q.y;
    x_v[2] = x_v_q.z;
    x_v[3] = x_v_q.w;
    float y_v[4];
    #pragma unroll
    for (int lane = 0; lane < 4; ++lane) {
      const int i = i_first + lane;
      int r = i / n, c = i % n;
      float v = 4.0f * x_v[lane];
      if (c > 0) v -= x[i - 1];
      if (c < n - 1) v -= x[i + 1];
      if (r > 0) v -= x[i - n];
      if (r < n - 1) v -= x[i + n];
      y_v[lane] = v;
    }
    *reinterpret_cast<float4 *>(y + i_first) = make_float4(y_v[0], y_v[1], y_v[2], y_v[3]);
  } else {
    #pragma unroll
    for (int lane = 0; lane < 4; ++lane) {
      const int i = i_first + lane;
      if ((!(i >= n * n)) && i < (1048576 + (int)blockDim.x - 1) / (int)blockDim.x * (int)blockDim.x) {
        int r = i / n, c = i % n;
        float v = 4.0f * x[i];
        if (c > 0) v -= x[i - 1];
        if (c < n - 1) v -= x[i + 1];
        if (r > 0) v -= x[i - n];
        if (r < n - 1) v -= x[i + n];
        y[i] = v;
      }
    }
  }
}

__global__ void dot(const float *a, const float *b, float *result, int len) {
  __shared__ float part[dot_THREADS];
  int i = blockIdx.x * dot_THREADS + threadIdx.x;
  part[threadIdx.x] = i < len ? a[i] * b[i] : 0.0f;
  __syncthreads();
  for (int s = dot_THREADS / 2; s > 0; s >>= 1) {
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
  // cuda-rewrite-opt: 2 consecutive elements per thread, loaded and stored as vectors when the addresses are aligned
  const int i_first = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
  if (i_first + 2 <= len &&
      reinterpret_cast<unsigned long long>(x + i_first) % sizeof(float2) == 0 &&
      reinterpret_cast<unsigned long long>(p + i_first) % sizeof(float2) == 0 &&
      reinterpret_cast<unsigned long long>(r + i_first) % sizeof(float2) == 0 &&
      reinterpret_cast<unsigned long long>(ap + i_first) % sizeof(float2) == 0) {
    float x_v[2];
    const float2 x_v_q = *reinterpret_cast<const float2 *>(x + i_first);
    x_v[0] = x_v_q.x;
    x_v[1] = x_v_q.y;
    float p_v[2];
    const float2 p_v_q = *reinterpret_cast<const float2 *>(p + i_first);
    p_v[0] = p_v_q.x;
    p_v[1] = p_v_q.y;
    float r_v[2];
    const float2 r_v_q = *reinterpret_cast<const float2 *>(r + i_first);
    r_v[0] = r_v_q.x;
    r_v[1] = r_v_q.y;
    float ap_v[2];
    const float2 ap_v_q = *reinterpret_cast<const float2 *>(ap + i_first);
    ap_v[0] = ap_v_q.x;
    ap_v[1] = ap_v_q.y;
    #pragma unroll
    for (int lane = 0; lane < 2; ++lane) {
      float alpha = *rr / *pap;
      x_v[lane] += alpha * p_v[lane];
      r_v[lane] -= alpha * ap_v[lane];
    }
    *reinterpret_cast<float2 *>(x + i_first) = make_float2(x_v[0], x_v[1]);
    *reinterpret_cast<float2 *>(r + i_first) = make_float2(r_v[0], r_v[1]);
  } else {
    #pragma unroll
    for (int lane = 0; lane < 2; ++lane) {
      const int i = i_first + lane;
      if (i < len) {
        float alpha = *rr / *pap;
        x[i] += alpha * p[i];
        r[i] -= alpha * ap[i];
      }
    }
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
  dot<<<dim3((len + dot_THREADS - 1) / dot_THREADS), dim3(dot_THREADS)>>>(dr, dr, ddots, len);
  for (int k = 0; k < iters; ++k) {
    float *rr = ddots + 3 * k, *pap = ddots + 3 * k + 1, *rr_new = ddots + 3 * k + 3;
    apply_laplacian<<<((blocks) + 4 - 1) / 4, THREADS>>>(dp, dap, n);
    dot<<<dim3((len + dot_THREADS - 1) / dot_THREADS), dim3(dot_THREADS)>>>(dp, dap, pap, len);
    update_xr<<<((blocks) + 2 - 1) / 2, THREADS>>>(dx, dr, dp, dap, rr, pap, len);
    dot<<<dim3((len + dot_THREADS - 1) / dot_THREADS), dim3(dot_THREADS)>>>(dr, dr, rr_new, len);
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
