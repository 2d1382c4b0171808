#!/usr/bin/env bash
# The generality suite on the GPU machine (device tool; carry
# build/bin/cuda-rewrite-opt and build/lib/libcro-inject.so), in one call
# that guards its own time:
#  1. every variant of a sample (each knob at both ends, 3 random
#     combinations per program) built and run against the program's own check
#     (bench/verify-variants.py) -> $OUT/variants.json, $OUT/verify.log;
#  2. for the programs in PROGRAMS, while time is left: the main command
#     (BUDGET evaluations) and the block-size-only baseline (exhaustive), as
#     bench/run.sh does for the corpus -> $OUT/main.tar.gz, $OUT/main.txt.
# Usage: OUT=dir LIMIT=560 BUDGET=20 PROGRAMS="pb_gemm pb_syr2k" COMMIT=abc bench/generality-gpu.sh
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:?}; limit=${LIMIT:-560}; budget=${BUDGET:-20}
tool=build/bin/cuda-rewrite-opt
start=$(date +%s)
left() { echo $(( limit - ($(date +%s) - start) )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/main.txt"
if [ -z "${SKIP_VARIANTS:-}" ]; then
  timeout $(( $(left) - 30 )) python3 bench/verify-variants.py --tool $tool --random 3 \
    --seed 2026 --run-jobs 4 --timeout 120 --commit "${COMMIT:-unknown}" \
    --out "$out/variants.json" test/generality/programs/*/*.cu > "$out/verify.log" 2>&1
  echo "variants: rc=$? $(tail -1 "$out/verify.log")" | tee -a "$out/main.txt"
fi
mkdir -p "$out/main"
for p in ${PROGRAMS:-}; do
  if [ "$(left)" -lt 150 ]; then echo "$p: not started (time)" | tee -a "$out/main.txt"; continue; fi
  f=test/generality/programs/$p/$p.cu
  t0=$(date +%s)
  $tool "$f" -o "$out/main/$p.opt.cu" --require-gpu --budget "$budget" --runs 5 \
    --db "$out/main/tuning.db" --report "$out/main/$p.report.json" --quiet 2> "$out/main/$p.log"
  $tool "$f" --analyze 2>/dev/null | python3 -c '
import json, sys
m = json.load(sys.stdin)
json.dump({k["id"]: "all" for k in m["knobs"] if k["transform"] == "block-size"}, sys.stdout)' \
    > "$out/main/$p.blocksize-space.json"
  $tool "$f" --search --strategy exhaustive --space "$out/main/$p.blocksize-space.json" \
    --budget 1000 --patience 0 --runs 1 --db "$out/main/tuning.db" --quiet \
    > "$out/main/$p.blocksize.json" 2> "$out/main/$p.blocksize.log"
  check=failed
  nvcc -O3 -arch=sm_90 -I "$(dirname "$f")" "$out/main/$p.opt.cu" -o /tmp/$p.opt 2>/dev/null &&
    /tmp/$p.opt > "$out/main/$p.check.txt" 2>&1 && check=passed
  python3 - "$out/main/$p.report.json" "$out/main/$p.blocksize.json" "$p" "$check" "$(( $(date +%s) - t0 ))" <<'PY' | tee -a "$out/main.txt"
import json, sys
rep, bs, name, check, secs = sys.argv[1:6]
try:
    r = json.load(open(rep))
    orig = r["original_ms"]
    # What was written (1.00x when the original was kept), and the best the
    # search itself measured (one run per variant, as the baseline's).
    main = r["speedup"] if r.get("decision", "").startswith("Wrote") else 1.0
    times = [e["time_ms"] for e in r.get("evaluations", []) if e.get("time_ms")]
    search = times[0] / min(times) if times else None
except Exception as e:
    print(f"{name}: no report ({e})"); sys.exit()
try:
    b = json.load(open(bs))
    best = b.get("best_time")
    bso = (b.get("original_ms") or orig) / best if best else None
except Exception:
    bso = None
print(f"{name}: main {main:.2f}x ({r.get('decision', '')[:160]}), "
      f"search best {search and f'{search:.2f}x'}, "
      f"block-size-only {bso and f'{bso:.2f}x'}, original {orig:.4f} ms, "
      f"check {check}, {secs} s")
PY
done
tar czf "$out/main.tar.gz" -C "$out" main && rm -rf "$out/main"
