#!/usr/bin/env bash
# GPU test of the measurement library's capture checksums (docs/measure.md):
#   - every capture record carries the XXH64 of the bytes it wrote (checked
#     against an independent implementation, in Python, on the files);
#   - a run given the first run's captures as its reference
#     (CRO_CAPTURE_REFERENCE) writes none of the identical ones and reports
#     the same checksums;
#   - a capture whose reference checksum differs is written;
#   - the program's own output is the same in all three runs.
#   capture-checksums.sh <cuda-rewrite-opt> <test/gpu/Inputs>
# Exits 77 (skipped) without a GPU.
set -uo pipefail
tool=$(readlink -f "$1") inputs=$(readlink -f "$2")
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no NVIDIA GPU on this machine (gpu-labelled test)"
  exit 77
fi
export PATH=/usr/local/cuda/bin:$PATH
lib=$(dirname "$tool")/../lib/libcro-inject.so
[ -f "$lib" ] || { echo "FAIL: no measurement library at $lib"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

nvcc -O3 -arch=sm_90 "$inputs/scale.cu" -o "$work/scale" || fail "nvcc"

# run NAME [REFERENCE]: scale.cu on 4096 elements (two launches, two
# allocations each) under the library, captures into $work/NAME.
run() {
  mkdir -p "$work/$1"
  CUDA_INJECTION64_PATH=$lib CRO_OUT="$work/$1.jsonl" CRO_KERNELS=scale \
    CRO_MAX_LAUNCHES=0 CRO_CAPTURE_DIR="$work/$1" \
    CRO_CAPTURE_REFERENCE="${2:-}" "$work/scale" 4096 > "$work/$1.out" 2>&1 ||
    fail "run $1: $(tail -1 "$work/$1.out")"
}

run first
python3 - "$work" <<'EOF' || exit 1
import json, os, sys
work = sys.argv[1]
M = (1 << 64) - 1
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F,
                      0x165667B19E3779F9, 0x85EBCA77C2B2AE63,
                      0x27D4EB2F165667C5)
rotl = lambda x, r: ((x << r) | (x >> (64 - r))) & M
def rnd(acc, v):
    return (rotl((acc + v * P2) & M, 31) * P1) & M
def xxh64(b):
    n, i = len(b), 0
    u64 = lambda j: int.from_bytes(b[j:j + 8], "little")
    if n >= 32:
        v = [(P1 + P2) & M, P2, 0, (-P1) & M]
        while i + 32 <= n:
            v = [rnd(v[k], u64(i + 8 * k)) for k in range(4)]
            i += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
        for x in v:
            h = ((h ^ rnd(0, x)) * P1 + P4) & M
    else:
        h = P5
    h = (h + n) & M
    while i + 8 <= n:
        h = (rotl(h ^ rnd(0, u64(i)), 27) * P1 + P4) & M
        i += 8
    if i + 4 <= n:
        h = (rotl(h ^ (int.from_bytes(b[i:i + 4], "little") * P1 & M), 23) * P2 + P3) & M
        i += 4
    while i < n:
        h = (rotl(h ^ (b[i] * P5 & M), 11) * P1) & M
        i += 1
    h ^= h >> 33; h = h * P2 & M; h ^= h >> 29; h = h * P3 & M; h ^= h >> 32
    return "%016x" % h
assert xxh64(b"") == "ef46db3751d8e999", "the Python XXH64 itself is wrong"
caps = [json.loads(l) for l in open(os.path.join(work, "first.jsonl"))
        if '"capture"' in l]
if len(caps) != 4:
    sys.exit("FAIL: %d captures in the first run, expected 4" % len(caps))
with open(os.path.join(work, "reference.txt"), "w") as ref, \
     open(os.path.join(work, "changed.txt"), "w") as changed:
    for c in caps:
        data = open(c["file"], "rb").read()
        if len(data) != c["bytes"] or xxh64(data) != c["checksum"]:
            sys.exit("FAIL: %s: checksum %s, the file's XXH64 is %s" % (
                c["file"], c.get("checksum"), xxh64(data)))
        line = "%d %d %d %s %s\n" % (c["launch"], c["allocation"], c["bytes"],
                                     c["checksum"], c["kernel"])
        ref.write(line)
        if c["launch"] == 1 and c["allocation"] == 0:
            line = line.replace(c["checksum"], "0" * 16)
        changed.write(line)
print("PASS: 4 captures, each checksum is the XXH64 of its file")
EOF

run same "$work/reference.txt"
run changed "$work/changed.txt"
python3 - "$work" <<'EOF' || exit 1
import json, os, sys
work = sys.argv[1]
def caps(name):
    return {(c["launch"], c["allocation"]): c
            for c in (json.loads(l) for l in open(os.path.join(work, name + ".jsonl"))
                      if '"capture"' in l)}
first, same, changed = caps("first"), caps("same"), caps("changed")
for name, run in (("same", same), ("changed", changed)):
    if {k: c["checksum"] for k, c in run.items()} != \
       {k: c["checksum"] for k, c in first.items()}:
        sys.exit("FAIL: the %s run reports other checksums" % name)
written = lambda run: sorted(k for k, c in run.items() if c["file"])
if written(same) or os.listdir(os.path.join(work, "same")):
    sys.exit("FAIL: the run with its reference wrote %s" % written(same))
if written(changed) != [(1, 0)] or len(os.listdir(os.path.join(work, "changed"))) != 1:
    sys.exit("FAIL: with one reference checksum changed, written: %s" % written(changed))
print("PASS: identical captures not written; the one whose reference differs written")
EOF
for r in same changed; do
  cmp -s <(grep checksum= "$work/first.out") <(grep checksum= "$work/$r.out") ||
    fail "the program's output changed in the $r run"
done
echo "PASS: the program's own output is the same in all three runs"
