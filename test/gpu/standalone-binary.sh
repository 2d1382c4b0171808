#!/usr/bin/env bash
# GPU test: the binary, copied alone into an empty directory on a machine that
# has a GPU and the CUDA toolkit but no LLVM, parses a CUDA file and picks the
# local GPU's architecture by default.
#   standalone-binary.sh <cuda-rewrite-opt> <examples-dir>
# Exits 77 (skipped) without a GPU.
set -euo pipefail
tool=$1 examples=$2
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no NVIDIA GPU on this machine (gpu-labelled test)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$tool" "$work/cuda-rewrite-opt"
cp "$examples/vector_add.cu" "$work/"
cd "$work"
if ldd ./cuda-rewrite-opt | grep -Ei 'libclang|libLLVM'; then
  echo "FAIL: binary depends on shared LLVM/Clang libraries"; exit 1
fi
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
env -i PATH=/usr/bin:/bin:/usr/local/cuda/bin ./cuda-rewrite-opt vector_add.cu --analyze > model.json
grep -q "\"gpu_arch\": \"sm_$cap\"" model.json || { echo "FAIL: default arch is not sm_$cap"; grep gpu_arch model.json; exit 1; }
grep -q '"name": "vector_add"' model.json || { echo "FAIL: kernel not found"; exit 1; }
./cuda-rewrite-opt vector_add.cu | tee summary.txt
grep -q "^GPU: " summary.txt
echo "PASS: standalone binary analyzed vector_add.cu for sm_$cap"
