#!/usr/bin/env bash
# The Python package (python/conebench, docs/python.md): tests/python/test_*.py (unittest) run
# by Debian's /usr/bin/python3 with PYTHONPATH=python and CONEBENCH_LIB the libconebench.so
# beside BIN (bin/conebench: build/). They compare the package with BIN: solve's numbers on the
# same file, generate's problem, a campaign's rows, the library's error messages; and
# docs/python.md's every python block runs. Skipped, saying so: without numpy, under RUNNER
# (valgrind: python under memcheck is not what is tested), for a sanitized library (python
# cannot load it without the sanitizers' runtime). The tests skip the data files without
# ../shared/data (each says so), sparse W without scipy, DataFrames without pandas.
# Usage: cli_python.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
py=/usr/bin/python3
if [ -n "$runner" ]; then echo "cli python: skipped under '$runner'"; exit 0; fi
if ! "$py" -c 'import numpy' 2>/dev/null; then
  echo "cli python: skipped: $py has no numpy (apt-get install python3-numpy)"; exit 0
fi
bindir=$(cd "$(dirname "$bin")" && pwd)
binabs=$bindir/$(basename "$bin")
case $bindir in "$cb_tree/bin") libdir=$cb_tree/build ;; *) libdir=$bindir ;; esac
lib=$libdir/libconebench.so
[ -e "$lib" ] || { echo "cli python: FAIL: no $lib (make lib)"; exit 1; }
# gcc links the sanitizers' runtime as a library; clang (make sanitize) into the executables
# only, leaving the library's __asan_/__ubsan_ references undefined: either way python cannot.
if ldd "$lib" | grep -q 'lib[at]san\|libubsan' ||
   nm -D --undefined-only "$lib" 2>/dev/null | grep -q ' __[at]san_\| __ubsan_'; then
  echo "cli python: skipped: $lib is built with the sanitizers"; exit 0
fi
"$py" -c 'import scipy' 2>/dev/null || echo "cli python: python3-scipy absent: the sparse-W tests skip"
find_data "cli python: the tests on Siconos files" || true
out=$tmp/unittest.log
if (cd "$cb_tree/tests/python" && PYTHONPATH="$cb_tree/python:$cb_tree/tests/python" \
      CONEBENCH_LIB=$lib CONEBENCH_BIN=$binabs \
      OPENBLAS_NUM_THREADS=1 "$py" -m unittest -v test_*.py) >"$out" 2>&1; then
  grep ' \.\.\. skipped' "$out" | sed 's/^/cli python: /'
  echo "cli python: $(grep '^Ran ' "$out"): $(tail -1 "$out")"
else
  cat "$out"; echo "cli python: FAIL"; exit 1
fi
