// privatize: atomicAdd updates of an integer array with a compile-time index
// range become a block-private copy in shared memory, added to global memory
// once at the end; without a known range (or with one too large), the copy
// holds the array's first 256/1024/4096 elements and each update checks its
// index at run time; every case where that would change the result, or could
// deadlock, is refused with its reason.
// RUN: %cro %s --analyze | %flatten | FileCheck %s --check-prefix=KNOBS
// RUN: echo '{"histogram.privatize": true, "masked2d.privatize": true}' > %t.json
// RUN: %cro %s --apply %t.json --diff | %strip-checks | FileCheck %s
// RUN: %cro %s --apply %t.json -o %t.cu && nvcc -arch=sm_90 -c %t.cu -o %t.o
// RUN: echo '{"unknown_range.privatize": 1024, "signed_rem.privatize": 256}' > %t.range.json
// RUN: %cro %s --apply %t.range.json -o %t.range.cu && nvcc -arch=sm_90 -c %t.range.cu -o %t.range.o
// RUN: %strip-checks < %t.range.cu | FileCheck %s --check-prefix=RANGE
// RUN: echo '{"unknown_range.privatize": true}' > %t.bad.json
// RUN: %expect-exit 10 %cro %s --apply %t.bad.json -o %t.bad.cu 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: echo '{"histogram.privatize": false}' > %t.off.json
// RUN: %cro %s --apply %t.off.json -o %t.off.cu && cmp %s %t.off.cu
#include <cuda_runtime.h>

#define BINS 64

// The classic: bytes index 256 bins.
__global__ void histogram(const unsigned char *data, unsigned int *bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[data[i]], 1u);
}

// A 2D block, two updated arrays, bounds from a mask and an unsigned
// remainder; a local that would collide with the copy's name.
__global__ void masked2d(const int *v, unsigned long long *sums,
                         unsigned int *counts, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int counts_block = v[y * w + x];
  atomicAdd(&sums[counts_block & 127], 1ull);
  (void)atomicAdd(&counts[unsigned(counts_block) % BINS], 2u);
}

__global__ void uses_old(const unsigned char *d, int *bins, int *slot, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    slot[i] = atomicAdd(&bins[d[i]], 1);
}

__global__ void floats(const unsigned char *d, float *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[d[i]], 0.5f);
}

__global__ void early_return(const unsigned char *d, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&bins[d[i]], 1);
}

__global__ void signed_rem(const int *d, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[d[i] % 16], 1);
}

__global__ void unknown_range(const int *d, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[d[i]], 1);
}

__global__ void also_read(const unsigned char *d, int *bins, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&bins[d[i]], 1);
    out[i] = bins[0];
  }
}

__global__ void maximum(const unsigned char *d, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMax(&bins[d[i] & 7], i);
}

__global__ void too_big(const unsigned short *d, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[d[i]], 1);
}

__global__ void scalar(const float *v, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum, v[i]);
}

__global__ void shifted(const unsigned char *d, unsigned int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bins += (i & 1) * 256;
  if (i < n)
    atomicAdd(&bins[d[i]], 1u);
}

// Uses of the array other than the rewritten updates.
__global__ void other_use(const unsigned char *d, unsigned int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int *h = bins;
  if (i < n)
    atomicAdd(&bins[d[i]], 1u);
  atomicCAS(&h[0], 0u, 0u);
}

// A lambda's parameter of the same name is not the kernel's.
__global__ void lambda_param(const unsigned char *d, int *bins, int *other) {
  auto add = [](int *bins, unsigned char v) { atomicAdd(&bins[v], 1); };
  add(other, d[threadIdx.x]);
}

// An explicit cast changes the width the atomic works on.
__global__ void cast_target(const unsigned char *d, unsigned long long *bins) {
  atomicAdd((unsigned int *)&bins[d[threadIdx.x]], 1u);
}

__global__ void asm_exit(const unsigned char *d, unsigned int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    asm volatile("exit;");
  atomicAdd(&bins[d[i]], 1u);
}

__global__ void dynamic_shared(const unsigned char *d, unsigned int *bins) {
  extern __shared__ unsigned char stage[];
  stage[threadIdx.x] = d[threadIdx.x];
  atomicAdd(&bins[stage[threadIdx.x]], 1u);
}

__global__ void aliased(const unsigned char *d, unsigned int *bins,
                        const unsigned int *view, unsigned int *out) {
  atomicAdd(&bins[d[threadIdx.x]], 1u);
  out[threadIdx.x] = view[0];
}

void run(const unsigned char *d, const int *v, unsigned int *b,
         unsigned long long *s, unsigned int *c, unsigned int *o, int n) {
  histogram<<<1320, 256>>>(d, b, n);
  masked2d<<<dim3(8, 8), dim3(16, 16)>>>(v, s, c, n);
  aliased<<<1, 256>>>(d, b, b, o);
}

// run's pointers point to distinct buffers.
void caller(int n) {
  unsigned char *d;
  int *v;
  unsigned int *b, *c, *o;
  unsigned long long *s;
  cudaMalloc(&d, n);
  cudaMalloc(&v, n * sizeof(int));
  cudaMalloc(&b, 256 * sizeof(unsigned int));
  cudaMalloc(&s, 256 * sizeof(unsigned long long));
  cudaMalloc(&c, 256 * sizeof(unsigned int));
  cudaMalloc(&o, 256 * sizeof(unsigned int));
  run(d, v, b, s, c, o, n);
  int *ib;
  unsigned short *us;
  cudaMalloc(&ib, 65536 * sizeof(int));
  cudaMalloc(&us, n * sizeof(unsigned short));
  signed_rem<<<(n + 255) / 256, 256>>>(v, ib, n);
  unknown_range<<<(n + 255) / 256, 256>>>(v, ib, n);
  too_big<<<(n + 255) / 256, 256>>>(us, ib, n);
}

// The value of a statement expression is its last statement's.
__global__ void stmt_expr(const unsigned char *d, unsigned int *bins,
                          unsigned int *out) {
  out[threadIdx.x] = ({ atomicAdd(&bins[d[threadIdx.x]], 1u); });
}

// The index comes from a macro: no run-time check of it can be written.
#define BIN_OF(k) d[k]
__global__ void macro_index(const int *d, int *bins, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    atomicAdd(&bins[BIN_OF(j)], 1);
}

// Overloads share the knob's name: which one would it rewrite?
__global__ void over(const unsigned char *d, int *bins) {
  atomicAdd(&bins[d[threadIdx.x]], 1);
}
__global__ void over(const unsigned char *d, unsigned int *bins) {
  atomicAdd(&bins[d[threadIdx.x]], 1u);
}

// KNOBS-DAG: knobs[{{[0-9]+}}].id = "histogram.privatize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "masked2d.privatize"
// KNOBS-DAG: knobs[[[UNKNOWN:[0-9]+]]].id = "unknown_range.privatize"
// KNOBS-DAG: knobs[[[UNKNOWN]]].values[1] = 256
// KNOBS-DAG: knobs[[[UNKNOWN]]].values[3] = 4096
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "signed_rem.privatize"
// KNOBS-DAG: knobs[{{[0-9]+}}].id = "too_big.privatize"
// KNOBS-NOT: knobs[{{[0-9]+}}].id = "{{uses_old|floats|early_return|also_read|maximum|scalar|shifted|other_use|lambda_param|cast_target|asm_exit|dynamic_shared|aliased|stmt_expr|over|macro_index}}.privatize"
// KNOBS-DAG: reason = "the value atomicAdd returns at {{.*}}privatize.cu:{{[0-9]+}}:15 is used, and a private copy would return another"
// KNOBS-DAG: reason = "'bins' holds float, and only int, unsigned int and (unsigned) long long sums are exact in any order"
// KNOBS-DAG: reason = "the kernel returns at {{.*}}privatize.cu:{{[0-9]+}}:5, and every thread must reach the barrier before the block's counts are added"
// KNOBS-DAG: reason = "the range of the index 'BIN_OF(j)' is not known at compile time (an unsigned char, `e & mask` or `unsigned % n` gives it), and the index is written through a macro, so no run-time check of it can be written (at {{.*}}privatize.cu:{{[0-9]+}}:5)"
// KNOBS-DAG: reason = "'bins' is also accessed at {{.*}}privatize.cu:{{[0-9]+}}:14 (read), not only updated by atomicAdd"
// KNOBS-DAG: reason = "the pointer 'bins' itself is changed at {{.*}}privatize.cu:{{[0-9]+}}:3, so its elements are not one array"
// KNOBS-DAG: reason = "'bins' is updated with atomicMax at {{.*}}privatize.cu:{{[0-9]+}}:5; only atomicAdd is privatized"
// KNOBS-DAG: reason = "no atomic update is written `atomicAdd(&param[index], value)` on a pointer parameter"
// KNOBS-DAG: reason = "'bins' is used 2 times, not only in the 1 `atomicAdd(&bins[index], value)` updates"
// KNOBS-DAG: refused[[[LAMBDA:[0-9]+]]].kernel = "lambda_param"
// KNOBS-DAG: refused[[[CAST:[0-9]+]]].kernel = "cast_target"
// KNOBS-DAG: reason = "the kernel has inline assembly at {{.*}}privatize.cu:{{[0-9]+}}:5, which may end a thread before the barrier"
// KNOBS-DAG: reason = "the kernel uses dynamic shared memory ('stage'), whose size at launch the tool cannot add to"
// KNOBS-DAG: reason = "'b' is passed twice at {{.*}}privatize.cu:{{[0-9]+}}:3; pass --assume-no-alias to privatize anyway"
// KNOBS-DAG: reason = "the value atomicAdd returns at {{.*}}privatize.cu:{{[0-9]+}}:25 is used, and a private copy would return another"
// Overloads are told apart by their ids; these have no launch to show that
// their arguments do not alias.
// KNOBS-DAG: refused[{{[0-9]+}}].kernel = "over(const unsigned char*,int*)"
// KNOBS-DAG: refused[{{[0-9]+}}].kernel = "over(const unsigned char*,unsigned int*)"

// CHECK:      __global__ void histogram(const unsigned char *data, unsigned int *bins, int n) {
// CHECK-NEXT: +  // cuda-rewrite-opt privatize: this block's atomic updates go to a copy
// CHECK-NEXT: +  // in shared memory, added to global memory once at the end.
// CHECK-NEXT: +  const unsigned cro_rank = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
// CHECK-NEXT: +  const unsigned cro_threads = blockDim.x * blockDim.y * blockDim.z;
// CHECK-NEXT: +  __shared__ unsigned int bins_block[256];
// CHECK-NEXT: +  for (unsigned cro_i = cro_rank; cro_i < 256u; cro_i += cro_threads)
// CHECK-NEXT: +    bins_block[cro_i] = 0;
// CHECK-NEXT: +  __syncthreads();
// CHECK:      -    atomicAdd(&bins[data[i]], 1u);
// CHECK-NEXT: +    atomicAdd(&bins_block[data[i]], 1u);
// CHECK-NEXT: +  __syncthreads();
// CHECK-NEXT: +  for (unsigned cro_i = cro_rank; cro_i < 256u; cro_i += cro_threads)
// CHECK-NEXT: +    if (bins_block[cro_i] != 0)
// CHECK-NEXT: +      atomicAdd(&bins[cro_i], bins_block[cro_i]);
// CHECK-NEXT:  }

// CHECK:      +  __shared__ unsigned long long sums_block[128];
// CHECK:      +  __shared__ unsigned int counts_block_2[64];
// CHECK:      -  atomicAdd(&sums[counts_block & 127], 1ull);
// CHECK-NEXT: -  (void)atomicAdd(&counts[unsigned(counts_block) % BINS], 2u);
// CHECK-NEXT: +  atomicAdd(&sums_block[counts_block & 127], 1ull);
// CHECK-NEXT: +  (void)atomicAdd(&counts_block_2[unsigned(counts_block) % BINS], 2u);
// CHECK-NEXT: +  __syncthreads();
// CHECK-NEXT: +  for (unsigned cro_i = cro_rank; cro_i < 128u; cro_i += cro_threads)
// CHECK-NEXT: +    if (sums_block[cro_i] != 0)
// CHECK-NEXT: +      atomicAdd(&sums[cro_i], sums_block[cro_i]);
// CHECK-NEXT: +  for (unsigned cro_i = cro_rank; cro_i < 64u; cro_i += cro_threads)
// CHECK-NEXT: +    if (counts_block_2[cro_i] != 0)
// CHECK-NEXT: +      atomicAdd(&counts[cro_i], counts_block_2[cro_i]);

// RANGE-LABEL: void signed_rem(
// RANGE:      __shared__ int bins_block[256];
// RANGE:      auto bins_at = [&](auto cro_k) { return (unsigned long long)cro_k < 256ull ? &bins_block[cro_k] : &bins[cro_k]; };
// RANGE:      atomicAdd(&*bins_at(d[i] % 16), 1);
// RANGE-LABEL: void unknown_range(
// RANGE:      // The copy holds the first 1024 elements; an update at another index goes to global memory directly.
// RANGE:      __shared__ int bins_block[1024];
// RANGE:      atomicAdd(&*bins_at(d[i]), 1);
// RANGE:      for (unsigned cro_i = cro_rank; cro_i < 1024u; cro_i += cro_threads)
// RANGE-NEXT:   if (bins_block[cro_i] != 0)
// RANGE-NEXT:     atomicAdd(&bins[cro_i], bins_block[cro_i]);

// BAD: illegal value true for knob 'unknown_range.privatize' (legal: false, 256, 1024, 4096)
