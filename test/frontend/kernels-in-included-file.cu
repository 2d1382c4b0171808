// Kernels defined in a .cu the input includes (Rodinia's main.cu +
// kernel.cu layout) and launched from there or from the input: they are
// modelled -- kernels, launch sites, where each is -- and tuned like the
// input's own. A configuration that edits the included file writes a
// rewritten copy of it beside the output, named after the output, and the
// output's #include names the copy; the input and its includes stay as they
// are. THREADS, fill's block size, is named in the body of an included
// kernel, so changing it is refused as it would be in one file.
// RUN: %cro %s --analyze | %flatten > %t.flat
// RUN: FileCheck %s < %t.flat
//
// RUN: rm -rf %t.dir && mkdir -p %t.dir/out
// RUN: cp %S/Inputs/included-kernels.cu %t.before.cu
// RUN: echo '{"fill.launch_bounds": "max", "scale_rows.block": 256, "per_block_first.read_only": true}' > %t.config.json
// RUN: %cro %s --apply %t.config.json -o %t.dir/out/main.opt.cu
// RUN: cmp %S/Inputs/included-kernels.cu %t.before.cu
// RUN: %strip-checks < %t.dir/out/main.opt.cu | FileCheck --check-prefix=MAIN %s
// MAIN: // cuda-rewrite-opt: this variant also rewrites Inputs/included-kernels.cu, as Inputs/included-kernels.main.opt.cu beside this file
// MAIN: #include "Inputs/included-kernels.main.opt.cu"
// MAIN: __global__ void __launch_bounds__(256) fill(
// RUN: FileCheck --check-prefix=COPY %s < %t.dir/out/Inputs/included-kernels.main.opt.cu
// The copy is not beside its original: its include of an unchanged file
// names that file from where the copy is.
// COPY: #include "{{(\.\./)+}}{{.*}}test/frontend/Inputs/included-params.h"
// COPY: per_block_first(const float *__restrict__ m,
// COPY: dim3 block(256);
// COPY-NEXT: dim3 grid((cols + 255) / 256, rows);
//
// One diff for both files: the input in place, the included file as a git
// copy (git apply writes the copy and leaves the original).
// RUN: %cro %s --apply %t.config.json --diff > %t.diff
// RUN: FileCheck --check-prefix=DIFF %s < %t.diff
// DIFF: --- a/{{.*}}kernels-in-included-file.cu
// DIFF: -#include "Inputs/included-kernels.cu"
// DIFF-NEXT: +#include "Inputs/included-kernels.cro.cu"
// DIFF: diff --git a/{{.*}}Inputs/included-kernels.cu b/{{.*}}Inputs/included-kernels.cro.cu
// DIFF-NEXT: copy from {{.*}}Inputs/included-kernels.cu
// DIFF-NEXT: copy to {{.*}}Inputs/included-kernels.cro.cu
// DIFF-NEXT: --- a/{{.*}}Inputs/included-kernels.cu
// DIFF-NEXT: +++ b/{{.*}}Inputs/included-kernels.cro.cu
// DIFF: -  dim3 block(128);
// DIFF: +  dim3 block(256);
//
// Several files do not fit on stdout: the variant is refused, nothing is
// printed, and -o naming one of the program's files is refused too.
// RUN: %expect-exit 2 %cro %s --apply %t.config.json > %t.stdout 2> %t.err2
// RUN: FileCheck --check-prefix=STDOUT %s < %t.err2
// STDOUT: error: this variant also rewrites '{{.*}}Inputs/included-kernels.cu', which the input includes; give -o FILE so that the rewritten copies can be written beside it
// RUN: not test -s %t.stdout
// A configuration of the input's kernel alone edits only the input file.
// RUN: echo '{"fill.launch_bounds": "max"}' > %t.one.json
// RUN: %cro %s --apply %t.one.json -o %t.dir/one.cu
// RUN: %strip-checks < %t.dir/one.cu | FileCheck --check-prefix=ONE %s
// ONE-NOT: cuda-rewrite-opt: this variant also rewrites
// ONE: #include "Inputs/included-kernels.cu"
// RUN: not ls %t.dir/Inputs
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

// CHECK-DAG: kernels[0].name = "fill"
// CHECK-DAG: kernels[0].in_main_file = true
// CHECK-DAG: kernels[1].name = "scale_rows"
// CHECK-DAG: kernels[1].in_main_file = false
// CHECK-DAG: kernels[1].launches[0].location = "{{.*}}Inputs{{/|\\}}included-kernels.cu:21:3"
// CHECK-DAG: kernels[1].launches[0].in_main_file = false
// CHECK-DAG: kernels[1].launches[0].block.dims[0].value = 128
// CHECK-DAG: kernels[2].name = "per_block_first"
// CHECK-DAG: kernels[2].launches[0].in_main_file = true
// CHECK-DAG: kernels[2].launches[0].block.dims[0].value = 64
// CHECK-DAG: knobs[{{[0-9]+}}].id = "scale_rows.block"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "scale_rows.coarsen"
// CHECK-DAG: knobs[{{[0-9]+}}].id = "per_block_first.read_only"
// CHECK-DAG: refused[{{[0-9]+}}].reason = "'THREADS' is also used in the body of kernel per_block_first, whose launches do not all use it as their block size{{.*}}"
// CHECK-DAG: refused[{{[0-9]+}}].reason = "the kernel reads blockIdx.y at {{.*}}Inputs{{/|\\}}included-kernels.cu:6:11 outside its thread index"
