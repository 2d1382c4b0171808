#!/usr/bin/env bash
# GPU tests of the memory-hierarchy transforms: variants of the corpus
# programs built from each transform (alone and combined) pass the program's
# own CPU check at sizes the tiles do not divide, and the shared-memory ones
# are clean under compute-sanitizer's racecheck and memcheck.
#   memory-transforms.sh <cuda-rewrite-opt> <bench/kernels> [results-dir]
# Exits 77 (skipped) without a GPU.
set -uo pipefail
tool=$(readlink -f "$1") kernels=$(readlink -f "$2")
results=${3:-$(mktemp -d)}
mkdir -p "$results"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no NVIDIA GPU on this machine (gpu-labelled test)"
  exit 77
fi
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
n=0

# name | program | configuration | arguments (odd sizes) | sanitize?
cases=(
  "sgemm-stage|sgemm.cu|{\"sgemm.shared_stage\": 16}|333|yes"
  "sgemm-stage-pad-tile|sgemm.cu|{\"sgemm.shared_stage\": 8, \"sgemm.shared_pad\": 1, \"sgemm.register_tile\": \"8x4\", \"sgemm.block\": [32, 8]}|333|yes"
  "sgemm-tile-only|sgemm.cu|{\"sgemm.register_tile\": \"4x2\"}|333|no"
  "transpose-tile|transpose.cu|{\"transpose.shared_stage\": \"tile\", \"transpose.shared_pad\": 1, \"transpose.block\": [32, 32]}|333 517|yes"
  "transpose-tile-rows|transpose.cu|{\"transpose.shared_stage\": \"tile\", \"transpose.coarsen\": \"y4\"}|333 517|yes"
  "transpose-coarsen|transpose.cu|{\"transpose.coarsen\": \"y4\"}|333 517|no"
  "stencil-halo|stencil2d.cu|{\"jacobi.shared_stage\": \"halo\", \"jacobi.block\": [32, 4]}|333 517|yes"
  "stencil-coarsen|stencil2d.cu|{\"jacobi.coarsen\": \"y2-contiguous\"}|333 517|no"
  "sgemm-strip-mine|sgemm.cu|{\"sgemm.tile.L0\": 16}|333|no"
  "nbody-strip-mine|nbody.cu|{\"accelerations.tile.L0\": 32}|1001|no"
  "saxpy-vectorize|saxpy.cu|{\"saxpy.vectorize\": 4}||no"
  "saxpy-coarsen|saxpy.cu|{\"saxpy.coarsen\": \"x8\"}||no"
  "nbody-stage-tile|nbody.cu|{\"accelerations.shared_stage\": 32, \"accelerations.register_tile\": \"1x4\"}|1001|yes"
)
for c in "${cases[@]}"; do
  IFS='|' read -r name prog cfg args san <<< "$c"
  n=$((n + 1))
  echo "$cfg" > "$work/$name.json"
  if ! "$tool" "$kernels/$prog" --apply "$work/$name.json" -o "$work/$name.cu" 2> "$work/$name.err" ||
     ! "$nvcc" -O3 -arch=sm_90 -I "$kernels" "$work/$name.cu" -o "$work/$name" 2>> "$work/$name.err"; then
    echo "FAIL $name: does not build"; cat "$work/$name.err"; fail=1; continue
  fi
  # shellcheck disable=SC2086
  if ! out=$("$work/$name" $args 2>&1) || [[ $out != *PASSED* ]]; then
    echo "FAIL $name: own check at '$args': $out"; fail=1; continue
  fi
  verdict="PASSED at '$args'"
  if [ "$san" = yes ]; then
    for t in racecheck memcheck; do
      # shellcheck disable=SC2086
      "$sanitizer" --tool $t --error-exitcode 99 "$work/$name" $args > "$work/$name.$t" 2>&1
      rc=$?
      summary=$(grep -h "SUMMARY" "$work/$name.$t" | tr '\n' ' ')
      verdict="$verdict; $t exit $rc: $summary"
      [ $rc -eq 0 ] || { fail=1; tail -20 "$work/$name.$t"; }
    done
  fi
  echo "ok $name: $verdict" | tee -a "$results/memory-transforms.txt"
done
echo "$n cases, $([ $fail = 0 ] && echo all passed || echo FAILURES)"
exit $fail
