#!/usr/bin/env bash
# conebench campaigns in shards: a small campaign run as 4 shards with GNU parallel (skipped, with
# a message, when `parallel` is absent: the shards then run one after the other) and merged gives
# the unsharded run's set of run ids, statuses and iterations, and the same report tables (wall
# time columns left out); merge refuses shards of two campaigns, of two limits, duplicate runs and
# a non-empty OUT (exit 2, nothing written), lists missing runs (exit 1, nothing written; written
# with --allow-missing); status counts runs and failures by status and takes the ETA from the
# session's rate. Usage: cli_cluster.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$tmp" || exit 1

# 4 problems x 3 solvers x 2 tolerances = 24 runs; psor and apgd stop at max-iter on some.
cat >c.conf <<'EOF'
name cluster-test
generate random kind=rolling3d nc=20 seeds=1..3
generate random kind=coulomb3d nc=10 seeds=1
solver nsgs
solver psor
solver apgd
tol 1e-4 1e-8
max-iter 40
EOF
sed 's/^max-iter 40/max-iter 41/' c.conf >limits.conf
sed 's/^solver apgd/solver eg/' c.conf >other.conf

# ids_status DIR: "run_id status iterations" of every row, sorted.
ids_status() { tail -n +2 "$1/runs.csv" | cut -d, -f1,11,12 | sort; }
# tables DIR: the report.md table rows without the wall-time columns (sgm time, and the
# "/ time s" of each problem cell).
tables() {
  grep '^|' "$1/report.md" | awk -F'|' -v OFS='|' '$5 ~ /time/ || $6 ~ /^ [0-9.]+ $/ {$6 = ""} 1' |
    sed -E 's# / [0-9.e+-]+ s##g'
}

run "$bin" run c.conf -o full --quiet
check "unsharded run" '[ "$rc" = 0 ] && [ "$(ids_status full | wc -l)" = 24 ]'
if command -v parallel >/dev/null; then
  rc=0 # not under RUNNER (valgrind): parallel runs "$runner $bin", not a program of ours
  parallel --will-cite -j 2 $runner "$bin" run c.conf --shard {}/4 -o shard-{} --quiet \
    ::: 0 1 2 3 2>"$tmp/err" || rc=$?
  check "4 shards with GNU parallel" '[ "$rc" = 0 ] && [ "$(grep -c "^conebench: cluster-test: 6 runs" "$tmp/err")" = 4 ]'
else
  echo "cli cluster: GNU parallel: skipped: parallel is not installed (apt-get install parallel);" \
    "the 4 shards run one after the other"
  for i in 0 1 2 3; do "$bin" run c.conf --shard $i/4 -o shard-$i --quiet 2>/dev/null; done
fi
run "$bin" merge merged shard-0 shard-1 shard-2 shard-3
check "merge 4 shards" '[ "$rc" = 0 ] && grep -q "^conebench: merged 4 shards: 24 of 24 runs -> merged" "$tmp/err"'
check "same runs, statuses, iterations" 'cmp -s <(ids_status full) <(ids_status merged)'
check "psor/apgd stop at max-iter on some runs" 'ids_status full | grep -q ",max_iter,40$"'
check "runs in the campaign order" 'cmp -s <(cut -d, -f1 full/runs.csv) <(cut -d, -f1 merged/runs.csv)'
check "record of the unsharded campaign" 'cmp -s full/limits.txt merged/limits.txt && cmp -s full/campaign.conf merged/campaign.conf'
traces() { for d in "$@"; do (cd "$d/traces" && sha256sum -- *); done | sort -k2; }
check "every trace, copied" '[ "$(ls merged/traces)" = "$(ls full/traces)" ] && [ "$(traces merged)" = "$(traces shard-0 shard-1 shard-2 shard-3)" ]'
check "machine.txt of each shard" '[ "$(grep -c "^# shard [0-3]/4: shard-[0-3]$" merged/machine.txt)" = 4 ]'
run "$bin" report full --no-figures
run "$bin" report merged --no-figures
check "report on the merge" '[ "$rc" = 0 ] && [ -s merged/report.md ]'
check "same report tables" '[ "$(tables full | wc -l)" -gt 10 ] && cmp -s <(tables full) <(tables merged)'
run "$bin" run c.conf -o merged --resume --quiet
check "run --resume takes the merge as the whole campaign" '[ "$rc" = 0 ] && grep -q "24 runs (24 already done)" "$tmp/err"'

# Refusals: exit 2 naming what differs, nothing written.
"$bin" run limits.conf --shard 1/4 -o limits-1 --quiet 2>/dev/null
"$bin" run other.conf --shard 1/4 -o other-1 --quiet 2>/dev/null
run "$bin" merge mout shard-0 limits-1 shard-2 shard-3
check "two limits refused" '[ "$rc" = 2 ] && grep -q "^conebench: limits differ: max_iter 40 in shard-0, 41 in limits-1$" "$tmp/err" && [ ! -e mout ]'
run "$bin" merge mout shard-0 other-1 shard-2 shard-3
check "two campaigns refused" '[ "$rc" = 2 ] && grep -q "^conebench: different campaigns: shard-0/campaign.conf and other-1/campaign.conf differ from line 6$" "$tmp/err" && grep -q "^conebench: the shards differ (above): not merged (--force merges them anyway)$" "$tmp/err" && [ ! -e mout ]'
cp -r shard-1 rev-1
sed -i 's/^revision: .*/revision: 0123456789ab/' rev-1/machine.txt
rev=$(sed -n 's/^revision: //p' shard-0/machine.txt)
run "$bin" merge mout shard-0 rev-1 shard-2 shard-3
check "two revisions refused" '[ "$rc" = 2 ] && grep -q "^conebench: conebench differs: revision: $rev in shard-0, 0123456789ab in rev-1$" "$tmp/err" && [ ! -e mout ]'
run "$bin" merge mout shard-0 rev-1 shard-2 shard-3 --force
check "--force merges them, warning" '[ "$rc" = 0 ] && grep -q "^conebench: warning: conebench differs: revision:" "$tmp/err" && [ "$(ids_status mout | wc -l)" = 24 ]'
rm -rf mout
cp -r shard-2 dup-2
tail -n 1 shard-2/runs.csv >>dup-2/runs.csv
dupid=$(tail -n 1 shard-2/runs.csv | cut -d, -f1)
run "$bin" merge mout shard-0 shard-1 dup-2 shard-3
check "duplicate run refused" '[ "$rc" = 2 ] && grep -q "^conebench: duplicate run $dupid (.*): in dup-2 and in dup-2$" "$tmp/err" && [ ! -e mout ]'
run "$bin" merge mout shard-0 shard-1 shard-2 shard-2
check "a shard twice refused" '[ "$rc" = 2 ] && grep -q "^conebench: shard-2 and shard-2 are both shard 2/4$" "$tmp/err" && [ ! -e mout ]'
run "$bin" merge merged shard-0 shard-1 shard-2 shard-3
check "non-empty OUT refused" '[ "$rc" = 2 ] && grep -q "^conebench: merged: exists and is not empty" "$tmp/err"'
run "$bin" merge mout shard-0 nope
check "not a results directory" '[ "$rc" = 2 ] && grep -q "^conebench: nope: no such results directory$" "$tmp/err" && [ ! -e mout ]'

# Missing runs: the 6 runs of shard 3 are listed by id; exit 1 and nothing written, unless
# --allow-missing.
missing=$(tail -n +2 shard-3/runs.csv | cut -d, -f1 | sort)
run "$bin" merge mout shard-0 shard-1 shard-2
check "missing runs listed, exit 1" '[ "$rc" = 1 ] && [ "$(grep "^conebench: missing run " "$tmp/err" | cut -d" " -f4 | tr -d : | sort)" = "$missing" ] && grep -q "^conebench: 6 of 24 runs missing (listed above): nothing written" "$tmp/err" && [ ! -e mout ]'
check "missing runs name their shard" '[ "$(grep -c "(shard 3/4)$" "$tmp/err")" = 6 ]'
run "$bin" merge mout shard-0 shard-1 shard-2 --allow-missing
check "--allow-missing writes the rest" '[ "$rc" = 0 ] && [ "$(ids_status mout | wc -l)" = 18 ]'
check "no temporary directory left" '[ -z "$(ls -d mout.tmp-* merged.tmp-* 2>/dev/null)" ]'

# status: counts and failures from runs.csv; the ETA at the session's rate (2 rows in 100 s, 4
# left: 200 s), with the time given (--now).
run "$bin" status shard-0 shard-1 shard-2 shard-3
nfail=$(tail -n +2 full/runs.csv | cut -d, -f11,24 | grep -vc ',yes$\|^unsupported,')
nmax=$(tail -n +2 full/runs.csv | cut -d, -f11 | grep -c '^max_iter$')
check "status of finished shards" '[ "$rc" = 0 ] && grep -q "^shard-1: shard 1/4: 6/6 runs done, failed .*, finished$" "$tmp/out" && grep -q "^overall: 24/24 runs done (100.0%) in 4 of 4 shards, failed $nfail (max_iter $nmax), finished$" "$tmp/out"'
cp -r shard-1 running-1
head -n 3 shard-1/runs.csv >running-1/runs.csv
printf 'started 1000\nrows_before 0\n' >running-1/session.txt
f1=$(head -n 3 shard-1/runs.csv | tail -n 2 | cut -d, -f24 | grep -vc '^yes$')
run "$bin" status running-1 --now 1100
check "status of a running shard: ETA from its rate" '[ "$rc" = 0 ] && grep -q "^running-1: shard 1/4: incomplete: 2 of 6 runs, failed $f1.*, 3 min 20 s$" "$tmp/out" && grep -q "^overall: incomplete: 2 of 24 runs (8.3%) in 1 of 4 shards, failed $f1.*, unknown$" "$tmp/out"'
printf 'started 1000\nrows_before 2\n' >running-1/session.txt
run "$bin" status running-1 --now 1100
check "status: no row yet in this session" 'grep -q "^running-1: shard 1/4: incomplete: 2 of 6 runs, .*, unknown$" "$tmp/out"'
mkdir starting
run "$bin" status starting shard-0
check "status of a shard not started" '[ "$rc" = 0 ] && grep -q "^starting: starting (no record yet)$" "$tmp/out" && grep -q "^overall: incomplete: 6 of 24 runs .* in 1 of 4 shards, .*unknown$" "$tmp/out"'
run "$bin" status nope
check "status of no directory" '[ "$rc" = 2 ] && grep -q "^conebench: nope: no such results directory$" "$tmp/err"'
check "run writes session.txt" 'grep -q "^rows_before 0$" full/session.txt && grep -q "^started [0-9]\{10\}$" full/session.txt'

echo "cli cluster: $pass passed, $fail failed"
[ "$fail" = 0 ]
