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
