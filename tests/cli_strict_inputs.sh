#!/usr/bin/env bash
# conebench's readers refuse what is not a whole, valid input (man conebench, FILES): a Siconos
# text file cut at any byte is refused with exit 2 and "conebench: FILE:LINE: what", or, when the
# prefix happens to be a complete file, read as the same problem (info prints the same problem:
# no prefix may read differently, as FC3D_Example1_SBM.dat cut inside its last μ once read μ = 1
# for 0.1). Through `conebench info` (one process per prefix): the last 40 bytes of
# FC3D_Example1_SBM.dat and of rolling/RFC3D_sphere_1.dat, where their last numbers are, and
# every 101st offset before (under CONEBENCH_QUICK, sanitizer and valgrind runs: the last 32 and
# every 200th); every byte offset of these and eight more files is tests/test_strict_inputs.c.
# Then: NUL bytes (FILE:LINE), a key given twice, --time-limit's range, "did you mean", nc = 0
# solved at once by every native solver, and every
# numeric option range `list solvers` states against what validation accepts
# (tests/support/option_ranges.py; skipped without python3).
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

# NUL bytes in a text input: FILE:LINE, exit 2 (a problem and a solution file).
"$bin" generate random --kind coulomb3d --nc 3 --seed 2 -o "$tmp/p.dat" --solution "$tmp/p.sol" 2>/dev/null
{ head -c 40 "$tmp/p.dat"; printf '\0'; tail -c +41 "$tmp/p.dat"; } >"$tmp/nul.dat"
line=$(($(head -c 40 "$tmp/p.dat" | tr -cd '\n' | wc -c) + 1))
run "$bin" info "$tmp/nul.dat"
check "NUL in a problem file" '[ "$rc" = 2 ] && grep -qx "conebench: $tmp/nul.dat:$line: NUL byte (at byte 40): not a text file" "$tmp/err"'
{ cat "$tmp/p.sol"; printf '\0\n'; } >"$tmp/nul.sol"
line=$(($(wc -l <"$tmp/p.sol") + 1))
run "$bin" error "$tmp/p.dat" --solution "$tmp/nul.sol"
check "NUL in a solution file" '[ "$rc" = 2 ] && grep -qx "conebench: $tmp/nul.sol:$line: NUL byte (at byte $(wc -c <"$tmp/p.sol")): not a text file" "$tmp/err"'

printf 'name n\ngenerate random kind=coulomb3d nc=3 seeds=1\nsolver nsgs\n\0solver psor\n' >"$tmp/nul.conf"
run "$bin" run "$tmp/nul.conf" -o "$tmp/nulrun" --quiet
check "NUL in a campaign file" '[ "$rc" = 2 ] && [ ! -e "$tmp/nulrun" ] &&
  grep -qx "conebench: $tmp/nul.conf:4: NUL byte (at byte 63): not a text file" "$tmp/err"'

# A key given twice is refused, naming it and both values (solver options, scenario parameters).
run "$bin" solve "$tmp/p.dat" --solver nsgs --option omega=1 --option omega=1.5
check "repeated solver option" '[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] &&
  grep -qx "conebench: option omega: given twice (omega=1, then omega=1.5)" "$tmp/err"'
run "$bin" generate sphere-plane --param mu=0.2 --param mu=0.3 --steps 1 -o "$tmp/g"
check "repeated scenario parameter" '[ "$rc" = 2 ] && [ ! -e "$tmp/g" ] &&
  grep -q "param mu: given twice (mu=0.2, then mu=0.3)" "$tmp/err"'

# --time-limit: 0 (none) or (0, 1e6] seconds; negative, huge and NaN are refused before any work.
for t in -1 1e300 1000001 nan; do
  run "$bin" solve "$tmp/p.dat" --solver nsgs --time-limit "$t" --solution "$tmp/t.sol"
  check "--time-limit $t refused" '[ "$rc" = 2 ] && [ ! -e "$tmp/t.sol" ] && [ ! -s "$tmp/out" ] &&
    grep -q "^conebench: --time-limit: " "$tmp/err"'
done
for t in 0 1e6 0.5; do
  run "$bin" solve "$tmp/p.dat" --solver nsgs --time-limit "$t"
  check "--time-limit $t accepted" '[ "$rc" = 0 ] && grep -q "  solved  status=converged" "$tmp/out"'
done

# "Did you mean": a misspelt solver or option name gets the nearest one; a far one gets none.
run "$bin" solve "$tmp/p.dat" --solver nsgss
check "solver: did you mean" '[ "$rc" = 2 ] &&
  grep -qx "conebench: --solver: unknown solver '"'nsgss'"' (did you mean '"'nsgs'"'?) (see conebench list solvers)" "$tmp/err"'
run "$bin" solve "$tmp/p.dat" --solver ipn
check "solver: one substitution" '[ "$rc" = 2 ] && grep -q "(did you mean '"'ipm'"'?)" "$tmp/err"'
run "$bin" solve "$tmp/p.dat" --solver zzzzzz
check "solver: nothing near" '[ "$rc" = 2 ] && ! grep -q "did you mean" "$tmp/err"'
run "$bin" solve "$tmp/p.dat" --solver nsgs --option omgea=1
check "option: did you mean" '[ "$rc" = 2 ] &&
  grep -qx "conebench: option omgea: not an option of solver nsgs (did you mean '"'omega'"'?)" "$tmp/err"'
run "$bin" conformance nsgx
check "conformance: did you mean" '[ "$rc" = 2 ] && grep -q "(did you mean '"'nsgs'"'?)" "$tmp/err"'

# nc = 0: a valid problem without contacts (local, dense 0 x 0 W), solved at once by every solver
# with error 0: info, solve (text, --json, --solution), error on the written solution.
printf '3\n0\n0\n0\n0\n0\t0\n' >"$tmp/nc0.dat"
run "$bin" info "$tmp/nc0.dat" --json
check "nc = 0: info" '[ "$rc" = 0 ] && grep -q "\"nc\":0,.*\"mu\":\[\]," "$tmp/out"'
native=$("$bin" list solvers | awk '/^[^ ]/ && $1 !~ /^siconos-/ && $1 != "external" { print $1 }')
check "nc = 0: native solvers listed" '[ "$(echo "$native" | wc -w)" -ge 8 ]'
for sv in $native; do
  run "$bin" solve "$tmp/nc0.dat" --solver "$sv" --json --solution "$tmp/nc0.$sv.sol"
  check "nc = 0: $sv solves at once" '[ "$rc" = 0 ] &&
    grep -q "\"nc\":0,.*\"status\":\"converged\",\"solved\":true,\"iterations\":0,\"error\":0,\"error_q\":0,\"error_data\":0," "$tmp/out" &&
    [ "$(cat "$tmp/nc0.$sv.sol")" = "0 3" ]'
done
run "$bin" error "$tmp/nc0.dat" --solution "$tmp/nc0.nsgs.sol"
check "nc = 0: error" '[ "$rc" = 0 ] && grep -q "\"error\":0,.*\"solved\":true" "$tmp/out"'
# A global file without contacts (a granular-flow step before the first contact): M (ndof x
# ndof), a dense ndof x 0 H, q, and no b or mu; the condensed problem has nc = 0, solved at once.
printf '2\n0\n0\n2\n2\n2\t2\n1 0\n0 1\n0\n2\n0\n2\t0\n\n\n-1 -2\n\n\n' >"$tmp/gnc0.dat"
run "$bin" info "$tmp/gnc0.dat"
check "global nc = 0: info" '[ "$rc" = 0 ] && grep -qx "nc: 0" "$tmp/out" && grep -qx "kind: coulomb2d" "$tmp/out"'
for sv in nsgs nsn ipm; do
  run "$bin" solve "$tmp/gnc0.dat" --solver "$sv" --json
  check "global nc = 0: $sv solves at once" '[ "$rc" = 0 ] &&
    grep -q "\"nc\":0,.*\"status\":\"converged\",\"solved\":true,\"iterations\":0," "$tmp/out"'
done
run "$bin" convert "$tmp/nc0.dat" "$tmp/nc0.hdf5"
check "nc = 0: no FCLIB" '[ "$rc" = 2 ] && [ ! -e "$tmp/nc0.hdf5" ] &&
  grep -qx "conebench: $tmp/nc0.hdf5:0: FCLIB holds no problem without contacts (nc = 0): write Siconos text" "$tmp/err"'

# Every numeric option range `list solvers` states is what validation accepts.
if command -v python3 >/dev/null; then
  run python3 "$(dirname "$0")/support/option_ranges.py" "$bin" "$tmp"
  check "option ranges agree with list solvers" '[ "$rc" = 0 ] && grep -q "^option ranges: [1-9][0-9]* boundary values checked, 0 disagree$" "$tmp/out"'
  tail -1 "$tmp/out"
else
  echo "cli strict inputs: option ranges: skipped: no python3"
fi
echo "cli strict inputs: $pass passed, $fail failed"
[ "$fail" = 0 ]
