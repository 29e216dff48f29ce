#!/usr/bin/env bash
# Time to tolerance of our fastest solver against Siconos's fastest, per problem and tolerance
# (BENCHMARKS.md, "Second-order solvers against Siconos"):
#     tests/bench/second_order.sh [RESULTS_DIR [ROUNDS]]
# 1. Who solves what: the campaign campaigns/second-order.conf (every problem of the data folder,
#    nsn, ipm, nsgs, nsgs-proj and seven Siconos solvers, tol 1e-8 and 1e-10), run into
#    RESULTS_DIR (default results/second-order) unless it already has runs.csv.
# 2. How fast, side by side: every (problem, tol, solver) that the campaign solved in every
#    repetition is timed again in process (`solve --repeat 5 --time-limit 0`: campaign runs are
#    cold processes, where a Siconos solve pays its library's first-call costs, ~1 ms), in ROUNDS
#    (default 3) interleaved rounds whose solver order alternates, one OpenBLAS thread. A time is
#    the least CPU time of the 5 solves (cpu_s); a side's time is its fastest solver's median over
#    the rounds; the ratio ours / Siconos is taken round by round (same stretch of the machine's
#    noise): its median and range are printed. Prints a Markdown table on stdout.
set -euo pipefail
dir=${1:-results/second-order}
rounds=${2:-3}
bin=${CONEBENCH:-bin/conebench}
data=${CONEBENCH_DATA:-../shared/data}
export OPENBLAS_NUM_THREADS=1
if [ ! -f "$dir/runs.csv" ]; then
    "$bin" run campaigns/second-order.conf -o "$dir" >&2
fi
[ -d "$data" ] || { echo "second_order.sh: no data folder $data: nothing to time" >&2; exit 0; }

# (problem, tol, label, solver, options) solved in every repetition, one per line (tab-separated).
combos=$(awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{ k = $col["problem"] "\t" $col["tol"] "\t" $col["label"] "\t" $col["solver"] "\t" $col["options"]
  n[k]++; if ($col["status"] == "solved") ok[k]++ }
END { for (k in n) if (ok[k] == n[k]) print k }' "$dir/runs.csv" | sort)

# The data file of a problem name (the file name without its last extension).
declare -A path
while IFS= read -r f; do
    b=$(basename "$f"); path[${b%.*}]=$f
done < <(find "$data/fc3d" "$data/rolling" -maxdepth 1 -type f \( -name '*.dat' -o -name '*.hdf5' \) 2>/dev/null)

times=$(mktemp)
trap 'rm -f "$times"' EXIT
mapfile -t lines <<< "$combos"
for ((r = 0; r < rounds; r++)); do
    echo "second_order.sh: round $((r + 1)) of $rounds (${#lines[@]} timings)" >&2
    for ((i = 0; i < ${#lines[@]}; i++)); do
        idx=$i
        ((r % 2 == 1)) && idx=$((${#lines[@]} - 1 - i))
        IFS=$'\t' read -r prob tol label solver options <<< "${lines[$idx]}"
        f=${path[$prob]:-}
        [ -n "$f" ] || continue
        args=(solve "$f" --solver "$solver" --tol "$tol" --max-iter 100000 --time-limit 0 \
              --repeat 5 --json)
        if [ -n "$options" ]; then
            IFS=';' read -ra opts <<< "$options"
            for o in "${opts[@]}"; do args+=(--option "$o"); done
        fi
        out=$(timeout 120 "$bin" "${args[@]}" 2>/dev/null || true)
        st=$(sed -n 's/.*"status":"\([a-z_]*\)".*/\1/p' <<< "$out")
        cpu=$(sed -n 's/.*"cpu_s":\([0-9.e+-]*\).*/\1/p' <<< "$out")
        [ "$st" = solved ] || cpu=NaN
        printf '%s\t%s\t%s\t%d\t%s\n' "$prob" "$tol" "$label" "$r" "${cpu:-NaN}" >> "$times"
    done
done

awk -F'\t' -v reps="$rounds" '
{ key = $1 SUBSEP $2; keys[key] = 1; side = ($3 ~ /^siconos-/) ? "siconos" : "ours"
  sl = key SUBSEP side SUBSEP $3; labs[sl] = 1
  if ($5 == "NaN") bad[sl] = 1; else t[sl SUBSEP $4] = $5 + 0 }
function median(a, n,    i, j, x) {
    for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function best(key, side,    sl, parts, m, bm, bl, r, v) {
    bm = -1; bl = ""
    for (sl in labs) {
        split(sl, parts, SUBSEP)
        if (parts[1] SUBSEP parts[2] != key || parts[3] != side || bad[sl]) continue
        delete v
        for (r = 0; r < reps; r++) v[r + 1] = t[sl SUBSEP r]
        m = median(v, reps)
        if (bm < 0 || m < bm) { bm = m; bl = parts[4] }
    }
    bestt[key SUBSEP side] = bm
    return bl
}
function fmt(x) { return x < 0 ? "—" : x < 1e-3 ? sprintf("%.0f µs", x * 1e6) : sprintf("%.3g ms", x * 1e3) }
END {
    n = 0
    for (k in keys) order[++n] = k
    for (i = 2; i <= n; i++) { x = order[i]; for (j = i - 1; j >= 1 && order[j] > x; j--) order[j + 1] = order[j]; order[j + 1] = x }
    print "| problem | tol | ours: fastest | CPU | Siconos: fastest | CPU | ours / Siconos (median) | range over rounds |"
    print "|---|---|---|---|---|---|---|---|"
    for (i = 1; i <= n; i++) {
        k = order[i]; split(k, kp, SUBSEP)
        lo = best(k, "ours"); ls = best(k, "siconos")
        to = bestt[k SUBSEP "ours"]; ts = bestt[k SUBSEP "siconos"]
        rs = "—"; rng = lo == "" ? "ours: none solved" : "Siconos: none solved"
        if (lo != "" && ls != "") {
            delete rr
            for (r = 0; r < reps; r++)
                rr[r + 1] = t[k SUBSEP "ours" SUBSEP lo SUBSEP r] / t[k SUBSEP "siconos" SUBSEP ls SUBSEP r]
            med = median(rr, reps); rs = sprintf("%.3g", med)
            rng = sprintf("%.3g–%.3g", rr[1], rr[reps])
            both++; if (med <= 0.5) good++
        }
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", kp[1], kp[2], lo == "" ? "—" : lo,
               fmt(to), ls == "" ? "—" : ls, fmt(ts), rs, rng
    }
    printf "\nours / Siconos <= 0.5 on %d of the %d (problem, tol) pairs that both sides solve\n", good, both
}' "$times"
