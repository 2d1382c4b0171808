#!/usr/bin/env bash
# GPU test of a library file tuned through a generated harness (CTest label
# gpu): test/harness/saxpy-lib.cu has a kernel and no main(). The harness is
# parsed with the file, so the search reaches the kernel's block size; the
# written output is the file without the harness (it still compiles as the
# library it is), and --replay gives the same file.
# Usage: test/gpu/harness.sh <cuda-rewrite-opt> <test/harness dir> [out dir]
set -uo pipefail
tool=$(realpath "$1")
dir=$(realpath "$2")
out=${3:-$(mktemp -d)}
mkdir -p "$out"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
"$tool" "$dir/saxpy-lib.cu" --harness "$dir/saxpy-spec.json" -o "$out/saxpy-lib.opt.cu" \
  --budget "${BUDGET:-12}" --db "$out/tuning.db" --report "$out/report.json" \
  2> "$out/main.log" || { cat "$out/main.log"; fail "the main command failed"; }
tail -4 "$out/main.log"
grep -q 'saxpy.block' "$out/report.json" || fail "no evaluation of saxpy.block (report.json)"
grep -q "int main" "$out/saxpy-lib.opt.cu" && fail "the output holds the harness"
nvcc -O3 -arch=sm_90 -c "$out/saxpy-lib.opt.cu" -o "$out/saxpy-lib.o" ||
  fail "the output does not compile"
"$tool" "$dir/saxpy-lib.cu" --harness "$dir/saxpy-spec.json" --replay \
  --db "$out/tuning.db" -o "$out/replayed.cu" 2> "$out/replay.log" ||
  { cat "$out/replay.log"; fail "replay"; }
grep -v '^// \(Tuned by\|Rewrites,\|Measured:\)' "$out/saxpy-lib.opt.cu" |
  cmp -s - "$out/replayed.cu" || fail "the replay differs from the tuned output"
echo "PASSED harness: $(grep '^// Measured' "$out/saxpy-lib.opt.cu" || echo 'the original (nothing was faster)')"
