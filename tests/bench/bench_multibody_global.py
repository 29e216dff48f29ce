#!/usr/bin/env python3
"""conebench bench_multibody_global — global phases and diagnoses for the random multibody class
(BENCHMARKS.md, "A fixed point on the shift and a local repair for the random multibody class
(issue 29, lane R2, sessions 43 and 45)"). Measured, not adopted: no solver code uses them.

shift   The De Saxce fixed point: with the shift s_a = mu_a |y_aT| frozen, the problem is the
        convex program  min 1/2 p'Wp + (q + s e_N)'p  over p in K  (W positive semidefinite),
        whose y = W p + q is unique; a solution is a fixed point s = F(s) = mu |y_T(s)|.
        Inner solver: FISTA with gradient restart (step 1/lambda_max(W), stopped when the
        natural residual of the program is <= INNER_TOL (1 + |c|) or after INNER_MAX steps),
        warm-started; outer: Anderson acceleration of depth ANDERSON (0: plain fixed point).
        coulomb3d only (the shift of the other kinds has more terms).
repair  Local repair of a stalled semismooth Newton iterate: nsn (defaults, TL CPU seconds or
        MI iterations) stops stalled; the SEEDS contacts of largest natural residual
        |p_a - P_K(p_a - yhat_a)| and their neighbours in W's block graph (breadth first, SZ
        contacts in all) form a subproblem  (W_SS, q_S + W_SO p_O)  that nsn solves from the
        current p_S and from 0 (tol 1e-10, 10 s); the better of the two (by the judged error
        of the whole problem) replaces p_S when that subproblem solve converged; then nsn on
        the whole problem from there. ROUNDS rounds.
reset   As repair, but each of the K contacts of largest residual in turn with its own
        neighbourhood of SZ contacts (SZ 1: the contact alone), each solved from the current p
        (nsn, tol 1e-12, 2 s) and taken when that solve converged.
blockgs Block Gauss-Seidel: the contacts in reverse Cuthill-McKee order of W's block graph, cut
        into NB blocks; a sweep solves each block's subproblem (W_SS sparse, q_S + W_SO p_O) by
        nsn from the current p_S (tol 1e-12, 10 s) and takes its answer. SW sweeps from p = 0.
tikhonov The Tikhonov path: nsn on (W + eps lambda_max(W) I, q), eps = E0, E0 F, E0 F^2, ...
        (tol 1e-10, 30 s each), each warm-started from the last answer whose problem it solved
        (or came within 1e-6 of); every answer judged on the file's problem. TOTAL CPU seconds.
spectrum The eigenvalues of W (dense, LAPACK): how many are below 1e-12, 1e-8 and 1e-4 of the
        largest (W's null space and near null space). Minutes at nc 3 000.
Every reported error is the judge's (conebench.judge's error_data). The generator's known
solution FILE.sol is read for the diagnosis only: dy* = |y - y*|/|y*|.

Usage (after make; one CPU-heavy process; CPU seconds are the process's, Python included):
    PYTHONPATH=python /usr/bin/python3 tests/bench/bench_multibody_global.py shift FILE.dat FILE.sol
    PYTHONPATH=python /usr/bin/python3 tests/bench/bench_multibody_global.py repair FILE.dat FILE.sol
    PYTHONPATH=python /usr/bin/python3 tests/bench/bench_multibody_global.py reset FILE.dat FILE.sol
    PYTHONPATH=python /usr/bin/python3 tests/bench/bench_multibody_global.py blockgs FILE.dat FILE.sol
    PYTHONPATH=python /usr/bin/python3 tests/bench/bench_multibody_global.py tikhonov FILE.dat FILE.sol
    PYTHONPATH=python /usr/bin/python3 tests/bench/bench_multibody_global.py spectrum FILE.dat FILE.sol
env: shift: OUTER (40), ANDERSON (8), INNER_TOL (1e-10), INNER_MAX (20000);
     blockgs: NB (8), SW (8); tikhonov: E0 (1e-4), F (0.3), TOTAL (120);
     repair: TL (20), MI0 / MI (iterations of the first / later nsn runs, 10000), ROUNDS (6),
     SZ (400), SEEDS (5); reset: TL, ROUNDS, K (5), SZ (40).
"""
import ctypes
import os
import sys
import time

import numpy as np
import scipy.sparse as sps
import scipy.sparse.linalg as sla
from scipy.sparse.csgraph import reverse_cuthill_mckee

import conebench as cb
from conebench import _capi

# The library's own per-contact residual ‖p_a − P_K(p_a − ŷ_a)‖² (judge.h; public C API, not
# wrapped by the Python package): ŷ's De Saxcé term for every kind, as the judge has it.
_residual2 = cb._lib.cb_contact_residual2
_residual2.restype = ctypes.c_double
_residual2.argtypes = [ctypes.c_int, ctypes.POINTER(_capi.Friction),
                       ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double)]


def env(name, default):
    return type(default)(os.environ.get(name, default))


class Case:
    def __init__(self, path, sol):
        self.P = cb.Problem.read(path)
        a = self.P.to_arrays()
        self.W = a["W"].tocsr()
        self.q = np.asarray(a["q"]).copy()
        self.mu = np.asarray(a["mu"]).copy()
        self.mu_r = np.asarray(a["mu_r"]).copy()
        self.mu_s = np.asarray(a["mu_s"]).copy()
        self.nc, self.d = self.P.nc, self.P.d
        self.kind_code = self.P._ptr.contents.kind
        self.ys = cb.read_solution(sol)[1]

    def dy(self, p):
        return np.linalg.norm(self.W @ p + self.q - self.ys) / np.linalg.norm(self.ys)

    def judged(self, p):
        return cb.judge(self.P, p).error_data

    def contact_residual(self, p):
        """|p_a - P_K(p_a - yhat_a)| for each contact a (yhat: De Saxce's modified velocity)."""
        nc, d = self.nc, self.d
        pc = np.ascontiguousarray(p, dtype=np.float64).reshape(nc, d)
        y = (self.W @ p + self.q).reshape(nc, d)
        dp = ctypes.POINTER(ctypes.c_double)
        r2 = [_residual2(self.kind_code, ctypes.byref(_capi.Friction(self.mu[a], self.mu_r[a],
                                                                     self.mu_s[a])),
                         pc[a].ctypes.data_as(dp), y[a].ctypes.data_as(dp)) for a in range(nc)]
        return np.sqrt(np.array(r2))


def coulomb_project(v, mu):
    """P_K(v) for nc Coulomb cones {|t| <= mu n} (vectorised closed form)."""
    n, t = v[:, 0], v[:, 1:]
    nt = np.linalg.norm(t, axis=1)
    out = v.copy()
    zero, inside = mu * nt <= -n, nt <= mu * n
    mid = ~(zero | inside)
    a = (n + mu * nt) / (1 + mu * mu)
    scale = np.where(nt > 0, mu * a / np.where(nt > 0, nt, 1), 0)
    out[mid, 0] = a[mid]
    out[mid, 1:] = t[mid] * scale[mid, None]
    out[zero] = 0
    return out


def fista(c, p, W, proj, L, tol, iters):
    """min 1/2 p'Wp + c'p over K by FISTA with gradient restart; returns p and the steps."""
    z, tk = p.copy(), 1.0
    for k in range(iters):
        pn = proj(z - (W @ z + c) / L)
        if np.dot(pn - p, z - pn) > 0:
            tk = 1.0
        tn = (1 + np.sqrt(1 + 4 * tk * tk)) / 2
        z, p, tk = pn + (tk - 1) / tn * (pn - p), pn, tn
        if k % 50 == 0 and np.linalg.norm(p - proj(p - (W @ p + c))) < tol * (1 + np.linalg.norm(c)):
            break
    return p, k


def run_shift(case):
    if case.P.kind != "coulomb3d":
        sys.exit("shift: coulomb3d only")
    nc, W, q, mu = case.nc, case.W, case.q, case.mu
    L = 1.01 * sla.eigsh(W, k=1, which="LA", return_eigenvectors=False)[0]
    proj = lambda v: coulomb_project(v.reshape(nc, 3), mu).ravel()
    shift = lambda y: mu * np.linalg.norm(y.reshape(nc, 3)[:, 1:], axis=1)
    def cvec(s):
        c = q.copy()
        c[0::3] += s
        return c
    tol, imax, m = env("INNER_TOL", 1e-10), env("INNER_MAX", 20000), env("ANDERSON", 8)
    p, _ = fista(cvec(shift(case.ys)), np.zeros(3 * nc), W, proj, L, 1e-12, imax)
    print("check: the program at s* = mu |y*_T|: dy* %.2e, judged %.2e" % (case.dy(p), case.judged(p)))
    s, p, S, G = shift(q), np.zeros(3 * nc), [], []
    for it in range(env("OUTER", 40)):
        p, k = fista(cvec(s), p, W, proj, L, tol, imax)
        Fs = shift(W @ p + q)
        g = Fs - s
        print("outer %3d  inner %5d  |F(s)-s|/|s| %.2e  judged %.3e  dy* %.3f  |p| %.1f  cpu %.1f"
              % (it, k, np.linalg.norm(g) / max(np.linalg.norm(s), 1e-300), case.judged(p),
                 case.dy(p), np.linalg.norm(p), time.process_time()), flush=True)
        S, G = (S + [Fs])[-m:], (G + [g])[-m:]
        if m > 0 and len(G) > 1:
            dG = np.array([G[i + 1] - G[i] for i in range(len(G) - 1)]).T
            dF = np.array([S[i + 1] - S[i] for i in range(len(S) - 1)]).T
            s = np.maximum(Fs - dF @ np.linalg.lstsq(dG, g, rcond=None)[0], 0)
        else:
            s = Fs


def neighbourhood(case, seeds, size):
    """Contacts within reach of seeds in W's block graph, breadth first, at most size."""
    d, W = case.d, case.W
    chosen, frontier = set(seeds), list(seeds)
    while len(chosen) < size and frontier:
        nxt = []
        for a in frontier:
            for col in W.indices[W.indptr[a * d]:W.indptr[a * d + 1]]:
                b = col // d
                if b not in chosen and len(chosen) < size:
                    chosen.add(b)
                    nxt.append(b)
        frontier = nxt
    return np.array(sorted(chosen))


def repair_round(case, p):
    r = case.contact_residual(p)
    S = neighbourhood(case, list(np.argsort(-r)[:env("SEEDS", 5)]), env("SZ", 400))
    sub, iS = subproblem(case, S, p)
    best = None
    for start in ("warm", "zero"):
        sol, info = cb.solve(sub, "nsn", tol=1e-10, time_limit=10,
                             warm_start=p[iS] if start == "warm" else None)
        pt = p.copy()
        pt[iS] = sol.p
        e = case.judged(pt)
        print("   subproblem %d contacts from %s: %s, %d its, %.2e; whole problem %.2e"
              % (len(S), start, info.status, info.iterations, info.error_data, e), flush=True)
        if info.solved and (best is None or e < best[0]):
            best = (e, pt)
    print("   top residuals %s, contacts above 1e-3 of the top: %d"
          % (" ".join("%.2e" % x for x in np.sort(r)[::-1][:3]), (r > 1e-3 * r.max()).sum()))
    return best[1] if best else p


def subproblem(case, S, p, sparse=False):
    """The problem of the contacts S with the others fixed at p, and S's unknowns' indices."""
    d, W = case.d, case.W
    O = np.setdiff1d(np.arange(case.nc), S)
    iS = (S[:, None] * d + np.arange(d)).ravel()
    iO = (O[:, None] * d + np.arange(d)).ravel()
    WS = W[iS]
    WSS = WS[:, iS]
    return cb.Problem.from_arrays(WSS.tobsr(blocksize=(d, d)) if sparse else WSS.toarray(),
                                  case.q[iS] + WS[:, iO] @ p[iO],
                                  case.mu[S], kind=case.P.kind, mu_r=case.mu_r[S],
                                  mu_s=case.mu_s[S]), iS


def reset_round(case, p):
    r = case.contact_residual(p)
    for a in np.argsort(-r)[:env("K", 5)]:
        sub, iS = subproblem(case, neighbourhood(case, [a], env("SZ", 40)), p)
        sol, info = cb.solve(sub, "nsn", tol=1e-12, time_limit=2, warm_start=p[iS])
        if info.solved:
            p = p.copy()
            p[iS] = sol.p
    print("   after the resets: judged %.2e" % case.judged(p))
    return p


def run_repair(case, one_round=repair_round):
    tl = env("TL", 20.0)
    sol, info = cb.solve(case.P, "nsn", tol=1e-8, time_limit=tl, max_iter=env("MI0", 10000))
    p = sol.p.copy()
    print("nsn: %s, %d its, judged %.3e, dy* %.3f, cpu %.1f"
          % (info.status, info.iterations, info.error_data, case.dy(p), time.process_time()))
    for rnd in range(env("ROUNDS", 6)):
        p = one_round(case, p)
        sol, info = cb.solve(case.P, "nsn", tol=1e-8, time_limit=tl, warm_start=p,
                             max_iter=env("MI", 10000))
        p = sol.p.copy()
        print("round %d: nsn %s, %d its, judged %.3e, dy* %.3f, cpu %.1f"
              % (rnd, info.status, info.iterations, info.error_data, case.dy(p),
                 time.process_time()), flush=True)
        if info.solved:
            break


def run_blockgs(case):
    d, nc, W = case.d, case.nc, case.W
    rows = np.repeat(np.arange(W.shape[0]) // d, np.diff(W.indptr))
    G = sps.coo_matrix((np.ones(W.nnz), (rows, W.indices // d)), shape=(nc, nc)).tocsr()
    blocks = np.array_split(reverse_cuthill_mckee(G + G.T, symmetric_mode=True), env("NB", 8))
    p = np.zeros(nc * d)
    for sweep in range(env("SW", 8)):
        its = unsolved = 0
        for S in blocks:
            sub, iS = subproblem(case, np.sort(S), p, sparse=True)
            sol, info = cb.solve(sub, "nsn", tol=1e-12, time_limit=10, warm_start=p[iS])
            p[iS] = sol.p
            its += info.iterations
            unsolved += not info.solved
        print("sweep %d: judged %.3e, dy* %.3f, |p| %.4g, nsn its %d, blocks unsolved %d, cpu %.1f"
              % (sweep, case.judged(p), case.dy(p), np.linalg.norm(p), its, unsolved,
                 time.process_time()), flush=True)


def run_tikhonov(case):
    W, n, d = case.W, case.W.shape[0], case.d
    lmax = sla.eigsh(W, k=1, which="LA", return_eigenvectors=False)[0]
    p, eps, t0 = None, env("E0", 1e-4), time.process_time()
    while eps > 1e-13 and time.process_time() - t0 < env("TOTAL", 120.0):
        Wt = (W + eps * lmax * sps.identity(n, format="csr")).tobsr(blocksize=(d, d))
        reg = cb.Problem.from_arrays(Wt, case.q, case.mu, kind=case.P.kind, mu_r=case.mu_r,
                                     mu_s=case.mu_s)
        sol, info = cb.solve(reg, "nsn", tol=1e-10, time_limit=30, warm_start=p)
        e = case.judged(sol.p)
        print("eps %.1e: %s, %d its, its own error %.2e; judged %.3e, dy* %.3f, |p| %.1f, cpu %.1f"
              % (eps, info.status, info.iterations, info.error_data, e, case.dy(sol.p),
                 np.linalg.norm(sol.p), time.process_time() - t0), flush=True)
        if info.solved or info.error_data < 1e-6:
            p = sol.p.copy()
        if e <= 1e-8:
            break
        eps *= env("F", 0.3)


def run_spectrum(case):
    lam = np.linalg.eigvalsh(case.W.toarray())
    top = lam[-1]
    print("n %d, lambda_max %.4g; eigenvalues below 1e-12, 1e-8, 1e-4 of it: %d, %d, %d"
          % (lam.size, top, (lam < 1e-12 * top).sum(), (lam < 1e-8 * top).sum(),
             (lam < 1e-4 * top).sum()))


MODES = {"shift": run_shift, "repair": lambda case: run_repair(case, repair_round),
         "reset": lambda case: run_repair(case, reset_round), "blockgs": run_blockgs,
         "tikhonov": run_tikhonov, "spectrum": run_spectrum}


def main(argv):
    if len(argv) != 4 or argv[1] not in MODES:
        sys.exit(__doc__)
    MODES[argv[1]](Case(argv[2], argv[3]))


if __name__ == "__main__":
    main(sys.argv)
