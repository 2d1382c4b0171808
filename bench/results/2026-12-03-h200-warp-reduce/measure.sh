#!/usr/bin/env bash
# Per-kernel time of warp-reduce variants against the original: the tool's
# --measure (both built, run interleaved under the measurement library,
# the variant's outputs verified with the default tolerances). Device tool;
# carry build/bin/cuda-rewrite-opt and build/lib/libcro-inject.so.
# -> $OUT/<name>.json, $OUT/measure.log
set -u
export PATH=/usr/local/cuda/bin:$PATH
tool=build/bin/cuda-rewrite-opt
g=test/generality/programs
run() { # name file config args
  echo "$3" > "/tmp/$1.config.json"
  timeout 120 $tool "$2" --apply "/tmp/$1.config.json" --measure ${4:+--run="$4"} \
    > "$OUT/$1.json" 2>> "$OUT/measure.log"
  echo "$1: $3 --run=$4 rc=$?" | tee -a "$OUT/measure.log"
}
run matvec-g32 $g/tut_matmul_tile/tut_matmul_tile.cu '{"MatVecKernel.warp_reduce": 32}' "2048"
run matvec-g8 $g/tut_matmul_tile/tut_matmul_tile.cu '{"MatVecKernel.warp_reduce": 8}' "2048"
run omp-matvec-g32 $g/lay_openmp_host/lay_openmp_host.cu '{"matvec_kernel.warp_reduce": 32}' "8192 4096"
run omp-matvec-g16 $g/lay_openmp_host/lay_openmp_host.cu '{"matvec_kernel.warp_reduce": 16}' "8192 4096"
run mvt2-g32 $g/pb_mvt/pb_mvt.cu '{"mvt_kernel2.warp_reduce": 32}' ""
run fir-g4 $g/cpp_masked_ops/cpp_masked_ops.cu '{"fir.warp_reduce": 4}' "16777216"
