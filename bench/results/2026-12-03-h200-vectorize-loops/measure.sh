#!/usr/bin/env bash
# Per-kernel time of vectorize variants whose lanes share a loop of the work
# (and MatVec, whose accumulator restarts per element) against the original:
# the tool's --measure (both built, run interleaved under the measurement
# library, the variant's outputs verified). Device tool; carry
# build/bin/cuda-rewrite-opt and build/lib/libcro-inject.so.
# -> $OUT/<name>.json, $OUT/measure.log
set -u
export PATH=/usr/local/cuda/bin:$PATH
tool=build/bin/cuda-rewrite-opt
g=test/generality/programs
run() { # name file config args
  echo "$3" > "/tmp/$1.config.json"
  timeout 150 $tool "$2" --apply "/tmp/$1.config.json" --measure --run="$4" \
    > "$OUT/$1.json" 2>> "$OUT/measure.log"
  echo "$1: $3 --run=$4 rc=$?" | tee -a "$OUT/measure.log"
}
run stencil-v2 $g/parboil_stencil/parboil_stencil.cu '{"naive_kernel.vectorize": 2}' "512 512 64 4"
run stencil-v4 $g/parboil_stencil/parboil_stencil.cu '{"naive_kernel.vectorize": 4}' "512 512 64 4"
run heat-v2 $g/tut_heat_while/tut_heat_while.cu '{"heat_step.vectorize": 2}' "4096 4096 10"
run heat-v4 $g/tut_heat_while/tut_heat_while.cu '{"heat_step.vectorize": 4}' "4096 4096 10"
run mvt-v2 $g/pb_mvt/pb_mvt.cu '{"mvt_kernel1.vectorize": 2}' ""
run matvec-v2 $g/tut_matmul_tile/tut_matmul_tile.cu '{"MatVecKernel.vectorize": 2}' "2048"
