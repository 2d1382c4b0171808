#!/usr/bin/env bash
# Issue 4's measurements on the GPU machine (device tool; carry
# build/bin/cuda-rewrite-opt and build/lib/libcro-inject.so):
#   targets   ceilings (copy bandwidth, cuBLAS SGEMM, fp32 peak) and the
#             best variants of naive SGEMM, transpose and stencil against
#             them, with racecheck/memcheck of the staged kernels;
#   variants  every corpus program's variant sample against its own check.
# Writes to $OUT (or ./device-out).
set -uo pipefail
what=${1:-targets}
out=${OUT:-device-out}
mkdir -p "$out"
tool=build/bin/cuda-rewrite-opt
lib=build/lib/libcro-inject.so
export PATH=/usr/local/cuda/bin:$PATH
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader
  nvcc --version | tail -2
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
} > "$out/machine-$what.txt" 2>&1
cat "$out/machine-$what.txt"
status=0
case $what in
targets)
  bash bench/ceilings.sh "$out/ceilings.json" || status=1
  cat "$out/ceilings.json"
  python3 bench/memory-targets.py --tool $tool --lib $lib \
    --ceilings "$out/ceilings.json" --out "$out/targets.json" \
    ${ONLY:+--only $ONLY} 2>&1 | tee "$out/targets.log" || status=1
  bash test/gpu/memory-transforms.sh $tool bench/kernels "$out" || status=1
  # The staged n-body kernel under the sanitizers, at an odd size.
  d=$(mktemp -d)
  echo '{"accelerations.shared_stage": 64, "accelerations.register_tile": "1x2"}' > "$d/c.json"
  $tool bench/kernels/nbody.cu --apply "$d/c.json" -o "$d/nbody.cu" &&
    nvcc -O3 -arch=sm_90 -I bench/kernels "$d/nbody.cu" -o "$d/nbody" || status=1
  for t in racecheck memcheck; do
    compute-sanitizer --tool $t --error-exitcode 99 "$d/nbody" 1000 2>&1 | tail -4 | tee -a "$out/nbody-sanitizer.txt"
    echo "exit: ${PIPESTATUS[0]} ($t)" | tee -a "$out/nbody-sanitizer.txt"
  done
  ;;
variants)
  python3 bench/verify-variants.py --tool $tool --out "$out/variants.json" \
    --commit "$(git rev-parse HEAD 2>/dev/null)" \
    bench/kernels/*.cu examples/*.cu 2>&1 | tail -40 | tee "$out/variants.log" || status=1
  ;;
esac
exit $status
