// block-size refuses, with the reason, whenever coverage or coupling cannot
// be proven.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
// RUN: echo '{"runtime_block.block": 128}' > %t.json
// RUN: %expect-exit 10 %cro %s --apply %t.json 2>&1 | %strip-checks | FileCheck %s --check-prefix=APPLY
#include <cuda_runtime.h>

#define B 256

__global__ void runtime_block(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.0f; else if (threadIdx.x == 0) v[n + blockIdx.x] = 1;
}

__global__ void hard_coded(float *v, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) v[i] = 0.0f;
}

__global__ void fixed_grid(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.0f;
}

__global__ void in_directive(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if B > 128
  if (i < n) v[i] = 1.0f;
#endif
}

__global__ void shared_a(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.0f;
}
__global__ void shared_b(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 1.0f;
}

#define PART 256
__global__ void part_sums(const float *v, float *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&sums[i / PART], v[i]);
}
__global__ void use_parts(float *v, const float *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += sums[i / PART];
}

void run2(float *v, float *sums, int n) {
  part_sums<<<(n + PART - 1) / PART, PART>>>(v, sums, n);
  use_parts<<<(n + 255) / 256, 256>>>(v, sums, n);
}

void run(float *v, int n, int threads) {
  runtime_block<<<(n + threads - 1) / threads, threads>>>(v, n);
  hard_coded<<<(n + 255) / 256, 256>>>(v, n);
  fixed_grid<<<1024, 256>>>(v, n);
  in_directive<<<(n + B - 1) / B, B>>>(v, n);
  int tpb = 128;
  int blocks = (n + tpb - 1) / tpb; n -= 1; // n changes after the grid
  shared_a<<<blocks, tpb>>>(v, n);
  shared_b<<<blocks, tpb>>>(v, n);
}




// CHECK-DAG: refused[0].kernel = "runtime_block"
// CHECK-DAG: refused[0].transform = "block-size"
// A block size chosen at run time, with one mark per block: the program's
// results depend on how its threads are grouped.
// CHECK-DAG: refused[0].reason = "the block size at {{.*}}block-size-refusals.cu:57:3 is chosen at run time ('threads'); a constant may replace it only where the kernel's outputs do not depend on how threads are grouped into blocks, and here the kernel reads threadIdx.x at {{.*}}block-size-refusals.cu:12:36 outside its thread index"
// CHECK-DAG: refused[1].kernel = "hard_coded"
// CHECK-DAG: refused[1].reason = "the body hard-codes the block size: the literal 256 (other) has no link to the launch"
// CHECK-DAG: refused[1].location = "{{.*}}block-size-refusals.cu:16:24"
// CHECK-DAG: refused[2].kernel = "fixed_grid"
// CHECK-DAG: refused[2].reason = "grid dimension x at {{.*}}:59:3 ('1024') does not follow the block size, so another block size would cover a different index range"
// CHECK-DAG: refused[3].kernel = "in_directive"
// CHECK-DAG: refused[3].reason = "'B' is used in a preprocessor directive at line 27"
// CHECK-DAG: refused[4].kernel = "shared_a"
// CHECK-DAG: refused[4].reason = "the block size at {{.*}}:63:3 comes from 'tpb', which launches of other kernels use too, and cannot be re-evaluated at this launch"
// CHECK-DAG: refused[5].kernel = "shared_b"
// CHECK-DAG: reason = "'PART' is also used in the body of kernel use_parts, whose launches do not all use it as their block size, so there it may stand for this kernel's block size, which would change"

// APPLY: cuda-rewrite-opt: error: unknown knob 'runtime_block.block' (see the "knobs" of --analyze); block-size refused runtime_block: the block size at {{.*}} is chosen at run time ('threads')

// --kernel selects after the whole file was judged: shared_a stays refused
// although shared_b, which shares its block variable, is left out.
// RUN: %cro %s --analyze --kernel shared_a | %flatten | FileCheck %s --check-prefix=SELECT
// SELECT-DAG: kernels[0].name = "shared_a"
// SELECT-DAG: refused[0].reason = "the block size at {{.*}}:63:3 comes from 'tpb', which launches of other kernels use too, and cannot be re-evaluated at this launch"
// SELECT-NOT: "shared_b
