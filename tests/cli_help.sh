#!/usr/bin/env bash
# conebench CLI contract on help: every command of `conebench help` answers `COMMAND --help`
# and `conebench help COMMAND` with the same text on stdout, exit 0, nothing on stderr; the text
# has the usage line(s), the options (each with its help), an example and the exit statuses.
# `conebench help`, `--help`, `version`, `--version` exit 0; an unknown command (also with
# --help) and `conebench` alone exit 2 with the message on stderr. The options a command's help
# lists are the ones its parser accepts: each one given alone is never "unrecognized".
# Usage: cli_help.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
rc=0

run "$bin" help
check "help" '[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] && grep -q "^usage: conebench COMMAND" "$tmp/out"'
# The commands: the lines "  NAME  summary" of the overview, without help and version.
commands=$(sed -n '/^commands:/,/^$/p' "$tmp/out" | awk 'NF > 1 && $1 != "commands:" {print $1}' |
  grep -vx 'help\|version')
check "overview lists the commands" '[ "$(echo "$commands" | wc -w)" -ge 13 ]'
cp "$tmp/out" "$tmp/overview"
run "$bin" --help
check "--help = help" '[ "$rc" = 0 ] && cmp -s "$tmp/out" "$tmp/overview"'

for c in $commands; do
  run "$bin" "$c" --help
  check "$c --help: exit 0, stdout only" '[ "$rc" = 0 ] && [ ! -s "$tmp/err" ]'
  check "$c --help: usage" 'grep -q "^usage: conebench $c" "$tmp/out"'
  check "$c --help: options" 'grep -q "^options:" "$tmp/out" && grep -q "^  -h, --help  *[a-z]" "$tmp/out"'
  check "$c --help: example" 'grep -A1 "^example:" "$tmp/out" | grep -q "conebench $c\|make "'
  check "$c --help: exit statuses" 'grep -q "^exit status: 0 .*2 bad input" "$tmp/out"'
  cp "$tmp/out" "$tmp/help-$c"
  run "$bin" help "$c"
  check "help $c = $c --help" '[ "$rc" = 0 ] && cmp -s "$tmp/out" "$tmp/help-$c"'
done

# Every option a form lists is accepted by that form's parser: "PREFIX OPTION [x] --zz-unknown"
# stops at --zz-unknown (or at a bad value x), never at OPTION, and before any work is done.
# PREFIX: the usage line's words up to its first option (SCENARIO becomes sphere-plane, other
# placeholders are left out, "--model compliant|..." is kept: it chooses the form; each
# alternative of "map|check" is tried).
forms() {
  awk '/^usage: conebench / {
         prefix = ""; alts = ""; n = split(substr($0, 18), w, " ")
         for (i = 1; i <= n; i++) {
           if (w[i] == "--model" && w[i + 1] ~ /^compliant/) { prefix = prefix " --model compliant"; break }
           if (w[i] == "SCENARIO") { prefix = prefix " sphere-plane"; continue }
           if (w[i] ~ /^[a-z][a-z-]*\|/) { alts = w[i]; prefix = prefix " @"; continue }
           if (w[i] ~ /^[a-z][a-z-]*$/) { prefix = prefix " " w[i]; continue }
           if (w[i] ~ /^[A-Z]+$/) continue
           break
         }
         na = split(alts == "" ? "@" : alts, alt, "|")
       }
       /^  (-[a-z], )?--[a-z]/ && $0 !~ /--help/ {
         o = $0; sub(/^  (-[a-z], )?/, "", o); split(o, t, " ")
         arg = substr(o, length(t[1]) + 1, 1) == " " && substr(o, length(t[1]) + 2, 1) ~ /[^ ]/
         for (k = 1; k <= na; k++) {
           p = prefix; sub(/@/, alt[k], p)
           print substr(p, 2) "\t" t[1] "\t" arg
         }
       }' "$1"
}
# The man page: the commands of COMMANDS, and for each its options (tests/support/man_items.awk).
man_items() { awk -f "$(dirname "$0")/support/man_items.awk" "$(dirname "$0")/../docs/conebench.1"; }
man_commands=$(grep '^\.SS ' "$(dirname "$0")/../docs/conebench.1" |
  sed -n '1,/^\.SS help/p' | sed 's/^\.SS //' | grep -vx 'help')
check "man page: the commands of the overview" \
  '[ "$(echo "$man_commands" | sort)" = "$(echo "$commands" | sort)" ]'
for c in $commands; do
  man_items | awk -F'\t' -v c="$c" '$1 == "COMMANDS" && $2 == c {print $3}' | sort -u >"$tmp/man-$c"
  grep -o '^  \(-[a-z], \)\?--[a-z-]*' "$tmp/help-$c" | sed 's/.*--/--/' | grep -vx -- --help |
    sort -u >"$tmp/opts-$c"
  d=$(diff "$tmp/man-$c" "$tmp/opts-$c" | grep '^[<>]' | tr '\n' ' ')
  check "man page: options of $c (< documented only, > in --help only: $d)" '[ -z "$d" ]'
done

abs_bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
for c in $commands; do
  while IFS=$'\t' read -r prefix o arg; do
    # shellcheck disable=SC2086
    set -- $prefix "$o"
    [ "$arg" = 1 ] && set -- "$@" x
    rc=0
    (cd "$tmp" && $runner "$abs_bin" "$@" --zz-unknown >"$tmp/out" 2>"$tmp/err" </dev/null) || rc=$?
    check "$prefix $o accepted" '[ "$rc" = 2 ] && ! grep -q -- "unrecognized option .$o" "$tmp/err" && [ ! -s "$tmp/out" ]'
  done < <(forms "$tmp/help-$c")
done

run "$bin" version
check "version" '[ "$rc" = 0 ] && grep -qE "^conebench [0-9]+\.[0-9]+\.[0-9]+$" "$tmp/out"'
# the second line says whether the Siconos adapters are built, as `list solvers` shows
names=$("$bin" list solvers | grep -o '^siconos-[a-z0-9-]*' | paste -sd, | sed 's/,/, /g')
if [ -n "$names" ]; then
  sic="siconos adapters: built ($names)"
else
  sic="siconos adapters: not built (make SICONOS=0)"
fi
check "version: Siconos adapters" '[ "$(sed -n 2p "$tmp/out")" = "$sic" ] && [ "$(wc -l <"$tmp/out")" = 4 ]'
# lines 3 and 4: the Bullet and DART adapters, likewise (make BULLET=0 / DART=0)
line=3
for eng in bullet dart; do
  names=$("$bin" list solvers | grep -o "^$eng-[a-z0-9-]*" | paste -sd, | sed 's/,/, /g')
  up=$(echo "$eng" | tr a-z A-Z)
  if [ -n "$names" ]; then want="$eng adapters: built ($names)"
  else want="$eng adapters: not built (make $up=0)"; fi
  check "version: $eng adapters" '[ "$(sed -n ${line}p "$tmp/out")" = "$want" ]'
  line=$((line + 1))
done
cp "$tmp/out" "$tmp/version"
run "$bin" --version
check "--version = version" '[ "$rc" = 0 ] && cmp -s "$tmp/out" "$tmp/version"'
run "$bin" nosuch --help
check "unknown command --help: exit 2" '[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && grep -q "unknown command .nosuch." "$tmp/err"'
run "$bin" help nosuch
check "help of an unknown command: exit 2" '[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && grep -q "unknown command" "$tmp/err"'
run "$bin"
check "no command: exit 2, overview on stderr" '[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && grep -q "^usage: conebench COMMAND" "$tmp/err"'
run "$bin" solve --bogus
check "unknown option: exit 2 with the usage" '[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && grep -q "usage: conebench solve FILE" "$tmp/err"'
run "$bin" filippov check --help
check "filippov check --help" '[ "$rc" = 0 ] && grep -q "^usage: conebench filippov map|check" "$tmp/out"'
echo "cli help: $pass passed, $fail failed"
[ "$fail" = 0 ]
