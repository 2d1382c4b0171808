#!/usr/bin/env bash
# The CMake integration (CTest cmake-example): configures and builds
# examples/cmake against this build's cuda-rewrite-opt. Without a tuned
# result the original is compiled and the build says so; after a search
# (simulated here by recording a result in the database, as a search on an
# H200 would) the next build compiles the replayed variant.
# Usage: cmake-example.sh <source dir> <build dir>
set -euo pipefail
src=$1
build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Both generators users have: Ninja creates output directories by itself,
# Make does not (a Make-only failure once hid behind a Ninja-only test).
for generator in Ninja "Unix Makefiles"; do
echo "== $generator"
rm -rf "$work/b"
db="$work/tuning-${generator// /-}.db" # a fresh database per generator
cmake -S "$src/examples/cmake" -B "$work/b" -G "$generator" \
  -DCudaRewriteOpt_DIR="$build" -DCUDA_REWRITE_OPT_DB="$db" \
  -DCMAKE_CUDA_COMPILER="${CUDACXX:-/usr/local/cuda/bin/nvcc}" > "$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/b" > "$work/build1.log" 2>&1 || { cat "$work/build1.log"; exit 1; }
grep -q "no tuned result for '.*vector_add.cu'.*wrote the original unchanged" "$work/build1.log" ||
  { echo "FAIL: the first build did not say it used the original"; cat "$work/build1.log"; exit 1; }
tuned="$work/b/cuda-rewrite-opt/vector_add/vector_add.tuned.cu"
cmp -s "$tuned" "$src/examples/vector_add.cu" ||
  { echo "FAIL: without a result the compiled source must be the original"; exit 1; }
test -x "$work/b/vector_add" || { echo "FAIL: no executable"; exit 1; }
echo "build 1: original compiled, and the build said so"

# A result on an H200 for exactly this source, then the next build.
python3 "$src/test/search/Inputs/seed-db.py" "$db" "$src/examples/vector_add.cu" \
  "NVIDIA H200" '{"vector_add.block":128}' 0.5 1.0
cmake --build "$work/b" > "$work/build2.log" 2>&1 || { cat "$work/build2.log"; exit 1; }
grep -q "replayed the best verified variant on NVIDIA H200" "$work/build2.log" ||
  { echo "FAIL: the second build did not replay"; cat "$work/build2.log"; exit 1; }
echo '{"vector_add.block": 128}' > "$work/c.json"
"$build/bin/cuda-rewrite-opt" "$src/examples/vector_add.cu" --apply "$work/c.json" -o "$work/expected.cu"
cmp -s "$tuned" "$work/expected.cu" || { echo "FAIL: the replayed source is not the tuned variant"; diff "$tuned" "$work/expected.cu" | head; exit 1; }
test -x "$work/b/vector_add" || { echo "FAIL: no executable after the replay"; exit 1; }
# The tune target exists (it needs a GPU to do anything).
targets=$(cmake --build "$work/b" --target help) # (grep -q would cut make's pipe)
grep -q "vector_add-tune" <<< "$targets" ||
  { echo "FAIL: no vector_add-tune target"; exit 1; }
test ! -e "$tuned.new" || { echo "FAIL: the replay left $tuned.new behind"; exit 1; }
# Without a GPU the tune target fails (exit 11 from --require-gpu): a
# tuning job must not pass without tuning anything.
if ! nvidia-smi -L > /dev/null 2>&1; then
  if cmake --build "$work/b" --target vector_add-tune > "$work/tune.log" 2>&1; then
    echo "FAIL: vector_add-tune succeeded on a machine without a GPU"; cat "$work/tune.log"; exit 1
  fi
  grep -q "no NVIDIA GPU found on this machine, and --require-gpu" "$work/tune.log" ||
    { echo "FAIL: vector_add-tune did not say why it failed"; cat "$work/tune.log"; exit 1; }
  echo "tune target: fails without a GPU, and says why"
fi
echo "build 2: the replayed variant compiled"

# The kernel in a header: the replay writes the tuned main.cu and a
# rewritten copy of saxpy.cuh beside it, and the build compiles them.
hdr="$src/examples/kernels_in_header"
saxpy_dir="$work/b/cuda-rewrite-opt/saxpy"
python3 "$src/test/search/Inputs/seed-db.py" "$db" "$hdr/main.cu" \
  "NVIDIA H200" '{"saxpy.block":256}' 0.5 1.0 saxpy.cuh "$hdr/saxpy.cuh"
cmake --build "$work/b" > "$work/build3.log" 2>&1 || { cat "$work/build3.log"; exit 1; }
grep -q "replayed the best verified variant on NVIDIA H200: .*saxpy.block" "$work/build3.log" ||
  { echo "FAIL: the saxpy build did not replay"; cat "$work/build3.log"; exit 1; }
grep -q '#include "saxpy.main.tuned.cuh"' "$saxpy_dir/main.tuned.cu" ||
  { echo "FAIL: the tuned main.cu does not include the copy"; head -20 "$saxpy_dir/main.tuned.cu"; exit 1; }
grep -q "SAXPY_BLOCK\|256" "$saxpy_dir/saxpy.main.tuned.cuh" ||
  { echo "FAIL: no rewritten copy of saxpy.cuh"; ls "$saxpy_dir"; exit 1; }
cmp -s "$hdr/saxpy.cuh" "$saxpy_dir/saxpy.main.tuned.cuh" &&
  { echo "FAIL: the copy is not rewritten"; exit 1; }
test -x "$work/b/saxpy" || { echo "FAIL: no saxpy executable after the replay"; exit 1; }
# Nothing changed: a second build leaves the tuned files alone.
touch -d '2001-01-01' "$saxpy_dir/main.tuned.cu" "$saxpy_dir/saxpy.main.tuned.cuh"
cmake --build "$work/b" > "$work/build4.log" 2>&1 || { cat "$work/build4.log"; exit 1; }
test "$saxpy_dir/main.tuned.cu" -ot "$db" && test "$saxpy_dir/saxpy.main.tuned.cuh" -ot "$db" ||
  { echo "FAIL: an unchanged replay rewrote the tuned files"; exit 1; }
echo "build 3: a kernel in a header, replayed into two files and compiled"

# Nothing changed since: the replays do not run again (a stamp and the
# tool's depfile say what each one read).
cmake --build "$work/b" > "$work/build5.log" 2>&1 || { cat "$work/build5.log"; exit 1; }
if grep -q "replaying the tuned" "$work/build5.log"; then
  echo "FAIL: a no-op build ran the replays again"; cat "$work/build5.log"; exit 1
fi
echo "build 5: a no-op build replays nothing"

# The target with include directories and a compile definition: its first
# build parsed with them (it built, and said it used the original); a result
# recorded with its definition (the include directory is not part of the
# identity: the program text holds params.h by its path) is replayed.
scale_src="$src/examples/include_dirs/src/scale.cu"
grep -q "no tuned result for '.*scale.cu'.*wrote the original unchanged" "$work/build1.log" ||
  { echo "FAIL: the scale target's first replay did not use the original"; grep -i "scale\|error" "$work/build1.log"; exit 1; }
test -x "$work/b/scale" || { echo "FAIL: no scale executable"; exit 1; }
python3 "$src/test/search/Inputs/seed-db.py" "$db" "$scale_src" \
  "NVIDIA H200" '{"scale.block":128}' 0.5 1.0 --flag -DSCALE_FACTOR=3.0f \
  ../include/params.h "$src/examples/include_dirs/include/params.h"
cmake --build "$work/b" > "$work/build6.log" 2>&1 || { cat "$work/build6.log"; exit 1; }
grep -q "replayed the best verified variant on NVIDIA H200: .*scale.block" "$work/build6.log" ||
  { echo "FAIL: the scale build did not replay (the database changed)"; cat "$work/build6.log"; exit 1; }
grep -q "128" "$work/b/cuda-rewrite-opt/scale/scale.tuned.cu" ||
  { echo "FAIL: the tuned scale.cu is not the 128-thread variant"; exit 1; }
# A change to a header the source includes reruns its replay.
cmake --build "$work/b" > "$work/build7.log" 2>&1
grep -q "replaying the tuned.*scale.cu" "$work/build7.log" &&
  { echo "FAIL: replayed again with nothing changed"; exit 1; }
touch "$src/examples/include_dirs/include/params.h"
cmake --build "$work/b" > "$work/build8.log" 2>&1 || { cat "$work/build8.log"; exit 1; }
grep -q "replaying the tuned.*scale.cu" "$work/build8.log" ||
  { echo "FAIL: a changed header did not rerun the replay"; cat "$work/build8.log"; exit 1; }
echo "build 6-8: include directories and definitions reach the replay; it reruns only when its inputs change; PASSED"
done
