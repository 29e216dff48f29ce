#!/usr/bin/env bash
# conebench CLI contract for `report --html` on the shipped `default` campaign (the README's
# `make demo`), seen through Debian's headless Chromium with the network taken away (unshare -n):
# the page's verdict names the solvers that solved the most problems at the tightest tolerance,
# recomputed here from runs.csv; the screenshot shows the verdict box (its background colour in
# the top rows) and a figure (pixels of the line colours of the page's first inline SVG); and
# Chromium's network log of the page load holds no request made for the page (Chromium's own
# service traffic aside; the check is shown to catch one on a control page with an external
# image and style sheet).
# Needs the data (../shared/data or CONEBENCH_DATA), gnuplot, chromium and python3-pil; skips,
# saying so, without them.
# Usage: cli_report_default.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
py=/usr/bin/python3
chromium=${CHROMIUM:-/usr/bin/chromium}
skip() { echo "cli report default: skipped: $1"; exit 0; }
command -v gnuplot >/dev/null || skip "gnuplot missing (apt-get install gnuplot-nox)"
[ -x "$chromium" ] || skip "$chromium absent (apt-get install chromium)"
"$py" -c "import PIL" 2>/dev/null || skip "python3-pil missing (apt-get install python3-pil)"
find_data "cli report default" || exit 0
have_siconos "cli report default (the default campaign names Siconos solvers)" || exit 0

d=$tmp/default
run "$bin" run default -o "$d" --jobs 2 --quiet
check "the default campaign runs" '[ "$rc" = 0 ] && [ -s "$d/runs.csv" ]'
run "$bin" report "$d" --html
h=$d/report.html
check "report --html writes report.html" '[ "$rc" = 0 ] && [ -s "$h" ]'

# The verdict's first line, recomputed: at the tightest tolerance, the labels that solved the
# most problems, and how many.
want=$("$py" - "$d/runs.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
tight = min(float(r["tol"]) for r in rows)
problems = {r["problem"] for r in rows}
solved = {}
for r in rows:
    if float(r["tol"]) == tight and r["solved"] == "yes":
        solved.setdefault(r["label"], set()).add(r["problem"])
best = max(len(s) for s in solved.values())
print("%d of %d problems" % (best, len(problems)))
print(" ".join(sorted(l for l, s in solved.items() if len(s) == best)))
PY
)
count=$(echo "$want" | head -n 1)
labels=$(echo "$want" | tail -n 1)

copts="--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking
  --disable-component-update --user-data-dir=$tmp/profile --window-size=1200,2600"
net=""
unshare -n true 2>/dev/null && net="unshare -n"
# The page's own requests: those made for a frame of the file:// page (their network isolation
# key names file://), not Chromium's own service traffic (updates, its clock, dictionaries).
page_urls() {
  "$py" - "$1" <<'PY'
import json, sys
for e in json.load(open(sys.argv[1])).get("events", []):
    p = e.get("params", {})
    if "url" in p and str(p.get("network_isolation_key", "")).startswith("file://") \
            and not p["url"].startswith(("file:", "data:")):
        print(p["url"])
PY
}
printf '<html><body><img src="http://example.invalid/x.png"><link rel="stylesheet" href="https://fonts.example.invalid/a.css"></body></html>' >"$tmp/control.html"
$net "$chromium" $copts --log-net-log="$tmp/control.json" --dump-dom "file://$tmp/control.html" >/dev/null 2>&1
check "the network log catches a page's requests (control page: $(page_urls "$tmp/control.json" | sort -u | wc -l) URLs)" \
  'page_urls "$tmp/control.json" | grep -q "example.invalid/x.png" && page_urls "$tmp/control.json" | grep -q "a.css"'

$net "$chromium" $copts --log-net-log="$tmp/net.json" --dump-dom "file://$h" >"$tmp/dom" 2>"$tmp/cerr"
$net "$chromium" $copts --screenshot="$tmp/shot.png" "file://$h" >/dev/null 2>>"$tmp/cerr"
check "chromium ${net:+(no network) }loads the page: no request but its own ($(page_urls "$tmp/net.json" | head -n 3 | tr '\n' ' '))" \
  '[ -s "$tmp/net.json" ] && [ -z "$(page_urls "$tmp/net.json")" ]'
vline=$(grep -m1 -o '<li>Most solved at tol[^<]*</li>' "$tmp/dom")
ok=1
for l in $labels; do echo "$vline" | grep -qF " $l" || ok=0; done
check "the rendered verdict names $labels ($count, from runs.csv): $vline" \
  '[ "$ok" = 1 ] && echo "$vline" | grep -qF "($count"'

# The screenshot: the verdict box's background (#eef5ff) in the first 300 rows, and at least two
# of the first inline SVG's line colours (non-grey strokes) drawn.
colours=$(grep -m1 -o '<svg.*' "$h" >/dev/null && awk '/<svg/ { on = 1 } on { print } /<\/svg>/ && on { exit }' "$h" |
  grep -oE "stroke='rgb\([ 0-9]+,[ 0-9]+,[ 0-9]+\)'" | tr -d " '" | sed 's/stroke=rgb(//; s/)//' | sort -u)
"$py" - "$tmp/shot.png" $colours >"$tmp/pix" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
w, h = im.size
px = im.load()
box = sum(1 for y in range(min(300, h)) for x in range(w) if px[x, y] == (0xee, 0xf5, 0xff))
want = {tuple(int(c) for c in s.split(",")) for s in sys.argv[2:]}
want = {c for c in want if len(set(c)) > 1}
count = dict.fromkeys(want, 0)
for c in im.getdata():
    if c in count:
        count[c] += 1
print(box, sum(1 for n in count.values() if n >= 20), len(want))
PY
read -r box drawn ncol <"$tmp/pix"
check "screenshot: verdict box ($box px of #eef5ff at the top), a figure ($drawn of its $ncol line colours drawn)" \
  '[ "${box:-0}" -gt 5000 ] && [ "${drawn:-0}" -ge 2 ]'
echo "cli report default: $pass passed, $fail failed"
[ "$fail" = 0 ]
