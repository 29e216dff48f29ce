#!/usr/bin/env bash
# Sequence campaigns (`sequence` and `warm-start` lines): a small pile pour (contacts appear and
# vanish: 12 to 16 a step), 41 consecutive steps while it settles (from t = 0.7 s: earlier, while
# spheres still land, a warm start gains nothing on many steps and loses on others), run by nsgs
# cold, previous and mapped. Asserts from runs.csv: one row per step file of the sequence for
# each run, the sequence row's totals (iterations, time, work, unsolved
# steps, verdict, worst error) equal to what its step rows add up to, every step's verdict the
# one `conebench error` gives on its written solution, warm-started nsgs (previous and mapped)
# needing fewer iterations in all than cold; --resume runs nothing again; two shards merge into
# the same rows; report draws the sequence. Mistakes (a bad warm-start word, a folder that is
# not a sequence) are exit 2 naming FILE:LINE before any work; an absent folder is skipped
# with a note. Usage: cli_sequences.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") # absolute: the test runs in $tmp
py=/usr/bin/python3
cd "$tmp" || exit 1

tol=1e-6
cat >seq.conf <<EOF
name seq-test
sequence scenario sphere-pile n=20 t_end=1 steps=700:740:1
solver nsgs
tol $tol
warm-start cold previous mapped
time-limit 10
EOF
run "$bin" run seq.conf -o res --solutions --quiet
check "run: exit 0" '[ "$rc" = 0 ]'
steps=$(ls res/problems/seq-*/*.dat 2>/dev/null | wc -l)
check "the scenario's steps are written with their ids" '[ "$steps" -gt 20 ] &&
  [ "$(ls res/problems/seq-*/*.ids | wc -l)" = "$steps" ]'

# The rows against each other (csv module: fields as written).
cat >rows.py <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
nsteps, failures = int(sys.argv[2]), []
seq = [r for r in rows if r["sequence"] and not r["step"]]
it = {}
for s in seq:
    st = [r for r in rows if r["sequence_run"] == s["run_id"]]
    unsolved = sum(r["solved"] == "no" for r in st)
    if len(st) != nsteps or len({r["step"] for r in st}) != nsteps:
        failures.append("%s: %d step rows for %d steps" % (s["warm_start"], len(st), nsteps))
    for col in ("iterations", "block_products", "projections", "error_evals"):
        if int(s[col]) != sum(int(r[col]) for r in st):
            failures.append("%s: %s is not the sum of the steps'" % (s["warm_start"], col))
    for col in ("time_s", "time_cpu_s"):
        t = sum(float(r[col]) for r in st)
        if not t > 0 or abs(float(s[col]) - t) > 1e-6 * t:
            failures.append("%s: %s %s, steps add up to %g" % (s["warm_start"], col, s[col], t))
    if int(s["steps_unsolved"]) != unsolved or (s["solved"] == "yes") != (unsolved == 0):
        failures.append("%s: steps_unsolved/solved disagree with the steps" % s["warm_start"])
    if float(s["error_data"]) != max(float(r["error_data"]) for r in st):
        failures.append("%s: error_data is not the worst step's" % s["warm_start"])
    it[s["warm_start"]] = {r["step"]: (int(r["iterations"]), r["solved"] == "yes") for r in st}
# warm against cold over the steps every mode solved (a step no Gauss-Seidel solves, which a
# last-bit change of the simulated pile can bring into the sequence, counts for none)
common = [k for k in it.get("cold", {}) if all(k in m and m[k][1] for m in it.values())]
it = {w: sum(m[k][0] for k in common) for w, m in it.items()}
if sorted(it) != ["cold", "mapped", "previous"] or len(common) < nsteps // 2:
    failures.append("sequence rows for %s, %d steps solved by all" % (sorted(it), len(common)))
elif not (it["previous"] < it["cold"] and it["mapped"] < it["cold"]):
    failures.append("iterations cold %(cold)d, previous %(previous)d, mapped %(mapped)d" % it)
print("\n".join(failures) or "ok")
print(" ".join("%s %d" % (k, it[k]) for k in sorted(it)))
EOF
check "step rows and sequence totals agree; warm starts need fewer iterations" \
  '$py rows.py res/runs.csv "$steps" >rows.txt; head -1 rows.txt | grep -qx ok || { cat rows.txt; false; }'
echo "cli_sequences: nsgs total iterations: $(sed -n 2p rows.txt)"

# Every step's verdict is the one `conebench error` gives on its solution.
$py - res/runs.csv >steps.txt <<'EOF'
import csv, sys, glob
for r in csv.DictReader(open(sys.argv[1])):
    if r["step"]:
        f = glob.glob("res/problems/seq-*/%s.dat" % r["problem"])
        print(r["run_id"], f[0] if f else "missing", r["solved"])
EOF
agree=0 disagree=0
while read -r id file solved; do
  judged=$("$bin" error "$file" --solution "res/solutions/$id.sol.gz" --tol "$tol" |
           sed -n 's/.*"solved":\(true\|false\).*/\1/p')
  if { [ "$solved" = yes ] && [ "$judged" = true ]; } || { [ "$solved" = no ] && [ "$judged" = false ]; }
  then agree=$((agree + 1)); else disagree=$((disagree + 1)); echo "step $id ($file): row $solved, error $judged"; fi
done <steps.txt
check "every step's verdict is conebench error's" '[ "$disagree" = 0 ] && [ "$agree" = $((3 * steps)) ]'

# The same steps as a `sequence DIR` line: the same iterations step by step (deterministic).
cp -r res/problems/seq-* pilecopy
printf 'sequence pilecopy\nsolver nsgs\ntol %s\nwarm-start mapped\n' "$tol" >dir.conf
run "$bin" run dir.conf -o dirres --quiet
steps_of() { awk -F, -v m="$2" 'NR > 1 && $28 != "" && $29 == m { print $28, $12, $24 }' "$1" | sort -n; }
check "sequence DIR: the scenario's steps, the same iterations" '[ "$rc" = 0 ] &&
  [ "$(steps_of dirres/runs.csv mapped | wc -l)" = "$steps" ] &&
  [ "$(steps_of dirres/runs.csv mapped)" = "$(steps_of res/runs.csv mapped)" ]'

rows=$(wc -l <res/runs.csv)
run "$bin" run seq.conf -o res --resume --solutions --quiet
check "--resume: nothing to run again" '[ "$rc" = 0 ] && [ "$(wc -l <res/runs.csv)" = "$rows" ]'
run "$bin" status res
check "status: every run done" '[ "$rc" = 0 ] && grep -q "3/3 runs done" out'

for i in 0 1; do
  run "$bin" run seq.conf -o "shard$i" --shard "$i/2" --quiet
done
run "$bin" merge merged shard0 shard1
check "two shards merge into the same rows" '[ "$rc" = 0 ] &&
  [ "$(cut -d, -f1 merged/runs.csv | sort)" = "$(cut -d, -f1 res/runs.csv | sort)" ]'

if command -v gnuplot >/dev/null; then
  run "$bin" report res
  check "report: the sequence's verdict line, totals and figure" '[ "$rc" = 0 ] &&
    grep -q "Fastest through the whole sequence with every step solved: nsgs" res/report.md &&
    [ -s res/figures/seq-tol1e-06-sphere-pile-n_20-t_end_1.png ]'
else
  echo "cli_sequences: report skipped: gnuplot not found"
fi

# The Siconos adapter takes the warm start: siconos-nsgs from the previous step's answer needs
# fewer iterations in all than from 0 (three spheres at rest: the same problem step after step).
if have_siconos cli_sequences; then
  printf 'sequence scenario three-spheres steps=1:2000:100\nsolver siconos-nsgs\ntol 1e-8\nwarm-start cold previous\n' >sic.conf
  run "$bin" run sic.conf -o sic --quiet
  # the sequence rows (sequence set, step empty): warm_start and iterations
  cold=$(awk -F, 'NR > 1 && $27 != "" && $28 == "" && $29 == "cold" { print $12 }' sic/runs.csv)
  prev=$(awk -F, 'NR > 1 && $27 != "" && $28 == "" && $29 == "previous" { print $12 }' sic/runs.csv)
  echo "cli_sequences: siconos-nsgs total iterations: cold $cold previous $prev"
  check "siconos-nsgs warm-started: fewer iterations than cold" '[ "$rc" = 0 ] &&
    [ -n "$cold" ] && [ -n "$prev" ] && [ "$prev" -lt "$cold" ]'
fi

# Mistakes: exit 2 naming the line, nothing created.
bad() {
  printf "$2" >bad.conf
  rm -rf badres
  line=$3
  run "$bin" run bad.conf -o badres --quiet
  check "$1" '[ "$rc" = 2 ] && grep -qE "^conebench: bad\.conf:$line: " "$tmp/err" && [ ! -e badres ]'
}
mkdir -p notseq && echo hello >notseq/readme.txt
bad "a bad warm-start word" 'solver nsgs\n\nwarm-start cold warm\n' 3
bad "a folder that is not a sequence" 'solver nsgs\n\nsequence notseq\n' 3
bad "warm-start given twice" 'solver nsgs\nwarm-start cold\nwarm-start mapped\n' 3
mkdir -p noids && cp res/problems/seq-*/sphere-pile-step700.dat noids/
bad "mapped without contact ids" 'solver nsgs\nsequence noids\nwarm-start mapped\n' 2
check "mapped without contact ids: the step named" 'grep -q "step 700 has no contact identities" "$tmp/err"'
printf 'solver nsgs\nsequence scenes/absent-scene\ngenerate random kind=coulomb3d nc=3 seeds=1\n' >skip.conf
run "$bin" run skip.conf -o skipres --quiet
check "an absent sequence folder is skipped with a note" '[ "$rc" = 0 ] &&
  grep -q "note: sequence folder scenes/absent-scene (skip.conf:2) is absent" err &&
  [ "$(wc -l <skipres/runs.csv)" = 2 ]'

# A results folder of the 25-column layout (written before the sequence columns) still reads.
cp -r skipres oldres
cut -d, -f1-25 skipres/runs.csv >oldres/runs.csv
run "$bin" status oldres
check "status reads a 25-column runs.csv" '[ "$rc" = 0 ] && grep -q "1/1 runs done" out'
run "$bin" report oldres --json
check "report reads a 25-column runs.csv" '[ "$rc" = 0 ] && grep -q "\"runs\":1," out'

echo "cli_sequences: $pass passed, $fail failed"
[ "$fail" = 0 ]
