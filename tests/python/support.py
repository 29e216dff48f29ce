"""Shared set-up of the Python tests (run by tests/cli_python.sh with PYTHONPATH=python).

CONEBENCH_BIN: the CLI the results are compared with; DATA: the Siconos data folder
($CONEBENCH_DATA, else ../shared/data beside the tree), None when absent.
"""
import importlib.util
import json
import os
import subprocess
import unittest

TREE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.abspath(os.environ.get("CONEBENCH_BIN", os.path.join(TREE, "bin", "conebench")))
# empty counts as unset, as in the shell's ${CONEBENCH_DATA:-...} (make exports it empty)
DATA = os.environ.get("CONEBENCH_DATA") or os.path.join(TREE, "..", "shared", "data")
DATA = DATA if os.path.isdir(DATA) else None
ENV = dict(os.environ, OPENBLAS_NUM_THREADS="1")


def need_data(path):
    """The data file's path, or skip the test saying why."""
    if DATA is None:
        raise unittest.SkipTest("Siconos data folder absent (../shared/data or $CONEBENCH_DATA)")
    return os.path.join(DATA, path)


def have_scipy():
    return importlib.util.find_spec("scipy") is not None


def cli(*args):
    """Run the CLI: (exit status, stdout, stderr)."""
    r = subprocess.run([BIN, *args], capture_output=True, text=True, env=ENV,
                       stdin=subprocess.DEVNULL)
    return r.returncode, r.stdout, r.stderr


def cli_generate(folder, kind, nc, seed):
    """FOLDER/g.dat: `conebench generate random` of kind, nc, seed; its path."""
    f = os.path.join(folder, "g.dat")
    rc, _, err = cli("generate", "random", "--kind", kind, "--nc", str(nc), "--seed", str(seed),
                     "-o", f)
    if rc != 0:
        raise AssertionError("conebench generate: exit %d: %s" % (rc, err))
    return f


def cli_json(*args):
    rc, out, err = cli(*args)
    if rc != 0:
        raise AssertionError("conebench %s: exit %d: %s" % (" ".join(args), rc, err))
    return json.loads(out)


def cli_message(*args):
    """The message of a CLI failure: its stderr line without "conebench: "."""
    rc, out, err = cli(*args)
    if rc == 0:
        raise AssertionError("conebench %s succeeded" % " ".join(args))
    line = err.strip().splitlines()[0]
    return rc, line[len("conebench: "):] if line.startswith("conebench: ") else line
