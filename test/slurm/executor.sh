#!/usr/bin/env bash
# The Slurm executor against a real one-node cluster (scripts/slurm-local.sh,
# CTest label slurm): a search whose evaluations are Slurm jobs gives the
# same result as the same search in-process; a cluster that refuses the
# jobs fails the command at once with Slurm's reason (exit 14); a GPU
# command looks for its GPU on the cluster's node; and the executor's own
# tests (a job's environment and status, a job at its time limit and the
# jobs of an interrupted tool cancelled on the cluster) run against it.
# Exits 77 (skipped) without Slurm or root.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${1:-$root/build/bin}
tool=$bin/cuda-rewrite-opt
dir=$(mktemp -d)
fail() { echo "FAIL: $*"; tail -n 20 "$dir"/log/*.log 2>/dev/null; exit 1; }
trap 'bash "$root/scripts/slurm-local.sh" stop "$dir"; rm -rf "$dir"' EXIT

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIPPED: the local Slurm cluster runs its daemons as root"
  exit 77
fi
env_line=$(bash "$root/scripts/slurm-local.sh" start "$dir")
rc=$?
[ $rc -eq 77 ] && { echo "SKIPPED: Slurm is not installed (scripts/install-deps.sh)"; exit 77; }
[ $rc -eq 0 ] || fail "the cluster did not start"
eval "$env_line"
# The jobs' work files: a directory every node sees (here, the one node).
export TMPDIR=$dir/shared
mkdir -p "$TMPDIR"

# The same simulated search in-process and through Slurm, three jobs at once.
space=$root/bench/spaces/conv2d-unroll.json
"$tool" --simulate="$space" --budget 24 --strategy agent > "$dir/local.json" ||
  fail "the in-process simulation"
start=$(date +%s)
"$tool" --simulate="$space" --budget 24 --strategy agent --executor slurm \
  --slurm-jobs 3 > "$dir/slurm.json" 2> "$dir/slurm.err" ||
  fail "the simulation through Slurm: $(cat "$dir/slurm.err")"
echo "24 evaluations through Slurm in $(( $(date +%s) - start )) s"
python3 - "$dir/local.json" "$dir/slurm.json" <<'PY' || fail "the results differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert b["executor"].startswith("Slurm (3 runs at once"), b["executor"]
assert a["executor"] == "this process", a["executor"]
for k in ("evaluations", "best_time", "best_config", "trace", "moves"):
    assert a[k] == b[k], (k, a[k], b[k])
print("same search: %d evaluations, best %s" % (b["evaluations"], b["best_config"]))
PY
# Slurm ran them: one job per evaluation but the original, and the check.
name=$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["executor"]; print(e.split("jobs named ")[1].rstrip(")"))' "$dir/slurm.json")
jobs=$(scontrol show jobs 2>/dev/null | grep -c "JobName=$name\b")
[ "$jobs" -ge 24 ] || fail "Slurm knows $jobs jobs named $name, expected at least 24"
[ -z "$(ls -A "$TMPDIR")" ] || fail "work files left in the shared directory: $(ls "$TMPDIR")"

# A partition Slurm refuses: exit 14 at once, with Slurm's words.
"$tool" --simulate="$space" --budget 5 --executor slurm --slurm-partition=nowhere \
  > /dev/null 2> "$dir/refused.err"
rc=$?
[ $rc -eq 14 ] || fail "a refused partition exits $rc, not 14"
grep -q "Invalid partition name specified" "$dir/refused.err" ||
  fail "the message does not say what Slurm said: $(cat "$dir/refused.err")"

# A GPU command looks for the GPU where its jobs run (this CI node has
# none): exit 11, naming the job's nvidia-smi.
"$tool" "$root/examples/vector_add.cu" --search --executor slurm --db none \
  > /dev/null 2> "$dir/nogpu.err"
rc=$?
[ $rc -eq 11 ] || fail "--search through Slurm without a GPU exits $rc: $(cat "$dir/nogpu.err")"
grep -q "nvidia-smi run through Slurm" "$dir/nogpu.err" ||
  fail "the message does not say where the GPU was looked for: $(cat "$dir/nogpu.err")"

CRO_SLURM_LIVE=1 "$bin/cro-unittests" --gtest_filter='SlurmLive.*' --gtest_brief=1 ||
  fail "the executor's tests against the cluster"
[ -z "$(squeue -h)" ] || fail "jobs left on the cluster: $(squeue -h)"
echo "PASSED Slurm executor: a search through Slurm, refusal, GPU lookup, time limit, interrupt"
