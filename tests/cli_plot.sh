#!/usr/bin/env bash
# conebench CLI contract for `plot`: several solvers on one problem drawn into one PNG (PNG
# magic, non-empty), a line per run and the caption on stdout; bad input (an unknown or repeated
# solver, one that does not take the problem, an output not ending in .png, a missing problem) is refused with exit 2 and a message
# before any work, leaving what was at the output path as it was; a failing gnuplot gives exit 1,
# no output file and no temporary folder left behind. Usage: cli_plot.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
if ! command -v gnuplot >/dev/null; then
  echo "cli plot: skipped: gnuplot missing (apt-get install gnuplot-nox)"
  exit 0
fi
export TMPDIR=$tmp/t
mkdir -p "$TMPDIR"
"$bin" generate random --kind rolling3d --nc 20 --seed 1 -o "$tmp/p.dat" >/dev/null 2>&1

run "$bin" plot "$tmp/p.dat" --solver nsgs,pfp,apgd --tol 1e-8 --max-iter 200 -o "$tmp/f.png"
check "plot exits 0 and says what it wrote" '[ "$rc" = 0 ] && grep -q "^conebench: wrote $tmp/f.png$" "$tmp/err"'
check "a PNG, not empty" '[ -s "$tmp/f.png" ] && [ "$(head -c 8 "$tmp/f.png" | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a ]'
check "a line per run, then the caption" \
  '[ "$(grep -cE "^  (nsgs|pfp|apgd) +[a-z_]+ +[0-9]+ iterations  error " "$tmp/out")" = 3 ] &&
   grep -q "^Look at where each curve crosses the dashed tolerance line" "$tmp/out"'
check "no temporary folder left" '[ -z "$(ls -A "$TMPDIR")" ]'

printf 'keep\n' >"$tmp/k.png"
run "$bin" plot "$tmp/p.dat" --solver nsgs,nosuch -o "$tmp/k.png"
check "unknown solver: exit 2, named" '[ "$rc" = 2 ] && grep -q "^conebench: --solver: unknown solver .nosuch." "$tmp/err"'
check "unknown solver: the output path untouched" '[ "$(cat "$tmp/k.png")" = keep ] && [ ! -s "$tmp/out" ]'
if have_siconos "cli plot: a solver that does not take the problem (siconos-fc2d-lemke)"; then
  run "$bin" plot "$tmp/p.dat" --solver nsgs,siconos-fc2d-lemke -o "$tmp/n.png"
  check "a solver that does not take the problem: exit 2 before any run" \
    '[ "$rc" = 2 ] && grep -q "siconos-fc2d-lemke does not take this problem" "$tmp/err" && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/n.png" ]'
fi
run "$bin" plot "$tmp/p.dat" --solver nsgs,nsgs -o "$tmp/n.png"
check "repeated solver: exit 2" '[ "$rc" = 2 ] && grep -q "nsgs. given twice" "$tmp/err" && [ ! -e "$tmp/n.png" ]'
run "$bin" plot "$tmp/p.dat" --solver nsgs -o "$tmp/n.svg"
check "not a .png: exit 2" '[ "$rc" = 2 ] && grep -q "must end in .png" "$tmp/err" && [ ! -e "$tmp/n.svg" ]'
run "$bin" plot "$tmp/nowhere.dat" --solver nsgs -o "$tmp/n.png"
check "missing problem: exit 2" '[ "$rc" = 2 ] && grep -q "nowhere.dat" "$tmp/err" && [ ! -e "$tmp/n.png" ]'
run "$bin" plot "$tmp/p.dat" -o "$tmp/n.png"
check "no --solver: usage, exit 2" '[ "$rc" = 2 ] && grep -q "usage: conebench plot FILE --solver" "$tmp/err"'

# A gnuplot that fails: exit 1 with gnuplot's last words, nothing at the output path.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\ncat >/dev/null\necho "fake gnuplot: broken" >&2\nexit 3\n' >"$tmp/bin/gnuplot"
chmod +x "$tmp/bin/gnuplot"
rc=0
PATH="$tmp/bin:$PATH" $runner "$bin" plot "$tmp/p.dat" --solver nsgs -o "$tmp/g.png" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
check "gnuplot fails: exit 1, said" '[ "$rc" = 1 ] && grep -q "gnuplot failed.*fake gnuplot: broken" "$tmp/err"'
check "gnuplot fails: no file, no temporary folder" '[ ! -e "$tmp/g.png" ] && [ -z "$(ls -A "$TMPDIR")" ]'
run "$bin" help plot
check "help plot" '[ "$rc" = 0 ] && grep -q "conebench plot problem.dat --solver" "$tmp/out"'
echo "cli plot: $pass passed, $fail failed"
[ "$fail" = 0 ]
