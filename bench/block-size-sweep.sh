#!/usr/bin/env bash
# A block-size-only baseline for a program whose block-size product space is
# too large to search exhaustively within a device call (cg: 6 x 3 x 6 x 6 =
# 648 points): each kernel's block-size knob swept alone, the others as
# written, then the per-knob bests combined and measured as one point.
# Exact where the kernels' times are independent of each other's block size
# (the program's GPU time is their sum); the README of a result says it is
# this sweep and not the exhaustive product. Every search shares DB, so the
# main command's measurements of the same points are not repeated.
# Usage: bench/block-size-sweep.sh FILE OUT_PREFIX DB [extra tool options]
# -> OUT_PREFIX.sweep-KNOB.json per knob, OUT_PREFIX.blocksize.json (the
#    combined point's search), OUT_PREFIX.blocksize-sweep.json (summary)
set -uo pipefail
file=$1; prefix=$2; db=$3; shift 3
tool=${TOOL:-build/bin/cuda-rewrite-opt}
knobs=$($tool "$file" --analyze 2> /dev/null | python3 -c '
import json, sys
print(" ".join(k["id"] for k in json.load(sys.stdin)["knobs"] if k["transform"] == "block-size"))')
[ -n "$knobs" ] || { echo "block-size-sweep: $file offers no block-size knob" >&2; exit 2; }
for k in $knobs; do
  echo "{\"$k\": \"all\"}" > "$prefix.space-$k.json"
  $tool "$file" --search --strategy exhaustive --space "$prefix.space-$k.json" \
    --budget 1000 --patience 0 --runs 1 --db "$db" --quiet "$@" \
    > "$prefix.sweep-$k.json" 2> "$prefix.sweep-$k.log" || { echo "sweep of $k failed" >&2; exit 1; }
done
python3 - "$prefix" $knobs > "$prefix.space-combined.json" <<'PY'
import json, sys
prefix, knobs = sys.argv[1], sys.argv[2:]
combined = {}
for k in knobs:
    best = json.load(open(f"{prefix}.sweep-{k}.json")).get("best_config", {})
    if k in best:  # else the knob's best is the value as written
        combined[k] = [best[k]]
print(json.dumps(combined))
PY
$tool "$file" --search --strategy exhaustive --space "$prefix.space-combined.json" \
  --budget 10 --patience 0 --runs 1 --db "$db" --quiet "$@" \
  > "$prefix.blocksize.json" 2> "$prefix.blocksize.log" || { echo "combined point failed" >&2; exit 1; }
python3 - "$prefix" $knobs > "$prefix.blocksize-sweep.json" <<'PY'
import json, sys
prefix, knobs = sys.argv[1], sys.argv[2:]
out = {"method": "each block-size knob swept alone, then the bests combined",
       "knobs": {}}
for k in knobs:
    r = json.load(open(f"{prefix}.sweep-{k}.json"))
    out["knobs"][k] = {"best": r.get("best_config", {}).get(k, "as written"),
                       "points": len(r.get("moves", []))}
c = json.load(open(f"{prefix}.blocksize.json"))
times = [m["time_ms"] for m in c.get("moves", []) if m.get("time_ms")]
out["combined"] = c.get("best_config")
out["original_ms"] = times[0] if times else None
out["best_ms"] = min(times) if times else None
print(json.dumps(out, indent=1))
PY
cat "$prefix.blocksize-sweep.json"
