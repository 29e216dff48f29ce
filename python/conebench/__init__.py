"""conebench: cone complementarity (contact friction) problems, solvers and the judge, from Python.

Pure ctypes over libconebench.so (no compiled extension); numpy required, scipy optional
(sparse W), pandas optional (results() as a DataFrame). docs/python.md is the guide.

The library is looked for at $CONEBENCH_LIB, then where `make install` put it, then in the
source tree's build/ (or build-nosiconos/); from the tree: PYTHONPATH=python.
"""
import ctypes
import importlib.util
from dataclasses import dataclass, field

import numpy as np

from . import _capi as C

_lib = C.load()
__version__ = "0.1.0"
LIBRARY = _lib.path  # the libconebench.so in use
KINDS = tuple(_lib.cb_kind_name(i).decode() for i in range(5))
# The kind a problem file's d means (io.h): d = 3 is Coulomb 3D unless rolling2d is asked for.
KIND_OF_D = {2: "coulomb2d", 3: "coulomb3d", 5: "rolling3d", 6: "rollspin3d"}
DEFAULT_TOL = 1e-8


class ConebenchError(Exception):
    """A failure of the library: message is its text ("FILE:LINE: what" or "field: what"),
    code its cb_code (2 bad input, 3 out of memory, 4 file system, 5 internal)."""

    def __init__(self, message, code=C.CB_ERR_INPUT, status=None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status  # solve(): the run's status (bad_input, unsupported), else None


def _raise_on(rc, err, what, status=None):
    """Raise ConebenchError with err's text when rc is not CB_OK."""
    if rc != C.CB_OK:
        text = err.text.decode("utf-8", "replace") or "%s failed (code %d)" % (what, rc)
        raise ConebenchError(text, rc, status)


def _kind_code(kind):
    """cb_kind of a name ("rolling3d") or code; ConebenchError naming it otherwise."""
    if isinstance(kind, (int, np.integer)) and 0 <= int(kind) < len(KINDS):
        return int(kind)
    out = ctypes.c_int()
    if not isinstance(kind, str) or _lib.cb_kind_parse(kind.encode(), ctypes.byref(out)) != 0:
        raise ConebenchError("kind: unknown cone kind %r (one of %s)" % (kind, ", ".join(KINDS)))
    return out.value


def _vector(a, name, n):
    """a as a contiguous float64 vector of n entries (the caller's array when it already is)."""
    v = np.ascontiguousarray(a, dtype=np.float64)
    if v.ndim == 0 and n == 1:
        v = v.reshape(1)
    if v.ndim != 1 or v.shape[0] != n:
        raise ConebenchError("%s: expected %d values, got shape %s" % (name, n, v.shape))
    return v


def _dptr(a):
    return a.ctypes.data_as(C.P_double)


def _iptr(a):
    return a.ctypes.data_as(C.P_int)


def _array(ptr, count, shape=None):
    """A numpy copy of count doubles (or ints) at ptr."""
    if count == 0:
        return np.zeros(0)
    out = np.ctypeslib.as_array(ptr, shape=(count,)).copy()
    return out.reshape(shape, order="F") if shape else out


class Problem:
    """A contact problem: find p ∈ K, y = W p + q, ŷ = y + g(y) ∈ K*, ⟨ŷ, p⟩ = 0 (man conebench).

    Made by Problem.from_arrays, Problem.read, read_npz or generate; never changed in place."""

    def __init__(self, ptr, owned, keep=()):
        self._ptr = ptr      # POINTER(cb_problem)
        self._owned = owned  # freed by cb_problem_free when the object goes
        self._keep = keep    # the arrays a borrowed problem points into
        self.p_star = self.y_star = None  # generate(): the known solution

    def __del__(self):
        if getattr(self, "_owned", False) and _lib is not None:
            _lib.cb_problem_free(self._ptr)
            self._owned = False

    # ---- construction ----
    @classmethod
    def from_arrays(cls, W, q, mu, kind=None, mu_r=None, mu_s=None, name="arrays"):
        """A problem over the caller's arrays. W: n×n dense (numpy, borrowed without a copy
        when it is float64 in column-major order, e.g. np.asfortranarray(W) or A.T of a
        C-ordered A) or scipy.sparse (stored as d×d blocks; values copied, the library keeps
        blocks column-major). q: n values, mu (and mu_r, mu_s for the kinds that have them):
        nc values each, borrowed when float64 and contiguous. kind: a name, default from
        d = n / nc (2 coulomb2d, 3 coulomb3d, 5 rolling3d, 6 rollspin3d). The caller must
        not change the arrays while the problem is in use."""
        mu_a = np.atleast_1d(np.ascontiguousarray(mu, dtype=np.float64))
        nc = mu_a.shape[0]
        n = int(np.shape(q)[0]) if np.ndim(q) == 1 else -1
        if mu_a.ndim != 1 or nc == 0 or n <= 0 or n % nc:
            raise ConebenchError("q, mu: q must hold nc·d values for the nc = len(mu) contacts "
                                 "(got q of shape %s, mu of shape %s)"
                                 % (np.shape(q), np.shape(mu)))
        d = n // nc
        if kind is None and d not in KIND_OF_D:
            raise ConebenchError("kind: no cone kind has d = %d (n = %d, nc = %d)" % (d, n, nc))
        k = _kind_code(KIND_OF_D[d] if kind is None else kind)
        if _lib.cb_kind_dim(k) != d:
            raise ConebenchError("kind: %s has d = %d, but q and mu give d = n / nc = %d"
                                 % (KINDS[k], _lib.cb_kind_dim(k), d))
        s = C.Problem(name=str(name).encode(), kind=k, nc=nc, d=d)
        keep = [mu_a]
        s.q = _dptr(_keep(keep, _vector(q, "q", n)))
        s.mu = _dptr(mu_a)
        for fld, val in (("mu_r", mu_r), ("mu_s", mu_s)):  # a scalar applies to every contact
            if val is None or np.ndim(val) == 0:
                val = np.broadcast_to(0.0 if val is None else val, (nc,))
            setattr(s, fld, _dptr(_keep(keep, _vector(val, fld, nc))))
        if hasattr(W, "tobsr"):
            _set_bsr(s, W, n, d, keep)
        else:
            Wf = np.asarray(W, dtype=np.float64, order="F")
            if Wf.shape != (n, n):
                raise ConebenchError("W: expected %d×%d (n = len(q)), got shape %s" % (n, n, Wf.shape))
            s.storage, s.W = C.CB_STORAGE_DENSE, _dptr(_keep(keep, Wf))
        err = C.Error()
        _raise_on(_lib.cb_problem_check(ctypes.byref(s), ctypes.byref(err)), err, "check")
        keep.append(s)
        return cls(ctypes.pointer(s), False, keep)

    @classmethod
    def read(cls, path, kind=None):
        """Read a problem file (Siconos text, Siconos global text, FCLIB HDF5; man conebench,
        FILES). kind forces the cone kind (rolling2d for a d = 3 file)."""
        rs = C.ReadSettings()
        _lib.cb_read_settings_default(ctypes.byref(rs))
        if kind is not None:
            rs.force_kind, rs.kind = 1, _kind_code(kind)
        out, err = ctypes.POINTER(C.Problem)(), C.Error()
        rc = _lib.cb_read_problem(str(path).encode(), ctypes.byref(rs), ctypes.byref(out),
                                  ctypes.byref(err))
        _raise_on(rc, err, "read")
        return cls(out, True)

    # ---- output ----
    def write(self, path, format=None):
        """Write Siconos text or FCLIB HDF5 (format "siconos" / "fclib"; default from the
        name: .hdf5 or .h5 is FCLIB). Atomic: a failure leaves no file."""
        if format not in C.CB_FORMATS:
            raise ConebenchError("format: %r is not siconos or fclib" % (format,))
        err = C.Error()
        rc = _lib.cb_write_problem_as(str(path).encode(), self._ptr, C.CB_FORMATS[format],
                                      ctypes.byref(err))
        _raise_on(rc, err, "write")

    def write_npz(self, path):
        """Write ContactBench's .npz (G, g, mus): coulomb3d only, see read_npz."""
        from ._npz import write_npz
        write_npz(self, path)

    def to_arrays(self, dense=False):
        """Copies of the data as a dict: W (numpy, or scipy.sparse.bsr_matrix for sparse
        storage when scipy is there and dense is False), q, mu, mu_r, mu_s, kind; so that
        Problem.from_arrays(**p.to_arrays()) is the same problem."""
        s = self._ptr.contents
        if s.storage == C.CB_STORAGE_FACTORED or (s.storage == C.CB_STORAGE_BSR and
                                                  (dense or not _have_scipy())):
            conv = _lib.cb_problem_to_dense if dense or not _have_scipy() else _lib.cb_problem_to_bsr
            return self._converted(conv).to_arrays(dense)
        n, nc, d = s.nc * s.d, s.nc, s.d
        if s.storage == C.CB_STORAGE_DENSE:
            W = _array(s.W, n * n, (n, n))
        else:
            W = _bsr_of(s.bsr, n, d)
        return {"W": W, "q": _array(s.q, n), "mu": _array(s.mu, nc),
                "mu_r": _array(s.mu_r, nc), "mu_s": _array(s.mu_s, nc), "kind": self.kind}

    def _converted(self, conv):
        out, err = ctypes.POINTER(C.Problem)(), C.Error()
        _raise_on(conv(self._ptr, ctypes.byref(out), ctypes.byref(err)), err, "convert")
        return Problem(out, True)

    # ---- description ----
    kind = property(lambda self: _lib.cb_kind_name(self._ptr.contents.kind).decode())
    nc = property(lambda self: self._ptr.contents.nc)
    d = property(lambda self: self._ptr.contents.d)
    n = property(lambda self: self._ptr.contents.nc * self._ptr.contents.d)
    storage = property(lambda self: _lib.cb_storage_name(self._ptr.contents.storage).decode())
    name = property(lambda self: (self._ptr.contents.name or b"").decode())
    sha256 = property(lambda self: self._ptr.contents.prov.sha256.decode())

    def __repr__(self):
        return "<conebench.Problem %s: %s, nc=%d, %s W>" % (self.name, self.kind, self.nc,
                                                            self.storage)


def _keep(keep, a):
    keep.append(a)
    return a


def _have_scipy():
    return importlib.util.find_spec("scipy") is not None


def _set_bsr(s, W, n, d, keep):
    """Store scipy.sparse W in s as BSR with d×d blocks (block values made column-major)."""
    if W.shape != (n, n):
        raise ConebenchError("W: expected %d×%d (n = len(q)), got shape %s" % (n, n, W.shape))
    B = W.tobsr(blocksize=(d, d))
    if not B.has_canonical_format:
        B = B.copy()
        B.sum_duplicates()
    row_ptr = _keep(keep, np.ascontiguousarray(B.indptr, dtype=np.intc))
    col = _keep(keep, np.ascontiguousarray(B.indices, dtype=np.intc))
    val = _keep(keep, np.ascontiguousarray(np.asarray(B.data, dtype=np.float64).transpose(0, 2, 1)))
    s.storage = C.CB_STORAGE_BSR
    s.bsr.nbrows, s.bsr.nnzb = n // d, col.shape[0]
    s.bsr.row_ptr, s.bsr.col, s.bsr.val = _iptr(row_ptr), _iptr(col), _dptr(val)


def _bsr_of(b, n, d):
    """scipy.sparse.bsr_matrix copy of a cb_bsr (blocks column-major in the library)."""
    import scipy.sparse
    nb = b.nnzb
    row_ptr = np.ctypeslib.as_array(b.row_ptr, shape=(b.nbrows + 1,)).copy()
    col = np.ctypeslib.as_array(b.col, shape=(nb,)).copy() if nb else np.zeros(0, np.intc)
    val = _array(b.val, nb * d * d).reshape(nb, d, d).transpose(0, 2, 1).copy()
    return scipy.sparse.bsr_matrix((val, col, row_ptr), shape=(n, n))


def read_npz(path, name=None):
    """A coulomb3d problem from ContactBench's .npz (G, g, mus; per contact (t1, t2, n))."""
    from ._npz import read_npz as _read
    return _read(path, name)


# ---- cones ----
def project(kind, v, mu, mu_r=0.0, mu_s=0.0):
    """P_K(v): the Euclidean projection onto the friction cone of kind (cone.h). v has d
    entries, or shape (m, d) for m contacts (the coefficients broadcast to m)."""
    k = _kind_code(kind)
    d = _lib.cb_kind_dim(k)
    x = np.asarray(v, dtype=np.float64)
    if x.shape[-1:] != (d,) or x.ndim > 2:
        raise ConebenchError("v: a %s contact has %d components, got shape %s" % (KINDS[k], d, x.shape))
    rows = np.ascontiguousarray(x.reshape(-1, d))
    m = rows.shape[0]
    coef = [np.broadcast_to(np.asarray(c, dtype=np.float64), (m,)) for c in (mu, mu_r, mu_s)]
    out = np.empty_like(rows)
    for i in range(m):
        f = C.Friction(coef[0][i], coef[1][i], coef[2][i])
        case = _lib.cb_project(k, ctypes.byref(f), _dptr(rows[i]), _dptr(out[i]))
        if case < 0:
            raise ConebenchError("v: contact %d or its coefficients are not finite (or a "
                                 "coefficient is negative)" % i)
    return out.reshape(x.shape)


# ---- the judge ----
@dataclass
class Judgement:
    """The judge's measures of a point p (judge.h; man conebench, VERDICT)."""
    error: float       # Siconos normalisation
    error_q: float     # ‖e‖ / ‖q‖ (FCLIB)
    error_data: float  # the verdict's error
    abs_error: float   # ‖e‖
    norm_p: float
    norm_y: float
    norm_q: float
    finite: bool
    resolvable: bool
    solved: bool       # the verdict: finite ∧ resolvable ∧ error_data ≤ tol
    y: np.ndarray = field(repr=False)  # W p + q

    @property
    def verdict(self):
        return "solved" if self.solved else "unsolved"


def judge(problem, p, tol=DEFAULT_TOL):
    """Judge p on problem: error, error_q, error_data and the verdict at tol."""
    p = _vector(p, "p", problem.n)
    y, j, err = np.empty(problem.n), C.Judgement(), C.Error()
    rc = _lib.cb_judge(problem._ptr, _dptr(p), float(tol), _dptr(y), ctypes.byref(j),
                       ctypes.byref(err))
    _raise_on(rc, err, "judge")
    return Judgement(j.error, j.error_q, j.error_data, j.abs_error, j.norm_p, j.norm_y,
                     j.norm_q, bool(j.finite), bool(j.resolvable), bool(j.solved), y)


# ---- solvers ----
@dataclass
class Option:
    key: str
    default: str  # "" when derived from other options, None when there is none
    help: str


@dataclass
class SolverDescription:
    name: str
    summary: str
    options: list
    origin: str  # "built-in", or the plugin's path


def _describe(sv):
    c = sv.contents
    opts, i = [], 0
    while c.options and c.options[i].key:
        o = c.options[i]
        opts.append(Option(o.key.decode(), o.default_value.decode() if o.default_value else None,
                           (o.help or b"").decode()))
        i += 1
    origin = _lib.cb_solver_origin(sv)
    return SolverDescription(c.name.decode(), (c.summary or b"").decode(), opts,
                             origin.decode() if origin else "built-in")


def solvers():
    """Every registered solver (built-in, then plugins) with its options."""
    return [_describe(_lib.cb_solver_at(i)) for i in range(_lib.cb_solver_count())]


def load_plugin(path):
    """Load a solver plugin (man conebench, PLUGINS); its solvers join solvers()."""
    err = C.Error()
    _raise_on(_lib.cb_plugin_load(str(path).encode(), ctypes.byref(err)), err, "plugin")


def _find_solver(name):
    sv = _lib.cb_solver_find(str(name).encode())
    if not sv:
        buf = ctypes.create_string_buffer(256)
        hint = _lib.cb_solver_suggest(str(name).encode(), buf, len(buf)).decode()
        raise ConebenchError("solver: unknown solver '%s'%s (see conebench.solvers())" % (name, hint))
    return sv


@dataclass
class Solution:
    p: np.ndarray  # reaction
    y: np.ndarray  # velocity W p + q


@dataclass
class Info:
    """What a run reports (solver.h cb_info): the stop reason and the verdict, never mixed."""
    status: str          # the stop reason: converged, max_iter, time_limit, diverged, stalled
    solved: bool         # the judge's verdict on the final iterate
    iterations: int
    error: float
    error_q: float
    error_data: float
    solver_error: float  # the solver's own last estimate
    time_setup: float
    time_solve: float
    time_judge: float
    time_cpu: float
    work: dict           # block_products, projections, local_iters, error_evals
    trace: dict = field(repr=False)  # iteration, time_s, error: numpy arrays (empty untraced)
    phases: list = field(repr=False)  # per phase: solver, iterations, work, time_s


def _work(w):
    return {k: int(getattr(w, k)) for k, _ in C.Work._fields_}


def _info_of(c):
    t = c.trace
    pts = [t[i] for i in range(c.ntrace)] if t else []
    trace = {"iteration": np.array([p.iteration for p in pts], dtype=int),
             "time_s": np.array([p.time_s for p in pts]),
             "error": np.array([p.error for p in pts])}
    phases = [{"solver": ph.solver.decode(), "iterations": ph.iterations,
               "work": _work(ph.work), "time_s": ph.time_s}
              for ph in c.phases[:max(0, min(c.nphases, C.CB_PHASES_MAX))]]
    return Info(_lib.cb_status_name(c.status).decode(), bool(c.solved), c.iterations, c.error,
                c.error_q, c.error_data, c.solver_error, c.time_setup, c.time_solve,
                c.time_judge, c.time_cpu, _work(c.work), trace, phases)


def _settings(tol, options, max_iter, time_limit, trace, threads, keep):
    s = C.Settings()
    _lib.cb_settings_default(ctypes.byref(s))
    s.tol, s.trace, s.threads = float(tol), int(bool(trace)), int(threads)
    if max_iter is not None:
        s.max_iter = int(max_iter)
    if time_limit is not None:
        s.time_limit = float(time_limit)
    items = list((options or {}).items())
    if items:
        kv = (C.KV * len(items))(*[C.KV(str(k).encode(), _option_text(v).encode()) for k, v in items])
        keep.append(kv)
        s.options, s.noptions = kv, len(items)
    return s


def _option_text(v):
    """An option value as the CLI would take it (floats in full precision)."""
    if isinstance(v, bool):
        return "on" if v else "off"
    return repr(v) if isinstance(v, float) else str(v)


def solve(problem, solver="nsn", tol=DEFAULT_TOL, options=None, warm_start=None, max_iter=None,
          time_limit=None, trace=True, threads=1):
    """Run solver on problem from warm_start (zeros by default; not modified), then judge
    (cb_solve). options: a dict of the solver's options (solvers()). max_iter and time_limit
    (CPU seconds, 0 none) default to the library's (10000, 60). Returns (Solution, Info);
    ConebenchError (status bad_input or unsupported) for bad settings, options or a problem
    the solver does not take."""
    sv = _find_solver(solver)
    keep = []
    s = _settings(tol, options, max_iter, time_limit, trace, threads, keep)
    n = problem.n
    p = np.zeros(n) if warm_start is None else _vector(warm_start, "warm_start", n).copy()
    y = np.zeros(n)
    sol, info, err = C.Solution(n, _dptr(p), _dptr(y)), C.Info(), C.Error()
    try:
        rc = _lib.cb_solve(sv, problem._ptr, ctypes.byref(s), ctypes.byref(sol),
                           ctypes.byref(info), ctypes.byref(err))
        status = _lib.cb_status_name(info.status).decode()
        _raise_on(rc, err, "solve", status)
        return Solution(p, y), _info_of(info)
    finally:
        _lib.cb_info_free(ctypes.byref(info))


# ---- solution files ----
def write_solution(path, problem, p, y=None):
    """Write p (and y, zeros when None) as a solution file of problem ("nc d", then nc·d
    lines "p_i y_i"; atomic), the one `conebench error FILE --solution SOL` judges."""
    n = problem.n
    p = _vector(p, "p", n)
    y = None if y is None else _vector(y, "y", n)
    err = C.Error()
    rc = _lib.cb_write_solution(str(path).encode(), problem.nc, problem.d, _dptr(p),
                                _dptr(y) if y is not None else None, ctypes.byref(err))
    _raise_on(rc, err, "write_solution")


def read_solution(path):
    """The (p, y) of a solution file (nc·d values each)."""
    nc, d, ps, ys, err = ctypes.c_int(), ctypes.c_int(), C.P_double(), C.P_double(), C.Error()
    rc = _lib.cb_read_solution(str(path).encode(), ctypes.byref(nc), ctypes.byref(d),
                               ctypes.byref(ps), ctypes.byref(ys), ctypes.byref(err))
    _raise_on(rc, err, "read_solution")
    n = nc.value * d.value
    p, y = _array(ps, n), _array(ys, n)
    _libc_free(ps)
    _libc_free(ys)
    return p, y


# ---- generators ----
def generate(kind="coulomb3d", nc=10, seed=1, matrix="multibody", storage="dense", cond=None,
             semidefinite=False, density=None, bodies=None, mu=None, mu_r=None, mu_s=None):
    """A random problem with a known solution (generate.h; `conebench generate random`):
    the problem, its p_star and y_star attributes set. matrix: multibody (bodies applies to
    it) or spd (cond, semidefinite, density apply to it; each is refused with the other
    matrix); mu, mu_r, mu_s: (min, max) ranges drawn per contact."""
    rs = C.RandomSettings()
    _lib.cb_random_settings_default(ctypes.byref(rs))
    if matrix not in C.CB_GEN_MATRIX or storage not in ("dense", "bsr"):
        raise ConebenchError("matrix, storage: matrix is multibody or spd, storage dense or "
                             "bsr (got %r, %r)" % (matrix, storage))
    rs.kind, rs.nc, rs.seed, rs.matrix = _kind_code(kind), int(nc), int(seed), C.CB_GEN_MATRIX[matrix]
    rs.storage = C.CB_STORAGE_DENSE if storage == "dense" else C.CB_STORAGE_BSR
    rs.semidefinite = int(bool(semidefinite))
    for attr, val in (("cond", cond), ("density", density), ("bodies", bodies)):
        if val is not None:
            setattr(rs, attr, val)
    for prefix, rng in (("mu", mu), ("mur", mu_r), ("mus", mu_s)):
        if rng is not None:
            setattr(rs, prefix + "_min", float(rng[0]))
            setattr(rs, prefix + "_max", float(rng[1]))
    out, ps, ys, err = ctypes.POINTER(C.Problem)(), C.P_double(), C.P_double(), C.Error()
    rc = _lib.cb_generate_random(ctypes.byref(rs), ctypes.byref(out), ctypes.byref(ps),
                                 ctypes.byref(ys), ctypes.byref(err))
    _raise_on(rc, err, "generate")
    prob = Problem(out, True)
    n = prob.n
    prob.p_star, prob.y_star = _array(ps, n), _array(ys, n)
    _libc_free(ps)
    _libc_free(ys)
    return prob


_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]


def _libc_free(ptr):
    _libc.free(ctypes.cast(ptr, ctypes.c_void_p))


from ._results import results  # noqa: E402
from ._bench import bench  # noqa: E402
from ._pysolver import Settings  # noqa: E402

__all__ = ["ConebenchError", "Problem", "read_npz", "project", "judge", "Judgement", "solve",
           "Solution", "Info", "solvers", "load_plugin", "generate", "results", "write_solution",
           "read_solution", "bench", "Settings", "KINDS",
           "LIBRARY"]
