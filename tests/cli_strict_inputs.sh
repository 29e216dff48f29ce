#!/usr/bin/env bash
# conebench's readers refuse what is not a whole, valid input (man conebench, FILES): a Siconos
# text file cut at any byte is refused with exit 2 and "conebench: FILE:LINE: what", or, when the
# prefix happens to be a complete file, read as the same problem (info prints the same problem:
# no prefix may read differently, as FC3D_Example1_SBM.dat cut inside its last μ once read μ = 1
# for 0.1). Through `conebench info` (one process per prefix): the last 40 bytes of
# FC3D_Example1_SBM.dat and of rolling/RFC3D_sphere_1.dat, where their last numbers are, and
# every 101st offset before (under CONEBENCH_QUICK, sanitizer and valgrind runs: the last 32 and
# every 200th); every byte offset of these and eight more files is tests/test_strict_inputs.c.
# Usage: cli_strict_inputs.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
export OPENBLAS_NUM_THREADS=1

# info without the lines that name the file or hash its bytes: the problem itself.
problem_of() { $runner "$bin" info "$1" 2>/dev/null | grep -v -e '^file:' -e '^sha256:'; }

# prefix_verdicts FILE: one line "OFFSET refused|same|DIFFERENT|BADMSG(exit)" per prefix length.
prefix_verdicts() {
  local f=$1 size offsets
  size=$(wc -c <"$f")
  problem_of "$f" >"$tmp/full.txt"
  local tail=40 every=101
  [ "${CONEBENCH_QUICK:-0}" = 1 ] && tail=32 every=200
  offsets=$( { seq 0 "$every" "$size"; seq $((size > tail ? size - tail : 0)) "$size"; } | sort -nu)
  export f tmp bin runner
  # shellcheck disable=SC2016
  printf '%s\n' $offsets | xargs -P 2 -n 1 bash -c '
    o=$1 p=$tmp/cut.$1.dat
    head -c "$o" "$f" >"$p"
    rc=0; $runner "$bin" info "$p" >"$p.out" 2>"$p.err" </dev/null || rc=$?
    if [ "$rc" = 2 ] && [ "$(wc -l <"$p.err")" = 1 ] && grep -q "^conebench: $p:[0-9][0-9]*: " "$p.err"; then
      echo "$o refused"
    elif [ "$rc" = 0 ] && [ "$(grep -v -e "^file:" -e "^sha256:" "$p.out")" = "$(cat "$tmp/full.txt")" ]; then
      echo "$o same"
    elif [ "$rc" = 0 ]; then echo "$o DIFFERENT"
    else echo "$o BADMSG($rc): $(head -c 200 "$p.err")"; fi
    rm -f "$p" "$p.out" "$p.err"' _ | sort -n
}

if find_data "cli strict inputs: truncation"; then
  for f in "$data/fc3d/FC3D_Example1_SBM.dat" "$data/rolling/RFC3D_sphere_1.dat"; do
    name=${f#"$data"/}
    prefix_verdicts "$f" >"$tmp/verdicts"
    bad=$(grep -v -e ' refused$' -e ' same$' "$tmp/verdicts" | head -5)
    size=$(wc -c <"$f")
    check "$name: every prefix refused or the same problem" '[ -z "$bad" ] || { echo "$bad"; false; }'
    check "$name: the whole file reads" 'grep -qx "$size same" "$tmp/verdicts"'
    check "$name: the empty file is refused" 'grep -qx "0 refused" "$tmp/verdicts"'
    same=$(grep -c ' same$' "$tmp/verdicts")
    echo "cli strict inputs: $name: $(wc -l <"$tmp/verdicts") prefixes, $same read as the whole file" \
      "(offsets $(grep ' same$' "$tmp/verdicts" | cut -d' ' -f1 | tr '\n' ' '))"
  done
  # The case of the issue: cut inside the last μ (1.000…e-01 → "1.0") is refused, not μ = 1.
  head -c 1316 "$data/fc3d/FC3D_Example1_SBM.dat" >"$tmp/cut1316.dat"
  run "$bin" info "$tmp/cut1316.dat"
  check "cut inside the last mu" '[ "$rc" = 2 ] && grep -qx "conebench: $tmp/cut1316.dat:46: mu: the file ends inside a number (its last value has no newline after it and is shorter than the value before it): cut off?" "$tmp/err"'
  # A hand-written file without the final newline whose last number is not shorter than the
  # one before it stays readable (FrictionContact3D_1c.dat ends "3\n\n0.1").
  run "$bin" info "$data/fc3d/FrictionContact3D_1c.dat"
  check "FrictionContact3D_1c.dat (no final newline) reads" '[ "$rc" = 0 ] && grep -qx "mu: \[0.10000000000000001, 0.10000000000000001\]" "$tmp/out"'
fi
echo "cli strict inputs: $pass passed, $fail failed"
[ "$fail" = 0 ]
