#!/usr/bin/env bash
# The game-engine adapters in the time loop: scripts/engines_sliding.sh runs `simulate
# sphere-plane` with a sphere launched at 2.5 m/s at 30 degrees to the x axis, mu = 0.2, its spin
# held at 0 (mu_r = 0.2 m >= R mu), whose closed form (the analytic model) is a straight line
# stopping at U0^2/(2 mu g). Asserted against closed forms computed here:
#  - nsn (the exact cone): heading error (angle between the stop displacement and the launch
#    direction) below 1e-6 degrees, stop distance within 1e-6 (relative) of the closed form's;
#  - each engine adapter with a k-facet pyramid (k = 4, the box; k = 8 for the PGS adapters):
#    the friction force is the polygon's vertex nearest the sliding direction, -mu g/cos(pi/k)
#    u_v per unit mass (u_v at the vertex angle pi/k + 2 pi j/k nearest to 30 deg: 45 for the
#    box, 22.5 for k = 8), constant while the velocity stays inside that vertex's normal cone;
#    the velocity's component across u_v is constant, so the velocity turns away from the vertex
#    until it reaches the adjacent facet normal (0 deg for the box: v_y reaches 0 first; 45 deg
#    for k = 8), then the sphere decelerates at mu g along it. For the box that is
#    x_stop = (U0 cos 30)^2/(2 mu g), y_stop = (U0 sin 30)^2/(2 mu g): heading error
#    30 - atan(tan^2 30) = 11.565 degrees, distance sqrt(cos^4 + sin^4) = 0.79 of the exact one.
#    The heading is asserted within 1e-4 degrees, the distance within 1e-5 (relative), the stop
#    time within 2 steps. The Dantzig adapters are left out at k = 8: the pyramid's W' is
#    singular and pivoting fails once the sphere sticks (docs/conebench.1).
#  - the figure (x-y paths) is a PNG when gnuplot is present;
#  - the same scenario as a campaign `loop` line (solvers inside the time loop, loops.csv):
#    nsn and each built adapter (box; the PGS ones also with facets=8) run to their end, x_stop
#    (the travel along the launch direction) on the closed forms above within 1e-5 (relative),
#    x_stop_closed the analytic model's; its heading_deg below 1e-6 degrees for nsn and on the
#    pyramid's (11.565 for the box) within 1e-4 for the adapters, d_stop on the closed forms
#    above within 1e-5 (relative), d_stop_closed the analytic model's stop distance; the report's
#    loop table shows the same heading and d_stop (tests/support/loop_report_expect.py); each
#    trajectory's series ends at its stop: its last x, y give x_stop (1e-9 relative),
#    heading_deg (1e-6 degrees) and d_stop (1e-6 relative: d_stop counts the settle into the
#    ground); the report's path figure is a PNG, in report.md with every heading error;
#  - the rolling sphere (config a: rolling without slip, rolling resistance mu_r = 0.04 m) at
#    30 degrees: nsn on the closed form (exact rolling disk); the box adapters, whose rolling
#    budget bounds each axis of m_R on its own, bend the same way as the sliding box (each
#    component of w decelerates on its own): heading error 11.565 degrees (within 1e-4),
#    distance 0.79 (within 1e-5) and stop time cos 30 of the closed form's (within 10 steps).
# The time-loop runs are not put under RUNNER (12 000 steps each); with CONEBENCH_QUICK=1 (make
# sanitize, valgrind) only nsn, the first box adapter and the first pyramid run. Skips, saying so, when no
# engine adapter is built (make BULLET=0 DART=0) or python3 is missing.
# Usage: cli_engines_sliding.sh "RUNNER" BIN
. "$(dirname "$0")/support/cli_common.sh" "$@"

command -v python3 >/dev/null || { echo "cli engines sliding: skipped: python3 missing"; exit 0; }
"$bin" list solvers >"$tmp/list"
solvers="nsn"
for s in bullet-dantzig bullet-pgs dart-dantzig dart-pgs; do
  if grep -q "^$s " "$tmp/list"; then solvers="$solvers $s"; else
    echo "cli engines sliding: $s: skipped: not built (make BULLET=0 / DART=0)"; fi
done
for s in bullet-pgs dart-pgs; do grep -q "^$s " "$tmp/list" && solvers="$solvers $s:8"; done
[ "$solvers" = nsn ] && { echo "cli engines sliding: skipped: no engine adapter built"; exit 0; }
if [ "${CONEBENCH_QUICK:-0}" = 1 ]; then # make sanitize / valgrind: nsn, one box, one pyramid
  box=$(echo $solvers | tr ' ' '\n' | grep -v -e '^nsn$' -e ':' | head -n 1)
  pyr=$(echo $solvers | tr ' ' '\n' | grep ':' | head -n 1)
  solvers=$(echo nsn $box $pyr)
  echo "cli engines sliding: CONEBENCH_QUICK: solvers $solvers only"
fi

# shellcheck disable=SC2086
run sh "$cb_tree/scripts/engines_sliding.sh" "$bin" "$tmp/fig" 30 $solvers
check "engines_sliding.sh: exit 0" '[ "$rc" = 0 ]'
check "engines_sliding.sh: a row per solver" \
  '[ "$(tail -n +2 "$tmp/fig/sliding.csv" | wc -l)" = "$(echo $solvers | wc -w)" ]'
check "engines_sliding.sh: the caption" 'grep -q "^caption: The x-y path" "$tmp/out"'
if command -v gnuplot >/dev/null; then
  check "the figure is a PNG" 'head -c 8 "$tmp/fig/sliding.png" | grep -q PNG'
else
  echo "cli engines sliding: figure: skipped: gnuplot not on PATH"
fi

# The loop line: nsn and the box adapters (the PGS ones also with 8 facets) in one campaign.
loop="loop sphere-plane angle=30 U0=2.5 W0=0 mu=0.2 mu_r=0.2"
{ printf '%s\n' "name engines-sliding" "$loop" "tol 1e-8" "time-limit 5"
  for s in $solvers; do case $s in *:*) echo "solver ${s%%:*} facets=${s#*:}";; *) echo "solver $s";; esac; done
} >"$tmp/loop.conf"
run "$bin" run "$tmp/loop.conf" -o "$tmp/loop" --jobs 2 --quiet
check "loop campaign with the engine adapters: exit 0, loops.csv" '[ "$rc" = 0 ] && [ -s "$tmp/loop/loops.csv" ]'
if command -v gnuplot >/dev/null; then fig=""; else fig="--no-figures"
  echo "cli engines sliding: loop path figure: skipped: gnuplot not on PATH"; fi
run "$bin" report "$tmp/loop" $fig
check "report of the loop campaign: exit 0" '[ "$rc" = 0 ]'
if [ -z "$fig" ]; then
  path="figures/loop-sphere-plane-angle_30-U0_2.5-W0_0-mu_0.2-mu_r_0.2-path.png"
  check "the loop's path figure: a PNG, in report.md with each solver's heading error" \
    'head -c 8 "$tmp/loop/$path" | grep -q PNG && grep -qF "![path in the ground plane]($path)" "$tmp/loop/report.md" &&
     [ "$(grep -A 2 -F "($path)" "$tmp/loop/report.md" | grep -o "Heading errors at the stop.*" | grep -o "°" | wc -l)" = "$(( $(echo $solvers | wc -w) + 1 ))" ]'
fi
run python3 "$cb_tree/tests/support/loop_report_expect.py" "$tmp/loop"
check "report's loop table: heading error and d_stop as in loops.csv ($(tail -n 1 "$tmp/out"))" \
  '[ "$rc" = 0 ] && grep -q "^checked $(( $(echo $solvers | wc -w) + 1 )) rows, 1 stop lines$" "$tmp/out"'

# The rolling sphere (config a: rolling without slip from the start, slowed by its rolling
# resistance mu_r = 0.04 m) launched at 30 degrees: nsn and the box adapters (the rolling budget
# |m_Rk| <= mu_r r_N on each axis on its own).
rolls=""
for s in $solvers; do
  case $s in *:*) continue;; esac
  rolls="$rolls $s"
  run "$bin" simulate sphere-plane --param angle=30 --solver "$s" --json
  check "rolling sphere: $s runs" '[ "$rc" = 0 ]'
  cp "$tmp/out" "$tmp/roll-$s.json"
done
run "$bin" simulate sphere-plane --param angle=30 --model analytic --json
cp "$tmp/out" "$tmp/roll-closed.json"

python3 - "$tmp/fig" "$tmp/loop/loops.csv" "$tmp" $rolls >"$tmp/py" 2>&1 <<'PY'
import csv, json, math, sys
d, loops, tmp, rolls = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
closed = json.load(open(d + "/closed.json"))
V0, MU, G, TH, H = 2.5, 0.2, 9.81, math.radians(30), 1e-4
bad = []
def need(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        bad.append(what)
need(abs(closed["x_stop"] - V0 * V0 / (2 * MU * G)) < 1e-12, "closed form: U0^2/(2 mu g)")

def pyramid(k):
    """Heading error (deg), stop distance and time of the k-gon's two phases (header)."""
    a = math.pi / k
    pv = a + 2 * a * round((TH - a) / (2 * a))          # the vertex angle nearest 30 deg
    pn = pv + math.copysign(a, TH - pv)                  # the facet normal the velocity reaches
    c = MU * G / math.cos(a)
    t1 = V0 * abs(math.sin(pn - TH)) / (c * math.sin(a))
    v1 = math.hypot(V0 * math.cos(TH) - c * t1 * math.cos(pv), V0 * math.sin(TH) - c * t1 * math.sin(pv))
    x = [V0 * t1 * f(TH) - 0.5 * c * t1 * t1 * f(pv) + v1 * v1 / (2 * MU * G) * f(pn)
         for f in (math.cos, math.sin)]
    proj = x[0] * math.cos(TH) + x[1] * math.sin(TH)
    return abs(math.degrees(math.atan2(x[1], x[0]) - TH)), math.hypot(*x), t1 + v1 / (MU * G), proj

box = pyramid(4)
need(abs(box[0] - (30 - math.degrees(math.atan(math.tan(TH) ** 2)))) < 1e-9,
     "box: heading error 30 - atan(tan^2 30) = %.6f deg" % box[0])
for r in csv.DictReader(open(d + "/sliding.csv")):
    k, name = int(r["facets"]), r["label"]
    head, dist, t = float(r["heading_deg"]), float(r["d_stop"]), float(r["t_stop"])
    print("%s: heading error %.9f deg, stop distance %.9f m (%+.4f vs the closed form), t_stop %.4f s"
          % (name, head, dist, float(r["d_stop_rel_err"]), t))
    if r["solver"] == "nsn":
        need(head < 1e-6, name + ": heading error < 1e-6 deg")
        need(abs(dist - closed["x_stop"]) / closed["x_stop"] < 1e-6, name + ": stop distance within 1e-6")
        need(abs(t - closed["t_stop"]) <= 2 * H, name + ": stop time within 2 steps")
        continue
    ph, pd, pt, _ = pyramid(k)
    need(abs(head - ph) < 1e-4, "%s: heading error %.6f deg (k = %d: %.6f)" % (name, head, k, ph))
    need(head > 5, name + ": heading error > 5 deg (the exact cone's is 0)")
    need(abs(dist - pd) / pd < 1e-5, "%s: stop distance %.6f m (k = %d: %.6f)" % (name, dist, k, pd))
    need(abs(t - pt) <= 2 * H, "%s: stop time %.5f s (k = %d: %.5f)" % (name, t, k, pt))
rows = [r for r in csv.DictReader(open(loops)) if r["reference"] != "1"]
need(len(rows) == sum(1 for _ in csv.DictReader(open(d + "/sliding.csv"))), "loops.csv: a row per solver")
for r in rows:
    k = int(r["label"].split("facets=")[1]) if "facets=" in r["label"] else 4
    nsn = r["solver"] == "nsn"
    want = closed["x_stop"] if nsn else pyramid(k)[3]
    x = float(r["x_stop"])
    print("loop %s: status %s, x_stop %.9f (closed form %.9f), x_stop_err %s" % (r["label"], r["status"], x, want, r["x_stop_err"]))
    need(r["status"] == "ok", "loop %s: status ok" % r["label"])
    need(abs(x - want) / want < 1e-5, "loop %s: x_stop on its closed form" % r["label"])
    need(abs(float(r["x_stop_closed"]) - closed["x_stop"]) < 1e-12, "loop %s: x_stop_closed" % r["label"])
    head, dist = float(r["heading_deg"]), float(r["d_stop"])
    wh, wd = (0.0, closed["x_stop"]) if nsn else pyramid(k)[:2]
    print("loop %s: heading_deg %.9f (closed form %.9f), d_stop %.9f (%.9f)" % (r["label"], head, wh, dist, wd))
    need(head < 1e-6 if nsn else abs(head - wh) < 1e-4, "loop %s: heading_deg on its closed form" % r["label"])
    need(abs(dist - wd) / wd < 1e-5, "loop %s: d_stop on its closed form" % r["label"])
    need(abs(float(r["d_stop_closed"]) - closed["x_stop"]) < 1e-12, "loop %s: d_stop_closed" % r["label"])
    # the series' last step (the stop): its x, y (along the launch direction, across it) give
    # x_stop, heading_deg and d_stop (which also counts the settle into the ground, ~g h^2)
    last = list(csv.DictReader(open("%s/loops/%s.csv" % (loops.rsplit("/", 1)[0], r["id"]))))[-1]
    px, py = float(last["x"]), float(last["y"])
    need(abs(px - x) <= 1e-9 * x and abs(math.degrees(math.atan2(abs(py), px)) - head) < 1e-6 and
         abs(math.hypot(px, py) - dist) <= 1e-6 * dist,
         "loop %s: series' last x,y %.9f,%.9f: x_stop, heading_deg, d_stop" % (r["label"], px, py))
# Rolling: pure rolling keeps v = R w x n, so each component of w (and of v) decelerates on its
# own at mu_r g/((1 + k) R) under the box's rolling moment (-mu_r r_N sgn w_k per axis): the
# same two phases as the sliding box with another deceleration. Heading error and the ratios
# of distance and time to the exact cone's (the closed form's) are the box's above.
slide = V0 * V0 / (2 * MU * G)
rc = json.load(open(tmp + "/roll-closed.json"))
for s in rolls:
    r = json.load(open("%s/roll-%s.json" % (tmp, s)))
    print("rolling %s: heading error %.9f deg, d_stop %.9f m (closed form %.9f), t_stop %.4f s (%.4f)"
          % (s, r["heading_deg"], r["d_stop"], rc["x_stop"], r["t_stop"], rc["t_stop"]))
    need(r["stopped"], "rolling %s: stopped" % s)
    if s == "nsn":
        need(r["heading_deg"] < 1e-6, "rolling nsn: heading error < 1e-6 deg")
        need(abs(r["d_stop"] - rc["x_stop"]) / rc["x_stop"] < 1e-6, "rolling nsn: stop distance")
        continue
    need(abs(r["heading_deg"] - box[0]) < 1e-4, "rolling %s: heading error %.6f deg" % (s, box[0]))
    need(abs(r["d_stop"] / rc["x_stop"] - box[1] / slide) < 1e-5,
         "rolling %s: distance ratio %.6f" % (s, box[1] / slide))
    # 10 steps: bullet-pgs's 10 sweeps a step leave a residual speed that delays its stop by
    # 2 to 3 steps where the others stop within 1 of the closed form's
    need(abs(r["t_stop"] - rc["t_stop"] * box[2] * MU * G / V0) <= 10 * H,
         "rolling %s: stop time ratio %.6f" % (s, box[2] * MU * G / V0))
print("FAILED: " + "; ".join(bad) if bad else "all closed forms met")
sys.exit(1 if bad else 0)
PY
rc=$?
cat "$tmp/py"
check "sliding sphere: nsn on the closed form, engines on their pyramid's closed form" '[ "$rc" = 0 ]'
echo "cli engines sliding: $pass passed, $fail failed"
[ "$fail" = 0 ]
