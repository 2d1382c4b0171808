#!/usr/bin/env bash
# The corpus benchmark (issue 8), on the GPU machine through the device tool;
# carry build/bin/cuda-rewrite-opt and build/lib/libcro-inject.so.
#
# For every program of bench/corpus.json: the main command with a fixed
# budget (the tool's own report gives original and best time, spread,
# evaluations, the time split), the block-size-only baseline (the same tool
# restricted to the block-size knobs, searched exhaustively), and the emitted
# variant compiled and run against the program's own check. The copy
# bandwidth and fp32 peak are measured in the same run (bench/ceilings.sh),
# for the roofline floors. bench/corpus-report.py turns the directory into
# the results JSON, table and plot.
#
# Usage: OUT=dir [BUDGET=40] [RUNS=3] [ONLY=saxpy,sgemm] [STOP_BY=epoch-seconds] [SKIP_BASELINE=1] [ARCHIVE=file.tgz] bench/run.sh
# A device call has 10 minutes: split the corpus with ONLY over several
# calls into the same OUT (the ceilings are measured once per call), and
# bring OUT back as one archive (the device returns few files: ARCHIVE=path
# writes OUT there as a .tgz when the script ends, also when it is stopped
# by a signal, e.g. ARCHIVE=$OUT/run-1.tgz with OUT=$OUT/run). With STOP_BY,
# no program is started after that time minus SLOT (120) seconds, so a call's
# time limit never cuts one in half; the ones left are listed.
#
# On a machine with several GPUs, SHARDS="saxpy,cg;conv2d,nbody" runs one
# list per GPU at the same time (GPU k gets the k-th list, through
# CUDA_VISIBLE_DEVICES), each with its own ceilings, log (run-gpuK-*.txt) and
# tuning database; every number is still one program on one GPU. nvcc's
# parallel builds then share the CPU cores between the lists.
set -uo pipefail
# The program lists are checked before anything is measured (exit 2): a
# name the corpus lacks (corpus-programs.py says which it has), an empty
# SHARDS list (it would mean the whole corpus on that GPU) or a program in
# two lists (both GPUs would write its files).
listing=$(python3 bench/corpus-programs.py "${ONLY:-}") || exit 2
if [ -n "${ARCHIVE:-}" ]; then
  # Written by this process alone (SHARDS' lists run with ARCHIVE unset).
  trap 'tar czf "$ARCHIVE" -C "$(dirname "${OUT:-device-out}")" "$(basename "${OUT:-device-out}")"' EXIT
  trap 'exit 143' TERM INT
fi
if [ -n "${SHARDS:-}" ]; then
  IFS=";" read -r -a lists <<< "$SHARDS"
  seen=" "
  for list in "${lists[@]}"; do
    if [ -z "${list//[ ,]/}" ]; then
      echo "run.sh: SHARDS=\"$SHARDS\" has an empty list" >&2; exit 2
    fi
    names=$(python3 bench/corpus-programs.py "$list" | cut -d"|" -f1) || exit 2
    for n in $names; do
      case "$seen" in *" $n "*)
        echo "run.sh: $n is in two SHARDS lists" >&2; exit 2;;
      esac
      seen="$seen$n "
    done
  done
  pids=()
  mkdir -p "${OUT:-device-out}"
  for g in "${!lists[@]}"; do
    SHARDS="" ARCHIVE="" ONLY="${lists[$g]}" CUDA_VISIBLE_DEVICES=$g DB_NAME="tuning-gpu$g.db" \
      CALL_SUFFIX="-gpu$g" bash "$0" > "${OUT:-device-out}/run-gpu$g-$(date -u +%H%M%S).txt" 2>&1 &
    pids+=($!)
  done
  rc=0
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  exit $rc
fi
out=${OUT:-device-out}
db=$out/${DB_NAME:-tuning.db}
budget=${BUDGET:-40}
# Runs of the original before the search, and of the winner and the original
# in the final confirmation (the tool's default is 5; 3 keeps a corpus run
# inside the device time, and every run replays each launch for ~100 ms).
runs=${RUNS:-3}
tool=${TOOL:-build/bin/cuda-rewrite-opt}
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
call=$(date -u +%H%M%S)${CALL_SUFFIX:-}
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader \
    ${CUDA_VISIBLE_DEVICES:+-i "${CUDA_VISIBLE_DEVICES%%,*}"}
  nvcc --version | tail -2
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
} > "$out/machine-$call.txt"
bash bench/ceilings.sh "$out/ceilings-$call.json" || echo "ceilings failed" >&2

mapfile -t programs <<< "$listing"
status=0
slot=${SLOT:-120}
for line in "${programs[@]}"; do
  IFS="|" read -r name file run _kernels <<< "$line"
  if [ -n "${STOP_BY:-}" ] && [ $(( $(date +%s) + slot )) -gt "$STOP_BY" ]; then
    echo "== $name: not started (STOP_BY)"; echo "$name" >> "$out/not-started-$call.txt"
    continue
  fi
  runargs=()
  [ -n "$run" ] && runargs=(--run "$run")
  echo "== $name"
  # The tool, as a user runs it.
  t0=$(date +%s.%N)
  started=$(date +%s)
  $tool "$file" -o "$out/$name.opt.cu" --require-gpu --budget "$budget" --runs "$runs" --db "$db" \
    --report "$out/$name.report.json" --quiet "${runargs[@]}" \
    2> "$out/$name.log" || { status=1; echo "  main command failed: $(tail -1 "$out/$name.log")"; }
  t1=$(date +%s.%N)
  python3 -c "import json; print(json.dumps({'wall_s': $t1 - $t0}))" > "$out/$name.wall.json"
  # The block-size-only baseline: every block size, nothing else. It shares
  # the tuning database, so the block sizes the agent already measured (same
  # source, flags and arguments) are not measured again.
  $tool "$file" --analyze 2> /dev/null | python3 -c '
import json, sys
m = json.load(sys.stdin)
json.dump({k["id"]: "all" for k in m["knobs"] if k["transform"] == "block-size"}, sys.stdout)
' > "$out/$name.blocksize-space.json"
  # SKIP_BASELINE=1 leaves it out (the report's baseline column is then
  # empty), when device time allows only the main command.
  if [ -z "${SKIP_BASELINE:-}" ] && [ "$(cat "$out/$name.blocksize-space.json")" != "{}" ]; then
    $tool "$file" --search --strategy exhaustive --space "$out/$name.blocksize-space.json" \
      --budget 1000 --patience 0 --runs 1 --db "$db" --quiet "${runargs[@]}" \
      > "$out/$name.blocksize.json" 2> "$out/$name.blocksize.log" || status=1
  fi
  # The emitted file passes the program's own check.
  if nvcc -O3 -arch=sm_90 -I "$(dirname "$file")" "$out/$name.opt.cu" -o "$out/$name.opt" \
      > "$out/$name.check.txt" 2>&1; then
    # shellcheck disable=SC2086
    if "$out/$name.opt" $run >> "$out/$name.check.txt" 2>&1; then
      echo "passed" > "$out/$name.verified"
    else
      echo "failed" > "$out/$name.verified"; status=1
    fi
  else
    echo "does not compile" > "$out/$name.verified"; status=1
  fi
  rm -f "$out/$name.opt"
  touch "$out/$name.done"
  # One line per program in the call's log: the decision and the time.
  summary=$(python3 -c '
import json, sys
try:
    r = json.load(open(sys.argv[1]))
    wrote = r["decision"].startswith("Wrote")
    times = [e["time_ms"] for e in r["evaluations"] if e.get("time_ms")]
    print("%.2fx written (search best %.2fx), %d evaluations: %s" % (
        r["speedup"] if wrote else 1.0, times[0] / min(times) if times else 1.0,
        len(r["evaluations"]), r["decision"][:150]))
except Exception:
    print("no report")
' "$out/$name.report.json" 2>/dev/null)
  echo "  $summary; check: $(cat "$out/$name.verified")  [$(( $(date +%s) - started )) s]"
done
exit $status
