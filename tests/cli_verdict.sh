#!/usr/bin/env bash
# One verdict everywhere. A campaign over random problems (the drifting multibody coulomb3d
# nc 200 seed 1 among them) and Siconos data files (when ../shared/data or $CONEBENCH_DATA is
# there: FC3D_Example1, Rover1039 and LMGC_100, whose solutions are the largest against the
# data's scale, rockfall_14, Capsules, the fc2d granular step with ‖q‖ ~ 4e-18, a global
# GFC3D file), every solver, two tolerances and a low iteration cap so that verdicts of both
# kinds occur, run with --solutions: for every judged row, `conebench error` on the written
# solution gives the row's verdict (solved yes/no) and the same error_data, bit for bit.
# solve --json and error agree on the drift case of coulomb3d nc 200 seed 1 (nsn stopped at 9
# steps: not solved); on the fc2d step, p = 0 is solved and p = 1 is not.
# Usage: cli_verdict.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
rc=0
here=$(cd "$(dirname "$0")/.." && pwd)
data=${CONEBENCH_DATA:-$here/../shared/data}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") # absolute: the test runs in $tmp
cd "$tmp" || exit 1

"$bin" generate random --kind coulomb3d --nc 200 --seed 1 -o drift.dat 2>/dev/null
"$bin" generate random --kind rolling3d --nc 60 --seed 2 -o mb.dat 2>/dev/null
"$bin" generate random --kind coulomb3d --nc 40 --seed 3 --matrix spd --cond 1e6 -o spd.dat 2>/dev/null
"$bin" generate random --kind rollspin3d --nc 30 --seed 4 -o spin.dat 2>/dev/null
problems="$tmp/drift.dat $tmp/mb.dat $tmp/spd.dat $tmp/spin.dat"
for f in fc3d/FC3D_Example1.dat fc3d/Rover1039.dat fc3d/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5 \
  rolling/rockfall_14_25792.dat fc3d/Capsules-i100-1090.dat \
  fc2d/fc2d_granularflowonwall_00667_00000.dat global/GFC3D_TwoRods1.dat; do
  if [ -f "$data/$f" ]; then problems="$problems $data/$f"; else
    echo "cli verdict: $f: skipped: Siconos data absent ($data; set CONEBENCH_DATA)"; fi
done
solvers="nsgs pfp apgd admm nsn ipm"
"$bin" version | grep -q '^siconos adapters: built' && solvers="$solvers siconos-nsgs siconos-nsn-ac"
{
  printf 'name verdict\nproblem %s\n' "$problems"
  for s in $solvers; do printf 'solver %s\n' "$s"; done
  printf 'tol 1e-6 1e-10\nmax-iter 60\ntime-limit 20\n'
} >v.conf
run "$bin" run v.conf -o res --quiet --jobs 2 --solutions
check "campaign: exit 0" '[ "$rc" = 0 ]'

# path_of NAME: the problem file of a row (the campaign names a file by its base name).
path_of() { for p in $problems; do b=${p##*/}; [ "${b%.*}" = "$1" ] && echo "$p" && return; done; }
rows=0 agree=0 yes=0 no=0 mismatch=""
while IFS=, read -r id name tol status solved edata; do
  [ "$status" = unsupported ] || [ "$status" = crashed ] && continue
  rows=$((rows + 1))
  [ "$solved" = yes ] && yes=$((yes + 1)) || no=$((no + 1))
  out=$("$bin" error "$(path_of "$name")" --solution "res/solutions/$id.sol.gz" --tol "$tol" 2>&1)
  v=$(echo "$out" | sed -n 's/.*"solved":\([a-z]*\).*/\1/p')
  e=$(echo "$out" | sed -n 's/.*"error_data":\([^,]*\),.*/\1/p')
  if { [ "$v" = true ] && [ "$solved" = yes ]; } || { [ "$v" = false ] && [ "$solved" = no ]; }; then
    [ "$e" = "$edata" ] && agree=$((agree + 1)) && continue
  fi
  mismatch="$mismatch $id($name,tol $tol: row $solved $edata, error $v $e)"
done < <(tail -n +2 res/runs.csv | awk -F, -v OFS=, '{ print $1, $2, $9, $11, $24, $25 }')
echo "cli verdict: $rows judged rows ($yes solved, $no not solved), $agree agree with conebench error"
check "every row's verdict = error's verdict on its solution:$mismatch" '[ -z "$mismatch" ] && [ "$rows" -gt 0 ] && [ "$agree" = "$rows" ]'
check "both verdicts occur" '[ "$yes" -gt 0 ] && [ "$no" -gt 0 ]'
check "every judged run has its solution file" '[ "$(ls res/solutions | wc -l)" = "$rows" ]'

# The drift case: nsn stopped at 9 steps on the rank-deficient multibody problem.
run "$bin" solve drift.dat --solver nsn --tol 1e-6 --max-iter 9 --json --solution d9.sol
check "drift: solve says not solved" '[ "$rc" = 0 ] && grep -q "\"status\":\"max_iter\",\"solved\":false" out'
run "$bin" error drift.dat --solution d9.sol --tol 1e-6
check "drift: error says not solved" '[ "$rc" = 0 ] && grep -q "\"solved\":false" out'

fc2d=$data/fc2d/fc2d_granularflowonwall_00667_00000.dat
if [ -f "$fc2d" ]; then
  nc=$("$bin" info "$fc2d" | sed -n 's/^nc: //p')
  { echo "$nc 2"; for ((i = 0; i < 2 * nc; i++)); do echo "0 0"; done; } >zero.sol
  { echo "$nc 2"; for ((i = 0; i < 2 * nc; i++)); do echo "1 0"; done; } >one.sol
  run "$bin" error "$fc2d" --solution zero.sol --tol 1e-8
  check "fc2d |q| ~ 4e-18: p = 0 solved" 'grep -q "\"solved\":true" out'
  run "$bin" error "$fc2d" --solution one.sol --tol 1e-8
  check "fc2d |q| ~ 4e-18: p = 1 not solved" 'grep -q "\"solved\":false" out'
else
  echo "cli verdict: fc2d granular step: skipped: Siconos data absent ($data; set CONEBENCH_DATA)"
fi
echo "cli verdict: $pass passed, $fail failed"
[ "$fail" = 0 ]
