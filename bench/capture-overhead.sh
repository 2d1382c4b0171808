#!/usr/bin/env bash
# What the capture checksums save (issue 18, item 4), on the GPU machine
# through the device tool; carry build/bin/cuda-rewrite-opt and
# build/lib/libcro-inject.so.
#
# For each program, the main command twice with the same seed, budget and
# runs, each with a tuning database of its own (nothing is reused between
# them, and a build cache of its own, so neither compiles for the other):
# "before" with --compare-all-captures (every capture written, read
# back and compared before the next run starts, as before the checksums),
# "after" without. bench/capture-overhead.py turns OUT into the per-run and
# per-evaluation time split.
#
# Usage: OUT=dir PROGRAMS=transpose,stencil2d [BUDGET=30] [RUNS=5]
#        [STOP_BY=epoch-seconds] bench/capture-overhead.sh
# With STOP_BY, no command is started after STOP_BY minus SLOT (150) s.
set -uo pipefail
out=${OUT:-device-out}
budget=${BUDGET:-30}
runs=${RUNS:-5}
slot=${SLOT:-150}
tool=${TOOL:-build/bin/cuda-rewrite-opt}
listing=$(python3 bench/corpus-programs.py "${PROGRAMS:?PROGRAMS=name,name}") || exit 2
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader
  nvcc --version | tail -2
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "budget $budget, runs $runs"
} >> "$out/machine.txt"
status=0
mapfile -t programs <<< "$listing"
for line in "${programs[@]}"; do
  IFS="|" read -r name file run _kernels <<< "$line"
  runargs=()
  [ -n "$run" ] && runargs=(--run "$run")
  for mode in before after; do
    if [ -n "${STOP_BY:-}" ] && [ $(( $(date +%s) + slot )) -gt "$STOP_BY" ]; then
      echo "== $name $mode: not started (STOP_BY)" | tee -a "$out/not-started.txt"
      continue
    fi
    flags=()
    [ "$mode" = before ] && flags=(--compare-all-captures)
    t0=$(date +%s.%N)
    $tool "$file" -o "$out/$name.$mode.opt.cu" --require-gpu --budget "$budget" \
      --runs "$runs" --seed 1 --db "$out/$name.$mode.db" --cache-dir "$out/$name.$mode.cache" \
      --report "$out/$name.$mode.report.json" --quiet "${flags[@]}" "${runargs[@]}" \
      2> "$out/$name.$mode.log" || { status=1; echo "  $name $mode failed: $(tail -1 "$out/$name.$mode.log")"; }
    t1=$(date +%s.%N)
    python3 -c "import json; print(json.dumps({'wall_s': $t1 - $t0}))" > "$out/$name.$mode.wall.json"
    echo "== $name $mode: $(python3 -c "print(round($t1 - $t0, 1))") s"
    rm -rf "$out/$name.$mode.db"* "$out/$name.$mode.cache"
  done
done
python3 bench/capture-overhead.py "$out" | tee "$out/summary.md"
exit $status
