// Element-wise kernels whose work branches: a store on some paths only, an
// early return in the middle of the work, a stencil whose guard has a lower
// bound, a loop over taps per output, a size passed through a cast, and
// half-precision data. Written as a signal-processing utility would be.
//
// Usage: cpp_masked_ops [n]
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CUDA_OK(call)                                                          \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err_));                                       \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

typedef unsigned int uint_t;
#define TAPS 5
#define THREADS 256

// Samples above the threshold are copied; the others keep what out held.
__global__ void gate(const float *in, float *out, float threshold, int len) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < len) {
    float v = in[s];
    if (fabsf(v) > threshold)
      out[s] = v;
  }
}

// Flagged samples are left alone: the return comes after the flag is read.
__global__ void soft_clip(float *sig, const uint_t *flags, int len,
                          float knee) {
  int s = threadIdx.x + blockIdx.x * blockDim.x;
  if (s >= len)
    return;
  const float k = knee;
  if (flags[s] != 0u)
    return;
  float v = sig[s];
  sig[s] = v / (1.0f + fabsf(v) / k);
}

// Second difference on the interior: the guard bounds both sides.
__global__ void second_diff(const double *u, double *d2, int len) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s > 0 && s < len - 1)
    d2[s] = u[s - 1] - 2.0 * u[s] + u[s + 1];
}

// FIR filter, clamped at the edges: one output per thread, a loop of taps.
__global__ void fir(const float *x, const float *taps, float *y, int len) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= len)
    return;
  float acc = 0.0f;
  int t;
  for (t = 0; t < TAPS; t++) {
    int j = s + t - TAPS / 2;
    j = j < 0 ? 0 : (j >= len ? len - 1 : j);
    acc += taps[t] * x[j];
  }
  y[s] = acc;
}

// Half-precision gain, the length passed as (int) of a size_t.
__global__ void gain_half(__half *h, float g, int len) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < len)
    h[s] = __float2half(__half2float(h[s]) * g);
}

static float frand() { return (float)rand() / (float)RAND_MAX * 2.0f - 1.0f; }

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : (1 << 20) + 3;
  const size_t bytes = (size_t)n * sizeof(float);
  float *in = (float *)malloc(bytes), *out = (float *)malloc(bytes);
  float *sig = (float *)malloc(bytes), *y = (float *)malloc(bytes);
  uint_t *flags = (uint_t *)malloc((size_t)n * sizeof(uint_t));
  double *u = (double *)malloc((size_t)n * sizeof(double));
  double *d2 = (double *)malloc((size_t)n * sizeof(double));
  __half *h = (__half *)malloc((size_t)n * sizeof(__half));
  float taps[TAPS];
  for (int t = 0; t < TAPS; t++)
    taps[t] = frand();
  for (int i = 0; i < n; i++) {
    in[i] = frand();
    out[i] = -7.0f;
    sig[i] = 4.0f * frand();
    flags[i] = rand() % 3 == 0;
    u[i] = (double)frand();
    d2[i] = 0.0;
    h[i] = __float2half(frand());
  }

  float *d_in, *d_out, *d_sig, *d_taps, *d_y;
  uint_t *d_flags;
  double *d_u, *d_d2;
  __half *d_h;
  CUDA_OK(cudaMalloc(&d_in, bytes));
  CUDA_OK(cudaMalloc(&d_out, bytes));
  CUDA_OK(cudaMalloc(&d_sig, bytes));
  CUDA_OK(cudaMalloc(&d_y, bytes));
  CUDA_OK(cudaMalloc(&d_taps, sizeof(taps)));
  CUDA_OK(cudaMalloc(&d_flags, (size_t)n * sizeof(uint_t)));
  CUDA_OK(cudaMalloc(&d_u, (size_t)n * sizeof(double)));
  CUDA_OK(cudaMalloc(&d_d2, (size_t)n * sizeof(double)));
  CUDA_OK(cudaMalloc(&d_h, (size_t)n * sizeof(__half)));
  CUDA_OK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_out, out, bytes, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_sig, sig, bytes, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_taps, taps, sizeof(taps), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_flags, flags, (size_t)n * sizeof(uint_t), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_u, u, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_d2, d2, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_h, h, (size_t)n * sizeof(__half), cudaMemcpyHostToDevice));

  const size_t count = (size_t)n;
  const int blocks = (n + THREADS - 1) / THREADS;
  gate<<<blocks, THREADS>>>(d_in, d_out, 0.5f, n);
  soft_clip<<<blocks, THREADS>>>(d_sig, d_flags, n, 1.5f);
  second_diff<<<(n + 127) / 128, 128>>>(d_u, d_d2, n);
  fir<<<blocks, THREADS>>>(d_in, d_taps, d_y, n);
  gain_half<<<(count + 511) / 512, 512>>>(d_h, 0.75f, (int)count);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());

  float *g_out = (float *)malloc(bytes), *g_sig = (float *)malloc(bytes);
  float *g_y = (float *)malloc(bytes);
  double *g_d2 = (double *)malloc((size_t)n * sizeof(double));
  __half *g_h = (__half *)malloc((size_t)n * sizeof(__half));
  CUDA_OK(cudaMemcpy(g_out, d_out, bytes, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(g_sig, d_sig, bytes, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(g_y, d_y, bytes, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(g_d2, d_d2, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(g_h, d_h, (size_t)n * sizeof(__half), cudaMemcpyDeviceToHost));

  long bad = 0;
  for (int s = 0; s < n; s++) {
    float o = fabsf(in[s]) > 0.5f ? in[s] : -7.0f;
    bad += g_out[s] != o;
    float c = flags[s] ? sig[s] : sig[s] / (1.0f + fabsf(sig[s]) / 1.5f);
    bad += fabsf(g_sig[s] - c) > 1e-6f * (1.0f + fabsf(c));
    double e = (s > 0 && s < n - 1) ? u[s - 1] - 2.0 * u[s] + u[s + 1] : 0.0;
    bad += fabs(g_d2[s] - e) > 1e-12;
    float acc = 0.0f;
    for (int t = 0; t < TAPS; t++) {
      int j = s + t - TAPS / 2;
      j = j < 0 ? 0 : (j >= n ? n - 1 : j);
      acc += taps[t] * in[j];
    }
    bad += fabsf(g_y[s] - acc) > 1e-5f * (1.0f + fabsf(acc));
    float hg = __half2float(__float2half(__half2float(h[s]) * 0.75f));
    bad += __half2float(g_h[s]) != hg;
  }
  printf("n=%d mismatches=%ld\n", n, bad);
  printf("%s cpp_masked_ops\n", bad == 0 ? "PASSED" : "FAILED");
  return bad == 0 ? 0 : 1;
}
