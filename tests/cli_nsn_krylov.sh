#!/usr/bin/env bash
# conebench CLI: nsn's Krylov route (linear=krylov, and linear=auto's choice from 2000 contacts
# when CHOLMOD's symbolic analysis counts more than 100 flops of a factorisation per entry of
# the Newton matrix): nsgs sweeps to error 0.1, then semismooth Newton steps by GMRES. Checks,
# on generated sphere-pile steps, with the judge: linear=krylov on the 300-sphere step (841
# contacts) is judged solved to 1e-6 and ran its nsgs start (a phase of its own); `conebench
# error` on its solution file agrees; its p agrees with the direct route's (KLU, the same
# Newton map, a small shift) to 1e-4 relative (both solve to 1e-6: a property, not a stored
# figure); on the 1000-sphere step (2 862 contacts) the default nsn takes the route by itself
# and is solved, while linear=klu does not take it; a bad linear value is refused (exit 2).
# Usage: cli_nsn_krylov.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
LIMIT=120 # CPU seconds a run: generous (each needs well under 5 on an idle machine)

run "$bin" generate random --kind coulomb3d --nc 4 --seed 1 -o "$tmp/small.dat"
run "$bin" solve "$tmp/small.dat" --solver nsn --option linear=maybe
check "bad linear value refused" \
  '[ "$rc" = 2 ] && grep -q "option linear" "$tmp/err" && [ ! -s "$tmp/out" ]'

run "$bin" generate sphere-pile --param init=heap --param n=300 --steps 1 -o "$tmp/p300"
f=$tmp/p300/sphere-pile-step1.dat
run "$bin" solve "$f" --solver nsn --option linear=krylov --tol 1e-6 --time-limit $LIMIT \
  --solution "$tmp/krylov.sol" --json
echo "cli nsn_krylov: 300 spheres, linear=krylov: $(json_field status), error $(json_field error)," \
  "nsn $(phase_iters nsn) steps after nsgs $(phase_iters nsgs) sweeps, cpu_s $(json_field cpu_s)"
check "linear=krylov judged solved to 1e-6, after its nsgs start" \
  '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ] && [ -n "$(phase_iters nsgs)" ]'
run "$bin" error "$f" --solution "$tmp/krylov.sol" --tol 1e-6
check "conebench error on its solution: solved" '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ]'
run "$bin" solve "$f" --solver nsn --option linear=klu --option smoothing=off --option reg=1e-6 \
  --tol 1e-6 --time-limit $LIMIT --solution "$tmp/direct.sol" --json
check "the direct route judged solved" '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ]'
d=$(rel_diff "$tmp/krylov.sol" "$tmp/direct.sol")
echo "cli nsn_krylov: |p_krylov - p_klu| / |p_klu| = $d"
check "p of the Krylov route agrees with the direct route's to 1e-4" \
  '/usr/bin/python3 -c "import sys; sys.exit(not float(sys.argv[1]) <= 1e-4)" "$d"'

run "$bin" generate sphere-pile --param init=heap --param n=1000 --steps 1 -o "$tmp/p1k"
f=$tmp/p1k/sphere-pile-step1.dat
run "$bin" solve "$f" --solver nsn --tol 1e-6 --time-limit $LIMIT --json
echo "cli nsn_krylov: 1000 spheres, default: $(json_field status), error $(json_field error)," \
  "nsn $(phase_iters nsn) steps after nsgs $(phase_iters nsgs) sweeps, cpu_s $(json_field cpu_s)"
check "default nsn on 2 862 contacts: the Krylov route by itself, judged solved to 1e-6" \
  '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ] && [ -n "$(phase_iters nsgs)" ]'
run "$bin" solve "$f" --solver nsn --option linear=klu --max-iter 1 --time-limit $LIMIT --json
check "linear=klu on the same step: no Krylov route (no nsgs phase)" \
  '[ "$rc" = 0 ] && [ "$(json_field iterations)" = 1 ] && [ -z "$(phase_iters nsgs)" ]'
echo "cli nsn_krylov: $pass passed, $fail failed"
[ "$fail" = 0 ]
