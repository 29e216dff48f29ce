#!/bin/sh
# conebench — a sphere sliding on a plane at ANGLE degrees to the x axis (a facet normal of the
# game engines' friction box), spin held at 0 (rolling resistance mu_r = 0.2 m >= R mu = 0.1 m,
# so the rolling moment keeps the sphere from rolling: the closed form's "slide" phase): the
# closed form (simulate --model analytic, Acary & Bourrier 6.1) is a straight line along the
# launch direction, decelerating at mu g, stopping at U0^2/(2 mu g).
#
# usage: scripts/engines_sliding.sh BIN OUTDIR [ANGLE] [SOLVER[:K] ...]
#
# Runs `BIN simulate sphere-plane` with each SOLVER (default: nsn and the built engine adapters
# with their box), K: the option facets=K (a K-facet pyramid), and the closed form; writes
# OUTDIR/LABEL.csv (the time series, a row every 20 steps) and OUTDIR/LABEL.json (the summary),
# OUTDIR/closed.csv (the closed form's path), OUTDIR/sliding.csv (label, solver, facets,
# heading_deg: the angle between the displacement at the stop and the launch direction,
# d_stop: the distance from the start at the stop, d_stop_rel_err: against the closed form's,
# t_stop), and draws OUTDIR/sliding.png (the x-y paths, equal axes) with
# plots/compliant_series.gp when gnuplot is on PATH. Prints the figure's caption and writes it
# to OUTDIR/sliding.caption.
set -eu
if [ $# -lt 2 ]; then
    echo "conebench: usage: scripts/engines_sliding.sh BIN OUTDIR [ANGLE] [SOLVER[:K] ...]" >&2
    exit 2
fi
BIN=$1
OUT=$2
ANGLE=${3:-30}
shift $(( $# < 3 ? $# : 3 ))
HERE=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$BIN" ] || { echo "conebench: engines_sliding: $BIN: not an executable" >&2; exit 2; }
case $ANGLE in ''|*[!0-9.-]*) echo "conebench: engines_sliding: ANGLE '$ANGLE' is not a number" >&2; exit 2;; esac
SOLVERS="$*"
if [ -z "$SOLVERS" ]; then
    SOLVERS="nsn"
    for s in bullet-dantzig bullet-pgs dart-dantzig dart-pgs; do
        "$BIN" list solvers | grep -q "^$s " && SOLVERS="$SOLVERS $s"
    done
fi
mkdir -p "$OUT"
P="--param angle=$ANGLE --param U0=2.5 --param W0=0 --param mu=0.2 --param mu_r=0.2"

# The closed form: its stop along the launch direction, and its path x (cos a, sin a).
# shellcheck disable=SC2086
"$BIN" simulate sphere-plane --model analytic $P --json --csv "$OUT/closed_t.csv" --every 20 \
    >"$OUT/closed.json"
closed=$(sed -n 's/.*"x_stop":\([^,}]*\).*/\1/p' "$OUT/closed.json")
awk -F, -v a="$ANGLE" 'NR == 1 { print "t,x,y"; next }
    { r = a * atan2(0, -1) / 180; printf "%s,%.17g,%.17g\n", $1, $2 * cos(r), $2 * sin(r) }' \
    "$OUT/closed_t.csv" >"$OUT/closed.csv"

num() { sed -n "s/.*\"$2\":\([^,}]*\).*/\1/p" "$1"; }
echo "label,solver,facets,heading_deg,d_stop,d_stop_rel_err,t_stop" >"$OUT/sliding.csv"
for spec in $SOLVERS; do
    solver=${spec%%:*}
    facets=4
    opt=""
    label=$solver
    case $spec in *:*) facets=${spec#*:}; opt="--option facets=$facets"; label="$solver-facets$facets";; esac
    # shellcheck disable=SC2086
    if ! OPENBLAS_NUM_THREADS=1 "$BIN" simulate sphere-plane $P --solver "$solver" $opt --json \
           --csv "$OUT/$label.csv" --every 20 >"$OUT/$label.json" 2>"$OUT/$label.err"; then
        echo "engines_sliding: $label failed: $(cat "$OUT/$label.err")" >&2
        continue
    fi
    d=$(num "$OUT/$label.json" d_stop)
    awk -v l="$label" -v s="$solver" -v k="$facets" -v h="$(num "$OUT/$label.json" heading_deg)" \
        -v d="$d" -v c="$closed" -v t="$(num "$OUT/$label.json" t_stop)" \
        'BEGIN { printf "%s,%s,%s,%s,%s,%.6g,%s\n", l, s, k, h, d, (d - c) / c, t }' \
        >>"$OUT/sliding.csv"
done
column -s, -t "$OUT/sliding.csv" 2>/dev/null || cat "$OUT/sliding.csv"

caption="The x-y path of a sphere launched at 2.5 m/s at $ANGLE deg to the x axis on a plane (mu = 0.2, spin held by mu_r = 0.2 m): the closed form is a straight line stopping at $closed m; a k-facet pyramid's friction points to the vertex nearest the sliding direction, so the path bends toward the nearest facet normal (table: $OUT/sliding.csv)."
echo "caption: $caption"
echo "$caption" >"$OUT/sliding.caption"
command -v gnuplot >/dev/null 2>&1 || { echo "engines_sliding: no figure: gnuplot not on PATH" >&2; exit 0; }
# The series: the closed form (thick dotted), then each run (b1_x, b1_y columns of its CSV).
args="f1='$OUT/closed.csv'; x1=2; y1=3; k1=1; s1=3; t1='closed form'"
n=1
for row in $(tail -n +2 "$OUT/sliding.csv" | cut -d, -f1-3); do
    f=${row%%,*}
    k=${row##*,}
    model="box"
    [ "$k" = 4 ] || model="$k-facet pyramid"
    [ "$f" = nsn ] && model="exact cone"
    n=$((n + 1))
    cx=$(head -1 "$OUT/$f.csv" | tr , '\n' | grep -n '^b1_x$' | cut -d: -f1)
    args="$args; f$n='$OUT/$f.csv'; x$n=$cx; y$n=$((cx + 1)); k$n=1; s$n=$(( n == 2 ? 1 : 2 )); t$n='${row%%,*} ($model)'"
done
gnuplot -e "out='$OUT/sliding'; ttl='Sphere sliding at $ANGLE deg to a facet: closed form, exact cone, engine friction'; note='launch 2.5 m/s, mu = 0.2, spin held; box and pyramid paths bend toward the nearest facet normal'; xl='x (m)'; yl='y (m)'; ratio=-1; keypos='bottom right'; n=$n; $args" \
    "$HERE/plots/compliant_series.gp"
echo "figure: $OUT/sliding.png"
