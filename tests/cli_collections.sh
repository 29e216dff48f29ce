#!/usr/bin/env bash
# conebench CLI: campaigns over a user's folder of problem files (man conebench, FILES). A `**`
# pattern component reaches files at every depth (and only those its tail matches); a folder
# holding files that do not read stops the campaign before anything runs, exit 2, every bad file
# named on its own line with its reader's error and nothing written; with `skip-unreadable` the
# others run, the skipped files and reasons are in DIR/skipped.txt, on stderr and in the report,
# and status / --resume count the runs of the readable files only; `solutions on` keeps every
# run's final iterate, which `conebench error` judges exactly as its row (verdict, error_data).
# The problems are generated here (no data folder needed).
# Usage: cli_collections.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$tmp" || exit 1
mkdir -p coll/a/b coll/.hidden
"$bin" generate random --kind coulomb3d --nc 3 --seed 1 -o coll/top.dat >/dev/null
"$bin" generate random --kind rolling3d --nc 4 --seed 2 -o coll/a/mid.dat >/dev/null
"$bin" generate random --kind coulomb3d --nc 2 --seed 3 -o coll/a/b/deep.dat >/dev/null
"$bin" generate random --kind coulomb3d --nc 2 --seed 4 -o coll/a/b/deep2.hdf5 >/dev/null
cp coll/top.dat coll/.hidden/hidden.dat
printf '3\n' >coll/a/b/notes.txt
conf() { # conf NAME PATTERN [EXTRA-LINE]
  printf 'name %s\nproblem %s\nsolver nsn\ntol 1e-8\n%s\n' "$1" "$2" "${3:-}" >"$1.conf"
}

# --- ** at every depth, only what its tail matches ----------------------------------------------
conf deep 'coll/**/*.dat'
run "$bin" run deep.conf -o r-deep --quiet
check "** finds 3 .dat at depths 0-2" '[ "$rc" = 0 ] && [ "$(tail -n +2 r-deep/runs.csv | wc -l)" = 3 ]'
check "** names them by their path below the root" 'for p in top a/mid a/b/deep; do cut -d, -f2 r-deep/runs.csv | grep -qx "$p" || return 1; done'
check "** skips hidden folders, other extensions" '! grep -q "hidden\|notes" r-deep/runs.csv'
check "status: 3 of 3 runs" '"$bin" status r-deep | grep -q "3/3 runs done"'
conf tail2 'coll/**/b/*' skip-unreadable
run "$bin" run tail2.conf -o r-tail --quiet
check "**/b/*: the files of b only, any format" '[ "$rc" = 0 ] && [ "$(tail -n +2 r-tail/runs.csv | wc -l)" = 2 ] && cut -d, -f2 r-tail/runs.csv | grep -qx "a/b/deep2"'
check "**/b/*: notes.txt skipped" 'grep -q "^coll/a/b/notes.txt	" r-tail/skipped.txt'
conf none 'coll/**/*.xyz'
run "$bin" run none.conf -o r-none --quiet
check "** matching nothing: exit 2 naming the pattern" '[ "$rc" = 2 ] && grep -q "none.conf:2: no file matches .coll/\*\*/\*.xyz." "$tmp/err"'

# --- unreadable files: every one named, nothing run -----------------------------------------------
echo "ACinputs: not a problem" >coll/a/ACinputs.dat
printf '3\n1\n' >coll/a/b/broken.dat
conf strict 'coll/**/*.dat'
run "$bin" run strict.conf -o r-strict --quiet
check "exit 2 before anything runs" '[ "$rc" = 2 ] && [ ! -e r-strict ]'
check "both bad files named, each with its reader's error" 'grep -q "^conebench: strict.conf:2: coll/a/ACinputs.dat:1: " "$tmp/err" && grep -q "^conebench: strict.conf:2: coll/a/b/broken.dat:2: " "$tmp/err"'
check "their count and the way out" 'grep -q "2 problem files do not read (.skip-unreadable. in the campaign runs the others)" "$tmp/err"'

# --- skip-unreadable -------------------------------------------------------------------------
conf skip 'coll/**/*.dat' skip-unreadable
run "$bin" run skip.conf -o r-skip --quiet
check "the others run" '[ "$rc" = 0 ] && [ "$(tail -n +2 r-skip/runs.csv | wc -l)" = 3 ]'
check "skipped.txt: both, with reasons" '[ "$(wc -l <r-skip/skipped.txt)" = 2 ] && grep -q "^coll/a/ACinputs.dat	coll/a/ACinputs.dat:1: " r-skip/skipped.txt && grep -q "^coll/a/b/broken.dat	coll/a/b/broken.dat:2: " r-skip/skipped.txt'
check "listed on stderr" 'grep -q "2 problem files did not read and are skipped" "$tmp/err" && grep -q "^conebench:   coll/a/b/broken.dat: " "$tmp/err"'
run "$bin" report r-skip --no-figures
check "report: Skipped files table" '[ "$rc" = 0 ] && grep -q "^## Skipped files" r-skip/report.md && grep -q "^| coll/a/ACinputs.dat | coll/a/ACinputs.dat:1: " r-skip/report.md'
check "report: not incomplete" '! grep -q "incomplete" r-skip/report.md'
run "$bin" status r-skip
check "status counts the readable files' runs" 'grep -q "3/3 runs done" "$tmp/out"'
run "$bin" run skip.conf -o r-skip --resume --quiet
check "resume: nothing left to run" '[ "$rc" = 0 ] && [ "$(tail -n +2 r-skip/runs.csv | wc -l)" = 3 ] && grep -q "(3 already done)" "$tmp/err"'
conf value 'coll/**/*.dat' 'skip-unreadable yes'
run "$bin" run value.conf -o r-value --quiet
check "skip-unreadable takes no value" '[ "$rc" = 2 ] && grep -q "value.conf:5: skip-unreadable: takes no value" "$tmp/err"'

# --- solutions on: every run's final iterate, judged as its row says ----------------------------
conf keep 'coll/**/*.dat' "$(printf 'skip-unreadable\nsolutions on')"
run "$bin" run keep.conf -o r-keep --quiet
check "solutions on: one file a run" '[ "$rc" = 0 ] && [ "$(ls r-keep/solutions | wc -l)" = 3 ]'
judged_as_rows() { # every row's verdict and error_data = conebench error on its kept solution
  local hdr col_id col_solved col_err n=0 f id out solved err
  hdr=$(head -1 r-keep/runs.csv | tr , '\n')
  col_id=$(echo "$hdr" | grep -nx run_id | cut -d: -f1)
  col_solved=$(echo "$hdr" | grep -nx solved | cut -d: -f1)
  col_err=$(echo "$hdr" | grep -nx error_data | cut -d: -f1)
  while IFS=, read -r -a f; do
    id=${f[$((col_id - 1))]}
    out=$("$bin" error "coll/${f[1]}.dat" --solution "r-keep/solutions/$id.sol.gz" --tol 1e-8) || return 1
    solved=$(echo "$out" | sed -n 's/.*"solved":\(true\|false\).*/\1/p')
    err=$(echo "$out" | sed -n 's/.*"error_data":\([^,}]*\).*/\1/p')
    [ "$solved" = "$([ "${f[$((col_solved - 1))]}" = yes ] && echo true || echo false)" ] || return 1
    awk -v a="$err" -v b="${f[$((col_err - 1))]}" 'BEGIN { exit !(a + 0 == b + 0) }' || return 1
    n=$((n + 1))
  done < <(tail -n +2 r-keep/runs.csv)
  [ "$n" = 3 ]
}
check "solutions on: each judged as its row (solved, error_data)" judged_as_rows
conf bad 'coll/**/*.dat' 'solutions maybe'
run "$bin" run bad.conf -o r-bad --quiet
check "solutions: on or off" '[ "$rc" = 2 ] && grep -q "bad.conf:5: solutions: on or off" "$tmp/err"'

# --- 2D-only and 3D-only solvers in one campaign: profiles per cone kind, none over an empty set ---
if have_siconos "cli collections: per-kind profiles"; then
  # one μ for every contact: siconos-fc2d-lemke takes no other coulomb2d problem
  printf 'name mixed\ngenerate random kind=coulomb2d nc=3 seeds=1..2 mu=0.5\ngenerate random kind=coulomb3d nc=5 seeds=1..2\nsolver nsgs\nsolver siconos-fc2d-lemke\nsolver siconos-nsn-ac\ntol 1e-8\n' >mixed.conf
  run "$bin" run mixed.conf -o r-mix --quiet
  run "$bin" report r-mix
  check "mixed kinds: no profile over all (no problem every solver takes)" '[ "$rc" = 0 ] && grep -q "^(none over all problems" r-mix/report.md'
  check "mixed kinds: a profile section per kind" 'grep -q "^##### Profiles on the coulomb2d problems (2 of them, 2 solvers" r-mix/report.md && grep -q "^##### Profiles on the coulomb3d problems (2 of them, 2 solvers" r-mix/report.md'
  # each kind's time profile: its own solvers only, 2 problems, and every curve ends at 1 (all solved)
  per_kind() {
    local k=$1 a=$2 b=$3 f=r-mix/figures/profile-time-tol0-$1.csv
    [ -s "$f" ] && [ -s "r-mix/figures/profile-time-tol0-$k.png" ] || return 1
    head -1 "$f" | grep -q "$a" && head -1 "$f" | grep -q "$b" || return 1
    ! head -1 "$f" | grep -q "$4" || return 1
    tail -1 "$f" | awk -F, '{ for (i = 2; i <= NF; i++) if ($i + 0 != 1) exit 1 }'
  }
  check "coulomb2d profile: nsgs and fc2d-lemke, not nsn-ac" 'per_kind coulomb2d nsgs siconos-fc2d-lemke siconos-nsn-ac'
  check "coulomb3d profile: nsgs and nsn-ac, not fc2d-lemke" 'per_kind coulomb3d nsgs siconos-nsn-ac siconos-fc2d-lemke'
fi

echo "cli collections: $pass passed, $fail failed"
[ "$fail" = 0 ]
