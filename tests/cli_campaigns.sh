#!/usr/bin/env bash
# conebench CLI contract for campaigns and results directories: every campaign mistake is exit 2
# with "conebench: FILE:LINE: what" (the campaign's line) before any run and without output;
# --resume refuses another campaign or other limits unless --force; run refuses a non-empty
# directory; SIGINT/SIGTERM keep complete rows, print the --resume command and exit 130/143;
# report on a missing directory says so. Usage: cli_campaigns.sh "RUNNER" BIN
set -u
runner=${1:-}
bin=${2:-bin/conebench}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
pass=0
fail=0
tmp=$(mktemp -d /tmp/cbcamp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL [$1]: $2"; }

# expect NAME STATUS PATTERN CMD...: exit STATUS, stderr matches the extended regex PATTERN.
expect() {
  local name=$1 want=$2 pattern=$3; shift 3
  local rc=0
  $runner "$@" >out.txt 2>err.txt </dev/null || rc=$?
  if [ "$rc" = "$want" ] && grep -qE -- "$pattern" err.txt; then ok; else
    bad "$name" "exit $rc (want $want), stderr: $(head -c 400 err.txt)"; fi
}

# campaign TEXT: write c.conf.
campaign() { printf "$1" >c.conf; }

# bad_campaign NAME PATTERN TEXT: `run` exits 2 naming c.conf:LINE, and creates no directory.
bad_campaign() {
  campaign "$3"
  rm -rf res
  expect "$1" 2 "^conebench: c\.conf:$2" "$bin" run c.conf -o res --quiet
  [ -e res ] && bad "$1" "the results directory was created"
}

gen='generate random kind=rolling3d nc=5 seeds=1\n'
bad_campaign "typo option" "2: option omgea: not an option of solver nsgs \(did you mean 'omega'\?\)$" \
  "${gen}solver nsgs omgea=1.5\n"
bad_campaign "bad option value" "2: option omega: 'abc' is not a finite number$" \
  "${gen}solver nsgs omega=abc\n"
if "$bin" version | grep -q '^siconos adapters: built'; then
  bad_campaign "bad Siconos option value" "3: option rho: 'x' is not a finite number$" \
    "${gen}solver nsgs\nsolver siconos-admm rho=x\n"
else
  echo "cli campaigns: bad Siconos option value: skipped: built without Siconos (make SICONOS=0)"
fi
bad_campaign "unknown solver on line 8" "8: unknown solver 'nsgss'" \
  "name t\n${gen}solver nsgs\n# comment\n\ntol 1e-6\nmax-iter 10\nsolver nsgss\n"
: >empty.dat
bad_campaign "empty problem file" "2: ([^ ]*/)?empty\.dat:[0-9]+: " \
  "solver nsgs\nproblem empty.dat\n"
bad_campaign "missing problem file" "1: no file matches 'nope\.dat'$" \
  "problem nope.dat\nsolver nsgs\n"
bad_campaign "bad generator parameter" "1: density: must be in \(0, 1\], got 0$" \
  "generate random kind=rolling3d nc=5 matrix=spd density=0 seeds=1\nsolver nsgs\n"
bad_campaign "generator size limit" "1: storage: dense W with n = 25000 rows exceeds" \
  "generate random kind=rolling3d nc=5000 storage=dense seeds=1\nsolver nsgs\n"
bad_campaign "spd key on a multibody line" "1: cond: applies to matrix spd only, got 10 with multibody$" \
  "generate random kind=rolling3d nc=5 cond=10 seeds=1\nsolver nsgs\n"
bad_campaign "bodies on an spd line" "1: bodies: applies to matrix multibody only, got 3 with spd$" \
  "generate random kind=rolling3d nc=5 matrix=spd bodies=3 seeds=1\nsolver nsgs\n"
bad_campaign "bodies above 2nc" "1: bodies: must be ≤ 2·nc = 10, got 11$" \
  "generate random kind=rolling3d nc=5 bodies=11 seeds=1\nsolver nsgs\n"
# bodies= reaches the generator (2 bodies: rank W ≤ 12 of 25 rows) and is in the problem's name
campaign "generate random kind=rolling3d nc=5 bodies=2 seeds=1\nsolver nsgs\ntol 1e-6\n"
expect "bodies= runs" 0 "1 runs \(0 already done\)" "$bin" run c.conf -o bodies --quiet
"$bin" generate random --kind rolling3d --nc 5 --seed 1 --bodies 2 -o b2.dat 2>/dev/null
"$bin" generate random --kind rolling3d --nc 5 --seed 1 -o b0.dat 2>/dev/null
b2=$(sha256sum <b2.dat | cut -c1-64)
if grep -q ",random-rolling3d-nc5-mb-b2-s1,$b2," bodies/runs.csv &&
   [ "$b2" != "$(sha256sum <b0.dat | cut -c1-64)" ]; then ok
else bad "bodies= runs" "runs.csv has not random-rolling3d-nc5-mb-b2-s1 as generate --bodies 2 writes it"; fi
bad_campaign "bad scenario parameter" "1: param mu: -1 is outside" \
  "scenario sphere-plane mu=-1 steps=1\nsolver nsgs\n"
bad_campaign "unknown scenario parameter" "2: param mux: not a parameter of scenario sphere-plane" \
  "${gen}scenario sphere-plane mux=1 steps=1\nsolver nsgs\n"
bad_campaign "scenario step beyond the horizon" "1: steps: step 100000000 is beyond the horizon" \
  "scenario sphere-plane steps=100000000\nsolver nsgs\n"
campaign "${gen}solver nsgs omgea=1.5\n"
expect "bench-check checks campaigns too" 2 "^conebench: c\.conf:2: option omgea" \
  "$bin" bench-check --campaign c.conf -o bc --quiet

# A results directory, then --resume after changing max-iter: refused with both hashes and what
# differs; --force accepts, keeping the earlier record.
campaign "${gen}solver nsgs\ntol 1e-6\nmax-iter 100\n"
expect "first run" 0 "1 runs \(0 already done\), 1 solved" "$bin" run c.conf -o res --quiet
old=$(sed -n 's/^campaign_sha256 //p' res/limits.txt)
sum=$(cat res/runs.csv res/limits.txt | sha256sum)
expect "run into a non-empty directory" 2 \
  "^conebench: res: the directory is not empty .*--resume, or choose another -o$" \
  "$bin" run c.conf -o res --quiet
[ "$(cat res/runs.csv res/limits.txt | sha256sum)" = "$sum" ] ||
  bad "run into a non-empty directory" "runs.csv or limits.txt changed"
expect "resume, same campaign" 0 "1 runs \(1 already done\)" \
  "$bin" run c.conf -o res --quiet --resume
campaign "${gen}solver nsgs\ntol 1e-6\nmax-iter 200\n"
why="^conebench: res was made by another campaign or other limits: its limits.txt records"
why="$why campaign sha256 $old, c\.conf now gives [0-9a-f]{64} \(max_iter: 100 -> 200\); add"
expect "resume after changing max-iter" 2 "$why" \
  "$bin" run c.conf -o res --quiet --resume
grep -q '^max_iter 100$' res/limits.txt || bad "refused resume" "limits.txt was rewritten"
expect "resume --force" 0 "warning: --force: .*max_iter: 100 -> 200" \
  "$bin" run c.conf -o res --quiet --resume --force
tag=$(sed -n 's/^earlier_limits //p' res/limits.txt)
if grep -q '^max_iter 200$' res/limits.txt && [ -n "$tag" ] && grep -q '^max_iter 100$' "res/$tag"
then ok
else bad "resume --force" "limits.txt / earlier record: $(cat res/limits.txt)"; fi
expect "report after a forced resume" 0 "wrote res/report.md" "$bin" report res --no-figures
grep -q "Mixed settings.*earlier rows were made under \`$tag\`" res/report.md && ok ||
  bad "report after a forced resume" "no 'Mixed settings' note in res/report.md"
campaign "${gen}solver nsgs omega=1.2\ntol 1e-6\nmax-iter 200\n"
expect "resume after changing a solver line" 2 \
  "\(campaign line 2: 'solver nsgs' -> 'solver nsgs omega=1\.2'\)" \
  "$bin" run c.conf -o res --quiet --resume
expect "report on a missing directory" 2 "^conebench: nowhere: no such directory$" \
  "$bin" report nowhere

# Interruption. Run 1 is solved at once; run 2 (tol 1e-300, never met) lasts its 3 s time limit:
# the signal is sent once run 1's row is in.
campaign "${gen}solver nsgs\ntol 1e-6 1e-300\nmax-iter 2000000000\ntime-limit 3\ntrace off\n"

# rows DIR: complete data rows of DIR/runs.csv (every line ends in a newline, has a run id).
rows() { local n; n=$(grep -cE '^[0-9a-f]{16},' "$1/runs.csv" 2>/dev/null); echo "${n:-0}"; }

# interrupt NAME SIGNAL STATUS DIR: start a run, send SIGNAL after the first row, check the exit
# status, the message (runs kept = rows of runs.csv, the --resume command) and the rows.
interrupt() {
  local name=$1 sig=$2 want=$3 dir=$4 rc=0 n=0 i=0
  $runner "$bin" run c.conf -o "$dir" --quiet 2>err.txt &
  local pid=$!
  while [ "$(rows "$dir")" -lt 1 ] && [ $i -lt 6000 ]; do
    sleep 0.05; i=$((i + 1)); done
  kill -"$sig" "$pid"
  wait "$pid" || rc=$?
  n=$(rows "$dir")
  if [ "$rc" = "$want" ] && [ "$n" -ge 1 ] && [ "$n" -lt 2 ] &&
     [ "$(tail -c1 "$dir/runs.csv" | od -An -c | tr -d ' ')" = '\n' ] &&
     [ "$(grep -c . "$dir/runs.csv")" = $((n + 1)) ] &&
     grep -qE "^conebench: interrupted by SIG$sig: $n of 2 runs kept in $dir/runs.csv" err.txt &&
     grep -qxF "  $bin run c.conf -o $dir --resume --quiet" err.txt; then ok; else
    bad "$name" "exit $rc (want $want), $n rows, stderr: $(head -c 400 err.txt)"; fi
}
interrupt "SIGINT during a run" INT 130 int
cmd=$(sed -n 's/^  //p' err.txt)
rc=0
$runner $cmd 2>err.txt || rc=$?
if [ "$rc" = 0 ] && [ "$(rows int)" = 2 ] && [ "$(cut -d, -f1 int/runs.csv | sort -u | wc -l)" = 3 ]
then ok; else bad "resume after SIGINT" "exit $rc, stderr: $(head -c 300 err.txt)"; fi
interrupt "SIGTERM during a run" TERM 143 term

echo "cli campaigns: $pass passed, $fail failed"
[ "$fail" = 0 ]
