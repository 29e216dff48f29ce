#!/usr/bin/env bash
# conebench CLI: every command of docs/guide.md runs. Each fenced ```sh block of the guide is
# run in order, each by its own `bash -e -o pipefail`, in one fresh directory (`conebench` is
# BIN, RUNNER prefixed; `examples` links to the tree's examples/; DATA is the Siconos data
# folder). The word after `sh` marks what a block needs: `data` (the Siconos data folder),
# `siconos` (a build with the adapters), `numpy` (/usr/bin/python3 with numpy), `git`; a block needing
# what is absent is skipped, saying so. `norun: REASON` is never run and must give a reason.
# Every block must exit 0; then the files and outputs the tutorial promises are checked: the
# judge's verdicts, a PNG, the campaign's rows, the report and its JSON, compare's refusal to
# judge time on 1 repetition, and the merged shards holding the unsharded campaign's run ids.
# Usage: cli_guide.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
guide=$cb_tree/docs/guide.md
if ! command -v gnuplot >/dev/null; then
  echo "cli guide: skipped: gnuplot missing (apt-get install gnuplot-nox): the guide plots"
  exit 0
fi
binabs=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
work=$tmp/tutorial
mkdir -p "$work" "$tmp/blocks"
: >"$tmp/out"; : >"$tmp/err"
ln -s "$cb_tree/examples" "$work/examples"
DATA=
find_data "cli guide: blocks marked data" && DATA=$data
siconos=0
have_siconos "cli guide: blocks marked siconos" && siconos=1
numpy=0
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then numpy=1
else echo "cli guide: blocks marked numpy: skipped: /usr/bin/python3 has no numpy (apt-get install python3-numpy)"; fi

# Split the guide: block N's commands in blocks/N.sh, its marks (the words after sh) in N.tag.
awk -v dir="$tmp/blocks" '
  /^```sh/ && !inside { inside = 1; n++; tag = substr($0, 6); sub(/^ +/, "", tag); print tag > (dir "/" n ".tag");
                        printf "" > (dir "/" n ".sh"); next }
  /^```/ && inside { inside = 0; next }
  inside { print > (dir "/" n ".sh") }
  END { print n + 0 > (dir "/count") }' "$guide"
count=$(cat "$tmp/blocks/count")
rc=0
check "the guide has its blocks" '[ "$count" -ge 15 ]'

prelude="conebench() { $runner \"$binabs\" \"\$@\"; }
export DATA=\"$DATA\"
cd \"$work\""
ran=0
for i in $(seq 1 "$count"); do
  tag=$(cat "$tmp/blocks/$i.tag")
  first=$(head -1 "$tmp/blocks/$i.sh")
  case $tag in
    norun:?*) echo "cli guide: block $i ($first): not run:${tag#norun:}"; continue ;;
    norun*) rc=-; check "block $i: a norun block gives its reason" false; continue ;;
    *data*) [ -n "$DATA" ] || { echo "cli guide: block $i ($first): skipped: no data"; continue; } ;;
    *siconos*) [ "$siconos" = 1 ] || { echo "cli guide: block $i ($first): skipped: no Siconos"; continue; } ;;
    *numpy*) [ "$numpy" = 1 ] || { echo "cli guide: block $i ($first): skipped: no numpy"; continue; } ;;
    git) command -v git >/dev/null || { echo "cli guide: block $i ($first): skipped: no git"; continue; } ;;
    "") ;;
    *) rc=-; check "block $i: unknown mark '$tag'" false; continue ;;
  esac
  rc=0
  printf '%s\n' "$prelude" | cat - "$tmp/blocks/$i.sh" >"$tmp/block.sh"
  bash -e -o pipefail "$tmp/block.sh" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
  cp "$tmp/out" "$tmp/blocks/$i.out"
  check "block $i ($first) exits 0" '[ "$rc" = 0 ]'
  ran=$((ran + 1))
done
echo "cli guide: $ran of $count blocks run"

# What the tutorial promises. out_of TEXT: the output of the block whose commands hold TEXT.
out_of() { local f; f=$(grep -lF -- "$1" "$tmp"/blocks/*.sh | head -1); echo "${f%.sh}.out"; }
rc=0
check "tutorial 1: the known solution is solved" 'grep -q "\"solved\":true" "$(out_of "error mine.dat --solution mine.sol")"'
check "tutorial 2: nsgs solves at 1e-8, nsn's solution judged solved" \
  'grep -q "\"solver\":\"nsgs\".*\"solved\":true" "$(out_of "error mine.dat --solution nsn.sol")" &&
   [ "$(grep -c "\"solved\":true" "$(out_of "error mine.dat --solution nsn.sol")")" = 2 ] && [ -s "$work/pfp.csv" ]'
check "tutorial 3: a PNG" '[ "$(head -c 8 "$work/conv.png" | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a ]'
check "tutorial 4: 3 problems x 3 solvers, one row each" '[ "$(tail -n +2 "$work/mine-A/runs.csv" | wc -l)" = 9 ]'
check "tutorial 5: report.md and its JSON" \
  'grep -q . "$work/mine-A/report.md" && /usr/bin/python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/mine-A.json"'
check "tutorial 6: compare does not judge time on 1 repetition" 'grep -q "not enough repetitions (1 < 7 needed)" "$(out_of "compare mine-A mine-B")"'
command -v git >/dev/null &&
check "tutorial 6: the gate passes, nothing differs" \
  'grep -q "9 runs compared, 0 regressions" "$(out_of "--no-time")" && grep -q "^bench-check: passed" "$(out_of "--no-time")"'
command -v git >/dev/null &&
check "tutorial 6: the baseline names the commit" '[ "$(wc -c <"$work/gate/baseline/REVISION")" -ge 40 ]'
[ -n "$DATA" ] &&
check "formats: the FCLIB copy and the global file are solved, the global sizes printed" \
  '[ "$(grep -cE "^(ex1|GFC3D_TwoRods1) .* solved  status=converged" "$(out_of "form=global")")" = 2 ] &&
   grep -q "^global: ndof 768" "$(out_of "form=global")"'
[ "$siconos" = 1 ] &&
check "siconos-nsgs solves the tutorial's problem" 'grep -q "siconos-nsgs  solved" "$(out_of "siconos-nsgs --tol")"'
check "shards: the merged runs are the unsharded campaign's" \
  '[ "$(cut -d, -f1 "$work/merged/runs.csv" | sort)" = "$(cut -d, -f1 "$work/mine-A/runs.csv" | sort)" ]'
echo "cli guide: $pass passed, $fail failed"
[ "$fail" = 0 ]
