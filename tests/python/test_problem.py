"""Problems from arrays and files, the judge and the projection against closed forms, the
library's messages in exceptions, ContactBench's .npz both ways."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import conebench as cb
from support import cli_message, have_scipy


def soc_projection(x, mu):
    """Projection onto {(r, t): ‖t‖ ≤ μ r} by the closed form (Moreau: the cases inside,
    polar, boundary with r' = (r + μ‖t‖) / (1 + μ²), t' = μ r' t / ‖t‖)."""
    r, t = x[0], np.asarray(x[1:])
    s = np.linalg.norm(t)
    if s <= mu * r:
        return np.array(x, dtype=float)
    if mu * s <= -r:
        return np.zeros(len(x))
    rp = (r + mu * s) / (1 + mu * mu)
    return np.concatenate([[rp], mu * rp * t / s])


class Judge(unittest.TestCase):
    def test_hand_computed_point(self):
        # Two Coulomb 3D contacts, W = diag(2, 1, 1, 1, 3, 1) + one coupling, p by hand.
        W = np.diag([2.0, 1, 1, 1, 3, 1])
        W[0, 3] = W[3, 0] = 0.5
        q = np.array([-0.5, 0.2, 0.0, 0.3, -0.4, 0.1])
        mu = np.array([0.3, 0.8])
        p = np.array([1.0, 0.0, 0.0, 0.2, 0.05, -0.1])
        prob = cb.Problem.from_arrays(W, q, mu)
        self.assertEqual(prob.kind, "coulomb3d")
        y = W @ p + q
        e = []
        for a in range(2):
            ya, pa = y[3 * a:3 * a + 3], p[3 * a:3 * a + 3]
            yhat = ya + np.array([mu[a] * np.linalg.norm(ya[1:]), 0, 0])
            e.append(pa - soc_projection(pa - yhat, mu[a]))
        e = np.linalg.norm(np.concatenate(e))
        scale = max(np.linalg.norm(q), np.linalg.norm(p), np.linalg.norm(y))
        j = cb.judge(prob, p, tol=1e-8)
        self.assertGreater(e, 0.1)  # the point is far from a solution
        self.assertAlmostEqual(j.error / (e / scale), 1.0, delta=1e-13)
        self.assertAlmostEqual(j.error_q / (e / np.linalg.norm(q)), 1.0, delta=1e-13)
        self.assertAlmostEqual(j.abs_error / e, 1.0, delta=1e-13)
        np.testing.assert_allclose(j.y, y, rtol=0, atol=1e-15)
        self.assertEqual(j.verdict, "unsolved")
        self.assertTrue(j.finite and j.resolvable)

    def test_exact_solution_solved(self):
        # One contact, W = I, q = (-1, 0, 0): p = (1, 0, 0) gives y = 0, error exactly 0.
        prob = cb.Problem.from_arrays(np.eye(3), [-1.0, 0, 0], [0.5])
        j = cb.judge(prob, [1.0, 0, 0])
        self.assertEqual((j.error, j.error_q, j.verdict), (0.0, 0.0, "solved"))
        nan = cb.judge(prob, [np.nan, 0, 0])
        self.assertFalse(nan.solved or nan.finite)


class Project(unittest.TestCase):
    def test_closed_form(self):
        rng = np.random.default_rng(3)
        xs = rng.normal(size=(200, 3))
        mus = rng.uniform(0.05, 2.0, size=200)
        out = cb.project("coulomb3d", xs, mus)
        want = np.array([soc_projection(x, m) for x, m in zip(xs, mus)])
        np.testing.assert_allclose(out, want, rtol=1e-13, atol=1e-15)
        # rolling3d: the sliding block alone when μ_r is so large the rolling one is inside.
        x = np.array([1.0, 2.0, 0.0, 0.01, 0.0])
        got = cb.project("rolling3d", x, 0.5, mu_r=100.0)
        self.assertAlmostEqual(got[3], 0.01, delta=1e-15)
        np.testing.assert_allclose(got[:3], soc_projection(x[:3], 0.5), rtol=1e-13)

    def test_bad_kind_and_shape(self):
        with self.assertRaisesRegex(cb.ConebenchError, "kind: unknown cone kind 'cone4d'"):
            cb.project("cone4d", [1, 0, 0], 0.5)
        with self.assertRaisesRegex(cb.ConebenchError, "v: a coulomb2d contact has 2 components"):
            cb.project("coulomb2d", [1, 0, 0], 0.5)


class Messages(unittest.TestCase):
    """The exception's text is the library's, the one the CLI prints."""

    def test_bad_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.dat")
            with open(bad, "w") as f:
                f.write("3\n2\n0\n6 6\n1 2 3\n")
            rc, msg = cli_message("info", bad)
            self.assertEqual(rc, 2)
            with self.assertRaises(cb.ConebenchError) as ctx:
                cb.Problem.read(bad)
            self.assertEqual(ctx.exception.message, msg)
            self.assertEqual(ctx.exception.code, 2)
            self.assertTrue(msg.startswith(bad + ":"), msg)
            missing = os.path.join(tmp, "none.dat")
            rc, msg = cli_message("info", missing)
            with self.assertRaises(cb.ConebenchError) as ctx:
                cb.Problem.read(missing)
            self.assertEqual(ctx.exception.message, msg)

    def test_bad_option(self):
        prob = cb.generate("coulomb3d", nc=3, seed=1)
        with tempfile.TemporaryDirectory() as tmp:
            f = os.path.join(tmp, "p.dat")
            prob.write(f)
            rc, msg = cli_message("solve", f, "--solver", "nsgs", "--option", "omega=7")
        self.assertEqual(rc, 2)
        with self.assertRaises(cb.ConebenchError) as ctx:
            cb.solve(prob, "nsgs", options={"omega": 7})
        self.assertEqual(ctx.exception.message, msg)
        self.assertEqual(ctx.exception.status, "bad_input")
        with self.assertRaisesRegex(cb.ConebenchError, r"unknown solver 'nssn' \(did you mean 'nsn'"):
            cb.solve(prob, "nssn")

    def test_generate_bodies(self):
        # rank W = rank H ≤ 6·bodies (W = Hᵀ M⁻¹ H); p* is still exact; the other matrix's
        # options are refused with the library's message, as by the CLI.
        prob = cb.generate("coulomb3d", nc=20, seed=4, bodies=3)
        w = np.linalg.eigvalsh(prob.to_arrays(dense=True)["W"])
        rank = int(np.sum(w > 1e-10 * w[-1]))
        self.assertTrue(1 <= rank <= 18, rank)
        self.assertLessEqual(cb.judge(prob, prob.p_star).error, 1e-13)
        for kw, field in (({"matrix": "spd", "bodies": 3}, "^bodies: applies to matrix multibody"),
                          ({"semidefinite": True}, "^semidefinite: applies to matrix spd"),
                          ({"cond": 10.0}, "^cond: applies to matrix spd only, got 10 with multibody"),
                          ({"bodies": 41}, "^bodies: must be ≤ 2·nc = 40, got 41")):
            with self.assertRaisesRegex(cb.ConebenchError, field):
                cb.generate("coulomb3d", nc=20, seed=4, **kw)

    def test_bad_arrays(self):
        # cb_problem_check's message names the field and the entry.
        with self.assertRaisesRegex(cb.ConebenchError, "^mu"):
            cb.Problem.from_arrays(np.eye(3), [1.0, 0, 0], [-0.5])
        with self.assertRaisesRegex(cb.ConebenchError, "^W"):
            cb.Problem.from_arrays(np.full((3, 3), np.inf), [1.0, 0, 0], [0.5])
        with self.assertRaisesRegex(cb.ConebenchError, "kind: coulomb2d has d = 2"):
            cb.Problem.from_arrays(np.eye(3), [1.0, 0, 0], [0.5], kind="coulomb2d")


class Loading(unittest.TestCase):
    def test_conebench_lib_missing(self):
        # CONEBENCH_LIB is taken as given: a wrong path is an error naming it, no fallback.
        env = dict(os.environ, CONEBENCH_LIB="/nonexistent/libconebench.so")
        r = subprocess.run([sys.executable, "-c", "import conebench"], env=env,
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("libconebench.so not found (tried /nonexistent/libconebench.so)", r.stderr)
        self.assertTrue(os.path.samefile(os.environ.get("CONEBENCH_LIB", cb.LIBRARY), cb.LIBRARY))


class RoundTrips(unittest.TestCase):
    def test_files(self):
        prob = cb.generate("rolling3d", nc=5, seed=9, storage="bsr")
        a = prob.to_arrays(dense=True)
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("p.dat", "p.hdf5"):
                f = os.path.join(tmp, name)
                prob.write(f)
                b = cb.Problem.read(f).to_arrays(dense=True)
                for k in ("W", "q", "mu", "mu_r"):
                    np.testing.assert_array_equal(a[k], b[k], "%s %s" % (name, k))

    def test_arrays_every_kind(self):
        # from_arrays(**to_arrays()) is the same problem: the judge gives the same bits on p*.
        for kind in cb.KINDS:
            gen = cb.generate(kind, nc=4, seed=6)
            again = cb.Problem.from_arrays(**gen.to_arrays(dense=True))
            self.assertEqual((again.kind, again.nc), (kind, 4))
            j1, j2 = cb.judge(gen, gen.p_star, 1e-10), cb.judge(again, gen.p_star, 1e-10)
            self.assertEqual((j1.error, j1.error_q, j1.solved), (j2.error, j2.error_q, True), kind)

    def test_sparse_arrays(self):
        if not have_scipy():
            self.skipTest("python3-scipy absent: sparse W not tried")
        import scipy.sparse as sp
        prob = cb.generate("coulomb3d", nc=12, seed=3, storage="bsr")
        a = prob.to_arrays()
        self.assertTrue(sp.issparse(a["W"]))
        csr = cb.Problem.from_arrays(sp.csr_matrix(a["W"].toarray()), a["q"], a["mu"])
        dense = cb.Problem.from_arrays(a["W"].toarray(), a["q"], a["mu"])
        self.assertEqual((csr.storage, dense.storage), ("bsr", "dense"))
        np.testing.assert_array_equal(csr.to_arrays()["W"].toarray(), a["W"].toarray())
        s1, _ = cb.solve(csr, "nsn")
        s2, _ = cb.solve(dense, "nsn")
        np.testing.assert_array_equal(s1.p, s2.p)

    def test_npz_both_ways(self):
        prob = cb.generate("coulomb3d", nc=6, seed=2)
        a = prob.to_arrays()
        with tempfile.TemporaryDirectory() as tmp:
            f = os.path.join(tmp, "p.npz")
            prob.write_npz(f)
            with np.load(f) as z:
                G, g, mus = z["G"], z["g"], z["mus"]
            back = cb.read_npz(f)
            b = back.to_arrays()
            for k in ("W", "q", "mu"):
                np.testing.assert_array_equal(a[k], b[k], k)
            f2 = os.path.join(tmp, "again.npz")
            back.write_npz(f2)
            with np.load(f2) as z:
                for k, v in (("G", G), ("g", g), ("mus", mus)):
                    np.testing.assert_array_equal(z[k], v, k)
        # ContactBench orders each contact (t1, t2, n): the normal of contact 0 is g[2].
        self.assertEqual(g[2], a["q"][0])
        self.assertEqual((g[0], g[1]), (a["q"][1], a["q"][2]))
        self.assertEqual(G[2, 5], a["W"][0, 3])
        # p* moved into ContactBench's order satisfies ‖λ_T‖ ≤ μ λ_N with the normal last.
        lam = prob.p_star.reshape(-1, 3)[:, [1, 2, 0]]
        self.assertTrue(np.all(np.hypot(lam[:, 0], lam[:, 1]) <= mus * lam[:, 2] + 1e-12))
        self.assertTrue(cb.judge(back, prob.p_star, 1e-10).solved)

    def test_npz_refusals(self):
        with tempfile.TemporaryDirectory() as tmp:
            f = os.path.join(tmp, "x.npz")
            np.savez(f, G=np.eye(6), g=np.zeros(6))
            with self.assertRaisesRegex(cb.ConebenchError, "x.npz: not a ContactBench problem: no mus"):
                cb.read_npz(f)
            np.savez(f, G=np.eye(6), g=np.zeros(6), mus=np.ones(3))
            with self.assertRaisesRegex(cb.ConebenchError, r"expected 3·nc = 9"):
                cb.read_npz(f)
            with self.assertRaisesRegex(cb.ConebenchError, "Coulomb 3D problems; this one is rolling3d"):
                cb.generate("rolling3d", nc=2).write_npz(f)


if __name__ == "__main__":
    unittest.main()
