#!/usr/bin/env python3
"""conebench bench_active_set — an exact-status ("crossover") polish for the random multibody
class (BENCHMARKS.md, "An active-set polish for the random multibody class (issue 29, lane R1,
session 41)"). Measured, not adopted: no solver code uses it.

A polish fixes each contact's status and solves the equations of those statuses:
    take-off  p_a = 0;
    closed    y_aN = 0 and, per disk block b (tangential: mu, rolling: mu_r),
              stick b: y_ab = 0,   slide b: r_ab + mu_b r_aN u_ab = 0,
with y = W p + q and a proximal term eps (p - p_k) added to every row that reads y (W is
singular). Two variants:
  fixed-u  (d = 3 only; nsgs_polish.c carried to 3D) statuses from the natural map
           z = p - rho yhat and P_K(z), u = -z_T/|z_T| frozen: one linear solve a step;
  newton   statuses by thresholds, degenerate contacts sent to their linear status:
           |p_a| <= theta s_p: take-off; else block b sticks when |y_ab| <= theta s_y, else
           slides with u = y_b/|y_b| (s_p, s_y: the 0.9 quantiles of |p_a|, |y_a|), then
           Newton steps on the fixed-status equations (slide: r_b + mu_b r_N y_b/|y_b| = 0,
           its Jacobian exact), one sparse LU (SuperLU) a step.
  newton+update  newton (theta 0.1) and after each step the contacts whose inequalities fail by
           more than UPDATE_TOL (1e-8) of the scales switch (Polish.update).
Every step is judged (conebench.judge's error_data, the verdict's measure; never the polish's
own word).

The generator's known solution FILE.sol is read for diagnosis only: the census of its modes,
starts p* + delta xi (xi ~ N(0, 1), seed 1, delta relative to max|p*|) and the distances
dy* = |y - y*|/|y*|, dp* = |p - p*|/|p*| of each start; |e| is the judge's absolute residual
|p - P_K(p - yhat)| (abs_error), |p| the judge's norm_p.

Usage (after make; one CPU-heavy process):
    PYTHONPATH=python /usr/bin/python3 tests/bench/bench_active_set.py FILE.dat [ITERATE.sol ...]
Starts: p* + delta xi for delta in DELTAS (env, default "1e-2 1e-3 1e-4 1e-6"), nsn with
max_iter in NSN_ITERS (default "40"; nsn's defaults otherwise), SOLVERS (default
"apgd:10 nsgs:10": solver:CPU-seconds) and every ITERATE.sol given (e.g. a solve --solution);
NSN_STARTS ("", e.g. "local random:3"): nsn (defaults) from those warm starts (warm_starts);
SEGMENT ("", e.g. "0.01 0.1 0.3"): starts p* + t (ITERATE - p*) for each ITERATE.sol;
EPS_REL (1e-6): the proximal eps over max|W_ij|. Polish CPU is Python's (the assembly loops
over contacts in Python), not what a C polish would cost.
"""
import os
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla

import conebench as cb

THETAS = (1e-1, 3e-2, 1e-2)
STEPS = 3
UPDATE_STEPS = 6
UPDATE_TOL = float(os.environ.get("UPDATE_TOL", "1e-8"))
EPS_REL = float(os.environ.get("EPS_REL", "1e-6"))  # proximal eps = EPS_REL max|W_ij|


class Polish:
    """The fixed-status equations of one problem (W in CSR) and their steps."""

    def __init__(self, prob):
        a = prob.to_arrays()
        self.prob, self.nc, self.d = prob, prob.nc, prob.d
        self.W = sp.csr_matrix(a["W"])
        self.q = a["q"]
        # disk blocks: (first column, width, coefficient array)
        self.blocks = [(1, 2, a["mu"])] + ([(3, 2, a["mu_r"])] if self.d == 5 else [])
        self.eps = EPS_REL * abs(self.W).max()
        self.rho = 1.0 / np.abs(self.W.diagonal().reshape(self.nc, self.d)).max(1)

    def y(self, p):
        return self.W @ p + self.q

    def identify(self, p, theta):
        """take-off mask (nc) and stick masks per block (nc each) by thresholds."""
        pr, yr = p.reshape(self.nc, self.d), self.y(p).reshape(self.nc, self.d)
        pn, yn = np.linalg.norm(pr, axis=1), np.linalg.norm(yr, axis=1)
        off = pn <= theta * np.quantile(pn, 0.9)
        sy = theta * np.quantile(yn, 0.9)
        stick = [np.linalg.norm(yr[:, c:c + w], axis=1) <= sy for c, w, _ in self.blocks]
        return off, stick

    def newton_step(self, p, off, stick, pin=None):
        """p - J^-1 F for the fixed statuses: F_a = p_a (take-off); y_N, y_b (stick) or
        r_b + mu_b r_N u_b (slide), u_b = y_b/|y_b| or, where pin[b][a] is finite, that fixed
        direction (a saturated block: y_b ~ 0 gives no direction); J = C (W + eps I) + D."""
        nc, d = self.nc, self.d
        pr, yr = p.reshape(nc, d), self.y(p).reshape(nc, d)
        F = np.zeros(nc * d)
        C, D = ([], [], []), ([], [], [])

        def put(m, i, j, v):
            m[0].append(i), m[1].append(j), m[2].append(v)
        for a in range(nc):
            i = a * d
            if off[a]:
                F[i:i + d] = pr[a]
                for j in range(d):
                    put(D, i + j, i + j, 1.0)
                continue
            F[i] = yr[a, 0]
            put(C, i, i, 1.0)
            for b, (c, w, mu) in enumerate(self.blocks):
                if stick[b][a]:
                    F[i + c:i + c + w] = yr[a, c:c + w]
                    for j in range(w):
                        put(C, i + c + j, i + c + j, 1.0)
                    continue
                yb = yr[a, c:c + w]
                nb = np.linalg.norm(yb)
                pinned = pin is not None and np.isfinite(pin[b][a, 0])
                u = pin[b][a] if pinned else yb / nb
                G = np.zeros((w, w)) if pinned else mu[a] * pr[a, 0] * (np.eye(w) - np.outer(u, u)) / nb
                F[i + c:i + c + w] = pr[a, c:c + w] + mu[a] * pr[a, 0] * u
                for j in range(w):
                    put(D, i + c + j, i + c + j, 1.0)
                    put(D, i + c + j, i, mu[a] * u[j])
                    for k in range(w):
                        put(C, i + c + j, i + c + k, G[j, k])
        n = nc * d
        Cm = sp.csr_matrix((C[2], (C[0], C[1])), shape=(n, n))
        Dm = sp.csr_matrix((D[2], (D[0], D[1])), shape=(n, n))
        J = (Cm @ (self.W + self.eps * sp.identity(n)) + Dm).tocsc()
        return p - sla.splu(J).solve(F)

    def update(self, p, off, stick, pin, tol):
        """Switch only the contacts whose inequalities fail by more than tol (relative to the
        0.9 quantiles of |p_a|, |y_a|): take-off with y_N < 0 closes (blocks stick); closed with
        r_N < 0 takes off; a stick block outside its disk slides along -r_b/|r_b| (pinned); a
        pinned block moving against its direction sticks. Returns the number of switches."""
        nc, d = self.nc, self.d
        pr, yr = p.reshape(nc, d), self.y(p).reshape(nc, d)
        tp = tol * np.quantile(np.linalg.norm(pr, axis=1), 0.9)
        ty = tol * np.quantile(np.linalg.norm(yr, axis=1), 0.9)
        close = off & (yr[:, 0] < -ty)
        lift = ~off & (pr[:, 0] < -tp)
        count = int(close.sum() + lift.sum())
        for b, (c, w, mu) in enumerate(self.blocks):
            rb = pr[:, c:c + w]
            nr = np.linalg.norm(rb, axis=1)
            out = ~off & ~lift & stick[b] & (nr > mu * pr[:, 0] + tp)
            back = ~off & ~lift & np.isfinite(pin[b][:, 0]) & \
                (np.einsum("ij,ij->i", yr[:, c:c + w], np.nan_to_num(pin[b])) < -ty)
            pin[b][out] = -rb[out] / nr[out, None]
            pin[b][back] = np.nan
            stick[b][out], stick[b][back | close] = False, True
            pin[b][close] = np.nan
            count += int(out.sum() + back.sum())
        off[close], off[lift] = False, True
        return count

    def natural_status(self, p):
        """d = 3: 0 take-off, 1 stick, 2 slide from P_K(p - rho yhat); u = -z_T/|z_T|."""
        pr, yr = p.reshape(self.nc, 3), self.y(p).reshape(self.nc, 3)
        mu = self.blocks[0][2]
        yh = yr.copy()
        yh[:, 0] += mu * np.linalg.norm(yr[:, 1:], axis=1)
        z = pr - self.rho[:, None] * yh
        zt = np.linalg.norm(z[:, 1:], axis=1)
        st = np.where(zt <= mu * z[:, 0], 1, np.where(mu * zt <= -z[:, 0], 0, 2))
        return st, -z[:, 1:] / np.maximum(zt, 1e-300)[:, None]

    def fixed_u_step(self, p):
        """(W + eps I) rows where a status reads y, -q + eps p on the right; take-off rows
        p_a = 0; slide rows r_T + mu r_N u = 0 with u frozen (nsgs_polish.c in 3D)."""
        st, u = self.natural_status(p)
        n, mu = self.nc * 3, self.blocks[0][2]
        rw = np.repeat(st > 0, 3) & ~np.tile([False, True, True], self.nc) | np.repeat(st == 1, 3)
        ri = np.repeat(st == 0, 3)
        sl = np.nonzero(st == 2)[0]
        rows = np.concatenate([3 * sl + 1, 3 * sl + 2, 3 * sl + 1, 3 * sl + 2])
        cols = np.concatenate([3 * sl + 1, 3 * sl + 2, 3 * sl, 3 * sl])
        vals = np.concatenate([np.ones(2 * len(sl)), mu[sl] * u[sl, 0], mu[sl] * u[sl, 1]])
        E = sp.csr_matrix((vals, (rows, cols)), shape=(n, n))
        M = (sp.diags(rw * 1.0) @ (self.W + self.eps * sp.identity(n)) + sp.diags(ri * 1.0) + E)
        return sla.splu(M.tocsc()).solve(rw * (-self.q + self.eps * p))


def census(pl, ps, ys, tol=1e-9):
    """The known solution's modes (generate.c: regular and degenerate)."""
    pr, yr = ps.reshape(pl.nc, pl.d), ys.reshape(pl.nc, pl.d)
    pz = np.linalg.norm(pr, axis=1) <= tol * np.abs(ps).max()
    ytol = tol * np.abs(ys).max()
    yz, yn0 = np.linalg.norm(yr, axis=1) <= ytol, np.abs(yr[:, 0]) <= ytol
    sat = np.zeros(pl.nc, bool)
    for c, w, mu in pl.blocks:  # a block on its disk boundary with y_b = 0: saturated
        bd = np.abs(np.linalg.norm(pr[:, c:c + w], axis=1) - mu * pr[:, 0]) <= tol * np.abs(ps).max()
        sat |= bd & (np.linalg.norm(yr[:, c:c + w], axis=1) <= ytol) & (mu > 0)
    return {"take-off": int((pz & ~yn0).sum()), "apex (degenerate)": int((pz & yz).sum()),
            "grazing (degenerate)": int((pz & yn0 & ~yz).sum()),
            "closed, some block saturated (degenerate)": int((~pz & sat).sum()),
            "closed, regular": int((~pz & ~sat).sum())}


def warm_starts(pl, spec):
    """nsn's warm starts: "local" (the nc decoupled problems (W_aa, q_a) solved by nsgs to
    1e-14) and "random:K" (K points in K: r_N ~ |N(0, 1)|, r_T uniform in the half-radius
    disk, seed 7, scaled to half the local solutions' max)."""
    nc, d, mu = pl.nc, pl.d, pl.blocks[0][2]
    Wc = pl.W.tocsr()
    diag = sp.block_diag([Wc[a * d:(a + 1) * d, a * d:(a + 1) * d] for a in range(nc)])
    local, _ = cb.solve(cb.Problem.from_arrays(diag.tocsr(), pl.q, mu, kind=pl.prob.kind,
                                               mu_r=pl.blocks[-1][2] if d == 5 else None),
                        "nsgs", tol=1e-14, time_limit=10)
    out, rng = [], np.random.default_rng(7)
    for item in spec.split():
        if item == "local":
            out.append(("local", local.p.copy()))
            continue
        for k in range(int(item.split(":")[1])):
            r = np.abs(rng.standard_normal((nc, d)))
            for c, w, m in pl.blocks:
                r[:, c:c + w] = rng.uniform(-0.5, 0.5, (nc, w)) * m[:, None] * r[:, :1]
            out.append(("random %d" % k, r.ravel() * np.abs(local.p).max() / 2))
    return out


def judged(pl, p):
    """The judge's error_data (man conebench, VERDICT: the verdict's measure; error itself
    shrinks as p runs off along K ∩ null(W))."""
    return cb.judge(pl.prob, p).error_data


def run_start(pl, label, p0, ps, ys):
    j = cb.judge(pl.prob, p0)
    e0 = j.error_data
    dy = np.linalg.norm(pl.y(p0) - ys) / np.linalg.norm(ys)
    dp = np.linalg.norm(p0 - ps) / np.linalg.norm(ps)
    print("%-22s error %.1e  |e| %.2f  dy* %.3f  dp* %.3f  |p| %.3g" % (label, e0, j.abs_error, dy, dp, j.norm_p))
    best, t0 = e0, time.process_time()
    for theta in THETAS:
        p, errs = p0.copy(), []
        off, stick = pl.identify(p, theta)
        for _ in range(STEPS):
            try:
                p = pl.newton_step(p, off, stick)
            except RuntimeError:  # SuperLU: exactly singular
                errs.append("singular")
                break
            errs.append("%.1e" % judged(pl, p))
            best = min(best, judged(pl, p))
        print("    newton theta %-5g take-off %5d: %s" % (theta, off.sum(), " ".join(errs)))
    for theta in THETAS[:1]:
        p, errs = p0.copy(), []
        off, stick = pl.identify(p, theta)
        pin = [np.full((pl.nc, w), np.nan) for _, w, _ in pl.blocks]
        for _ in range(UPDATE_STEPS):
            p = pl.newton_step(p, off, stick, pin)
            e = judged(pl, p)
            best = min(best, e)
            errs.append("%.1e/%d" % (e, pl.update(p, off, stick, pin, UPDATE_TOL)))
        print("    newton+update theta %g: %s" % (theta, " ".join(errs)))
    if pl.d == 3:
        p, errs = p0.copy(), []
        for _ in range(STEPS):
            p = pl.fixed_u_step(p)
            errs.append("%.1e" % judged(pl, p))
            best = min(best, judged(pl, p))
        print("    fixed-u:                      %s" % " ".join(errs))
    print("    best %.1e (start %.1e), polish CPU %.1f s" % (best, e0, time.process_time() - t0))
    sys.stdout.flush()


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    prob = cb.Problem.read(argv[1])
    pl = Polish(prob)
    ps, ys = cb.read_solution(argv[1][:-4] + ".sol")
    print("%s: %s nc %d; known solution judged %.1e" % (argv[1], prob.kind, prob.nc, judged(pl, ps)))
    for k, v in census(pl, ps, ys).items():
        print("    %-42s %5d" % (k, v))
    xi = np.random.default_rng(1).standard_normal(prob.n)
    for delta in os.environ.get("DELTAS", "1e-2 1e-3 1e-4 1e-6").split():
        run_start(pl, "p* + %s xi" % delta, ps + float(delta) * np.abs(ps).max() * xi, ps, ys)
    for k in os.environ.get("NSN_ITERS", "40").split():
        sol, info = cb.solve(prob, "nsn", tol=1e-8, max_iter=int(k), time_limit=60)
        run_start(pl, "nsn %s its (%s)" % (k, info.status), sol.p.copy(), ps, ys)
    for lab, p0 in warm_starts(pl, os.environ.get("NSN_STARTS", "")):
        sol, info = cb.solve(prob, "nsn", tol=1e-8, warm_start=p0, time_limit=60)
        run_start(pl, "nsn from %s (%d its)" % (lab, info.iterations), sol.p.copy(), ps, ys)
    for spec in os.environ.get("SOLVERS", "apgd:10 nsgs:10").split():
        name, lim = spec.split(":")
        sol, info = cb.solve(prob, name, tol=1e-8, time_limit=float(lim))
        run_start(pl, "%s %d its" % (name, info.iterations), sol.p.copy(), ps, ys)
    for f in argv[2:]:
        p = cb.read_solution(f)[0]
        run_start(pl, os.path.basename(f), p, ps, ys)
        for t in os.environ.get("SEGMENT", "").split():  # on the segment from p* to it
            run_start(pl, "p* + %s (it - p*)" % t, ps + float(t) * (p - ps), ps, ys)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
