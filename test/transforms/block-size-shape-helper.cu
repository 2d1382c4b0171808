// Launch shapes computed by the program's own helpers: a host function that
// only returns a shape from its arguments is followed into, its parameters
// bound to the call's arguments, so the grid is seen to follow the block.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"halve.block": 128, "twice.block": 1024}' > %t.json
// RUN: %cro %s --apply %t.json | %strip-checks | FileCheck %s --check-prefix=APPLY
#include <cuda_runtime.h>

namespace launch {
constexpr unsigned kThreads = 256;
inline dim3 cover(unsigned count, unsigned per_block) {
  return dim3((count + per_block - 1) / per_block);
}
inline unsigned blocks_for(unsigned count, unsigned per_block) {
  return count / per_block + (count % per_block != 0);
}
// Not a function of its arguments alone: it reads a global the program sets.
unsigned g_extra = 0;
inline dim3 padded(unsigned count, unsigned per_block) {
  return dim3((count + per_block - 1) / per_block + g_extra);
}
// Reads the block's macro itself: the launch's copy could not reach it, so
// the helper is not followed.
#define TPB 256
inline unsigned groups_of(unsigned count) { return (count + TPB - 1) / TPB; }
} // namespace launch

__global__ void halve(double *d, unsigned count) {
  unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) d[k] *= 0.5;
}
__global__ void twice(double *d, unsigned count) {
  unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) d[k] *= 2.0;
}
__global__ void tripled(double *d, unsigned count) {
  unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) d[k] *= 3.0;
}
__global__ void shifted(double *d, unsigned count) {
  unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) d[k] += 1.0;
}

void run(double *d, unsigned count) {
  halve<<<launch::cover(count, launch::kThreads), launch::kThreads>>>(d, count);
  twice<<<launch::blocks_for(count, 128), 128>>>(d, count);
  shifted<<<launch::padded(count, 64), 64>>>(d, count);
  tripled<<<launch::groups_of(count), TPB>>>(d, count);
}

// CHECK-DAG: knobs[{{[0-9]+}}].id = "halve.block"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "twice.block"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.extent = "count"
// CHECK-DAG: kernels[0].launches[0].grid.dims[0].derived.block_dim = "x"
// CHECK-DAG: reason = "grid dimension x at {{.*}}block-size-shape-helper.cu:48:3 ('launch::padded(count, 64).x') does not follow the block size, so another block size would cover a different index range"
// CHECK-DAG: reason = "grid dimension x at {{.*}}block-size-shape-helper.cu:49:3 ('launch::groups_of(count)') does not follow the block size, so another block size would cover a different index range"
// CHECK-NOT: id = "shifted.block"
// CHECK-NOT: id = "tripled.block"

// The kernel's copy, of the original's type, replaces the symbol at the
// call; a number is replaced in the call's argument and at the block alike.
// APPLY: constexpr unsigned int halve_kThreads = 128;
// APPLY: halve<<<launch::cover(count, launch::halve_kThreads), launch::halve_kThreads>>>(d, count);
// APPLY-NEXT: twice<<<{{.*}}, 1024>>>(d, count);
// APPLY-NEXT: shifted<<<launch::padded(count, 64), 64>>>(d, count);
