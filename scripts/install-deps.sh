#!/usr/bin/env bash
# Installs everything cuda-rewrite-opt needs to build and test on a fresh
# Debian 12 machine. Idempotent: packages already present are not touched, and
# apt is only consulted when something is missing.
set -euo pipefail

packages=(
  clang-22 libclang-22-dev llvm-22-dev llvm-22-tools # LibTooling, FileCheck, lit
  libzstd-dev zlib1g-dev                              # static LLVM link needs them
  libgtest-dev libgmock-dev                           # unit tests
  libsqlite3-dev                                      # tuning database
  libclang-rt-22-dev                                  # libFuzzer, ASan: fuzz targets
  chromium                                            # tests the HTML report
  slurm-wlm munge                                     # a local Slurm cluster in tests
  cmake ninja-build
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
    missing+=("$p")
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi

# The CUDA toolkit is not installed by this script: it is expected at
# /usr/local/cuda (or CUDA_HOME / CUDA_PATH). Say so plainly when it is absent.
cuda="${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}"
if [ ! -x "$cuda/bin/nvcc" ] && ! command -v nvcc >/dev/null; then
  echo "install-deps: warning: no CUDA toolkit found at $cuda and no nvcc on PATH;" \
    "install CUDA 13 (the tool parses CUDA headers and compiles variants with nvcc)" >&2
fi

# lit is shipped by llvm-22-tools as a Python module; make sure it runs.
/usr/lib/llvm-22/build/utils/lit/lit.py --version >/dev/null 2>&1 ||
  [ -x /usr/lib/llvm-22/bin/lit ] ||
  { echo "install-deps: lit not found in llvm-22-tools" >&2; exit 1; }
