#!/usr/bin/env bash
# GPU test of warp-aggregate: atomic-sums.cu (a float dot product, a count
# in a grid-stride loop, per-block double sums, atomicMax and atomicOr into
# one word) with every kernel's atomics aggregated passes the program's own
# exact check, is clean under compute-sanitizer's
# racecheck and memcheck, and --measure verifies its outputs against the
# original's.
#   warp-aggregate.sh <cuda-rewrite-opt> <test/gpu/Inputs> [results-dir]
# Exits 77 (skipped) without a GPU.
set -uo pipefail
tool=$(readlink -f "$1") inputs=$(readlink -f "$2")
results=${3:-$(mktemp -d)}
mkdir -p "$results"
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
nvcc=$(command -v nvcc)
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
program=$inputs/atomic-sums.cu
failed=0
kernels=$("$tool" "$program" --analyze | grep -o '"[a-z_]*\.warp_aggregate"' | sort -u)
[ "$(echo "$kernels" | wc -l)" -eq 4 ] || fail "expected 4 warp_aggregate knobs, got: $kernels"
echo "{$(echo "$kernels" | sed 's/$/: true/' | paste -sd,)}" > "$work/all.json"
"$tool" "$program" --apply "$work/all.json" -o "$work/v.cu" &&
  "$nvcc" -O3 -arch=sm_90 "$work/v.cu" -o "$work/v" || fail "the aggregated variant does not build"
out=$("$work/v" 2>&1)
[[ $out == *PASSED* ]] || { echo "FAIL: own check: $out"; failed=1; }
echo "own check: $out"
for t in racecheck memcheck; do
  "$sanitizer" --tool $t --error-exitcode 99 "$work/v" > "$results/$t.log" 2>&1
  rc=$?
  echo "$t exit $rc: $(grep -h SUMMARY "$results/$t.log" | tr '\n' ' ')"
  [ $rc -eq 0 ] || { failed=1; tail -20 "$results/$t.log"; }
done
"$tool" "$program" --apply "$work/all.json" --measure --runs 3 > "$results/measure.json" 2> "$results/measure.err"
rc=$?
grep -q '"verified": true' "$results/measure.json" || { echo "FAIL: --measure rc=$rc: $(cat "$results/measure.err")"; failed=1; }
python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
for k,v in sorted(d['speedups'].items()): print(f'{k}: {v[\"speedup\"]:.2f}x')
" "$results/measure.json" 2>/dev/null
[ $failed -eq 0 ] && echo "PASSED: warp-aggregate on the GPU"
exit $failed
