#!/bin/sh
# nsn on every file of the shared data (../shared/data by default), with two binaries: one line
# per file (status, iterations, judged error, cpu_s) of each, and CHANGED where the status or the
# iteration count differs.  Usage: scripts/nsn_shared_compare.sh OLD_BIN NEW_BIN [DATA_DIR] [TOL]
# One solve at a time (CPU-heavy).
set -u
old=$1 new=$2 data=${3:-../shared/data} tol=${4:-1e-8}
row() {
    "$1" solve "$2" --solver nsn --tol "$tol" --time-limit 60 --json 2>/dev/null |
        python3 -c 'import json,sys
try:
    d = json.load(sys.stdin); print(d["status"], d["iterations"], "%.3g" % d["error"], d["cpu_s"])
except Exception: print("fail - - -")'
}
find "$data" -type f \( -name '*.hdf5' -o -name '*.dat' -o -name '*.h5' \) | sort | while read -r f; do
    a=$(row "$old" "$f") b=$(row "$new" "$f")
    flag=""
    [ "$(echo "$a" | cut -d' ' -f1-2)" = "$(echo "$b" | cut -d' ' -f1-2)" ] || flag=" CHANGED"
    echo "$f | $a | $b$flag"
done
