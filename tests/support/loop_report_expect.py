#!/usr/bin/env python3
"""conebench tests: the stop columns of the report's loop section, computed here from
DIR/loops.csv alone (python3's csv module; no conebench code).

  loop_report_expect.py DIR    compare DIR/report.md's loop tables with DIR/loops.csv; prints one
                               "FAIL ..." line per difference and "checked N rows, M stop lines"

The rules (the report's documented ones, docs/conebench.1): a loop line's table has the columns
"heading error [°]" and "d_stop [m] (vs closed form)" when a row of the line has d_stop_closed
(a loops.csv of the older 31-column layout has none: no such columns); a row's heading cell is
heading_deg (%.6g), its d_stop cell d_stop (%.9g) and (d_stop - d_stop_closed) / d_stop_closed
(%+.3e), "—" where loops.csv has nan; the table row of (label, tol) is the first repetition's,
the reference's is "reference SOLVER".
"""
import csv
import math
import os
import sys

HEADING, DSTOP = "heading error [°]", "d_stop [m] (vs closed form)"


def num(r, k):
    """A loops.csv number; nan when the column is absent (the older layout)."""
    return float(r[k]) if r.get(k) not in (None, "") else math.nan


def tables(path):
    """{loop tag: (header cells, {(solver cell, tol cell): row cells})} of the loop section."""
    out, tag, head = {}, None, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("## "):
            tag = None
        if line.startswith("### "):
            tag, head = line[4:], None
        elif tag and line.startswith("| "):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            if head is None:
                head = cells
                out[tag] = (head, {})
            elif not line.startswith("|---"):
                out[tag][1][(cells[0], cells[1])] = cells
    return out


def expect(r):
    """The two stop cells of loops.csv row r."""
    h, d, dc = num(r, "heading_deg"), num(r, "d_stop"), num(r, "d_stop_closed")
    return ("—" if math.isnan(h) else "%.6g" % h,
            "—" if math.isnan(d) else "%.9g (%+.3e)" % (d, (d - dc) / dc))


def main(d):
    rows = list(csv.DictReader(open(os.path.join(d, "loops.csv"))))
    got = tables(os.path.join(d, "report.md"))
    bad, seen, stops = [], set(), set()
    for r in rows:
        key = ("reference " + r["solver"] if r["reference"] == "1" else r["label"],
               "%.0e" % float(r["tol"]))
        if (r["loop"],) + key in seen:
            continue  # a later repetition: the table shows the first
        seen.add((r["loop"],) + key)
        head, cells = got.get(r["loop"], ([], {}))
        closed = any(not math.isnan(num(q, "d_stop_closed")) for q in rows if q["loop"] == r["loop"])
        if key not in cells:
            bad.append("%s %s: no table row" % (r["loop"], key))
            continue
        if (HEADING in head) != closed or (DSTOP in head) != closed:
            bad.append("%s: stop columns %s, closed form %s" % (r["loop"], HEADING in head, closed))
            continue
        if not closed:
            continue
        stops.add(r["loop"])
        want = expect(r)
        have = (cells[key][head.index(HEADING)], cells[key][head.index(DSTOP)])
        if have != want:
            bad.append("%s %s: report %s, loops.csv %s" % (r["loop"], key, have, want))
    for b in bad:
        print("FAIL " + b)
    print("checked %d rows, %d stop lines" % (len(seen), len(stops)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
