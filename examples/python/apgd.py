#!/usr/bin/python3
"""apgd.py - a numpy solver for conebench's `external` solver (see README.md here).

Solves the cone complementarity problem  y = W p + q,  K ∋ p ⊥ ŷ ∈ K*  of a conebench problem
written as Siconos text, with an accelerated projected gradient (Nesterov momentum, adaptive
step, adaptive restart; Mazhar, Heyn, Negrut & Tasora, ACM TOG 34(3) 2015, Algorithm 2) on the
De Saxcé modified velocity ŷ = y + (Σ_i μ_i ‖y_i‖, 0, ..., 0):

    p_{k+1} = P_K(x_k - ŷ(W x_k + q) / L_k)   (L_k doubled until the step decreases enough)
    x_{k+1} = p_{k+1} + β_k (p_{k+1} - p_k)    (β from Nesterov's θ; reset when the step goes
                                                 uphill)

It stops when the natural-map residual that conebench's judge computes,
    error = ‖p - P_K(p - ŷ)‖ / max(‖q‖, ‖p‖, ‖y‖),
is at most tol / 2 (a margin for rounding), or after max_iter steps, and writes the iterate
with the lowest error.

Usage (conebench runs it; the placeholders become paths):
    conebench solve FILE --solver external \\
      --option cmd="/usr/bin/python3 examples/python/apgd.py {problem} {solution} \\
                    --settings {settings} --trace {trace} --work {work}"
Stand-alone: apgd.py PROBLEM SOLUTION [--settings JSON] [--trace CSV] [--work TXT] (defaults: tol 1e-8,
max_iter 10000, the kind from d: 2 coulomb2d, 3 coulomb3d, 5 rolling3d, 6 rollspin3d).
Exit status: 0 a solution was written, 2 the input could not be read (the reason on stderr).
"""
import argparse
import json
import os
import sys
import time

import numpy as np

# Disk blocks of each cone kind: the sizes of (x_1, ..., x_m) after r_N, and which friction
# coefficient bounds each (0: μ, 1: μ_r, 2: μ_s).
KINDS = {
    "coulomb2d": (2, [1], 1),
    "coulomb3d": (3, [2], 1),
    "rolling2d": (3, [1, 1], 2),
    "rolling3d": (5, [2, 2], 2),
    "rollspin3d": (6, [2, 2, 1], 3),
}
KIND_OF_D = {2: "coulomb2d", 3: "coulomb3d", 5: "rolling3d", 6: "rollspin3d"}
TOL_MARGIN = 0.5      # stop at error <= TOL_MARGIN * tol
POWER_STEPS = 20      # power iterations for the first estimate of ‖W‖
SHRINK = 0.9          # L <- SHRINK * L after each step
MAX_DOUBLINGS = 60    # step-size doublings tried in one step

# conebench's work counters (work.txt): d×d block × vector products (a dense W: nc² per
# product), contacts projected, residual evaluations.
WORK = {"block_products": 0, "projections": 0, "error_evals": 0}


def matvec(W, v):
    """W v, counted."""
    nc = W.shape[0] // CONTACT_DIM[0]
    WORK["block_products"] += nc * nc
    return W @ v


CONTACT_DIM = [1]  # d of the problem being solved (set by main)


class BadInput(Exception):
    pass


class Tokens:
    """The white-space separated words of a file, read in order."""

    def __init__(self, path):
        with open(path) as f:
            self.words, self.pos, self.path = f.read().split(), 0, path

    def take(self, count, conv=float):
        """The next count words as a list of conv(word)."""
        if self.pos + count > len(self.words):
            raise BadInput(f"{self.path}: unexpected end of file")
        self.pos += count
        return [conv(w) for w in self.words[self.pos - count:self.pos]]

    def int(self):
        return self.take(1, int)[0]


def read_problem(path, kind):
    """(kind, W dense n×n, q, mu (nc × m)) from a Siconos text file (storage 0 or 1)."""
    tok = Tokens(path)
    d, nc = tok.int(), tok.int()
    kind = kind or KIND_OF_D.get(d)
    if kind not in KINDS or KINDS[kind][0] != d:
        raise BadInput(f"{path}: d = {d} is not the dimension of kind {kind}")
    n = nc * d
    storage, size0, size1 = tok.int(), tok.int(), tok.int()
    if size0 != n or size1 != n:
        raise BadInput(f"{path}: W is {size0}×{size1}, nc·d = {n}")
    if storage == 0:
        tok.take(2, int)  # the sizes again
        W = np.array(tok.take(n * n)).reshape((n, n), order="F")
    elif storage == 1:
        W = read_blocks(tok, n, d)
    else:
        raise BadInput(f"{path}: storage {storage}: only 0 (dense) and 1 (blocks) are read")
    q = np.array(tok.take(n))
    mu = np.array([tok.take(nc) for _ in range(KINDS[kind][2])]).T
    return kind, W, q, mu


def read_blocks(tok, n, d):
    """Storage 1 (Siconos SBM_write_in_file): nbblocks, block rows/columns, cumulative sizes,
    row pointers, column indices, then each block's number and d·d values (column-major)."""
    W = np.zeros((n, n))
    if tok.int() == 0:  # nbblocks
        return W
    nrows, ncols = tok.int(), tok.int()
    tok.take(nrows + ncols, int)  # cumulative row and column block sizes
    filled1, filled2 = tok.int(), tok.int()
    row_ptr, cols = tok.take(filled1, int), tok.take(filled2, int)
    for r in range(filled1 - 1):
        for k in range(row_ptr[r], row_ptr[r + 1]):
            tok.int()  # the block's number
            c = cols[k]
            W[r * d:(r + 1) * d, c * d:(c + 1) * d] = \
                np.array(tok.take(d * d)).reshape((d, d), order="F")
    return W


class Cone:
    """The product-disk cones of every contact: K = {p : ‖x_i‖ <= μ_i r_N}."""

    def __init__(self, kind, mu):
        self.d, sizes, _ = KINDS[kind]
        starts = np.cumsum([1] + sizes)
        self.blocks = [slice(starts[i], starts[i + 1]) for i in range(len(sizes))]
        self.mu = mu  # nc × m

    def norms(self, v):
        """‖v_i‖ of every block of every contact (nc × m); v is nc × d."""
        return np.stack([np.linalg.norm(v[:, b], axis=1) for b in self.blocks], axis=1)

    def modified(self, y):
        """ŷ = y + (Σ_i μ_i ‖y_i‖, 0, ..., 0), every contact."""
        yh = y.copy()
        yh[:, 0] += np.sum(self.mu * self.norms(y), axis=1)
        return yh

    def project(self, v):
        """P_K(v) for every contact (rows of v), counted. Inside: v; in the polar cone: 0; else with the
        breakpoints t_i = ‖v_i‖/μ_i sorted decreasingly, the saturated set is the first prefix
        S_k whose r_k = (r + Σ_S μ_i n_i)/(1 + Σ_S μ_i²) is >= t_{k+1}, and x_i = μ_i r_N v_i/n_i
        on it."""
        WORK["projections"] += v.shape[0]
        r, nrm, mu = v[:, 0], self.norms(v), self.mu
        inside = (r >= 0) & np.all(nrm <= mu * r[:, None], axis=1)
        polar = -r >= np.sum(mu * nrm, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(mu > 0, nrm / mu, np.where(nrm > 0, np.inf, 0.0))
        order = np.argsort(-t, axis=1)
        ts, ms, ns = (np.take_along_axis(a, order, axis=1) for a in (t, mu, nrm))
        rk = (r[:, None] + np.cumsum(ms * ns, axis=1)) / (1 + np.cumsum(ms * ms, axis=1))
        ok = np.concatenate([rk[:, :-1] >= ts[:, 1:], np.ones((len(r), 1), bool)], axis=1)
        rn = np.maximum(rk[np.arange(len(r)), np.argmax(ok, axis=1)], 0.0)
        out = v.copy()
        out[:, 0] = rn
        for i, b in enumerate(self.blocks):
            sat = t[:, i] > rn
            with np.errstate(divide="ignore", invalid="ignore"):
                scale = np.where(nrm[:, i] > 0, mu[:, i] * rn / nrm[:, i], 0.0)
            out[sat, b] = v[sat, b] * scale[sat, None]
        out[inside] = v[inside]
        out[polar & ~inside] = 0.0
        return out


def judge(cone, W, q, p):
    """(error, y): the natural-map residual as conebench's judge normalises it."""
    WORK["error_evals"] += 1
    y = matvec(W, p) + q
    nc = len(p) // cone.d
    P, Y = p.reshape(nc, cone.d), y.reshape(nc, cone.d)
    e = np.linalg.norm(P - cone.project(P - cone.modified(Y)))
    scale = max(np.linalg.norm(q), np.linalg.norm(p), np.linalg.norm(y))
    return (e / scale if scale > np.finfo(float).eps else e), y


def lipschitz(W):
    """An estimate of ‖W‖₂ (power iterations from ones)."""
    v = np.ones(W.shape[0])
    lam = 0.0
    for _ in range(POWER_STEPS):
        w = matvec(W, v)
        lam = np.linalg.norm(w) / max(np.linalg.norm(v), 1e-300)
        v = w / max(np.linalg.norm(w), 1e-300)
    return max(lam, 1e-12)


def apgd(cone, W, q, p0, tol, max_iter, time_limit, trace):
    """The best iterate; trace(iteration, error) is called once per step (and for p0)."""
    nc, d = len(q) // cone.d, cone.d
    t0 = time.monotonic()
    L = lipschitz(W)
    p, x, theta = p0.copy(), p0.copy(), 1.0
    best_err, _ = judge(cone, W, q, p)
    best = p.copy()
    trace(0, best_err)
    for k in range(1, max_iter + 1):
        if best_err <= TOL_MARGIN * tol or (time_limit and time.monotonic() - t0 > time_limit):
            break
        F = cone.modified((matvec(W, x) + q).reshape(nc, d)).ravel()
        for _ in range(MAX_DOUBLINGS):
            pn = cone.project((x - F / L).reshape(nc, d)).ravel()
            step = pn - x
            if step @ matvec(W, step) <= L * (step @ step):
                break
            L *= 2
        err, _ = judge(cone, W, q, pn)
        trace(k, err)
        if err < best_err:
            best_err, best = err, pn.copy()
        theta_next = 0.5 * theta * (np.sqrt(theta * theta + 4) - theta)
        beta = theta * (1 - theta) / (theta * theta + theta_next)
        if F @ (pn - p) > 0:  # uphill: restart the momentum
            x, theta_next = pn.copy(), 1.0
        else:
            x = pn + beta * (pn - p)
        p, theta, L = pn, theta_next, SHRINK * L
    return best


def main():
    ap = argparse.ArgumentParser(description="numpy APGD for conebench's external solver")
    ap.add_argument("problem")
    ap.add_argument("solution")
    ap.add_argument("--settings")
    ap.add_argument("--trace")
    ap.add_argument("--work")
    a = ap.parse_args()
    s = {"tol": 1e-8, "max_iter": 10000, "time_limit": None, "warm_start": None, "kind": None}
    try:
        if a.settings:
            with open(a.settings) as f:
                s.update(json.load(f))
        kind, W, q, mu = read_problem(a.problem, s["kind"])
        CONTACT_DIM[0] = KINDS[kind][0]
        p0 = np.zeros(len(q))
        if s["warm_start"]:
            p0 = np.loadtxt(os.path.join(os.path.dirname(a.settings), s["warm_start"]), ndmin=1)
    except (OSError, ValueError, BadInput) as e:
        print(f"apgd.py: {e}", file=sys.stderr)
        return 2
    t0 = time.monotonic()
    rows = []
    p = apgd(Cone(kind, mu), W, q, p0, s["tol"], s["max_iter"], s["time_limit"],
             lambda k, err: rows.append((k, time.monotonic() - t0, err)))
    if a.trace:
        with open(a.trace, "w") as f:
            f.write("iteration,time_s,error\n")
            f.writelines(f"{k},{t:.9g},{e:.17g}\n" for k, t, e in rows)
    if a.work:
        with open(a.work, "w") as f:
            f.write(f"{WORK['block_products']} {WORK['projections']} 0 {WORK['error_evals']}\n")
    np.savetxt(a.solution, p, fmt="%.17g")
    return 0


if __name__ == "__main__":
    sys.exit(main())
