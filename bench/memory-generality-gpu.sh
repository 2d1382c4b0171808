#!/usr/bin/env bash
# Issue 17 on the GPU machine (device tool; carry build/bin/cuda-rewrite-opt
# and build/lib/libcro-inject.so), in one call that guards its own time:
#   1. the legality self-check (bench/selfcheck-gpu.sh) of every value of the
#      memory transforms' knobs on the generality programs they newly fire on
#      (reduction nests holding a global element, warp-reduce max/min, halo
#      staging on range guards);
#   2. compute-sanitizer racecheck and memcheck of one shared-memory or
#      shuffle variant per kernel (CONFIGS below);
#   3. --measure of the same variants against the originals (5 interleaved
#      runs each).
# -> $OUT/memory-generality.tgz (selfcheck.json/log, sanitizer.txt,
#    measure/*.json, measure.txt, machine.txt)
#   4. ("tests") the self-checking test programs of TESTS: original and
#      variant built and run, the sanitizers on the variant.
# Usage: OUT=dir LIMIT=570 [PHASES="selfcheck sanitize measure tests"] [ONLY=regex] [ONLY_TESTS=regex] bench/memory-generality-gpu.sh
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:?}; limit=${LIMIT:-570}; start=$SECONDS
phases=${PHASES:-selfcheck sanitize measure}
tool=build/bin/cuda-rewrite-opt
G=test/generality/programs
work=$(mktemp -d)
res=$work/res; mkdir -p "$res/measure" "$out"
left() { echo $(( limit - (SECONDS - start) )); }
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader
  nvcc --version | tail -1
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
} > "$res/machine.txt" 2>&1
cat "$res/machine.txt"

# name | program | configuration [| program arguments under the sanitizers]
CONFIGS=(
  "gemm-ss32|pb_gemm|{\"gemm_kernel.shared_stage\": 32}"
  "gemm-ss32-rt2x2|pb_gemm|{\"gemm_kernel.shared_stage\": 32, \"gemm_kernel.register_tile\": \"2x2\"}"
  "gemm-ss16-rt4x2|pb_gemm|{\"gemm_kernel.shared_stage\": 16, \"gemm_kernel.register_tile\": \"4x2\"}"
  "3mm-ss32-rt2x2|pb_3mm|{\"mm3_kernel1.shared_stage\": 32, \"mm3_kernel1.register_tile\": \"2x2\", \"mm3_kernel2.shared_stage\": 32, \"mm3_kernel2.register_tile\": \"2x2\", \"mm3_kernel3.shared_stage\": 32, \"mm3_kernel3.register_tile\": \"2x2\"}"
  "syr2k-ss32-rt2x2|pb_syr2k|{\"syr2k_kernel.shared_stage\": 32, \"syr2k_kernel.register_tile\": \"2x2\"}"
  "atax-ss16|pb_atax|{\"atax_kernel1.shared_stage\": 16, \"atax_kernel2.shared_stage\": 16}"
  "softmax-wr32|dl_layernorm|{\"softmax_rowwise.warp_reduce\": 32}"
  "hotspot-halo|rod_hotspot|{\"calculate_temp.shared_stage\": \"halo\"}"
  "smooth5-halo|lay_included_cu|{\"smooth5_kernel.shared_stage\": \"halo\"}"
  "second-diff-halo|cpp_masked_ops|{\"second_diff.shared_stage\": \"halo\"}"
  "histogram-priv1024|cpp_struct_params|{\"histogram_kernel.privatize\": 1024}"
  "matvec-ss16|tut_matmul_tile|{\"MatVecKernel.shared_stage\": 16}"
  "fdtd-halo|pb_fdtd2d|{\"fdtd_step2_kernel.shared_stage\": \"halo\", \"fdtd_step3_kernel.shared_stage\": \"halo\"}"
  "boxblur-halo-rt|cpp_argv_block|{\"box_blur3.shared_stage\": \"halo\", \"box_blur3.block\": [32, 8]}"
  "boxblur-rt2x1|cpp_argv_block|{\"box_blur3.register_tile\": \"2x1\", \"box_blur3.block\": [32, 8]}"
  "blur3x3-halo|lay_nvcc_implicit|{\"blur3x3.shared_stage\": \"halo\"}"
  "fdtd1-halo|pb_fdtd2d|{\"fdtd_step1_kernel.shared_stage\": \"halo\"}"
  "srad-halo|rod_srad|{\"srad_cuda_1.shared_stage\": \"halo\", \"srad_cuda_2.shared_stage\": \"halo\"}|300 200 4"
  "srad-halo-b32|rod_srad|{\"srad_cuda_1.shared_stage\": \"halo\", \"srad_cuda_2.shared_stage\": \"halo\", \"srad_cuda_2.block\": [32, 32]}|300 200 4"
  "transpose-strip|tut_transpose_tiles|{\"transposeNaive.shared_stage\": \"tile\", \"transposeNaive.shared_pad\": 1}"
  "transpose-strip-nopad|tut_transpose_tiles|{\"transposeNaive.shared_stage\": \"tile\"}"
)
# ONLY: a regular expression on the names above; the others are skipped.
if [ -n "${ONLY:-}" ]; then
  kept=()
  for c in "${CONFIGS[@]}"; do [[ ${c%%|*} =~ $ONLY ]] && kept+=("$c"); done
  CONFIGS=("${kept[@]}")
fi

# Test programs that check themselves (exit 0 and PASSED): the original
# and the variant are each built and run; then the sanitizers on the
# variant. file | configuration
TESTS=(
  "test/transforms/shared-stage-runtime-block.cu|{\"laplace5.shared_stage\": \"halo\", \"laplace5.block\": [32, 8], \"matmul.shared_stage\": 16, \"matmul.block\": [16, 16]}"
  "test/transforms/shared-stage-runtime-block.cu|{\"matmul.block\": [16, 16], \"matmul.register_tile\": \"2x2\", \"matmul.shared_stage\": 16}"
  "test/transforms/shared-stage-branches.cu|{\"wave_step.shared_stage\": \"halo\"}"
  "test/transforms/shared-stage-clamped.cu|{\"sharpen.shared_stage\": \"halo\", \"smooth_line.shared_stage\": \"halo\", \"edge_x.shared_stage\": \"halo\"}"
  "test/transforms/shared-stage-choice.cu|{\"gradient_mag.shared_stage\": \"halo\", \"reflect_smooth.shared_stage\": \"halo\"}"
  "test/transforms/shared-stage-bounds-checked.cu|{\"blur.shared_stage\": \"halo\", \"taps_1d.shared_stage\": 32, \"box_sum.shared_stage\": \"halo\"}"
  "test/transforms/carry-forward.cu|{\"running_total.carry_forward.L0\": true, \"thomas.carry_forward.L0\": true, \"thomas.carry_forward.L1\": true, \"iir_rows.carry_forward.L0\": true}"
  "test/transforms/fold.cu|{\"sum_squares.fold\": 8, \"count_positive.fold\": 32, \"count_positive.warp_aggregate\": true}"
  "test/transforms/fold.cu|{\"sum_squares.fold\": 64, \"count_positive.fold\": 256}"
  "test/transforms/parallel-scan.cu|{\"cumulative_counts.parallel_scan\": 1024, \"row_offsets.parallel_scan\": 256, \"weighted_prefix.parallel_scan\": 32, \"segment_scan.parallel_scan\": 256, \"row_scans.parallel_scan\": 32, \"seeded.parallel_scan\": 256, \"ledger.parallel_scan\": 256, \"two_term_total.parallel_scan\": 1024}"
  "test/transforms/parallel-scan.cu|{\"cumulative_counts.parallel_scan\": 32, \"row_offsets.parallel_scan\": 1024, \"weighted_prefix.parallel_scan\": 1024, \"segment_scan.parallel_scan\": 32, \"row_scans.parallel_scan\": 1024, \"seeded.parallel_scan\": 1024, \"ledger.parallel_scan\": 32, \"two_term_total.parallel_scan\": 32}"
  "test/transforms/shared-stage-strip.cu|{\"strip_transpose.shared_stage\": \"tile\", \"strip_transpose.shared_pad\": 1, \"scaled_transpose.shared_stage\": \"tile\", \"pitch_transpose.shared_stage\": \"tile\", \"pitch_transpose.shared_pad\": 1}"
)
if [[ $phases == *tests* ]]; then
  for t in "${TESTS[@]}"; do
    IFS='|' read -r file cfg <<< "$t"
    [[ -n "${ONLY_TESTS:-}" && ! $file =~ $ONLY_TESTS ]] && continue
    n=$(basename "$file" .cu); k=1
    while [ -e "$work/tests/$n-$k" ]; do k=$((k + 1)); done
    n=$n-$k; d=$work/tests/$n; mkdir -p "$d"
    (( $(left) < 60 )) && { echo "$n: skipped (time)" >> "$res/tests.txt"; continue; }
    echo "$cfg" > "$d/c.json"
    nvcc -O3 -arch=sm_90 "$file" -o "$d/orig" 2> "$d/orig.build.log"
    $tool "$file" --apply "$d/c.json" -o "$d/v.cu" 2> "$d/apply.log" &&
      nvcc -O3 -arch=sm_90 -I "$(dirname "$file")" "$d/v.cu" -o "$d/v" 2> "$d/build.log"
    o=$("$d/orig" 2>&1); orc=$?; o=$(echo "$o" | tail -1)
    v=$("$d/v" 2>&1); vrc=$?; v=$(echo "$v" | tail -1)
    echo "$n: original '$o' (rc=$orc), variant '$v' (rc=$vrc)" >> "$res/tests.txt"
    # The original under memcheck too: an error there is the test
    # program's, not the rewrite's.
    for run in "v racecheck" "v memcheck" "orig memcheck"; do
      read -r bin tool_ <<< "$run"
      (( $(left) < 40 )) && break
      timeout 90 compute-sanitizer --tool $tool_ --error-exitcode 99 "$d/$bin" > "$d/$bin.$tool_.log" 2>&1
      echo "$n $bin $tool_: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$d/$bin.$tool_.log" | tail -1) | $(grep -E 'PASSED|FAILED|CUDA error' "$d/$bin.$tool_.log" | tail -1)" >> "$res/tests.txt"
      grep -m 3 -E 'Invalid|at .* in ' "$d/$bin.$tool_.log" >> "$res/tests.txt"
    done
    cp "$d/v.cu" "$res/$n.variant.cu" 2>/dev/null
  done
  cat "$res/tests.txt"
fi

if [[ $phases == *selfcheck* ]]; then
  KNOBS='^(gemm_kernel|syr2k_kernel|mm3_kernel1|atax_kernel1|atax_kernel2|MatVecKernel)\.(shared_stage|register_tile)$|^softmax_rowwise\.warp_reduce$|^histogram_kernel\.privatize$|^(smooth5_kernel|calculate_temp|fdtd_step2_kernel|fdtd_step3_kernel|second_diff|srad_cuda_1|srad_cuda_2)\.shared_stage$' \
  FILES="$G/pb_gemm/pb_gemm.cu $G/pb_syr2k/pb_syr2k.cu $G/pb_3mm/pb_3mm.cu $G/pb_atax/pb_atax.cu $G/dl_layernorm/dl_layernorm.cu $G/rod_hotspot/rod_hotspot.cu $G/lay_included_cu/lay_included_cu.cu $G/pb_fdtd2d/pb_fdtd2d.cu $G/tut_matmul_tile/tut_matmul_tile.cu $G/cpp_masked_ops/cpp_masked_ops.cu $G/cpp_struct_params/cpp_struct_params.cu $G/rod_srad/rod_srad.cu" \
  RANDOM_COMBOS=${RANDOM_COMBOS:-2} OUT=$res LIMIT=$(( $(left) - ${RESERVE:-200} )) \
  COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown) bash bench/selfcheck-gpu.sh
fi

variant() { # name program config -> $work/name/v (built) or non-zero
  local d=$work/$1 f=$G/$2/$2.cu; mkdir -p "$d"
  echo "$3" > "$d/c.json"
  [ -x "$d/v" ] && return 0
  $tool "$f" --apply "$d/c.json" -o "$d/v.cu" 2> "$d/apply.log" &&
    nvcc -O3 -arch=sm_90 -I "$G/$2" "$d/v.cu" -o "$d/v" 2> "$d/build.log"
}

if [[ $phases == *sanitize* ]]; then
  for c in "${CONFIGS[@]}"; do
    IFS='|' read -r name prog cfg args <<< "$c"
    (( $(left) < 60 )) && { echo "$name: skipped (time)" >> "$res/sanitizer.txt"; continue; }
    variant "$name" "$prog" "$cfg" || { echo "$name: apply/build failed" >> "$res/sanitizer.txt"; continue; }
    for t in racecheck memcheck; do
      (( $(left) < 40 )) && break
      tl=$(( $(left) - 30 )); (( tl > 90 )) && tl=90
      ( cd "$G/$prog" && timeout $tl compute-sanitizer --tool $t --error-exitcode 99 "$work/$name/v" ${args:-} ) > "$work/$name/$t.log" 2>&1
      rc=$?
      echo "$name $t: rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/$name/$t.log" | tail -1) | $(grep -E 'PASSED|FAILED' "$work/$name/$t.log" | tail -1)" >> "$res/sanitizer.txt"
    done
  done
  cat "$res/sanitizer.txt"
fi

if [[ $phases == *measure* ]]; then
  for c in "${CONFIGS[@]}"; do
    IFS='|' read -r name prog cfg _ <<< "$c"
    (( $(left) < 45 )) && { echo "$name: skipped (time)" >> "$res/measure.txt"; continue; }
    echo "$cfg" > "$work/$name.json"
    timeout $(( $(left) - 20 )) $tool "$G/$prog/$prog.cu" --apply "$work/$name.json" --measure --runs 5 \
      -o "$res/measure/$name.json" 2> "$res/measure/$name.log"
    echo "$name: rc=$? $(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); p=r['program']; print('speedup %.3f' % p['speedup'], 'verified' if not r.get('rejection') else 'REJECTED: %s' % r['rejection'])" "$res/measure/$name.json" 2>/dev/null)" >> "$res/measure.txt"
  done
  cat "$res/measure.txt"
fi
tar -C "$res" -czf "$out/memory-generality.tgz" .
echo "elapsed: $(( SECONDS - start )) s"
