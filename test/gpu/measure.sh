#!/usr/bin/env bash
# GPU tests of the measurement path (--measure): wrong variants are rejected
# by the tool's own buffer comparison (the program has no check of its own),
# hanging and crashing variants are rejected and the GPU stays usable, the
# same variant measured twice agrees within 1%, and replay leaves the
# program's output unchanged.
#   measure.sh <cuda-rewrite-opt> <test/gpu/Inputs> <examples> [results-dir]
# Exits 77 (skipped) without a GPU.
set -uo pipefail
tool=$(readlink -f "$1") inputs=$(readlink -f "$2") examples=$(readlink -f "$3")
results=${4:-$(mktemp -d)}
mkdir -p "$results"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no NVIDIA GPU on this machine (gpu-labelled test)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work # a fresh build cache
# Each wrong (or right) variant of scale.cu is one edit of it.
make_variants() { # <scale.cu> <outdir>
  local s=$1 o=$2
  sed 's|int i = blockIdx.x \* blockDim.x + threadIdx.x;|int i = blockIdx.x * blockDim.x + threadIdx.x + 1;|' "$s" > "$o/scale_offbyone.cu"
  sed 's|  if (i < n)$|  if (i < n / 2)|' "$s" > "$o/scale_partial.cu"
  sed 's|    out\[i\] = s \* in\[i\];|    (void)in; /* never writes: out keeps what was there */|' "$s" > "$o/scale_stale.cu"
  sed 's|    out\[i\] = s \* in\[i\];|    for (volatile int k = 0; k >= 0; k = (k + 1) \& 0xffff) out[i] = s * in[i];|' "$s" > "$o/scale_hang.cu"
  sed 's|    out\[i\] = s \* in\[i\];|    ((float *)0x10)[i] = s * in[i];|' "$s" > "$o/scale_crash.cu"
  sed 's|    out\[i\] = s \* in\[i\];|    out[i] = (i == 12345) ? __int_as_float(0x7fc00000) : s * in[i];|' "$s" > "$o/scale_nan.cu"
  sed 's|    out\[i\] = s \* in\[i\];|    out[i] = __half2float(__float2half(s * in[i]));|; s|#include <cuda_runtime.h>|#include <cuda_fp16.h>\n#include <cuda_runtime.h>|' "$s" > "$o/scale_lowprec.cu"
  sed 's|#define THREADS 256|#define THREADS 512|' "$s" > "$o/scale_ok.cu"
  sed 's|scale<<<(n + THREADS - 1) / THREADS, THREADS>>>|scale<<<n / THREADS, THREADS>>>|; s|^// A program with no check of its own|// Tuned to one input: the grid covers n only when THREADS divides it.\n// A program with no check of its own|' "$s" > "$o/scale_onesize.cu"
}

fail=0
summary=()

expect() { # name expected-exit command...
  local name=$1 want=$2; shift 2
  # CRO_GPU_TEST_ONLY="a b": run only the scenarios named there.
  if [ -n "${CRO_GPU_TEST_ONLY:-}" ] && [[ " $CRO_GPU_TEST_ONLY " != *" $name "* ]]; then
    return
  fi
  "$@" > "$results/$name.json" 2> "$results/$name.err"
  local rc=$?
  local why
  why=$(python3 -c "import json,sys; d=json.load(open('$results/$name.json')); print(d.get('rejection') or 'verified')" 2>/dev/null || tail -1 "$results/$name.err")
  # A rejection counts only when it is the variant's fault.
  if [ "$want" = 12 ] && [[ "$why" == *"original program does not run cleanly"* ]]; then
    rc="$rc (the original failed)"
  fi
  if [ "$rc" = "$want" ]; then
    summary+=("PASS  $name (exit $rc): $why")
  else
    summary+=("FAIL  $name (exit $rc, wanted $want): $why")
    fail=1
  fi
}

src=$inputs/scale.cu
variants=$work/variants
mkdir -p "$variants"
make_variants "$src" "$variants"
for bad in offbyone partial stale nan lowprec crash; do
  expect "reject-$bad" 12 "$tool" "$src" --measure --variant "$variants/scale_$bad.cu" --replays 5
done
expect reject-hang 12 "$tool" "$src" --measure --variant "$variants/scale_hang.cu" --replays 5 --timeout 20
# The GPU is still usable: a correct variant is verified right after.
expect accept-after-hang 0 "$tool" "$src" --measure --variant "$variants/scale_ok.cu" --replays 5
echo '{"scale.block": 1024, "scale.read_only": true}' > "$work/cfg.json"
expect accept-config 0 "$tool" "$src" --measure --apply "$work/cfg.json"
expect accept-flush-l2 0 "$tool" "$src" --measure --apply "$work/cfg.json" --flush-l2

# A variant tuned to one input passes on it and is caught on a second one.
expect accept-one-input 0 "$tool" "$src" --measure --variant "$variants/scale_onesize.cu" --run 16777216 --runs 1
expect reject-second-input 12 "$tool" "$src" --measure --variant "$variants/scale_onesize.cu" --run 16777216 --run 3000001 --runs 1
# A --check command that fails rejects an otherwise correct variant.
expect reject-check 12 "$tool" "$src" --measure --variant "$variants/scale_ok.cu" --check false --runs 1
# Harness mode: a kernel file without main(), called from a kernel spec.
echo '{"nvcc.maxrregcount": 32, "nvcc.dlcm": "ca"}' > "$work/h.json"
expect accept-harness 0 "$tool" "$inputs/../../harness/saxpy-lib.cu" --measure --apply "$work/h.json" --harness "$inputs/../../harness/saxpy-spec.json" --runs 1

# Nsight Compute metrics for both sides.
expect profile 0 "$tool" "$src" --measure --apply "$work/cfg.json" --profile --runs 1
if [ -z "${CRO_GPU_TEST_ONLY:-}" ] || [[ " $CRO_GPU_TEST_ONLY " == *" profile "* ]]; then
  if python3 -c "import json,sys; d=json.load(open('$results/profile.json')); m=d['metrics']; sys.exit(0 if all('dram__throughput.avg.pct_of_peak_sustained_elapsed' in m[s]['scale'] for s in ('original','variant')) else 1)" 2>"$results/profile.check"; then
    summary+=("PASS  profile-metrics: DRAM and SM throughput for original and variant")
  else
    summary+=("FAIL  profile-metrics: $(python3 -c "import json; print(json.load(open('$results/profile.json')).get('metrics'))" 2>&1 | head -c 300)")
    fail=1
  fi
fi

# Stability: the same variant twice, on a kernel of >= 50 us.
va=$examples/vector_add.cu
expect stable-1 0 "$tool" "$va" --measure
expect stable-2 0 "$tool" "$va" --measure
# (Also when CRO_GPU_TEST_ONLY names both stable runs: a quick check of a
# change to the timing path.)
stability_wanted() {
  [ -z "${CRO_GPU_TEST_ONLY:-}" ] ||
    { [[ " $CRO_GPU_TEST_ONLY " == *" stable-1 "* ]] && [[ " $CRO_GPU_TEST_ONLY " == *" stable-2 "* ]]; }
}
! stability_wanted || python3 - "$results" <<'PY' || fail=1
import json, sys
r = sys.argv[1]
m, runs = [], []
for n in ("stable-1", "stable-2"):
    d = json.load(open(f"{r}/{n}.json"))
    for side in ("original", "variant"):
        k = d[side]["kernels"]["vector_add"]
        m.append(k["median_ms"])
        runs.append(k["run_medians_ms"])
spread = (max(m) - min(m)) / min(m)
print(f"stability: vector_add medians (ms) {['%.4f' % x for x in m]}, spread {100 * spread:.2f}%; per-run medians {runs}")
open(f"{r}/stability.txt", "w").write(json.dumps({"medians_ms": m, "run_medians_ms": runs, "spread": spread}) + "\n")
sys.exit(0 if min(m) >= 0.05 and spread <= 0.01 else 1)
PY

# Replay leaves the output unchanged: the checksum with and without the tool.
if [ -z "${CRO_GPU_TEST_ONLY:-}" ]; then
nvcc -O3 -arch=sm_90 "$src" -o "$work/scale"
plain=$("$work/scale")
lib=$(dirname "$tool")/../lib/libcro-inject.so
injected=$(CUDA_INJECTION64_PATH=$lib CRO_OUT=$work/inj.jsonl CRO_KERNELS=scale CRO_REPLAYS=20 CRO_MAX_LAUNCHES=2 \
  LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} "$work/scale")
replays=$(grep -c '"event":"replay"' "$work/inj.jsonl")
if [ "$plain" = "$injected" ] && [ "$replays" = 2 ]; then
  summary+=("PASS  replay-transparent: '$plain' with and without 2x20 replays")
else
  summary+=("FAIL  replay-transparent: '$plain' vs '$injected' ($replays replay records)")
  fail=1
fi
fi
printf '%s\n' "${summary[@]}" | tee "$results/summary.txt"
exit $fail
