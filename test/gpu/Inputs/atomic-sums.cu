// Naive reductions written with one atomic per thread, in C style: a dot
// product into one float, a count of matching elements through a
// grid-stride loop, per-block sums in double, and a maximum and a bit set
// (atomicMax, atomicOr). The data are small
// integers, so every partial sum is exact in float (below 2^24) and double:
// the program checks every result against the CPU exactly, whatever order
// the additions take, and prints PASSED.
// Used by the warp-aggregate GPU checks (bench/results/...-warp-aggregate).
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N (1 << 22)
#define THREADS 256
#define CHECK(call)                                                         \
  do {                                                                      \
    cudaError_t e_ = (call);                                                \
    if (e_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));           \
      exit(2);                                                              \
    }                                                                       \
  } while (0)

__global__ void dot_kernel(const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, x[i] * y[i]);
}

__global__ void count_kernel(const float *x, unsigned int *hits, float t,
                             int n) {
  int i;
  for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    if (x[i] > t)
      atomicAdd(hits, 1u);
  }
}

__global__ void block_sum_kernel(const float *x, double *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(sums + blockIdx.x, (double)x[i]);
}

__global__ void peak_kernel(const float *x, int *peak, unsigned int *seen,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = (int)x[i] * (i % 1000);
    atomicMax(peak, v);
    atomicOr(seen, 1u << ((int)x[i] + 1));
  }
}

int main(void) {
  const int blocks = (N + THREADS - 1) / THREADS;
  float *hx = (float *)malloc(N * sizeof(float));
  float *hy = (float *)malloc(N * sizeof(float));
  double *hs = (double *)malloc(blocks * sizeof(double));
  srand(7);
  for (int i = 0; i < N; i++) {
    hx[i] = (float)(rand() % 4 - 1); // -1 .. 2
    hy[i] = (float)(rand() % 3);     // 0 .. 2: |dot| <= 4 N < 2^24
  }
  float *dx, *dy, *ddot;
  unsigned int *dhits;
  double *dsums;
  int *dpeak;
  unsigned int *dseen;
  CHECK(cudaMalloc(&dx, N * sizeof(float)));
  CHECK(cudaMalloc(&dy, N * sizeof(float)));
  CHECK(cudaMalloc(&ddot, sizeof(float)));
  CHECK(cudaMalloc(&dhits, sizeof(unsigned int)));
  CHECK(cudaMalloc(&dsums, blocks * sizeof(double)));
  CHECK(cudaMalloc(&dpeak, sizeof(int)));
  CHECK(cudaMalloc(&dseen, sizeof(unsigned int)));
  CHECK(cudaMemcpy(dx, hx, N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, hy, N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(ddot, 0, sizeof(float)));
  CHECK(cudaMemset(dhits, 0, sizeof(unsigned int)));
  CHECK(cudaMemset(dsums, 0, blocks * sizeof(double)));
  CHECK(cudaMemset(dpeak, 0x80, sizeof(int))); // a very negative int
  CHECK(cudaMemset(dseen, 0, sizeof(unsigned int)));

  dot_kernel<<<blocks, THREADS>>>(dx, dy, ddot, N);
  count_kernel<<<264, THREADS>>>(dx, dhits, 0.5f, N);
  block_sum_kernel<<<blocks, THREADS>>>(dx, dsums, N);
  peak_kernel<<<blocks, THREADS>>>(dx, dpeak, dseen, N);
  CHECK(cudaGetLastError());
  float dot;
  unsigned int hits, seen;
  int peak;
  CHECK(cudaMemcpy(&dot, ddot, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hits, dhits, sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&peak, dpeak, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&seen, dseen, sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hs, dsums, blocks * sizeof(double), cudaMemcpyDeviceToHost));

  double ref = 0;
  unsigned int refHits = 0, refSeen = 0;
  int refPeak = (int)0x80808080;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    ref += (double)hx[i] * hy[i];
    refHits += hx[i] > 0.5f;
    int v = (int)hx[i] * (i % 1000);
    refPeak = v > refPeak ? v : refPeak;
    refSeen |= 1u << ((int)hx[i] + 1);
  }
  for (int b = 0; b < blocks; b++) {
    double s = 0;
    for (int i = b * THREADS; i < (b + 1) * THREADS && i < N; i++)
      s += hx[i];
    if (hs[b] != s)
      bad++;
  }
  if (dot != ref || hits != refHits || bad || peak != refPeak ||
      seen != refSeen) {
    printf("FAILED: dot %f (cpu %f), hits %u (cpu %u), %d bad block sums, "
           "peak %d (cpu %d), seen %x (cpu %x)\n",
           dot, ref, hits, refHits, bad, peak, refPeak, seen, refSeen);
    return 1;
  }
  printf("PASSED: dot %f, hits %u\n", dot, hits);
  return 0;
}
