"""The C API of libconebench.so as ctypes declarations (include/conebench/*.h).

Only what the Python package calls is declared. The structs mirror the public headers field
for field; a change there (CB_PLUGIN_ABI is raised with it) must be made here too.
"""
import ctypes
import ctypes.util
import os

c_int, c_double, c_char_p, c_void_p = ctypes.c_int, ctypes.c_double, ctypes.c_char_p, ctypes.c_void_p
P_int = ctypes.POINTER(ctypes.c_int)
P_double = ctypes.POINTER(ctypes.c_double)

CB_OK, CB_ERR_INPUT, CB_ERR_NOMEM, CB_ERR_IO, CB_ERR_INTERNAL = 0, 2, 3, 4, 5
CB_ERROR_LEN = 1024
CB_SOLVER_NAME_MAX = 64
CB_PHASES_MAX = 4
CB_STORAGE_DENSE, CB_STORAGE_BSR, CB_STORAGE_FACTORED = 0, 1, 2
CB_FORMATS = {None: 0, "auto": 0, "siconos": 1, "fclib": 2}
CB_GEN_MATRIX = {"multibody": 0, "spd": 1}
SONAME = "libconebench.so.0"


class Error(ctypes.Structure):
    _fields_ = [("text", ctypes.c_char * CB_ERROR_LEN)]


class KV(ctypes.Structure):
    _fields_ = [("key", c_char_p), ("value", c_char_p)]


class KVSpec(ctypes.Structure):
    _fields_ = [("key", c_char_p), ("default_value", c_char_p), ("help", c_char_p)]


class Friction(ctypes.Structure):
    _fields_ = [("mu", c_double), ("mu_r", c_double), ("mu_s", c_double)]


class BSR(ctypes.Structure):
    _fields_ = [("nbrows", c_int), ("nnzb", c_int), ("row_ptr", P_int), ("col", P_int),
                ("val", P_double)]


class Factored(ctypes.Structure):
    _fields_ = [("nbody", c_int), ("minv", P_double), ("body", P_int), ("G", P_double),
                ("adj_ptr", P_int), ("adj", P_int), ("diag", P_double)]


class Provenance(ctypes.Structure):
    _fields_ = [("source", c_char_p), ("sha256", ctypes.c_char * 65), ("generator", c_char_p),
                ("params", c_char_p), ("seed", ctypes.c_uint64)]


class Problem(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("kind", c_int), ("nc", c_int), ("d", c_int),
                ("storage", c_int), ("W", P_double), ("bsr", BSR), ("fac", Factored),
                ("q", P_double), ("mu", P_double), ("mu_r", P_double), ("mu_s", P_double),
                ("global_", c_void_p), ("prov", Provenance)]


class Settings(ctypes.Structure):
    _fields_ = [("tol", c_double), ("max_iter", c_int), ("time_limit", c_double),
                ("trace", c_int), ("options", ctypes.POINTER(KV)), ("noptions", c_int),
                ("wall_limit", c_double), ("cpu_spent", c_double), ("budget", c_void_p),
                ("threads", c_int)]


class Work(ctypes.Structure):
    _fields_ = [("block_products", ctypes.c_longlong), ("projections", ctypes.c_longlong),
                ("local_iters", ctypes.c_longlong), ("error_evals", ctypes.c_longlong)]


class Phase(ctypes.Structure):
    _fields_ = [("solver", ctypes.c_char * (CB_SOLVER_NAME_MAX + 1)), ("iterations", c_int),
                ("work", Work), ("time_s", c_double)]


class TracePoint(ctypes.Structure):
    _fields_ = [("iteration", c_int), ("time_s", c_double), ("error", c_double)]


class Info(ctypes.Structure):
    _fields_ = [("status", c_int), ("solved", c_int), ("iterations", c_int),
                ("error", c_double), ("error_q", c_double), ("error_data", c_double),
                ("solver_error", c_double), ("time_setup", c_double),
                ("time_solve", c_double), ("time_judge", c_double), ("work", Work),
                ("time_cpu", c_double), ("trace", ctypes.POINTER(TracePoint)),
                ("ntrace", c_int), ("trace_cap", c_int), ("nphases", c_int),
                ("phases", Phase * CB_PHASES_MAX)]


class Solution(ctypes.Structure):
    _fields_ = [("n", ctypes.c_size_t), ("p", P_double), ("y", P_double)]


class Solver(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("summary", c_char_p), ("options", ctypes.POINTER(KVSpec)),
                ("supports", c_void_p), ("setup", c_void_p), ("solve", c_void_p),
                ("cleanup", c_void_p), ("update", c_void_p)]


class Judgement(ctypes.Structure):
    _fields_ = [("error", c_double), ("error_q", c_double), ("error_data", c_double),
                ("abs_error", c_double), ("norm_p", c_double), ("norm_y", c_double),
                ("norm_q", c_double), ("finite", c_int), ("resolvable", c_int),
                ("solved", c_int)]


class ReadSettings(ctypes.Structure):
    _fields_ = [("force_kind", c_int), ("kind", c_int)]


class RandomSettings(ctypes.Structure):
    _fields_ = [("kind", c_int), ("nc", c_int), ("seed", ctypes.c_uint64), ("matrix", c_int),
                ("cond", c_double), ("semidefinite", c_int), ("density", c_double),
                ("bodies", c_int), ("mu_min", c_double), ("mu_max", c_double),
                ("mur_min", c_double), ("mur_max", c_double), ("mus_min", c_double),
                ("mus_max", c_double), ("storage", c_int)]


P = ctypes.POINTER
PP_problem = P(P(Problem))
E = P(Error)
# name: (return type, argument types)
PROTOTYPES = {
    "cb_kind_dim": (c_int, [c_int]),
    "cb_kind_name": (c_char_p, [c_int]),
    "cb_kind_parse": (c_int, [c_char_p, P_int]),
    "cb_status_name": (c_char_p, [c_int]),
    "cb_storage_name": (c_char_p, [c_int]),
    "cb_project": (c_int, [c_int, P(Friction), P_double, P_double]),
    "cb_problem_check": (c_int, [P(Problem), E]),
    "cb_problem_free": (None, [P(Problem)]),
    "cb_problem_to_bsr": (c_int, [P(Problem), PP_problem, E]),
    "cb_problem_to_dense": (c_int, [P(Problem), PP_problem, E]),
    "cb_read_settings_default": (None, [P(ReadSettings)]),
    "cb_read_problem": (c_int, [c_char_p, P(ReadSettings), PP_problem, E]),
    "cb_write_problem_as": (c_int, [c_char_p, P(Problem), c_int, E]),
    "cb_judge": (c_int, [P(Problem), P_double, c_double, P_double, P(Judgement), E]),
    "cb_settings_default": (None, [P(Settings)]),
    "cb_solver_count": (c_int, []),
    "cb_solver_at": (P(Solver), [c_int]),
    "cb_solver_find": (P(Solver), [c_char_p]),
    "cb_solver_suggest": (c_char_p, [c_char_p, c_char_p, ctypes.c_size_t]),
    "cb_solver_origin": (c_char_p, [P(Solver)]),
    "cb_solve": (c_int, [P(Solver), P(Problem), P(Settings), P(Solution), P(Info), E]),
    "cb_info_free": (None, [P(Info)]),
    "cb_random_settings_default": (None, [P(RandomSettings)]),
    "cb_generate_random": (c_int, [P(RandomSettings), PP_problem, P(P_double), P(P_double), E]),
    "cb_plugin_load": (c_int, [c_char_p, E]),
    "cb_write_solution": (c_int, [c_char_p, c_int, c_int, P_double, P_double, E]),
    "cb_read_solution": (c_int, [c_char_p, P_int, P_int, P(P_double), P(P_double), E]),
}


def _candidates():
    """Where libconebench.so is looked for, in order (the first that exists is loaded)."""
    env = os.environ.get("CONEBENCH_LIB")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    try:  # written by make install: the folder of the installed library
        with open(os.path.join(here, "libdir.txt"), encoding="utf-8") as f:
            out.append(os.path.join(f.read().rstrip("\n"), SONAME))
    except OSError:
        pass
    for build in ("build", "build-nosiconos"):  # the source tree (make, make SICONOS=0)
        out.append(os.path.join(here, "..", "..", build, "libconebench.so"))
    out.append(os.path.join(here, "..", "..", "..", SONAME))  # PREFIX/lib/python3/dist-packages
    return out


def load():
    """Load libconebench.so and declare its prototypes; OSError naming the places tried."""
    tried = _candidates()
    path = next((p for p in tried if os.path.exists(p)), None)
    if path is None and "CONEBENCH_LIB" not in os.environ:
        path = ctypes.util.find_library("conebench")
        tried.append("the dynamic loader's path (libconebench)")
    if path is None:
        raise OSError("conebench: libconebench.so not found (tried %s); build it with make, "
                      "or set CONEBENCH_LIB to its path" % ", ".join(tried))
    lib = ctypes.CDLL(path)
    for name, (res, args) in PROTOTYPES.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    lib.path = os.path.abspath(path) if os.path.exists(path) else path
    return lib
