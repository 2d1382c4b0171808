#!/usr/bin/env bash
# The test command (README, CI): installs what is missing, builds, and runs
# every test -- lit tests on the tool's output, GoogleTest unit tests, the
# GPU tests, which report themselves skipped where no GPU is present, and the
# fuzz targets (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
# The fuzz targets: a separate Clang + ASan build, a fixed number of inputs.
scripts/fuzz.sh
