#!/usr/bin/env bash
# Time to 1e-8 on the random multibody rolling3d problems of the `hard` campaign, nc = 500 seed 3
# and nc = 1000 seed 1 (BENCHMARKS.md, "The hard campaign"):
#     tests/bench/multibody_time.sh [ROUNDS]
# nsn and ipm with their defaults, nsn smoothing=off (the method without its smoothing phase)
# and siconos-nsgs (the one Siconos fc3d solver that takes rolling3d; absent in a build without
# Siconos), each from p = 0 with a 20 s limit, in ROUNDS (default 3) interleaved rounds whose
# solver order alternates, one OpenBLAS thread. Prints a Markdown table: per problem and solver,
# the rounds solved (judged anew: the verdict, error_data <= 1e-8), the median and min-max wall time
# of the runs, the largest error_q (the error normalised by |q| alone: a drifted p shows here)
# and the iteration counts.
set -euo pipefail
rounds=${1:-3}
cd "$(dirname "$0")/../.."
bin=bin/conebench
[ -x "$bin" ] || { echo "multibody_time: build first (make)"; exit 1; }
export OPENBLAS_NUM_THREADS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" generate random --kind rolling3d --nc 500 --seed 3 -o "$tmp/r500.dat" >/dev/null 2>&1
"$bin" generate random --kind rolling3d --nc 1000 --seed 1 -o "$tmp/r1000.dat" >/dev/null 2>&1
solvers=("nsn+nsgs" "ipm+nsn" "nsn+nsgs smoothing=off")
listed=$("$bin" list solvers 2>/dev/null)
grep -q '^siconos-nsgs ' <<<"$listed" && solvers+=("siconos-nsgs")
: >"$tmp/rows"
for ((r = 0; r < rounds; r++)); do
    order=("${solvers[@]}")
    if ((r % 2)); then # alternate the order: no solver always runs first
        order=()
        for ((i = ${#solvers[@]} - 1; i >= 0; i--)); do order+=("${solvers[i]}"); done
    fi
    for prob in r500 r1000; do
        for entry in "${order[@]}"; do
            read -r solver opt <<<"$entry"
            args=(solve "$tmp/$prob.dat" --solver "$solver" --tol 1e-8 --time-limit 20 --json)
            [ -n "${opt:-}" ] && args+=(--option "$opt")
            echo "multibody_time: round $((r + 1))/$rounds $prob $entry" >&2
            line=$("$bin" "${args[@]}" 2>/dev/null | tail -1 || true)
            printf '%s\t%s\t%s\n' "$prob" "$entry" "$line" >>"$tmp/rows"
        done
    done
done
python3 - "$tmp/rows" <<'EOF'
import json, statistics, sys
rows = {}
for ln in open(sys.argv[1]):
    prob, entry, js = ln.rstrip("\n").split("\t")
    rows.setdefault((prob, entry), []).append(json.loads(js) if js.startswith("{") else None)
print("| problem | solver | solved | time s, median (min-max) | max error_q | iterations |")
print("|---|---|---:|---:|---:|---:|")
for (prob, entry), rs in rows.items():
    ok = [r for r in rs if r and r["solved"]]
    t = [r["time_s"] for r in rs if r]
    it = sorted({r["iterations"] for r in rs if r})
    eq = max(r["error_q"] for r in rs if r)
    print(f"| {prob} | {entry} | {len(ok)}/{len(rs)} | {statistics.median(t):.2f} "
          f"({min(t):.2f}-{max(t):.2f}) | {eq:.1e} | {', '.join(map(str, it))} |")
EOF
