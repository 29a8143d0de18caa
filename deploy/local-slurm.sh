#!/usr/bin/env bash
# A one-node Slurm cluster in a scratch directory, for trying deploy/slurm-array.sh on one
# machine and for the tests (tests/slurm.rs). Debian's packages: slurm-wlm and munge.
#
#   deploy/local-slurm.sh start DIR     # writes DIR/slurm.conf, starts munged, slurmctld and
#                                       # slurmd, waits until the node is idle
#   export SLURM_CONF=DIR/slurm.conf    # then sbatch, squeue, scancel, scontrol, sinfo work
#   deploy/local-slurm.sh stop DIR      # stops exactly the daemons it started (pid files)
#
# Everything lives in DIR: configuration, munge key and socket, state, spool, logs and pid files.
# The daemons run as the user who starts them (root in CI: slurmd must be root to run jobs as
# other users; as root, munged needs --force). Ports: SLURM_LOCAL_PORT (default 16817) for
# slurmctld and the next one for slurmd, away from a real cluster's 6817/6818.
set -euo pipefail
what=${1:-}
dir=${2:-}
if [[ -z "$what" || -z "$dir" ]]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

stop() {
  # The cluster's jobs first: cancelled while the daemons still run, so that their step
  # daemons (slurmstepd, which have no pid file) end them; then any step daemon slurmd
  # started that is still there, with what it runs.
  export SLURM_CONF="$dir/slurm.conf" PATH="$PATH:/usr/sbin"
  if [[ -s "$dir/slurmctld.pid" ]] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null; then
    squeue -h -o %A 2>/dev/null | xargs -r scancel 2>/dev/null || true
    for _ in $(seq 100); do
      [[ -z "$(squeue -h 2>/dev/null)" ]] && break
      sleep 0.1
    done
  fi
  # A step daemon detaches from slurmd; it is this cluster's if it carries its SLURM_CONF
  # (exported to the daemons by `start`).
  for step in $(pgrep -f '^slurmstepd' 2>/dev/null); do
    if tr '\0' '\n' < "/proc/$step/environ" 2>/dev/null | grep -qx "SLURM_CONF=$dir/slurm.conf"; then
      pkill -KILL -P "$step" 2>/dev/null || true
      kill -KILL "$step" 2>/dev/null || true
    fi
  done
  # slurmd first (it reports to slurmctld), munged last (both authenticate through it).
  for name in slurmd slurmctld munged; do
    pidfile="$dir/$name.pid"
    [[ -s "$pidfile" ]] || continue
    pid=$(cat "$pidfile")
    # Only a process that is still this daemon: a pid file outlives its process.
    if [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q "$name"; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
  done
}

case "$what" in
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

for tool in munged mungekey slurmctld slurmd sinfo; do
  if ! command -v "$tool" >/dev/null 2>&1 && [[ ! -x /usr/sbin/$tool ]]; then
    echo "$0: $tool is missing (Debian: apt-get install slurm-wlm munge)" >&2
    exit 3
  fi
done
export PATH="$PATH:/usr/sbin"
port=${SLURM_LOCAL_PORT:-16817}
host=$(hostname -s)
cpus=$(nproc)
memory=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)
user=$(id -un)
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"
cat > "$dir/slurm.conf" <<EOF
ClusterName=quandary-local
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
KillWait=5
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"

# munge: a key of this cluster's own, a socket in DIR.
[[ -s "$dir/munge/munge.key" ]] || mungekey --create --keyfile="$dir/munge/munge.key" 2>/dev/null \
  || dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$dir/munge/munge.key"
force=()
[[ $(id -u) -eq 0 ]] && force=(--force)
munged "${force[@]}" --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munge/munged.log" \
  --seed-file="$dir/munge/munged.seed"

# A failure past this point stops what was started.
trap 'echo "$0: the cluster did not come up; logs in $dir" >&2; stop; exit 1' ERR
slurmctld -f "$dir/slurm.conf"
slurmd -f "$dir/slurm.conf" -N "$host"
for _ in $(seq 300); do
  state=$(sinfo -h -N -o "%T" 2>/dev/null | head -1 || true)
  [[ "$state" == idle ]] && break
  sleep 0.1
done
if [[ "$state" != idle ]]; then
  echo "$0: node state '$state' after 30 s, not idle; logs in $dir" >&2
  stop
  exit 1
fi
trap - ERR
echo "export SLURM_CONF=$dir/slurm.conf"
