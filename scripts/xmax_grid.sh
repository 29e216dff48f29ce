#!/bin/sh
# conebench — X_max grid of the sphere rolling on a plane (Acary & Bourrier §6.1, Fig. 2).
#
# usage: scripts/xmax_grid.sh BIN OUTDIR [JOBS] ["MU LIST"] ["MU_R LIST"] [--param k=v]...
#
# For every (mu, mu_r): the nonsmooth Moreau–Jean model and the closed form from slip-free
# rolling initial conditions (U0 = 2.5 m/s, W0 = 5 rad/s, R = 0.5 m, rho = 2500 kg/m^3), the stop
# distance x_stop of each and their relative difference, in OUTDIR/xmax.csv; OUTDIR/xmax.png
# and .svg show the nonsmooth X_max map with contours and the difference map. Runs go JOBS at a
# time; each result is written under a temporary name then renamed, so re-running resumes.
set -eu

NAME=xmax_grid
DEF_MUS="0.005 0.01 0.015 0.02 0.025 0.03 0.04 0.05 0.06 0.08 0.1 0.12 0.15 0.2 0.25 0.3"
DEF_MURS="0.001 0.002 0.004 0.006 0.008 0.01 0.012 0.014 0.016 0.018 0.02 0.024 0.028 0.032 0.036 0.04"
. "$(dirname "$0")/sweep_args.sh"
EXTRA="--param U0=2.5 --param W0=5 --param h=1e-3 --param t_end=400 $REST"

PENDING="$OUT/pending.txt"
: > "$PENDING"
TOTAL=0
for mu in $MUS; do
    for mur in $MURS; do
        TOTAL=$((TOTAL + 1))
        [ -s "$OUT/runs/mu=${mu}_mur=${mur}.csv" ] || echo "$mu $mur" >> "$PENDING"
    done
done
echo "xmax: $TOTAL grid points, $(wc -l < "$PENDING") to run with $JOBS jobs" >&2

export BIN OUT EXTRA
# shellcheck disable=SC2016
xargs -r -P "$JOBS" -L 1 sh -c '
    mu=$1; mur=$2; f="$OUT/runs/mu=${mu}_mur=${mur}.csv"
    field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$2"; }
    for m in nonsmooth analytic; do
        # shellcheck disable=SC2086
        if ! "$BIN" simulate sphere-plane --model $m --json --param mu="$mu" --param mu_r="$mur" \
                 $EXTRA > "$f.$m" 2> "$f.err"; then
            rm -f "$f.nonsmooth" "$f.analytic"
            echo "conebench: xmax_grid: mu=$mu mu_r=$mur ($m) failed, see $f.err" >&2; exit 255
        fi
    done
    xn=$(field x_stop "$f.nonsmooth"); tn=$(field t_stop "$f.nonsmooth")
    xa=$(field x_stop "$f.analytic"); ta=$(field t_stop "$f.analytic")
    if [ -z "$xn" ] || [ -z "$xa" ]; then
        echo "conebench: xmax_grid: mu=$mu mu_r=$mur: no stop within t_end (raise --param t_end)" >&2
        rm -f "$f.nonsmooth" "$f.analytic"; exit 255
    fi
    echo "$mu,$mur,$xn,$tn,$xa,$ta" > "$f.tmp" && mv "$f.tmp" "$f"
    rm -f "$f.nonsmooth" "$f.analytic" "$f.err"' sh < "$PENDING"
rm -f "$PENDING"

CSV="$OUT/xmax.csv"
{
    echo "mu,mu_r,x_stop,t_stop,x_stop_closed_form,t_stop_closed_form,rel_diff"
    cat "$OUT"/runs/*.csv | awk -F, '{ d = ($3 - $5) / $5; printf "%s,%s,%s,%s,%s,%s,%.3e\n", $1, $2, $3, $4, $5, $6, d }' |
        sort -t, -k1,1g -k2,2g
} > "$CSV.tmp"
mv "$CSV.tmp" "$CSV"
awk -F, 'NR > 1 { d = $7 < 0 ? -$7 : $7; if (d > m) m = d; n++ }
         END { printf "xmax: %d points, max |x_stop - closed form| / closed form = %.3e\n", n, m }' "$CSV" >&2
# The same rows, one block per mu (blank line between blocks) for gnuplot's pm3d.
awk -F, 'NR > 1 { if (NR > 2 && $1 != last) print ""; last = $1; print $1, $2, $3, $7 }' "$CSV" > "$OUT/xmax.grid"
NMU=$(tail -n +2 "$CSV" | cut -d, -f1 | sort -u | wc -l)
NMUR=$(tail -n +2 "$CSV" | cut -d, -f2 | sort -u | wc -l)
if [ "$NMU" -lt 2 ] || [ "$NMUR" -lt 2 ]; then # pm3d needs a grid, not a line
    echo "xmax: wrote $CSV; no map: it needs at least 2 values of mu and of mu_r ($NMU and $NMUR given)" >&2
    exit 0
fi
SUBT=$(echo "$EXTRA" | sed 's/--param //g; s/_/\\_/g')
gnuplot -e "grid='$OUT/xmax.grid'; out='$OUT/xmax'; sub='$SUBT'" "$HERE/plots/xmax.gp"
echo "xmax: wrote $CSV, $OUT/xmax.png, $OUT/xmax.svg" >&2
