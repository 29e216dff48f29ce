#!/usr/bin/env bash
# conebench: what docs/conebench.1 documents is what the commands print. For each JSON object of
# the section JSON OUTPUT, the keys documented there equal the keys the commands emit (the union
# over runs that between them print every optional group: stop, regime, pile, stack; wheel and
# body); for each file of RESULTS FILES (runs.csv, bench.csv, samples.csv) the documented columns
# equal the header a run writes.
# Usage: cli_json_keys.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
here=$(dirname "$0")
man=$here/../docs/conebench.1
rc=0

# documented SECTION SUBSECTION: the items of that part of the man page, sorted.
documented() {
  awk -f "$here/support/man_items.awk" "$man" |
    awk -F'\t' -v s="$1" -v t="$2" '$1 == s && $2 == t {print $3}' | sort -u
}
# same NAME DOCUMENTED_FILE EMITTED_FILE: the two sets are equal (both non-empty).
same() {
  if [ -s "$2" ] && [ -s "$3" ] && cmp -s "$2" "$3"; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL [$1]: documented (<) and emitted (>) differ:"
    diff "$2" "$3" | grep '^[<>]' | head -20
  fi
}
# json TITLE CMD...: run each command line (one per argument, split on spaces); the keys of all
# their outputs against the JSON OUTPUT subsection TITLE.
json() {
  local title=$1 cmdline
  shift
  : >"$tmp/json"
  for cmdline in "$@"; do
    # shellcheck disable=SC2086
    run "$bin" $cmdline
    check "$title: $cmdline runs" '[ "$rc" = 0 ] && [ -s "$tmp/out" ]'
    cat "$tmp/out" >>"$tmp/json"
  done
  documented "JSON OUTPUT" "$title" >"$tmp/doc"
  awk -f "$here/support/json_keys.awk" "$tmp/json" | sort -u >"$tmp/emitted"
  same "$title" "$tmp/doc" "$tmp/emitted"
}
# csv TITLE FILE [HEADER_LINE]: the header (line HEADER_LINE, default 1) against RESULTS FILES.
csv() {
  documented "RESULTS FILES" "$1" >"$tmp/doc"
  sed -n "${3:-1}p" "$2" | tr ',' '\n' | sort -u >"$tmp/emitted"
  same "$1 columns" "$tmp/doc" "$tmp/emitted"
}

p=$tmp/p.dat
"$bin" generate random --kind rolling3d --nc 20 --seed 3 -o "$p" --solution "$tmp/p.sol" 2>/dev/null
json "conebench solve --json" "solve $p --solver nsgs --json"
json "conebench info --json" "info $p --json"
"$bin" generate three-spheres --steps 1:200:100 -o "$tmp/steps" >/dev/null
json "conebench info DIR --json" "info $tmp/steps --json"
json "conebench error" "error $p --solution $tmp/p.sol"
json "conebench reference --json" "reference $p -o $tmp/p.ref --json" \
  "reference $p --check $tmp/p.ref --json"
short="--param t_end=0.01 --json"
json "conebench simulate --json (model nonsmooth)" "simulate sphere-plane $short" \
  "simulate sphere-incline $short" "simulate three-spheres $short" \
  "simulate sphere-pile --param n=6 $short"
json "conebench simulate --json (model analytic)" "simulate sphere-plane --model analytic --json"
comp="--model compliant $short"
json "conebench simulate --json (model compliant, compliant-legacy, compliant-edem)" \
  "simulate sphere-plane $comp" "simulate sphere-incline $comp" "simulate three-spheres $comp" \
  "simulate brick-incline $comp" \
  "simulate sphere-pile $comp --param n=4 --param mu_s=0.5 --param normal=hertz"
json "conebench filippov wheel|body --json" \
  "filippov wheel --param Md=0.44145 --param w2=1.7658 --param w3=1 --json" \
  "filippov body --param shape=disk --param wx=1 --json"

printf 'name tiny\ngenerate random kind=rolling3d nc=5 seeds=1\nsolver nsgs\ntol 1e-6\nmax-iter 100\ntime-limit 5\n' >"$tmp/tiny.conf"
run "$bin" run "$tmp/tiny.conf" -o "$tmp/runs" --quiet
check "run tiny campaign" '[ "$rc" = 0 ]'
csv runs.csv "$tmp/runs/runs.csv"
json "conebench report --json" "report $tmp/runs --json"
run "$bin" bench-check --campaign "$tmp/tiny.conf" --counters-only -o "$tmp/bench" --quiet
check "bench-check --counters-only" '[ "$rc" = 0 ]'
csv bench.csv "$tmp/bench/bench.csv" "$(grep -n '^problem,' "$tmp/bench/bench.csv" | cut -d: -f1)"
csv samples.csv "$tmp/bench/samples.csv"
echo "cli json keys: $pass passed, $fail failed"
[ "$fail" = 0 ]
