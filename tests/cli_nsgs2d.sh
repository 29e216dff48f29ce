#!/usr/bin/env bash
# conebench CLI: nsgs on the Coulomb 2D files of the Siconos data (fc2d/, text .dat) against
# Siconos' own 2D NSGS (siconos-nsgs: fc2d_nsgs_dense / fc2d_nsgs_sbm). For each file that
# Siconos' NSGS solves to 1e-8 within MAXIT sweeps, nsgs must be judged solved to 1e-8 too, in
# at most 10× Siconos' sweeps. Siconos' sweeps are the judge's, not Siconos' own stop: the
# least k for which `solve --solver siconos-nsgs --max-iter k` is judged solved (both start
# from p = 0 and are deterministic, so a run with max-iter k yields Siconos' k-th iterate;
# bisection between p = 0 and the first solved run, which assumes the judged error stays below
# tol once it got there; the result k is solved and k − 1 was seen not solved). Files Siconos does not solve within MAXIT
# sweeps (fc2d_granularflowonwall_02020: after 2·10⁴ sweeps Siconos stands at 5.5e-7;
# nsgs solves it through its polish, tests/test_nsgs_polish.c, BENCHMARKS.md) and
# files with more than MAXNC contacts are skipped, saying so.
# Skips everything, saying so, without the data folder or without Siconos.
# Usage: cli_nsgs2d.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
MAXIT=20000 # sweeps allowed to either solver
MAXNC=1000  # larger files take minutes of Siconos sweeps
RATIO=10    # nsgs's sweeps ≤ RATIO × Siconos' (issue 29)

# json_field KEY: the value of "KEY" in $tmp/out (numbers, booleans and strings unquoted).
json_field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p" "$tmp/out"; }

# solved_at FILE K: 0 when siconos-nsgs stopped at K sweeps (or its own test before) is judged
# solved to 1e-8.
solved_at() {
  run "$bin" solve "$1" --solver siconos-nsgs --tol 1e-8 --max-iter "$2" --json
  [ "$rc" = 0 ] && [ "$(json_field solved)" = true ]
}

# siconos_sweeps FILE: prints the least k ≤ MAXIT judged solved (bisection), or nothing.
siconos_sweeps() {
  solved_at "$1" "$MAXIT" || return 0
  local hi lo=0 mid
  hi=$(json_field iterations) # Siconos' own stop, or MAXIT
  while [ $((hi - lo)) -gt 1 ]; do
    mid=$(((lo + hi) / 2))
    if solved_at "$1" "$mid"; then hi=$mid; else lo=$mid; fi
  done
  echo "$hi"
}

if find_data "cli nsgs2d" && have_siconos "cli nsgs2d"; then
  files=$(ls "$data"/fc2d/*.dat 2>/dev/null)
  [ -z "$files" ] && echo "cli nsgs2d: skipped: no $data/fc2d/*.dat"
  for f in $files; do
    name=$(basename "$f" .dat)
    nc=$("$bin" info "$f" | sed -n 's/^nc: //p')
    if [ "$nc" -gt "$MAXNC" ]; then
      echo "cli nsgs2d: $name skipped: nc = $nc > $MAXNC (Siconos' sweeps take minutes)"
      continue
    fi
    ks=$(siconos_sweeps "$f")
    if [ -z "$ks" ]; then
      echo "cli nsgs2d: $name skipped: siconos-nsgs does not reach 1e-8 in $MAXIT sweeps"
      continue
    fi
    run "$bin" solve "$f" --solver nsgs --tol 1e-8 --max-iter "$MAXIT" --json
    it=$(json_field iterations)
    echo "cli nsgs2d: $name: nsgs $it sweeps (error $(json_field error)), siconos-nsgs $ks"
    check "$name: nsgs solved to 1e-8 in $it <= $RATIO x $ks sweeps" \
      '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ] && [ "$it" -le $((RATIO * ks)) ]'
  done
fi
echo "cli nsgs2d: $pass passed, $fail failed"
[ "$fail" = 0 ]
