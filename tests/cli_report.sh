#!/usr/bin/env bash
# conebench CLI contract for `report`, checked against numbers computed independently from
# runs.csv (tests/support/report_expect.py: python3's csv/json/statistics): report --json (runs,
# success, shifted geometric means, failures by status, every problem's winner or null); the
# three verdict lines that open report.md; gnuplot's warnings kept out of the terminal (in
# figures/gnuplot.log) and shown when gnuplot fails; the profile's x-range ends 1.25 × past the
# last step; convergence figures are named by problem, keep iteration 0 and errors of 0, break
# the line over untraced iterations and name them and runs without a trace in the caption; a
# solver whose work counters are all 0 gets no work profile and is flagged.
# Usage: cli_report.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
here=$(cd "$(dirname "$0")" && pwd)
expect_py=$here/support/report_expect.py
if ! command -v python3 >/dev/null; then
  echo "cli report: skipped: python3 missing (it computes the expected numbers)"
  exit 0
fi
if ! command -v gnuplot >/dev/null; then
  echo "cli report: skipped: gnuplot missing (apt-get install gnuplot-nox)"
  exit 0
fi

# A tiny campaign: 4 problems, 3 solvers, 2 tolerances, 100 iterations at most (some failures,
# a problem nobody solves at 1e-8: nsgs as plain Gauss-Seidel, omega=1, which its default's
# over-relaxation would solve); runs in well under a second.
d=$tmp/r1
printf '%s\n' "name tiny-report" "generate random kind=rolling3d nc=5 seeds=1..3" \
  "generate random kind=rolling3d nc=20 seeds=2..2" "solver nsgs omega=1 label=nsgs" \
  "solver pfp" "solver apgd" "tol 1e-4 1e-8" "max-iter 100" "time-limit 5" "trace on" >"$tmp/t.conf"
run "$bin" run "$tmp/t.conf" -o "$d" --quiet
check "tiny campaign runs" '[ "$rc" = 0 ] && [ -s "$d/runs.csv" ]'
# load.txt: the load and the cores at the start and the end of `run`; report warns (report.md
# and stderr) when a load exceeded the cores. Then a quiet record, so that what follows does not
# depend on this machine's load.
cores=$(getconf _NPROCESSORS_ONLN)
check "run records the load at its start and end" \
  'grep -Eq "^start [0-9.]+ cores $cores\$" "$d/load.txt" && grep -Eq "^end [0-9.]+ cores $cores\$" "$d/load.txt" && [ "$(wc -l <"$d/load.txt")" = 2 ]'
printf 'start 0.50 cores 2\nend 7.25 cores 2\n' >"$d/load.txt"
run "$bin" report "$d" --no-figures
check "report warns when the load exceeded the cores" \
  '[ "$rc" = 0 ] && grep -q "^conebench: $d: warning: the machine.s load reached 7.25 on 2 cores during run; wall times are inflated$" "$tmp/err" && grep -q "^\*\*Loaded machine:\*\* the 1-minute load reached 7.25 on 2 cores" "$d/report.md"'
printf 'start 0.50 cores 2\nend 1.50 cores 2\n' >"$d/load.txt"
run "$bin" report "$d" --no-figures
check "no warning when the load stayed below the cores" \
  '[ "$rc" = 0 ] && ! grep -q "warning" "$tmp/err" && ! grep -q "Loaded machine" "$d/report.md"'
rm -f "$d/report.md"

# report --json: one object on stdout, nothing written, numbers as runs.csv gives them.
run "$bin" report "$d" --json
check "report --json exits 0, one line, nothing written" \
  '[ "$rc" = 0 ] && [ "$(wc -l <"$tmp/out")" = 1 ] && [ ! -e "$d/report.md" ] && [ ! -s "$tmp/err" ]'
cp "$tmp/out" "$tmp/r1.json"
python3 "$expect_py" json "$d" "$tmp/r1.json" >"$tmp/cmp" 2>&1
check "report --json against runs.csv: $(tail -n 1 "$tmp/cmp")" \
  'grep -q "^checked [0-9]* values, 0 differ$" "$tmp/cmp"'
grep '^FAIL' "$tmp/cmp" | head -5
check "report --json has a null winner and a named one" \
  'grep -q "\"winner\":null" "$tmp/r1.json" && grep -q "\"winner\":\"nsgs\"" "$tmp/r1.json"'

# report: the verdict, stderr free of gnuplot's text.
run "$bin" report "$d"
check "report exits 0, stderr only says what it wrote" \
  '[ "$rc" = 0 ] && [ "$(cat "$tmp/err")" = "conebench: wrote $d/report.md" ]'
python3 "$expect_py" verdict "$d" >"$tmp/verdict"
head -n 3 "$d/report.md" >"$tmp/head3"
check "the first three lines of report.md are the verdict: $(head -n 1 "$tmp/verdict")" \
  'cmp -s "$tmp/verdict" "$tmp/head3" && grep -q "^- Solved by no solver: 1 of 4 problems: " "$tmp/head3"'
for m in time iterations work; do
  for ti in 0 1; do
    want=$(python3 "$expect_py" xmax "$d" "$m" "$ti")
    got=$(tail -n 1 "$d/figures/profile-$m-tol$ti.csv" | cut -d, -f1)
    check "profile $m tol$ti ends at 1.25 x its last step ($want)" \
      "awk -v a='$got' -v b='$want' 'BEGIN { exit !(a - b <= 1e-12 * b && b - a <= 1e-12 * b) }'"
  done
done
# Figures are named by problem; the traced curves come before the untraced stretches' blocks.
p0=$(sed -n 2p "$d/runs.csv" | cut -d, -f2)
conv=$d/figures/conv-tol1e-08-$p0.dat
rows=$(awk '/untraced stretches/ { exit } !/^#/ && NF { n++ } END { print n + 0 }' "$conv" 2>/dev/null)
check "convergence figure named by problem: conv-tol1e-08-$p0.png" \
  '[ -s "$d/figures/conv-tol1e-08-$p0.png" ] && grep -q "(figures/conv-tol1e-08-$p0.png)" "$d/report.md"'
check "convergence data keeps iteration 0 and errors of 0 (every trace row: $rows)" \
  '[ "$rows" = "$(python3 "$expect_py" trace-rows "$d" 1 0)" ] && grep -q "^0 " "$conv"'
check "captions say what to look at" \
  '[ "$(grep -c "^\*Look at the height at τ = 1" "$d/report.md")" = 6 ] &&
   [ "$(grep -c "^\*Look at where each curve crosses the dashed tolerance line" "$d/report.md")" = 8 ]'

# A trace every 5 sweeps (nsgs error_every=5): no solid line across the untraced iterations (a
# blank line between the points), their ends in the dotted block, the caption names them; a run
# whose trace is gone is named in the caption with its status and has no curve (no legend entry).
g=$tmp/gaps
printf '%s\n' "name gaps" "generate random kind=rolling3d nc=20 seeds=1" \
  "solver nsgs error_every=5 label=nsgs5" "solver pfp" "tol 1e-8" "max-iter 100" "time-limit 5" \
  "trace on" >"$tmp/gaps.conf"
run "$bin" run "$tmp/gaps.conf" -o "$g" --quiet
run "$bin" report "$g"
gd=$g/figures/conv-tol1e-08-random-rolling3d-nc20-mb-s1.dat
check "gaps: every nsgs5 point its own segment" \
  'awk '"'"'/^# nsgs5$/ { on = 1; next } /^#/ { on = 0 } on && NF { pts++ } on && !NF { br++ } END { exit !(pts > 3 && br >= pts - 2) }'"'"' "$gd"'
check "gaps: dotted ends 0-5 listed" \
  'awk '"'"'/nsgs5: untraced/ { on = 1; next } /^#/ { on = 0 } on && NF { print $1 }'"'"' "$gd" | head -n 2 | tr "\n" " " | grep -q "^0 5 $"'
check "gaps: caption names the untraced iterations" \
  'grep -q "Dotted: iterations not traced (no point measured in between): nsgs5 1–4, 6–9, 11–14 and [0-9]* more\." "$g/report.md"'
pfp_id=$(awk -F, '$7 == "pfp" { print $1 }' "$g/runs.csv")
rm -f "$g/traces/$pfp_id.csv"
run "$bin" report "$g"
check "no trace: named in the caption with its status, no curve" \
  'grep -q "No trace, not drawn: pfp (max_iter)\." "$g/report.md" && ! grep -q "^# pfp" "$gd" && grep -q "^# nsgs5$" "$gd"'

# What gnuplot says on stderr (here a `print` added to convergence.gp under CONEBENCH_HOME) goes
# to figures/gnuplot.log, not to the terminal ...
printf '%s\n' "generate random kind=rolling3d nc=1 seeds=1..1" "solver nsgs" "tol 1e-4" \
  "max-iter 100" "trace on" >"$tmp/one.conf"
run "$bin" run "$tmp/one.conf" -o "$tmp/one" --quiet
mkdir -p "$tmp/home/plots"
cp "$here"/../plots/*.gp "$tmp/home/plots/"
echo 'print "gnuplot says: a warning"' >>"$tmp/home/plots/convergence.gp"
printf 'start 0.50 cores 2\nend 0.50 cores 2\n' >"$tmp/one/load.txt" # quiet: stderr as asserted
CONEBENCH_HOME=$tmp/home run "$bin" report "$tmp/one"
check "gnuplot's warnings go to figures/gnuplot.log, not to the terminal" \
  '[ "$rc" = 0 ] && [ "$(cat "$tmp/err")" = "conebench: wrote $tmp/one/report.md" ] &&
   grep -q "^gnuplot says: a warning" "$tmp/one/figures/gnuplot.log"'
# ... and shown when gnuplot fails (a broken profile.gp under CONEBENCH_HOME).
cp "$here"/../plots/*.gp "$tmp/home/plots/"
echo 'plot "nonexistent-file.csv"' >>"$tmp/home/plots/profile.gp"
CONEBENCH_HOME=$tmp/home run "$bin" report "$tmp/one"
check "a gnuplot failure is shown with gnuplot's message" \
  '[ "$rc" = 1 ] && grep -q "^conebench: gnuplot failed on .*profile.gp (status [0-9]*) drawing .*/figures/profile-[a-z]*-tol[0-9]*: .*profile.gp.* line [0-9]*: No data in plot (all of it in $tmp/one/figures/gnuplot.log)$" "$tmp/err"'

# A solver whose work counters are all 0 (pfp's, zeroed in a copy of runs.csv) is flagged and
# left out of the work profile; apgd's 1e-8 failure on s2 turned solved gives a tie for the most
# solved (the verdict's second line then compares the two).
e=$tmp/r2
mkdir -p "$e"
cp -r "$d/traces" "$d/limits.txt" "$e/"
python3 - "$d/runs.csv" "$e/runs.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
for r in rows:
    if r["label"] == "pfp":
        for c in ("block_products", "projections", "local_iters", "error_evals"):
            r[c] = "0"
    if r["label"] == "apgd" and r["tol"] == "1e-08" and r["problem"].endswith("nc5-mb-s2"):
        r["solved"] = "yes"
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader()
w.writerows(rows)
PY
run "$bin" report "$e" --json
cp "$tmp/out" "$tmp/r2.json"
python3 "$expect_py" json "$e" "$tmp/r2.json" >"$tmp/cmp" 2>&1
check "doctored runs.csv: report --json against it: $(tail -n 1 "$tmp/cmp")" \
  'grep -q "^checked [0-9]* values, 0 differ$" "$tmp/cmp" &&
   [ "$(grep -o "\"work_counters_filled\":false" "$tmp/r2.json" | wc -l)" = 2 ]'
grep '^FAIL' "$tmp/cmp" | head -5
run "$bin" report "$e"
python3 "$expect_py" verdict "$e" >"$tmp/verdict"
head -n 3 "$e/report.md" >"$tmp/head3"
check "doctored: the verdict with a tie: $(sed -n 2p "$tmp/verdict")" \
  'cmp -s "$tmp/verdict" "$tmp/head3" && grep -q "problems all of them solve\.$" "$tmp/head3"'
check "doctored: pfp flagged, not in the work profiles, still in the time profiles" \
  '[ "$rc" = 0 ] &&
   [ "$(grep -c "^\*\*Work counters not filled: not ranked by work:\*\* pfp (" "$e/report.md")" = 2 ] &&
   [ "$(head -n 1 "$e/figures/profile-work-tol0.csv")" = "tau,\"nsgs\",\"apgd\"" ] &&
   [ "$(head -n 1 "$e/figures/profile-time-tol0.csv")" = "tau,\"nsgs\",\"pfp\",\"apgd\"" ] &&
   grep -q "Work counters not filled, not ranked by work: pfp\.\*$" "$e/report.md"'

echo "cli report: $pass passed, $fail failed"
[ "$fail" = 0 ]
