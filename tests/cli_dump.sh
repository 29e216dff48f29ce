#!/usr/bin/env bash
# conebench simulate --dump DIR: every step's CCP as DIR/step-NNNNNN.txt (Siconos text). The run
# is the same with and without it (same summary, same bits); each file reads back as the step's
# problem, the one `generate SCENARIO --steps K` writes for that step; a DIR that is a file or
# cannot be created is refused before the run: exit 2, `conebench: DIR: why`, nothing on stdout;
# so is --dump with the analytic model (no problem to write).
# Usage: cli_dump.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") # absolute: the test runs in $tmp
cd "$tmp" || exit 1

# info without the lines that name the file, its problem or hash its bytes: the problem itself.
problem_of() { "$bin" info "$1" | grep -v -e '^file:' -e '^sha256:' -e '^name:'; }
# the JSON summary without its wall time
summary() { sed 's/"time_s":[^,]*//' "$1"; }

run "$bin" simulate sphere-plane --param t_end=0.002 --json
cp out plain.json
run "$bin" simulate sphere-plane --param t_end=0.002 --json --dump d
check "--dump runs" '[ "$rc" = 0 ]'
check "the same run with and without --dump" '[ "$(summary out)" = "$(summary plain.json)" ]'
check "one file a step, zero-padded, in order" \
  '[ "$(ls d | wc -l)" = 20 ] && [ "$(ls d | head -1)" = step-000001.txt ] && [ "$(ls d | tail -1)" = step-000020.txt ]'
"$bin" generate sphere-plane --steps 7 -o g >/dev/null 2>&1
check "step 7 is generate's step 7" \
  '[ -n "$(problem_of d/step-000007.txt)" ] && [ "$(problem_of d/step-000007.txt)" = "$(problem_of g/sphere-plane-step7.dat)" ]'
check "a dumped step reads as a rolling3d problem of one contact" \
  'problem_of d/step-000020.txt | grep -qx "nc: 1" && problem_of d/step-000020.txt | grep -qx "kind: rolling3d"'

touch afile
run "$bin" simulate sphere-plane --param t_end=0.002 --dump afile
check "a file as DIR: exit 2, said, before the run" \
  '[ "$rc" = 2 ] && grep -qx "conebench: afile: not a directory" err && [ ! -s out ]'
run "$bin" simulate sphere-plane --param t_end=0.002 --dump no/such/dir
check "a DIR that cannot be created: exit 2, said, before the run" \
  '[ "$rc" = 2 ] && grep -q "^conebench: no/such/dir: cannot create" err && [ ! -s out ] && [ ! -e no ]'
run "$bin" simulate sphere-plane --model analytic --dump d2
check "--model analytic has nothing to dump: exit 2, said" \
  '[ "$rc" = 2 ] && grep -qx "conebench: --dump: only the nonsmooth model has problems to write" err && [ ! -e d2 ]'
echo "cli dump: $pass passed, $fail failed"
[ "$fail" = 0 ]
