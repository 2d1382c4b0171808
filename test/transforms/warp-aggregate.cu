// warp-aggregate: an atomicAdd whose target every thread shares becomes one
// atomic per group of lanes that reach it together (cooperative groups'
// coalesced_threads() and reduce), whatever the control flow around it.
// Also atomicSub, atomicMax, atomicMin, atomicAnd, atomicOr and atomicXor,
// whose operations combine the same way. Refused where the target may
// differ between lanes (it depends on threadIdx, reads memory, or changes),
// where the old value is read, and for atomics that do not combine
// (exchange, compare-and-swap, wrapping increment).
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"dot.warp_aggregate": true, "count_positive.warp_aggregate": true, "stats::block_sums.warp_aggregate": true, "sum_c.warp_aggregate": true, "peak_and_seen.warp_aggregate": true}' > %t.json
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: %strip-checks < %t.cu | FileCheck %s
// Coarsening re-emits the call for several elements: one or the other.
// RUN: echo '{"dot.warp_aggregate": true, "dot.coarsen": "x2"}' > %t.bad.json
// RUN: not %cro %s --apply %t.bad.json -o %t.bad.cu 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: kernel dot: coarsen and warp-aggregate both rewrite its work; choose one
#include <cuda_runtime.h>

typedef float real;

// A dot product summed straight into one float.
__global__ void dot(const real *a, const real *b, real *result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(result, a[i] * b[i]);
}

// A count through a grid-stride loop, under a data-dependent branch: the
// lanes that take it together are the group.
__global__ void count_positive(const int *v, unsigned *count, int n) {
  unsigned *const total = &count[0];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    if (v[i] > 0)
      atomicAdd(total, 1u);
}

namespace stats {
// One sum per block: the block's number is the same in all its lanes.
__global__ void block_sums(const double *x, double *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&sums[blockIdx.x], x[i]);
}
} // namespace stats

// C linkage (loaded by name through the driver API): no template may go
// here, and no header may be included here.
extern "C" {
__global__ void sum_c(const float *x, float *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(total, x[i]);
}
}

// A peak and a set of seen values: max and or combine like a sum, one
// helper per operation.
__global__ void peak_and_seen(const int *v, int *peak, unsigned *seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMax(peak, v[i]);
    atomicOr(seen, 1u << (v[i] & 31));
  }
}

// Refused: the bin is read from memory.
__global__ void histogram(const int *v, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[v[i] & 255], 1u);
}

// Refused: each thread needs its own old value.
__global__ void compact(const float *in, float *out, int *next, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.0f) {
    int slot = atomicAdd(next, 1);
    out[slot] = in[i];
  }
}

// Refused: the target depends on the lane.
__global__ void striped(int *counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&counts[threadIdx.x % 4], 1);
}

int main() {
  const int n = 1 << 20;
  real *a, *b, *r;
  int *v, *next;
  unsigned *c, *h;
  double *x, *s;
  cudaMalloc(&a, n * sizeof(real));
  cudaMalloc(&b, n * sizeof(real));
  cudaMalloc(&r, sizeof(real));
  cudaMalloc(&v, n * sizeof(int));
  cudaMalloc(&next, sizeof(int));
  cudaMalloc(&c, sizeof(unsigned));
  cudaMalloc(&h, 256 * sizeof(unsigned));
  cudaMalloc(&x, n * sizeof(double));
  cudaMalloc(&s, (n / 256) * sizeof(double));
  dot<<<n / 256, 256>>>(a, b, r, n);
  count_positive<<<128, 256>>>(v, c, n);
  stats::block_sums<<<n / 256, 256>>>(x, s, n);
  sum_c<<<n / 256, 256>>>(a, r, n);
  peak_and_seen<<<n / 256, 256>>>(v, next, c, n);
  histogram<<<n / 256, 256>>>(v, h, n);
  compact<<<n / 256, 256>>>(a, b, next, n);
  striped<<<n / 256, 256>>>(v, n);
  cudaDeviceSynchronize();
  return 0;
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "dot.warp_aggregate"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "count_positive.warp_aggregate"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "stats::block_sums.warp_aggregate"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "sum_c.warp_aggregate"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "peak_and_seen.warp_aggregate"
// KNOBS-DAG: knobs[{{[0-9]+}}].role = "warp-cooperation"
// KNOBS-DAG: reason = "the atomicAdd at {{.*}}warp-aggregate.cu:72:5: its target may differ between the lanes that reach it together (it reads memory ('v[i]'))"
// KNOBS-DAG: reason = "the atomicAdd at {{.*}}warp-aggregate.cu:79:16: the old value it returns is read, and each thread's differs"
// KNOBS-DAG: reason = "the atomicAdd at {{.*}}warp-aggregate.cu:88:5: its target may differ between the lanes that reach it together (it depends on threadIdx.x)"

// The headers go once at the top of the file, each helper before its kernel,
// in its namespace.
// CHECK:      #include <cooperative_groups.h>
// CHECK-NEXT: #include <cooperative_groups/reduce.h>
// CHECK-NEXT: // warp-aggregate: an atomicAdd
// CHECK-NOT:  #include <cooperative_groups
// CHECK:      #ifndef CRO_WARP_AGGREGATED_ADD_dot_float
// CHECK:      __device__ __forceinline__ void cro_warp_aggregated_add_dot_float(float *target, float value) {
// CHECK:        const cg::coalesced_group lanes = cg::coalesced_threads();
// CHECK-NEXT:   const float combined = cg::reduce(lanes, value, cg::plus<float>());
// CHECK-NEXT:   if (lanes.thread_rank() == 0)
// CHECK-NEXT:     atomicAdd(target, combined);
// CHECK:      __global__ void dot(
// CHECK:        cro_warp_aggregated_add_dot_float(result, a[i] * b[i]);
// CHECK:      void cro_warp_aggregated_add_count_positive_unsigned_int(unsigned int *target, unsigned int value) {
// CHECK:      __global__ void count_positive(
// CHECK:            cro_warp_aggregated_add_count_positive_unsigned_int(total, 1u);
// CHECK:      namespace stats {
// CHECK:      void cro_warp_aggregated_add_stats__block_sums_double(double *target, double value) {
// CHECK:          cro_warp_aggregated_add_stats__block_sums_double(&sums[blockIdx.x], x[i]);
// CHECK:      extern "C" {
// CHECK:      void cro_warp_aggregated_add_sum_c_float(float *target, float value) {
// CHECK:      __global__ void sum_c(
// CHECK:          cro_warp_aggregated_add_sum_c_float(total, x[i]);
// CHECK:      #ifndef CRO_WARP_AGGREGATED_MAX_peak_and_seen_int
// CHECK:      void cro_warp_aggregated_max_peak_and_seen_int(int *target, int value) {
// CHECK:        const int combined = cg::reduce(lanes, value, cg::greater<int>());
// CHECK:          atomicMax(target, combined);
// CHECK:      void cro_warp_aggregated_or_peak_and_seen_unsigned_int(unsigned int *target, unsigned int value) {
// CHECK:        const unsigned int combined = cg::reduce(lanes, value, cg::bit_or<unsigned int>());
// CHECK:          atomicOr(target, combined);
// CHECK:      __global__ void peak_and_seen(
// CHECK:          cro_warp_aggregated_max_peak_and_seen_int(peak, v[i]);
// CHECK-NEXT:     cro_warp_aggregated_or_peak_and_seen_unsigned_int(seen, 1u << (v[i] & 31));
// CHECK:          atomicAdd(&bins[v[i] & 255], 1u);
// CHECK:          int slot = atomicAdd(next, 1);
// CHECK:          atomicAdd(&counts[threadIdx.x % 4], 1);
