#!/usr/bin/env bash
# Where the time of one evaluation goes, per corpus program, on the GPU
# machine (carry build/bin/cuda-rewrite-opt and build/lib/libcro-inject.so).
# For each program: the plain run; the run under the measurement library with
# timed replays only; with replays and output captures (and the captures'
# size); and the tool's own split (compile / measure) of a 3-evaluation
# search with one run of the original. The difference between the lines is
# what each stage costs; bench/run.sh's budget per device call follows.
#
# Usage: [ONLY=saxpy,cg] bash bench/evaluation-cost.sh > cost.txt
set -uo pipefail
tool=${TOOL:-build/bin/cuda-rewrite-opt}
lib=${LIB:-build/lib/libcro-inject.so}
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "temporary directory $work on: $(df -T "$work" | tail -1 | awk '{print $2}')"

# A name the corpus lacks stops the run here, with the names it has.
listing=$(python3 bench/corpus-programs.py "${ONLY:-}") || exit 2
mapfile -t programs <<< "$listing"
# Build every program first, in parallel, so the timings below are runs only.
for line in "${programs[@]}"; do
  IFS="|" read -r name file run kernels <<< "$line"
  nvcc -O3 -arch=sm_90 -I "$(dirname "$file")" "$file" -o "$work/$name" &
done
wait

seconds() { # command... -> wall seconds, stdout/stderr dropped
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > /dev/null 2>&1
  t1=$(date +%s.%N)
  python3 -c "print(f'{$t1 - $t0:.2f}')"
}
printf '%-10s %7s %7s %8s %8s %9s %9s\n' program plain replay +capture capture_MB compile/ev measure/ev
for line in "${programs[@]}"; do
  IFS="|" read -r name file run kernels <<< "$line"
  # shellcheck disable=SC2086
  plain=$(seconds "$work/$name" $run)
  inject=(env CUDA_INJECTION64_PATH="$PWD/$lib" CRO_OUT="$work/out.jsonl" CRO_KERNELS="$kernels")
  # shellcheck disable=SC2086
  replay=$(seconds "${inject[@]}" CRO_CAPTURE_DIR= "$work/$name" $run)
  rm -rf "$work/cap" && mkdir "$work/cap"
  # shellcheck disable=SC2086
  capture=$(seconds "${inject[@]}" CRO_CAPTURE_DIR="$work/cap" "$work/$name" $run)
  mb=$(du -sm "$work/cap" | cut -f1)
  grep -q '"event":"capture"' "$work/out.jsonl" 2>/dev/null ||
    echo "$name: the measurement library captured nothing: $(head -c 300 "$work/out.jsonl" 2>/dev/null)" >&2
  runargs=()
  [ -n "$run" ] && runargs=(--run "$run")
  $tool "$file" --search --strategy random --budget 4 --batch 4 --runs 1 --db none --quiet \
    "${runargs[@]}" > "$work/search.json" 2> "$work/search.log" ||
    echo "$name: search failed: $(tail -3 "$work/search.log")" >&2
  split=$(python3 - "$work/search.json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    n = max(1, d["evaluations"])
    s = d["seconds"]
    print(f"{s['compile'] / n:9.2f} {s['measure'] / n:9.2f}")
except Exception as e:
    print(f"search failed ({e})")
PY
)
  printf '%-10s %7s %7s %8s %8s %s\n' "$name" "$plain" "$replay" "$capture" "$mb" "$split"
done
