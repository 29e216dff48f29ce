"""conebench.bench: solvers, library or Python, on problems in this process, judged alike."""
import os

from . import (DEFAULT_TOL, ConebenchError, Problem, _settings, judge, solve)
from ._pysolver import Settings, call, status_of, trace_arrays


def _entries(solvers):
    """(label, solver, options) of each entry: a name, a function, or a tuple (label, name or
    function[, options])."""
    out = []
    for e in solvers:
        if isinstance(e, tuple) and len(e) in (2, 3):
            out.append((str(e[0]), e[1], dict(e[2]) if len(e) == 3 else {}))
        elif isinstance(e, str):
            out.append((e, e, {}))
        elif callable(e):
            out.append((getattr(e, "__name__", "python"), e, {}))
        else:
            raise ConebenchError("solvers: %r is not a solver name, a function or a tuple "
                                 "(label, solver[, options])" % (e,))
    return out


def _library_row(prob, name, options, tol, max_iter, time_limit):
    _, info = solve(prob, name, tol=tol, options=options, max_iter=max_iter,
                    time_limit=time_limit)
    return {"solver": name, "status": info.status, "solved": info.solved,
            "iterations": info.iterations, "error": info.error, "error_q": info.error_q,
            "error_data": info.error_data, "time_cpu_s": info.time_cpu, **info.work,
            "trace": info.trace}


def _python_row(prob, fn, options, tol, max_iter, time_limit):
    """fn(prob, settings) timed by this process's CPU clock, then judged at tol."""
    s = Settings(prob.n, tol, max_iter, time_limit, None, options)
    p, spent = call(fn, prob, s)
    j = judge(prob, p, tol)
    status = status_of(p, s, spent)
    return {"solver": "python", "status": status, "solved": j.solved,
            "iterations": s.iterations, "error": j.error, "error_q": j.error_q,
            "error_data": j.error_data, "time_cpu_s": spent, **s.work,
            "trace": trace_arrays(s)}


def bench(problems, solvers, tol=DEFAULT_TOL, max_iter=None, time_limit=None, pandas=None):
    """Run every solver on every problem (in order) and judge each final point at tol.

    problems: a Problem, a file path, or a list of them. solvers: names of library solvers,
    Python functions solve(problem, settings) -> p, or tuples (label, name or function[,
    options]). max_iter and time_limit (CPU seconds) default to the library's. A library
    solver runs as conebench.solve; a function is timed by time.process_time and its point
    judged by conebench.judge (the verdict is the judge's, whatever the status; time_limit
    is a status, not a stop: the function watches settings.time_up()). Returns rows like results(): problem,
    label, solver, status, solved, iterations, error, error_q, error_data, time_cpu_s, the
    four work counters and trace (arrays); a pandas DataFrame when pandas is there (pandas=
    False: a list of dicts)."""
    if isinstance(problems, (Problem, str, os.PathLike)):
        problems = [problems]
    probs = [p if isinstance(p, Problem) else Problem.read(p) for p in problems]
    entries = _entries(solvers)
    defaults = _settings(tol, None, max_iter, time_limit, False, 1, [])
    max_iter, time_limit = defaults.max_iter, defaults.time_limit
    rows = []
    for prob in probs:
        for label, sv, options in entries:
            run = _python_row if callable(sv) else _library_row
            row = run(prob, sv, options, tol, max_iter, time_limit)
            rows.append({"problem": prob.name, "kind": prob.kind, "nc": prob.nc,
                         "label": label, "tol": tol, **row})
    if pandas is not False:
        try:
            import pandas as pd
            return pd.DataFrame(rows)
        except ImportError:
            if pandas:
                raise
    return rows
