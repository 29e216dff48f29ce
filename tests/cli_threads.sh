#!/usr/bin/env bash
# conebench CLI: threads. `solve --threads N` (1..64) and a campaign's `threads N` line are
# validated before any work (exit 2 naming the flag, or FILE:LINE); a run gives the same bits
# at 1 and 2 threads (nsgs and psor with order=coloured and order=domains, pfp, apgd with the
# full W and with W's upper half, the judge's W products) on a problem large enough to
# share out (CB_PAR_MIN_ROWS); nsgs with order=coloured and order=domains solves a pile heap to
# its tolerance (the judge's verdict); `run --jobs J` with `threads N` above the online cores
# says so on stderr. Usage: cli_threads.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") # absolute: the script works in $tmp
cd "$tmp" || exit 1

"$bin" generate random --kind rolling3d --nc 1500 --seed 3 -o mb.dat >/dev/null 2>&1
# 2000 spheres (5 748 contacts): order=domains cuts it once (a leaf holds 2 000 or more)
"$bin" generate sphere-pile --param init=heap --param n=2000 --steps 1 --max-iter 1 -o heap >/dev/null 2>&1
heap=heap/sphere-pile-step1.dat

for bad in 0 65 x; do
  run "$bin" solve mb.dat --solver nsgs --threads $bad --solution bad.sol
  check "--threads $bad refused" '[ "$rc" = 2 ] && grep -q -- "--threads" "$tmp/err" && [ ! -e bad.sol ]'
done

# the same solution bytes at 1 and 2 threads (20 sweeps/iterations: nothing converges, so every
# iterate's bits count); the figures line without its time
for sv in nsgs:order=coloured psor:order=coloured nsgs:order=domains psor:order=domains apgd pfp \
    apgd:half=on; do
  name=${sv%%:*} opt=()
  [ "$sv" != "$name" ] && opt=(--option "${sv#*:}")
  for f in mb.dat "$heap"; do
    for t in 1 2; do
      run "$bin" solve "$f" --solver "$name" "${opt[@]}" --threads $t --tol 1e-14 --max-iter 20 \
        --time-limit 0 --solution "s$t.sol"
      sed 's/ *time=[^ ]*//' "$tmp/out" >"line$t"
    done
    check "$sv $(basename "$f") same bits at 1 and 2 threads" 'cmp -s s1.sol s2.sol && cmp -s line1 line2 && [ -s s1.sol ]'
  done
done

# coloured nsgs converges on the heap (judged solved) and reports how many contacts it has
run "$bin" solve "$heap" --solver nsgs --option order=coloured --threads 2 --tol 1e-6 --json
check "coloured nsgs solves the heap" 'grep -q "\"solved\":true" "$tmp/out" && grep -q "\"status\":\"converged\"" "$tmp/out"'
run "$bin" solve "$heap" --solver nsgs --option order=domains --threads 2 --tol 1e-6 --json
check "domains nsgs solves the heap" 'grep -q "\"solved\":true" "$tmp/out" && grep -q "\"status\":\"converged\"" "$tmp/out"'
run "$bin" solve "$heap" --solver nsgs --option order=colored
check "order=colored refused, naming the choices" '[ "$rc" = 2 ] && grep -q "coloured" "$tmp/err"'

# campaign lines
printf 'generate random kind=rolling3d nc=5 seeds=1\nsolver nsgs\nthreads 0\n' >c.conf
run "$bin" run c.conf -o res --quiet
check "campaign threads 0 refused at its line" '[ "$rc" = 2 ] && grep -q "c.conf:3: threads" "$tmp/err" && [ ! -e res ]'
printf 'generate random kind=rolling3d nc=5 seeds=1\nsolver nsgs\nthreads 2\nthreads 2\n' >c.conf
run "$bin" run c.conf -o res --quiet
check "second threads line refused" '[ "$rc" = 2 ] && grep -q "c.conf:4:" "$tmp/err"'
cores=$(getconf _NPROCESSORS_ONLN)
printf 'generate random kind=rolling3d nc=5 seeds=1\nsolver nsgs\nthreads %d\n' "$cores" >c.conf
run "$bin" run c.conf -o res2 --quiet --jobs 2
check "jobs x threads above the cores: warned" '[ "$rc" = 0 ] && grep -q "warning: --jobs 2 x threads $cores" "$tmp/err"'
printf 'generate random kind=rolling3d nc=5 seeds=1\nsolver nsgs\nthreads 1\n' >c.conf
run "$bin" run c.conf -o res3 --quiet --jobs 1
check "within the cores: no warning" '[ "$rc" = 0 ] && ! grep -q "warning" "$tmp/err"'

echo "cli threads: $pass passed, $fail failed"
[ "$fail" = 0 ]
