#!/usr/bin/env bash
# conebench CLI contract for `loop` campaign lines (solvers inside the time loop): a bad loop
# line is "FILE:LINE: what", exit 2, before any work (no output folder); a campaign of loop lines
# writes loops.csv with one row per solver × tol plus one reference per line, every measure of
# its scenario filled, and loops/<id>.csv per trajectory, whose steps add up to the row (checked
# by python3's csv module); the reference trajectory's sphere-plane stop distance (config b,
# h = 1e-4, θ = ½) matches the closed form of Acary & Bourrier §6.1 (computed here by hand: two
# phases) within 1.1e-7 relative: the Moreau–Jean scheme's own error at that h (1.094e-7, the
# same for nsgs at 1e-12; 2.7e-8 at h = 5e-5 and 6.8e-9 at 2.5e-5: it falls as h²), not the
# solver's; every finished sphere-plane row has x_stop = d_stop cos(heading_deg) (1e-9 relative)
# and d_stop_closed = |x_stop_closed|, goes straight at tol <= 1e-8 (heading_deg, measured in
# the ground's plane, below 1e-6 degrees: the centre's settle of about g h^2 = 1e-7 m into the
# ground, which would read 2.7e-6 degrees, is left out) and the pile's rows have no stop
# (nan); the report's section, its stop columns equal to loops.csv's
# (tests/support/loop_report_expect.py); a loops.csv of the older 31-column layout (without
# d_stop, d_stop_closed, heading_deg) still reads: the report has the section without the stop
# columns.
# About 30-50 s on 2 loaded cores (under the sanitizers, with CONEBENCH_QUICK: minutes).
# Usage: cli_loop.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"
if ! command -v python3 >/dev/null; then
  echo "cli loop: skipped: python3 missing (it checks loops.csv)"
  exit 0
fi

# Bad loop lines: each names its line, exit 2, nothing written.
bad() { # NAME LINE-TEXT EXPECTED-MESSAGE
  msg=$3
  printf 'name bad\nsolver nsgs\n%s\n' "$2" >"$tmp/bad.conf"
  run "$bin" run "$tmp/bad.conf" -o "$tmp/bad-out" --quiet
  check "bad loop line ($1): FILE:3, exit 2, no output" \
    '[ "$rc" = 2 ] && grep -q "^conebench: $tmp/bad.conf:3: $msg" "$tmp/err" && [ ! -e "$tmp/bad-out" ]'
}
bad "no scenario" "loop" "loop: NAME \[k=v\]\.\.\."
bad "unknown scenario" "loop sphere-plain" "loop: unknown scenario 'sphere-plain'"
bad "unknown parameter" "loop sphere-plane bogus=1" "param bogus: not a parameter of scenario"
bad "bad value" "loop sphere-plane config=z" "param config: 'z' is not a, b or c"
bad "not key=value" "loop sphere-plane t_end" "'t_end' is not key=value"
printf 'name bad\nsolver nsgs\nloop sphere-plane config=b\nloop sphere-plane config=b\n' >"$tmp/bad.conf"
run "$bin" run "$tmp/bad.conf" -o "$tmp/bad-out" --quiet
check "a loop line given twice: FILE:4, exit 2, no output" \
  '[ "$rc" = 2 ] && grep -q "^conebench: $tmp/bad.conf:4: loop .sphere-plane-config_b. is already given at line 3" "$tmp/err" && [ ! -e "$tmp/bad-out" ]'

# A campaign of loop lines only: sphere-plane config b (its whole horizon: it stops at 3.82 s)
# and a 6-sphere pour (0.2 s), 4 solvers × 2 tolerances (2 solvers with CONEBENCH_QUICK, as
# make sanitize sets it).
d=$tmp/loop
solvers="nsgs nsn ipm apgd"
[ -n "${CONEBENCH_QUICK:-}" ] && solvers="nsgs apgd"
{ printf '%s\n' "name loop-test" "loop sphere-plane config=b" \
    "loop sphere-pile n=6 t_end=0.2 interval=0.02" "tol 1e-4 1e-8" "time-limit 2"
  for s in $solvers; do echo "solver $s"; done; } >"$tmp/loop.conf"
run "$bin" run "$tmp/loop.conf" -o "$d" --jobs 2 --quiet
check "loop campaign runs: exit 0, loops.csv, runs.csv without rows" \
  '[ "$rc" = 0 ] && [ -s "$d/loops.csv" ] && [ "$(wc -l <"$d/runs.csv")" = 1 ]'

python3 - "$d" $solvers >"$tmp/cmp" 2>&1 <<'EOF'
import csv, math, os, sys
d, solvers = sys.argv[1], sys.argv[2:]
rows = list(csv.DictReader(open(os.path.join(d, "loops.csv"))))
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
num = lambda r, k: float(r[k])
lines = {"sphere-plane-config_b", "sphere-pile-n_6-t_end_0.2-interval_0.02"}
want = {(l, s, t) for l in lines for s in solvers for t in (1e-4, 1e-8)}
got = {(r["loop"], r["label"], num(r, "tol")) for r in rows if r["reference"] == "0"}
need(got == want and len(rows) == len(want) + 2, "rows: one per line x solver x tol, %d" % len(rows))
refs = {r["loop"]: r for r in rows if r["reference"] == "1"}
need(set(refs) == lines and all(r["solver"] == "nsn+nsgs" and num(r, "tol") == 1e-12
                                for r in refs.values()), "one reference (nsn+nsgs, 1e-12) per line")
need(len({r["id"] for r in rows}) == len(rows), "ids unique")
for r in rows:
    name = "%s %s %s" % (r["loop"], r["label"], r["tol"])
    plane = r["scenario"] == "sphere-plane"
    need(r["status"] == "ok" or (not plane and r["label"] == "ipm"), name + ": status " + r["status"])
    if r["status"] != "ok":
        continue
    fields = ["cpu_s", "energy0", "energy_end", "max_error"]
    stop = ["x_stop", "t_stop", "x_stop_closed", "x_stop_err", "d_stop", "d_stop_closed", "heading_deg"]
    fields += stop if plane else ["height_over_phi", "mean_radius_over_phi", "pile_angle_deg"]
    need(plane or all(math.isnan(num(r, k)) for k in stop), name + ": a pile has no stop (nan)")
    if r["reference"] == "0":
        fields += ["drift_pos", "drift_pos_rel", "drift_energy"]
    need(all(math.isfinite(num(r, k)) for k in fields), name + ": a measure is not filled")
    need(int(r["steps"]) > 0 and num(r, "cpu_s") > 0, name + ": steps and CPU time")
    rule = num(r, "drift_pos_rel") <= 1e-6 and num(r, "drift_energy") <= 1e-6
    need(r["indistinguishable"] == ("1" if r["reference"] == "0" and rule else "0"),
         name + ": indistinguishable against the documented rule")
    if plane and r["reference"] == "0": # the sphere's own travel differs by at most the drift
        dx = abs(num(r, "x_stop") - num(refs[r["loop"]], "x_stop"))
        need(dx <= num(r, "drift_pos") + 1e-12, name + ": |x_stop - x_stop_ref| > drift_pos")
    if plane: # launched along x: straight in the plane, as the closed form's path
        h, dist, x = num(r, "heading_deg"), num(r, "d_stop"), num(r, "x_stop")
        need(abs(dist * math.cos(math.radians(h)) - x) <= 1e-9 * dist, name + ": x_stop != d_stop cos(heading)")
        need(num(r, "d_stop_closed") == abs(num(r, "x_stop_closed")), name + ": d_stop_closed")
        # in the ground's plane: the centre's settle into the ground is not a heading error
        need(num(r, "tol") > 1e-8 or h <= 1e-6, name + ": heading_deg %s > 1e-6" % r["heading_deg"])
    steps = list(csv.DictReader(open(os.path.join(d, "loops", r["id"] + ".csv"))))
    need(len(steps) == int(r["steps"]), name + ": series rows != steps")
    need(sum(int(s["iterations"]) for s in steps if s["nc"] != "0") == int(r["iterations"]),
         name + ": series iterations do not add up")
    need(sum(s["solved"] == "0" for s in steps) == int(r["unsolved"]), name + ": unsolved steps")
    worst = max([float(s["error"]) for s in steps if s["nc"] != "0"] or [0])
    need(abs(worst - num(r, "max_error")) <= 1e-6 * worst, name + ": worst error")
ref = refs["sphere-plane-config_b"]
# The closed form of config b (U0 = 2.5, W0 = 2.5, R = 0.5, mu = 0.2, mu_r = 0.04, g = 9.81,
# k = 2/5), by hand: slide and roll until the slip U - R W = 1.25 vanishes (U' = -mu g,
# R W' = R (R mu g - mu_r g) / (k R^2)), then roll without slip at U' = -mu_r g R / ((1 + k) R^2)
# from U1 to rest.
g, R, k = 9.81, 0.5, 0.4
a1, w1 = -0.2 * g, (R * 0.2 * g - 0.04 * g) / (k * R * R)
t1 = 1.25 / (-a1 + R * w1)
u1 = 2.5 + a1 * t1
closed = 2.5 * t1 + 0.5 * a1 * t1 * t1 + u1 * u1 / (2 * 0.04 * g * R / ((1 + k) * R * R))
err = abs(num(ref, "x_stop") - closed) / closed
print("reference x_stop %.9f, closed form %.9f: relative %.4e" % (num(ref, "x_stop"), closed, err))
need(abs(num(ref, "x_stop_closed") - closed) / closed < 1e-8, "x_stop_closed is the closed form")
need(err < 1.1e-7, "reference stop distance within 1.1e-7 of the closed form")
for b in bad:
    print("FAIL " + b)
print("checked %d rows, %d failures" % (len(rows), len(bad)))
EOF
grep '^FAIL' "$tmp/cmp" | head -8
rows=$(( 2 * ($(echo $solvers | wc -w) * 2 + 1) ))
check "loops.csv: $(tail -n 1 "$tmp/cmp"); $(grep '^reference' "$tmp/cmp")" \
  'grep -q "^checked $rows rows, 0 failures$" "$tmp/cmp"'

# The series' path columns (x, y: along the launch direction and across it, in the ground's
# plane): on sphere-plane the last step is the stop, so its x is x_stop (1e-9 relative), the
# heading atan(|y| / x) is heading_deg (1e-6 degrees) and hypot(x, y) is d_stop within 1e-6
# relative (d_stop also counts the settle into the ground, about g h^2 = 1e-7 m); the pile has
# no subject: nan.
python3 - "$d" >"$tmp/path" 2>&1 <<'EOF'
import csv, math, os, sys
d = sys.argv[1]
n, bad = 0, []
for r in csv.DictReader(open(os.path.join(d, "loops.csv"))):
    if r["status"] != "ok" or r["label"] not in ("nsgs", "nsn", "apgd", "reference"):
        continue
    steps = list(csv.DictReader(open(os.path.join(d, "loops", r["id"] + ".csv"))))
    x, y = float(steps[-1]["x"]), float(steps[-1]["y"])
    name = "%s %s %s" % (r["loop"], r["label"], r["tol"])
    n += 1
    if r["scenario"] != "sphere-plane":
        if not (math.isnan(x) and math.isnan(y)):
            bad.append(name + ": a pile's series has a path")
        continue
    h = math.degrees(math.atan2(abs(y), x))
    if abs(x - float(r["x_stop"])) > 1e-9 * abs(x):
        bad.append(name + ": last x %r != x_stop %s" % (x, r["x_stop"]))
    if abs(h - float(r["heading_deg"])) > 1e-6:
        bad.append(name + ": heading of the last x,y %r != heading_deg %s" % (h, r["heading_deg"]))
    if abs(math.hypot(x, y) - float(r["d_stop"])) > 1e-6 * float(r["d_stop"]):
        bad.append(name + ": hypot(x, y) %r != d_stop %s" % (math.hypot(x, y), r["d_stop"]))
for b in bad:
    print("FAIL " + b)
print("checked %d series, %d failures" % (n, len(bad)))
EOF
grep '^FAIL' "$tmp/path" | head -8
check "series x,y: the last step's position gives x_stop, heading_deg, d_stop ($(tail -n 1 "$tmp/path"))" \
  'grep -q "^checked [1-9][0-9]* series, 0 failures$" "$tmp/path"'

# The report: its section, a verdict line per loop line, the table, the figures.
if command -v gnuplot >/dev/null; then fig=""; else fig="--no-figures"
  echo "cli loop: figures skipped: gnuplot missing (apt-get install gnuplot-nox)"; fi
run "$bin" report "$d" $fig
check "report of a loop-only campaign: the section, two verdicts, two tables" \
  '[ "$rc" = 0 ] && grep -q "^## Solvers inside the time loop$" "$d/report.md" &&
   [ "$(grep -c "^\*\*Cheapest solver and tolerance indistinguishable from the reference: " "$d/report.md")" = 2 ] &&
   [ "$(grep -c "^| reference nsn+nsgs | 1e-12 | ok |" "$d/report.md")" = 2 ] &&
   grep -q "^| apgd | 1e-04 | ok |" "$d/report.md"'
run python3 "$cb_tree/tests/support/loop_report_expect.py" "$d"
check "report's loop tables: stop columns as loops.csv's ($(tail -n 1 "$tmp/out"))" \
  '[ "$rc" = 0 ] && grep -q "^checked $rows rows, 1 stop lines$" "$tmp/out"'
# The older 31-column loops.csv (written before d_stop, d_stop_closed, heading_deg): it reads,
# the report has its section and tables, without the stop columns.
cp -r "$d" "$tmp/old"
cut -d, -f1-31 "$d/loops.csv" >"$tmp/old/loops.csv"
run "$bin" report "$tmp/old" --no-figures
check "a 31-column loops.csv: report exit 0, the section, no stop columns" \
  '[ "$rc" = 0 ] && [ "$(head -n 1 "$tmp/old/loops.csv" | tr , "\n" | wc -l)" = 31 ] &&
   [ "$(grep -c "^| reference nsn+nsgs | 1e-12 | ok |" "$tmp/old/report.md")" = 2 ] &&
   ! grep -q "heading error" "$tmp/old/report.md"'
run python3 "$cb_tree/tests/support/loop_report_expect.py" "$tmp/old"
check "a 31-column loops.csv: its report's tables ($(tail -n 1 "$tmp/out"))" \
  '[ "$rc" = 0 ] && grep -q "^checked $rows rows, 0 stop lines$" "$tmp/out"'
if [ -z "$fig" ]; then
  check "report draws the drift figure and the per-step figures of each tolerance" \
    '[ -s "$d/figures/loop-sphere-plane-config_b-drift.png" ] &&
     [ -s "$d/figures/loop-sphere-plane-config_b-steps-tol1.png" ] &&
     [ -s "$d/figures/loop-sphere-pile-n_6-t_end_0.2-interval_0.02-steps-tol0.png" ]'
  check "report draws the path figure of the line with a closed-form stop (only), in report.md" \
    '[ -s "$d/figures/loop-sphere-plane-config_b-path.png" ] && [ -s "$d/figures/loop-sphere-plane-config_b-path.svg" ] &&
     grep -q "^!\[path in the ground plane\](figures/loop-sphere-plane-config_b-path.png)" "$d/report.md" &&
     ! ls "$d/figures" | grep -q "sphere-pile.*-path"'
  # Series written before x,y (8 columns): the report reads them, and draws no path.
  cp -r "$d" "$tmp/old8"
  rm -f "$tmp/old8"/figures/*
  for s in "$tmp/old8"/loops/*.csv; do cut -d, -f1-8 "$s" >"$s.new" && mv "$s.new" "$s"; done
  run "$bin" report "$tmp/old8"
  check "series without x,y: report exit 0, per-step figures, no path figure" \
    '[ "$rc" = 0 ] && [ -s "$tmp/old8/figures/loop-sphere-plane-config_b-steps-tol1.png" ] &&
     [ ! -e "$tmp/old8/figures/loop-sphere-plane-config_b-path.png" ] && ! grep -q "path in the ground plane" "$tmp/old8/report.md"'
fi

# Failures are rows, not errors: a trajectory past its limit (time-limit 0.01 s: 100 × 0.01 + 2 s
# of CPU time; apgd needs several times that on this pour at 1e-8) is killed with status
# time_limit and why in errors.log, no series; the reference (no step budget, at least 600 s for
# the whole) finishes.
f=$tmp/limit
printf '%s\n' "loop sphere-pile n=20 t_end=1 interval=0.02" "solver apgd" "tol 1e-8" \
  "time-limit 0.01" >"$tmp/limit.conf"
run "$bin" run "$tmp/limit.conf" -o "$f" --jobs 2 --quiet
check "a trajectory past its limit: status time_limit, no series; the reference finishes" \
  '[ "$rc" = 0 ] && [ "$(grep -c ",apgd,apgd,1e-08,0,0,time_limit,0," "$f/loops.csv")" = 1 ] &&
   grep -q ",nsn+nsgs,reference,[^,]*,0,1,ok," "$f/loops.csv" &&
   grep -q "apgd tol 1e-08: time_limit$" "$f/errors.log" &&
   [ "$(ls "$f/loops" | wc -l)" = "$(grep -c ",ok," "$f/loops.csv")" ]'
# Sharded: loop lines run in shard 0 only; merge carries its loops.csv and loops/ over whole.
# limit.conf has no name line: read back from a shard's campaign.conf it takes the name its run
# recorded (limits.txt), so the shards' records check and merge.
run "$bin" run "$tmp/limit.conf" -o "$tmp/sh0" --shard 0/2 --quiet
run "$bin" run "$tmp/limit.conf" -o "$tmp/sh1" --shard 1/2 --quiet
run "$bin" merge "$tmp/merged" "$tmp/sh0" "$tmp/sh1"
check "merge of two shards keeps shard 0's loops.csv and per-step series" \
  '[ "$rc" = 0 ] && [ ! -e "$tmp/sh1/loops.csv" ] && cmp -s "$tmp/sh0/loops.csv" "$tmp/merged/loops.csv" &&
   [ "$(ls "$tmp/merged/loops")" = "$(ls "$tmp/sh0/loops")" ] && [ -n "$(ls "$tmp/merged/loops")" ]'

if have_siconos "cli loop: a solver refusing the scenario's cone kind"; then
  printf '%s\n' "loop sphere-spin t_end=0.01" "solver siconos-nsgs" "tol 1e-6" >"$tmp/kind.conf"
  run "$bin" run "$tmp/kind.conf" -o "$tmp/kind" --quiet
  check "a solver refusing the cone kind: status error, the reason in errors.log" \
    '[ "$rc" = 0 ] && grep -q ",siconos-nsgs,siconos-nsgs,[^,]*,0,0,error," "$tmp/kind/loops.csv" &&
     grep -q "siconos-nsgs: cone kind rollspin3d is not supported" "$tmp/kind/errors.log"'
fi

echo "cli loop: $pass passed, $fail failed"
[ "$fail" = 0 ]
