// lay_thrust_cub: hand-written kernels living next to Thrust and CUB, the way
// most application code uses CCCL. Storage is thrust::device_vector, raw
// pointers go to the hand-written kernels through thrust::raw_pointer_cast,
// the block reduction uses cub::BlockReduce with a template block size, and
// the second stages use thrust::reduce, thrust::transform and
// cub::DeviceReduce::Sum.
//
//   y   = alpha * x + beta                      (affine_kernel)
//   ssq = sum(y * y)                            (sum_squares_kernel + thrust::reduce)
//   dot = sum(x * y)                            (thrust::transform + cub::DeviceReduce::Sum)
//
// Usage: lay_thrust_cub [n]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

static void cuda_check(cudaError_t err, const char *file, int line) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "[CUDA ERROR] at file %s:%d:\n%s\n", file, line,
                 cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
  }
}
#define cudaCheck(err) (cuda_check(err, __FILE__, __LINE__))

constexpr int kAffineThreads = 512;
constexpr int kReduceThreads = 256;

__global__ void affine_kernel(const float *__restrict__ x, float *__restrict__ y,
                              float alpha, float beta, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) {
    y[idx] = alpha * x[idx] + beta;
  }
}

// One partial sum of squares per block; BLOCK must equal blockDim.x.
template <int BLOCK>
__global__ void sum_squares_kernel(const float *__restrict__ in,
                                   float *__restrict__ block_sums, int n) {
  using BlockReduce = cub::BlockReduce<float, BLOCK>;
  __shared__ typename BlockReduce::TempStorage temp_storage;

  int idx = blockIdx.x * BLOCK + threadIdx.x;
  float v = 0.0f;
  if (idx < n) {
    float t = in[idx];
    v = t * t;
  }
  float block_total = BlockReduce(temp_storage).Sum(v);
  if (threadIdx.x == 0) {
    block_sums[blockIdx.x] = block_total;
  }
}

static bool close_rel(double got, double want, double tol) {
  return std::fabs(got - want) <= tol * std::fabs(want);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : (1 << 23) + 19;
  const float alpha = 2.0f, beta = 0.5f;

  // Inputs in [0, 1): every sum below is of positive terms.
  std::srand(777);
  thrust::host_vector<float> h_x(n);
  for (int i = 0; i < n; ++i) h_x[i] = std::rand() / (RAND_MAX + 1.0f);

  thrust::device_vector<float> d_x = h_x;
  thrust::device_vector<float> d_y(n);

  // Stage 1: hand-written elementwise kernel on device_vector storage.
  const int affine_blocks = (n + kAffineThreads - 1) / kAffineThreads;
  affine_kernel<<<affine_blocks, kAffineThreads>>>(
      thrust::raw_pointer_cast(d_x.data()), thrust::raw_pointer_cast(d_y.data()),
      alpha, beta, n);
  cudaCheck(cudaGetLastError());

  // Stage 2: block sums with cub::BlockReduce, then thrust::reduce over them.
  const int reduce_blocks = (n + kReduceThreads - 1) / kReduceThreads;
  thrust::device_vector<float> d_block_sums(reduce_blocks);
  sum_squares_kernel<kReduceThreads><<<reduce_blocks, kReduceThreads>>>(
      thrust::raw_pointer_cast(d_y.data()),
      thrust::raw_pointer_cast(d_block_sums.data()), n);
  cudaCheck(cudaGetLastError());
  const float ssq = thrust::reduce(d_block_sums.begin(), d_block_sums.end(), 0.0f,
                                   thrust::plus<float>());

  // Stage 3: x * y with thrust::transform, summed with cub::DeviceReduce.
  thrust::device_vector<float> d_xy(n);
  thrust::transform(d_x.begin(), d_x.end(), d_y.begin(), d_xy.begin(),
                    thrust::multiplies<float>());
  thrust::device_vector<float> d_dot(1);
  void *d_temp = nullptr;
  size_t temp_bytes = 0;
  cudaCheck(cub::DeviceReduce::Sum(d_temp, temp_bytes,
                                   thrust::raw_pointer_cast(d_xy.data()),
                                   thrust::raw_pointer_cast(d_dot.data()), n));
  cudaCheck(cudaMalloc(&d_temp, temp_bytes));
  cudaCheck(cub::DeviceReduce::Sum(d_temp, temp_bytes,
                                   thrust::raw_pointer_cast(d_xy.data()),
                                   thrust::raw_pointer_cast(d_dot.data()), n));
  cudaCheck(cudaGetLastError());
  cudaCheck(cudaDeviceSynchronize());
  const float dot = d_dot[0];

  thrust::host_vector<float> h_y = d_y;
  thrust::host_vector<float> h_block_sums = d_block_sums;

  // CPU reference (double accumulation).
  size_t bad = 0;
  double ssq_ref = 0.0, dot_ref = 0.0;
  for (int i = 0; i < n; ++i) {
    const float y_ref = alpha * h_x[i] + beta;
    if (!(std::fabs(h_y[i] - y_ref) <= 1e-6f * (1.0f + std::fabs(y_ref)))) ++bad;
    ssq_ref += (double)y_ref * y_ref;
    dot_ref += (double)h_x[i] * y_ref;
  }
  // Each block's partial on its own, too (256 positive terms).
  for (int b = 0; b < reduce_blocks; ++b) {
    double part = 0.0;
    const int end = (b + 1) * kReduceThreads < n ? (b + 1) * kReduceThreads : n;
    for (int i = b * kReduceThreads; i < end; ++i) {
      const double y_ref = (double)(alpha * h_x[i] + beta);
      part += y_ref * y_ref;
    }
    if (!close_rel(h_block_sums[b], part, 1e-5)) ++bad;
  }
  if (!close_rel(ssq, ssq_ref, 1e-4)) {
    std::printf("sum of squares %.7g, expected %.7g\n", ssq, ssq_ref);
    ++bad;
  }
  if (!close_rel(dot, dot_ref, 1e-4)) {
    std::printf("dot %.7g, expected %.7g\n", dot, dot_ref);
    ++bad;
  }

  cudaCheck(cudaFree(d_temp));
  if (bad) {
    std::printf("FAILED lay_thrust_cub (%zu wrong)\n", bad);
    return 1;
  }
  std::printf("PASSED lay_thrust_cub\n");
  return 0;
}
