// lay_cccl_traits: type-generic elementwise and reduction kernels written
// against libcu++ (CCCL) instead of the host standard library, the way code
// that must compile for both host and device usually ends up: cuda::std type
// traits, numeric_limits, array and cmath inside templated kernels, and a
// per-type launch configuration in a traits struct. Everything runs for float
// and for double.
//
// Usage: lay_cccl_traits [n] [rows] [cols]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <cuda/std/array>
#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#define CUDA_TRY(call)                                                         \
  do {                                                                         \
    cudaError_t status_ = (call);                                              \
    if (status_ != cudaSuccess) {                                              \
      std::fprintf(stderr, "CUDA call '%s' failed at %s:%d: %s\n", #call,      \
                   __FILE__, __LINE__, cudaGetErrorString(status_));           \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

// Launch shapes per element type: double gets smaller blocks.
template <typename T>
struct launch_traits {
  static constexpr int threads = 256;
  static constexpr int reduce_threads = 256;
};
template <>
struct launch_traits<double> {
  static constexpr int threads = 128;
  static constexpr int reduce_threads = 128;
};

// Coefficients of the cubic applied by poly_clamp_kernel, low order first.
template <typename T>
using cubic_t = cuda::std::array<T, 4>;

// out[i] = clamp(a * x[i] + y[i], lo, hi)
template <typename T>
__global__ void axpy_clamp_kernel(int n, T a, const T *__restrict__ x,
                                  const T *__restrict__ y, T lo, T hi,
                                  T *__restrict__ out) {
  static_assert(cuda::std::is_floating_point<T>::value,
                "axpy_clamp_kernel needs a floating-point element type");
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const T v = a * x[i] + y[i];
    out[i] = cuda::std::fmin(cuda::std::fmax(v, lo), hi);
  }
}

// out[i] = c0 + c1 x + c2 x^2 + c3 x^3 (Horner), values below the type's
// epsilon in magnitude flushed to zero.
template <typename T>
__global__ void poly_clamp_kernel(int n, cubic_t<T> c, const T *__restrict__ x,
                                  T *__restrict__ out) {
  static_assert(cuda::std::is_floating_point<T>::value,
                "poly_clamp_kernel needs a floating-point element type");
  using limits = cuda::std::numeric_limits<T>;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const T t = x[i];
  T r = c[3];
  for (int k = 2; k >= 0; --k) r = r * t + c[k];
  out[i] = cuda::std::fabs(r) < limits::epsilon() ? T(0) : r;
}

// Maximum of each row of a rows x cols matrix; one block per row, BLOCK
// threads stride over the columns and combine in shared memory. The identity
// is numeric_limits<T>::lowest().
template <typename T, int BLOCK>
__global__ void row_max_kernel(int rows, int cols, const T *__restrict__ m,
                               T *__restrict__ row_max) {
  static_assert(cuda::std::is_arithmetic<T>::value, "arithmetic type needed");
  static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");
  __shared__ T smax[BLOCK];
  const int row = blockIdx.x;
  const int tid = threadIdx.x;
  if (row >= rows) return;  // uniform per block
  T best = cuda::std::numeric_limits<T>::lowest();
  const T *r = m + (size_t)row * cols;
  for (int c = tid; c < cols; c += BLOCK) best = cuda::std::fmax(best, r[c]);
  smax[tid] = best;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smax[tid] = cuda::std::fmax(smax[tid], smax[tid + s]);
    __syncthreads();
  }
  if (tid == 0) row_max[row] = smax[0];
}

template <typename T>
static void fill_uniform(std::vector<T> &v, T lo, T hi) {
  for (auto &e : v) e = lo + (hi - lo) * (T)(std::rand() / (double)RAND_MAX);
}

template <typename T>
static size_t count_mismatches(const std::vector<T> &got,
                               const std::vector<T> &want) {
  // A few ulps of the element type, relative.
  const T tol = 64 * cuda::std::numeric_limits<T>::epsilon();
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const T d = cuda::std::fabs(got[i] - want[i]);
    if (!(d <= tol * (T(1) + cuda::std::fabs(want[i])))) ++bad;
  }
  return bad;
}

template <typename T>
static size_t run_case(int n, int rows, int cols, const char *type_name) {
  using traits = launch_traits<T>;
  const T a = T(1.5), lo = T(-1.25), hi = T(1.75);
  const cubic_t<T> coef = {T(0.25), T(-1.0), T(0.5), T(2.0)};

  std::vector<T> x(n), y(n), out(n), poly(n);
  std::vector<T> m((size_t)rows * cols), rmax(rows);
  fill_uniform(x, T(-1), T(1));
  fill_uniform(y, T(-1), T(1));
  fill_uniform(m, T(-100), T(100));

  // CPU reference, same operation order as the kernels.
  std::vector<T> out_ref(n), poly_ref(n), rmax_ref(rows);
  for (int i = 0; i < n; ++i) {
    const T v = a * x[i] + y[i];
    out_ref[i] = cuda::std::fmin(cuda::std::fmax(v, lo), hi);
    T r = coef[3];
    for (int k = 2; k >= 0; --k) r = r * x[i] + coef[k];
    poly_ref[i] = cuda::std::fabs(r) < cuda::std::numeric_limits<T>::epsilon() ? T(0) : r;
  }
  for (int r = 0; r < rows; ++r) {
    T best = cuda::std::numeric_limits<T>::lowest();
    for (int c = 0; c < cols; ++c)
      best = cuda::std::fmax(best, m[(size_t)r * cols + c]);
    rmax_ref[r] = best;
  }

  T *dx, *dy, *dout, *dpoly, *dm, *drmax;
  CUDA_TRY(cudaMalloc(&dx, n * sizeof(T)));
  CUDA_TRY(cudaMalloc(&dy, n * sizeof(T)));
  CUDA_TRY(cudaMalloc(&dout, n * sizeof(T)));
  CUDA_TRY(cudaMalloc(&dpoly, n * sizeof(T)));
  CUDA_TRY(cudaMalloc(&dm, m.size() * sizeof(T)));
  CUDA_TRY(cudaMalloc(&drmax, rows * sizeof(T)));
  CUDA_TRY(cudaMemcpy(dx, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_TRY(cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_TRY(cudaMemcpy(dm, m.data(), m.size() * sizeof(T), cudaMemcpyHostToDevice));

  const int threads = traits::threads;
  const int blocks = (n + threads - 1) / threads;
  axpy_clamp_kernel<T><<<blocks, threads>>>(n, a, dx, dy, lo, hi, dout);
  CUDA_TRY(cudaGetLastError());
  poly_clamp_kernel<T><<<blocks, threads>>>(n, coef, dx, dpoly);
  CUDA_TRY(cudaGetLastError());
  row_max_kernel<T, traits::reduce_threads>
      <<<rows, traits::reduce_threads>>>(rows, cols, dm, drmax);
  CUDA_TRY(cudaGetLastError());
  CUDA_TRY(cudaDeviceSynchronize());

  CUDA_TRY(cudaMemcpy(out.data(), dout, n * sizeof(T), cudaMemcpyDeviceToHost));
  CUDA_TRY(cudaMemcpy(poly.data(), dpoly, n * sizeof(T), cudaMemcpyDeviceToHost));
  CUDA_TRY(cudaMemcpy(rmax.data(), drmax, rows * sizeof(T), cudaMemcpyDeviceToHost));

  const size_t bad_out = count_mismatches(out, out_ref);
  const size_t bad_poly = count_mismatches(poly, poly_ref);
  const size_t bad_max = count_mismatches(rmax, rmax_ref);
  if (bad_out || bad_poly || bad_max)
    std::printf("%s: %zu axpy_clamp, %zu poly, %zu row_max mismatches\n",
                type_name, bad_out, bad_poly, bad_max);

  CUDA_TRY(cudaFree(dx));
  CUDA_TRY(cudaFree(dy));
  CUDA_TRY(cudaFree(dout));
  CUDA_TRY(cudaFree(dpoly));
  CUDA_TRY(cudaFree(dm));
  CUDA_TRY(cudaFree(drmax));
  return bad_out + bad_poly + bad_max;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : (1 << 22) + 37;
  const int rows = argc > 2 ? std::atoi(argv[2]) : 3001;
  const int cols = argc > 3 ? std::atoi(argv[3]) : 1999;

  std::srand(2024);
  size_t bad = run_case<float>(n, rows, cols, "float");
  bad += run_case<double>(n, rows, cols, "double");

  if (bad) {
    std::printf("FAILED lay_cccl_traits (%zu wrong)\n", bad);
    return 1;
  }
  std::printf("PASSED lay_cccl_traits\n");
  return 0;
}
