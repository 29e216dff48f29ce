#!/usr/bin/env bash
# conebench CLI: every limit holds in every entry point. `solve --time-limit` stops every
# solver, the Siconos adapters included (they cannot be interrupted: they run in a child process
# killed at the limit), reports status time_limit (text and --json), says so on stderr, exits 0
# (the run happened; the status says how it ended) and writes no solution or trace file when
# the solver had to be killed. `simulate --time-limit` holds per step and counts those steps.
# No duration is asserted: with tol 1e-300 and max-iter 2^31-1 no solve can end by itself on
# any machine, so the limit is the only way out. Usage: cli_limits.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
never=(--tol 1e-300 --max-iter 2147483647 --time-limit 1e-3)

# check NAME CONDITION: count a pass or print the failure with the last command's outputs.
check() {
  if eval "$2"; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL [$1]: $2; exit $rc, stderr: $(head -c 300 "$tmp/err"), stdout: $(head -c 200 "$tmp/out")"
  fi
}
run() { rc=0; $runner "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?; }

"$bin" generate random --kind coulomb3d --nc 200 --seed 3 -o "$tmp/big.dat" 2>/dev/null
sic_solvers=""
have_siconos "cli limits: siconos-nsgs, siconos-nsgs-light, siconos-admm" &&
  sic_solvers="siconos-nsgs siconos-nsgs-light siconos-admm"
# a budget of 1 s: reading the problem leaves most of it (also under ASan on a loaded machine,
# where 0.3 s was spent before the solver started), the Siconos solver starts and is killed at
# the budget
for s in $sic_solvers; do
  run "$bin" solve "$tmp/big.dat" --solver "$s" --tol 1e-300 --max-iter 2147483647 \
    --time-limit 1 --json --solution "$tmp/$s.sol" --trace "$tmp/$s.csv"
  check "$s exit" '[ "$rc" = 0 ]'
  check "$s json" 'grep -q "\"status\":\"time_limit\"" "$tmp/out"'
  check "$s message" '[ "$(cat "$tmp/err")" = "conebench: $tmp/big.dat: $s stopped at the time limit (1 s); no solution or trace written" ]'
  check "$s no partial files" '[ ! -e "$tmp/$s.sol" ] && [ ! -e "$tmp/$s.csv" ] && [ -z "$(ls "$tmp" | grep -v "^big.dat$\|^out$\|^err$")" ]'
done
if [ -n "$sic_solvers" ]; then
  run "$bin" solve "$tmp/big.dat" --solver siconos-nsgs "${never[@]}"
  check "text output" 'grep -q "siconos-nsgs  not-solved  status=time_limit  iterations=0 " "$tmp/out" && [ "$rc" = 0 ]'
fi
# conebench's own solvers stop themselves: same status and message, and their last iterate is
# a result (solution written).
run "$bin" solve "$tmp/big.dat" --solver nsgs "${never[@]}" --json --solution "$tmp/nsgs.sol"
check "nsgs" '[ "$rc" = 0 ] && grep -q "\"status\":\"time_limit\"" "$tmp/out" && [ -s "$tmp/nsgs.sol" ]'
check "nsgs message" '[ "$(cat "$tmp/err")" = "conebench: $tmp/big.dat: nsgs stopped at the time limit (0.001 s)" ]'
# simulate: the limit holds for each step's solve, Siconos' included (each step killed). A
# step whose solve reaches an error of exactly 0 within the millisecond is solved even at tol
# 1e-300 (nsgs on the first step, when the machine is quiet): every unsolved step must be one
# the limit stopped, and at least one is.
for s in ${sic_solvers%% *} nsgs; do
  run "$bin" simulate three-spheres --param t_end=2e-4 --solver "$s" "${never[@]}" --json
  tl=$(grep -o '"unsolved":[0-9]*,"time_limited":[0-9]*,' "$tmp/out" | sed 's/.*"unsolved":\([0-9]*\),"time_limited":\([0-9]*\),/\1 \2/')
  check "simulate $s" '[ "$rc" = 0 ] && grep -q "\"steps\":2," "$tmp/out" &&
    [ "${tl% *}" = "${tl#* }" ] && [ "${tl#* }" -ge 1 ]'
  check "simulate $s message" '[ "$(cat "$tmp/err")" = "conebench: ${tl#* } of 2 steps stopped at the time limit (0.001 s per solve)" ]'
done
# The budget is CPU seconds of the run, reading the problem included, and every native solver
# (and the Siconos ones, killed at the budget) ends within it: user + system CPU of the whole
# `solve` at most the budget + ¾ s (what cannot stop at the budget: a setup, a sweep, a killed
# child's last poll and grace, then the judge and the exit; ¾ s leaves room for a loaded
# machine). Reading a large text file costs CPU time too, more on a loaded machine (shared
# caches) and differently from run to run: when a run's reading (its total CPU less the solve's,
# the JSON's cpu_s) alone passes the budget, the bound is that reading + ¾ s (the solver then
# stops before its setup).
# Normal run: random rolling3d nc 20000 (multibody) and, for nsn and ipm, nc 2000, budget 2 s;
# CONEBENCH_QUICK: nc 2000, 1 s.
if [ ! -x /usr/bin/time ] || [ -n "$runner" ]; then
  echo "cli limits: CPU budget checks skipped (need /usr/bin/time and no test runner, got '$runner')"
else
  nc=20000 budget=2
  [ -n "${CONEBENCH_QUICK:-}" ] && nc=2000 budget=1
  "$bin" generate random --kind rolling3d --nc "$nc" --seed 1 -o "$tmp/r.dat" 2>/dev/null
  "$bin" generate random --kind coulomb3d --nc 3000 --seed 1 -o "$tmp/c.dat" 2>/dev/null
  # (not the game-engine adapters: they refuse problems above 3000 unknowns, W copied dense)
  natives=$("$bin" list solvers | grep -v '^ ' | awk '{print $1}' |
    grep -v '^siconos-\|^bullet-\|^dart-\|^external$\|^python$')
  cases=""
  for s in $natives; do cases="$cases r.dat:$s"; done
  [ -n "$sic_solvers" ] && cases="$cases c.dat:siconos-nsgs c.dat:siconos-prox"
  # nc 2000 is read in a fraction of the budget: nsn and ipm really factorise, and must stop
  # inside the budget although one factorisation cannot be interrupted
  if [ -z "${CONEBENCH_QUICK:-}" ]; then
    "$bin" generate random --kind rolling3d --nc 2000 --seed 1 -o "$tmp/k.dat" 2>/dev/null
    cases="$cases k.dat:nsn k.dat:ipm"
  fi
  for c in $cases; do
    f=${c%%:*} s=${c#*:}
    rc=0
    OPENBLAS_NUM_THREADS=1 /usr/bin/time -f '%U %S %e' -o "$tmp/time" "$bin" solve \
      "$tmp/$f" --solver "$s" --tol 1e-300 --max-iter 2147483647 --time-limit "$budget" --json \
      >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
    read -r user sys wall <"$tmp/time"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
    solve_cpu=$(grep -o '"cpu_s":[0-9.e+-]*' "$tmp/out" | cut -d: -f2)
    bound=$(awk -v b="$budget" -v c="$cpu" -v s="${solve_cpu:-0}" 'BEGIN { r = c - s; print (r > b ? r : b) + 0.75 }')
    echo "cli limits: $s on $f, budget $budget s: cpu $cpu s (solve ${solve_cpu:-?} s; bound $bound), wall $wall s"
    check "budget $s on $f: cpu $cpu s (bound $bound), wall $wall s" '[ "$rc" = 0 ] && grep -q "\"status\":\"time_limit\"" "$tmp/out" && awk -v c="$cpu" -v b="$bound" "BEGIN { exit !(c <= b) }"'
  done
fi
echo "cli limits: $pass passed, $fail failed"
[ "$fail" = 0 ]
