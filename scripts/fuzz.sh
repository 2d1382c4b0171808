#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) in build-fuzz/ with Clang 22,
# AddressSanitizer and coverage instrumentation, and runs each one for a
# fixed number of inputs from its seed corpus (fuzz/corpus/<name>). A crash,
# a hang, a sanitizer report or a broken invariant fails the run; the input
# that did it is left in build-fuzz/fuzz/findings/ (reproduce it with
# `build-fuzz/fuzz/<name>-fuzzer <file>`).
#   RUNS=N           inputs per JSON-reader target (default 200000)
#   ANALYSIS_RUNS=N  generated CUDA programs for the analysis target (default 100)
set -euo pipefail
cd "$(dirname "$0")/.."
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  cmake -S . -B build-fuzz "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCRO_FUZZERS=ON
fi
cmake --build build-fuzz --target fuzzers --parallel "$(nproc)"

# Reports name functions and lines (the build keeps line tables).
[ -x /usr/lib/llvm-22/bin/llvm-symbolizer ] &&
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer

findings=build-fuzz/fuzz/findings
mkdir -p "$findings"
status=0
run() { # name runs [libFuzzer options]
  local name=$1 runs=$2
  shift 2
  local scratch
  scratch=$(mktemp -d) # new inputs go here, never into the seed corpus
  echo "== fuzz: $name ($runs inputs)"
  if ! "build-fuzz/fuzz/$name-fuzzer" "$scratch" "fuzz/corpus/$name" \
      -runs="$runs" -max_total_time=600 -timeout=60 -rss_limit_mb=4096 \
      -artifact_prefix="$findings/$name-" -print_final_stats=1 "$@" \
      > "$findings/$name.log" 2>&1; then
    echo "FAIL: $name-fuzzer (build-fuzz/fuzz/findings/$name.log):"
    grep -m 20 -E "ERROR|SUMMARY|Test unit written|deadly signal|==[0-9]+==" \
      "$findings/$name.log" || tail -20 "$findings/$name.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$findings/$name.log" | tr '\n' ' '
    echo
  fi
  rm -rf "$scratch"
}
for name in config space recorded-space policy; do
  run "$name" "${RUNS:-200000}" -max_len=4096
done
# The analysis parses a CUDA program per input (about half a second): few
# inputs. Its caches (embedded headers, the toolkit) live for the process: no
# leak check. Clang and LLVM are linked from Debian's archives, which are not
# instrumented: LLVM's headers poison allocator memory in our instrumented
# code that its compiled copies then use without unpoisoning, and ASan
# reports an allocation inside Clang (APValue) freed by another allocator
# function -- neither is this project's code, so both checks are off here.
export ASAN_OPTIONS=allow_user_poisoning=0:alloc_dealloc_mismatch=0:${ASAN_OPTIONS:-}
run analysis "${ANALYSIS_RUNS:-100}" -detect_leaks=0 -max_len=256
exit $status
