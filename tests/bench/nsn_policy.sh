#!/usr/bin/env bash
# nsn's smoothing policy on every file of the data directory (../shared/data or $CONEBENCH_DATA)
# and the random multibody set of the `hard` campaign (rolling3d nc = 500 seed 3, nc = 1000
# seed 1), BENCHMARKS.md "nsn's default policy":
#     tests/bench/nsn_policy.sh [TIME_LIMIT] [random]
# nsn with smoothing=auto (the default), off and on, each from p = 0 to tol 1e-8 with a
# TIME_LIMIT (default 20) CPU-second budget, one OpenBLAS thread, the three runs of a problem
# one after the other. Prints a Markdown table: per problem and setting, the judge's verdict
# (solve's own, error_data <= 1e-8), iterations and CPU seconds (cpu_s of solve --json: setup
# and solve, reading included; a run under 50 ms is run again with --repeat 20: the least of 20
# solves, reading not included), and the ratio default / off in CPU time. With `random`, only
# the two random problems.
set -euo pipefail
limit=${1:-20}
only=${2:-}
cd "$(dirname "$0")/../.."
bin=bin/conebench
[ -x "$bin" ] || { echo "nsn_policy: build first (make)"; exit 1; }
data=${CONEBENCH_DATA:-../shared/data}
export OPENBLAS_NUM_THREADS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" generate random --kind rolling3d --nc 500 --seed 3 -o "$tmp/random-500-3.dat" >/dev/null 2>&1
"$bin" generate random --kind rolling3d --nc 1000 --seed 1 -o "$tmp/random-1000-1.dat" >/dev/null 2>&1
files=()
if [ "$only" = random ]; then
    :
elif [ -d "$data" ]; then
    while IFS= read -r f; do files+=("$f"); done < <(find "$data" -type f ! -name 'README*' | sort)
else
    echo "nsn_policy: $data absent: only the random problems"
fi
files+=("$tmp/random-500-3.dat" "$tmp/random-1000-1.dat")
# the top-level key $1 of the JSON object $2 (not a phase's), empty when absent
field() { /usr/bin/python3 -c 'import json, sys
try:
    v = json.loads(sys.argv[2]).get(sys.argv[1], "")
except ValueError:
    v = ""
print(str(v).lower() if isinstance(v, bool) else v)' "$1" "$2"; }
echo "load before: $(cat /proc/loadavg)"
echo "| problem | nc | auto: solved, iter, CPU s | off | on | auto / off |"
echo "|---|---|---|---|---|---|"
for f in "${files[@]}"; do
    row="" nc="" t_auto="" t_off="" s_auto="" s_off=""
    for mode in auto off on; do
        echo "nsn_policy: $(basename "$f") smoothing=$mode" >&2
        args=(solve "$f" --solver nsn --option smoothing=$mode --tol 1e-8 --time-limit "$limit" --json)
        line=$("$bin" "${args[@]}" 2>/dev/null | tail -1 || true)
        cpu=$(field cpu_s "$line")
        if [ -n "$cpu" ] && awk -v c="$cpu" 'BEGIN { exit !(c < 0.05) }'; then
            # short: the least of 20 solves (solve --repeat), reading not counted
            line=$("$bin" "${args[@]}" --repeat 20 2>/dev/null | tail -1 || true)
        fi
        if [ -z "$line" ] || [ -z "$(field solved "$line")" ]; then
            row+=" n/a |"
            continue
        fi
        nc=$(field nc "$line")
        s=$(field solved "$line") it=$(field iterations "$line") cpu=$(field cpu_s "$line")
        [ "$s" = true ] && s=yes || s=no
        row+=" $s, $it, $(printf '%.4g' "$cpu") |"
        [ $mode = auto ] && t_auto=$cpu s_auto=$s
        [ $mode = off ] && t_off=$cpu s_off=$s
    done
    ratio=$(awk -v a="$t_auto" -v o="$t_off" 'BEGIN { if (a != "" && o > 0) printf "%.2f", a / o; else print "-" }')
    echo "| $(basename "$f") | $nc |$row $ratio |"
    if [ "$s_off" = yes ] && [ "$s_auto" != yes ]; then lost="${lost:-} $(basename "$f")"; fi
done
echo "load after: $(cat /proc/loadavg)"
# the policy's claim: the default solves every problem smoothing=off solves (a run the budget
# stopped on a loaded machine can break it: run again with a larger TIME_LIMIT)
if [ -n "${lost:-}" ]; then
  echo "nsn_policy: solved by smoothing=off but not by the default:$lost"
  exit 1
fi
