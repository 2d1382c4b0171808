#!/usr/bin/env bash
# The test command (README, CI): installs what is missing, builds, and runs
# every test -- lit tests on the tool's output, GoogleTest unit tests, and the
# GPU tests, which report themselves skipped where no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
