#!/usr/bin/env bash
# conebench CLI contract for the report's budget profiles, recomputed from runs.csv and the traces
# (tests/support/profile_expect.py, python3's csv/statistics): the data profile's curve
# (figures/data-work-tol<i>.csv: share of problems solved within k block products per contact),
# the fixed-budget error curve (figures/budget-iterations-tol<i>.csv: median least error within
# B iterations), each with its figure; the time-per-contact table; every figure drawn although
# gnuplot runs once per batch of figures, a failing figure named.
# Usage: cli_report_profiles.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! command -v "$py" >/dev/null; then
  echo "cli report profiles: skipped: python3 missing (it computes the expected numbers)"
  exit 0
fi
if ! command -v gnuplot >/dev/null; then
  echo "cli report profiles: skipped: gnuplot missing (apt-get install gnuplot-nox)"
  exit 0
fi

d=$tmp/r
printf '%s\n' "name profiles" "generate random kind=rolling3d nc=5 seeds=1..4" \
  "generate random kind=coulomb3d nc=12 seeds=1..2" "solver nsgs" "solver pfp" "solver apgd" \
  "tol 1e-4 1e-8" "max-iter 150" "time-limit 5" "trace on" >"$tmp/t.conf"
run "$bin" run "$tmp/t.conf" -o "$d" --quiet
check "campaign runs" '[ "$rc" = 0 ] && [ -s "$d/runs.csv" ]'
run "$bin" report "$d"
check "report exits 0" '[ "$rc" = 0 ]'
for ti in 0 1; do
  "$py" "$here/support/profile_expect.py" "$d" $ti >"$tmp/cmp" 2>&1
  check "data profile tol$ti against runs.csv: $(tail -n 1 "$tmp/cmp")" \
    'grep -q "^checked [1-9][0-9]* values, 0 differ$" "$tmp/cmp" && [ -s "$d/figures/data-work-tol$ti.png" ] && grep -q "(figures/data-work-tol$ti.png)" "$d/report.md"'
  "$py" "$here/support/profile_expect.py" "$d" $ti budget >"$tmp/cmp" 2>&1
  check "error within an iteration budget tol$ti against the traces: $(tail -n 1 "$tmp/cmp")" \
    'grep -q "^checked [1-9][0-9]* values, 0 differ$" "$tmp/cmp" && [ -s "$d/figures/budget-iterations-tol$ti.png" ] && [ -s "$d/figures/budget-time-tol$ti.svg" ]'
done
# Time per contact: nsgs's median at the tightest tolerance, from runs.csv.
want=$("$py" - "$d/runs.csv" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["label"] == "nsgs" and float(r["tol"]) == 1e-8]
v = [float(r["time_s"]) / int(r["nc"]) for r in rows if r["solved"] == "yes"]
print("| nsgs | %d | %.3g |" % (len(v), 1e6 * statistics.median(v)))
PY
)
check "time per contact of nsgs at 1e-8: $want" \
  '[ "$(grep -A7 "^#### Time per contact" "$d/report.md" | tail -n +1 | grep -c "^| nsgs |")" -ge 1 ] && grep -A20 "^## Tolerance 1e-08" "$d/report.md" >/dev/null && awk "/^## Tolerance 1e-08/ { on = 1 } on" "$d/report.md" | grep -qF "$want"'
# report --html: one page that needs nothing else: the verdict first, a contents list, every
# figure's SVG inline, no URL and no reference to another file; a headless Chromium (when
# installed; without network when unshare can take it away) shows the verdict and a figure.
run "$bin" report "$d" --html
h=$d/report.html
v1=$(head -n 1 "$d/report.md" | sed 's/\*//g; s/^- //' | cut -c1-40)
check "report --html writes report.html" '[ "$rc" = 0 ] && [ -s "$h" ] && grep -q "report.html" "$tmp/err"'
nsvg=$(grep -o "<svg" "$h" | wc -l)
ndata=$(grep -o 'src="data:image/png;base64,' "$h" | wc -l)
npng=$(grep -o '(figures/[^)]*\.png)' "$d/report.md" | wc -l)
check "html: the verdict before the contents, every figure inline ($nsvg SVG + $ndata PNG of $npng)" \
  '[ $((nsvg + ndata)) = "$npng" ] && [ "$nsvg" -gt 0 ] && awk "/id=\"verdict\"/ { v = NR } /<nav>/ { n = NR } END { exit !(v && n && v < n) }" "$h" && grep -qF "$v1" "$h"'
check "html: no URL, no external file (src= other than data:, href= other than #, url(), @import)" \
  '! sed "s/src=\"data:image\/png;base64,[A-Za-z0-9+\/=]*\"//g" "$h" | grep -Eqi "https?:|src=|href=\"[^#]|url\(|@import|xlink:href=\"[^#]"'
big=$(find "$d/figures" -name "*.svg" -size +256k | wc -l)
check "html: SVGs above 256 KiB go in as their PNG ($big of them)" '[ "$ndata" = "$big" ]'
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ -x "$chromium" ]; then
  net=""
  unshare -n true 2>/dev/null && net="unshare -n"
  copts="--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking --window-size=1200,1600"
  $net "$chromium" $copts --dump-dom "file://$h" >"$tmp/dom" 2>"$tmp/cerr"
  $net "$chromium" $copts --screenshot="$tmp/shot.png" "file://$h" >/dev/null 2>>"$tmp/cerr"
  colours=$("$py" - "$tmp/shot.png" <<'PY'
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
idat, i = b"", 8
while i < len(b):
    n, t = struct.unpack(">I4s", b[i:i + 8])
    idat += b[i + 8:i + 8 + n] if t == b"IDAT" else b""
    i += 12 + n
print(len(set(zlib.decompress(idat))))
PY
)
  check "chromium ${net:+(no network) }shows the verdict and a figure (DOM has both; screenshot has $colours byte values, not blank)" \
    'grep -qF "$v1" "$tmp/dom" && grep -q "<svg" "$tmp/dom" && [ "${colours:-0}" -gt 20 ]'
else
  echo "cli report profiles: chromium check skipped: $chromium absent (apt-get install chromium)"
fi

# Every figure linked in report.md exists: the batch drew them all.
missing=$(grep -o '(figures/[^)]*\.png)' "$d/report.md" | tr -d '()' | while read -r f; do [ -s "$d/$f" ] || echo "$f"; done)
check "every linked figure drawn ${missing:+(missing: $missing)}" '[ -z "$missing" ]'
# A failing script in the batch: exit 1 naming that figure and gnuplot's message, its files
# removed, the other figures still drawn.
mkdir -p "$tmp/home/plots"
cp "$here"/../plots/*.gp "$tmp/home/plots/"
echo 'plot "nonexistent-file.csv"' >>"$tmp/home/plots/data_profile.gp"
rm -rf "$d/figures"
CONEBENCH_HOME=$tmp/home run "$bin" report "$d"
check "a failed figure in the batch is named with gnuplot's message" \
  '[ "$rc" = 1 ] && grep -q "^conebench: gnuplot failed on .*data_profile.gp (status [0-9]*) drawing .*/figures/data-work-tol0: .*No data in plot (all of it in $d/figures/gnuplot.log)$" "$tmp/err" && [ ! -e "$d/figures/data-work-tol0.png" ] && [ -s "$d/figures/budget-time-tol1.png" ]'
echo "cli report profiles: $pass passed, $fail failed"
[ "$fail" = 0 ]
