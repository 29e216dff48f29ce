# conebench CLI test scripts (tests/cli_*.sh): the shared start, sourced with the script's
# arguments "RUNNER" BIN. Sets runner (a command prefix such as valgrind, may be empty), bin,
# the pass/fail counters and tmp, a temporary directory removed when the script exits.
set -u
runner=${1:-}
bin=${2:-bin/conebench}
pass=0
fail=0
tmp=$(mktemp -d /tmp/cbcli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# run CMD...: run it with stdin from /dev/null, stdout in $tmp/out, stderr in $tmp/err, exit
# status in rc (RUNNER prefixed).
run() { rc=0; $runner "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?; }
# json_field KEY: the value of the top-level "KEY" of the JSON object in $tmp/out.
json_field() { /usr/bin/python3 -c 'import json, sys
v = json.load(open(sys.argv[2])).get(sys.argv[1], "")
print(str(v).lower() if isinstance(v, bool) else v)' "$1" "$tmp/out" 2>/dev/null; }
# phase_iters SOLVER: the iterations of the phase of SOLVER in $tmp/out (empty when absent).
phase_iters() { grep -o "{\"solver\":\"$1\",\"iterations\":[0-9]*" "$tmp/out" | sed 's/.*://'; }
# rel_diff A B: ‖p_A − p_B‖ / ‖p_B‖ over the p column of two solution files.
rel_diff() { /usr/bin/python3 -c 'import math, sys
def p(f):
    return [float(l.split()[0]) for l in open(f).read().split("\n")[1:] if l.strip()]
a, b = p(sys.argv[1]), p(sys.argv[2])
nb = math.sqrt(sum(x * x for x in b))
print(math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b))) / nb if len(a) == len(b) and nb > 0 else 1)' "$1" "$2"; }
# check NAME CONDITION: count a pass, or print the failure with the last command's outputs.
check() {
  if eval "$2"; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL [$1]: $2; exit $rc, stderr: $(head -c 300 "$tmp/err"), stdout: $(head -c 300 "$tmp/out")"
  fi
}
# have_siconos: true when BIN has the Siconos adapters (its `conebench version` says so); else
# prints "NAME: skipped: built without Siconos (make SICONOS=0)" for the NAME given.
have_siconos() {
  "$bin" version | grep -q '^siconos adapters: built' && return 0
  echo "$1: skipped: built without Siconos (make SICONOS=0)"
  return 1
}
# find_data NAME: set data to the Siconos data folder where the README says it is
# ($CONEBENCH_DATA, else ../shared/data beside the source tree) and return 0; when it is absent
# print "NAME: skipped: ..." and return 1.
cb_tree=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd) # the source tree (before any cd)
find_data() {
  data=${CONEBENCH_DATA:-$cb_tree/../shared/data}
  [ -d "$data" ] && return 0
  echo "$1: skipped: Siconos data folder absent ($data; ../shared/data beside the tree or \$CONEBENCH_DATA)"
  return 1
}
