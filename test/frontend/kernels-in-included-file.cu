// Kernels defined in a .cu the input includes (Rodinia's main.cu +
// kernel.cu layout) and launched from there or from the input: they are
// modelled -- kernels, launch sites, where each is -- and left as they are,
// with the reason, since the tool edits only the input file. The input's
// own kernel keeps its knobs; its block size macro THREADS is named in the
// body of an included kernel, so changing it is refused as it would be in
// one file.
// RUN: %cro %s --analyze | %flatten > %t.flat
// RUN: FileCheck %s < %t.flat
// RUN: FileCheck --check-prefix=NOKNOB %s < %t.flat
// A configuration of the input's kernel edits only the input file.
// RUN: cp %S/Inputs/included-kernels.cu %t.before.cu
// RUN: echo '{"fill.launch_bounds": "max"}' > %t.config.json
// RUN: %cro %s --apply %t.config.json -o %t.out.cu
// RUN: cmp %S/Inputs/included-kernels.cu %t.before.cu
// RUN: %strip-checks < %t.out.cu | FileCheck --check-prefix=APPLIED %s
// APPLIED: __global__ void __launch_bounds__(256) fill(
#include "Inputs/included-kernels.cu"

__global__ void fill(float *m, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    m[i] = v;
}

int main() {
  int rows = 300, cols = 1000, n = rows * cols;
  float *m, *s, *f;
  cudaMalloc(&m, n * sizeof(float));
  cudaMalloc(&s, rows * sizeof(float));
  cudaMalloc(&f, n * sizeof(float));
  fill<<<(n + THREADS - 1) / THREADS, THREADS>>>(m, 1.0f, n);
  launch_scale(m, s, rows, cols);
  per_block_first<<<(n + THREADS - 1) / THREADS, 64>>>(m, f, n);
  cudaDeviceSynchronize();
  return 0;
}

// CHECK-DAG: kernels[0].name = "scale_rows"
// CHECK-DAG: kernels[0].in_main_file = false
// CHECK-DAG: kernels[0].launches[0].location = "{{.*}}Inputs{{/|\\}}included-kernels.cu:21:3"
// CHECK-DAG: kernels[0].launches[0].in_main_file = false
// CHECK-DAG: kernels[0].launches[0].block.dims[0].value = 128
// CHECK-DAG: kernels[1].name = "per_block_first"
// CHECK-DAG: kernels[1].launches[0].in_main_file = true
// CHECK-DAG: kernels[1].launches[0].block.dims[0].value = 64
// CHECK-DAG: kernels[2].name = "fill"
// CHECK-DAG: kernels[2].in_main_file = true
// CHECK-DAG: refused[{{[0-9]+}}].reason = "the kernel is defined in '{{.*}}included-kernels.cu', which the input file includes; the tool rewrites only the input file, so it leaves the kernel as it is"
// CHECK-DAG: refused[{{[0-9]+}}].reason = "'THREADS' is also used in the body of kernel per_block_first, whose launches do not all use it as their block size{{.*}}"
// NOKNOB-NOT: knobs[{{[0-9]+}}].id = "scale_rows.
// NOKNOB-NOT: knobs[{{[0-9]+}}].id = "per_block_first.
