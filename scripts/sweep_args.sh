# conebench — argument handling shared by the (mu, mu_r) sweeps (pile_sweep.sh, xmax_grid.sh).
# Usage, after setting NAME, DEF_MUS and DEF_MURS:  . "$(dirname "$0")/sweep_args.sh" "$@"
# Sets BIN, OUT, JOBS, MUS, MURS, REST (the arguments after the fifth) and HERE (the repo root),
# checks them (exit 2 with a message naming the argument) and creates OUT/runs.
if [ $# -lt 2 ]; then
    echo "conebench: usage: scripts/$NAME.sh BIN OUTDIR [JOBS] [\"MU LIST\"] [\"MU_R LIST\"] [--param k=v]..." >&2
    exit 2
fi
BIN=$1
OUT=$2
JOBS=${3:-2}
MUS=${4:-$DEF_MUS}
MURS=${5:-$DEF_MURS}
shift $(( $# < 5 ? $# : 5 ))
REST="$*"
HERE=$(cd "$(dirname "$0")/.." && pwd)
case $JOBS in ''|*[!0-9]*|0) echo "conebench: $NAME: JOBS '$JOBS' is not a positive integer" >&2; exit 2;; esac
[ -x "$BIN" ] || { echo "conebench: $NAME: $BIN: not an executable" >&2; exit 2; }
mkdir -p "$OUT/runs"
