#!/usr/bin/env bash
# GPU test of a program Clang cannot parse but nvcc compiles (CTest label
# gpu): bench/flags-only/spmv stops Clang with an #error in its config.h. The
# main command must still tune it -- compiler flags only, every kernel the
# program launches timed and its outputs compared bit for bit -- and write
# the original text (plus, when flags won, a header naming them) that builds
# with those flags and passes the program's own check. A --replay from the
# database gives the same file.
# Usage: test/gpu/flags-only.sh <cuda-rewrite-opt> <program dir> [out dir]
set -uo pipefail
tool=$(realpath "$1")
prog=$(realpath "$2")
out=${3:-$(mktemp -d)}
mkdir -p "$out"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
work=$(mktemp -d)
cp -r "$prog"/. "$work/"
cd "$work" || exit 1
args="${RUN_ARGS:-1048576 24 5}"
"$tool" main.cu -o "$out/main.opt.cu" --run="$args" --budget "${BUDGET:-16}" \
  --db "$out/tuning.db" --report "$out/report.json" > /dev/null 2> "$out/main.log" ||
  { cat "$out/main.log"; fail "the main command failed"; }
tail -6 "$out/main.log"
grep -q "which nvcc compiles: its kernels are not modelled" "$out/main.log" ||
  fail "the tool did not say it tunes flags only"
grep -q spmv_csr "$out/report.json" || fail "spmv_csr was not timed (report.json)"
grep -q smooth "$out/report.json" || fail "smooth was not timed (report.json)"
# The source is never rewritten: the output is the original, less or plus
# the tool's header lines.
grep -v '^// \(Tuned by\|Rewrites,\|Measured:\|cuda-rewrite-opt:\)' "$out/main.opt.cu" |
  cmp -s - main.cu || fail "the source changed"
flags=$(sed -n 's|^// cuda-rewrite-opt: build this variant with nvcc ||p' "$out/main.opt.cu" | head -1)
echo "variant flags: ${flags:-(none: the original won)}"
# shellcheck disable=SC2086 # the flags are words
nvcc -O3 -arch=sm_90 $flags -I . "$out/main.opt.cu" -o "$out/spmv" ||
  fail "the output does not build with its flags"
# shellcheck disable=SC2086
"$out/spmv" $args | grep PASSED || fail "the output fails the program's check"
"$tool" main.cu --replay --run="$args" --db "$out/tuning.db" -o "$out/replayed.cu" 2> "$out/replay.log" ||
  { cat "$out/replay.log"; fail "replay"; }
grep -v '^// \(Tuned by\|Rewrites,\|Measured:\)' "$out/main.opt.cu" |
  cmp -s - "$out/replayed.cu" || fail "the replay differs from the tuned output"
echo "PASSED flags only: $(grep '^// Measured' "$out/main.opt.cu" || echo 'the original (no flag was faster)')"
