#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, on loopback, for tests of
# the tool's Slurm executor (issue 21) and for trying sbatch/srun lines by
# hand: munged with its own key and socket, slurmctld and slurmd (Debian's
# slurm-wlm and munge, installed by scripts/install-deps.sh), every file of
# theirs under DIR, ports chosen free, no systemd. Run as root (slurmd
# launches jobs as their users).
#
#   scripts/slurm-local.sh start DIR   # prints: export SLURM_CONF=DIR/slurm.conf
#   scripts/slurm-local.sh stop DIR    # cancels its jobs, stops the daemons
#
# start waits until the node is idle (30 s at most) and exits non-zero,
# with the daemons' logs, when it is not; 77 when Slurm is not installed.
set -uo pipefail
cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi

pid_of() { [ -f "$1" ] && cat "$1"; }

stop() {
  if [ -f "$dir/slurm.conf" ]; then
    SLURM_CONF="$dir/slurm.conf" scancel --quiet --full --user "$(id -un)" 2>/dev/null
  fi
  for f in "$dir/run/slurmd.pid" "$dir/run/slurmctld.pid" "$dir/munge/munged.pid"; do
    p=$(pid_of "$f") || continue
    kill "$p" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  return 0
}

case "$cmd" in
stop)
  stop
  exit 0
  ;;
start) ;;
*)
  echo "usage: $0 start|stop DIR" >&2
  exit 2
  ;;
esac

for b in munged slurmctld slurmd srun sbatch; do
  command -v "$b" > /dev/null || {
    echo "slurm-local: $b is not installed (scripts/install-deps.sh installs slurm-wlm and munge)" >&2
    exit 77
  }
done

mkdir -p "$dir"/{state,spool,log,run,munge}
dir=$(cd "$dir" && pwd)
chmod 700 "$dir/munge"
# munge's key is the cluster's shared secret: this cluster's own.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
  --seed-file="$dir/munge/seed" --force ||
  { echo "slurm-local: munged did not start" >&2; exit 1; }

# Two free TCP ports on loopback (another cluster, a CI run beside a
# developer's, may hold the usual 6817/6818).
read -r ctld_port d_port < <(python3 - <<'PY'
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])
PY
)
host=$(hostname -s)
cpus=$(nproc)
mem_mb=$(awk '/MemTotal/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
cat > "$dir/slurm.conf" <<EOF
# Written by scripts/slurm-local.sh: a one-node cluster on loopback.
ClusterName=cro-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$(id -un)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" || { echo "slurm-local: slurmctld did not start" >&2; stop; exit 1; }
slurmd -f "$SLURM_CONF" || { echo "slurm-local: slurmd did not start" >&2; stop; exit 1; }
for _ in $(seq 60); do
  state=$(sinfo -h -N -o %t 2>/dev/null | head -1)
  if [ "$state" = "idle" ]; then
    echo "export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 0.5
done
echo "slurm-local: the node did not become idle (state '${state:-none}'); logs:" >&2
tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2
stop
exit 1
