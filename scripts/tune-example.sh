#!/usr/bin/env bash
# The main job on an example (README's first command): installs what is
# missing, builds, and runs the main command on examples/matmul.cu, writing
# build/example/matmul.opt.cu and an HTML report. On a machine with an
# NVIDIA GPU it tunes (budget 40 evaluations, a few minutes); without one it
# says what it found, that nothing could be measured, and writes the
# database's tuned result for this GPU if there is one, else the original.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
mkdir -p build/example
build/bin/cuda-rewrite-opt examples/matmul.cu -o build/example/matmul.opt.cu \
  --budget 40 --report build/example/matmul-report.html --diff
echo "wrote build/example/matmul.opt.cu (the diff above is what changed)"
