#!/usr/bin/env bash
# Time to tolerance of our fastest solver against Siconos's fastest, per problem and tolerance
# (BENCHMARKS.md, "Second-order solvers against Siconos"):
#     tests/bench/second_order.sh [RESULTS_DIR [ROUNDS]]
# 1. Who solves what: the campaign campaigns/second-order.conf (every problem of the data folder,
#    nsn+nsgs, ipm+nsn, nsgs, nsgs-proj and seven Siconos solvers, tol 1e-8 and 1e-10), run into
#    RESULTS_DIR (default results/second-order) unless it already has runs.csv.
# 2. How fast, side by side: every (problem, tol, solver) that the campaign solved in every
#    repetition is timed again in process (`solve --repeat 5 --time-limit 0`: campaign runs are
#    cold processes, where a Siconos solve pays its library's first-call costs, ~1 ms), in ROUNDS
#    (default 3) interleaved rounds whose solver order alternates, one OpenBLAS thread. A time is
#    the least CPU time of the 5 solves (cpu_s); a side's time is its fastest solver's median over
#    the rounds; the ratio ours / Siconos is taken round by round (same stretch of the machine's
#    noise): its median and min–max are printed. Prints a Markdown table on stdout.
set -euo pipefail
dir=$(realpath -m "${1:-results/second-order}") # before the cd: relative to the caller
rounds=${2:-3}
cd "$(dirname "$0")/../.."
bin=bin/conebench
data=${CONEBENCH_DATA:-$(cd ../shared/data 2>/dev/null && pwd || true)}
if [ -z "$data" ] || [ ! -d "$data" ]; then
    echo "second_order: skipped: no data folder (set CONEBENCH_DATA or put it at ../shared/data)"
    exit 0
fi
[ -x "$bin" ] || { echo "second_order: build first (make)"; exit 1; }
[ -f "$dir/runs.csv" ] || "$bin" run campaigns/second-order.conf -o "$dir" >&2
export OPENBLAS_NUM_THREADS=1

# Every (problem, tol, label) the campaign solved in all its repetitions: problem, file, nc,
# tol, label, solver, options (tab-separated), from runs.csv and the data folder's files.
combos=$(python3 - "$dir/runs.csv" "$data" <<'EOF'
import collections, csv, os, sys
files = {}
for sub in ("fc3d", "rolling"):
    d = os.path.join(sys.argv[2], sub)
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        files[os.path.splitext(f)[0]] = os.path.join(d, f)
runs = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    runs[(r["problem"], r["tol"], r["label"], r["solver"], r["options"], r["nc"])].append(r["solved"])
for (prob, tol, label, solver, options, nc), st in sorted(runs.items()):
    if prob in files and all(s == "yes" for s in st):
        print("\t".join((prob, files[prob], nc, tol, label, solver, options)))
EOF
)
mapfile -t lines <<< "$combos"
field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,}\"]*\).*/\1/p"; }
times=$(mktemp)
trap 'rm -f "$times"' EXIT
for ((r = 0; r < rounds; r++)); do
    echo "second_order: round $((r + 1)) of $rounds (${#lines[@]} timings)" >&2
    for ((i = 0; i < ${#lines[@]}; i++)); do
        idx=$((r % 2 ? ${#lines[@]} - 1 - i : i)) # the order reverses every round
        IFS=$'\t' read -r prob file nc tol label solver options <<< "${lines[$idx]}"
        args=(solve "$file" --solver "$solver" --tol "$tol" --max-iter 100000 --time-limit 0
              --repeat 5 --json)
        IFS=';' read -ra opts <<< "$options"
        for o in "${opts[@]}"; do args+=(--option "$o"); done
        out=$(timeout 120 "$bin" "${args[@]}" 2>/dev/null || true)
        cpu=nan
        [ "$(field solved <<< "$out")" = true ] && cpu=$(field cpu_s <<< "$out")
        printf '%s\t%s\t%s\t%s\t%d\t%s\n' "$prob" "$nc" "$tol" "$label" "$r" "$cpu" >> "$times"
    done
done

python3 - "$times" "$rounds" <<'EOF'
import collections, math, statistics, sys
t = collections.defaultdict(dict)  # (problem, nc, tol) -> label -> [cpu per round]
for line in open(sys.argv[1]):
    prob, nc, tol, label, r, cpu = line.rstrip("\n").split("\t")
    t[(prob, nc, tol)].setdefault(label, [math.nan] * int(sys.argv[2]))[int(r)] = float(cpu)
def fastest(runs, siconos):  # label whose every round solved, least median; None if none
    ok = {l: v for l, v in runs.items() if l.startswith("siconos-") == siconos
          and not any(math.isnan(x) for x in v)}
    return min(ok, key=lambda l: statistics.median(ok[l])) if ok else None
def fmt(x):
    return "%.0f µs" % (x * 1e6) if x < 1e-3 else "%.3g ms" % (x * 1e3)
print("| problem (nc) | tol | ours: fastest | CPU | Siconos: fastest | CPU | ours / Siconos "
      "(median) | range over rounds |")
print("|---|---|---|---:|---|---:|---:|---|")
good = both = 0
for (prob, nc, tol), runs in sorted(t.items()):
    lo, ls = fastest(runs, False), fastest(runs, True)
    cells = []
    for l in (lo, ls):
        cells += [l, fmt(statistics.median(runs[l]))] if l else ["—", "—"]
    if lo and ls:
        r = [a / b for a, b in zip(runs[lo], runs[ls])]
        med = statistics.median(r)
        both, good = both + 1, good + (med <= 0.5)
        cells += ["%.3g" % med, "%.3g–%.3g" % (min(r), max(r))]
    else:
        cells += ["—", "ours: none solved" if not lo else "Siconos: none solved"]
    print("| %s (%s) | %s | %s |" % (prob, nc, tol, " | ".join(cells)))
print("\nours / Siconos <= 0.5 on %d of the %d (problem, tol) pairs that both sides solve"
      % (good, both))
EOF
