#!/usr/bin/env bash
# The game-engine adapters (bullet-*, dart-*) from the command line: `list solvers` shows the
# ones `version` says are built; `conformance` passes each, reporting as "cannot" (with the
# reason) only the checks that need the exact cone's answer (warm_start, known), exit 0; on a
# one-contact problem whose tangential load is along the diagonal, `solve --json` says not
# solved where nsn says solved; a reduced engines campaign's report section agrees with its
# runs.csv, and `error` on a run's solution file gives its row's gap columns. Skips, saying so, the engines that are not built (make BULLET=0 / DART=0).
# Usage: cli_engines.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"

run "$bin" version
cp "$tmp/out" "$tmp/version"
"$bin" list solvers >"$tmp/list"
solvers=""
for eng in bullet dart; do
  if grep -q "^$eng adapters: built" "$tmp/version"; then
    names=$(sed -n "s/^$eng adapters: built (\(.*\))$/\1/p" "$tmp/version" | sed 's/, / /g')
    solvers="$solvers $names"
  else
    echo "cli engines: $eng: skipped: built without it (make $(echo $eng | tr a-z A-Z)=0)"
  fi
done
[ -z "$solvers" ] && { echo "cli engines: skipped: no engine adapter built"; exit 0; }
check "version: the three Bullet adapters when built" \
  '! grep -q "^bullet adapters: built" "$tmp/version" ||
   grep -q "^bullet adapters: built (bullet-dantzig, bullet-pgs, bullet-lemke)$" "$tmp/version"'
check "version: the two DART adapters when built" \
  '! grep -q "^dart adapters: built" "$tmp/version" ||
   grep -q "^dart adapters: built (dart-dantzig, dart-pgs)$" "$tmp/version"'

for s in $solvers; do
  check "list solvers shows $s" 'grep -q "^$s " "$tmp/list"'
  run "$bin" conformance "$s"
  check "conformance $s: exit 0" '[ "$rc" = 0 ]'
  check "conformance $s: no FAIL" '! grep -q " FAIL " "$tmp/out"'
  check "conformance $s: cannot only where the exact answer is needed" \
    '! grep -E "^  [a-z_]+ +cannot" "$tmp/out" | grep -vqE "^  (warm_start|known) "'
  check "conformance $s: the reason" \
    '! grep -q " cannot " "$tmp/out" || grep -q "cannot pass (it solves the engine.s model, not the exact cone" "$tmp/out"'
done

# One contact, W = diag(2, 1, 1), q = (-4, 1.5, 1.5), mu = 0.3 (Siconos text, dense BSR
# block): sliding along the diagonal. nsn finds the exact cone's answer (solved); the engines
# stop at the box's corner, judged not solved with the closed-form error 0.05257... of that
# corner (tests/test_engines.c derives it).
printf '3\n1\n1\n3\n3\n1\n1\n1\n3\t\n3\t\n2\n1\n0\t1\t\n0\t\n0\n2\n0\n0\n0\n1\n0\n0\n0\n1\n-4 1.5 1.5 \n0.3 \n' \
  >"$tmp/diag.dat"
run "$bin" solve "$tmp/diag.dat" --solver nsn --json
check "diagonal sliding: nsn solved" 'grep -q "\"solved\":true" "$tmp/out"'
for s in $solvers; do
  run "$bin" solve "$tmp/diag.dat" --solver "$s" --json
  check "diagonal sliding: $s judged not solved" '[ "$rc" = 0 ] && grep -q "\"solved\":false" "$tmp/out"'
  # bullet-lemke's bound is mu itself (it ignores limitDependency): another point, another error
  [ "$s" = bullet-lemke ] ||
    check "diagonal sliding: $s: the error of the box corner" 'grep -q "\"error_data\":0\.05257" "$tmp/out"'
done
# The engines campaign, reduced (random coulomb3d only, two mu, two seeds; seconds): the report
# has its section; a median and a largest value of the table recomputed from runs.csv; each
# row's cone_violation is the box's sqrt(2) - 1 at most for the PGS solvers on these problems
# (their bounds are mu r_N per component), and that value is reached by one of them.
camp="name engines-small
generate random kind=coulomb3d nc=10 mu=0.3 seeds=1..2
generate random kind=coulomb3d nc=10 mu=1 seeds=1..2
tol 1e-8
max-iter 1000
time-limit 5
solver nsn"
for s in $solvers; do camp="$camp
solver $s"; done
echo " $solvers " | grep -q " dart-pgs " && camp="$camp
solver dart-pgs facets=8 label=dart-pgs-facets8"
grep -q '^siconos adapters: built' "$tmp/version" && camp="$camp
solver siconos-nsgs"
printf '%s\n' "$camp" >"$tmp/engines.conf"
run "$bin" run "$tmp/engines.conf" -o "$tmp/eng" --quiet --solutions
check "engines campaign: exit 0" '[ "$rc" = 0 ]'
figs=--no-figures
command -v gnuplot >/dev/null && figs=
run "$bin" report "$tmp/eng" $figs
md=$tmp/eng/report.md
check "report: the engines section" '[ "$rc" = 0 ] && grep -q "^## Game-engine solvers on the exact cone (tol 1e-08)$" "$md"'
first=$(echo $solvers | cut -d' ' -f1)
# problem (2), label (7), error_data (25), cone_violation (32) of first's runs at mu = 0.3
rows=$(awk -F, -v s="$first" 'NR > 1 && $7 == s && $2 ~ /-mu0\.3-/ { print $25, $32 }' "$tmp/eng/runs.csv")
viol_med=$(echo "$rows" | awk '{ v[NR] = $2 } END { printf "%.3e", (v[1] + v[2]) / 2 }')
err_max=$(echo "$rows" | awk '{ m = NR == 1 || $1 > m ? $1 : m } END { printf "%.3e", m }')
cell=$(grep "^| random, μ = 0.3 | $first | " "$md")
check "report: $first at mu = 0.3: 2 runs, the median violation $viol_med and largest error_data $err_max of runs.csv ($cell)" \
  '[ "$(echo "$rows" | wc -l)" = 2 ] && echo "$cell" | awk -F" [|] " -v v="$viol_med" -v e="$err_max" "{ exit !(\$3 == 2 && \$6 == e && \$7 == v) }"'
check "report: nsn at mu = 1: 2 runs, both solved" 'grep -q "^| random, μ = 1 | nsn | 2 | 2 | " "$md"'
# conebench error on a row's solution file gives the row's gap columns (32-38)
row=$(awk -F, -v s="$first" 'NR > 1 && $7 == s && $2 ~ /-mu1-s1$/' "$tmp/eng/runs.csv")
id=$(echo "$row" | cut -d, -f1)
prob=$(echo "$row" | cut -d, -f2)
sol=$(ls "$tmp/eng/solutions/$id".sol* 2>/dev/null | head -1)
run "$bin" error "$tmp/eng/problems/$prob.dat" --solution "$sol"
got=$(sed 's/.*"cone_violation":\([^,]*\),.*"angle_max":\([^,]*\),.*"positive_work":\([^}]*\)}.*/\1 \2 \3/' "$tmp/out")
want=$(echo "$row" | awk -F, '{ print $32, ($35 == "" ? "null" : $35), $38 }')
check "error on $first's solution ($prob): the row's cone_violation, angle_max, positive_work ($want; got $got)" \
  '[ "$rc" = 0 ] && [ -n "$want" ] && echo "$got $want" | awk "{ for (i = 1; i <= 3; i++) if (\$i != \$(i + 3) && (\$i - \$(i + 3))^2 > (1e-12 * \$(i + 3))^2) exit 1 }"'
pgs=$(awk -F, 'NR > 1 && $7 ~ /-pgs$/ { print $32 }' "$tmp/eng/runs.csv")
check "runs.csv: the PGS solvers' violations within sqrt(2) - 1, reached" \
  '[ -n "$pgs" ] && echo "$pgs" | awk "{ m = \$1 > m ? \$1 : m; if (\$1 > sqrt(2) - 1 + 1e-12) bad = 1 } END { exit bad || m < sqrt(2) - 1 - 1e-12 }"'
if echo " $solvers " | grep -q " dart-pgs "; then # the 8-facet pyramid: within 1/cos(pi/8) - 1
  p8=$(awk -F, 'NR > 1 && $7 == "dart-pgs-facets8" { print $32 }' "$tmp/eng/runs.csv")
  check "runs.csv: dart-pgs facets=8: every violation in (0, 1/cos(pi/8) - 1]" \
    '[ "$(echo "$p8" | wc -l)" = 4 ] && echo "$p8" | awk "{ if (!(\$1 > 0 && \$1 <= 1 / cos(atan2(0, -1) / 8) - 1 + 1e-12)) bad = 1 } END { exit bad }"'
  check "report: the dart-pgs-facets8 row (2 runs at mu = 1)" 'grep -q "^| random, μ = 1 | dart-pgs-facets8 | 2 | " "$md"'
fi
if [ -z "$figs" ]; then
  check "report: the figure against mu" '[ -s "$tmp/eng/figures/engines.png" ] && grep -q "](figures/engines.png)" "$md"'
else
  echo "cli engines: the figure: skipped: no gnuplot"
fi
echo "cli engines: $pass passed, $fail failed"
[ "$fail" = 0 ]
