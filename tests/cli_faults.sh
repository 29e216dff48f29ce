#!/usr/bin/env bash
# conebench CLI contract for faults: nothing is lost and no fault becomes a solver's status.
#  - campaign files with a label, tolerance, problem, single line or generator key given twice,
#    a NUL byte, or a range too large are refused: exit 2, "conebench: c.conf:LINE: what";
#  - a full disk (a 2 MB tmpfs, when root) ends `run` with exit 1 naming the file under the
#    results directory; runs.csv keeps whole rows; a run whose trace or row could not be written
#    has no row (never bad_input); after freeing space --resume completes, and every run is there
#    once with the status and iterations of an undisturbed run of the same campaign;
#    `generate` whose step does not fit (a 64 KiB tmpfs) exits 1 and leaves no file or folder;
#    an FCLIB file that does not fit (streamed, or through libfclib) exits 1 with the system's
#    reason and leaves no file;
#  - a second `run --resume` (and `report`) of a directory another `run` works in exits 1 at once
#    naming the process; the first completes with one row per run;
#  - kill -9 of `run`, then `status` and `report` say "incomplete: N of M runs" (report.md in place
#    of the verdict); --resume removes the temporary files left behind and completes the runs;
#  - the process that reads an FCLIB file killed by SIGKILL: exit 1 naming the signal, not bad
#    input;
#  - report, status and compare refuse a run id twice and a run id of no run of the campaign at
#    runs.csv:LINE, exit 2.
# Usage: cli_faults.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$tmp" || exit 1
export OPENBLAS_NUM_THREADS=1

# rows DIR: data rows of DIR/runs.csv; ids DIR: their run ids, one a line.
rows() { local n; n=$(tail -n +2 "$1/runs.csv" 2>/dev/null | grep -c .); echo "${n:-0}"; }
ids() { tail -n +2 "$1/runs.csv" | cut -d, -f1; }
# whole DIR: runs.csv is the header and complete rows (ends in a newline, 38 fields a row).
whole() {
  [ ! -s "$1/runs.csv" ] && return 0
  [ "$(tail -c1 "$1/runs.csv" | od -An -c | tr -d ' ')" = '\n' ] &&
    [ "$(head -n 1 "$1/runs.csv" | cut -d, -f1)" = run_id ] &&
    [ -z "$(tail -n +2 "$1/runs.csv" | grep -vE '^[0-9a-f]{16},' )" ] &&
    [ -z "$(tail -n +2 "$1/runs.csv" | awk -F, 'NF != 38')" ]
}
# temps DIR: the temporary files of atomic writes left under DIR.
temps() { find "$1" -name '*.tmp.[0-9]*.[0-9]*' | head -n 5; }

# ---------------------------------------------------------------- campaign files
# bad NAME LINE PATTERN TEXT: `run` exits 2 with "conebench: c.conf:LINE: PATTERN", no directory.
bad() {
  printf "$4" >c.conf
  rm -rf res
  run timeout 60 "$bin" run c.conf -o res --quiet
  pat="^conebench: c\.conf:$2: $3"
  check "$1: exit 2, c.conf:$2" '[ "$rc" = 2 ] && grep -qE -- "$pat" "$tmp/err" && [ ! -e res ]'
}
g='generate random kind=coulomb3d nc=20 seeds=1..2'
bad "two solver lines, one label" 3 "solver label 'a' is already used at line 2 " \
  "$g\nsolver nsgs label=a\nsolver pfp label=a\n"
bad "one solver twice" 3 "solver label 'nsgs' is already used at line 2 " \
  "$g\nsolver nsgs\nsolver nsgs\n"
bad "a tolerance twice" 3 "tol: 0\\.0001 is given twice \\(as 1e-4 and 0\\.0001\\)$" \
  "$g\nsolver nsgs\ntol 1e-4 1e-6 0.0001\n"
bad "two tol lines" 4 "tol: already given at line 3 " "$g\nsolver nsgs\ntol 1e-4\ntol 1e-6\n"
bad "two name lines" 4 "name: already given at line 1 " "name a\n$g\nsolver nsgs\nname b\n"
bad "two max-iter lines" 4 "max-iter: already given at line 2 " \
  "$g\nmax-iter 10\nsolver nsgs\nmax-iter 20\n"
bad "one problem on two lines" 3 "problem 'random-coulomb3d-nc20-mb-s2' is already listed at line 1 " \
  "$g\nsolver nsgs\ngenerate random kind=coulomb3d nc=20 seeds=2\n"
"$bin" generate random --kind coulomb3d --nc 20 --seed 1 -o p1.dat 2>/dev/null
bad "one file twice on a line" 2 "problem 'p1' is listed twice on this line" \
  "solver nsgs\nproblem p1.dat p1.dat\n"
bad "a generator key twice" 1 "generate: key 'nc' given twice$" \
  "generate random kind=coulomb3d nc=5 nc=7 seeds=1\nsolver nsgs\n"
bad "a label twice on a solver line" 2 "solver: label= given twice$" "$g\nsolver nsgs label=a label=b\n"
bad "steps twice on a scenario line" 1 "scenario: steps given twice$" \
  "scenario sphere-plane steps=1 steps=2\nsolver nsgs\n"
bad "a NUL byte" 3 "NUL byte \\(at byte 66\\): not a text file" "$g\nsolver nsgs\nsolver\0 pfp\n"
bad "a billion seeds" 1 "generate: 1000000000 more problems would make 1000000000; a campaign holds at most 100000 problems$" \
  "generate random kind=coulomb3d nc=5 seeds=1..1000000000\nsolver nsgs\n"
bad "a seed past the range" 1 "seeds: '1\\.\\.99999999999999999999': want A or A\\.\\.B" \
  "generate random kind=coulomb3d nc=5 seeds=1..99999999999999999999\nsolver nsgs\n"
bad "a million runs and more" 5 "tol: the campaign now has 1050000 runs \\(50000 problems x 3 solvers x 7 tolerances x 1 repetitions\\); at most 1000000$" \
  "generate random kind=coulomb3d nc=5 seeds=1..50000\nsolver nsgs\nsolver pfp\nsolver apgd\ntol 1e-2 1e-3 1e-4 1e-5 1e-6 1e-7 1e-8\n"

# ---------------------------------------------------------------- a full disk
# Problem files outside the small disk: 5 problems x 4 solvers x 2 tolerances = 40 runs.
mkdir probs
for s in 1 2 3 4 5; do
  "$bin" generate random --kind coulomb3d --nc 20 --seed $s -o probs/p$s.dat 2>/dev/null
done
conf() { # conf FILE TRACE
  printf '%s\n' "name faults" "problem $tmp/probs/p*.dat" "solver nsgs" "solver pfp" \
    "solver apgd" "solver psor" "tol 1e-4 1e-6" "max-iter 300" "trace $2" >"$1"
}
conf off.conf off
conf on.conf on
[ -n "$runner" ] && echo "cli faults: full disk: runs without RUNNER '$runner' (too slow under it)"
run "$bin" run off.conf -o ref-off --quiet
check "undisturbed campaign: 40 runs" '[ "$rc" = 0 ] && [ "$(rows ref-off)" = 40 ]'
run "$bin" run on.conf -o ref-on --quiet --jobs 2
check "undisturbed traced campaign: 40 runs, 40 traces" \
  '[ "$rc" = 0 ] && [ "$(rows ref-on)" = 40 ] && [ "$(ls ref-on/traces | wc -l)" = 40 ]'
outcome() { tail -n +2 "$1/runs.csv" | cut -d, -f1,11,12 | sort; } # run id, status, iterations

# disk CONF JOBS REF: runs of CONF on a full disk, each with SLACK kB left; every failure exits 1
# naming a file of the directory, with whole rows, no bad_input row and no row of the run it
# names; one of them fails amid the runs; then --resume there gives REF's outcome.
disk() {
  local conf=$1 jobs=$2 ref=$3 mid="" slack runner="" # (dozens of runs: too slow under RUNNER)
  for slack in 12 16 20 24 28 32 40 48 56 64; do
    rm -rf mnt/r mnt/fill
    local avail; avail=$(df -k --output=avail mnt | tail -n 1)
    dd if=/dev/zero of=mnt/fill bs=1k count=$((avail - slack)) status=none 2>/dev/null
    run "$bin" run "$conf" -o mnt/r --quiet --jobs "$jobs"
    [ "$rc" = 0 ] && continue
    local id; id=$(sed -n 's|^conebench: .*traces/\([0-9a-f]\{16\}\)\.csv:0: .*|\1|p' "$tmp/err")
    check "$conf, $slack kB left: exit 1 naming a file of mnt/r, whole rows, no bad_input" \
      '[ "$rc" = 1 ] && grep -qE "^conebench: mnt/r/[^ ]+:0: .*No space left on device" "$tmp/err" &&
       whole mnt/r && ! cut -d, -f11 mnt/r/runs.csv 2>/dev/null | grep -q "^bad_input$"'
    [ -n "$id" ] && check "$conf: the run whose trace failed ($id) has no row" \
      '! ids mnt/r | grep -qx "$id" && grep -q "(run $id not recorded: --resume runs it again)" "$tmp/err"'
    [ -s mnt/r/runs.csv ] && [ "$(rows mnt/r)" -gt 0 ] && mid="$slack kB, $(rows mnt/r) rows"
    [ -n "$mid" ] && echo "cli faults: $conf: the disk filled amid the runs ($mid): $(head -c 200 "$tmp/err")" && break
  done
  check "$conf: a failure amid the runs ($mid)" '[ -n "$mid" ]'
  rm -f mnt/fill
  run "$bin" run "$conf" -o mnt/r --quiet --resume --jobs "$jobs"
  check "$conf: --resume after freeing space completes: every run once, as undisturbed" \
    '[ "$rc" = 0 ] && [ "$(rows mnt/r)" = 40 ] && [ "$(ids mnt/r | sort -u | wc -l)" = 40 ] &&
     [ "$(outcome mnt/r)" = "$(outcome "$ref")" ] && [ -z "$(temps mnt/r)" ]'
}
mkdir mnt
if [ "$(id -u)" != 0 ]; then
  echo "cli faults: full disk: skipped: not root (it mounts a 2 MB tmpfs)"
elif ! mount -t tmpfs -o size=2m tmpfs mnt 2>/dev/null; then
  echo "cli faults: full disk: skipped: mounting a tmpfs failed (a container without the right?)"
else
  trap 'umount "$tmp/mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
  disk off.conf 1 ref-off
  disk on.conf 2 ref-on
  check "traced: every trace there after the resume" '[ "$(ls mnt/r/traces | wc -l)" = 40 ]'
  umount mnt
  # generate into a folder it creates on a 64 KiB disk: the step (~200 KB) does not fit; exit 1
  # naming the step file, and neither the file nor the folder is left behind.
  if mount -t tmpfs -o size=64k tmpfs mnt 2>/dev/null; then
    run "$bin" generate sphere-pile --param init=heap --param n=1000 --steps 1 --max-iter 1 -o mnt/steps
    check "generate on a full disk: exit 1, no step file, no empty folder" '[ "$rc" = 1 ] &&
      grep -qx "conebench: mnt/steps/sphere-pile-step1.dat:0: write failed: No space left on device" "$tmp/err" &&
      [ ! -e mnt/steps ]'
    # FCLIB out on the same disk, through conebench's streamed writer (a BSR W) and through
    # libfclib (a dense W): exit 1 with the system's reason, no file, nothing on stderr but it.
    run "$bin" generate random --kind rolling3d --nc 2000 --seed 1 -o mnt/w.hdf5
    check "FCLIB (streamed) on a full disk: exit 1, the reason, no file" '[ "$rc" = 1 ] &&
      [ "$(cat "$tmp/err")" = "conebench: mnt/w.hdf5:0: write failed: No space left on device (nothing written)" ] &&
      [ -z "$(ls -A mnt)" ]'
    run "$bin" generate random --kind coulomb3d --nc 200 --seed 1 --storage dense -o mnt/d.hdf5
    check "FCLIB (libfclib) on a full disk: exit 1, the reason, no file" '[ "$rc" = 1 ] &&
      [ "$(cat "$tmp/err")" = "conebench: mnt/d.hdf5:0: write failed: No space left on device (nothing written)" ] &&
      [ -z "$(ls -A mnt)" ]'
    umount mnt
  fi
fi

# ---------------------------------------------------------------- one process at a time
# 8 runs of 0.3 s each (a tolerance never met, stopped by the time limit; 5 s each under RUNNER,
# which slows the second process down).
tl=0.3
[ -n "$runner" ] && tl=5
printf '%s\n' "name slow" "problem $tmp/probs/p1.dat $tmp/probs/p2.dat" "solver nsgs" \
  "solver pfp" "tol 1e-300 1e-299" "max-iter 2000000000" "time-limit $tl" >slow.conf
"$bin" run slow.conf -o busy --quiet 2>busy.err &
pid=$!
i=0
while [ "$(rows busy)" -lt 1 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
run "$bin" run slow.conf -o busy --resume --quiet
alive=$(kill -0 $pid 2>/dev/null && echo yes)
check "a second run --resume exits 1 at once, naming the first (pid $pid)" \
  '[ "$rc" = 1 ] && [ "$alive" = yes ] &&
   grep -qx "conebench: busy is in use by another conebench process (pid $pid): wait until it ends, or choose another directory" "$tmp/err"'
run "$bin" report busy --no-figures
check "report of a directory in use exits 1" '[ "$rc" = 1 ] && grep -q "^conebench: busy is in use by another conebench process (pid $pid)" "$tmp/err" && [ ! -e busy/report.md ]'
rc=0
wait $pid || rc=$?
check "the first run completes: one row a run" \
  '[ "$rc" = 0 ] && [ "$(rows busy)" = 8 ] && [ "$(ids busy | sort -u | wc -l)" = 8 ]'

# ---------------------------------------------------------------- kill -9, then resume
"$bin" run slow.conf -o killed --quiet &
pid=$!
i=0
while [ "$(rows killed)" -lt 2 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
kill -9 $pid
{ wait $pid; } 2>/dev/null
n=$(rows killed)
# what a process killed amid an atomic write leaves (its own name pattern, a pid that is gone)
: >"killed/traces/$(ids killed | head -n 1).csv.tmp.4194999.0"
: >killed/limits.txt.tmp.4194999.1
run "$bin" status killed
check "status of the killed campaign: incomplete: $n of 8 runs" \
  '[ "$rc" = 0 ] && grep -q "^killed: shard 0/1: incomplete: $n of 8 runs, " "$tmp/out" &&
   grep -q "^overall: incomplete: $n of 8 runs " "$tmp/out"'
run "$bin" report killed --no-figures
check "report of the killed campaign: incomplete: $n of 8 runs, no verdict" \
  '[ "$rc" = 0 ] && [ "$(head -n 1 killed/report.md | cut -d. -f1)" = "**incomplete: $n of 8 runs" ] &&
   ! grep -q "^- Most solved" killed/report.md && grep -q "^incomplete: $n of 8 runs: no verdict" "$tmp/out"'
run "$bin" report killed --json
check "report --json warns: incomplete" \
  '[ "$rc" = 0 ] && grep -q "^conebench: warning: killed: incomplete: $n of 8 runs" "$tmp/err"'
run "$bin" compare busy killed
check "compare names the incomplete side" '[ "$rc" != 2 ] && grep -q "^killed: incomplete: $n of 8 runs" "$tmp/out"'
run "$bin" run slow.conf -o killed --resume
check "--resume after kill -9: temporary files removed, every run once" \
  '[ "$rc" = 0 ] && grep -qE "^conebench: removed [0-9]+ temporary files? left by a killed run$" "$tmp/err" &&
   [ -z "$(temps killed)" ] && [ "$(rows killed)" = 8 ] && [ "$(ids killed | sort -u | wc -l)" = 8 ]'

# ---------------------------------------------------------------- foreign and duplicated ids
cp -r busy dup
rm -f dup/report.md
tail -n 1 busy/runs.csv >>dup/runs.csv
dupid=$(tail -n 1 busy/runs.csv | cut -d, -f1)
cp -r busy foreign
rm -f foreign/report.md
sed -i '3s/^[0-9a-f]\{16\},/ffffffffffffffff,/' foreign/runs.csv
for cmd in "report dup --no-figures" "report dup --json" "status dup" "compare busy dup" \
  "run slow.conf -o dup --resume --quiet"; do
  run "$bin" $cmd
  check "$cmd: the run id twice refused at runs.csv:10" \
    '[ "$rc" = 2 ] && grep -q "^conebench: dup/runs.csv:10: run $dupid (.*) is already on line 9: " "$tmp/err"'
done
for cmd in "report foreign --no-figures" "status foreign" "compare busy foreign"; do
  run "$bin" $cmd
  check "$cmd: a foreign run id refused at runs.csv:3" \
    '[ "$rc" = 2 ] && grep -q "^conebench: foreign/runs.csv:3: run ffffffffffffffff (.*) is not a run of the campaign foreign/campaign.conf records (shard 0/1)$" "$tmp/err"'
done
# A forced resume under another solver line keeps the earlier rows (their run ids are of the
# earlier campaign): counted apart, not refused.
printf '%s\n' "name forced" "problem $tmp/probs/p1.dat $tmp/probs/p2.dat" "solver nsgs" "tol 1e-4" >f.conf
"$bin" run f.conf -o forced --quiet 2>/dev/null
sed -i 's/^solver nsgs$/solver nsgs omega=1.2/' f.conf
"$bin" run f.conf -o forced --quiet --resume --force 2>/dev/null
run "$bin" status forced
check "forced resume: status counts the runs of the campaign now (2 of 4 rows)" \
  '[ "$rc" = 0 ] && [ "$(rows forced)" = 4 ] && grep -q "^forced: shard 0/1: 2/2 runs done, " "$tmp/out"'
run "$bin" report forced --no-figures
check "forced resume: report accepts the earlier rows" '[ "$rc" = 0 ] && grep -q "^- Most solved" forced/report.md'
check "no report written from refused rows" '[ ! -e dup/report.md ] && [ ! -e foreign/report.md ]'

# ---------------------------------------------------------------- the FCLIB reader killed
# The child that reads an FCLIB file killed from outside (kill -9, as the out-of-memory killer
# does) is not a verdict on the file: exit 1 and the signal named, never "damaged?" or exit 2.
# The child lives about 0.1 s here; if five tries never catch it alive, the check says so.
"$bin" generate random --kind rolling3d --nc 20000 --seed 1 -o big.hdf5 >/dev/null 2>&1
caught=0
for try in 1 2 3 4 5; do
  "$bin" info big.hdf5 >/dev/null 2>kill.err &
  pid=$!
  child=
  for i in $(seq 1 200); do
    child=$(pgrep -P $pid | head -n 1)
    [ -n "$child" ] && break
    sleep 0.005
  done
  [ -n "$child" ] && kill -9 "$child" 2>/dev/null && caught=1
  wait $pid
  rc=$?
  [ $caught = 1 ] && [ "$rc" != 0 ] && break # rc 0: it had answered already (a zombie killed)
  caught=0
done
if [ $caught = 1 ]; then
  check "reading child killed: exit 1, the signal named, not bad input" \
    '[ "$rc" = 1 ] && grep -q "^conebench: big.hdf5: the process reading it was killed (signal 9, " kill.err &&
     ! grep -q "damaged" kill.err'
else
  echo "cli faults: the reading child ended before it could be killed, five times: that check skipped"
fi
run "$bin" info big.hdf5
check "the file itself reads" '[ "$rc" = 0 ]'

echo "cli faults: $pass passed, $fail failed"
[ "$fail" = 0 ]
