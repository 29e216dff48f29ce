#!/usr/bin/env bash
# conebench CLI: the gate's commands on bad input and on results they must not mix.
# `compare A B` refuses two directories of different units (a `run` directory holds wall
# seconds, a `bench-check` one CPU seconds) or of different campaigns (exit 2, saying why),
# never calls raw seconds "normalised", and compares two runs of the same campaign; bench-check
# refuses an unknown revision and a bad threshold, and answers --help. Two runs of one
# repetition: no time verdict, exit 0, saying why. No duration is asserted.
# Usage: cli_gate.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"

# check NAME CONDITION: count a pass or print the failure with the last command's outputs.
check() {
  if eval "$2"; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL [$1]: $2; exit $rc, stderr: $(head -c 300 "$tmp/err"), stdout: $(head -c 300 "$tmp/out")"
  fi
}
run() { rc=0; $runner "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?; }

printf 'name tiny\ngenerate random kind=rolling3d nc=150 seeds=1..2\nsolver nsgs\nsolver apgd\ntol 1e-6\nmax-iter 500\ntime-limit 20\nrepetitions 2\n' >"$tmp/tiny.conf"
sed 's/max-iter 500/max-iter 400/' "$tmp/tiny.conf" >"$tmp/other.conf"
"$bin" run "$tmp/tiny.conf" -o "$tmp/A" --quiet >/dev/null 2>&1
"$bin" run "$tmp/tiny.conf" -o "$tmp/B" --quiet >/dev/null 2>&1
"$bin" run "$tmp/other.conf" -o "$tmp/D" --quiet >/dev/null 2>&1
"$bin" bench-check --campaign "$tmp/tiny.conf" --counters-only -o "$tmp/C" --quiet >/dev/null 2>&1

run "$bin" compare "$tmp/A" "$tmp/B"
check "same campaign compares" '[ "$rc" = 0 ] || [ "$rc" = 1 ]'
check "same campaign: wall seconds said" 'grep -q "wall seconds" "$tmp/out" && ! grep -qi normalised "$tmp/out"'
check "same campaign: both solvers timed" 'grep -qE "^nsgs +2 " "$tmp/out" && grep -qE "^apgd +2 " "$tmp/out"'
run "$bin" compare "$tmp/A" "$tmp/C"
check "units differ: exit 2" '[ "$rc" = 2 ] && [ ! -s "$tmp/out" ]'
check "units differ: says why" 'grep -q "^conebench: .*/A holds wall_s .*/C holds cpu_s .*different units" "$tmp/err"'
run "$bin" compare "$tmp/A" "$tmp/D"
check "campaigns differ: exit 2" '[ "$rc" = 2 ] && grep -q "ran different campaigns" "$tmp/err"'
run "$bin" compare "$tmp/A" "$tmp/nowhere"
check "missing directory" '[ "$rc" = 2 ] && grep -q "nowhere:.*no such directory" "$tmp/err"'
run "$bin" compare "$tmp/A"
check "compare usage" '[ "$rc" = 2 ] && grep -q "usage: conebench compare A B" "$tmp/err"'
run "$bin" compare --help
check "compare --help" '[ "$rc" = 0 ] && grep -q "different units or different campaigns" "$tmp/out"'
# One repetition, run twice: no time verdict (one sample has no interval), exit 0, a warning
# saying why; every solver's row says so and none says REGRESSION.
sed 's/repetitions 2/repetitions 1/' "$tmp/tiny.conf" >"$tmp/one.conf"
"$bin" run "$tmp/one.conf" -o "$tmp/O1" --quiet >/dev/null 2>&1
"$bin" run "$tmp/one.conf" -o "$tmp/O2" --quiet >/dev/null 2>&1
run "$bin" compare "$tmp/O1" "$tmp/O2"
check "1 repetition: exit 0" '[ "$rc" = 0 ]'
check "1 repetition: rows say why" 'grep -qE "^nsgs +2 .*not enough repetitions \(1 < 7 needed\) to judge time" "$tmp/out" && grep -qE "^apgd +2 .*not enough repetitions \(1 < 7 needed\)" "$tmp/out"'
check "1 repetition: no REGRESSION" '! grep -q REGRESSION "$tmp/out"'
check "1 repetition: warning" 'grep -q "^conebench: warning: time not judged for 2 solvers: not enough repetitions (1 < 7 needed" "$tmp/err"'
run "$bin" bench-check --help
check "bench-check --help" '[ "$rc" = 0 ] && grep -q "95 % bootstrap interval" "$tmp/out"'
run "$bin" bench-check --campaign "$tmp/tiny.conf" --against no-such-revision-xyz -o "$tmp/E" --quiet
check "unknown revision" '[ "$rc" = 2 ] && grep -qE "against no-such-revision-xyz: (no such git revision|not inside a git checkout)" "$tmp/err"'
run "$bin" bench-check --threshold -1
check "bad threshold" '[ "$rc" = 2 ] && grep -q "threshold: must be in" "$tmp/err"'
run "$bin" bench-check --write-baseline --counters-only
check "exclusive modes" '[ "$rc" = 2 ] && grep -q "exclude each other" "$tmp/err"'
echo "cli gate: $pass passed, $fail failed"
[ "$fail" = 0 ]
