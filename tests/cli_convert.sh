#!/usr/bin/env bash
# conebench convert, generate -o X.hdf5, solve --solution OUT.hdf5: FCLIB out from the command
# line. Text → FCLIB → text gives the same bytes (dense and BSR W); FCLIB files read back (info
# prints the same problem); local rolling3d / rollspin3d through conebench's extension of
# fclib_local and every rolling data file give the same text back; what FCLIB cannot hold (local
# rolling2d, the solution of a global problem) and bad input are exit 2 with the exact message
# and no output file. The bitwise
# round trip of every data file and libfclib's own readers are in tests/test_fclib_write.c.
# Usage: cli_convert.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") # absolute: the test runs in $tmp
cd "$tmp" || exit 1

# info without the lines that name the file or hash its bytes: the problem itself.
problem_of() { "$bin" info "$1" | grep -v -e '^file:' -e '^sha256:'; }

for storage in dense bsr; do
  "$bin" generate random --kind coulomb3d --nc 6 --seed 4 --storage $storage -o a.dat 2>/dev/null
  run "$bin" convert a.dat b.hdf5
  check "$storage: text -> FCLIB" '[ "$rc" = 0 ] && [ -s b.hdf5 ] &&
    grep -qx "conebench: wrote b.hdf5 (FCLIB, coulomb3d, nc = 6)" err'
  run "$bin" convert b.hdf5 c.dat
  check "$storage: FCLIB -> text: the same bytes" '[ "$rc" = 0 ] && cmp -s a.dat c.dat'
  check "$storage: FCLIB file reads as the same problem" \
    '[ "$(problem_of b.hdf5)" = "$(problem_of a.dat)" ] && problem_of b.hdf5 | grep -qx "storage: $storage"'
done
run "$bin" convert a.dat d.bin --to fclib
check "--to fclib whatever the extension" '[ "$rc" = 0 ] && head -c 4 d.bin | grep -q HDF'
run "$bin" convert b.hdf5 e.h5 --to siconos
check "--to siconos whatever the extension" '[ "$rc" = 0 ] && cmp -s a.dat e.h5'

run "$bin" generate random --kind coulomb2d --nc 4 --seed 1 -o g.h5 --solution gs.hdf5
check "generate -o X.h5 --solution Y.hdf5" '[ "$rc" = 0 ] && head -c 4 g.h5 | grep -q HDF &&
  head -c 4 gs.hdf5 | grep -q HDF && problem_of g.h5 | grep -qx "kind: coulomb2d"'
run "$bin" generate random --kind rolling2d --nc 4 --seed 1 -o r.hdf5
check "generate rolling2d -o X.hdf5: refused before generating" '[ "$rc" = 2 ] && [ ! -e r.hdf5 ] &&
  grep -qx "conebench: r.hdf5: a local rolling2d problem cannot be written to FCLIB (its spacedim 3 would read as a Coulomb 3D problem in FCLIB readers that do not know conebench'"'"'s extension): write Siconos text (.dat)" err'

# Local rolling3d / rollspin3d: /fclib_local of spacedim 5 / 6 plus conebench's extension.
for kind in rolling3d rollspin3d; do
  for storage in dense bsr; do
    "$bin" generate random --kind $kind --nc 3 --seed 2 --storage $storage -o r.dat 2>/dev/null
    run "$bin" convert r.dat r.hdf5
    check "local $kind $storage: text -> FCLIB" '[ "$rc" = 0 ] &&
      grep -qx "conebench: wrote r.hdf5 (FCLIB, $kind, nc = 3)" err'
    run "$bin" convert r.hdf5 r2.dat
    check "local $kind $storage: FCLIB -> text: the same bytes" '[ "$rc" = 0 ] && cmp -s r.dat r2.dat'
    rm -f r.hdf5 r2.dat
  done
done
run "$bin" generate random --kind rolling3d --nc 4 --seed 1 -o r3.hdf5
check "generate rolling3d -o X.hdf5" '[ "$rc" = 0 ] && problem_of r3.hdf5 | grep -qx "kind: rolling3d"'

"$bin" generate random --kind rolling2d --nc 3 --seed 2 -o r.dat 2>/dev/null
run "$bin" convert r.dat r.hdf5 --kind rolling2d
check "local rolling2d: refused, nothing written" '[ "$rc" = 2 ] && [ ! -e r.hdf5 ] &&
  [ -z "$(ls | grep tmp)" ] &&
  grep -qx "conebench: r.hdf5: a local rolling2d problem cannot be written to FCLIB (its spacedim 3 would read as a Coulomb 3D problem in FCLIB readers that do not know conebench'"'"'s extension): write Siconos text (.dat)" err'

run "$bin" solve b.hdf5 --solver nsgs --solution s.hdf5
check "solve --solution OUT.hdf5: problem and solution" '[ "$rc" = 0 ] && grep -q "  solved  status=converged" out &&
  [ "$(problem_of s.hdf5)" = "$(problem_of a.dat)" ]'
run "$bin" solve r3.hdf5 --solver nsgs --solution s4.hdf5
check "solve --solution OUT.hdf5 of a local rolling3d problem" '[ "$rc" = 0 ] &&
  [ "$(problem_of s4.hdf5)" = "$(problem_of r3.hdf5)" ]'
run "$bin" solve r.dat --kind rolling2d --solver nsgs --solution s2.hdf5
check "solve --solution OUT.hdf5 of a rolling2d problem: refused before solving" '[ "$rc" = 2 ] &&
  [ ! -s out ] && [ ! -e s2.hdf5 ] && grep -q "^conebench: s2.hdf5: a local rolling2d problem cannot be written to FCLIB" err'

printf '3\n2\n0\n6\n6\n6 6\n1 2 x\n' >bad.dat
run "$bin" convert bad.dat bad.hdf5
check "bad input: FILE:LINE, exit 2, no output" '[ "$rc" = 2 ] && [ ! -e bad.hdf5 ] &&
  grep -qx "conebench: bad.dat:7: W: file ends after 3 of 36 values" err'
run "$bin" convert a.dat
check "one argument: usage" '[ "$rc" = 2 ] && grep -qx "conebench: usage: conebench convert IN OUT \[options\]" err'
run "$bin" convert a.dat x.hdf5 --to hdf
check "--to: unknown format" '[ "$rc" = 2 ] && [ ! -e x.hdf5 ] &&
  grep -qx "conebench: --to: '"'"'hdf'"'"' is not siconos or fclib" err'
run "$bin" convert a.dat nodir/x.hdf5
check "missing directory" '[ "$rc" = 2 ] &&
  grep -qx "conebench: nodir/x.hdf5:0: cannot create a temporary file: No such file or directory" err'
run "$bin" help convert
check "help convert" '[ "$rc" = 0 ] && grep -q "^usage: conebench convert IN OUT \[options\]" out'

if find_data "cli convert: data checks"; then
  sph=$data/fc3d/Spheres-i099-356-679.hdf5
  run "$bin" convert "$sph" sph.dat
  check "global FCLIB -> text: global" '[ "$rc" = 0 ] &&
    grep -qx "conebench: wrote sph.dat (Siconos text, global coulomb3d, nc = 356)" err &&
    [ "$(problem_of sph.dat)" = "$(problem_of "$sph")" ]'
  run "$bin" solve "$sph" --solver nsgs --solution s3.hdf5
  check "solve --solution OUT.hdf5 of a global problem: refused" '[ "$rc" = 2 ] && [ ! -e s3.hdf5 ] &&
    grep -qx "conebench: s3.hdf5: an FCLIB solution of a global problem holds the velocities v, which conebench does not compute: write a text solution" err'
  # Every rolling data file: text -> FCLIB -> text gives the text conebench writes for it, and
  # conebench's own text -> FCLIB -> text the same bytes.
  for f in "$data"/rolling/*.dat "$data"/rolling/*.hdf5; do
    base=$(basename "$f")
    "$bin" convert "$f" t1.dat 2>/dev/null && "$bin" convert "$f" h1.hdf5 2>/dev/null
    run "$bin" convert h1.hdf5 t2.dat
    check "rolling/$base -> FCLIB -> text: the same text" '[ "$rc" = 0 ] && cmp -s t1.dat t2.dat'
    "$bin" convert t1.dat h2.hdf5 2>/dev/null && "$bin" convert h2.hdf5 t3.dat 2>/dev/null
    check "rolling/$base as text -> FCLIB -> text: the same bytes" 'cmp -s t1.dat t3.dat'
    rm -f t1.dat t2.dat t3.dat h1.hdf5 h2.hdf5
  done
fi
echo "cli convert: $pass passed, $fail failed"
[ "$fail" = 0 ]
