#!/usr/bin/env bash
# conebench CLI: the external solver (a user's command per problem, src/bench/external.c).
# The numpy example (examples/python/apgd.py) solves FC3D_Example1 (Siconos data) and a random
# rolling3d problem as judged (solve and a campaign whose name= is the label); its cone
# projection equals `conebench project` to rounding. Commands that break the contract: garbage,
# NaN, a nonzero exit — stalled / diverged with the reason in errors.log (and on solve's
# stderr); a command that hangs is killed at the time limit (time_limit, nothing left running);
# a campaign without cmd is refused at its line, exit 2. The temporary directory is removed
# (kept with keep=1), paths with blanks are quoted, settings.json and warm_start.txt hold what
# the command needs; work.txt gives the counters. The numpy example passes `conformance`. Skips
# the numpy part, saying so, without a python3 that has numpy.
# Usage: cli_external.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
here=$(cd "$(dirname "$0")/.." && pwd)
find_data "cli external: FC3D_Example1" >/dev/null || true
example1=$data/fc3d/FC3D_Example1.dat
export TMPDIR=$tmp/t # every temporary directory of the external solver lands here
mkdir -p "$TMPDIR" "$tmp/a b"

"$bin" generate random --kind rolling3d --nc 10 --seed 1 -o "$tmp/r3.dat" \
  --solution "$tmp/r3.sol" 2>/dev/null
"$bin" generate random --kind coulomb3d --nc 4 --seed 2 -o "$tmp/c3.dat" --solution "$tmp/c3.sol" \
  2>/dev/null
awk 'NR > 1 { print $1 }' "$tmp/c3.sol" >"$tmp/c3.p"
awk 'NR > 1 { print $1 }' "$tmp/r3.sol" >"$tmp/r3.p" # p of the known solution

# --- the contract, with shell commands (no python needed) ----------------------------------
run "$bin" solve "$tmp/r3.dat" --solver external --option "cmd=cp $tmp/r3.p {solution}; printf 'iteration,time_s,error\n0,0,1\n7,0.5,1e-12\n' >{trace}" --json
check "p only + trace" 'grep -q "\"status\":\"converged\",\"solved\":true,\"iterations\":7," "$tmp/out" && [ "$rc" = 0 ]'
check "directory removed" '[ -z "$(ls "$TMPDIR")" ]'
run "$bin" solve "$tmp/r3.dat" --solver external --warm-start "$tmp/r3.sol" --tol 1e-6 \
  --option "cmd=cp {settings} '$tmp/settings.json'; cp {dir}/warm_start.txt {solution}"
check "warm start file" 'grep -q "  solved  status=converged " "$tmp/out"'
check "settings.json" '[ "$(grep -c "\"tol\": 9.9999999999999995e-07,\|\"max_iter\": 10000,\|\"time_limit\": 60,\|\"kind\": \"rolling3d\",\|\"nc\": 10,\|\"d\": 5,\|\"warm_start\": \"warm_start.txt\"," "$tmp/settings.json")" = 7 ]'
TMPDIR="$tmp/a b" run "$bin" solve "$tmp/r3.dat" --solver external --option "cmd=cp $tmp/r3.p {solution}"
check "blank in the path" 'grep -q "  solved  status=converged " "$tmp/out" && [ -z "$(ls "$tmp/a b")" ]'
run "$bin" solve "$tmp/c3.dat" --solver external --option keep=1 --option "cmd=echo kept"
check "keep=1" 'd=$(sed -n "s/^conebench: external: kept //p" "$tmp/err") && [ "$(cat "$d/stdout.txt")" = kept ] && [ -s "$d/problem.dat" ]'
rm -rf "${TMPDIR:?}"/*
run "$bin" solve "$tmp/c3.dat" --solver external --option "cmd=echo one >&2; echo 'it broke' >&2; exit 3"
check "nonzero exit" '[ "$rc" = 0 ] && grep -q " status=stalled " "$tmp/out" && [ "$(cat "$tmp/err")" = "conebench: $tmp/c3.dat: external: the command exited with status 3; stderr: one | it broke" ]'
run "$bin" solve "$tmp/c3.dat" --solver external --option "cmd=seq 11 >{solution}"
check "wrong size" '[ "$(cat "$tmp/err")" = "conebench: $tmp/c3.dat: external: solution.txt:12: 11 numbers, the problem needs nc·d = 12" ]'
run "$bin" solve "$tmp/c3.dat" --solver external --option "cmd=true"
check "no solution" '[ "$(cat "$tmp/err")" = "conebench: $tmp/c3.dat: external: solution.txt: the command wrote no solution (exit status 0)" ]'
run "$bin" solve "$tmp/c3.dat" --solver external
check "solve without cmd" '[ "$rc" = 2 ] && [ "$(cat "$tmp/err")" = "conebench: option cmd: required: the command to run, e.g. cmd=\"python3 my.py {problem} {solution}\"" ]'
run "$bin" solve "$tmp/c3.dat" --solver external --option "cmd=cp $tmp/c3.p {solution}; echo 1 2 x 4 >{work}"
check "bad work.txt" '[ "$(cat "$tmp/err")" = "conebench: $tmp/c3.dat: external: work.txt:1: want 4 counters >= 0 (block products, projections, local iterations, error evaluations)" ]'
run "$bin" solve "$tmp/c3.dat" --solver external --json --option "cmd=cp $tmp/c3.p {solution}; echo 12 5 0 3 >{work}"
check "work.txt" 'grep -q "\"work\":{\"block_products\":12,\"projections\":5,\"local_iters\":0,\"error_evals\":3}" "$tmp/out"'
# format=fclib: the command gets problem.hdf5 (FCLIB), which converts back to the same text file.
run "$bin" solve "$tmp/c3.dat" --solver external --option format=fclib --option "cmd=cp {problem} $tmp/ext.hdf5; cp {settings} $tmp/ext.json; cp $tmp/c3.p {solution}"
"$bin" convert "$tmp/ext.hdf5" "$tmp/ext.dat" 2>/dev/null
check "format=fclib" '[ "$rc" = 0 ] && grep -q "  solved  status=converged " "$tmp/out" && grep -q "\"format\": \"fclib\"" "$tmp/ext.json" && cmp -s "$tmp/ext.dat" "$tmp/c3.dat"'

# A campaign of broken commands: garbage, NaN, nonzero exit, a hang (time limit 1 s).
cat >"$tmp/bad.conf" <<EOF
name bad
problem $tmp/c3.dat
solver external name=garbage cmd="echo hello world >{solution}"
solver external name=nan cmd="for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo nan; done >{solution}"
solver external name=fails cmd="echo 'boom' >&2; exit 4"
solver external name=hangs cmd="sleep 100 & echo \$! >$tmp/sleep.pid; wait"
time-limit 1
EOF
t0=$(date +%s.%N)
run "$bin" run "$tmp/bad.conf" -o "$tmp/bad" --quiet
elapsed=$(echo "$(date +%s.%N) - $t0" | bc)
status() { awk -F, -v l="$2" '$7 == l { print $11 }' "$tmp/$1/runs.csv"; }
verdict() { awk -F, -v l="$2" '$7 == l { print $24 }' "$tmp/$1/runs.csv"; }
check "bad campaign ran" '[ "$rc" = 0 ]'
check "garbage" '[ "$(status bad garbage)" = stalled ] && grep -q "^[0-9a-f]* c3 garbage: solution.txt:1: entry 1: not a number (.hello.)$" "$tmp/bad/errors.log"'
check "nan" '[ "$(status bad nan)" = diverged ] && grep -q "^[0-9a-f]* c3 nan: solution.txt: entry 1 is not finite (nan)$" "$tmp/bad/errors.log"'
check "fails" '[ "$(status bad fails)" = stalled ] && grep -q "^[0-9a-f]* c3 fails: the command exited with status 4; stderr: boom$" "$tmp/bad/errors.log"'
check "hangs" '[ "$(status bad hangs)" = time_limit ] && ! grep -q " hangs: " "$tmp/bad/errors.log"'
# killed at the limit by the solver (TERM to its group), not by the runner's kill at 3.5 s
# (a zombie is dead: some containers' init never reaps orphans)
alive() { ps -o stat= -p "$1" 2>/dev/null | grep -qv "^Z"; }
check "hang killed" '[ -s "$tmp/sleep.pid" ] && ! alive "$(cat "$tmp/sleep.pid")"'
limit=5
[ -n "$runner" ] && limit=20 # valgrind starts slowly
check "run time" '[ "$(echo "$elapsed < $limit" | bc)" = 1 ]'
check "no directory left" '[ -z "$(ls "$TMPDIR")" ]'
printf 'problem %s\nsolver nsgs\nsolver external name=x\n' "$tmp/c3.dat" >"$tmp/nocmd.conf"
run "$bin" run "$tmp/nocmd.conf" -o "$tmp/nocmd"
check "campaign without cmd" '[ "$rc" = 2 ] && [ ! -e "$tmp/nocmd" ] && [ "$(cat "$tmp/err")" = "conebench: $tmp/nocmd.conf:3: option cmd: required: the command to run, e.g. cmd=\"python3 my.py {problem} {solution}\"" ]'

# --- the numpy example ------------------------------------------------------------------------
py=""
for c in /usr/bin/python3 python3; do
  if "$c" -c 'import numpy' 2>/dev/null; then py=$c; break; fi
done
if [ -z "$py" ]; then
  echo "cli external: numpy example: skipped: no python3 with numpy (apt-get install python3-numpy)"
else
  # its projection against conebench's, on vectors inside, outside and in the polar cone
  "$py" - "$here/examples/python" "$bin" >"$tmp/proj.txt" 2>&1 <<'EOF'
import subprocess, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import apgd
rng = np.random.default_rng(5)
for kind, (d, sizes, m) in apgd.KINDS.items():
    mus = [0.3, 0.05, 0.7][:m]
    V = rng.normal(size=(300, d)) * rng.choice([1e-3, 1, 1e3], size=(300, 1))
    V[::5, 0] = np.abs(V[::5, 0]) * 50
    args = [sys.argv[2], "project", "--kind", kind, "--mu", str(mus[0])]
    args += ["--mur", str(mus[1])] if m > 1 else []
    args += ["--mus", str(mus[2])] if m > 2 else []
    text = "\n".join(" ".join("%.17g" % x for x in v) for v in V)
    ref = np.loadtxt(subprocess.run(args, input=text, capture_output=True, text=True,
                                    check=True).stdout.splitlines())
    mine = apgd.Cone(kind, np.tile(mus, (len(V), 1))).project(V)
    worst = np.max(np.abs(mine - ref) / np.linalg.norm(V, axis=1)[:, None])
    print(kind, "ok" if worst <= 1e-14 else "differs by %g" % worst)
EOF
  check "numpy projection" '[ "$(grep -c " ok$" "$tmp/proj.txt")" = 5 ]' || cat "$tmp/proj.txt"
  cmd="$py $here/examples/python/apgd.py {problem} {solution} --settings {settings} --trace {trace} --work {work}"
  run "$bin" solve "$tmp/r3.dat" --solver external --option "cmd=$cmd" --json --trace "$tmp/tr.csv"
  check "numpy rolling3d" 'grep -q "\"solved\":true" "$tmp/out" && [ "$(tail -1 "$tmp/tr.csv" | cut -d, -f1)" -gt 0 ]'
  # its counters: one residual evaluation per trace point (the judge of every iterate)
  check "numpy work.txt" 'grep -q "\"error_evals\":$(($(wc -l < "$tmp/tr.csv") - 1))}" "$tmp/out"'
  small=()
  [ "${CONEBENCH_QUICK:-0}" = 1 ] && small=(--nc 3) # valgrind
  run "$bin" conformance external --nc 5 "${small[@]}" --option "cmd=$cmd"
  check "numpy conformance" '[ "$rc" = 0 ] && grep -q "^external: 10 of 10 checks passed$" "$tmp/out"'
  if [ -f "$example1" ]; then
    problem_line="problem $example1"
  else
    problem_line=""
    echo "cli external: FC3D_Example1: skipped: Siconos data absent ($example1; ../shared/data beside the tree or \$CONEBENCH_DATA)"
  fi
  printf '%s\ngenerate random kind=rolling3d nc=10 seeds=1\nsolver external name=pyapgd cmd="%s"\ntime-limit 120\n' \
    "$problem_line" "$cmd" >"$tmp/py.conf"
  run "$bin" run "$tmp/py.conf" -o "$tmp/py" --quiet
  check "numpy campaign" '[ "$rc" = 0 ] && [ "$(verdict py pyapgd | sort -u)" = yes ]'
  check "numpy campaign runs" '[ "$(status py pyapgd | wc -l)" = "$([ -n "$problem_line" ] && echo 2 || echo 1)" ]'
  [ -n "$problem_line" ] && check "FC3D_Example1" 'grep -Eq "^[0-9a-f]*,FC3D_Example1,.*,external,pyapgd,.*,converged,.*,yes,[^,]*,[^,]*,,,,,(,[^,]*){7}$" "$tmp/py/runs.csv"'
fi
echo "cli external: $pass passed, $fail failed"
[ "$fail" = 0 ]
