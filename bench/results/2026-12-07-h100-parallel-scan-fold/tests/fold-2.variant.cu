// fold: a kernel that adds one value per thread into one launch-wide
// atomicAdd total -- through a shared-memory tree per block, or directly --
// has each thread add up its values of F original blocks first; the grid
// shrinks to ceil(G / F). Written in styles other than the corpus's: a
// typedef'd double, a block size in a constexpr, the value computed in a
// local declared before the store, a tree halving blockDim.x with an
// unsigned counter and `a = a + b`; an early return and a 64-bit integer
// count. Refused, with the obstacle: a per-block total, a max instead of a
// sum, a combination that reads other data, a tree whose condition reads
// the data, an atomic whose old value is read.
// The program checks itself against the CPU and times each kernel
// (bench/memory-generality-gpu.sh runs it on the GPU).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"sum_squares.fold": 8, "count_positive.fold": 32}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu
// RUN: %strip-checks < %t.cu | FileCheck %s
// RUN: nvcc -arch=sm_90 -c %t.cu -o %t.o
// With warp_aggregate on, the one atomic after the folded blocks combines the
// lanes' sums first (warp-aggregate leaves the folded atomic alone).
// RUN: echo '{"count_positive.fold": 16, "count_positive.warp_aggregate": true}' > %t2.json
// RUN: %cro %s --apply %t2.json -o %t2.cu
// RUN: %strip-checks < %t2.cu | FileCheck %s --check-prefix=AGG
// RUN: nvcc -arch=sm_90 -c %t2.cu -o %t2.o
// AGG: __device__ __forceinline__ void cro_warp_aggregated_add_count_positive_unsigned_long_long(unsigned long long *target, unsigned long long value) {
// AGG: (folded_sum += (1ull), folded_any = true);
// AGG: if (folded_any)
// AGG-NEXT: cro_warp_aggregated_add_count_positive_unsigned_long_long(&count[0], folded_sum);
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

typedef double real;
constexpr int kBlock = 256;

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "sum_squares.fold"
// CHECK-LABEL: __global__ void sum_squares(
// CHECK: const long gid = (long)blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT: const real v = gid < n ? x[gid] : 0;
// CHECK-NEXT: // cuda-rewrite-opt fold 8: this thread's values for the original blocks blockIdx.x * 8 ... blockIdx.x * 8 + 7, added up before the block combines them
// CHECK-NEXT: real folded_sum = 0;
// CHECK-NEXT: {
// CHECK-NEXT: const unsigned int orig_grid_x = (16777216 + blockDim.x - 1) / blockDim.x;
// CHECK-NEXT: for (unsigned int orig_block_x = blockIdx.x * 8; orig_block_x < blockIdx.x * 8 + 8 && orig_block_x < orig_grid_x; ++orig_block_x) {
// CHECK-NEXT: const long gid = (long)orig_block_x * blockDim.x + threadIdx.x;
// CHECK-NEXT: const real v = gid < n ? x[gid] : 0;
// CHECK-NEXT: folded_sum += (v * v);
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: cache[threadIdx.x] = folded_sum;
// CHECK-NEXT: __syncthreads();
__global__ void sum_squares(const real *__restrict__ x, real *total, long n) {
  __shared__ real cache[kBlock];
  const long gid = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const real v = gid < n ? x[gid] : 0;
  // cuda-rewrite-opt fold 64: this thread's values for the original blocks blockIdx.x * 64 ... blockIdx.x * 64 + 63, added up before the block combines them
  real folded_sum = 0;
  {
    const unsigned int orig_grid_x = (16777216 + blockDim.x - 1) / blockDim.x;
    for (unsigned int orig_block_x = blockIdx.x * 64; orig_block_x < blockIdx.x * 64 + 64 && orig_block_x < orig_grid_x; ++orig_block_x) {
      const long gid = (long)orig_block_x * blockDim.x + threadIdx.x;
      const real v = gid < n ? x[gid] : 0;
      folded_sum += (v * v);
    }
  }
  cache[threadIdx.x] = folded_sum;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      cache[threadIdx.x] = cache[threadIdx.x] + cache[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(total, cache[0]);
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "count_positive.fold"
// CHECK-LABEL: __global__ void count_positive(
// CHECK: // cuda-rewrite-opt fold 32: the values this thread adds to '&count[0]' for the original blocks below, added up first
// CHECK-NEXT: unsigned long long folded_sum = 0;
// CHECK-NEXT: bool folded_any = false;
// CHECK: for (unsigned int orig_block_x = blockIdx.x * 32;
// CHECK-NEXT: int i = threadIdx.x + orig_block_x * blockDim.x;
// CHECK-NEXT: if (i >= n)
// CHECK-NEXT: continue;
// CHECK-NEXT: if (v[i] > 0.0f)
// CHECK-NEXT: (folded_sum += (1ull), folded_any = true);
// CHECK-NEXT: }
// CHECK-NEXT: if (folded_any)
// CHECK-NEXT: atomicAdd(&count[0], folded_sum);
// CHECK-NEXT: }
__global__ void count_positive(const float *v, unsigned long long *count,
                               int n) {
  // cuda-rewrite-opt fold 256: the values this thread adds to '&count[0]' for the original blocks below, added up first
  unsigned long long folded_sum = 0;
  bool folded_any = false;
  // cuda-rewrite-opt coarsen x256: this block does the work of the original grid's blocks
  // blockIdx.x * 256 ... blockIdx.x * 256 + 255 along x, one after another.
  const unsigned int orig_grid_x = (16777216 + blockDim.x - 1) / blockDim.x;
  for (unsigned int orig_block_x = blockIdx.x * 256; orig_block_x < blockIdx.x * 256 + 256 && orig_block_x < orig_grid_x; ++orig_block_x) {
  int i = threadIdx.x + orig_block_x * blockDim.x;
  if (i >= n)
    continue;
  if (v[i] > 0.0f)
    (folded_sum += (1ull), folded_any = true);
  }
  if (folded_any)
    atomicAdd(&count[0], folded_sum);
}

// KNOBS-DAG: refused[{{[0-9]+}}].reason = "the atomicAdd does not update one element for the whole launch ({{.*}})"
__global__ void per_block_sums(const float *x, float *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&sums[blockIdx.x], x[i]);
}

// KNOBS-DAG: refused[{{[0-9]+}}].reason = "the kernel's atomic update is not atomicAdd: what it keeps is not a sum of the threads' values"
__global__ void largest(const int *x, int *best, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMax(best, x[i]);
}

// KNOBS-DAG: refused[{{[0-9]+}}].reason = "what follows the thread's value does not only add its slots: the statement at {{.*}} adds something other than a sum of 'part' slots to the total"
__global__ void scaled_sum(const float *x, const float *scale, float *total,
                           int n) {
  __shared__ float part[kBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(total, part[0] * scale[0]);
}

// KNOBS-DAG: refused[{{[0-9]+}}].reason = "what follows the thread's value does not only add its slots: 'part[threadIdx.x + s]' at {{.*}} reads memory or calls a function"
__global__ void positive_tree(const float *x, float *total, int n) {
  __shared__ float part[kBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s && part[threadIdx.x + s] > 0.0f)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(total, part[0]);
}

// KNOBS-DAG: refused[{{[0-9]+}}].reason = "the atomicAdd's old value is read"
__global__ void tickets(const float *x, float *total, float *seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    seen[i] = atomicAdd(total, x[i]);
}

static float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  cudaEventSynchronize(b);
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

// The grids shrink by the factors.
// CHECK-LABEL: int main() {
// CHECK: sum_squares<<<(((n + kBlock - 1) / kBlock) + 8 - 1) / 8, kBlock>>>(dx, dtotal, n);
// CHECK: count_positive<<<(((count + 255) / 256) + 32 - 1) / 32, 256>>>(dv, dcount, count);
int main() {
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, sum_squares);
  cudaFuncGetAttributes(&attr, count_positive);

  const long n = 1 << 24;
  std::vector<real> x(n);
  std::vector<float> v(n);
  double exact = 0;
  unsigned long long positives = 0;
  for (long k = 0; k < n; ++k) {
    x[k] = ((k * 7919) % 1000) / 1000.0 - 0.5;
    v[k] = (float)(((k * 104729) % 2001) - 1000);
    exact += x[k] * x[k];
    positives += v[k] > 0.0f;
  }
  real *dx, *dtotal;
  float *dv;
  unsigned long long *dcount;
  cudaMalloc(&dx, n * sizeof(real));
  cudaMalloc(&dv, n * sizeof(float));
  cudaMalloc(&dtotal, sizeof(real));
  cudaMalloc(&dcount, sizeof(unsigned long long));
  cudaMemcpy(dx, x.data(), n * sizeof(real), cudaMemcpyHostToDevice);
  cudaMemcpy(dv, v.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dtotal, 0, sizeof(real));
  cudaMemset(dcount, 0, sizeof(unsigned long long));

  cudaEventRecord(t0);
  sum_squares<<<(((n + kBlock - 1) / kBlock) + 64 - 1) / 64, kBlock>>>(dx, dtotal, n);
  cudaEventRecord(t1);
  float msSquares = elapsed(t0, t1);
  const int count = (int)n;
  cudaEventRecord(t0);
  count_positive<<<(((count + 255) / 256) + 256 - 1) / 256, 256>>>(dv, dcount, count);
  cudaEventRecord(t1);
  float msCount = elapsed(t0, t1);

  real total = 0;
  unsigned long long counted = 0;
  cudaMemcpy(&total, dtotal, sizeof(real), cudaMemcpyDeviceToHost);
  cudaMemcpy(&counted, dcount, sizeof(counted), cudaMemcpyDeviceToHost);
  cudaError_t e = cudaGetLastError();
  double rel = std::fabs(total - exact) / exact;
  bool ok = e == cudaSuccess && rel < 1e-9 && counted == positives;
  std::printf("%s fold (sum_squares %.3f ms, relative error %.2g; "
              "count_positive %.3f ms, %llu of %llu; %s)\n",
              ok ? "PASSED" : "FAILED", msSquares, rel, msCount, counted,
              positives, cudaGetErrorString(e));
  return ok ? 0 : 1;
}
