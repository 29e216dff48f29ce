#!/usr/bin/env bash
# Siconos-made step sequences (scripts/siconos_scenes.py, `make scenes`): a small box stack and a
# small sphere pile (rolling friction, d = 5) simulated by Siconos, then checked by conebench,
# not by Siconos' word: every step file has its .ids/.meta/.sol; `conebench info` reads every
# step and its nc is the number of .ids lines and the .meta's nc; the judge (`conebench error`)
# says Siconos' own solution of every step is solved at 1e-8 — Siconos solved to 1e-10 by its
# own measure, and the judge's normalisation is not Siconos' (they differ by factors of order
# one), so 1e-8 leaves two orders for that and none for a wrong solution or a wrong contact
# order (errors of order one); siconos_iterations are positive integers; contact ids are unique
# in a step and persist from one step to the next (Siconos keeps an interaction while its
# contact lasts; in the sphere pile, one contact a pair, the pair is the identity). Bad arguments
# exit 2 before any work; without python3-siconos (python -S hides it) the script exits 77,
# saying so, and writes nothing. Skipped, saying so, when the Python interpreter or
# python3-siconos is absent. Usage: cli_scenes.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
py=${PYTHON3:-/usr/bin/python3}
script=$cb_tree/scripts/siconos_scenes.py
name="cli scenes"
judge_tol=1e-8

if [ ! -x "$py" ]; then echo "$name: skipped: no Python interpreter ($py)"; exit 0; fi
# prun ARGS...: the script (never under RUNNER: it is Python), as run() does for BIN
prun() { rc=0; "$py" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?; }

# bad arguments: exit 2, a message naming the problem, nothing written
prun "$script" no-such-scene -o "$tmp/bad"
check "unknown scene" '[ $rc = 2 ] && grep -q "unknown scene .no-such-scene." "$tmp/err" && [ ! -e "$tmp/bad" ]'
prun "$script" box-stack -o "$tmp/bad" --steps 0
check "steps 0" '[ $rc = 2 ] && grep -q "steps" "$tmp/err" && [ ! -e "$tmp/bad" ]'
prun "$script" box-stack -o "$tmp/bad" --tol 2
check "tol 2" '[ $rc = 2 ] && grep -q "tol" "$tmp/err" && [ ! -e "$tmp/bad" ]'
# without python3-siconos (python -S: no dist-packages): the skip status, saying so
prun -S "$script" box-stack -o "$tmp/bad" --steps 5
check "absent siconos" '[ $rc = 77 ] && grep -q "skipped: python3-siconos" "$tmp/err" && [ ! -e "$tmp/bad" ]'

prun "$script" box-stack -o "$tmp/seq" --boxes 2 --steps 30 --tol 1e-10 -q
if [ $rc = 77 ]; then
  echo "$name: skipped: python3-siconos is not installed ($(head -c 200 "$tmp/err"))"
  echo "$name: $pass passed, $fail failed"; [ $fail = 0 ]; exit
fi
check "box-stack run" '[ $rc = 0 ] && grep -q "^box-stack: 30 steps, " "$tmp/out"'
prun "$script" sphere-pile -o "$tmp/seq" --spheres 3 --steps 25 --tol 1e-10 -q
check "sphere-pile run" '[ $rc = 0 ] && grep -q "^sphere-pile: 25 steps, " "$tmp/out"'

# check_sequence DIR SCENE KIND: every step of the sequence, as the header says
check_sequence() {
  local dir=$1 scene=$2 kind=$3 n=0 f b nc ids prev=""
  for f in "$dir"/"$scene"-step*.dat; do
    [ -e "$f" ] || continue
    n=$((n + 1)); b=${f%.dat}
    check "$scene files ${b##*/}" '[ -s "$b.ids" ] && [ -s "$b.meta" ] && [ -s "$b.sol" ]'
    run "$bin" info "$f"
    check "$scene info ${b##*/}" '[ $rc = 0 ] && grep -q "^kind: $kind$" "$tmp/out"'
    nc=$(sed -n 's/^nc: //p' "$tmp/out")
    check "$scene ids count ${b##*/}" '[ "$(head -1 "$b.ids")" = "conebench-ids $nc" ] && [ $(($(wc -l <"$b.ids") - 1)) = "$nc" ] && grep -qx "nc=$nc" "$b.meta"'
    ids=$(tail -n +2 "$b.ids")
    check "$scene ids unique ${b##*/}" '[ "$(echo "$ids" | sort -u | wc -l)" = "$nc" ] && ! echo "$ids" | grep -qv "^[0-9][0-9]* \(-1\|[0-9][0-9]*\) [0-9][0-9]*$"'
    check "$scene meta ${b##*/}" 'grep -q "^siconos_iterations=[1-9][0-9]*$" "$b.meta" && grep -qx "source=siconos" "$b.meta" && grep -q "^siconos_error=" "$b.meta"'
    run "$bin" error "$f" --solution "$b.sol" --tol $judge_tol
    check "$scene judge ${b##*/}" '[ $rc = 0 ] && grep -q "\"solved\":true" "$tmp/out"'
    [ -n "$prev" ] && [ -n "$(comm -12 <(echo "$prev" | sort) <(echo "$ids" | sort))" ] && persist=1
    prev=$ids
  done
  check "$scene steps" '[ $n -ge 5 ]'
}
persist=0
check_sequence "$tmp/seq/box-stack" box-stack coulomb3d
check "ids persist" '[ $persist = 1 ]'
check "ground contacts" 'cat "$tmp"/seq/box-stack/*.ids | grep -q "^[0-9][0-9]* -1 "'
persist=0
check_sequence "$tmp/seq/sphere-pile" sphere-pile rolling3d
check "ids persist (spheres)" '[ $persist = 1 ]'
# a second run replaces the first: no step beyond its last one is left
prun "$script" box-stack -o "$tmp/seq" --boxes 2 --steps 20 --tol 1e-10 -q
last=$(ls "$tmp/seq/box-stack" | sed -n 's/^box-stack-step\([0-9]*\)\.dat$/\1/p' | sort -n | tail -1)
check "rerun replaces" '[ $rc = 0 ] && [ "$last" = 20 ] && [ -z "$(ls -A "$tmp/seq" | grep "^\.")" ]'
echo "$name: $pass passed, $fail failed"
[ $fail = 0 ]
