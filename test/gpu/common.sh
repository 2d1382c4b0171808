# Sourced by the GPU test scripts: nvcc on PATH, the test skipped (exit 77,
# which CTest reports as skipped) on a machine without an NVIDIA GPU, and
# fail MESSAGE.
export PATH=/usr/local/cuda/bin:$PATH
if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "SKIPPED: no NVIDIA GPU on this machine (the main command measures on one)"
  exit 77
fi
fail() { echo "FAIL: $*"; exit 1; }
