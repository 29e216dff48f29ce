#!/usr/bin/env bash
# conebench built with make SICONOS=0 uses nothing of Siconos, as if it were not installed:
# no source that is built (the library, the CLI, every test and its support code) reaches a
# header under a siconos/ folder, even through <siconos/...> from /usr/include (the compiler
# lists every header it reads, system ones included: cc -M), and no binary or shared library
# of the build needs a Siconos library (ldd). A self-test first shows the header check catches
# a Siconos include when Siconos is installed here.
# Usage: tests/check_no_siconos.sh BUILD "CC CPPFLAGS..."   exit 0 clean, 1 Siconos found.
set -u
build=${1:?usage: check_no_siconos.sh BUILD "CC CPPFLAGS..."}
cpp=${2:?usage: check_no_siconos.sh BUILD "CC CPPFLAGS..."}
fail=0
bad() { echo "check_no_siconos: FAIL: $*"; fail=1; }

# siconos_headers FILE: the Siconos headers the compiler reads for FILE (one a line); fails
# when the compiler cannot read FILE's headers.
siconos_headers() {
  local deps
  deps=$($cpp -M "$1" 2>&1) || { echo "cannot preprocess: $deps" | head -3; return 1; }
  echo "$deps" | tr ' \\' '\n\n' | grep '/siconos/'
  return 0
}

# Self-test: a file that includes a Siconos header the way a stray include would.
if [ -e /usr/include/siconos/numerics/NumericsMatrix.h ]; then
  probe=$(mktemp /tmp/cbnosic.XXXXXX.c)
  echo '#include <siconos/numerics/NumericsMatrix.h>' >"$probe"
  siconos_headers "$probe" | grep -q NumericsMatrix.h ||
    bad "self-test: an include of <siconos/numerics/NumericsMatrix.h> was not caught"
  rm -f "$probe"
fi

n=0
for f in $(find src cli -name '*.c' -not -path 'src/solvers/siconos/*' | LC_ALL=C sort) \
         tests/test_*.c tests/support/*.c; do
  n=$((n + 1))
  hdrs=$(siconos_headers "$f") || { bad "$f: $hdrs"; continue; }
  [ -z "$hdrs" ] || bad "$f reads Siconos headers: $(echo $hdrs)"
done

m=0
for f in "$build"/conebench "$build"/libconebench.so "$build"/tests/test_*; do
  [ -x "$f" ] || [ -e "$f" ] || continue
  m=$((m + 1))
  sic=$(ldd "$f" 2>/dev/null | grep -i siconos)
  [ -z "$sic" ] || bad "$f needs Siconos: $(echo $sic)"
done
[ "$m" -gt 2 ] || bad "$build: fewer binaries than expected ($m): built?"
[ $fail = 0 ] && echo "check_no_siconos: $n sources read no Siconos header, $m binaries need no Siconos library"
exit $fail
