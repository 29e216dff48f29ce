#!/usr/bin/env bash
# conebench reference, the runs.csv column dist_ref and solve --json's dist_ref. A random
# problem with an SPD W (unique p*): the reference is within 1e-9 of the generator's known
# solution (its own file) and judged error <= 1e-12, unique=yes; a random multibody problem
# with more contact rows than body dofs
# (W singular) says unique=no. A campaign with a `references` line writes dist_ref for the
# first (small for nsn, equal to the distance computed here from the files) and leaves it empty
# for the second; a FILE.ref of another problem is ignored, said in errors.log; a garbled
# reference and the reference of another problem are exit 2 with FILE:LINE.
# Usage: cli_reference.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
rc=0
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") # absolute: the test runs in $tmp
cd "$tmp" || exit 1

"$bin" generate random --kind rolling3d --nc 30 --seed 2 --matrix spd -o spd.dat \
  --solution spd.sol 2>/dev/null
# nc = 40 rolling3d contacts (200 rows) among far fewer bodies (6 dofs each): W is singular.
"$bin" generate random --kind rolling3d --nc 40 --seed 3 -o mb.dat 2>/dev/null
mkdir refs

run "$bin" reference spd.dat -o refs/spd.ref --json
check "reference spd: exit 0, unique" '[ "$rc" = 0 ] && grep -q "\"unique\":\"yes\"" out'
err=$(sed 's/.*"error":\([^,]*\),.*/\1/' out)
check "reference spd: judged error <= 1e-12 ($err)" 'awk -v e="$err" "BEGIN{exit !(e <= 1e-12)}"'
sha=$(sha256sum spd.dat | cut -c1-64)
check "reference spd: header" 'head -1 refs/spd.ref | grep -q "^conebench-reference sha256=$sha error=[^ ]* error_q=[^ ]* solver=[a-z/+-]* unique=yes$"'
# ||p* - p_gen|| / max(1, ||p_gen||) from the two files (independent of conebench's code).
tail -n +2 spd.sol >spd.body
dist=$(paste -d' ' <(tail -n +3 refs/spd.ref) spd.body |
  awk '{d += ($1 - $3)^2; r += $3^2} END {printf "%.3e", sqrt(d) / (r > 1 ? sqrt(r) : 1)}')
check "reference spd: within 1e-9 of the known solution ($dist)" \
  'awk -v e="$dist" "BEGIN{exit !(e <= 1e-9)}"'
run "$bin" reference spd.dat --check refs/spd.ref
check "--check spd: exit 0" '[ "$rc" = 0 ] && grep -q "unique=yes" out'

run "$bin" reference mb.dat -o refs/mb.ref
check "reference mb (singular W): unique=no" '[ "$rc" = 0 ] && grep -q "unique=no$" out &&
  head -1 refs/mb.ref | grep -q "unique=no$"'

# Bad reference files: exit 2, FILE:LINE: what, before anything is printed.
sed '1s/error=/eror=/' refs/spd.ref >bad1.ref
run "$bin" reference spd.dat --check bad1.ref
check "garbled header" '[ "$rc" = 2 ] && [ ! -s out ] &&
  grep -qx "conebench: bad1.ref:1: header: expected error=..., got '"'"'eror=[^ ]*'"'"'" err'
sed '7s/.*/0.5 abc/' refs/spd.ref >bad2.ref
run "$bin" reference spd.dat --check bad2.ref
check "garbled value" '[ "$rc" = 2 ] && grep -qx "conebench: bad2.ref:7: y entry 4: not a number ('"'"'abc'"'"')" err'
head -n 20 refs/spd.ref >bad3.ref
run "$bin" reference spd.dat --check bad3.ref
check "truncated" '[ "$rc" = 2 ] && grep -q "^conebench: bad3.ref:[0-9]*: " err'
run "$bin" reference mb.dat --check refs/spd.ref
check "reference of another problem" '[ "$rc" = 2 ] &&
  grep -q "^conebench: refs/spd.ref:1: the reference of another problem" err'

# A campaign: dist_ref for spd (unique), empty for mb (singular); mb.dat.ref of another problem.
cp refs/spd.ref mb.dat.ref
printf 'name refs\nproblem spd.dat mb.dat\nreferences refs\nsolver nsn\nsolver nsgs\ntol 1e-8\ntime-limit 10\n' >c.conf
run "$bin" run c.conf -o res --quiet
check "campaign: exit 0" '[ "$rc" = 0 ]'
check "campaign: header has dist_ref,solved,error_data (then the sequence and gap columns)" 'head -1 res/runs.csv | grep -q ",machine,dist_ref,solved,error_data,time_cpu_s,sequence,step,warm_start,steps_unsolved,sequence_run,cone_violation,rolling_violation,spin_violation,angle_max,angle_mean,sliding,positive_work$"'
# problem,solver,solved,dist_ref
cut -d, -f2,6,24,23 res/runs.csv | tail -n +2 | awk -F, -v OFS=, '{ print $1, $2, $4, $3 }' | sort >rows.txt
check "campaign: 4 solved rows" '[ "$(grep -c ",yes," rows.txt)" = 4 ]'
check "campaign: dist_ref empty for the singular problem" \
  '[ "$(grep -c "^mb,.*,yes,$" rows.txt)" = 2 ]'
d_nsn=$(grep "^spd,nsn," rows.txt | cut -d, -f4)
d_nsgs=$(grep "^spd,nsgs," rows.txt | cut -d, -f4)
check "campaign: dist_ref of nsn at 1e-8 is small ($d_nsn)" \
  'awk -v e="$d_nsn" "BEGIN{exit !(e != \"\" && e + 0 <= 1e-6)}"'
check "campaign: dist_ref of nsgs set ($d_nsgs)" \
  'awk -v e="$d_nsgs" "BEGIN{exit !(e != \"\" && e + 0 <= 1e-3)}"'
check "campaign: mb.dat.ref of another problem said in errors.log" \
  '[ "$(grep -c "reference ignored: mb.dat.ref is of another problem" res/errors.log)" = 2 ]'
run "$bin" report res --no-figures
check "report: dist_ref said, singular W left out" '[ "$rc" = 0 ] &&
  grep -q "^dist_ref = .*whose W is singular" res/report.md &&
  grep -q "time / dist_ref;" res/report.md'
printf 'name r\nproblem spd.dat\nreferences nowhere\nsolver nsn\n' >bad.conf
run "$bin" run bad.conf -o res2 --quiet
check "references: not a folder" '[ "$rc" = 2 ] &&
  grep -qx "conebench: bad.conf:3: references: nowhere is not a folder" err'
# solve --json: dist_ref against FILE.ref beside the problem (as a campaign), equal to the
# distance computed here from the --solution file and the reference; null when FILE.ref is of
# another problem (mb.dat.ref above), said on stderr.
cp refs/spd.ref spd.dat.ref
run "$bin" solve spd.dat --solver nsgs --tol 1e-6 --solution nsgs.sol --json
d_json=$(sed 's/.*"dist_ref":\([^,]*\),.*/\1/' out)
tail -n +2 nsgs.sol >nsgs.body
d_files=$(paste -d' ' <(tail -n +3 spd.dat.ref) nsgs.body |
  awk '{d += ($3 - $1)^2; r += $1^2} END {printf "%.17g", sqrt(d) / (r > 1 ? sqrt(r) : 1)}')
check "solve --json: dist_ref $d_json = the files' $d_files" '[ "$rc" = 0 ] &&
  awk -v a="$d_json" -v b="$d_files" "BEGIN{exit !(a != \"null\" && a > 0 && (a - b)^2 <= (1e-9 * b)^2)}"'
run "$bin" solve mb.dat --solver nsgs --tol 1e-6 --json
check "solve --json: a FILE.ref of another problem: dist_ref null, said on stderr" '[ "$rc" = 0 ] &&
  grep -q "\"dist_ref\":null" out && grep -q "reference ignored: mb.dat.ref is of another problem" err'
echo "cli reference: $pass passed, $fail failed"
[ "$fail" = 0 ]
