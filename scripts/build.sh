#!/usr/bin/env bash
# Configures and builds cuda-rewrite-opt in ./build (Release, static binary at
# build/bin/cuda-rewrite-opt). Run scripts/install-deps.sh first on a fresh
# machine. Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
elif [ $# -gt 0 ]; then
  cmake -S . -B build "$@"
fi
cmake --build build --parallel "$(nproc)"
