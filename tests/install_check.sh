#!/usr/bin/env bash
# make install into a fresh temporary prefix, then, with only that prefix on PKG_CONFIG_PATH,
# build examples/embed with pkg-config, run it (it must solve), and list the shared libraries
# of the example and of libconebench.so: no Siconos when built with SICONOS=0. The installed
# CLI must find its campaigns and plots in PREFIX/share/conebench from any directory. Then the
# plugin and sequence examples (below), and the Python package.
# Usage: install_check.sh MAKE BUILD SICONOS
set -u
make=${1:-make}
build=${2:-build}
siconos=${3:-1}
prefix=$(mktemp -d /tmp/cbinstall.XXXXXX)
trap 'rm -rf "$prefix"' EXIT
fail=0
bad() { echo "install-check: FAIL: $*"; fail=1; }
$make --no-print-directory install PREFIX="$prefix" BUILD="$build" SICONOS="$siconos" \
  >"$prefix.log" 2>&1 || { tail -20 "$prefix.log"; bad "make install"; exit 1; }
rm -f "$prefix.log"
for f in bin/conebench lib/libconebench.a lib/libconebench.so lib/pkgconfig/conebench.pc \
         include/conebench/solver.h share/conebench/plots/profile.gp \
         share/conebench/campaigns/ci.conf share/doc/conebench/guide.md; do
  [ -e "$prefix/$f" ] || bad "$f not installed"
done
# The boundary: the installed headers are the public ones (include/conebench/*.h) and nothing
# else; libconebench.so exports at most API_MAX functions, every one a cb_ function declared in
# an installed header (the API is the headers; scripts/export_map.sh makes the version script).
API_MAX=100
[ "$(cd "$prefix/include/conebench" && ls)" = "$(cd include/conebench && ls)" ] ||
  bad "installed headers differ from include/conebench/: $(cd "$prefix/include/conebench" && ls | tr '\n' ' ')"
exported=$(nm -D --defined-only "$prefix/lib/libconebench.so" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' |
  sed 's/@.*//' | sort -u)
nexp=$(echo "$exported" | grep -c '^cb_')
echo "install-check: libconebench.so exports $nexp cb_ functions (at most $API_MAX)"
[ "$nexp" -le "$API_MAX" ] || bad "$nexp exported cb_ functions, more than $API_MAX"
for sym in $exported; do
  case "$sym" in cb_*) ;; *) bad "exported symbol $sym is not cb_-prefixed"; continue ;; esac
  grep -qw "$sym" "$prefix"/include/conebench/*.h || bad "exported $sym is declared in no installed header"
done
ex=$(mktemp -d /tmp/cbembed.XXXXXX)
cp examples/embed/solve.c examples/embed/Makefile "$ex/"
if (cd "$ex" && env -u CONEBENCH_HOME PKG_CONFIG_PATH="$prefix/lib/pkgconfig" make -s) \
     >"$ex/build.log" 2>&1; then
  out=$(cd /tmp && "$ex/solve") || bad "the example did not solve: $out"
  echo "install-check: examples/embed: $out"
else
  bad "examples/embed did not build: $(tail -5 "$ex/build.log")"
fi
for f in "$ex/solve" "$prefix/lib/libconebench.so"; do
  [ -e "$f" ] || continue
  needed=$(readelf -d "$f" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
  sic=$(ldd "$f" | grep -ci siconos)
  echo "install-check: $(basename "$f") needs $needed(ldd: $sic Siconos libraries)"
  if [ "$siconos" = 0 ] && [ "$sic" != 0 ]; then bad "$(basename "$f") needs Siconos"; fi
done
ldd "$ex/solve" | grep -q "$prefix/lib/libconebench.so" || bad "the example does not use the installed libconebench.so"
# examples/plugin: built with pkg-config only, run by the installed CLI (solve, a campaign with a
# plugin line, the report), passes the conformance suite; two broken copies fail it, naming the
# check: one ignores max_iter, one never fills the work counters.
pl=$(mktemp -d /tmp/cbplugin.XXXXXX)
cb="$prefix/bin/conebench"
cp examples/plugin/pjacobi.c examples/plugin/Makefile "$pl/"
mkdir "$pl/noiter" "$pl/nowork"
sed 's/if (it >= s->max_iter)/if (0)/' examples/plugin/pjacobi.c > "$pl/noiter/pjacobi.c"
sed '/work\.error_evals++/d; /block_products +=/d; /projections +=/d' examples/plugin/pjacobi.c \
  > "$pl/nowork/pjacobi.c"
for d in "$pl" "$pl/noiter" "$pl/nowork"; do
  cp examples/plugin/Makefile "$d/" 2>/dev/null
  (cd "$d" && env -u CONEBENCH_HOME PKG_CONFIG_PATH="$prefix/lib/pkgconfig" make -s) \
    >"$d/build.log" 2>&1 || bad "examples/plugin did not build in $d: $(tail -3 "$d/build.log")"
done
cmp -s "$pl/pjacobi.c" "$pl/noiter/pjacobi.c" && bad "the max_iter break did not apply"
cmp -s "$pl/pjacobi.c" "$pl/nowork/pjacobi.c" && bad "the counters break did not apply"
"$cb" generate random --kind rolling3d --nc 8 --seed 3 -o "$pl/r.dat" >/dev/null 2>&1
out=$("$cb" solve "$pl/r.dat" --solver pjacobi --plugin "$pl/pjacobi.so" --tol 1e-6 --json 2>&1)
case "$out" in *'"solved":true'*) echo "install-check: plugin solve: solved" ;;
  *) bad "solve --plugin: $out" ;; esac
printf 'plugin pjacobi.so\ngenerate random kind=rolling3d nc=8 seeds=1..2\nsolver pjacobi\nsolver nsgs\ntol 1e-6\nmax-iter 200000\n' \
  > "$pl/c.conf"
"$cb" run "$pl/c.conf" -o "$pl/res" --quiet >"$pl/run.log" 2>&1 || bad "campaign with plugin: $(cat "$pl/run.log")"
"$cb" report "$pl/res" --no-figures >/dev/null 2>&1 || bad "report of the plugin campaign"
grep -q '^| pjacobi | 2 | 2 | 100 %' "$pl/res/report.md" && echo "install-check: the report ranks pjacobi (2 of 2 solved)" \
  || bad "the report does not rank pjacobi: $(grep pjacobi "$pl/res/report.md" | head -2)"
"$cb" conformance pjacobi --plugin "$pl/pjacobi.so" >"$pl/conf.txt" 2>&1 \
  && echo "install-check: conformance pjacobi: $(tail -1 "$pl/conf.txt")" || bad "conformance pjacobi: $(cat "$pl/conf.txt")"
for b in noiter:max_iter nowork:counters; do
  "$cb" conformance pjacobi --plugin "$pl/${b%%:*}/pjacobi.so" >"$pl/conf.txt" 2>"$pl/conf.err"; st=$?
  if [ $st = 1 ] && grep -q "conformance: pjacobi fails .*${b#*:}" "$pl/conf.err"; then
    echo "install-check: broken copy ${b%%:*}: exit 1, $(cat "$pl/conf.err")"
  else
    bad "broken copy ${b%%:*}: exit $st, $(cat "$pl/conf.err")"
  fi
done
rm -rf "$pl"
# examples/sequence: built with pkg-config only, run on 200 steps of three-spheres (3 contacts,
# the pattern of W settles: cb_update_W is exercised) dumped by the installed CLI, with nsn and
# ipm: both ways (setup once, setup every step) must give the same bits and solve every step.
sq=$(mktemp -d /tmp/cbsequence.XXXXXX)
cp examples/sequence/sequence.c examples/sequence/Makefile "$sq/"
if (cd "$sq" && env -u CONEBENCH_HOME PKG_CONFIG_PATH="$prefix/lib/pkgconfig" make -s) \
     >"$sq/build.log" 2>&1; then
  "$cb" generate three-spheres --steps 1:200:1 -o "$sq/steps" >/dev/null 2>&1 ||
    bad "generate three-spheres --steps did not run"
  [ "$(ls "$sq/steps"/*.dat | wc -l)" = 200 ] ||
    bad "generate --steps: $(ls "$sq/steps"/*.dat | wc -l) files, expected 200"
  out=$("$sq/sequence" "$sq/steps" 2 nsn ipm 2>&1) || bad "examples/sequence: $out"
  echo "$out" | sed 's/^/install-check: examples\/sequence: /'
  for s in nsn ipm; do
    echo "$out" | grep -q "^$s .*setups: once=[0-9]* every=200 .*same_bits=yes" ||
      bad "examples/sequence: no line for $s with same bits"
  done
else
  bad "examples/sequence did not build: $(tail -5 "$sq/build.log")"
fi
rm -rf "$sq"
# The Python package: imported from / by Debian's python3 with only the installed folder on
# PYTHONPATH, it loads the installed library and solves (skipped, saying so, without numpy).
pydir=$prefix/lib/python3/dist-packages
if [ ! -e "$pydir/conebench/__init__.py" ] || [ ! -e "$pydir/conebench/libdir.txt" ]; then
  bad "the Python package is not installed in $pydir/conebench"
elif /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  out=$(cd / && env -u CONEBENCH_LIB PYTHONPATH="$pydir" /usr/bin/python3 -c '
import conebench as cb
p = cb.generate("rolling3d", nc=8, seed=3)
sol, info = cb.solve(p, "nsn")
print(cb.LIBRARY, info.status, info.solved)' 2>&1)
  case $out in "$prefix/lib/libconebench.so.0 converged True") echo "install-check: python: $out" ;;
    *) bad "the installed Python package: $out" ;; esac
  # The installed CLI's python solver finds the installed package (no PYTHONPATH).
  printf 'import conebench as cb\ndef solve(problem, settings):\n    return cb.solve(problem, "nsn")[0].p\n' >"$ex/mine.py"
  "$cb" generate random --kind coulomb3d --nc 4 --seed 2 -o "$ex/g.dat" >/dev/null 2>&1
  out=$(cd / && env -u CONEBENCH_LIB -u PYTHONPATH "$cb" solve "$ex/g.dat" --solver python \
        --option module=mine --option path="$ex/mine.py" --json 2>&1)
  case $out in *'"status":"converged","solved":true'*) echo "install-check: python solver: solved" ;;
    *) bad "the installed python solver: $out" ;; esac
else
  echo "install-check: python: skipped: /usr/bin/python3 has no numpy (apt-get install python3-numpy)"
fi
camps=$(cd / && env -u CONEBENCH_HOME "$prefix/bin/conebench" list campaigns 2>&1 | grep -c '^ci ')
[ "$camps" = 1 ] || bad "the installed CLI does not find its campaigns from /"
rm -rf "$ex"
[ $fail = 0 ] && echo "install-check: passed (prefix $prefix)"
exit $fail
