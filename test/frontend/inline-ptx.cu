// nvcc passes `%laneid` in an asm string with operands to PTX as it is;
// Clang wants `%%laneid` and reports the string, but keeps the statement
// (operands, clobbers) in the AST. The file parses, and the analyses see
// the statement as they see any inline assembly: in the kernel's body
// (asm_statements) and inside a helper it calls (coarsen's block form
// cannot tell whether it reads the block's number). Well-formed asm
// (`%%smid`) is not affected.
// RUN: %cro %s --analyze | %flatten | FileCheck %s
#include <cstdio>

__device__ __forceinline__ unsigned lane_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned r;
  asm("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

__global__ void warps(unsigned *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned w;
  asm volatile("mov.u32 %0, %warpid;" : "=r"(w));
  if (i < n)
    a[i] = w;
}

__global__ void lanes(unsigned *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = lane_id() + sm_id();
}

__global__ void plain(unsigned *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 2 * a[i];
}

int main() {
  unsigned *d;
  cudaMalloc(&d, 4000);
  int n = 1000;
  warps<<<(n + 255) / 256, 256>>>(d, n);
  lanes<<<(n + 255) / 256, 256>>>(d, n);
  plain<<<(n + 255) / 256, 256>>>(d, n);
  return 0;
}

// CHECK-DAG: kernels[0].name = "warps"
// CHECK-DAG: kernels[0].asm_statements[0] = "{{.*}}inline-ptx.cu:26:3"
// CHECK-DAG: kernels[1].name = "lanes"
// CHECK-DAG: kernels[1].block_reads.dims.x.obstacle = "the function 'lane_id' called at {{.*}}inline-ptx.cu:34:12 may read the block's number{{.*}}"
// CHECK-DAG: kernels[2].name = "plain"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "plain.block"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "lanes.block"
