#!/usr/bin/env bash
# The one-node Slurm cluster scripts/slurm-local.sh starts (CTest label
# slurm): the ground the Slurm executor's tests stand on. A step runs
# through srun and its exit status comes back; a batch job's output lands in
# the shared directory and the job completes; a running job is cancelled by
# scancel; stop leaves no daemon behind. Exits 77 (skipped) without Slurm.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=$(mktemp -d)
fail() { echo "FAIL: $*"; tail -n 20 "$dir"/log/*.log 2>/dev/null; exit 1; }
# Waits up to 30 s for job $1 to reach state $2; the state it is in, in
# $state.
wait_for() {
  for _ in $(seq 60); do
    state=$(scontrol show job "$1" | grep -o 'JobState=[A-Z]*' | cut -d= -f2)
    [ "$state" = "$2" ] && return 0
    sleep 0.5
  done
  return 1
}
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
[ -n "${SLURM_CONF:-}" ] || fail "start printed no SLURM_CONF"

# A step: its output and its exit status.
out=$(timeout 60 srun -N1 -n1 --quiet bash -c 'echo step-ran; exit 3')
rc=$?
[ "$out" = "step-ran" ] || fail "srun output '$out'"
[ $rc -eq 3 ] || fail "srun exit status $rc, not the step's 3"

# A batch job writing into the shared directory.
job=$(sbatch --parsable -o "$dir/job-%j.out" --wrap "echo batch-ran > $dir/result") ||
  fail "sbatch"
wait_for "$job" COMPLETED || fail "batch job $job is $state"
[ "$(cat "$dir/result")" = batch-ran ] || fail "the job's output is not in the shared directory"

# A running job, cancelled.
long=$(sbatch --parsable -o /dev/null --wrap "sleep 300") || fail "sbatch (long)"
wait_for "$long" RUNNING || fail "the long job is $state, not running"
scancel "$long"
wait_for "$long" CANCELLED || fail "scancel left the job $state"

pids="$(cat "$dir"/run/*.pid "$dir"/munge/munged.pid)"
bash "$root/scripts/slurm-local.sh" stop "$dir"
for p in $pids; do
  kill -0 "$p" 2>/dev/null && fail "daemon $p still runs after stop"
done
echo "PASSED local Slurm cluster: srun, sbatch, scancel, stop"
