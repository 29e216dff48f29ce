"""conebench.solve against the CLI, solvers() against `conebench list solvers`, generate()
against `conebench generate random`."""
import ctypes
import os
import tempfile
import unittest

import numpy as np

import conebench as cb
from support import cli, cli_generate, cli_json, have_scipy, need_data

# Small Siconos files of both storages: dense (0) and sparse-block (1).
FILES = ("fc3d/Capsules-i100-1090.dat", "fc3d/FC3D_Example1_SBM.dat", "fc3d/Rover4396.dat")


class SolveLikeCli(unittest.TestCase):
    def check_file(self, rel, solver="nsn"):
        path = need_data(rel)
        arrays = cb.Problem.read(path).to_arrays()
        if not isinstance(arrays["W"], np.ndarray) and not have_scipy():
            self.skipTest("%s has sparse W and python3-scipy is absent" % rel)
        # The problem rebuilt from the numpy (or scipy) arrays alone.
        prob = cb.Problem.from_arrays(**arrays, name=os.path.basename(rel))
        sol, info = cb.solve(prob, solver, tol=1e-8)
        ref = cli_json("solve", path, "--solver", solver, "--json")
        self.assertEqual(info.error, ref["error"], rel)
        self.assertEqual(info.error_q, ref["error_q"], rel)
        self.assertEqual(info.iterations, ref["iterations"], rel)
        self.assertEqual(info.status, ref["status"], rel)
        self.assertEqual(info.solved, ref["solved"], rel)
        # The verdict is the judge's on the returned point.
        j = cb.judge(prob, sol.p, 1e-8)
        self.assertEqual((j.error, j.solved), (info.error, info.solved))
        np.testing.assert_array_equal(j.y, sol.y)
        # The trace: one point per iteration at most, its last error the solver's.
        if len(info.trace["error"]):
            self.assertLessEqual(len(info.trace["error"]), info.iterations + 1)
            self.assertTrue(np.all(np.diff(info.trace["iteration"]) >= 0))
        return prob, sol, info

    def test_files_like_cli(self):
        for rel in FILES:
            self.check_file(rel)

    def test_generated_file_like_cli(self):
        # Without the data folder too: a file the CLI generates, its arrays, nsn on both sides.
        with tempfile.TemporaryDirectory() as tmp:
            f = cli_generate(tmp, "coulomb3d", 40, 11)
            a = cb.Problem.read(f).to_arrays(dense=True)
            prob = cb.Problem.from_arrays(np.asfortranarray(a["W"]), a["q"], a["mu"])
            _, info = cb.solve(prob, "nsn")
            ref = cli_json("solve", f, "--solver", "nsn", "--json")
        self.assertEqual((info.error, info.iterations, info.solved),
                         (ref["error"], ref["iterations"], ref["solved"]))
        # The file's W is block-sparse, this copy dense: block_products counts every block of
        # a dense W (solver.h); the other counters are the run's.
        for k in ("projections", "local_iters", "error_evals"):
            self.assertEqual(info.work[k], ref["work"][k], k)

    def test_dense_copy_same_bits(self):
        # W given column-major is borrowed (no copy); C-ordered is copied; both solve alike.
        prob = cb.Problem.read(need_data(FILES[0]))
        a = prob.to_arrays(dense=True)
        W = np.asfortranarray(a["W"])
        borrowed = cb.Problem.from_arrays(W, a["q"], a["mu"], kind=a["kind"])
        self.assertEqual(ctypes.addressof(borrowed._ptr.contents.W.contents), W.ctypes.data)
        copied = cb.Problem.from_arrays(np.ascontiguousarray(W), a["q"], a["mu"])
        s1, i1 = cb.solve(borrowed, "nsgs", tol=1e-8)
        s2, i2 = cb.solve(copied, "nsgs", tol=1e-8)
        np.testing.assert_array_equal(s1.p, s2.p)
        self.assertEqual(i1.work, i2.work)

    def test_warm_start_not_modified(self):
        prob = cb.generate("rolling3d", nc=6, seed=2)
        start = np.zeros(prob.n)
        sol, info = cb.solve(prob, "nsgs", tol=1e-10, warm_start=start, max_iter=100000)
        self.assertTrue(info.solved, info)
        self.assertFalse(np.any(start))
        # From the solution itself the solver stops at once.
        _, again = cb.solve(prob, "nsgs", tol=1e-10, warm_start=sol.p)
        self.assertLessEqual(again.iterations, 2)


class JudgeLikeCli(unittest.TestCase):
    def test_error_command(self):
        # A point written by write_solution: `conebench error` and judge() give the same bits.
        prob = cb.generate("rollspin3d", nc=9, seed=8)
        rng = np.random.default_rng(1)
        with tempfile.TemporaryDirectory() as tmp:
            f, sol = os.path.join(tmp, "p.dat"), os.path.join(tmp, "p.sol")
            prob.write(f)
            for p in (prob.p_star, prob.p_star + 1e-3 * rng.normal(size=prob.n)):
                cb.write_solution(sol, prob, p)
                np.testing.assert_array_equal(cb.read_solution(sol)[0], p)
                ref = cli_json("error", f, "--solution", sol, "--tol", "1e-9")
                j = cb.judge(prob, p, tol=1e-9)
                self.assertEqual((j.error, j.error_q, j.error_data, j.solved),
                                 (ref["error"], ref["error_q"], ref["error_data"], ref["solved"]))


class SolversLikeCli(unittest.TestCase):
    def test_every_cli_solver_listed(self):
        names = {s.name for s in cb.solvers()}
        rc, out, err = cli("list", "solvers")
        self.assertEqual(rc, 0, err)
        listed = {line.split()[0] for line in out.splitlines()
                  if line and not line[0].isspace() and line.split()[0] in names}
        self.assertIn("nsn", names)
        self.assertIn("nsgs", names)
        for name in ("nsn", "nsgs", "apgd"):
            self.assertIn(name, listed)
        nsgs = next(s for s in cb.solvers() if s.name == "nsgs")
        for o in nsgs.options:
            self.assertIn(o.key, out, "option %s of nsgs not in list solvers" % o.key)

    def test_option_changes_run(self):
        # nsgs's over-relaxation: ω = 1 and ω = 1.3 take different sweeps on one problem.
        prob = cb.generate("coulomb3d", nc=20, seed=4)
        runs = [cb.solve(prob, "nsgs", options={"omega": w})[1] for w in (1.0, 1.3)]
        self.assertNotEqual(runs[0].work, runs[1].work)


class GenerateLikeCli(unittest.TestCase):
    def test_same_problem_as_cli(self):
        with tempfile.TemporaryDirectory() as tmp:
            a = cb.Problem.read(cli_generate(tmp, "rolling3d", 7, 5)).to_arrays(dense=True)
        prob = cb.generate("rolling3d", nc=7, seed=5)
        b = prob.to_arrays(dense=True)
        for k in ("W", "q", "mu", "mu_r"):
            np.testing.assert_array_equal(a[k], b[k], k)
        # The known solution: the judge calls it solved.
        j = cb.judge(prob, prob.p_star, 1e-10)
        self.assertTrue(j.solved, j)
        np.testing.assert_allclose(j.y, prob.y_star, atol=1e-12)


if __name__ == "__main__":
    unittest.main()
