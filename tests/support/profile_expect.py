"""Recompute a report's data profile (figures/data-work-tol<i>.csv) from runs.csv alone.

usage: profile_expect.py DIR TI [budget]: prints "checked N values, M differ" and one FAIL line per
difference. A problem counts for a solver within budget k when every repetition of the run was
solved and max(block_products of repetition 0, 1) / nc <= k (the report's rule, man conebench).
With "budget": figures/budget-iterations-tol<i>.csv from the traces instead: at each budget B,
the median over the problems of the least error of a trace row with iteration + 1 <= B."""
import csv
import math
import statistics
import sys


def main(d, ti):
    rows = [r for r in csv.DictReader(open(d + "/runs.csv")) if not r.get("sequence")]
    tols = sorted({float(r["tol"]) for r in rows}, reverse=True)
    tol = tols[ti]
    cell = {}
    for r in rows:
        if float(r["tol"]) != tol or r["status"] == "unsupported":
            continue
        key = (r["problem"], r["label"])
        c = cell.setdefault(key, {"solved": True, "budget": None})
        c["solved"] &= r["solved"] == "yes"
        if r["rep"] == "0":
            c["budget"] = max(float(r["block_products"]), 1.0) / int(r["nc"])
    problems = sorted({p for p, _ in cell})
    with open("%s/figures/data-work-tol%d.csv" % (d, ti)) as f:
        table = list(csv.reader(f))
    solvers, checked, bad = table[0][1:], 0, 0
    for line in table[1:]:
        k = float(line[0])
        for j, s in enumerate(solvers):
            n = sum(1 for p in problems if cell[(p, s)]["solved"] and cell[(p, s)]["budget"] <= k)
            want, got = n / len(problems), float(line[1 + j])
            checked += 1
            if abs(want - got) > 1e-6:
                bad += 1
                print("FAIL k=%s %s: csv %s, runs.csv %s" % (line[0], s, got, want))
    print("checked %d values, %d differ" % (checked, bad))


def least(d, run_id, budget):
    errs = [float(r["error"]) for r in csv.DictReader(open("%s/traces/%s.csv" % (d, run_id)))
            if float(r["error"]) >= 0 and int(r["iteration"]) + 1 <= budget]
    return min(errs) if errs else math.inf


def budget(d, ti):
    rows = [r for r in csv.DictReader(open(d + "/runs.csv")) if not r.get("sequence")]
    tol = sorted({float(r["tol"]) for r in rows}, reverse=True)[ti]
    ids = {(r["problem"], r["label"]): r["run_id"] for r in rows
           if float(r["tol"]) == tol and r["rep"] == "0"}
    problems = sorted({p for p, _ in ids})
    table = list(csv.reader(open("%s/figures/budget-iterations-tol%d.csv" % (d, ti))))
    checked = bad = 0
    for line in table[1:]:
        for j, s in enumerate(table[0][1:]):
            med = statistics.median(least(d, ids[(p, s)], float(line[0])) for p in problems)
            got = float(line[1 + j])
            checked += 1
            same = (math.isnan(got) and math.isinf(med)) or abs(got - med) <= 1e-6 * abs(med)
            if not same:
                bad += 1
                print("FAIL B=%s %s: csv %s, traces %s" % (line[0], s, got, med))
    print("checked %d values, %d differ" % (checked, bad))


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[3] == "budget":
        budget(sys.argv[1], int(sys.argv[2]))
    else:
        main(sys.argv[1], int(sys.argv[2]))
