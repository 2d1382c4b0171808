#!/usr/bin/env bash
# The objective and the decision rule on the GPU (issue 18), one device call
# (carry build/bin/cuda-rewrite-opt and build/lib/libcro-inject.so):
#  1. bench/objective/shrinking.cu (a kernel launched 300 times with
#     shrinking sizes, a setup kernel once) against itself with CHAIN 199
#     (about 0.5% less work, same outputs) with --measure, under both objectives:
#     launches counted, each kernel's GPU time in the program, and what the
#     main command's rule decides (would_write);
#  2. the main command on shrinking.cu (BUDGET evaluations): its report's
#     per-kernel launches, GPU time and share, and its decision.
# Usage: OUT=dir [BUDGET=12] [RUNS=7] bench/objective-gpu.sh
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:?}; budget=${BUDGET:-12}; runs=${RUNS:-7}
tool=build/bin/cuda-rewrite-opt
dir=bench/objective
mkdir -p "$out/objective"
# The variant: the same file with CHAIN 199 (one source, no copy to drift).
variant=/tmp/shrinking_05.cu
sed 's/^#define CHAIN 200$/#define CHAIN 199/' "$dir/shrinking.cu" > "$variant"
grep -q '^#define CHAIN 199$' "$variant" || { echo "objective-gpu: no CHAIN 200 in shrinking.cu" >&2; exit 2; }
for f in "$dir/shrinking.cu" "$variant"; do
  b=$(basename "$f" .cu)
  nvcc -O3 -arch=sm_90 "$f" -o "/tmp/$b" && "/tmp/$b" | tee "$out/objective/$b.check.txt"
done
for obj in program per-launch; do
  $tool "$dir/shrinking.cu" --measure --variant "$variant" --runs "$runs" \
    --objective "$obj" -o "$out/objective/measure-05-$obj.json" 2> "$out/objective/measure-05-$obj.log"
  echo "measure 0.5% variant, objective $obj: rc=$?"
done
python3 - "$out/objective" <<'PY'
import json, sys, os
d = sys.argv[1]
for obj in ("program", "per-launch"):
    try:
        r = json.load(open(os.path.join(d, f"measure-05-{obj}.json")))
    except Exception as e:
        print(obj, "no report:", e); continue
    p = r.get("program", {})
    print(f"objective {obj}: speedup {p.get('speedup'):.4f}, lower bound {p.get('speedup_lower_bound')}, would_write {p.get('would_write')}")
    print("  ", p.get("why"))
    for side in ("original", "variant"):
        for k, t in r[side]["kernels"].items():
            print(f"   {side} {k}: launches {t['launches']}, program {t['program_ms']:.4f} ms, "
                  f"per launch (replays) {t['median_ms']:.5f} ms, replayed {t['replayed']}")
PY
$tool "$dir/shrinking.cu" -o "$out/objective/shrinking.opt.cu" --require-gpu --budget "$budget" \
  --runs 5 --db "$out/objective/tuning.db" --report "$out/objective/shrinking.report.json" \
  --quiet 2> "$out/objective/main.log"
echo "main command: rc=$?"
python3 - "$out/objective/shrinking.report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("objective:", r.get("objective"), "| min_gain:", r.get("min_gain"))
print("decision:", r["decision"])
for m in r["metrics"]:
    if m["metric"] in ("launches", "GPU time in the program (ms)", "share of the program's GPU time", "median time per launch (ms)"):
        print(f"  {m['kernel']}: {m['metric']}: original {m['original']}, best {m['best']}")
PY
