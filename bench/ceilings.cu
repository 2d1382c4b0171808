// Hardware ceilings that the benchmark kernels are compared to, measured on
// the GPU this runs on: device-to-device copy bandwidth, cuBLAS SGEMM (fp32,
// no tensor cores) and the fp32 FMA peak. Prints one JSON object on stdout;
// diagnostics go to stderr.
//
// Build: nvcc -O3 -arch=sm_90 bench/ceilings.cu -lcublas -o ceilings
//
// Every measurement is timed with CUDA events (GPU clock), after a warm-up,
// one event pair per repetition; median, min and max over the repetitions.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,           \
              cudaGetErrorString(err_));                                      \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

#define CUBLAS_CHECK(call)                                                    \
  do {                                                                        \
    cublasStatus_t st_ = (call);                                              \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                       \
      fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__,    \
              #call, (int)st_);                                               \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

constexpr int kWarmup = 3;
constexpr int kReps = 30;  // at least 20 asked for

struct Stats {
  double median, min, max;
};

static Stats stats_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return {med, v.front(), v.back()};
}

// Runs op() kWarmup times untimed, then kReps times each between its own pair
// of events; returns the per-repetition times in milliseconds.
template <typename Op>
static std::vector<double> time_ms(Op op) {
  for (int i = 0; i < kWarmup; ++i) op();
  CUDA_CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> ms;
  for (int i = 0; i < kReps; ++i) {
    CUDA_CHECK(cudaEventRecord(start));
    op();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0.f;
    CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return ms;
}

static void print_stats(const char* key, Stats s) {
  printf("\"%s\": {\"median\": %.4f, \"min\": %.4f, \"max\": %.4f}", key,
         s.median, s.min, s.max);
}

__global__ void copy_kernel(const float4* __restrict__ src,
                            float4* __restrict__ dst, size_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    dst[i] = src[i];
}

// Uniform values in [-0.5, 0.5] from an integer hash (no cuRAND needed).
__global__ void fill_random(float* x, size_t n, unsigned seed) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    unsigned h = (unsigned)i * 2654435761u ^ seed;
    h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
    x[i] = (h >> 8) * (1.0f / 16777216.0f) - 0.5f;
  }
}

// 8 independent FMA chains per thread so the FMA latency is hidden by
// instruction-level parallelism as well as by other warps. a and b come from
// the host so nothing can be folded at compile time; with |a| < 1 the chains
// converge and never reach inf or denormals. The sum is stored so the work
// is not dead code.
constexpr int kChains = 8;
__global__ void fma_peak(float* out, int iters, float a, float b) {
  float acc[kChains];
#pragma unroll
  for (int j = 0; j < kChains; ++j) acc[j] = threadIdx.x + j;
#pragma unroll 16
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < kChains; ++j) acc[j] = fmaf(acc[j], a, b);
  }
  float sum = 0.f;
#pragma unroll
  for (int j = 0; j < kChains; ++j) sum += acc[j];
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Enough blocks of `threads` to fill every SM at the kernel's occupancy.
template <typename K>
static int full_grid(K kernel, int threads, int sms) {
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
                                                           threads, 0));
  return std::max(per_sm, 1) * sms;
}

int main() {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  int sms = 0, sm_khz = 0, mem_khz = 0, bus_bits = 0, driver = 0, runtime = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  // Clock attributes may be unsupported on some setups: report 0 then.
  if (cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, dev) != cudaSuccess)
    sm_khz = 0;
  if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev) !=
      cudaSuccess)
    mem_khz = 0;
  if (cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth,
                             dev) != cudaSuccess)
    bus_bits = 0;
  (void)cudaGetLastError();  // clear any error left by the optional queries
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  fprintf(stderr, "device: %s, cc %d.%d, %d SMs\n", prop.name, prop.major,
          prop.minor, sms);

  // 1. Device-to-device copy of 1 GiB; bytes moved = read + write = 2 * size.
  const size_t bytes = size_t(1) << 30;
  float *src = nullptr, *dst = nullptr;
  CUDA_CHECK(cudaMalloc(&src, bytes));
  CUDA_CHECK(cudaMalloc(&dst, bytes));
  CUDA_CHECK(cudaMemset(src, 1, bytes));
  CUDA_CHECK(cudaMemset(dst, 0, bytes));
  auto to_gbps = [&](std::vector<double> ms) {
    for (double& t : ms) t = 2.0 * bytes / (t * 1e-3) / 1e9;
    return stats_of(ms);
  };
  Stats memcpy_gbps = to_gbps(time_ms([&] {
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice));
  }));
  const int copy_threads = 256;
  const int copy_blocks = full_grid(copy_kernel, copy_threads, sms);
  Stats kernel_gbps = to_gbps(time_ms([&] {
    copy_kernel<<<copy_blocks, copy_threads>>>(
        reinterpret_cast<const float4*>(src), reinterpret_cast<float4*>(dst),
        bytes / sizeof(float4));
    CUDA_CHECK(cudaGetLastError());
  }));
  CUDA_CHECK(cudaFree(src));
  CUDA_CHECK(cudaFree(dst));

  // 2. cuBLAS SGEMM, fp32 without tensor cores (pedantic math: no TF32).
  // cuBLAS is column-major while the project's naive kernel computes a
  // row-major C = A*B; both are n^3 multiply-adds on n x n matrices, so the
  // plain column-major C = A*B call times the same amount of work.
  const int sizes[] = {1024, 2048, 4096};
  const size_t max_elems = size_t(4096) * 4096;
  float *A = nullptr, *B = nullptr, *C = nullptr;
  CUDA_CHECK(cudaMalloc(&A, max_elems * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&B, max_elems * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&C, max_elems * sizeof(float)));
  fill_random<<<sms * 8, 256>>>(A, max_elems, 0x1234u);
  CUDA_CHECK(cudaGetLastError());
  fill_random<<<sms * 8, 256>>>(B, max_elems, 0xabcdu);
  CUDA_CHECK(cudaGetLastError());
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));
  std::vector<Stats> gemm_ms;
  for (int n : sizes) {
    const float alpha = 1.f, beta = 0.f;
    gemm_ms.push_back(stats_of(time_ms([&] {
      CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                               &alpha, A, n, B, n, &beta, C, n));
    })));
  }
  CUBLAS_CHECK(cublasDestroy(handle));
  CUDA_CHECK(cudaFree(A));
  CUDA_CHECK(cudaFree(B));
  CUDA_CHECK(cudaFree(C));

  // 3. fp32 FMA peak: 2 flops per FMA.
  const int fma_threads = 256, iters = 1 << 16;
  const int fma_blocks = full_grid(fma_peak, fma_threads, sms);
  float* out = nullptr;
  CUDA_CHECK(cudaMalloc(&out, (size_t)fma_blocks * fma_threads * sizeof(float)));
  Stats fma_ms = stats_of(time_ms([&] {
    fma_peak<<<fma_blocks, fma_threads>>>(out, iters, 0.999f, 0.001f);
    CUDA_CHECK(cudaGetLastError());
  }));
  CUDA_CHECK(cudaFree(out));
  const double fma_flops =
      2.0 * kChains * iters * (double)fma_blocks * fma_threads;

  // The one JSON object. Device names are plain ASCII without quotes.
  printf("{\"device\": \"%s\", \"cc\": \"%d.%d\", \"sms\": %d, ", prop.name,
         prop.major, prop.minor, sms);
  printf("\"sm_clock_khz\": %d, \"mem_clock_khz\": %d, \"mem_bus_bits\": %d, ",
         sm_khz, mem_khz, bus_bits);
  printf("\"driver\": %d, \"runtime\": %d, \"copy\": {", driver, runtime);
  print_stats("memcpy_gbps", memcpy_gbps);
  printf(", ");
  print_stats("kernel_gbps", kernel_gbps);
  printf(", \"bytes\": %zu}, \"copy_gbps\": %.2f, \"sgemm\": [", bytes,
         std::max(memcpy_gbps.median, kernel_gbps.median));
  for (size_t i = 0; i < gemm_ms.size(); ++i) {
    const double n = sizes[i];
    printf("%s{\"n\": %d, ", i ? ", " : "", sizes[i]);
    print_stats("ms", gemm_ms[i]);
    printf(", \"gflops\": %.1f}", 2.0 * n * n * n / (gemm_ms[i].median * 1e-3) / 1e9);
  }
  printf("], \"fp32_peak_gflops\": %.1f, ",
         fma_flops / (fma_ms.median * 1e-3) / 1e9);
  print_stats("fp32_peak_ms", fma_ms);
  printf("}\n");
  return 0;
}
