#!/usr/bin/env bash
# The binary must parse CUDA with its embedded Clang headers alone, as on the
# GPU machine, which has no LLVM. Here Clang 22 is installed, so hide its
# header directories in a private mount namespace and analyze the examples.
#   hidden-clang-headers.sh <cuda-rewrite-opt> <examples-dir>
# Exits 77 (skipped) where mount namespaces are not available (not root).
set -euo pipefail
tool=$1 examples=$2
if ! unshare --mount true 2>/dev/null; then
  echo "SKIPPED: cannot create a mount namespace here (needs root)"
  exit 77
fi
empty=$(mktemp -d)
trap 'rmdir "$empty"' EXIT
unshare --mount bash -euo pipefail -c '
  for d in /usr/include/clang /usr/lib/llvm-22/lib/clang; do
    [ -d "$d" ] && mount --bind "$1" "$d"
  done
  if ls /usr/include/clang/*/include/stddef.h 2>/dev/null; then
    echo "FAIL: could not hide the installed Clang headers"; exit 1
  fi
  for f in "$3"/*.cu; do
    "$2" "$f" --analyze > /dev/null
    echo "ok: $f analyzed with the embedded headers only"
  done' _ "$empty" "$tool" "$examples"
