#!/usr/bin/env bash
# Builds bench/ceilings.cu and runs it on this machine's GPU; its JSON goes to
# the file named by $1, or to stdout when no file is given.
# Usage: bash bench/ceilings.sh [out.json]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$nvcc" -O3 -arch=sm_90 "$here/ceilings.cu" -lcublas -o "$tmp/ceilings"
"$tmp/ceilings" > "$tmp/out.json"   # a failed run leaves no partial file
cat "$tmp/out.json" > "${1:-/dev/stdout}"
