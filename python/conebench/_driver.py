"""The campaign's `python` solver runs this (man conebench, PYTHON SOLVERS):

    python3 -m conebench._driver DIR MODULE FUNCTION [PATH [ARGS]]   solve DIR/problem.dat
    python3 -m conebench._driver --check MODULE FUNCTION [PATH [ARGS]]  only load the function

PATH: the module's file ('' or absent: import MODULE by name); ARGS: "KEY:VALUE,..." (the
function's settings.options).

DIR is the external solver's directory (settings.json, problem.dat, warm_start.txt in; it
writes solution.txt, trace.csv "iteration,time_s,error" and work.txt). Exit 0 when p was
written, 2 (the reason on stderr, one line) when the function cannot be loaded or returns no
point; its own exceptions end it with Python's traceback (exit 1)."""
import json
import os
import sys

from . import Problem
from ._pysolver import WORK_KEYS, Settings, SolverError, call, load, parse_args


def _read(directory, options):
    """settings.json's content, the problem (its kind as settings.json says) and Settings."""
    with open(os.path.join(directory, "settings.json")) as f:
        s = json.load(f)
    name = "problem.hdf5" if s.get("format") == "fclib" else "problem.dat"
    problem = Problem.read(os.path.join(directory, name), kind=s["kind"])
    warm = None
    if s.get("warm_start"):
        with open(os.path.join(directory, s["warm_start"])) as f:
            warm = [float(w) for w in f.read().split()]
    return problem, Settings(problem.n, s["tol"], s["max_iter"], s.get("time_limit"), warm,
                             options)


def _write(directory, p, settings):
    """solution.txt, trace.csv, work.txt (each written whole, then renamed)."""
    files = {
        "solution.txt": "".join("%r\n" % float(x) for x in p),
        "trace.csv": "iteration,time_s,error\n" + "".join(
            "%d,%r,%r\n" % t for t in settings.points),
        "work.txt": " ".join(str(int(settings.work.get(k, 0))) for k in WORK_KEYS) + "\n"}
    for name, text in files.items():
        tmp = os.path.join(directory, name + ".part")
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, os.path.join(directory, name))


def main(argv):
    check = argv[:1] == ["--check"]
    args = argv[1:] if check else argv[:]
    directory = None if check or not args else args.pop(0)
    if len(args) not in (2, 3, 4):
        print("usage: python3 -m conebench._driver (--check | DIR) MODULE FUNCTION [PATH [ARGS]]",
              file=sys.stderr)
        return 2
    args += [""] * (4 - len(args))
    try:
        options = parse_args(args[3])
        fn = load(args[0], args[1], args[2] or None)
        if check:
            return 0
        problem, settings = _read(directory, options)
        p, _ = call(fn, problem, settings)
    except SolverError as e:
        print("python: %s" % e, file=sys.stderr)
        return 2
    _write(directory, p, settings)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
