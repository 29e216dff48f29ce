#!/usr/bin/env bash
# --threads 1 against --threads 2 on sphere-pile steps (BENCHMARKS.md, "Threads on pile
# steps"): the first Moreau-Jean step of `sphere-pile init=heap n=N` for each N given, then
# ROUNDS interleaved rounds of nsgs order=coloured, nsgs order=domains and apgd, each with a fixed iteration count
# (ITERS, no tolerance reached: both thread counts do the same work) at 1 then 2 threads;
# prints per solver and size the median wall seconds of the solve (time_solve_s) and CPU seconds
# of each count, the ratio 1-thread/2-thread wall with its min-max over the rounds, and whether
# the two solutions are the same bytes. /proc/loadavg before and after.
#
#   tests/bench/threads_pile.sh [ROUNDS] [ITERS] [N...]     (defaults 3, 50, 10000)
#
# A process a solve: each gets W at new addresses, and on a VM the one-thread time then swings
# from process to process. build/bench/bench_threads runs both counts on one W in one process.
set -u
rounds=${1:-3}
iters=${2:-50}
shift 2 2>/dev/null
sizes=${*:-10000}
repo=$(git rev-parse --show-toplevel)
cd "$repo" || exit 1
bin=bin/conebench
[ -x "$bin" ] || { echo "threads_pile: build first (make)"; exit 1; }
tmp=$(mktemp -d /tmp/cbthreads.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "load before: $(cat /proc/loadavg)"
printf '%-7s %-22s %9s %9s %9s %9s %22s %5s\n' spheres solver wall_t1 wall_t2 cpu_t1 cpu_t2 \
  'speedup [min, max]' bits
for n in $sizes; do
  "$bin" generate sphere-pile --param init=heap --param n="$n" --steps 1 --max-iter 1 \
    -o "$tmp/p$n" >/dev/null || { echo "threads_pile: generate failed (n = $n)"; exit 1; }
  f=$tmp/p$n/sphere-pile-step1.dat
  for sv in nsgs:order=coloured nsgs:order=domains apgd; do
    name=${sv%%:*} opt=()
    [ "$sv" != "$name" ] && opt=(--option "${sv#*:}")
    w1="" w2="" c1="" c2="" ratios=""
    for r in $(seq 1 "$rounds"); do
      for t in 1 2; do
        out=$("$bin" solve "$f" --solver "$name" "${opt[@]}" --threads $t --tol 1e-15 \
          --max-iter "$iters" --time-limit 0 --json --solution "$tmp/s$t") ||
          { echo "threads_pile: solve failed"; exit 1; }
        eval "w$t=\"\$w$t $(echo "$out" | field time_solve_s)\""
        eval "c$t=\"\$c$t $(echo "$out" | field cpu_s)\""
      done
      a=$(echo "$w1" | awk '{print $NF}') b=$(echo "$w2" | awk '{print $NF}')
      ratios="$ratios $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a / b}')"
      same=$(cmp -s "$tmp/s1" "$tmp/s2" && echo same || echo DIFF)
      [ "$same" = same ] || differ="${differ:-} $n:$name"
    done
    lo=$(echo "$ratios" | tr ' ' '\n' | grep . | sort -g | head -1)
    hi=$(echo "$ratios" | tr ' ' '\n' | grep . | sort -g | tail -1)
    printf '%-7s %-22s %9.3f %9.3f %9.3f %9.3f %8.2f [%.2f, %.2f] %5s\n' "$n" "$sv" \
      "$(echo "$w1" | median)" "$(echo "$w2" | median)" "$(echo "$c1" | median)" \
      "$(echo "$c2" | median)" "$(echo "$ratios" | median)" "$lo" "$hi" "$same"
  done
done
echo "load after: $(cat /proc/loadavg)"
# the point of the threads: the same solution bits at 1 and 2 threads, every round
if [ -n "${differ:-}" ]; then
  echo "threads_pile: solutions differ between 1 and 2 threads:$differ"
  exit 1
fi
