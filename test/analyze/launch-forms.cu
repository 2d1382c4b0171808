// The other ways people derive a grid from the block, cooperative launches,
// dynamic shared memory, and device-only code behind __CUDA_ARCH__.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cmath>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      return;                                                                  \
  } while (0)
#define COOP_THREADS 256
#define MIN_BLOCKS 2

static inline int divUp(int a, int b) { return (a + b - 1) / b; }

__global__ void __launch_bounds__(128) k_ceilf(float *v, int n) {
  extern __shared__ float dyn[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dyn[threadIdx.x] = i < n ? v[i] : 0.0f;
#pragma unroll
  for (int j = 0; j < 4; ++j)
    dyn[threadIdx.x] *= 2.0f;
#ifdef __CUDA_ARCH__
  if (i < n)
    v[i] = dyn[threadIdx.x];
#endif
}

__global__ void __launch_bounds__(COOP_THREADS, MIN_BLOCKS) k_coop(float *v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v[i] = __shfl_sync(0xffffffff, v[i], 0);
}

void run(float *v, int n, cudaStream_t s) {
  const int threads = 128;
  k_ceilf<<<(int)ceil(n / (float)threads), threads, threads * sizeof(float), s>>>(v, n);
  k_ceilf<<<(n - 1) / threads + 1, threads, threads * sizeof(float)>>>(v, n);
  k_ceilf<<<divUp(n, threads), threads, 512>>>(v, n);
  k_ceilf<<<n / threads, threads, 512>>>(v, n);
  void *args[] = {&v, &n};
  CHECK(cudaLaunchCooperativeKernel((void *)k_coop, 132, COOP_THREADS, args));
}

// CHECK-DAG: kernels[0].name = "k_ceilf"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.form = "ceil-float"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_term = "threads"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_dim = "x"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].kind = "constant"
// CHECK-DAG: kernels[0].launches[0].block.dims[0].value = 128
// CHECK-DAG: kernels[0].launches[0].shared_mem.kind = "constant-expr"
// CHECK-DAG: kernels[0].launches[0].shared_mem.value = 512
// CHECK-DAG: kernels[0].launches[0].stream = "s"
// CHECK-DAG: kernels[0].launches[1].grid.dims[0].derived.form = "ceil-div"
// CHECK-DAG: kernels[0].launches[1].grid.dims[0].derived.extent = "n"
// CHECK-DAG: kernels[0].launches[2].grid.dims[0].derived.form = "ceil-div"
// CHECK-DAG: kernels[0].launches[2].grid.dims[0].derived.block_dim = "x"
// CHECK-DAG: kernels[0].launches[3].grid.dims[0].derived.form = "floor-div"
// CHECK-DAG: kernels[0].launches[3].shared_mem.kind = "literal"
// CHECK-DAG: kernels[0].shared_arrays[0].dynamic = true
// CHECK-DAG: kernels[0].launch_bounds.max_threads.value = 128
// CHECK-DAG: kernels[0].launch_bounds.min_blocks.kind = "default"
// CHECK-DAG: kernels[0].launch_bounds.max_threads.text = "128"
// CHECK-DAG: kernels[1].launch_bounds.max_threads.kind = "macro"
// CHECK-DAG: kernels[1].launch_bounds.max_threads.symbol = "COOP_THREADS"
// CHECK-DAG: kernels[1].launch_bounds.min_blocks.symbol = "MIN_BLOCKS"
// CHECK-DAG: kernels[1].launch_bounds.min_blocks.value = 2
// CHECK-DAG: kernels[0].loops[0].unroll_pragma = true
// CHECK-DAG: kernels[0].loops[0].trip_count = 4
// The store under __CUDA_ARCH__ is seen: bodies come from the device parse.
// CHECK-DAG: kernels[0].params[0].access = "readwrite"
// CHECK-DAG: kernels[1].name = "k_coop"
// CHECK-DAG: kernels[1].launches[0].syntax = "cudaLaunchCooperativeKernel"
// CHECK-DAG: kernels[1].launches[0].grid.dims[0].value = 132
// CHECK-DAG: kernels[1].launches[0].block.dims[0].value = 256
// CHECK-DAG: kernels[1].launches[0].block.dims[0].symbol = "COOP_THREADS"
// CHECK-DAG: kernels[1].launches[0].location = "{{.*}}launch-forms.cu:43:9"
// CHECK-DAG: kernels[1].block_size.couplings = []
// CHECK-DAG: kernels[1].launches[0].shared_mem.kind = "default"
// CHECK-DAG: kernels[1].uses_warp_intrinsics = true
// CHECK-DAG: kernels[1].loops[0].step_kind = "grid-stride"
