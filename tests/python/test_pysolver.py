"""Python solvers as runs: apgd below (a Python function) in a campaign next to nsn and apgd
(`solver python module=... path=...`), ranked in the report, its trace drawn, its verdict
checked with an independent residual; conebench.bench against conebench.solve and judge."""
import csv
import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np

import conebench as cb
from support import BIN, ENV, cli

TOL = 1e-6
SEEDS = (1, 2)
NC = 6


def apgd(problem, settings):
    """Accelerated projected gradient on the De Saxcé velocity ŷ = y + (μ‖y_T‖, 0, 0):
    p ← P_K(x − ŷ(W x + q)/L), x ← p + β (p − p_old) (Nesterov's β, reset when the step goes
    uphill); stops at the judge's error ≤ tol (coulomb3d only)."""
    a = problem.to_arrays(dense=True)
    W, q, mu = a["W"], a["q"], a["mu"]
    L = np.linalg.norm(W, 2)
    p = settings.warm_start.copy()
    x, theta = p.copy(), 1.0
    for k in range(1, settings.max_iter + 1):
        y = (W @ x + q).reshape(-1, 3)
        y[:, 0] += mu * np.linalg.norm(y[:, 1:], axis=1)
        p_new = cb.project("coulomb3d", x.reshape(-1, 3) - y / L, mu).reshape(-1)
        settings.work["block_products"] += problem.nc ** 2
        settings.work["projections"] += problem.nc
        theta_new = (1 + np.sqrt(1 + 4 * theta * theta)) / 2
        if np.dot(x - p_new, p_new - p) < 0:  # uphill: restart the momentum
            theta_new, x = 1.0, p_new.copy()
        else:
            x = p_new + (theta - 1) / theta_new * (p_new - p)
        p, theta = p_new, theta_new
        error = cb.judge(problem, p).error
        settings.work["error_evals"] += 1
        settings.trace(k, error)
        if error <= settings.tol or settings.time_up():
            break
    return p


def residual(W, q, mu, p):
    """The natural-map residual ‖p − P_K(p − ŷ)‖ / max(‖q‖, ‖p‖, ‖y‖) with the closed-form
    projection onto the 3D Coulomb cone (independent of the library)."""
    y = W @ p + q
    Y = y.reshape(-1, 3).copy()
    Y[:, 0] += mu * np.linalg.norm(Y[:, 1:], axis=1)
    v = p.reshape(-1, 3) - Y
    r, t = v[:, 0], np.linalg.norm(v[:, 1:], axis=1)
    proj = np.zeros_like(v)
    inside = t <= mu * r
    proj[inside] = v[inside]
    mid = ~inside & (mu * t > -r)
    rn = (r[mid] + mu[mid] * t[mid]) / (1 + mu[mid] ** 2)
    proj[mid, 0] = rn
    proj[mid, 1:] = v[mid, 1:] * (mu[mid] * rn / t[mid])[:, None]
    scale = max(np.linalg.norm(q), np.linalg.norm(p), np.linalg.norm(y))
    return np.linalg.norm(p - proj.reshape(-1)) / scale


def bad_return(problem, settings):
    return "not a point"


def echo_options(problem, settings):
    """p = (omega, steps, len(mode), tol, 0, ...): what settings holds, read back from p."""
    p = np.zeros(problem.n)
    o = settings.options
    p[:4] = o["omega"], o["steps"], len(o["mode"]), settings.tol
    return p


class PythonSolverCampaign(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.conf = os.path.join(cls.tmp, "py.conf")
        with open(cls.conf, "w") as f:
            f.write("name python-solvers\n"
                    "generate random kind=coulomb3d nc=%d seeds=%d..%d\n" % (NC, SEEDS[0], SEEDS[1]) +
                    "solver nsn\nsolver apgd\n"
                    "solver python name=papgd module=test_pysolver function=apgd path=%s\n"
                    % os.path.abspath(__file__) +
                    "tol %g\nmax-iter 5000\n" % TOL)
        cls.res = os.path.join(cls.tmp, "res")
        r = subprocess.run([BIN, "run", cls.conf, "-o", cls.res, "--quiet"], env=ENV,
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            raise AssertionError("conebench run: exit %d: %s" % (r.returncode, r.stderr))
        cls.rows = cb.results(cls.res, pandas=False)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def papgd(self):
        rows = [r for r in self.rows if r["label"] == "papgd"]
        self.assertEqual(len(rows), len(SEEDS))
        return rows

    def test_judged_like_any_run(self):
        # The same function in this process gives the same point: the campaign's error is the
        # judge's of that point, bit for bit, and an independent residual agrees with it.
        for row, seed in zip(self.papgd(), SEEDS):
            self.assertEqual(row["solver"], "python")
            prob = cb.Problem.read(os.path.join(self.res, "problems", row["problem"] + ".dat"))
            s = cb.Settings(prob.n, TOL, 5000)
            p = apgd(prob, s)
            j = cb.judge(prob, p, TOL)
            self.assertEqual(row["error"], j.error)
            self.assertEqual(row["solved"], j.solved)
            self.assertEqual(row["iterations"], s.iterations)
            self.assertEqual(row["block_products"], s.work["block_products"])
            a = prob.to_arrays(dense=True)
            indep = residual(a["W"], a["q"], a["mu"], p)
            self.assertAlmostEqual(indep / row["error"], 1.0, delta=1e-6)
            self.assertEqual(row["solved"], indep <= TOL * (1 + 1e-9))
            # The child's CPU time, Python's start-up included, is in the row: more than the
            # function's own time.
            self.assertGreater(row["time_cpu_s"], s.points[-1][1])

    def test_trace_recorded(self):
        for row in self.papgd():
            with open(os.path.join(self.res, "traces", row["run_id"] + ".csv")) as f:
                pts = list(csv.DictReader(f))
            self.assertEqual(int(pts[-1]["iteration"]), row["iterations"])
            self.assertEqual(float(pts[-1]["error"]), row["error"])  # the last trace() call
            its = [int(p["iteration"]) for p in pts]
            self.assertEqual(its, list(range(len(its))))  # one point per iteration from 0

    def test_ranked_and_drawn(self):
        rc, _, err = cli("report", self.res)
        self.assertEqual(rc, 0, err)
        with open(os.path.join(self.res, "report.md")) as f:
            report = f.read()
        line = next((l for l in report.splitlines() if l.startswith("| papgd |")), None)
        self.assertIsNotNone(line, "no papgd row in report.md")
        cells = [c.strip() for c in line.strip("|").split("|")]
        solved = sum(r["solved"] for r in self.papgd())
        self.assertEqual(cells[1:3], [str(len(SEEDS)), str(solved)])
        figs = os.path.join(self.res, "figures")
        convs = [f for f in os.listdir(figs) if f.startswith("conv-") and f.endswith(".dat")]
        self.assertEqual(len(convs), len(SEEDS))
        for f in convs:
            with open(os.path.join(figs, f)) as fh:
                self.assertIn("# papgd", fh.read())
        if shutil.which("gnuplot"):
            svgs = [f for f in os.listdir(figs) if f.startswith("conv-") and f.endswith(".svg")]
            self.assertEqual(len(svgs), len(SEEDS))
            with open(os.path.join(figs, svgs[0])) as fh:
                self.assertIn("<title>papgd</title>", fh.read())


class PythonSolverErrors(unittest.TestCase):
    def run_conf(self, solver_line):
        with tempfile.TemporaryDirectory() as tmp:
            conf = os.path.join(tmp, "bad.conf")
            with open(conf, "w") as f:
                f.write("generate random kind=coulomb3d nc=3 seeds=1\nsolver nsn\n%s\n"
                        % solver_line)
            rc, _, err = cli("run", conf, "-o", os.path.join(tmp, "res"), "--quiet")
            self.assertFalse(os.path.exists(os.path.join(tmp, "res", "runs.csv")))
            return rc, err.replace(tmp, "TMP")

    def test_unknown_module_and_function(self):
        rc, err = self.run_conf("solver python module=no_such_module_here")
        self.assertEqual(rc, 2)
        self.assertIn("TMP/bad.conf:3:", err)
        self.assertIn("No module named 'no_such_module_here'", err)
        rc, err = self.run_conf("solver python module=test_pysolver function=nope path=%s"
                                % os.path.abspath(__file__))
        self.assertEqual(rc, 2)
        self.assertIn("TMP/bad.conf:3:", err)
        self.assertIn("has no function 'nope'", err)
        rc, err = self.run_conf("solver python module=x path=/no/such/file.py")
        self.assertEqual((rc, "option path: /no/such/file.py" in err), (2, True), err)
        # Refused by conebench before Python runs: the names' syntax.
        for line, why in (("module=1bad", "option module: required: a Python module name, got "
                           "'1bad'"), ("module=m function=a.b", "option function: a Python "
                           "name, got 'a.b'"), ("module=m name=a/b", "option name: 1 to")):
            rc, err = self.run_conf("solver python " + line)
            self.assertEqual(rc, 2, err)
            self.assertIn("TMP/bad.conf:3: " + why, err)

    def test_bad_return_is_a_failed_run(self):
        prob = cb.generate("coulomb3d", nc=5, seed=3)
        self.assertFalse(cb.judge(prob, np.zeros(prob.n)).solved)  # the failure is reported
        with tempfile.TemporaryDirectory() as tmp:
            f = os.path.join(tmp, "g.dat")
            prob.write(f)
            rc, out, err = cli("solve", f, "--solver", "python", "--option", "module=x",
                               "--option", "function=bad_return", "--option",
                               "path=" + os.path.abspath(__file__), "--json")
        self.assertIn('"status":"stalled"', out)
        self.assertIn("the function returned 'str', not the 15 values of p", err)


    def test_args_reach_settings(self):
        prob = cb.generate("coulomb3d", nc=2, seed=1)
        with tempfile.TemporaryDirectory() as tmp:
            f, sol = os.path.join(tmp, "g.dat"), os.path.join(tmp, "g.sol")
            prob.write(f)
            rc, _, err = cli("solve", f, "--solver", "python", "--tol", "1e-5", "--option",
                             "module=x", "--option", "function=echo_options", "--option",
                             "path=" + os.path.abspath(__file__), "--option",
                             "args=omega:1.5,steps:3,mode:fast", "--solution", sol)
            self.assertEqual(rc, 0, err)
            p, _ = cb.read_solution(sol)
            rc, _, err = cli("solve", f, "--solver", "python", "--option", "module=x",
                             "--option", "args=omega=1.5")
        np.testing.assert_array_equal(p[:4], [1.5, 3, 4, 1e-5])
        self.assertEqual(rc, 2)
        self.assertIn("option args: 'omega=1.5' is not KEY:VALUE", err)


class Bench(unittest.TestCase):
    def test_rows_agree_with_solve_and_judge(self):
        probs = [cb.generate("coulomb3d", nc=NC, seed=s) for s in SEEDS]
        rows = cb.bench(probs, ["nsn", ("nsgs-1.2", "nsgs", {"omega": 1.2}), apgd], tol=TOL,
                        pandas=False)
        self.assertEqual([r["label"] for r in rows], ["nsn", "nsgs-1.2", "apgd"] * len(SEEDS))
        for i, prob in enumerate(probs):
            nsn, nsgs, mine = rows[3 * i:3 * i + 3]
            _, info = cb.solve(prob, "nsn", tol=TOL)
            self.assertEqual((nsn["error"], nsn["iterations"], nsn["solved"]),
                             (info.error, info.iterations, info.solved))
            _, info = cb.solve(prob, "nsgs", tol=TOL, options={"omega": 1.2})
            self.assertEqual((nsgs["error"], nsgs["iterations"]), (info.error, info.iterations))
            s = cb.Settings(prob.n, TOL, 10000)
            p = apgd(prob, s)
            j = cb.judge(prob, p, TOL)
            self.assertEqual((mine["error"], mine["solved"], mine["iterations"]),
                             (j.error, j.solved, s.iterations))
            self.assertEqual(mine["status"], "converged" if j.error <= TOL else "max_iter")
            np.testing.assert_array_equal(mine["trace"]["error"], [t[2] for t in s.points])

    def test_bad_entries(self):
        prob = cb.generate("coulomb3d", nc=2, seed=1)
        with self.assertRaises(cb.ConebenchError) as e:
            cb.bench(prob, [42])
        self.assertIn("solvers: 42", e.exception.message)
        with self.assertRaises(cb.ConebenchError):
            cb.bench(prob, [bad_return])


if __name__ == "__main__":
    unittest.main()
