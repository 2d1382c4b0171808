#!/usr/bin/env bash
# warp-aggregate on the GPU machine (device tool; carry
# build/bin/cuda-rewrite-opt and build/lib/libcro-inject.so), in one call
# that guards its own time:
#   1. the legality self-check (bench/selfcheck-gpu.sh) of every value of
#      the warp_aggregate knobs, and random combinations, on the programs
#      with an atomicAdd to a shared target;
#   2. --measure of all of atomic-sums.cu's kernels aggregated against the
#      original (interleaved runs, outputs verified);
#   3. compute-sanitizer racecheck and memcheck on that variant.
# -> $OUT/selfcheck.{json,log}, $OUT/measure.json, $OUT/sanitizer.log
# Usage: OUT=dir [LIMIT=240] [COMMIT=abc] bench/warp-aggregate-gpu.sh
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:?}
tool=build/bin/cuda-rewrite-opt
program=test/gpu/Inputs/atomic-sums.cu
start=$(date +%s)
LIMIT=${LIMIT:-240} KNOBS='\.warp_aggregate$' RANDOM_COMBOS=2 \
  FILES="$program bench/kernels/cg.cu bench/kernels/reduction.cu" \
  bash bench/selfcheck-gpu.sh
echo "selfcheck took $(( $(date +%s) - start )) s" | tee -a "$out/selfcheck.log"

all='{"dot_kernel.warp_aggregate": true, "count_kernel.warp_aggregate": true, "block_sum_kernel.warp_aggregate": true, "peak_kernel.warp_aggregate": true}'
echo "$all" > /tmp/aggregated.json
timeout 150 $tool $program --apply /tmp/aggregated.json --measure --runs 5 \
  > "$out/measure.json" 2> "$out/measure.log"
echo "measure rc=$?" | tee -a "$out/measure.log"

$tool $program --apply /tmp/aggregated.json -o /tmp/aggregated.cu &&
  nvcc -arch=sm_90 -O3 /tmp/aggregated.cu -o /tmp/aggregated
for t in racecheck memcheck; do
  echo "== compute-sanitizer --tool $t" >> "$out/sanitizer.log"
  timeout 120 compute-sanitizer --tool $t /tmp/aggregated >> "$out/sanitizer.log" 2>&1
  echo "rc=$?" >> "$out/sanitizer.log"
done
tail -8 "$out/sanitizer.log"
echo "total $(( $(date +%s) - start )) s"
