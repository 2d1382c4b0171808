#!/usr/bin/env bash
# Runs on the GPU machine (device tool), with the static binary carried as
# build/bin/cuda-rewrite-opt: the gpu-labelled test, the example programs
# (built with nvcc, checked by their own CPU reference), and the --analyze
# speed on a generated 2,000-line file. Writes logs to $OUT (or ./device-out).
set -uo pipefail
out=${OUT:-device-out}
mkdir -p "$out"
tool=build/bin/cuda-rewrite-opt
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader
  nvcc --version | tail -2
  uname -a
  echo "ldd:"; ldd "$tool"
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

status=0
echo "== gpu test: standalone binary"
bash test/gpu/standalone-binary.sh "$tool" examples 2>&1 | tee "$out/gpu-standalone.txt" || status=1

echo "== examples built with nvcc and run"
for f in examples/*.cu; do
  name=$(basename "$f" .cu)
  nvcc -O3 -arch=sm_90 "$f" -o "/tmp/$name" && "/tmp/$name" 2>&1 | tee "$out/example-$name.txt" || status=1
done

echo "== --analyze speed on a 2,000-line file"
python3 bench/gen_large_cu.py --lines 2000 -o /tmp/large.cu
for i in 1 2 3 4 5 6; do
  /usr/bin/time -f "%e s wall, %M KB peak" "$tool" /tmp/large.cu --analyze > /tmp/large.json 2>> "$out/analyze-time.txt" || status=1
done
cat "$out/analyze-time.txt"
python3 -c "import json; d=json.load(open('/tmp/large.json')); print(len(d['kernels']), 'kernels', sum(len(k['launches']) for k in d['kernels']), 'launches')" | tee -a "$out/analyze-time.txt"
exit $status
