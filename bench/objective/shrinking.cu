// The objective benchmark (issue 18): a program whose main kernel is
// launched many times with shrinking sizes, as an LU factorization's
// per-column kernels or a time loop are -- the per-launch objective sees its
// first (largest) launches only, the program's GPU time every one -- plus a
// one-off setup kernel. bench/objective-gpu.sh makes its variant with one
// fewer of relax's 200 dependent FMAs per element (CHAIN 199): about 0.5%
// less work, identical outputs, which the main command must not write.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#ifndef CHAIN
#define CHAIN 200
#endif

__global__ void setup(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 0.5f * b[i];
}

// Each element: a chain of CHAIN dependent FMAs whose value only decides a
// branch no input takes (so the chain is kept and the output is the same
// whatever its length), then the real update.
__global__ void relax(float *a, const float *b, int n, float w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = b[i], acc = x;
  for (int r = 0; r < CHAIN; ++r)
    acc = fmaf(acc, 0.999f, x);
  if (acc < -1.0f)
    a[i] = 0.0f;
  else
    a[i] = a[i] * (1.0f - w) + w * x;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : (1 << 22);
  int steps = argc > 2 ? atoi(argv[2]) : 300;
  std::vector<float> b(n), a(n);
  srand(7);
  for (int i = 0; i < n; ++i)
    b[i] = (float)rand() / RAND_MAX;
  float *da, *db;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  setup<<<(n + 255) / 256, 256>>>(da, db, n);
  // Step s updates the first m(s) elements, m shrinking from n to n / 10.
  std::vector<int> m(steps);
  for (int s = 0; s < steps; ++s) {
    m[s] = n - (int)((double)s / steps * 0.9 * n);
    relax<<<(m[s] + 255) / 256, 256>>>(da, db, m[s], 0.25f);
  }
  cudaMemcpy(a.data(), da, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    printf("FAILED: CUDA error\n");
    return 1;
  }
  // CPU check: element i was updated by every step whose m exceeds i.
  int bad = 0;
  for (int i = 0; i < n; i += 97) {
    float ref = 0.5f * b[i];
    for (int s = 0; s < steps; ++s)
      if (i < m[s])
        ref = ref * (1.0f - 0.25f) + 0.25f * b[i];
    if (fabsf(a[i] - ref) > 1e-5f * (1.0f + fabsf(ref)))
      ++bad;
  }
  printf("%s (%d mismatches)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
