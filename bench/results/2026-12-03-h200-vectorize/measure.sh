#!/usr/bin/env bash
# Per-kernel time of vectorize variants against the original (the tool's
# --measure: both built, run interleaved under the measurement library, the
# variant's outputs verified). Device tool; carry build/bin/cuda-rewrite-opt
# and build/lib/libcro-inject.so. -> $OUT/<name>.json, $OUT/measure.log
set -u
export PATH=/usr/local/cuda/bin:$PATH
tool=build/bin/cuda-rewrite-opt
m=test/generality/programs/cpp_masked_ops/cpp_masked_ops.cu
t=test/generality/programs/cpp_template_block/cpp_template_block.cu
n=${N:-67108864} # 64 Mi elements: each kernel well above launch overhead
run() { # name file config
  echo "$3" > "/tmp/$1.config.json"
  timeout 180 $tool "$2" --apply "/tmp/$1.config.json" --measure --run="$n" \
    > "$OUT/$1.json" 2>> "$OUT/measure.log"
  echo "$1: $3 rc=$?" | tee -a "$OUT/measure.log"
}
# second_diff is double: 2 is its widest vector (16 bytes).
v() { echo "{\"gate.vectorize\": $1, \"soft_clip.vectorize\": $1, \"second_diff.vectorize\": 2, \"fir.vectorize\": $1, \"gain_half.vectorize\": $1}"; }
run masked-v2 $m "$(v 2)"
run masked-v4 $m "$(v 4)"
run template-v2 $t '{"fma_elementwise.vectorize": 2, "scale_kernel.vectorize": 2}'
run template-v4 $t '{"fma_elementwise.vectorize": 4, "scale_kernel.vectorize": 4}'
