#!/usr/bin/env bash
# Same seed, same bits, everywhere. Generates a fixed set of problems of every kind (random
# multibody and SPD problems of the five cone kinds, time steps of every mechanical scenario,
# a sphere-pile heap and a poured pile) and runs the `ci` campaign's deterministic part
# (`bench-check --counters-only`: status, iterations, work counters and judged error of every
# run of conebench's own solvers) and nsn and ipm on the random problems (solution files,
# iterations, errors) under every OpenBLAS core type the CPU can run (OPENBLAS_CORETYPE unset, Haswell,
# Zen, SkylakeX, Sandybridge, Prescott), with OPENBLAS_NUM_THREADS = 1 and 2, and once with glibc's libm held to its plain x86-64 code
# (GLIBC_TUNABLES hides FMA/AVX2/AVX-512, as on an older CPU). Every file's sha256 and every
# figure must be identical in every configuration. conebench's own threads (solve --threads):
# nsgs and psor with order=coloured or domains and apgd, admm, pfp, eg (W products) on problems above the
# size that shares out work must write the same solution at --threads 1 and 2. Usage: repro.sh BIN
set -u
bin=$(cd "$(dirname "${1:-bin/conebench}")" && pwd)/$(basename "${1:-bin/conebench}")
tmp=$(mktemp -d /tmp/cbrepro.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
has() { [[ " $flags " == *" $1 "* ]]; }

# core type → the CPU flag it needs (a forced core type the CPU lacks would die on SIGILL)
configs=("unset:")
cores="Haswell:avx2 Zen:avx2 SkylakeX:avx512f Sandybridge:avx Prescott:pni"
if [ -n "${CONEBENCH_QUICK:-}" ]; then # sanitizer runs: fewer configurations, same checks
  cores="Haswell:avx2 Prescott:pni"
fi
for ct in $cores; do
  if has "${ct#*:}"; then configs+=("${ct%%:*}:"); else
    echo "repro: skipping OPENBLAS_CORETYPE=${ct%%:*} (this CPU has no ${ct#*:})"; fi
done

# The fixed set of problems, written into $1.
generate_all() {
  local out=$1
  mkdir -p "$out"
  for kind in coulomb2d coulomb3d rolling2d rolling3d rollspin3d; do
    "$bin" generate random --kind $kind --nc 60 --seed 7 -o "$out/mb-$kind.dat" || return 1
    "$bin" generate random --kind $kind --nc 60 --seed 7 --matrix spd --cond 1e5 \
      -o "$out/spd-$kind.dat" || return 1
    "$bin" generate random --kind $kind --nc 300 --seed 2 --matrix spd --density 0.5 \
      -o "$out/spd-sparse-$kind.dat" || return 1
  done
  "$bin" generate sphere-plane --param config=a --steps 1:4001:1000 -o "$out/sphere-plane" &&
  "$bin" generate sphere-incline --steps 1:2001:500 -o "$out/sphere-incline" &&
  "$bin" generate disk-rolling --steps 1:2001:500 -o "$out/disk-rolling" &&
  "$bin" generate sphere-spin --steps 1:2001:500 -o "$out/sphere-spin" &&
  "$bin" generate three-spheres --steps 1:2001:500 -o "$out/three-spheres" &&
  "$bin" generate sphere-pile --param n=40 --steps 200,400 -o "$out/pile-pour" &&
  "$bin" generate sphere-pile --param init=heap --param n=300 --steps 1,20 -o "$out/pile-heap"
}

# The second-order solvers as composites, nsn+nsgs (KLU, nsgs) and ipm+nsn (CHOLMOD simplicial
# LDL', GMRES, then nsn+nsgs: no BLAS), on the random problems but the half-dense spd-sparse ones (slow for a
# sparse LU): their solution files and one-line figures (status, iterations, judged errors;
# the time field left out). No time limit: a run stopped by the clock is not reproducible.
run_nsn() {
  mkdir -p "$1/nsn"
  for f in "$1"/gen/mb-*.dat "$1"/gen/spd-[cr]*.dat; do
    local b kind=(); b=$(basename "$f" .dat)
    case $b in *rolling2d) kind=(--kind rolling2d) ;; esac # d = 3: read as rolling2d
    for sv in nsn+nsgs ipm+nsn; do
      "$bin" solve "$f" "${kind[@]}" --solver $sv --tol 1e-10 --max-iter 100 --time-limit 0 \
        --solution "$1/nsn/$b.$sv.sol" >"$1/nsn/line" || return 1
      sed 's/ *time=[^ ]*//' "$1/nsn/line" >>"$1/nsn/figures"
    done
  done
}

# conebench's threads: each solver at --threads 1 and 2 on a random multibody problem and a
# pile heap of more contacts than CB_PAR_MIN_ROWS (base.h); the two solutions must be the same
# bytes. Once (its kernels call no BLAS: the core type cannot matter).
run_threads() {
  mkdir -p "$1/thr"
  "$bin" generate random --kind rolling3d --nc 1500 --seed 3 -o "$1/thr/mb.dat" &&
    "$bin" generate sphere-pile --param init=heap --param n=2000 --steps 1 --max-iter 1 \
      -o "$1/thr/heap" || # 5 748 contacts: order=domains cuts it once
    return 1
  for f in "$1/thr/mb.dat" "$1"/thr/heap/*.dat; do
    for sv in nsgs:order=coloured psor:order=coloured nsgs:order=domains psor:order=domains \
      apgd admm pfp eg; do
      local name=${sv%%:*} opt=() b; b=$(basename "$f" .dat)
      [ "$sv" != "$name" ] && opt=(--option "${sv#*:}")
      for t in 1 2; do
        "$bin" solve "$f" --solver "$name" "${opt[@]}" --threads $t --tol 1e-12 --max-iter 20 \
          --time-limit 0 --solution "$1/thr/$b.$name.t$t.sol" >/dev/null || return 1
      done
      cmp "$1/thr/$b.$name.t1.sol" "$1/thr/$b.$name.t2.sol" ||
        { echo "threads: $b $sv differs between --threads 1 and 2"; return 1; }
      rm "$1/thr/$b.$name.t2.sol"
    done
  done
}

# One configuration: problems, the ci campaign's figures, nsn's solutions, and a digest.
run_config() {
  local dir=$1
  generate_all "$dir/gen" >"$dir/log" 2>&1 &&
    "$bin" bench-check --counters-only --quiet -o "$dir/bc" >>"$dir/log" 2>&1 &&
    run_nsn "$dir" >>"$dir/log" 2>&1 || {
      echo "FAIL [$dir]: $(tail -3 "$dir/log")"; return 1; }
  (cd "$dir" && find gen bc/problems nsn -type f ! -name figures ! -name line | LC_ALL=C sort |
     xargs sha256sum && grep -v '^#' bc/bench.csv && cat nsn/figures) >"$dir/digest"
}

fail=0
n=0
for c in "${configs[@]}"; do
  ct=${c%%:*}
  for threads in 1 2; do
    dir="$tmp/$ct-t$threads"
    mkdir -p "$dir"
    if [ "$ct" = unset ]; then
      (unset OPENBLAS_CORETYPE; OPENBLAS_NUM_THREADS=$threads run_config "$dir") &
    else
      (OPENBLAS_CORETYPE=$ct OPENBLAS_NUM_THREADS=$threads run_config "$dir") &
    fi
    n=$((n + 1))
    if [ $((n % 2)) = 0 ]; then wait; fi
  done
done
if ! run_threads "$tmp/.threads" >"$tmp/threads.log" 2>&1; then
  fail=1
  echo "repro: FAIL: threads: $(tail -3 "$tmp/threads.log")"
else
  echo "repro: threads: every solution the same at --threads 1 and 2"
fi
dir="$tmp/plain-libm"
mkdir -p "$dir"
(unset OPENBLAS_CORETYPE
 GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F OPENBLAS_NUM_THREADS=1 run_config "$dir") &
wait

ref="$tmp/unset-t1/digest"
if [ ! -s "$ref" ]; then echo "repro: FAIL: no reference digest"; exit 1; fi

for d in "$tmp"/*/; do
  d=${d%/}
  if ! cmp -s "$ref" "$d/digest"; then
    fail=1
    echo "repro: FAIL: $(basename "$d") differs from unset-t1:"
    diff "$ref" "$d/digest" | head -10
  fi
done
configs_run=$(ls -d "$tmp"/*/ | wc -l)
if [ $fail = 0 ]; then
  echo "repro: $configs_run configurations, $(grep -c '  ' "$ref") files and $(grep -vc '  ' "$ref") figure rows, all identical"
else
  echo "repro: FAILED"
fi
exit $fail
