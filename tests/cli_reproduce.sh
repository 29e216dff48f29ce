#!/usr/bin/env bash
# conebench CLI contract for `reproduce` (the study: src/studies/reproduce*.c; its numbers
# against the paper are checked by tests/test_reproduce.c): --only brick writes report.md with
# the paper-vs-ours table, whose acceleration row is the paper's 0.525 m/s² next to ours within
# the printed precision (a closed form: g sin α − μ_k g cos α with g = 9.8, α = 0.25, μ_k = 0.2,
# is 0.5255), its series and its two figures (PNG), exit 0; in a folder whose name holds a space
# and a quote too; an unknown section or argument is exit 2 before any work (no folder); a
# gnuplot missing from PATH is exit 1 before any work; a failing figure script is a failed run
# (exit 1, named on stderr, counted in report.md).
# Usage: cli_reproduce.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
here=$(cd "$(dirname "$0")" && pwd)
export CONEBENCH_PLOTS=$here/../plots

out="$tmp/r e'p"
run "$bin" reproduce --only brick -o "$out"
check "reproduce --only brick: exit 0, report, series, figures" \
  '[ "$rc" = 0 ] && [ -s "$out/report.md" ] && [ -s "$out/data/brick_c.csv" ] && [ -s "$out/figures/brick_velocity.png" ] && [ -s "$out/figures/brick_damping.png" ]'
row=$(grep '^| α = 0.25: acceleration while slipping |' "$out/report.md" 2>/dev/null)
ours=$(echo "$row" | awk -F'|' '{print $4}' | awk '{print $1}')
cf=$(awk 'BEGIN { g = 9.8; a = 0.25; printf "%.6f", g * sin(a) - 0.2 * g * cos(a) }')
check "the acceleration row: paper 0.525, ours within 0.001 of it and of the closed form $cf" \
  '[ -n "$ours" ] && echo "$row" | grep -q "| 0.525 m/s² |" && awk -v o="$ours" -v c="$cf" "BEGIN { d1 = o - 0.525; d2 = o - c; exit !(d1 < 0.001 && d1 > -0.001 && d2 < 0.001 && d2 > -0.001) }"'
check "report.md ends with 2 figures, 0 failed runs" \
  'grep -q "^2 figures, 0 failed runs," "$out/report.md"'

run "$bin" reproduce --only nosuch -o "$tmp/none"
check "unknown section: exit 2, named, nothing written" \
  '[ "$rc" = 2 ] && grep -q "unknown section .nosuch." "$tmp/err" && [ ! -e "$tmp/none" ]'
run "$bin" reproduce extra -o "$tmp/none"
check "unexpected argument: exit 2, nothing written" '[ "$rc" = 2 ] && [ ! -e "$tmp/none" ]'

nogp=$tmp/nogp
mkdir "$nogp"
[ -n "$runner" ] && ln -s "$(command -v "${runner%% *}")" "$nogp/"
PATH=$nogp run "$bin" reproduce --only brick -o "$tmp/none"
check "gnuplot missing: exit 1 before any work" \
  '[ "$rc" = 1 ] && grep -q "^conebench: cannot run gnuplot: not found in PATH" "$tmp/err" && [ ! -e "$tmp/none" ]'

mkdir "$tmp/bad"
echo 'plot "nonexistent-file.dat"' >"$tmp/bad/compliant_series.gp"
run "$bin" reproduce --only brick -o "$tmp/badrun" --plots "$tmp/bad"
check "a failing figure script: exit 1, the figures named, counted as failed runs" \
  '[ "$rc" = 1 ] && grep -q "drawing $tmp/badrun/figures/brick_velocity" "$tmp/err" && grep -q "^2 figures, 2 failed runs," "$tmp/badrun/report.md" && [ ! -e "$tmp/badrun/figures/brick_velocity.png" ]'

echo "cli reproduce: $pass passed, $fail failed"
[ "$fail" = 0 ]
