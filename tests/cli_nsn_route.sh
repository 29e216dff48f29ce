#!/usr/bin/env bash
# conebench CLI: the route nsn's default (linear=auto) takes below 2 000 contacts. When KLU's
# analysis estimates more than 40 flops of a factorisation per entry of the Newton matrix, a
# solve tries the Krylov route first (nsgs sweeps to error 0.1, then GMRES Newton steps) and
# keeps it while each step cuts the judged error fourfold; else it restarts from the start on
# the direct route (KLU) with the default policy. Checks, with the judge: on the 100-sphere
# heap step (272 contacts) the default nsn is judged solved to 1e-6 (and `conebench error` on
# its solution file agrees), on the Krylov route (an nsgs phase), and its p agrees with the
# direct route's (KLU, the same Newton map, a small shift) to 1e-4 relative (both solve to
# 1e-6: a property, not a stored figure); linear=klu on that step takes no Krylov route (no
# nsgs phase). On a random multibody rolling3d problem (nc 100, seed 1, a rank-deficient W
# where the Krylov route's steps stall) the default tries the route (an nsgs phase), falls back,
# and ends with the very p and y of linear=klu, the direct route run alone (the same path from
# the same start), judged solved to 1e-8. On the 15-sphere heap step (37 contacts: the direct
# route) linear=klu is judged solved to 1e-6 within 30 steps (the shift's adaptation).
# Usage: cli_nsn_route.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
LIMIT=120 # CPU seconds a run: generous (each needs well under 1 on an idle machine)

run "$bin" generate sphere-pile --param init=heap --param n=100 --steps 1 --max-iter 1 \
  -o "$tmp/p100"
f=$tmp/p100/sphere-pile-step1.dat
run "$bin" solve "$f" --solver nsn --tol 1e-6 --time-limit $LIMIT --solution "$tmp/auto.sol" \
  --json
echo "cli nsn_route: 100 spheres, nc $(json_field nc), default: $(json_field status)," \
  "error $(json_field error), nsn $(phase_iters nsn) steps after nsgs $(phase_iters nsgs)" \
  "sweeps, cpu_s $(json_field cpu_s)"
check "default nsn on the 100-sphere step: judged solved to 1e-6 on the Krylov route" \
  '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ] && [ -n "$(phase_iters nsgs)" ]'
run "$bin" error "$f" --solution "$tmp/auto.sol" --tol 1e-6
check "conebench error on its solution: solved" '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ]'
run "$bin" solve "$f" --solver nsn --option linear=klu --option smoothing=off --option reg=1e-6 \
  --tol 1e-6 --time-limit $LIMIT --solution "$tmp/direct.sol" --json
check "linear=klu: judged solved, no Krylov route (no nsgs phase)" \
  '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ] && [ -z "$(phase_iters nsgs)" ]'
d=$(rel_diff "$tmp/auto.sol" "$tmp/direct.sol")
echo "cli nsn_route: |p_auto - p_klu| / |p_klu| = $d"
check "p of the default agrees with the direct route's to 1e-4" \
  '/usr/bin/python3 -c "import sys; sys.exit(not float(sys.argv[1]) <= 1e-4)" "$d"'

run "$bin" generate random --kind rolling3d --nc 100 --seed 1 -o "$tmp/r100.dat"
f=$tmp/r100.dat
run "$bin" solve "$f" --solver nsn --tol 1e-8 --time-limit $LIMIT --solution "$tmp/r_auto.sol" \
  --json
echo "cli nsn_route: random rolling3d nc 100, default: $(json_field status)," \
  "error $(json_field error), nsn $(phase_iters nsn) steps, nsgs $(phase_iters nsgs) sweeps"
check "default nsn on random rolling3d nc 100: judged solved to 1e-8 after trying the route" \
  '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ] && [ -n "$(phase_iters nsgs)" ]'
run "$bin" solve "$f" --solver nsn --option linear=klu --tol 1e-8 --time-limit $LIMIT \
  --solution "$tmp/r_klu.sol" --json
check "linear=klu on it: judged solved, no nsgs phase" \
  '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ] && [ -z "$(phase_iters nsgs)" ]'
check "the default's fallback ends with linear=klu's p and y, bit for bit" \
  'cmp -s "$tmp/r_auto.sol" "$tmp/r_klu.sol"'
# The shift's adaptation (lm_adapt, nsn.c): on the 15-sphere heap step (37 contacts, below the
# trial's threshold) the direct route's full steps crawled (error × 0.996 a step, 323 steps)
# under λ = 1e-2 min(1, e) s_W; the multiplier shrunk after 3 slow full steps in a row, it is
# judged solved to 1e-6 in at most NSN_ADAPT_MAX steps (9 measured; 1/10 of the crawl's).
NSN_ADAPT_MAX=30
run "$bin" generate sphere-pile --param init=heap --param n=15 --steps 1 --max-iter 1 \
  -o "$tmp/p15"
f=$tmp/p15/sphere-pile-step1.dat
run "$bin" solve "$f" --solver nsn --option linear=klu --tol 1e-6 --time-limit $LIMIT \
  --solution "$tmp/p15.sol" --json
it=$(json_field iterations)
echo "cli nsn_route: 15 spheres, nc $(json_field nc), linear=klu: $(json_field status)," \
  "error $(json_field error), $it steps, cpu_s $(json_field cpu_s)"
check "linear=klu on the 15-sphere step: judged solved to 1e-6 in at most $NSN_ADAPT_MAX steps" \
  '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ] && [ -z "$(phase_iters nsgs)" ] &&
   [ "$it" -le $NSN_ADAPT_MAX ]'
run "$bin" error "$f" --solution "$tmp/p15.sol" --tol 1e-6
check "conebench error on its solution: solved" '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ]'
echo "cli nsn_route: $pass passed, $fail failed"
[ "$fail" = 0 ]
