#!/usr/bin/env bash
# compute-sanitizer racecheck and synccheck on coarsen's block form where it
# wraps shared-memory work and barriers in a loop over original blocks (a
# missing barrier between two blocks' work shows up here before it shows up
# in results), plus memcheck; one line per variant and tool. Run on the GPU
# machine with build/bin/cuda-rewrite-opt carried; OUT=dir.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
tool=build/bin/cuda-rewrite-opt; out=${OUT:?}
run() { # name file config [program args]
  local f=$2 d=/tmp/san-block/$1; mkdir -p $d
  echo "$3" > $d/c.json
  $tool $f --apply $d/c.json -o $d/v.cu 2>$d/apply.log || { echo "$1: apply failed: $(head -1 $d/apply.log)"; return; }
  nvcc -O3 -arch=sm_90 -I $(dirname $f) $d/v.cu -o $d/v 2>$d/build.log || { echo "$1: build failed"; return; }
  for t in racecheck synccheck memcheck; do
    timeout 150 compute-sanitizer --tool $t $d/v ${4:-} > $d/$t.log 2>&1; rc=$?
    echo "$1 $t: rc=$rc $(grep -E 'SUMMARY' $d/$t.log | tail -1) | $(grep -E 'PASSED|FAILED' $d/$t.log | tail -1)"
  done
}
G=test/generality/programs
run transpose-x2 $G/tut_transpose_tiles/tut_transpose_tiles.cu '{"transposeCoalesced.coarsen":"x2","copyTiles.coarsen":"x8"}' "512 256"
run transpose-y8 $G/tut_transpose_tiles/tut_transpose_tiles.cu '{"transposeCoalesced.coarsen":"y8","transposeNaive.coarsen":"x8"}' "512 256"
run reduce-x8 $G/shoc_reduction/shoc_reduction.cu '{"reduce.coarsen":"x8"}' "1000003 2"
run blocksum-x4 $G/cpp_template_block/cpp_template_block.cu '{"block_sum_kernel.coarsen":"x4"}' 100003
run srad-y2 $G/rod_srad/rod_srad.cu '{"srad_cuda_1.coarsen":"y2","srad_cuda_2.coarsen":"x4"}' "256 320 2"
