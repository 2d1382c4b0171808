#!/usr/bin/env bash
# The legality self-check on the GPU machine (device tool; carry
# build/bin/cuda-rewrite-opt and build/lib/libcro-inject.so), in one call
# that guards its own time: bench/legality-selfcheck.py over FILES (default:
# the generality suite), no variant started after LIMIT - 90 s.
# -> $OUT/selfcheck.json, $OUT/selfcheck.log
# Usage: OUT=dir LIMIT=570 COMMIT=abc FILES="bench/kernels/*.cu" [SKIP=earlier.json]
#        [KNOBS=regex] bench/selfcheck-gpu.sh
# (SKIP: an earlier call's selfcheck.json at the same commit; its checked
# variants are not run again; KNOBS: every value of the matching knobs
# instead of every knob at both ends, see legality-selfcheck.py --knobs)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:?}; limit=${LIMIT:-570}
files=${FILES:-test/generality/programs/*/*.cu}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/selfcheck.log"
# shellcheck disable=SC2086 # FILES is a glob list
timeout $(( limit - 10 )) python3 bench/legality-selfcheck.py --tool build/bin/cuda-rewrite-opt \
  --random "${RANDOM_COMBOS:-3}" --seed 2026 --run-jobs "${RUN_JOBS:-12}" --timeout 120 \
  --time-limit $(( limit - 90 )) --commit "${COMMIT:-unknown}" \
  ${SKIP:+--skip "$SKIP"} ${KNOBS:+--knobs "$KNOBS"} --out "$out/selfcheck.json" $files >> "$out/selfcheck.log" 2>&1
echo "selfcheck: rc=$?" | tee -a "$out/selfcheck.log"
tail -3 "$out/selfcheck.log"
