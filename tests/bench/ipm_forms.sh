#!/usr/bin/env bash
# ipm on the global form (W never formed) against ipm on the condensed W, side by side
# (BENCHMARKS.md, "ipm on global files"): for every global file of the data folder, ROUNDS
# interleaved rounds of `solve --repeat 3` with form=global then form=local (the same process
# count, the same stretch of the machine's noise); prints per file the median CPU time of each
# form, the ratio global/local with its min–max over the rounds, iterations and judged errors.
#
#   tests/bench/ipm_forms.sh [ROUNDS]        (default 5; data from $CONEBENCH_DATA or ../shared/data)
set -u
rounds=${1:-5}
repo=$(git rev-parse --show-toplevel)
cd "$repo" || exit 1
data=${CONEBENCH_DATA:-$(cd ../shared/data 2>/dev/null && pwd)}
if [ -z "$data" ] || [ ! -d "$data" ]; then
  echo "ipm_forms: skipped: no data folder (set CONEBENCH_DATA or put it at ../shared/data)"
  exit 0
fi
bin=bin/conebench
[ -x "$bin" ] || { echo "ipm_forms: build first (make)"; exit 1; }
files="$data/fc3d/Spheres-i099-356-679.hdf5 $data/rolling/GRFC3D_Chute-ndof-768-nc-4-3.dat
       $data/rolling/Chute-ndof-768-nc-4-3.hdf5"
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }
printf '%-34s %10s %10s %22s %6s %6s %9s %9s\n' file global_s local_s 'ratio [min, max]' it_g it_l err_g err_l
for f in $files; do
  [ -f "$f" ] || { echo "ipm_forms: $f absent, skipped"; continue; }
  g="" l=""
  for r in $(seq 1 "$rounds"); do
    for form in global local; do
      out=$("$bin" solve "$f" --solver ipm+nsn --option form=$form --tol 1e-10 --repeat 3 --json) ||
        { echo "ipm_forms: solve failed on $f"; exit 1; }
      cpu=$(echo "$out" | field cpu_s) it=$(echo "$out" | field iterations)
      err=$(echo "$out" | field error)
      if [ $form = global ]; then g="$g $cpu" itg=$it errg=$err; else l="$l $cpu" itl=$it errl=$err; fi
    done
    echo "  $(basename "$f") round $r/$rounds" >&2
  done
  python3 - "$(basename "$f")" "$g" "$l" "$itg" "$itl" "$errg" "$errl" <<'EOF'
import statistics, sys
name, g, l = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
r = [a / b for a, b in zip(g, l)]
print('%-34s %10.4f %10.4f %8.2f [%5.2f, %5.2f] %6s %6s %9.1e %9.1e' % (
    name, statistics.median(g), statistics.median(l), statistics.median(r), min(r), max(r),
    sys.argv[4], sys.argv[5], float(sys.argv[6]), float(sys.argv[7])))
EOF
done
