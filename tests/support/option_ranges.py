"""conebench tests: every numeric solver option range that `conebench list solvers` states —
"in (lo, hi)", "in [lo, hi]", "(0, 1)", "(>= lo)" — is the range `solve --option` accepts: each
closed end accepted, each open end and a value just outside each end refused (exit 2).
Prints one line per disagreement and a summary; exit status 1 on any disagreement.
Usage: option_ranges.py BIN DIR (DIR: a scratch folder)"""
import re
import subprocess
import sys

BIN, DIR = sys.argv[1], sys.argv[2]
RANGE = re.compile(r'([\(\[])\s*([-+0-9.e]+)\s*,\s*([-+0-9.e]+)\s*([\)\]])')
FLOOR = re.compile(r'\(\s*>=\s*([-+0-9.e]+)\s*\)')


def ranges():
    """(solver, key, lo, lo_closed, hi, hi_closed) for every option whose help states one."""
    text = subprocess.run([BIN, 'list', 'solvers'], capture_output=True, text=True).stdout
    solver = None
    for line in text.splitlines():
        if not line.startswith(' '):
            solver = line.split()[0]
            continue
        m = re.match(r'\s+(\S+?)=\S*\s+(.*)', line)
        if not m:
            continue
        r, f = RANGE.search(m.group(2)), FLOOR.search(m.group(2))
        if r:
            yield solver, m.group(1), r.group(2), r.group(1) == '[', r.group(3), r.group(4) == ']'
        elif f:
            yield solver, m.group(1), f.group(1), True, None, False


def verdict(solver, key, value):
    """True accepted, False refused (exit 2), None when no problem kind is taken."""
    for kind in ('coulomb3d', 'coulomb2d', 'rolling3d'):
        r = subprocess.run([BIN, 'solve', f'{DIR}/{kind}.dat', '--solver', solver, '--option',
                            f'{key}={value}', '--max-iter', '2', '--time-limit', '10'],
                           capture_output=True, text=True)
        if r.returncode == 2 and key not in r.stderr:
            continue  # refused for another reason (the kind): try the next one
        return r.returncode != 2
    return None


def outside(x, up):
    x = float(x)
    step = max(abs(x) * 1e-6, 1e-9)
    return repr(x + step if up else x - step)


def main():
    for kind in ('coulomb3d', 'coulomb2d', 'rolling3d'):
        subprocess.run([BIN, 'generate', 'random', '--kind', kind, '--nc', '3', '--seed', '1',
                        '-o', f'{DIR}/{kind}.dat'], capture_output=True, check=True)
    bad = checked = 0
    for solver, key, lo, lo_closed, hi, hi_closed in ranges():
        cases = [(lo, lo_closed), (outside(lo, False), False)]
        if hi is not None:
            cases += [(hi, hi_closed), (outside(hi, True), False)]
        for value, expect in cases:
            got = verdict(solver, key, value)
            if got is None:
                continue
            checked += 1
            if got != expect:
                bad += 1
                print(f'{solver} {key}={value}: {"accepted" if got else "refused"}, but the '
                      f'range listed says {"accepted" if expect else "refused"}')
    print(f'option ranges: {checked} boundary values checked, {bad} disagree')
    return 1 if bad or not checked else 0


sys.exit(main())
