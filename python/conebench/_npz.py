"""ContactBench's problem files (.npz with G, g, mus), both ways.

ContactBench (Simple-Robotics/ContactBench, pycontact) writes a Coulomb 3D problem as the
Delassus matrix G (3nc × 3nc), the free velocity g (3nc, or 3nc × 1) and the coefficients mus
(nc), each contact's components ordered (t1, t2, n): the normal last. conebench orders them
(n, t1, t2). Reading permutes rows and columns, writing permutes them back: values are moved,
never computed, so a round trip gives the same bits.
"""
import numpy as np

from . import ConebenchError, Problem

# Position in ContactBench's (t1, t2, n) of conebench's (n, t1, t2) components.
FROM_CONTACTBENCH = np.array([2, 0, 1])
KEYS = ("G", "g", "mus")


def _order(nc):
    """Index into ContactBench's vector of each entry of conebench's."""
    return (3 * np.arange(nc)[:, None] + FROM_CONTACTBENCH[None, :]).ravel()


def read_npz(path, name=None):
    """The coulomb3d problem of a ContactBench .npz (W = P G Pᵀ, q = P g, μ = mus)."""
    try:
        with np.load(str(path), allow_pickle=False) as z:
            missing = [k for k in KEYS if k not in z.files]
            if missing:
                raise ConebenchError("%s: not a ContactBench problem: no %s (it holds %s)"
                                     % (path, ", ".join(missing), ", ".join(z.files) or "nothing"))
            G, g, mus = (np.asarray(z[k], dtype=np.float64) for k in KEYS)
    except (OSError, ValueError) as e:
        raise ConebenchError("%s: cannot read as .npz: %s" % (path, e), 4) from None
    mus = mus.reshape(-1)
    nc = mus.shape[0]
    if g.size != 3 * nc or G.shape != (3 * nc, 3 * nc):
        raise ConebenchError("%s: G is %s and g has %d values, expected 3·nc = %d each (nc = %d "
                             "entries of mus)" % (path, G.shape, g.size, 3 * nc, nc))
    idx = _order(nc)
    W = np.asfortranarray(G[np.ix_(idx, idx)])
    base = name or str(path).rsplit("/", 1)[-1].rsplit(".", 1)[0]
    prob = Problem.from_arrays(W, g.reshape(-1)[idx], mus, kind="coulomb3d", name=base)
    return prob


def write_npz(problem, path):
    """ContactBench's .npz of a coulomb3d problem (G dense, g and mus vectors)."""
    if problem.kind != "coulomb3d":
        raise ConebenchError("%s: ContactBench's .npz holds Coulomb 3D problems; this one is %s"
                             % (path, problem.kind))
    a = problem.to_arrays(dense=True)
    idx = _order(problem.nc)
    G = np.empty_like(a["W"], order="C")
    G[np.ix_(idx, idx)] = a["W"]
    g = np.empty(problem.n)
    g[idx] = a["q"]
    with open(str(path), "wb") as f:
        np.savez(f, G=G, g=g, mus=a["mu"])
