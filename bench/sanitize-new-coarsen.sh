#!/usr/bin/env bash
# compute-sanitizer memcheck on the new coarsen variants (grid-stride,
# templates) and the rewritten legality repros; prints one line each.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
tool=build/bin/cuda-rewrite-opt; out=${OUT:?}
run() { # name file config
  local f=$2 d=/tmp/san/$1; mkdir -p $d
  echo "$3" > $d/c.json
  $tool $f --apply $d/c.json -o $d/v.cu 2>$d/apply.log || { echo "$1: apply failed"; return; }
  nvcc -O3 -arch=sm_90 -I $(dirname $f) $d/v.cu -o $d/v 2>$d/build.log || { echo "$1: build failed"; return; }
  timeout 120 compute-sanitizer --tool memcheck --leak-check no $d/v > $d/run.log 2>&1; rc=$?
  echo "$1: rc=$rc $(grep -E 'ERROR SUMMARY' $d/run.log | tail -1) $(grep -E 'PASSED|FAILED' $d/run.log | tail -1)"
}
G=test/generality/programs
run gridstride-x8 $G/cpp_gridstride/cpp_gridstride.cu '{"relu_forward.coarsen":"x8","relu_backward.coarsen":"x8","bias_add.coarsen":"x8"}'
run gridstride-x2-b1024 $G/cpp_gridstride/cpp_gridstride.cu '{"relu_forward.coarsen":"x2","relu_backward.coarsen":"x4","bias_add.coarsen":"x2","bias_add.block":1024}'
run histogram-x8 $G/cpp_struct_params/cpp_struct_params.cu '{"histogram_kernel.coarsen":"x8"}'
run template-x8 $G/cpp_template_block/cpp_template_block.cu '{"scale_kernel.coarsen":"x8","fma_elementwise.coarsen":"x8-contiguous"}'
run template-x4-b64 $G/cpp_template_block/cpp_template_block.cu '{"scale_kernel.coarsen":"x4","scale_kernel.block":64,"fma_elementwise.coarsen":"x2"}'
run F11-block test/legality/F11-grid-variable-read-elsewhere.cu '{"fill.block":1024}'
run F11-coarsen test/legality/F11-grid-variable-read-elsewhere.cu '{"fill.coarsen":"x4"}'
run F19-coarsen test/legality/F19-lambda-return.cu '{"fancy.coarsen":"x2"}'
