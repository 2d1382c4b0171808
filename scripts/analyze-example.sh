#!/usr/bin/env bash
# The main job of this version on an example (README): installs what is
# missing, builds, and analyzes examples/matmul.cu -- a summary of its kernels,
# launches and accesses, and what could not be measured without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/bin/cuda-rewrite-opt examples/matmul.cu
