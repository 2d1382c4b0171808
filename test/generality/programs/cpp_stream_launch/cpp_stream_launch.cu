// cpp_stream_launch: kernels launched on an explicitly created stream, two
// through the runtime API cudaLaunchKernel (as generated / library code
// does) and one through the triple-chevron syntax with a stream argument.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(expr)                                                            \
  do {                                                                         \
    cudaError_t rc_ = (expr);                                                  \
    if (rc_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s failed at %s:%d: %s\n", #expr, __FILE__,        \
                   __LINE__, cudaGetErrorString(rc_));                         \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

static constexpr unsigned kThreadsPerBlock = 128;

__global__ void clamp_kernel(float *data, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = data[i];
    data[i] = fminf(fmaxf(v, lo), hi);
  }
}

__global__ void squared_diff_kernel(const float *a, const float *b, float *out,
                                    int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float d = a[i] - b[i];
  out[i] = d * d;
}

// acc = acc * decay + w * in  (exponential moving average)
__global__ void ema_kernel(const float *in, float *acc, float decay, float w,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    acc[i] = acc[i] * decay + w * in[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 5000011;
  float lo = -0.25f, hi = 0.5f, decay = 0.9f, w = 0.1f;

  srand(777);
  std::vector<float> a(n), b(n), acc(n);
  for (int i = 0; i < n; ++i) {
    a[i] = rand() / (float)RAND_MAX * 2.0f - 1.0f;
    b[i] = rand() / (float)RAND_MAX * 2.0f - 1.0f;
    acc[i] = rand() / (float)RAND_MAX;
  }

  std::vector<float> a_ref(n), sq_ref(n), acc_ref(n);
  for (int i = 0; i < n; ++i) {
    a_ref[i] = std::fmin(std::fmax(a[i], lo), hi);
    float d = a_ref[i] - b[i];
    sq_ref[i] = d * d;
    acc_ref[i] = acc[i] * decay + w * sq_ref[i];
  }

  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  float *d_a, *d_b, *d_sq, *d_acc;
  size_t bytes = n * sizeof(float);
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMalloc(&d_sq, bytes));
  CHECK(cudaMalloc(&d_acc, bytes));
  CHECK(cudaMemcpyAsync(d_a, a.data(), bytes, cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyAsync(d_b, b.data(), bytes, cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyAsync(d_acc, acc.data(), bytes, cudaMemcpyHostToDevice, stream));

  dim3 block(kThreadsPerBlock);
  dim3 grid((n + kThreadsPerBlock - 1) / kThreadsPerBlock);

  void *clamp_args[] = {&d_a, &lo, &hi, &n};
  CHECK(cudaLaunchKernel((const void *)clamp_kernel, grid, block, clamp_args, 0,
                         stream));
  CHECK(cudaGetLastError());

  void *sq_args[] = {&d_a, &d_b, &d_sq, &n};
  CHECK(cudaLaunchKernel((const void *)squared_diff_kernel, grid, block,
                         sq_args, 0, stream));
  CHECK(cudaGetLastError());

  ema_kernel<<<grid, block, 0, stream>>>(d_sq, d_acc, decay, w, n);
  CHECK(cudaGetLastError());

  CHECK(cudaMemcpyAsync(a.data(), d_a, bytes, cudaMemcpyDeviceToHost, stream));
  std::vector<float> sq(n);
  CHECK(cudaMemcpyAsync(sq.data(), d_sq, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(acc.data(), d_acc, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));

  size_t bad = 0;
  for (int i = 0; i < n; ++i) {
    if (!(std::fabs(a[i] - a_ref[i]) <= 1e-5f * (1.0f + std::fabs(a_ref[i])))) ++bad;
    if (!(std::fabs(sq[i] - sq_ref[i]) <= 1e-5f * (1.0f + std::fabs(sq_ref[i])))) ++bad;
    if (!(std::fabs(acc[i] - acc_ref[i]) <= 1e-5f * (1.0f + std::fabs(acc_ref[i])))) ++bad;
  }
  if (bad)
    std::printf("FAILED cpp_stream_launch (%zu wrong)\n", bad);
  else
    std::printf("PASSED cpp_stream_launch\n");

  CHECK(cudaStreamDestroy(stream));
  cudaFree(d_a); cudaFree(d_b); cudaFree(d_sq); cudaFree(d_acc);
  return bad ? 1 : 0;
}
