// cpp_template_block: kernels parameterised on the block size (template
// int BLOCK) and on the element type (template typename T), in the style of
// header-only C++ CUDA libraries.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t status_ = (call);                                              \
    if (status_ != cudaSuccess) {                                              \
      std::fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__,      \
                   cudaGetErrorString(status_));                               \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

using real_t = float;
using index_t = int;

// out[i] = alpha * in[i]; the compile-time BLOCK must equal blockDim.x.
template <int BLOCK>
__global__ void scale_kernel(const real_t *__restrict__ in,
                             real_t *__restrict__ out, real_t alpha,
                             index_t n) {
  const index_t i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n)
    out[i] = alpha * in[i];
}

// Generic binary elementwise op: z = x * y + c
template <typename T>
__global__ void fma_elementwise(const T *__restrict__ x,
                                const T *__restrict__ y, T c, T *z,
                                index_t n) {
  index_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T a = x[i];
    T b = y[i];
    z[i] = a * b + c;
  }
}

// One partial sum per block; BLOCK must be a power of two equal to
// blockDim.x.
template <int BLOCK>
__global__ void block_sum_kernel(const real_t *__restrict__ in,
                                 real_t *partial, index_t n) {
  __shared__ real_t buf[BLOCK];
  const index_t i = blockIdx.x * BLOCK + threadIdx.x;
  buf[threadIdx.x] = (i < n) ? in[i] : real_t(0);
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = buf[0];
}

constexpr int kSumBlock = 128;

int main(int argc, char **argv) {
  const index_t n = argc > 1 ? std::atoi(argv[1]) : 3000017;
  const real_t alpha = 0.625f, c = 0.125f;

  srand(42);
  std::vector<real_t> x(n), y(n);
  for (index_t i = 0; i < n; ++i) {
    x[i] = rand() / (real_t)RAND_MAX - 0.5f;
    y[i] = rand() / (real_t)RAND_MAX - 0.5f;
  }
  std::vector<double> xd(n), yd(n);
  for (index_t i = 0; i < n; ++i) { xd[i] = 0.5 * x[i] + 0.25; yd[i] = y[i]; }

  std::vector<real_t> s_ref(n), z_ref(n);
  double sum_ref = 0.0;
  for (index_t i = 0; i < n; ++i) {
    s_ref[i] = alpha * x[i];
    z_ref[i] = x[i] * y[i] + c;
    sum_ref += s_ref[i];
  }
  std::vector<double> zd_ref(n);
  for (index_t i = 0; i < n; ++i) zd_ref[i] = xd[i] * yd[i] + 2.0;

  real_t *dx, *dy, *ds, *dz, *dpart;
  double *dxd, *dyd, *dzd;
  const int grid = (n + 256 - 1) / 256;
  const int sum_grid = (n + kSumBlock - 1) / kSumBlock;
  CHECK(cudaMalloc(&dx, n * sizeof(real_t)));
  CHECK(cudaMalloc(&dy, n * sizeof(real_t)));
  CHECK(cudaMalloc(&ds, n * sizeof(real_t)));
  CHECK(cudaMalloc(&dz, n * sizeof(real_t)));
  CHECK(cudaMalloc(&dpart, sum_grid * sizeof(real_t)));
  CHECK(cudaMalloc(&dxd, n * sizeof(double)));
  CHECK(cudaMalloc(&dyd, n * sizeof(double)));
  CHECK(cudaMalloc(&dzd, n * sizeof(double)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(real_t), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(real_t), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dxd, xd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dyd, yd.data(), n * sizeof(double), cudaMemcpyHostToDevice));

  scale_kernel<256><<<grid, 256>>>(dx, ds, alpha, n);
  CHECK(cudaGetLastError());
  const int threads = 512;
  fma_elementwise<real_t><<<(n + threads - 1) / threads, threads>>>(dx, dy, c, dz, n);
  CHECK(cudaGetLastError());
  fma_elementwise<double><<<(n + threads - 1) / threads, threads>>>(dxd, dyd, 2.0, dzd, n);
  CHECK(cudaGetLastError());
  block_sum_kernel<kSumBlock><<<sum_grid, kSumBlock>>>(ds, dpart, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<real_t> s(n), z(n), part(sum_grid);
  std::vector<double> zd(n);
  CHECK(cudaMemcpy(s.data(), ds, n * sizeof(real_t), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(z.data(), dz, n * sizeof(real_t), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(zd.data(), dzd, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(part.data(), dpart, sum_grid * sizeof(real_t), cudaMemcpyDeviceToHost));

  size_t bad = 0;
  for (index_t i = 0; i < n; ++i) {
    if (!(std::fabs(s[i] - s_ref[i]) <= 1e-5f * (1.0f + std::fabs(s_ref[i])))) ++bad;
    if (!(std::fabs(z[i] - z_ref[i]) <= 1e-5f * (1.0f + std::fabs(z_ref[i])))) ++bad;
    if (!(std::fabs(zd[i] - zd_ref[i]) <= 1e-12 * (1.0 + std::fabs(zd_ref[i])))) ++bad;
  }
  double sum = 0.0, abs_sum = 0.0;
  for (int b = 0; b < sum_grid; ++b) sum += part[b];
  for (index_t i = 0; i < n; ++i) abs_sum += std::fabs(s_ref[i]);
  if (!(std::fabs(sum - sum_ref) <= 1e-3 * (1.0 + std::fabs(sum_ref)) + 1e-6 * abs_sum))
    ++bad;

  if (bad)
    std::printf("FAILED cpp_template_block (%zu wrong)\n", bad);
  else
    std::printf("PASSED cpp_template_block\n");
  cudaFree(dx); cudaFree(dy); cudaFree(ds); cudaFree(dz); cudaFree(dpart);
  cudaFree(dxd); cudaFree(dyd); cudaFree(dzd);
  return bad ? 1 : 0;
}
