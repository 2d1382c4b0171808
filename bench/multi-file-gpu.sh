#!/usr/bin/env bash
# A program whose kernels live in an included .cu, tuned end to end on the
# GPU machine (device tool; carry build/bin/cuda-rewrite-opt and
# build/lib/libcro-inject.so), in one call that guards its own time:
#   1. the main command on PROG/MAIN (default: the generality suite's
#      lay_included_cu, whose kernels are in kernels/lay_included_kernels.cu),
#      two input sets, writing the tuned main file (and rewritten copies of
#      the included files its result edits) and one diff over all of them;
#   2. the tuned program built with nvcc from where the tool wrote it and
#      run against its own CPU check, on both input sets;
#   3. --replay from the run's database into another directory (the
#      build-machine path): the same files as the tuned ones, less the
#      main command's measurement header; built and checked again.
# -> $OUT/multi-file.log, tune.log, tuned.diff, report.json, the outputs.
# Usage: OUT=dir LIMIT=480 BUDGET=30 [PROG=dir MAIN=file.cu] [RUN1="args"] [RUN2=...] bench/multi-file-gpu.sh
# (the search stops at LIMIT - 240 s; the confirmation and the checks need
# the rest)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:?}; limit=${LIMIT:-540}; budget=${BUDGET:-60}
tool=$PWD/build/bin/cuda-rewrite-opt
log=$out/multi-file.log
say() { echo "[$SECONDS s] $*" | tee -a "$log"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$log"
prog=${PROG:-test/generality/programs/lay_included_cu}
main=${MAIN:-lay_included_cu.cu}
work=$(mktemp -d)
cp -r "$prog" "$work/prog"
cd "$work/prog" || exit 1
mkdir -p tuned "$work/replayed"
# Two input sets (RUN1, RUN2: "nx ny iterations"); large enough by default
# that the kernels, not the noise, decide.
runs=("${RUN1:-6145 4001 20}" "${RUN2:-2050 1531 10}")

say "1. main command (budget $budget evaluations, time limit $(( limit - 240 )) s)"
timeout $(( limit - 180 )) "$tool" "$main" --run="${runs[0]}" --run="${runs[1]}" \
  --db "$out/tuning.db" --budget "$budget" --time-limit $(( limit - 240 )) \
  --report "$out/report.json" --diff -o "tuned/$main" \
  > "$out/tuned.diff" 2> "$out/tune.log"
say "main command: rc=$?"
tail -4 "$out/tune.log" | tee -a "$log"
find tuned -type f | sort | tee -a "$log"
# The written sources come back flattened (kernels/a.cu -> tuned--kernels--a.cu).
keep() { (cd "$1" && find . -type f \( -name "*.cu" -o -name "*.cuh" \) | sed 's|^\./||' |
  while read -r f; do cp "$f" "$out/$2--${f//\//--}"; done); }
keep tuned tuned
diff -r -q "$OLDPWD/$prog" . -x tuned > /dev/null \
  && say "the program's files are unchanged" || say "ERROR: the program's files changed"

check() { # dir: build the program written there and run its own check
  local dir=$1 ok=1
  # A variant that needs compiler flags names them in its first lines.
  local flags
  flags=$(sed -n 's|^// cuda-rewrite-opt: build this variant with nvcc ||p' "$dir/$main" | head -1)
  [ -n "$flags" ] && say "$dir: building with the variant's flags: $flags"
  # shellcheck disable=SC2086 # the flags are words
  if ! nvcc -O3 -arch=sm_90 $flags "$dir/$main" -o "$dir/prog" -I "$work/prog" > "$dir/build.log" 2>&1; then
    say "$dir: does not build"; cat "$dir/build.log" | tail -5 | tee -a "$log"; return 1
  fi
  for r in "${runs[@]}"; do
    # shellcheck disable=SC2086 # the arguments are words
    if "$dir/prog" $r > "$dir/run.log" 2>&1 && grep -q PASSED "$dir/run.log"; then
      say "$dir ($r): PASSED"
    else
      say "$dir ($r): FAILED"; tail -3 "$dir/run.log" | tee -a "$log"; ok=0
    fi
  done
  [ $ok = 1 ]
}
say "2. the tuned program, built from where the tool wrote it"
check tuned

say "3. --replay from the database into another directory"
"$tool" "$main" --replay --run="${runs[0]}" --run="${runs[1]}" \
  --db "$out/tuning.db" -o "$work/replayed/$main" 2>&1 | tee -a "$log"
find "$work/replayed" -type f | sort | tee -a "$log"
for f in $(cd tuned && find . -type f \( -name '*.cu' -o -name '*.cuh' \) ! -name "$main"); do
  cmp -s "tuned/$f" "$work/replayed/$f" && say "replayed $f: same as tuned" || say "ERROR: replayed $f differs from tuned"
done
grep -v '^// \(Tuned by\|Rewrites,\|Measured:\)' "tuned/$main" | cmp -s - "$work/replayed/$main" \
  && say "replayed main file: same as tuned, less the measurement header" || say "replayed main file differs from tuned"
check "$work/replayed"
keep "$work/replayed" replayed
say "done"
