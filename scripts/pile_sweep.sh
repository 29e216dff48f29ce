#!/bin/sh
# conebench — sphere-pile regime sweep (Acary & Bourrier §6.2, Fig. 5).
#
# usage: scripts/pile_sweep.sh BIN OUTDIR [JOBS] ["MU LIST"] ["MU_R LIST"] [--param k=v]...
#
# Runs `BIN simulate sphere-pile --model nonsmooth --json` once per (mu, mu_r) pair, JOBS at a
# time, writes each summary to OUTDIR/runs/ (write to a temporary name, then rename: a killed
# sweep leaves no partial summary and re-running it resumes where it stopped), gathers
# OUTDIR/pile.csv and draws OUTDIR/pile.png and pile.svg with plots/pile.gp.
# Extra arguments are passed to every simulate call (e.g. --param n=100 --param t_end=5).
set -eu

NAME=pile_sweep
DEF_MUS="0.1 0.3 0.5 0.7 1"
DEF_MURS="1e-5 1e-4 1e-3 3e-3 1e-2 1e-1"
. "$(dirname "$0")/sweep_args.sh"
EXTRA="$REST"

# One line per pending run: mu mu_r (pairs already summarised are skipped: resume).
PENDING="$OUT/pending.txt"
: > "$PENDING"
TOTAL=0
for mu in $MUS; do
    for mur in $MURS; do
        TOTAL=$((TOTAL + 1))
        [ -s "$OUT/runs/mu=${mu}_mur=${mur}.json" ] || echo "$mu $mur" >> "$PENDING"
    done
done
TODO=$(wc -l < "$PENDING")
echo "pile: $TOTAL runs, $((TOTAL - TODO)) already done, $TODO to run with $JOBS jobs" >&2

export BIN OUT EXTRA
# shellcheck disable=SC2016
xargs -r -P "$JOBS" -L 1 sh -c '
    mu=$1; mur=$2; f="$OUT/runs/mu=${mu}_mur=${mur}.json"
    # shellcheck disable=SC2086
    if OPENBLAS_NUM_THREADS=1 "$BIN" simulate sphere-pile --model nonsmooth --json \
           --param mu="$mu" --param mu_r="$mur" $EXTRA > "$f.tmp" 2> "$f.err"; then
        mv "$f.tmp" "$f"; rm -f "$f.err"
        h=$(sed -n "s/.*\"height_over_phi\":\([^,}]*\).*/\1/p" "$f")
        t=$(sed -n "s/.*\"time_s\":\([^,}]*\).*/\1/p" "$f")
        echo "pile: mu=$mu mu_r=$mur height/phi=$h ($t s)" >&2
    else
        rm -f "$f.tmp"; echo "conebench: pile_sweep: mu=$mu mu_r=$mur failed, see $f.err" >&2; exit 255
    fi' sh < "$PENDING"
rm -f "$PENDING"

# Gather: one row per summary, sorted by mu then mu_r.
CSV="$OUT/pile.csv"
{
    echo "mu,mu_r,height_over_phi,mean_radius_over_phi,base_count,steps,unsolved,max_error,time_s"
    for f in "$OUT"/runs/*.json; do
        sed -n 's/.* mu=\([^ ]*\) mu_r=\([^ ]*\) .*"height_over_phi":\([^,]*\),"mean_radius_over_phi":\([^,]*\),"base_count":\([^,}]*\).*/\1,\2,\3,\4,\5/p' "$f" |
            tr -d '\n'
        sed -n 's/.*"steps":\([^,]*\),"unsolved":\([^,]*\),.*"max_error":\([^,]*\),.*"time_s":\([^,]*\),.*/,\1,\2,\3,\4/p' "$f"
    done | sort -t, -k1,1g -k2,2g
} > "$CSV.tmp"
mv "$CSV.tmp" "$CSV"
MULIST=$(tail -n +2 "$CSV" | cut -d, -f1 | sort -gu | tr '\n' ' ')
gnuplot -e "csv='$CSV'; out='$OUT/pile'; sub='$EXTRA'; mus='$MULIST'" "$HERE/plots/pile.gp"
echo "pile: wrote $CSV, $OUT/pile.png, $OUT/pile.svg" >&2
