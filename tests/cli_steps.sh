#!/usr/bin/env bash
# Step sequences from the command line: generate SCENARIO --steps writes each step with its
# contact ids (one "A B F" line a contact, as many as the step's nc) and .meta; --format fclib
# writes .hdf5 steps holding their ids and time; info DIR describes the sequence (steps, nc range,
# turnover), the same for both formats; malformed ids and bad options are exit 2 naming the file
# and line, before any work.
# Usage: cli_steps.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") # absolute: the test runs in $tmp
cd "$tmp" || exit 1

# A small pile pour: contacts appear as the spheres land.
pile="sphere-pile --param n=20 --param t_end=1"
run "$bin" generate $pile --steps 400:1000:100 -o txt
check "generate --steps: step files, ids, meta" '[ "$rc" = 0 ] && [ "$(ls txt/*.dat | wc -l)" = 7 ] &&
  [ "$(ls txt/*.ids | wc -l)" = 7 ] && [ "$(ls txt/*.meta | wc -l)" = 7 ]'
ok=1
for f in txt/*.dat; do
  nc=$("$bin" info "$f" | sed -n 's/^nc: //p')
  ids=${f%.dat}.ids
  [ "$(head -1 "$ids")" = "conebench-ids $nc" ] && [ "$(($(wc -l <"$ids") - 1))" = "$nc" ] || ok=0
  # the identities of one step are distinct
  [ "$(tail -n +2 "$ids" | sort -u | wc -l)" = "$nc" ] || ok=0
done
check "each .ids has the step's nc distinct identities" '[ $ok = 1 ]'
run "$bin" info txt --json
check "info DIR: 7 steps, all with ids" '[ "$rc" = 0 ] && grep -q "\"steps\":7," out &&
  grep -q "\"with_ids\":7," out && grep -q "\"first_step\":400," out'
cp out txt.json
run "$bin" generate $pile --steps 400:1000:100 -o h5 --format fclib
check "--format fclib: .hdf5 steps, no .ids beside them" '[ "$rc" = 0 ] &&
  [ "$(ls h5/*.hdf5 | wc -l)" = 7 ] && ! ls h5/*.ids >/dev/null 2>&1'
run "$bin" info h5 --json
check "info DIR: the FCLIB sequence has the same steps, nc and turnover as the text one" \
  '[ "$rc" = 0 ] && [ "$(sed "s/\"sequence\":\"h5\"/\"sequence\":\"txt\"/" out)" = "$(cat txt.json)" ]'

cp -r txt bad
f=$(ls bad/*.ids | tail -1)
printf 'conebench-ids 2\n0 1 0\n0 1 0\n' >"$f"
run "$bin" info bad
check "a malformed .ids: exit 2 naming FILE:LINE" '[ "$rc" = 2 ] &&
  grep -q "^conebench: $f:1: 2 contact ids, the problem has nc = " err'
rm -f "$f" && mkfifo "$f"
run "$bin" info bad
check "a FIFO as .ids: exit 2 naming it, nothing read from it" '[ "$rc" = 2 ] &&
  grep -q "^conebench: $f:0: not a regular file" err'
run "$bin" generate $pile --steps 400 -o nope --format hdf
check "--format other: exit 2, nothing created" '[ "$rc" = 2 ] && [ ! -e nope ] &&
  grep -q "format: .hdf. is not siconos or fclib" err'
run "$bin" generate disk-rolling --steps 1 -o nope --format fclib
check "--format fclib of a rolling2d scenario: exit 2 before work" '[ "$rc" = 2 ] && [ ! -e nope ]'
mkdir empty
run "$bin" info empty
check "info of a folder without step files: exit 2" '[ "$rc" = 2 ] && grep -q "a directory without step files" err'

echo "cli steps: $pass passed, $fail failed"
[ "$fail" = 0 ]
