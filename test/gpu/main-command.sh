#!/usr/bin/env bash
# GPU test of the main command (CTest label gpu): the README's
#   cuda-rewrite-opt examples/matmul.cu -o matmul.opt.cu
# with a diff, an HTML report and JSON events. The naive matmul has a large,
# certain win (staging + register tiling), so the output must be a variant
# with the tool's header, and it must compile and pass the program's check.
# Usage: test/gpu/main-command.sh <cuda-rewrite-opt> <examples dir> [out dir]
set -uo pipefail
tool=$1
examples=$2
out=${3:-$(mktemp -d)}
mkdir -p "$out"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
$tool "$examples/matmul.cu" -o "$out/matmul.opt.cu" --budget ${BUDGET:-40} \
  --db "$out/tuning.db" --diff --report "$out/matmul-report.html" \
  --log-json "$out/events.jsonl" --profile > "$out/matmul.diff" 2> "$out/main.log" ||
  { cat "$out/main.log"; fail "the main command failed"; }
cat "$out/main.log" | tail -5
head -5 "$out/matmul.opt.cu"
grep -q "^// Tuned by cuda-rewrite-opt" "$out/matmul.opt.cu" || fail "no variant written (see main.log)"
grep -q "^// Measured (.*): .* outputs verified" "$out/matmul.opt.cu" || fail "no measurement in the header"
grep -q "^+" "$out/matmul.diff" || fail "empty diff"
grep -q 'id="plot-evaluations"' "$out/matmul-report.html" || fail "no plot in the report"
grep -q '"event":"done"' "$out/events.jsonl" || fail "no done event"
grep -q 'registers per thread' "$out/matmul-report.html" || fail "no metrics in the report"
grep -q 'ncu ' "$out/matmul-report.html" || echo "note: no Nsight Compute metrics (see main.log)"
nvcc -O3 -arch=sm_90 "$out/matmul.opt.cu" -o "$out/matmul.opt" || fail "the variant does not compile"
"$out/matmul.opt" || fail "the variant fails the program's own check"
# The build-machine path: the same result from the database, no search.
$tool "$examples/matmul.cu" --replay --db "$out/tuning.db" -o "$out/replayed.cu" 2> "$out/replay.log" ||
  { cat "$out/replay.log"; fail "replay"; }
grep -v -e '^// Tuned by cuda-rewrite-opt' -e '^// Rewrites, ' -e '^// Measured (' "$out/matmul.opt.cu" |
  cmp -s - "$out/replayed.cu" || fail "the replay differs from the tuned output"
echo "PASSED main command: $(grep '^// Measured' "$out/matmul.opt.cu")"
