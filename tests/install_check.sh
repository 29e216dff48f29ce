#!/usr/bin/env bash
# make install into a fresh temporary prefix, then, with only that prefix on PKG_CONFIG_PATH,
# build examples/embed with pkg-config, run it (it must solve), and list the shared libraries
# of the example and of libconebench.so: no Siconos when built with SICONOS=0. The installed
# CLI must find its campaigns and plots in PREFIX/share/conebench from any directory.
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
         share/conebench/campaigns/ci.conf; do
  [ -e "$prefix/$f" ] || bad "$f not installed"
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
camps=$(cd / && env -u CONEBENCH_HOME "$prefix/bin/conebench" list campaigns 2>&1 | grep -c '^ci ')
[ "$camps" = 1 ] || bad "the installed CLI does not find its campaigns from /"
rm -rf "$ex"
[ $fail = 0 ] && echo "install-check: passed (prefix $prefix)"
exit $fail
