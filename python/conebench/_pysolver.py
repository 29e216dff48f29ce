"""Python solvers: a function solve(problem, settings) -> p, run and judged like every solver.

Used by conebench.bench (in this process) and by the campaign's `python` solver (the driver,
conebench._driver, in a child process; man conebench, PYTHON SOLVERS)."""
import importlib
import importlib.util
import os
import sys
import time

import numpy as np

from . import ConebenchError

WORK_KEYS = ("block_products", "projections", "local_iters", "error_evals")


class Settings:
    """What a Python solver is given besides the problem.

    tol, max_iter, time_limit (CPU seconds, None: none), warm_start (numpy array of n values:
    the start, zeros when none), options (dict, {} unless given), work (dict of the four work
    counters, which the function may increase), trace(iteration, error) (call once per
    iteration: the run's trace and iteration count), time_up() (True once time_limit CPU
    seconds of this process have passed since the call began)."""

    def __init__(self, n, tol, max_iter, time_limit=None, warm_start=None, options=None):
        self.tol = float(tol)
        self.max_iter = int(max_iter)
        self.time_limit = time_limit if time_limit and time_limit > 0 else None
        self.warm_start = (np.zeros(n) if warm_start is None
                           else np.array(warm_start, dtype=np.float64).reshape(n))
        self.options = dict(options or {})
        self.work = {k: 0 for k in WORK_KEYS}
        self.points = []  # (iteration, time_s, error) as trace() gets them
        self.t0 = time.process_time()

    def trace(self, iteration, error):
        """One trace point: iteration (non-decreasing integer) and the solver's error there."""
        self.points.append((int(iteration), time.process_time() - self.t0, float(error)))

    def time_up(self):
        return self.time_limit is not None and time.process_time() - self.t0 >= self.time_limit

    @property
    def iterations(self):
        return self.points[-1][0] if self.points else 0


class SolverError(ConebenchError):
    """A Python solver that cannot be loaded or returned no usable point."""


def load(module, function="solve", path=None):
    """The callable function of module: imported by name, or loaded from the file path (its
    folder first on sys.path, as for a script, so that it imports its neighbours)."""
    try:
        if path:
            if not os.path.isfile(path):
                raise SolverError("option path: %s: no such file" % path)
            sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
            spec = importlib.util.spec_from_file_location(module, path)
            mod = importlib.util.module_from_spec(spec)
            sys.modules[module] = mod
            spec.loader.exec_module(mod)
        else:
            mod = importlib.import_module(module)
    except SolverError:
        raise
    except Exception as e:  # an ImportError, or the module's own failure on import
        raise SolverError("option module: cannot import '%s': %s: %s"
                          % (module, type(e).__name__, e)) from None
    fn = getattr(mod, function, None)
    if not callable(fn):
        raise SolverError("option function: module '%s' has no function '%s'" % (module, function))
    return fn


def parse_args(text):
    """settings.options of the option args "KEY:VALUE,KEY:VALUE": each value an int, else a
    float, else the text."""
    options = {}
    for pair in filter(None, (text or "").split(",")):
        key, sep, value = pair.partition(":")
        if not sep or not key.isidentifier():
            raise SolverError("option args: '%s' is not KEY:VALUE (KEY a Python name)" % pair)
        for conv in (int, float, str):
            try:
                options[key] = conv(value)
                break
            except ValueError:
                continue
    return options


def call(fn, problem, settings):
    """p = fn(problem, settings) as n float64 values, and the CPU seconds the call took."""
    t0 = time.process_time()
    settings.t0 = t0
    p = fn(problem, settings)
    spent = time.process_time() - t0
    try:
        p = np.asarray(p, dtype=np.float64).reshape(problem.n)
    except (TypeError, ValueError):
        raise SolverError("the function returned %r, not the %d values of p"
                          % (type(p).__name__, problem.n)) from None
    return p, spent


def status_of(p, settings, spent):
    """The stop reason, as the library states it for its solvers."""
    if not np.all(np.isfinite(p)):
        return "diverged"
    if settings.time_limit is not None and spent > settings.time_limit:
        return "time_limit"
    return "max_iter" if settings.iterations >= settings.max_iter else "converged"


def trace_arrays(settings):
    pts = settings.points
    return {"iteration": np.array([t[0] for t in pts], dtype=int),
            "time_s": np.array([t[1] for t in pts]),
            "error": np.array([t[2] for t in pts])}

