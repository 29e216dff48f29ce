"""A campaign's results (DIR/runs.csv of `conebench run`; man conebench, RESULTS FILES)."""
import csv
import math
import os

from . import ConebenchError

INT_COLUMNS = ("nc", "rep", "iterations", "block_products", "projections", "local_iters",
               "error_evals", "step", "steps_unsolved", "sliding", "positive_work")
FLOAT_COLUMNS = ("tol", "error", "error_q", "time_s", "time_setup_s", "time_solve_s",
                 "dist_ref", "error_data", "time_cpu_s", "cone_violation", "rolling_violation",
                 "spin_violation", "angle_max", "angle_mean")


def _convert(row):
    """A runs.csv row with numbers as numbers (an empty cell: None for integers, nan for
    reals) and solved as a bool."""
    for k in INT_COLUMNS:
        if k in row:
            row[k] = int(row[k]) if row[k] != "" else None
    for k in FLOAT_COLUMNS:
        if k in row:
            row[k] = float(row[k]) if row[k] != "" else math.nan
    if "solved" in row:
        row["solved"] = row["solved"] == "yes"
    return row


def results(directory, pandas=None):
    """The runs of a results directory, one row a run in runs.csv order: a pandas DataFrame
    when pandas is importable (pandas=False: always a list of dicts), else a list of dicts.
    A torn last line (a killed campaign) is ignored, as the CLI does."""
    path = os.path.join(str(directory), "runs.csv")
    try:
        with open(path, newline="") as f:
            text = f.read()
    except OSError as e:
        raise ConebenchError("%s: %s" % (path, e.strerror), 4) from None
    if text and not text.endswith("\n"):
        text = text[:text.rfind("\n") + 1]  # the torn last line
    reader = csv.DictReader(text.splitlines())
    if not reader.fieldnames or "run_id" not in reader.fieldnames:
        raise ConebenchError("%s:1: not a runs.csv (no run_id column)" % path)
    rows = [_convert(r) for r in reader]
    if pandas is not False:
        try:
            import pandas as pd
        except ImportError:
            if pandas:
                raise
            return rows
        return pd.DataFrame(rows, columns=reader.fieldnames)
    return rows
