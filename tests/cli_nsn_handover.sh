#!/usr/bin/env bash
# conebench CLI: nsn's default policy ends in ipm. On fc2d_granularflowonwall_02020 of the
# Siconos data (2 020 contacts, a hyperstatic 2D packing) plain semismooth Newton stalls near
# 4e-7, the smoothing phase does not finish it and the plain method stalls there again; with the
# default handover=ipm the run goes on in ipm from the start. Checks, with the judge's verdict:
# nsn with its defaults is solved to 1e-8 (and ipm ran: a phase of its own, whose iterations
# add up with nsn's to the run's; a max_iter that leaves ipm 6 iterations is kept, status
# max_iter); with handover=none the same run (an iteration cap, not a
# time limit: deterministic) is not solved; a bad handover value is refused (exit 2, before any
# work). Skips the data checks, saying so, without the data folder.
# Usage: cli_nsn_handover.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
LIMIT=120 # CPU seconds a run: generous (the default needs a few on an idle machine)


run "$bin" generate random --kind coulomb3d --nc 4 --seed 1 -o "$tmp/small.dat"
run "$bin" solve "$tmp/small.dat" --solver nsn --option handover=maybe
check "bad handover value refused" \
  '[ "$rc" = 2 ] && grep -q "option handover" "$tmp/err" && [ ! -s "$tmp/out" ]'

if find_data "cli nsn_handover"; then
  f=$data/fc2d/fc2d_granularflowonwall_02020_00213.dat
  if [ ! -f "$f" ]; then
    echo "cli nsn_handover: skipped: $f absent"
  else
    run "$bin" solve "$f" --solver nsn --tol 1e-8 --time-limit $LIMIT --json
    it=$(json_field iterations) in=$(phase_iters nsn) ii=$(phase_iters ipm)
    echo "cli nsn_handover: default: $(json_field status), error_data $(json_field error_data)," \
      "iterations $it (nsn $in, ipm $ii), cpu_s $(json_field cpu_s)"
    check "nsn default judged solved to 1e-8" \
      '[ "$rc" = 0 ] && [ "$(json_field solved)" = true ]'
    check "the handover ran: an ipm phase, iterations nsn + ipm" \
      '[ -n "$ii" ] && [ -n "$in" ] && [ "$it" = $((in + ii)) ]'
    run "$bin" solve "$f" --solver nsn --tol 1e-8 --max-iter $((in + 6)) --time-limit $LIMIT --json
    check "the iteration cap holds across the handover: max_iter, nsn $in + ipm 6" \
      '[ "$rc" = 0 ] && [ "$(json_field status)" = max_iter ] && [ "$(json_field iterations)" = $((in + 6)) ] && [ "$(phase_iters ipm)" = 6 ]'
    run "$bin" solve "$f" --solver nsn --option handover=none --tol 1e-8 --max-iter 300 \
      --time-limit $LIMIT --json
    echo "cli nsn_handover: handover=none: $(json_field status), error_data $(json_field error_data)"
    check "handover=none: not solved, no ipm phase" \
      '[ "$rc" = 0 ] && [ "$(json_field solved)" = false ] && [ -z "$(phase_iters ipm)" ]'
  fi
fi
echo "cli nsn_handover: $pass passed, $fail failed"
[ "$fail" = 0 ]
