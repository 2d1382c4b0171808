#!/usr/bin/env bash
# Records the search spaces of bench/spaces/manifest.json on the GPU machine
# (device tool; carry build/bin/cuda-rewrite-opt and build/lib/libcro-inject.so):
# each space is searched exhaustively (every valid point built, verified
# against the original and timed) and written as a recorded space for
# --simulate. Usage: bench/record-spaces.sh [name...]   (default: all)
# Environment: OUT (default device-out), SECONDS_BUDGET (stop starting new
# spaces, and cut the running one, when this many seconds have passed;
# default 3000).
set -uo pipefail
out=${OUT:-device-out}
budget=${SECONDS_BUDGET:-3000}
mkdir -p "$out/spaces"
tool=build/bin/cuda-rewrite-opt
export PATH=/usr/local/cuda/bin:$PATH
start=$(date +%s)
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  mapfile -t names < <(python3 -c 'import json; [print(s["name"]) for s in json.load(open("bench/spaces/manifest.json"))["spaces"]]')
fi
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader
  nvcc --version | tail -2
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
} > "$out/spaces/machine.txt"
status=0
for name in "${names[@]}"; do
  left=$(( budget - ($(date +%s) - start) ))
  if [ $left -lt 60 ]; then
    echo "skip $name: $left s left" | tee -a "$out/spaces/record.log"
    continue
  fi
  read -r program run < <(python3 - "$name" <<'PY'
import json, sys
for s in json.load(open("bench/spaces/manifest.json"))["spaces"]:
    if s["name"] == sys.argv[1]:
        json.dump(s["space"], open("/tmp/space-" + s["name"] + ".json", "w"))
        print(s["program"], s["run"])
PY
)
  echo "== $name ($program $run), $left s left" | tee -a "$out/spaces/record.log"
  t0=$(date +%s)
  $tool "$program" --search --strategy exhaustive --budget 100000 --patience 0 \
    --batch 16 --db none --space "/tmp/space-$name.json" \
    --record-space "$out/spaces/$name.json" --run "$run" --runs 3 \
    --replays 20 --max-launches 1 --max-captures 1 --timeout 60 \
    --time-limit $(( left - 20 )) \
    > "$out/spaces/$name.summary.json" 2> "$out/spaces/$name.log" || status=1
  python3 - "$out/spaces/$name.summary.json" "$(( $(date +%s) - t0 ))" <<'PY' | tee -a "$out/spaces/record.log"
import json, sys, collections
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("  no summary:", e); sys.exit(0)
v = collections.Counter(m["verdict"] for m in d["moves"])
print(f"  {d['evaluations']} evaluations ({dict(v)}), {d['invalid_proposals']} invalid, stop: {d['stop_reason']}, "
      f"original {d['original_ms']:.4f} ms, best {d['best_time']:.4f} ms ({d['speedup']:.2f}x), {sys.argv[2]} s; "
      f"compile {d['seconds']['compile']:.0f} s, measure {d['seconds']['measure']:.0f} s, strategy {d['seconds']['strategy']:.2f} s")
PY
  tail -n 3 "$out/spaces/$name.log" >> "$out/spaces/record.log"
done
exit $status
