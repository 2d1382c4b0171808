#!/usr/bin/env bash
# GPU test of the search (CTest label gpu): a short agent search on saxpy
# writes a verified variant and fills the tuning database; the same search
# again measures nothing new (every point is resumed from the database); and
# --replay writes the same variant without measuring.
# Usage: test/gpu/search.sh <cuda-rewrite-opt> <bench/kernels dir> [out dir]
set -uo pipefail
tool=$1
kernels=$2
out=${3:-$(mktemp -d)}
mkdir -p "$out"
if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "SKIPPED: no NVIDIA GPU on this machine (the search measures on one)"
  exit 77
fi
d=$(mktemp -d)
fail() { echo "FAIL: $*"; exit 1; }
common=(--strategy agent --budget 12 --batch 4 --seed 5 --db "$d/tuning.db"
        --run 1048576 --runs 3 --replays 20 --max-launches 1 --max-captures 1)
$tool "$kernels/saxpy.cu" --search "${common[@]}" -o "$d/best.cu" \
  > "$d/first.json" 2> "$d/first.log" || { cat "$d/first.log"; fail "first search"; }
python3 - "$d/first.json" <<'PY' || fail "first search result"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["evaluations"] == 12, d["evaluations"]
assert d["resumed"] == 0, d["resumed"]
assert d["best_time"] and d["best_time"] > 0
assert all(m["verdict"] in ("verified", "rejected", "build-failed", "run-failed") for m in d["moves"])
print(f"first: {d['evaluations']} evaluations, best {d['best_time']:.4f} ms "
      f"({d['speedup']:.2f}x), {d['best_config']}, {d['seconds']}")
PY
test -s "$d/best.cu" || fail "no variant written"
$tool "$kernels/saxpy.cu" --search "${common[@]}" -o "$d/again.cu" \
  > "$d/again.json" 2> "$d/again.log" || { cat "$d/again.log"; fail "resumed search"; }
python3 - "$d/first.json" "$d/again.json" <<'PY' || fail "resume"
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert b["resumed"] == 11, b["resumed"]   # all but the original, re-measured as the baseline
assert [m["config"] for m in a["moves"]] == [m["config"] for m in b["moves"]]
print(f"resumed: {b['resumed']} of {b['evaluations']} from the database, measure {b['seconds']['measure']:.1f} s")
PY
$tool "$kernels/saxpy.cu" --replay --db "$d/tuning.db" --run 1048576 -o "$d/replayed.cu" \
  2> "$d/replay.log" || { cat "$d/replay.log"; fail "replay"; }
cat "$d/replay.log"
cmp -s "$d/replayed.cu" "$d/again.cu" || fail "the replayed variant differs from the search's best"
cp "$d"/*.json "$d"/*.log "$out/" 2>/dev/null
echo "PASSED search, resume and replay"
