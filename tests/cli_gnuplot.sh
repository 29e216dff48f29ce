#!/usr/bin/env bash
# conebench CLI contract for the gnuplot driver (src/bench/gnuplot.c), the one place gnuplot is
# started: an output folder whose name holds a space, a single quote and a double quote gets its
# figures (a PNG whose size is the one the script asks for: the IHDR header against the script's
# `pngcairo size W,H`), from `filippov check` and from `report`; a gnuplot missing from PATH is
# a clear error, exit 1, before any work (no output folder, no report.md, plot solves nothing);
# a failing script
# (exit 1) names the figure and leaves no PNG of it.
# Usage: cli_gnuplot.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
here=$(cd "$(dirname "$0")" && pwd)
plots=$here/../plots

# png_size FILE: "W H" from the PNG's IHDR chunk (bytes 17..24, big-endian), "" when not a PNG.
png_size() {
  [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] || return 0
  local h
  h=$(od -An -tx1 -j16 -N8 "$1" | tr -d ' \n')
  echo "$((16#${h:0:8})) $((16#${h:8:8}))"
}
# gp_size SCRIPT: "W H" of the script's pngcairo terminal.
gp_size() { sed -n 's/.*pngcairo size \([0-9]*\),\([0-9]*\).*/\1 \2/p' "$1" | head -n 1; }

# gnuplot missing: PATH without it (only the runner's program kept, when there is one).
nogp=$tmp/nogp
mkdir "$nogp"
[ -n "$runner" ] && ln -s "$(command -v "${runner%% *}")" "$nogp/"
PATH=$nogp run "$bin" filippov check --quick -o "$tmp/none"
check "filippov check without gnuplot: exit 1, a clear message, nothing written" \
  '[ "$rc" = 1 ] && grep -q "^conebench: cannot run gnuplot: not found in PATH (apt-get install gnuplot-nox)$" "$tmp/err" && [ ! -e "$tmp/none" ]'
PATH=$nogp run "$bin" filippov map --quick -o "$tmp/none"
check "filippov map without gnuplot: exit 1, nothing written" \
  '[ "$rc" = 1 ] && grep -q "^conebench: cannot run gnuplot: not found in PATH" "$tmp/err" && [ ! -e "$tmp/none" ]'
"$bin" generate random --kind rolling3d --nc 3 --seed 1 -o "$tmp/p.dat" >/dev/null 2>&1
PATH=$nogp run "$bin" plot "$tmp/p.dat" --solver nsgs -o "$tmp/none.png"
check "plot without gnuplot: exit 1 before any solve, no figure" \
  '[ "$rc" = 1 ] && grep -q "^conebench: cannot run gnuplot: not found in PATH" "$tmp/err" && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/none.png" ]'

# A tiny campaign for report (2 problems, 1 solver), in a folder with awkward characters.
odd="$tmp/a b'c\"d"
mkdir "$odd"
printf '%s\n' "name gp" "generate random kind=rolling3d nc=4 seeds=1..2" "solver nsgs" "tol 1e-6" \
  "max-iter 200" "time-limit 5" "trace on" >"$tmp/t.conf"
run "$bin" run "$tmp/t.conf" -o "$odd/res" --quiet
check "tiny campaign runs" '[ "$rc" = 0 ] && [ -s "$odd/res/runs.csv" ]'
PATH=$nogp run "$bin" report "$odd/res"
check "report without gnuplot: exit 1, a clear message, no report.md, no figures" \
  '[ "$rc" = 1 ] && grep -q "^conebench: cannot run gnuplot: not found in PATH" "$tmp/err" && [ ! -e "$odd/res/report.md" ] && [ ! -e "$odd/res/figures" ]'

if ! command -v gnuplot >/dev/null; then
  echo "cli gnuplot: figures skipped: gnuplot missing (apt-get install gnuplot-nox)"
  echo "cli gnuplot: $pass passed, $fail failed"
  [ "$fail" = 0 ]
  exit
fi

run "$bin" report "$odd/res"
want=$(gp_size "$plots/profile.gp")
check "report in a folder named with ' \" and a space: the profile PNG is $want" \
  '[ "$rc" = 0 ] && [ "$(png_size "$odd/res/figures/profile-time-tol0.png")" = "$want" ] && grep -q "profile-time-tol0.png" "$odd/res/report.md"'
run "$bin" filippov check --quick -o "$odd/chk"
want=$(gp_size "$plots/filippov_check.gp")
check "filippov check in a folder named with ' \" and a space: the PNG is $want" \
  '[ "$rc" = 0 ] && [ "$(png_size "$odd/chk/filippov_check.png")" = "$want" ] && [ -s "$odd/chk/filippov_check.svg" ]'

# A failing script: exit 1, the figure named, gnuplot's last words shown, no PNG of it.
mkdir "$tmp/bad"
cp "$plots"/*.gp "$tmp/bad/"
echo 'plot "nonexistent-file.dat"' >>"$tmp/bad/filippov_check.gp"
rm -f "$odd/chk/filippov_check.png" "$odd/chk/filippov_check.svg"
run "$bin" filippov check --quick -o "$odd/chk" --plots "$tmp/bad"
check "a failing script: exit 1, names the figure, no PNG left" \
  '[ "$rc" = 1 ] && grep -q "^conebench: gnuplot failed on $tmp/bad/filippov_check.gp (status [0-9]*) drawing $odd/chk/filippov_check: .*No data in plot" "$tmp/err" && [ ! -e "$odd/chk/filippov_check.png" ]'

echo "cli gnuplot: $pass passed, $fail failed"
[ "$fail" = 0 ]
