#!/usr/bin/env bash
# make slurm-check: conebench on a real Slurm cluster of one node (this machine). As root:
# installs Debian's slurm-wlm and munge when missing (apt-get), starts munged, slurmctld and
# slurmd on localhost (2 CPUs; config, keys, state, spool, logs and pid files in a temporary
# directory; ports 47817/47818 or the next free pair), submits CAMPAIGN as a 4-task job array with
# scripts/slurm/submit.sh (the dependent job merges and reports), requeues one running task with
# `scontrol requeue` (it resumes: no finished run lost, none twice), waits, and compares the
# merged runs.csv with an unsharded run of the same campaign (same run ids, statuses,
# iterations). Every daemon it started is stopped by pid when it exits, success or failure.
# Skipped (exit 0, with a message) when not root or when the packages cannot be installed.
# Usage: slurm_check.sh BIN [CAMPAIGN]   (default: the ci campaign, about 80 s on 2 cores)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-bin/conebench}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
campaign=${2:-$here/campaigns/ci.conf}
shards=4
t0=$(date +%s)

say() { echo "slurm-check: $*"; }
skip() { say "skipped: $*"; exit 0; }
die() { say "FAILED: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "needs root (it installs slurm-wlm and munge and starts their daemons)"
need="slurmctld slurmd munged sbatch scontrol squeue sacct"
missing() { for c in $need; do command -v "$c" >/dev/null || return 0; done; return 1; }
if missing; then
  command -v apt-get >/dev/null || skip "slurm-wlm/munge absent and no apt-get"
  say "installing slurm-wlm and munge (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1; } ||
    skip "apt-get cannot install slurm-wlm and munge"
  missing && skip "slurm-wlm/munge installed but some of $need is missing"
fi

tmp=$(mktemp -d /tmp/cbslurm.XXXXXX)
pids=()
# Stop every daemon started here (by pid: TERM, then KILL after 10 s), then remove tmp.
cleanup() {
  local rc=$? p k
  for p in ${pids[@]+"${pids[@]}"}; do kill -TERM "$p" 2>/dev/null; done
  for p in ${pids[@]+"${pids[@]}"}; do
    for k in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null && say "killed daemon $p (did not stop on SIGTERM)"
    wait "$p" 2>/dev/null
  done
  [ "$rc" = 0 ] || { say "logs in $tmp/log kept as $tmp.log"; cp -r "$tmp/log" "$tmp.log" 2>/dev/null; }
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$tmp"/{munge,state,spool,log,run,work} && chmod 700 "$tmp/munge"

# A free pair of ports.
port=47817
while ss -ltnH 2>/dev/null | awk '{print $4}' | grep -qE ":($port|$((port + 1)))$"; do
  port=$((port + 2))
done
host=$(hostname -s)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=cbcheck
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobRequeue=1
KillWait=5
MinJobAge=3600
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged -F --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
  --pid-file="$tmp/run/munged.pid" --log-file="$tmp/log/munged.log" \
  --seed-file="$tmp/munge/munged.seed" 2>>"$tmp/log/munged.log" &
pids+=($!)
slurmctld -D -f "$SLURM_CONF" >>"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >>"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)

# wait_for SECONDS DESCRIPTION CMD...: poll CMD every second until it succeeds.
wait_for() {
  local n=$1 what=$2; shift 2
  for _ in $(seq "$n"); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  tail -n 5 "$tmp"/log/*.log 2>/dev/null
  die "$what (after $n s)"
}
node_idle() { sinfo -h -N -o %T | grep -qx 'idle'; }
wait_for 30 "slurmctld did not answer" scontrol ping
wait_for 60 "slurmd did not register (node not idle)" node_idle
say "cluster up: slurmctld :$port, slurmd :$((port + 1)), 2 CPUs ($(($(date +%s) - t0)) s)"

cd "$tmp/work" || die "cd $tmp/work"
export CONEBENCH=$bin
jobs=$("$here/scripts/slurm/submit.sh" --cpus-per-task=1 --time=00:20:00 "$campaign" "$shards" \
  res) || die "submit.sh failed"
read -r array merge <<<"$jobs"
say "submitted array job $array ($shards tasks) and merge job $merge (afterok)"

# The requeue: wait until task 0 has written some rows but not all, requeue it, count on the
# rows it had being kept and none run twice.
rows() { [ -f "$1/runs.csv" ] && tail -n +2 "$1/runs.csv" | wc -l || echo 0; }
task_state() { squeue -h -j "${array}_$1" -o %T 2>/dev/null; }
s0=res-shard-0-of-$shards
# Rows to keep, or task 0 over (failed, or too quick to be requeued).
has_rows() { [ "$(rows "$s0")" -ge 2 ] || [ -z "$(task_state 0)" ]; }
wait_for 300 "task 0 wrote no row" has_rows
[ -z "$(task_state 0)" ] && [ "$(rows "$s0")" = 0 ] &&
  die "task 0 ended without a row: $(cat slurm-"${array}"_0.out 2>/dev/null)"
before=$(rows "$s0")
cp "$s0/runs.csv" "$tmp/rows-before-requeue.csv"
if [ "$(task_state 0)" = RUNNING ]; then
  scontrol requeue "${array}_0" || die "scontrol requeue ${array}_0 failed"
  say "requeued task 0 with $before rows done"
  requeued=1
else
  say "task 0 finished before it could be requeued: the requeue was not tested (smaller tasks?)"
  requeued=0
fi

merge_done() {
  local st
  st=$(squeue -h -j "$merge" -o %T 2>/dev/null)
  [ -z "$st" ] && return 0
  squeue -h -j "$merge" -o %r | grep -q DependencyNeverSatisfied && die "merge job cannot run: a task failed ($(cat slurm-* 2>/dev/null | tail -n 5))"
  return 1
}
# Resume at once a requeued task held by its BeginTime.
release() { scontrol update jobid="${array}_0" BeginTime=now >/dev/null 2>&1 || true; }
for _ in $(seq 540); do
  merge_done && break
  [ "$requeued" = 1 ] && [ "$(task_state 0)" = PENDING ] && release
  sleep 1
done
merge_done || die "the merge job did not finish in 9 minutes: $(squeue -h 2>/dev/null)"
say "jobs done ($(($(date +%s) - t0)) s)"
out=$(ls slurm-*.out 2>/dev/null)
[ -s res/runs.csv ] || die "no merged res/runs.csv; job output: $(tail -n 20 $out)"
[ -s res/report.md ] || die "no res/report.md (report failed); job output: $(tail -n 20 $out)"
grep -q "^conebench: merged $shards shards" slurm-"$merge".out ||
  die "merge did not say it merged $shards shards: $(cat slurm-"$merge".out)"

# The requeued shard: every row it had before is still there (same bytes), no run twice.
fail=0
if [ "$requeued" = 1 ]; then
  if [ "$(head -c "$(stat -c %s "$tmp/rows-before-requeue.csv")" "$s0/runs.csv" | cmp - "$tmp/rows-before-requeue.csv" >/dev/null && echo same)" = same ]; then
    say "requeue: the $before rows done before it are kept as they were"
  else
    say "FAILED: requeue: rows done before the requeue were lost or changed"; fail=1
  fi
  dups=$(tail -n +2 "$s0/runs.csv" | cut -d, -f1 | sort | uniq -d | wc -l)
  [ "$dups" = 0 ] && say "requeue: no run twice in $s0 ($(rows "$s0") rows)" ||
    { say "FAILED: requeue: $dups runs twice in $s0"; fail=1; }
  # The task's output (appended across its runs): the SIGTERM, then a session that found at
  # least the rows kept already done.
  log0=slurm-${array}_0.out
  kept=$(sed -n 's/^conebench: .*: [0-9]* runs (\([0-9]*\) already done).*/\1/p' "$log0" | tail -n 1)
  if grep -q "^conebench: interrupted by SIGTERM" "$log0" && [ "${kept:-0}" -ge "$before" ]; then
    say "requeue: task 0 stopped on SIGTERM and resumed with $kept runs already done"
  else
    say "FAILED: requeue: task 0 did not stop and resume as expected: $(cat "$log0")"; fail=1
  fi
fi

# The unsharded run, outside Slurm; then the comparison.
say "unsharded run of the same campaign"
"$bin" run "$campaign" -o ref --jobs 2 --quiet 2>ref.err || die "unsharded run failed: $(cat ref.err)"
ids() { tail -n +2 "$1/runs.csv" | cut -d, -f1,11,12 | sort; }
if cmp -s <(ids ref) <(ids res); then
  say "merged runs.csv = unsharded: $(ids res | wc -l) runs, same ids, statuses, iterations"
else
  say "FAILED: merged and unsharded runs differ:"; diff <(ids ref) <(ids res) | head -n 10; fail=1
fi
say "$([ $fail = 0 ] && echo passed || echo FAILED) in $(($(date +%s) - t0)) s"
exit $fail
