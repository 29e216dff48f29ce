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
for s in $sic_solvers; do
  run "$bin" solve "$tmp/big.dat" --solver "$s" "${never[@]}" --json --solution "$tmp/$s.sol" \
    --trace "$tmp/$s.csv"
  check "$s exit" '[ "$rc" = 0 ]'
  check "$s json" 'grep -q "\"status\":\"time_limit\"" "$tmp/out"'
  check "$s message" '[ "$(cat "$tmp/err")" = "conebench: $tmp/big.dat: $s stopped at the time limit (0.001 s); no solution or trace written" ]'
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
# simulate: the limit holds for each step's solve, Siconos' included (each step killed)
for s in ${sic_solvers%% *} nsgs; do
  run "$bin" simulate three-spheres --param t_end=2e-4 --solver "$s" "${never[@]}" --json
  check "simulate $s" '[ "$rc" = 0 ] && grep -q "\"steps\":2,\"unsolved\":2,\"time_limited\":2," "$tmp/out"'
  check "simulate $s message" '[ "$(cat "$tmp/err")" = "conebench: 2 of 2 steps stopped at the time limit (0.001 s per solve)" ]'
done
echo "cli limits: $pass passed, $fail failed"
[ "$fail" = 0 ]
