/* conebench — the workspace of a solver (solver.h: setup once, solve many) and cb_solve, which is
 * setup + solve + cleanup through the same code. One solve: the work brought up to date (setup
 * or the solver's update after changes), the solver run under the budget, then the judge and
 * the status rule. */
#include "conebench/solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solvers_internal.h"
#include "base.h"

struct cb_workspace {
    const cb_solver *solver;
    const cb_problem *prob; /* own (cb_setup) or the caller's (cb_solve) */
    cb_problem *own;        /* the copy cb_setup made (NULL in cb_solve) */
    cb_settings set;        /* a copy; set.options points into opts */
    cb_option *opts;        /* own copies of the options (keys and values in strs) */
    char **strs;
    double *start;          /* n: the next solve's start (cb_warm_start) */
    void *work;             /* the solver's work (NULL: none yet, or nc = 0) */
    int need_setup;         /* no valid work: set up at the next solve (nc > 0) */
    int skipped;            /* cb_solve only: the budget was spent before the setup */
    unsigned changed;       /* CB_CHANGED_* since the work was made or last solved */
    int used;               /* the work has been solved with since it was made or updated */
    double pend_wall, pend_cpu; /* setup/update time not yet charged to a solve */
};

static int check_settings(const cb_settings *s, cb_error *err)
{
    if (!(s->tol > 0) || !isfinite(s->tol))
        return cb_fail(err, CB_ERR_INPUT, "tol: must be finite and > 0, got %g", s->tol);
    if (s->max_iter < 1)
        return cb_fail(err, CB_ERR_INPUT, "max_iter: must be ≥ 1, got %d", s->max_iter);
    if (!(s->time_limit >= 0 && s->time_limit <= CB_TIME_LIMIT_MAX))
        return cb_fail(err, CB_ERR_INPUT, "time_limit: must be 0 (none) or in (0, %.0f] s, got %g",
                       CB_TIME_LIMIT_MAX, s->time_limit);
    if (isnan(s->wall_limit) || !(s->cpu_spent >= 0) || !isfinite(s->cpu_spent))
        return cb_fail(err, CB_ERR_INPUT, "wall_limit or cpu_spent: NaN or negative");
    if (s->threads < 1 || s->threads > CB_THREADS_MAX)
        return cb_fail(err, CB_ERR_INPUT, "threads: must be in [1, %d], got %d", CB_THREADS_MAX,
                       s->threads);
    if (s->noptions < 0 || (s->noptions > 0 && !s->options))
        return cb_fail(err, CB_ERR_INPUT, "options: inconsistent count %d", s->noptions);
    return CB_OK;
}

/* Settings, problem and solver support, checked before anything is allocated. *unsupported = 1
 * when only the solver's supports() refused. */
static int check_inputs(const cb_solver *solver, const cb_problem *prob, const cb_settings *s,
                        int *unsupported, cb_error *err)
{
    *unsupported = 0;
    if (!solver || !prob || !s)
        return cb_fail(err, CB_ERR_INPUT, "setup: NULL %s", !solver ? "solver"
                                                            : !prob ? "problem" : "settings");
    int rc = check_settings(s, err);
    if (rc == CB_OK)
        rc = cb_problem_check(prob, err);
    if (rc == CB_OK && solver->supports && (rc = solver->supports(prob, err)) != CB_OK)
        *unsupported = 1; /* not bad input: this solver does not take it */
    return rc;
}

void cb_cleanup(cb_workspace *ws)
{
    if (!ws)
        return;
    if (ws->work)
        ws->solver->cleanup(ws->work);
    for (int k = 0; ws->strs && k < 2 * ws->set.noptions; k++)
        free(ws->strs[k]);
    free(ws->strs);
    free(ws->opts);
    free(ws->start);
    cb_problem_free(ws->own);
    free(ws);
}

/* ws->set = *s with the options copied (the caller may free theirs). */
static int copy_settings(cb_workspace *ws, const cb_settings *s)
{
    ws->set = *s;
    ws->set.budget = NULL;
    ws->set.options = NULL;
    int n = s->noptions;
    ws->set.noptions = 0;
    if (n == 0)
        return CB_OK;
    ws->opts = cb_calloc((size_t)n, sizeof *ws->opts);
    ws->strs = cb_calloc(2 * (size_t)n, sizeof *ws->strs);
    if (!ws->opts || !ws->strs)
        return CB_ERR_NOMEM;
    ws->set.noptions = n;
    ws->set.options = ws->opts;
    for (int k = 0; k < n; k++) {
        const char *key = s->options[k].key, *value = s->options[k].value;
        ws->strs[2 * k] = key ? cb_strdup(key) : NULL;
        ws->strs[2 * k + 1] = value ? cb_strdup(value) : NULL;
        if ((key && !ws->strs[2 * k]) || (value && !ws->strs[2 * k + 1]))
            return CB_ERR_NOMEM;
        ws->opts[k] = (cb_option){ws->strs[2 * k], ws->strs[2 * k + 1]};
    }
    return CB_OK;
}

/* Run the solver's setup (or its update, or cleanup + setup without one) under a budget of the
 * workspace's settings; its CPU and wall seconds are charged to the next solve. A failed setup
 * or update leaves no work (the next solve sets up afresh). */
static int bring_up_to_date(cb_workspace *ws, cb_error *err)
{
    if (ws->prob->nc == 0 || (!ws->need_setup && !ws->used && !ws->changed))
        return CB_OK;
    cb_budget budget;
    cb_settings run = ws->set; /* the budget of the solve this work is for, as far as spent */
    run.budget = &budget;
    run.cpu_spent = ws->set.cpu_spent + ws->pend_cpu;
    cb_budget_start(&budget, &run);
    budget.wall_end -= ws->pend_wall;
    double t0 = cb_now();
    int rc;
    if (!ws->need_setup && ws->solver->update) {
        rc = ws->solver->update(ws->work, ws->prob, ws->changed, err);
    } else {
        if (ws->work)
            ws->solver->cleanup(ws->work);
        ws->work = NULL;
        rc = ws->solver->setup(ws->prob, &run, &ws->work, err);
    }
    if (rc != CB_OK && ws->work) {
        ws->solver->cleanup(ws->work);
        ws->work = NULL;
    }
    ws->need_setup = rc != CB_OK || !ws->work;
    ws->changed = 0;
    ws->used = 0;
    ws->pend_wall += cb_now() - t0;
    ws->pend_cpu = cb_budget_used(&budget) - ws->set.cpu_spent;
    return rc;
}

/* A workspace on prob (copied when copy, else borrowed) with the settings copied; the solver's
 * work is made by the first bring_up_to_date. */
static int ws_new(cb_workspace **out, const cb_solver *solver, const cb_problem *prob,
                  const cb_settings *s, int copy, cb_error *err)
{
    cb_workspace *ws = cb_calloc(1, sizeof *ws);
    int rc = ws ? CB_OK : CB_ERR_NOMEM;
    size_t n = cb_problem_n(prob);
    if (rc == CB_OK) {
        ws->solver = solver, ws->prob = prob, ws->need_setup = 1;
        rc = copy_settings(ws, s);
    }
    if (rc == CB_OK && !(ws->start = cb_calloc(n ? n : 1, sizeof *ws->start)))
        rc = CB_ERR_NOMEM;
    if (rc == CB_OK && copy) {
        rc = cb_problem_copy(prob, &ws->own, err);
        ws->prob = ws->own;
    }
    if (rc != CB_OK) {
        cb_cleanup(ws);
        *out = NULL;
        return rc == CB_ERR_NOMEM ? cb_fail(err, rc, "setup: out of memory (n = %zu)", n) : rc;
    }
    *out = ws;
    return CB_OK;
}

int cb_setup(cb_workspace **ws, const cb_solver *solver, const cb_problem *prob,
             const cb_settings *s, cb_error *err)
{
    int unsupported;
    if (!ws)
        return cb_fail(err, CB_ERR_INPUT, "setup: NULL workspace pointer");
    *ws = NULL;
    int rc = check_inputs(solver, prob, s, &unsupported, err);
    if (rc == CB_OK)
        rc = ws_new(ws, solver, prob, s, 1, err);
    if (rc == CB_OK && (rc = bring_up_to_date(*ws, err)) != CB_OK) {
        cb_cleanup(*ws);
        *ws = NULL;
    }
    return rc;
}

const cb_problem *cb_workspace_problem(const cb_workspace *ws) { return ws ? ws->prob : NULL; }

/* ---------------------------------------------------------------- updates */

/* Every entry of x (n) finite, and ≥ 0 when nonneg; else CB_ERR_INPUT naming field and entry. */
static int check_values(const double *x, size_t n, int nonneg, const char *field, cb_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || (nonneg && x[i] < 0))
            return cb_fail(err, CB_ERR_INPUT, "%s: entry %zu is %g, must be finite%s", field, i,
                           x[i], nonneg ? " and ≥ 0" : "");
    return CB_OK;
}

static int update_args(const cb_workspace *ws, const void *x, const char *field, size_t got,
                       size_t want, cb_error *err)
{
    if (!ws)
        return cb_fail(err, CB_ERR_INPUT, "%s: NULL workspace", field);
    if (!x)
        return cb_fail(err, CB_ERR_INPUT, "%s: NULL values", field);
    if (got != want)
        return cb_fail(err, CB_ERR_INPUT, "%s: %zu values, the problem has %zu", field, got,
                       want);
    return CB_OK;
}

/* q and W were condensed from the global form: changing one alone would contradict it. */
static int no_global(const cb_workspace *ws, const char *field, cb_error *err)
{
    return ws->prob->global
               ? cb_fail(err, CB_ERR_INPUT, "%s: the problem carries the global form it was "
                         "condensed from (M, H, f, w); set up again with a new problem", field)
               : CB_OK;
}

int cb_update_q(cb_workspace *ws, const double *q, size_t n, cb_error *err)
{
    int rc = update_args(ws, q, "q", n, ws ? cb_problem_n(ws->prob) : 0, err);
    if (rc == CB_OK)
        rc = no_global(ws, "q", err);
    if (rc == CB_OK)
        rc = check_values(q, n, 0, "q", err);
    if (rc != CB_OK)
        return rc;
    memcpy(ws->own->q, q, n * sizeof *q);
    ws->changed |= CB_CHANGED_Q;
    return CB_OK;
}

int cb_update_mu(cb_workspace *ws, const double *mu, const double *mu_r, const double *mu_s,
                 size_t nc, cb_error *err)
{
    const double *any = mu ? mu : mu_r ? mu_r : mu_s;
    int rc = update_args(ws, any, "mu", nc, ws ? (size_t)ws->prob->nc : 0, err);
    const double *in[3] = {mu, mu_r, mu_s};
    static const char *const names[3] = {"mu", "mu_r", "mu_s"};
    for (int k = 0; k < 3 && rc == CB_OK; k++)
        if (in[k])
            rc = check_values(in[k], nc, 1, names[k], err);
    if (rc != CB_OK)
        return rc;
    double *own[3] = {ws->own->mu, ws->own->mu_r, ws->own->mu_s};
    for (int k = 0; k < 3; k++)
        if (in[k] && nc)
            memcpy(own[k], in[k], nc * sizeof *own[k]);
    ws->changed |= CB_CHANGED_MU;
    return CB_OK;
}

/* Number of stored values of W (dense n², BSR nnzb·d²); 0 for factored storage. */
static size_t w_values(const cb_problem *prob)
{
    size_t n = cb_problem_n(prob);
    if (prob->storage == CB_STORAGE_DENSE)
        return n * n;
    if (prob->storage == CB_STORAGE_BSR)
        return (size_t)prob->bsr.nnzb * (size_t)prob->d * (size_t)prob->d;
    return 0;
}

int cb_update_W(cb_workspace *ws, const double *values, size_t nvalues, cb_error *err)
{
    if (ws && ws->prob->storage == CB_STORAGE_FACTORED)
        return cb_fail(err, CB_ERR_INPUT, "W: factored storage keeps W as G and M⁻¹, not as "
                       "values; set up again with a new problem");
    int rc = update_args(ws, values, "W", nvalues, ws ? w_values(ws->prob) : 0, err);
    if (rc == CB_OK)
        rc = no_global(ws, "W", err);
    if (rc == CB_OK)
        rc = check_values(values, nvalues, 0, "W", err);
    if (rc != CB_OK)
        return rc;
    double *dst = ws->prob->storage == CB_STORAGE_DENSE ? ws->own->W : ws->own->bsr.val;
    if (nvalues)
        memcpy(dst, values, nvalues * sizeof *dst);
    ws->changed |= CB_CHANGED_W;
    return CB_OK;
}

/* 1 when b can replace a's data in a workspace: same kind, nc, storage (dense or BSR) and block
 * pattern of W, neither carrying a global form. */
static int same_pattern(const cb_problem *a, const cb_problem *b)
{
    if (a->kind != b->kind || a->nc != b->nc || a->storage != b->storage || a->global ||
        b->global)
        return 0;
    if (a->storage == CB_STORAGE_DENSE)
        return 1;
    return a->storage == CB_STORAGE_BSR && a->bsr.nnzb == b->bsr.nnzb &&
           !memcmp(a->bsr.row_ptr, b->bsr.row_ptr, ((size_t)a->nc + 1) * sizeof(int)) &&
           !memcmp(a->bsr.col, b->bsr.col, (size_t)a->bsr.nnzb * sizeof(int));
}

/* prob's q, μ and W values into ws (prob has ws's pattern: same_pattern). */
static int update_values(cb_workspace *ws, const cb_problem *prob, cb_error *err)
{
    size_t n = cb_problem_n(prob), nc = (size_t)prob->nc;
    int rc = cb_update_q(ws, prob->q, n, err);
    if (rc == CB_OK)
        rc = cb_update_mu(ws, prob->mu, prob->mu_r, prob->mu_s, nc, err);
    if (rc == CB_OK)
        rc = cb_update_W(ws, prob->storage == CB_STORAGE_DENSE ? prob->W : prob->bsr.val,
                         w_values(prob), err);
    return rc;
}

int cb_update_problem(cb_workspace **ws, const cb_problem *prob, int *setup_again,
                      cb_error *err)
{
    cb_workspace *fresh = NULL;
    int again = 0, rc = !ws || !*ws || !prob
                            ? cb_fail(err, CB_ERR_INPUT, "update: NULL %s", !prob ? "problem"
                                                                                  : "workspace")
                            : CB_OK;
    const cb_problem *old = rc == CB_OK ? (*ws)->prob : NULL;
    if (rc == CB_OK && same_pattern(old, prob)) {
        rc = update_values(*ws, prob, err);
    } else if (rc == CB_OK) {
        again = 1;
        rc = cb_setup(&fresh, (*ws)->solver, prob, &(*ws)->set, err);
        if (rc == CB_OK) {
            cb_cleanup(*ws);
            *ws = fresh;
        }
    }
    if (setup_again)
        *setup_again = again;
    return rc;
}

/* cb_setup on prob itself, no copy: the workspace owns prob from here (even on failure). */
static int setup_taking(cb_workspace **ws, const cb_solver *solver, cb_problem *prob,
                        const cb_settings *s, cb_error *err)
{
    int unsupported;
    int rc = check_inputs(solver, prob, s, &unsupported, err);
    if (rc == CB_OK)
        rc = ws_new(ws, solver, prob, s, 0, err);
    if (rc != CB_OK) {
        cb_problem_free(prob);
        return rc;
    }
    (*ws)->own = prob;
    if ((rc = bring_up_to_date(*ws, err)) != CB_OK) {
        cb_cleanup(*ws);
        *ws = NULL;
    }
    return rc;
}

int cb_workspace_take(cb_workspace **ws, const cb_solver *solver, cb_problem **prob,
                      const cb_settings *s, cb_error *err)
{
    if (!ws || !prob || !*prob)
        return cb_fail(err, CB_ERR_INPUT, "take: NULL %s", !ws ? "workspace pointer" : "problem");
    cb_problem *mine = *prob;
    *prob = NULL;
    if (*ws && same_pattern((*ws)->prob, mine)) {
        int rc = update_values(*ws, mine, err);
        cb_problem_free(mine);
        return rc;
    }
    cb_cleanup(*ws); /* before the new work: the old problem and the new one, never three */
    *ws = NULL;
    return setup_taking(ws, solver, mine, s, err);
}

int cb_warm_start(cb_workspace *ws, const double *p, size_t n, cb_error *err)
{
    if (!ws)
        return cb_fail(err, CB_ERR_INPUT, "warm start: NULL workspace");
    size_t want = cb_problem_n(ws->prob);
    if (!p) {
        memset(ws->start, 0, want * sizeof *ws->start);
        return CB_OK;
    }
    if (n != want)
        return cb_fail(err, CB_ERR_INPUT, "warm start: %zu values, the problem has %zu", n, want);
    if (!cb_all_finite(p, n))
        return cb_fail(err, CB_ERR_INPUT, "warm start: p has a non-finite entry");
    memcpy(ws->start, p, n * sizeof *p);
    return CB_OK;
}

/* ---------------------------------------------------------------- one solve */

/* The status rule, one for every solver (ours, Siconos', a user's), applied after the run.
 * The verdict (info->solved) is the judge's alone. The stop reason stays the solver's except:
 *  1. a run that used more than its budget (CPU seconds of setup and solve, cpu_spent
 *     included) is time_limit, whatever it returned (Siconos cannot be interrupted; a late
 *     answer is late for any solver); a run within its budget keeps its own stop reason,
 *     whatever the wall clock (time_limit then only when the solver stopped at the wall guard);
 *  2. a non-finite final iterate is diverged. */
static void final_status(cb_info *info, const cb_judgement *j, const cb_settings *s)
{
    info->error = j->error;
    info->error_q = j->error_q;
    info->error_data = j->error_data;
    info->solved = j->solved;
    if (s->time_limit > 0 && info->time_cpu > s->time_limit)
        info->status = CB_STATUS_TIME_LIMIT;
    else if (!j->finite)
        info->status = CB_STATUS_DIVERGED;
}

/* The trace starts at iteration 0 whatever the solver records: (0, 0 s, judged error of the
 * warm start p0) goes first when the solver's first point is later (or it recorded none); p0 is
 * judged only then (most solvers record iteration 0 themselves). */
static int trace_from_zero(cb_info *info, const cb_settings *s, const cb_problem *prob,
                           const double *p0, cb_error *err)
{
    cb_judgement j0;
    if (!s->trace || (info->ntrace > 0 && info->trace[0].iteration <= 0))
        return CB_OK;
    int rc = cb_judge(prob, p0, s->tol, NULL, &j0, err);
    if (rc == CB_OK && cb_info_trace(info, s, 0, cb_now(), j0.error_data) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "trace: out of memory");
    if (rc != CB_OK)
        return rc;
    cb_trace_point first = {0, 0.0, j0.error_data};
    memmove(info->trace + 1, info->trace, (size_t)(info->ntrace - 1) * sizeof *info->trace);
    info->trace[0] = first;
    return CB_OK;
}

/* The solve under the budget of the workspace's settings, which also counts the setup/update
 * time charged to it (spent by then: no solve; time_limit and p stays the start). A problem
 * without contacts (nc = 0) is solved by the empty p at once, whatever the solver. */
static int budgeted_solve(cb_workspace *ws, cb_solution *sol, cb_info *info, cb_error *err)
{
    if (ws->prob->nc == 0) {
        info->status = CB_STATUS_CONVERGED;
        return CB_OK;
    }
    cb_budget budget;
    cb_settings run = ws->set;
    run.budget = &budget;
    run.cpu_spent = ws->set.cpu_spent + ws->pend_cpu;
    cb_budget_start(&budget, &run);
    budget.wall_end -= ws->pend_wall; /* the guard runs from the setup's start */
    info->time_setup = ws->pend_wall;
    ws->pend_wall = ws->pend_cpu = 0;
    int rc = CB_OK;
    if (ws->skipped || cb_time_up(&run)) {
        info->status = CB_STATUS_TIME_LIMIT; /* p keeps the start */
        info->solver_error = NAN;
    } else {
        double t0 = cb_now();
        rc = ws->solver->solve(ws->work, &run, sol, info, err);
        info->time_solve = cb_now() - t0;
        ws->used = 1;
    }
    info->time_cpu += cb_budget_used(&budget); /* + what solve's children spent (solver.h) */
    return rc;
}

/* The solve (budgeted_solve), then the judge and the status rule (final_status). */
static int solve_judged(cb_workspace *ws, cb_solution *sol, cb_info *info, cb_error *err)
{
    const cb_settings *s = &ws->set;
    int rc = budgeted_solve(ws, sol, info, err);
    if (rc != CB_OK)
        return rc;
    if (info->nphases == 0) /* a solver of one phase: the whole run */
        cb_info_phase(info, ws->solver->name, info->iterations, &info->work, info->time_solve);
    double t0 = cb_now();
    cb_judgement j;
    rc = cb_judge(ws->prob, sol->p, s->tol, sol->y, &j, err);
    info->time_judge = cb_now() - t0;
    if (rc == CB_OK)
        final_status(info, &j, s);
    if (rc == CB_OK && s->trace && info->ntrace == 0 && /* solvers that cannot trace: last point */
        cb_info_trace(info, s, info->iterations, cb_now() - info->time_solve, info->error_data) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "trace: out of memory");
    return rc;
}

/* One solve from sol->p: the work brought up to date, solved, judged; the trace from 0. */
static int ws_run(cb_workspace *ws, cb_solution *sol, cb_info *info, cb_error *err)
{
    double *p0 = ws->set.trace ? cb_malloc_array(sol->n ? sol->n : 1, sizeof *p0) : NULL;
    if (ws->set.trace && !p0)
        return cb_fail(err, CB_ERR_NOMEM, "trace: out of memory (n = %zu)", sol->n);
    if (p0 && sol->n)
        memcpy(p0, sol->p, sol->n * sizeof *p0);
    int threads = cb_threads_set(ws->set.threads); /* the run's; the caller's after it */
    int rc = ws->skipped ? CB_OK : bring_up_to_date(ws, err);
    if (rc == CB_OK)
        rc = solve_judged(ws, sol, info, err);
    cb_threads_set(threads);
    if (rc == CB_OK)
        rc = trace_from_zero(info, &ws->set, ws->prob, p0, err);
    free(p0);
    return rc;
}

/* info zeroed with status bad_input, and the solution checked against the problem. */
static int check_solution(const cb_problem *prob, const cb_solution *sol, cb_info *info,
                          cb_error *err)
{
    memset(info, 0, sizeof *info);
    info->status = CB_STATUS_BAD_INPUT;
    if (!sol || !sol->p || !sol->y)
        return cb_fail(err, CB_ERR_INPUT, "solution: NULL");
    if (sol->n != cb_problem_n(prob))
        return cb_fail(err, CB_ERR_INPUT, "solution: size %zu, problem needs %zu", sol->n,
                       cb_problem_n(prob));
    return CB_OK;
}

int cb_solve_ws(cb_workspace *ws, cb_solution *sol, cb_info *info, cb_error *err)
{
    if (!ws || !info) {
        if (info)
            memset(info, 0, sizeof *info), info->status = CB_STATUS_BAD_INPUT;
        return cb_fail(err, CB_ERR_INPUT, "solve: NULL %s", !ws ? "workspace" : "info");
    }
    int rc = check_solution(ws->prob, sol, info, err);
    if (rc != CB_OK)
        return rc;
    if (sol->n)
        memcpy(sol->p, ws->start, sol->n * sizeof *sol->p);
    rc = ws_run(ws, sol, info, err);
    if (rc == CB_OK && sol->n && cb_all_finite(sol->p, sol->n))
        memcpy(ws->start, sol->p, sol->n * sizeof *sol->p);
    return rc;
}

int cb_solve(const cb_solver *solver, const cb_problem *prob, const cb_settings *s,
             cb_solution *sol, cb_info *info, cb_error *err)
{
    if (!info)
        return cb_fail(err, CB_ERR_INPUT, "solve: NULL argument");
    memset(info, 0, sizeof *info);
    info->status = CB_STATUS_BAD_INPUT;
    if (!solver || !prob || !s || !sol || !sol->p || !sol->y)
        return cb_fail(err, CB_ERR_INPUT, "solve: NULL argument");
    int unsupported;
    int rc = check_inputs(solver, prob, s, &unsupported, err);
    if (rc == CB_OK && sol->n != cb_problem_n(prob))
        rc = cb_fail(err, CB_ERR_INPUT, "solution: size %zu, problem needs %zu", sol->n,
                     cb_problem_n(prob));
    if (rc == CB_OK && !cb_all_finite(sol->p, sol->n))
        rc = cb_fail(err, CB_ERR_INPUT, "warm start: p has a non-finite entry");
    if (unsupported)
        info->status = CB_STATUS_UNSUPPORTED;
    cb_workspace *ws = NULL;
    if (rc == CB_OK)
        rc = ws_new(&ws, solver, prob, s, 0, err); /* borrows prob: nothing copied */
    if (rc == CB_OK && s->cpu_spent > 0) {
        cb_settings probe = *s; /* spent before the setup: no setup (time_limit, p unchanged); */
        cb_budget b;            /* only cpu_spent can have used a budget up before the run */
        probe.budget = &b;
        cb_budget_start(&b, &probe);
        ws->skipped = cb_time_up(&probe);
    }
    if (rc == CB_OK)
        rc = ws_run(ws, sol, info, err);
    cb_cleanup(ws);
    return rc;
}
