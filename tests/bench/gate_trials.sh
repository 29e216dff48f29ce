#!/usr/bin/env bash
# The gate's trials (BENCHMARKS.md): `make bench-check` of an unchanged tree and of trees whose
# nsgs spins 10 % / 30 % longer than it solves, each run with two CPU hogs (sha256sum
# /dev/zero) on the machine's cores, started before and killed after the check.
#
#   tests/bench/gate_trials.sh TRIALS SLOWDOWN...      e.g. gate_trials.sh 10 0 0.10 0.30
#   (trials interleaved: trial 1 of each slowdown, then trial 2 of each, ...)
#
# Each slowdown gets a worktree of HEAD under build-trials/ with the busy loop patched into
# src/solvers/nsgs.c (none for 0): after its setup and after its iterations, nsgs does dummy
# arithmetic until its thread CPU time reaches (1 + SLOWDOWN) × the time that phase took,
# reading the clock every 500 multiply-adds (a few µs: no syscall storm); psor shares the
# loop and is left alone. The whole solve call (setup, iterations, judge) is measured, so the
# slowdown seen is SLOWDOWN minus the judge's share (a fraction of a percent). Every check runs
# against results/baseline/REVISION (the baseline binary, built once per worktree). Prints
# one line per check (exit status, nsgs ratio and interval, every flagged solver) and a
# summary; full outputs in build-trials/logs/.
set -u
trials=${1:?usage: gate_trials.sh TRIALS SLOWDOWN...}
shift
repo=$(git rev-parse --show-toplevel)
cd "$repo"
export CONEBENCH_DATA=${CONEBENCH_DATA:-$(cd ../shared/data 2>/dev/null && pwd)}
hogs=${HOGS:-$(nproc)}
mkdir -p build-trials/logs

# Worktree of HEAD for one slowdown, built.
prepare() {
  local slow=$1 dir=build-trials/slow-$1
  [ -x "$dir/bin/conebench" ] && return 0
  git worktree prune
  git worktree add --detach --force "$dir" HEAD >/dev/null || return 1
  if [ "$slow" != 0 ]; then
    spin="{ double until = cb_cpu_now() + $slow * (cb_cpu_now() - slow_c0); volatile double spin = 1.0; while (cb_cpu_now() < until) for (int k = 0; k < 500; k++) spin = spin * 0.999999 + 1e-9; }"
    SPIN="$spin" perl -0pi -e '
      s/(gs_work \*w = work;\n    double t0 = cb_now\(\);\n)/$1    double slow_c0 = cb_cpu_now();\n/;
      s/(\n    info->status = status;\n    return CB_OK;\n\}\n\nconst cb_solver cb_solver_nsgs)/\n    if (!w->opt.psor) $ENV{SPIN}$1/;
      s/(static int nsgs_setup\(const cb_problem \*prob, const cb_settings \*s, void \*\*work, cb_error \*err\)\n\{\n)    return gs_setup\(prob, s, 0, work, err\);/$1    double slow_c0 = cb_cpu_now();\n    int slow_rc = gs_setup(prob, s, 0, work, err);\n    $ENV{SPIN}\n    return slow_rc;/' \
      "$dir/src/solvers/nsgs.c"
    [ "$(grep -c 'until = cb_cpu_now' "$dir/src/solvers/nsgs.c")" = 2 ] ||
      { echo "gate_trials: could not patch $dir/src/solvers/nsgs.c"; return 1; }
  fi
  make -C "$dir" -j2 bin/conebench >"build-trials/logs/build-$slow.log" 2>&1
}

for slow in "$@"; do prepare "$slow" || exit 1; done
# Interleaved: trial i of every slowdown before trial i+1 of any, so that every arm sees the
# same stretch of the machine's noise (and a stopped series has as many trials of each).
declare -A flagged
for i in $(seq 1 "$trials"); do
  for slow in "$@"; do
    pids=""
    for h in $(seq 1 "$hogs"); do sha256sum /dev/zero & pids="$pids $!"; done
    sleep 1
    log="build-trials/logs/slow-$slow-$i.log"
    t0=$(date +%s)
    (cd "build-trials/slow-$slow" && bin/conebench bench-check --baseline results/baseline \
       -o "../logs/out-$slow-$i" --quiet) >"$log" 2>&1
    rc=$?
    t1=$(date +%s)
    load=$(cut -d' ' -f1 /proc/loadavg)
    kill $pids 2>/dev/null; wait $pids 2>/dev/null
    nsgs=$(grep -E '^nsgs ' "$log" | awk '{print $3, $4, $5, $6}')
    regs=$(grep -E 'REGRESSION' "$log" | awk '{print $1}' | tr '\n' ' ')
    grep -qE '^nsgs .*REGRESSION' "$log" && flagged[$slow]=$((${flagged[$slow]:-0} + 1))
    printf 'slowdown %-5s trial %2d: exit %d, %4d s, load %s, nsgs %s; flagged: %s\n' "$slow" \
      "$i" "$rc" $((t1 - t0)) "$load" "$nsgs" "${regs:-none}"
  done
done
for slow in "$@"; do
  echo "slowdown $slow: nsgs flagged in ${flagged[$slow]:-0} of $trials checks"
done
