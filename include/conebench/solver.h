/* conebench — the solver interface and registry.
 *
 * Every solver is a cb_solver function table: setup (validate + allocate opaque work), solve,
 * cleanup, and an optional update (new data, same pattern). Callers use cb_solve(), which times
 * the phases, runs the solver, and then re-scores the result with the judge (cb_judge); or,
 * for a sequence of problems of one pattern, a workspace (cb_setup, cb_update_*, cb_solve_ws,
 * cb_cleanup, below), which keeps the solver's work between solves with the same results. Two things are reported, never mixed:
 *   info->status  the stop reason: why the run ended (converged: the solver's own stop test
 *                 fired; max_iter; time_limit: the budget was exceeded; diverged: a non-finite
 *                 iterate; stalled: the solver gave up before its cap; crashed, unsupported,
 *                 bad_input);
 *   info->solved  the verdict: the judge's, on the final iterate alone (judge.h: finite,
 *                 resolvable and error_data ≤ tol), whatever the stop reason. `conebench error`
 *                 on the written solution gives the same verdict.
 * The stop reason is the solver's, except time_limit (setup + solve over the budget, whatever
 * was returned) and diverged (the final iterate is not finite) (solver.c: final_status).
 *
 * Ownership: cb_solution arrays are owned by the caller (cb_solution_alloc / cb_solution_free).
 * info->trace is allocated by cb_solve when settings->trace is set; free it with cb_info_free.
 */
#ifndef CONEBENCH_SOLVER_H
#define CONEBENCH_SOLVER_H

#include "conebench/problem.h"
#include "conebench/judge.h"


typedef enum {
    CB_STATUS_CONVERGED = 0,  /* the solver's own stop test fired (the verdict is the judge's) */
    CB_STATUS_MAX_ITER = 1,
    CB_STATUS_TIME_LIMIT = 2,
    CB_STATUS_DIVERGED = 3,   /* a non-finite iterate */
    CB_STATUS_BAD_INPUT = 4,
    CB_STATUS_STALLED = 5,    /* the solver gave up before its cap (breakdown, stagnation) */
    CB_STATUS_CRASHED = 6,    /* harness only: the child process died */
    CB_STATUS_UNSUPPORTED = 7 /* the solver does not take this problem's cone kind (or storage):
                                 its supports() said so; not a failure, the input is fine */
} cb_status;

#define CB_STATUS_COUNT (CB_STATUS_UNSUPPORTED + 1) /* number of cb_status values */

const char *cb_status_name(cb_status s); /* "converged", "max_iter", ... */
int cb_status_parse(const char *name, cb_status *out);

/* One per-solver option, as given by the user ("key=value"): a cb_kv (common.h) under the name
 * the solvers use. */
typedef cb_kv cb_option;

/* Description of an option a solver accepts (for `conebench list solvers` and validation). */
typedef cb_kv_spec cb_option_spec;

/* The budget of one run (cb_solve makes it; solvers only ask cb_time_up / cb_time_fits). */
typedef struct cb_budget cb_budget;
/* The largest time limit accepted (seconds; about 11.6 days): beyond it a limit is a typo. */
#define CB_TIME_LIMIT_MAX 1e6

typedef struct {
    double tol;          /* target judged error (default 1e-8) */
    int max_iter;        /* outer iterations (sweeps for nsgs) (default 10000) */
    /* The budget: CPU seconds of the run (the process CPU clock, every thread: setup and solve,
     * plus cpu_spent), 0 for none, at most CB_TIME_LIMIT_MAX (default 60). */
    double time_limit;
    int trace;           /* record (iteration, time, error) every iteration (default 0) */
    const cb_option *options; /* per-solver options, not owned */
    int noptions;
    /* The wall-clock guard, seconds from the start of cb_solve: 0 = CB_WALL_GUARD_FACTOR ×
     * time_limit (default), < 0 none. A run stopped by it is time_limit too. */
    double wall_limit;
    /* CPU seconds this run used before cb_solve, counted in the budget (the `solve` command and
     * a campaign's child: reading the problem); default 0. */
    double cpu_spent;
    cb_budget *budget; /* set by cb_solve for the solver's setup and solve; NULL outside */
    /* Threads (OpenMP) of the run, 1 to CB_THREADS_MAX (default 1): the W products of every
     * solver and the judge, and nsgs/psor with order=coloured; every result has the same bits
     * for any count. The CPU budget counts every thread. */
    int threads;
} cb_settings;

/* The largest thread count accepted. */
#define CB_THREADS_MAX 64

/* The wall guard's default: this many times the CPU budget. */
#define CB_WALL_GUARD_FACTOR 3.0

/* 1 once the run of s is over its budget (CPU budget or wall guard; sticky). Cheap: the
 * process CPU clock is read only when the wall clock says the budget may have run out (the
 * CPU clock cannot run faster than the wall clock times the online cores). 0 when s has no
 * budget (outside cb_solve or no limit). */
int cb_time_up(const cb_settings *s);
/* 1 when the run's budget still holds `need` more CPU seconds (and the wall guard has not
 * passed); 1 without a budget. cb_time_up(s) = !cb_time_fits(s, 0). */
int cb_time_fits(const cb_settings *s, double need);

void cb_settings_default(cb_settings *s);

/* Deterministic work counters: identical for identical runs. */
typedef struct {
    long long block_products; /* d×d block × vector products (dense rows count every block;
                               * factored W: d×6 G blocks, see cb_problem_blocks_per_matvec) */
    long long projections;    /* cone projections of one contact */
    long long local_iters;    /* iterations of local (one-contact) solvers */
    long long error_evals;    /* full residual evaluations */
} cb_work;

/* A solver's name (also an external solver's name= label): 1 to CB_SOLVER_NAME_MAX of these
 * characters, safe in file names, CSV cells and campaign lines. */
#define CB_SOLVER_NAME_MAX 64
#define CB_SOLVER_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-"

/* One phase of a run: the share of one solver. A composite solver (ipm+nsn, nsn+nsgs) runs its
 * phases in order; nsn with fallback_sweeps > 0 records its nsgs safeguard as a phase of its
 * own; every other run is one phase. The phases' work counters add up to cb_info.work. */
#define CB_PHASES_MAX 4 /* beyond it, later phases are added into the last one */
typedef struct {
    char solver[CB_SOLVER_NAME_MAX + 1]; /* the phase's solver */
    int iterations; /* its own (nsgs: sweeps); cb_info.iterations sums the phases run one after
                     * the other, not a safeguard's sweeps inside its host's steps */
    cb_work work;   /* its counters */
    double time_s;  /* wall seconds of its solve */
} cb_phase;

typedef struct {
    int iteration;
    double time_s;
    double error; /* conebench's solvers: the judge's error_data; Siconos adapters: their own */
} cb_trace_point;

typedef struct {
    cb_status status;    /* the stop reason */
    int solved;          /* the judge's verdict on the final iterate (1 solved, 0 not) */
    int iterations;
    double error;        /* as judged (Siconos normalisation) */
    double error_q;      /* as judged */
    double error_data;   /* as judged: the verdict's error (judge.h) */
    double solver_error; /* the solver's own last estimate */
    double time_setup, time_solve, time_judge; /* seconds */
    cb_work work;
    double time_cpu;     /* CPU seconds counted in the budget (cpu_spent, setup and solve; a
                          * solver running a child process sets it in solve to the child's
                          * CPU seconds, cb_solve adds this process's) */
    cb_trace_point *trace; /* ntrace points when settings->trace */
    int ntrace, trace_cap;
    int nphases;         /* phases of the run, in order (at least 1 once cb_solve ran it) */
    cb_phase phases[CB_PHASES_MAX];
} cb_info;

void cb_info_free(cb_info *info); /* frees the trace, keeps the struct */

typedef struct {
    size_t n;  /* nc · d */
    double *p; /* reaction; on entry to solve: the warm start (zeros by default) */
    double *y; /* velocity y = W p + q */
} cb_solution;

int cb_solution_alloc(const cb_problem *prob, cb_solution *sol, cb_error *err);
void cb_solution_free(cb_solution *sol);

typedef struct cb_solver {
    const char *name;
    const char *summary;              /* one line */
    const cb_option_spec *options;    /* terminated by {NULL, NULL, NULL} */
    /* May this solver run on prob? (kind/storage support); CB_OK or CB_ERR_INPUT + message. */
    int (*supports)(const cb_problem *prob, cb_error *err);
    /* Validate options and allocate work. */
    int (*setup)(const cb_problem *prob, const cb_settings *s, void **work, cb_error *err);
    /* Iterate from sol->p; fill sol->p, sol->y, info->status, iterations, solver_error, work.
     * Must stop on max_iter and time_limit, and return status DIVERGED at once on NaN/inf.
     * Calls cb_info_trace() each iteration (it is a no-op when tracing is off). */
    int (*solve)(void *work, const cb_settings *s, cb_solution *sol, cb_info *info, cb_error *err);
    void (*cleanup)(void *work);
    /* Optional (NULL: the workspace sets the solver up again). Bring work, made by setup for
     * this same prob (same storage, sizes and pattern of W), up to date after prob's q, μ's or
     * W values changed (changed: CB_CHANGED_* flags; 0 after a solve with no change) so that it
     * is exactly what a fresh setup would make: a solve afterwards gives the same bits. Keeps
     * what does not depend on the change (symbolic analyses, buffers). On failure work is
     * still valid for cleanup only. */
    int (*update)(void *work, const cb_problem *prob, unsigned changed, cb_error *err);
} cb_solver;

/* What changed since work was set up or last solved (cb_solver.update). */
#define CB_CHANGED_Q 1u
#define CB_CHANGED_MU 2u
#define CB_CHANGED_W 4u

/* Registry. */
int cb_solver_count(void);
const cb_solver *cb_solver_at(int i);
const cb_solver *cb_solver_find(const char *name);
/* " (did you mean 'NAME'?)" naming the registered solver nearest to a misspelt name, or "",
 * written into buf (len bytes). */
const char *cb_solver_suggest(const char *name, char *buf, size_t len);

/* Run `solver` on prob from sol->p (warm start), then judge. Returns CB_OK when the run happened
 * (whatever its status), CB_ERR_INPUT for invalid settings/options/problem (info->status
 * bad_input) or for a problem the solver does not take (info->status unsupported, err from
 * its supports()). */
int cb_solve(const cb_solver *solver, const cb_problem *prob, const cb_settings *s,
             cb_solution *sol, cb_info *info, cb_error *err);

/* ---- Setup once, solve many (the shape of OSQP's API) ----
 *
 * cb_setup validates the solver, settings and problem (everything before allocating), copies
 * the problem and the settings (options included: the caller may free theirs at once) and
 * sets the solver up. The workspace owns its copies; cb_cleanup frees them (NULL ok).
 * The updates validate their input (CB_ERR_INPUT naming the field and the reason; the
 * workspace is then unchanged and usable) and copy it into the workspace's problem:
 *   cb_update_q   n = nc·d values of q;
 *   cb_update_mu  nc values of each of μ, μ_r, μ_s (NULL: unchanged);
 *   cb_update_W   the stored values of W in its storage, same pattern: dense n² values, BSR
 *                 nnzb·d² (the block pattern row_ptr/col is kept); refused for factored
 *                 storage (its values are G and M⁻¹: set up again);
 *   cb_update_q and cb_update_W are refused for a problem that carries its global form (q and
 *   W were condensed from it: set up again).
 * cb_update_problem takes a whole new problem (a simulator's next time step): when it has the
 *   workspace's kind, nc, storage (dense or BSR) and block pattern of W, it updates q, μ's and
 *   W as the three calls above (*setup_again = 0); otherwise (another pattern, factored
 *   storage, a global form) it sets the workspace up again for it with the same solver and
 *   settings (*setup_again = 1; the start is then zero). On an error the old workspace stays.
 * cb_warm_start sets the start of the next solve (n values; NULL: zeros). The start is zero
 * after cb_setup and becomes each solve's p when it is finite (the next solve starts from the
 * last answer unless cb_warm_start says otherwise).
 * cb_solve_ws solves from that start into sol (allocated by cb_solution_alloc for the problem;
 * sol->p on entry is ignored), then judges, exactly as cb_solve: info, status rule, trace and
 * the same bits as cb_solve on the updated problem from the same start.
 * What each solver keeps (its update): nsn its KLU symbolic analysis, its buffers and nsgs's
 * work (a dense W whose block pattern changed is analysed again); ipm its CHOLMOD symbolic
 * analysis when the pattern of S is unchanged (local form; the rest of its work is rebuilt);
 * nsgs/psor the factors of the
 * diagonal blocks W did not change; apgd/admm/pfp/eg their buffers, and the step estimates that
 * depend on W alone when W did not change; a solver without update (the compositions ipm+nsn
 * and nsn+nsgs, Siconos adapters, plugins) is set up again.
 * Errors: cb_setup returns CB_ERR_INPUT for invalid settings, options or problem, or a problem
 * the solver does not take (err from its supports()), CB_ERR_NOMEM; *ws is then NULL.
 * cb_solve_ws returns CB_ERR_INPUT for a bad solution (info->status bad_input) and CB_ERR_NOMEM
 * when bringing the work up to date ran out of memory: the start and data stay, and the next
 * solve sets the solver up afresh.
 * Time: the setup, and the bringing up to date of the work after updates (done at the next
 * solve), are counted in the next solve: its time_setup (wall seconds) and its budget
 * (time_limit counts their CPU seconds; the wall guard their wall seconds). Budgets, timing
 * fields, the verdict and the status rule hold per solve call. */
typedef struct cb_workspace cb_workspace;
int cb_setup(cb_workspace **ws, const cb_solver *solver, const cb_problem *prob,
             const cb_settings *s, cb_error *err);
int cb_update_q(cb_workspace *ws, const double *q, size_t n, cb_error *err);
int cb_update_mu(cb_workspace *ws, const double *mu, const double *mu_r, const double *mu_s,
                 size_t nc, cb_error *err);
int cb_update_W(cb_workspace *ws, const double *values, size_t nvalues, cb_error *err);
int cb_update_problem(cb_workspace **ws, const cb_problem *prob, int *setup_again,
                      cb_error *err);
int cb_warm_start(cb_workspace *ws, const double *p, size_t n, cb_error *err);
int cb_solve_ws(cb_workspace *ws, cb_solution *sol, cb_info *info, cb_error *err);
void cb_cleanup(cb_workspace *ws);
/* The workspace's problem (read-only; valid until cb_cleanup): sizes, pattern, current data. */
const cb_problem *cb_workspace_problem(const cb_workspace *ws);

/* 1 when this conebench has the Siconos adapters (siconos-nsgs, siconos-nsgs-light,
 * siconos-admm); 0 when built with make SICONOS=0 (they are then not in the registry). */
int cb_solver_built_with_siconos(void);

/* Helpers for solver implementations. */
/* Record a trace point when s->trace (time since t0). Returns CB_ERR_NOMEM on failure. */
int cb_info_trace(cb_info *info, const cb_settings *s, int iteration, double t0, double error);
/* Solver options read with the noun "option" ("option omega: ..."). */
/* Check every option key is in spec; CB_ERR_INPUT naming the bad key otherwise. */
int cb_options_check(const cb_settings *s, const cb_option_spec *spec, const char *solver,
                     cb_error *err);
/* Option value (string) or the spec default. */
const char *cb_option_get(const cb_settings *s, const cb_option_spec *spec, const char *key);
/* Parsed numeric option with range check [lo, hi]; CB_ERR_INPUT naming key otherwise. */
int cb_option_double(const cb_settings *s, const cb_option_spec *spec, const char *key,
                     double lo, double hi, double *out, cb_error *err);
int cb_option_int(const cb_settings *s, const cb_option_spec *spec, const char *key,
                  long lo, long hi, long *out, cb_error *err);

#endif
