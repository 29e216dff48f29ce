#!/usr/bin/env python3
"""conebench tests: what `conebench report DIR` must say, computed here from DIR/runs.csv and
DIR/limits.txt alone (python3's csv, json and statistics modules; no conebench code).

  report_expect.py verdict DIR       the three verdict lines of report.md
  report_expect.py json DIR FILE     compare the JSON object in FILE (report DIR --json); prints
                                     one "FAIL ..." line per difference and "checked N values"
  report_expect.py xmax DIR MEASURE TOL_INDEX   the right end of that profile's τ axis
  report_expect.py trace-rows DIR TOL_INDEX PROBLEM_INDEX   trace rows of that figure

The rules (the report's documented ones): cells are (tol, problem, solver label), problems and
solvers in order of first appearance; a cell is solved when every repetition is, its time is the
median over repetitions, its status and iterations are the first repetition's; unsupported cells
are not runs; shifted geometric means charge failures the time limit / max_iter (shifts 10 ms,
10); the winner of a problem is the solved cell of least time (the first on a tie).
"""
import csv
import json
import math
import statistics
import sys

TIME_SHIFT, ITER_SHIFT = 0.010, 10.0
FAIL_STATUSES = ["converged", "max_iter", "time_limit", "diverged", "bad_input", "stalled", "crashed"]
COUNTERS = ["block_products", "projections", "local_iters", "error_evals"]


def limits(d):
    lim = {"time_limit": 10.0, "max_iter": 10000, "campaign": "?"}
    try:
        for line in open(f"{d}/limits.txt"):
            k, _, v = line.strip().partition(" ")
            lim[k] = v
    except FileNotFoundError:
        pass
    return float(lim["time_limit"]), int(lim["max_iter"]), lim["campaign"]


def tables(d):
    rows = list(csv.DictReader(open(f"{d}/runs.csv", newline="")))
    tols = sorted({float(r["tol"]) for r in rows}, reverse=True)
    out = []
    for tol in tols:
        probs, solvs, cells = [], [], {}
        for r in rows:
            if float(r["tol"]) != tol:
                continue
            if r["problem"] not in probs:
                probs.append(r["problem"])
            if r["label"] not in solvs:
                solvs.append(r["label"])
            cells.setdefault((r["problem"], r["label"]), []).append(r)
        out.append((tol, probs, solvs, cells))
    return out


def cell(reps):
    return {
        "status": reps[0]["status"],
        "solved": all(r["solved"] == "yes" for r in reps),
        "time": statistics.median(float(r["time_s"]) for r in reps),
        "iterations": float(reps[0]["iterations"]),
        "error": float(reps[0]["error"]) if reps[0]["error"] not in ("", "nan") else math.nan,
        "filled": any(int(r[c]) != 0 for r in reps for c in COUNTERS),
    }


def sgm(xs, shift):
    return math.exp(sum(math.log(x + shift) for x in xs) / len(xs)) - shift if xs else None


def solver_stats(tab, s, tl, mi):
    tol, probs, solvs, cells = tab
    st = {"solver": s, "runs": 0, "solved": 0, "unsupported": 0, "failures": {}}
    st["failures"] = {k: 0 for k in FAIL_STATUSES}
    tm, it, er, filled = [], [], [], False
    for p in probs:
        if (p, s) not in cells:
            continue
        c = cell(cells[(p, s)])
        if c["status"] == "unsupported":
            st["unsupported"] += 1
            continue
        st["runs"] += 1
        st["solved"] += c["solved"]
        if not c["solved"] and c["status"] in st["failures"]:
            st["failures"][c["status"]] += 1
        filled |= c["filled"]
        tm.append(c["time"] if c["solved"] else tl)
        it.append(c["iterations"] if c["solved"] else mi)
        if math.isfinite(c["error"]):
            er.append(c["error"])
    st["success"] = st["solved"] / st["runs"] if st["runs"] else None
    st["sgm_time_s"] = sgm(tm, TIME_SHIFT)
    st["sgm_iterations"] = sgm(it, ITER_SHIFT)
    st["median_error"] = statistics.median(er) if er else None
    st["work_counters_filled"] = filled
    return st


def winner(tab, p):
    tol, probs, solvs, cells = tab
    best = None
    for s in solvs:
        if (p, s) in cells:
            c = cell(cells[(p, s)])
            if c["solved"] and (best is None or c["time"] < best[1]):
                best = (s, c["time"])
    return best


def verdict(d):
    tl, mi, _ = limits(d)
    tabs = tables(d)
    tab = tabs[-1]
    tol, probs, solvs, cells = tab
    st = {s: solver_stats(tab, s, tl, mi) for s in solvs}
    most = max(x["solved"] for x in st.values())
    top = [s for s in solvs if most > 0 and st[s]["solved"] == most]
    at = f"- Most solved at tol {tol:.0e}"
    if len(tabs) > 1:
        at += f" (the tightest of {len(tabs)} tolerances)"
    if most == 0:
        print(f"{at}: none (no solver solves any of the {len(probs)} problems).")
        print("- Fastest of those: none (nothing is solved).")
    else:
        each = " each" if len(top) > 1 else ""
        print(f"{at}: {', '.join(top)} ({most} of {len(probs)} problems{each}).")
        common = [p for p in probs if all(cell(cells[(p, s)])["solved"] for s in top)]
        means = {s: sgm([cell(cells[(p, s)])["time"] for p in common], TIME_SHIFT) for s in top}
        best = min(top, key=lambda s: (means[s], top.index(s)))
        only = "" if len(top) > 1 else " (the only one)"
        who = "all of them solve" if len(top) > 1 else "it solves"
        print(f"- Fastest of those: {best}{only}, shifted geometric mean of time "
              f"{1e3 * means[best]:.2f} ms (shift 10 ms) over the {len(common)} problems {who}.")
    unsolved = [p for p in probs if winner(tab, p) is None]
    if not unsolved:
        print("- Solved by no solver: none; every problem is solved by some solver.")
    else:
        names = ", ".join(unsolved[:5]) + (f" and {len(unsolved) - 5} more" if len(unsolved) > 5 else "")
        print(f"- Solved by no solver: {len(unsolved)} of {len(probs)} problems: {names}.")


class Cmp:
    def __init__(self):
        self.n = 0
        self.bad = 0

    def eq(self, what, got, want):
        self.n += 1
        if isinstance(want, float) and not isinstance(want, bool) and got is not None:
            ok = math.isfinite(want) and abs(got - want) <= 1e-12 * max(1.0, abs(want))
        else:
            ok = got == want or (want is None and got is None)
        if not ok:
            self.bad += 1
            print(f"FAIL {what}: report --json has {got!r}, runs.csv gives {want!r}")


def check_json(d, path):
    tl, mi, campaign = limits(d)
    j = json.load(open(path))
    c = Cmp()
    rows = list(csv.DictReader(open(f"{d}/runs.csv", newline="")))
    nu = sum(r["status"] == "unsupported" for r in rows)
    c.eq("runs", j["runs"], len(rows) - nu)
    c.eq("unsupported", j["unsupported"], nu)
    c.eq("campaign", j["campaign"], campaign)
    c.eq("time_limit_s", j["time_limit_s"], tl)
    c.eq("max_iter", j["max_iter"], mi)
    c.eq("time_shift_s", j["time_shift_s"], TIME_SHIFT)
    c.eq("iteration_shift", j["iteration_shift"], ITER_SHIFT)
    tabs = tables(d)
    c.eq("tolerances", len(j["tolerances"]), len(tabs))
    for jt, tab in zip(j["tolerances"], tabs):
        tol, probs, solvs, cells = tab
        c.eq("tol", jt["tol"], tol)
        c.eq(f"tol {tol:g} problems", jt["problems"], len(probs))
        c.eq(f"tol {tol:g} solvers", [x["solver"] for x in jt["solvers"]], solvs)
        for js in jt["solvers"]:
            want = solver_stats(tab, js["solver"], tl, mi)
            for k, v in want.items():
                c.eq(f"tol {tol:g} {js['solver']} {k}", js[k], v)
        c.eq(f"tol {tol:g} winners", [w["problem"] for w in jt["winners"]], probs)
        for w in jt["winners"]:
            best = winner(tab, w["problem"])
            c.eq(f"tol {tol:g} {w['problem']} winner", w["winner"], best[0] if best else None)
            if best:  # written with 9 significant digits
                c.eq(f"tol {tol:g} {w['problem']} winner_time_s", float(f"{w['winner_time_s']:.9g}"),
                     float(f"{best[1]:.9g}"))
    print(f"checked {c.n} values, {c.bad} differ")
    return 1 if c.bad else 0


def xmax(d, measure, ti):
    tab = tables(d)[ti]
    tol, probs, solvs, cells = tab
    common = [p for p in probs if all(cell(cells[(p, s)])["status"] != "unsupported"
                                      for s in solvs if (p, s) in cells)]
    cols = [s for s in solvs
            if measure != "work" or any(cell(cells[(p, s)])["filled"] for p in probs)]
    top = 1.0
    for p in common:
        cost = []
        for s in cols:
            c = cell(cells[(p, s)])
            if not c["solved"]:
                cost.append(math.inf)
            elif measure == "time":
                cost.append(max(c["time"], 1e-9))
            elif measure == "iterations":
                cost.append(max(c["iterations"], 1.0))
            else:
                cost.append(max(float(cells[(p, s)][0]["block_products"]), 1.0))
        best = min(cost)
        if math.isfinite(best):
            top = max([top] + [x / best for x in cost if math.isfinite(x)])
    print(repr(max(top * 1.25, 2.0)))


def trace_rows(d, ti, pi):
    tab = tables(d)[int(ti)]
    tol, probs, solvs, cells = tab
    n = 0
    for s in solvs:
        reps = cells.get((probs[int(pi)], s))
        if reps and reps[0]["status"] != "unsupported":
            for r in list(csv.reader(open(f"{d}/traces/{reps[0]['run_id']}.csv")))[1:]:
                n += float(r[2]) >= 0
    print(n)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "verdict":
        verdict(sys.argv[2])
    elif cmd == "json":
        sys.exit(check_json(sys.argv[2], sys.argv[3]))
    elif cmd == "xmax":
        xmax(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif cmd == "trace-rows":
        trace_rows(sys.argv[2], sys.argv[3], sys.argv[4])
