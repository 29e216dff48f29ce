/* conebench — solver framework: settings, options, solutions, traces, and cb_solve (run + judge). */
#include "conebench/solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers_internal.h"
#include "base.h"
#include "kv.h"

static const char *const status_names[CB_STATUS_COUNT] = {
    "converged", "max_iter", "time_limit", "diverged", "bad_input", "stalled", "crashed",
    "unsupported"};

const char *cb_status_name(cb_status s)
{
    return (unsigned)s < sizeof status_names / sizeof *status_names ? status_names[s] : "invalid";
}

int cb_status_parse(const char *name, cb_status *out)
{
    for (unsigned i = 0; i < sizeof status_names / sizeof *status_names; i++)
        if (name && strcmp(name, status_names[i]) == 0) {
            *out = (cb_status)i;
            return CB_OK;
        }
    return CB_ERR_INPUT;
}

void cb_settings_default(cb_settings *s)
{
    memset(s, 0, sizeof *s);
    s->tol = 1e-8;
    s->max_iter = 10000;
    s->time_limit = 60.0;
    s->trace = 0;
}

void cb_info_free(cb_info *info)
{
    if (!info)
        return;
    free(info->trace);
    info->trace = NULL;
    info->ntrace = info->trace_cap = 0;
}

int cb_solution_alloc(const cb_problem *prob, cb_solution *sol, cb_error *err)
{
    sol->n = cb_problem_n(prob);
    sol->p = cb_calloc(sol->n, sizeof(double));
    sol->y = cb_calloc(sol->n, sizeof(double));
    if (!sol->p || !sol->y) {
        cb_solution_free(sol);
        return cb_fail(err, CB_ERR_NOMEM, "solution: out of memory (n = %zu)", sol->n);
    }
    return CB_OK;
}

void cb_solution_free(cb_solution *sol)
{
    if (!sol)
        return;
    free(sol->p);
    free(sol->y);
    sol->p = sol->y = NULL;
}

int cb_info_trace(cb_info *info, const cb_settings *s, int iteration, double t0, double error)
{
    if (!s->trace)
        return CB_OK;
    if (info->ntrace == info->trace_cap) {
        int cap = info->trace_cap ? 2 * info->trace_cap : 256;
        cb_trace_point *t = realloc(info->trace, (size_t)cap * sizeof *t);
        if (!t)
            return CB_ERR_NOMEM;
        info->trace = t;
        info->trace_cap = cap;
    }
    cb_trace_point *pt = &info->trace[info->ntrace++];
    pt->iteration = iteration;
    pt->time_s = cb_now() - t0;
    pt->error = error;
    return CB_OK;
}

/* The options of s read against spec, in the words of a solver ("option K: ..."). */
static cb_kv_view option_view(const cb_settings *s, const cb_option_spec *spec)
{
    return (cb_kv_view){s->options, s->noptions, spec, "option"};
}

int cb_options_check(const cb_settings *s, const cb_option_spec *spec, const char *solver,
                     cb_error *err)
{
    char owner[256];
    snprintf(owner, sizeof owner, "an option of solver %s", solver ? solver : "?");
    cb_kv_view v = option_view(s, spec);
    return cb_kv_check(&v, owner, err);
}

const char *cb_option_get(const cb_settings *s, const cb_option_spec *spec, const char *key)
{
    cb_kv_view v = option_view(s, spec);
    return cb_kv_get(&v, key);
}

int cb_option_double(const cb_settings *s, const cb_option_spec *spec, const char *key,
                     double lo, double hi, double *out, cb_error *err)
{
    cb_kv_view v = option_view(s, spec);
    return cb_kv_double(&v, key, lo, hi, out, err);
}

int cb_option_int(const cb_settings *s, const cb_option_spec *spec, const char *key, long lo,
                  long hi, long *out, cb_error *err)
{
    cb_kv_view v = option_view(s, spec);
    return cb_kv_long(&v, key, lo, hi, out, err);
}

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
    if (s->noptions < 0 || (s->noptions > 0 && !s->options))
        return cb_fail(err, CB_ERR_INPUT, "options: inconsistent count %d", s->noptions);
    return CB_OK;
}

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

/* setup and solve under the budget of s (spent before the setup: no setup; spent by it: no
 * solve; then time_limit and p stays the warm start). A problem without contacts (nc = 0) is
 * solved by the empty p at once, whatever the solver: none is called. */
static int budgeted_run(const cb_solver *solver, const cb_problem *prob, const cb_settings *s,
                        cb_solution *sol, cb_info *info, cb_error *err)
{
    if (prob->nc == 0) {
        info->status = CB_STATUS_CONVERGED;
        return CB_OK;
    }
    cb_budget budget;
    cb_settings run = *s;
    run.budget = &budget;
    cb_budget_start(&budget, s);
    void *work = NULL;
    double t0 = cb_now();
    int rc = cb_time_up(&run) ? CB_OK : solver->setup(prob, &run, &work, err); /* spent: none */
    info->time_setup = cb_now() - t0;
    int set_up = rc == CB_OK && work; /* a failed setup freed its own work */
    if (rc == CB_OK && cb_time_up(&run)) {
        info->status = CB_STATUS_TIME_LIMIT; /* p keeps the warm start */
        info->solver_error = NAN;
    } else if (rc == CB_OK) {
        t0 = cb_now();
        rc = solver->solve(work, &run, sol, info, err);
        info->time_solve = cb_now() - t0;
    }
    if (set_up)
        solver->cleanup(work);
    info->time_cpu = cb_budget_used(&budget);
    return rc;
}

/* The run (budgeted_run), then the judge and the status rule (final_status). */
static int run_judged(const cb_solver *solver, const cb_problem *prob, const cb_settings *s,
                      cb_solution *sol, cb_info *info, cb_error *err)
{
    int rc = budgeted_run(solver, prob, s, sol, info, err);
    if (rc != CB_OK)
        return rc;
    if (info->nphases == 0) /* a solver of one phase: the whole run */
        cb_info_phase(info, solver->name, info->iterations, &info->work, info->time_solve);
    double t0 = cb_now();
    cb_judgement j;
    rc = cb_judge(prob, sol->p, s->tol, sol->y, &j, err);
    info->time_judge = cb_now() - t0;
    if (rc == CB_OK)
        final_status(info, &j, s);
    if (rc == CB_OK && s->trace && info->ntrace == 0 && /* solvers that cannot trace: last point */
        cb_info_trace(info, s, info->iterations, cb_now() - info->time_solve, info->error_data) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "trace: out of memory");
    return rc;
}

int cb_solve(const cb_solver *solver, const cb_problem *prob, const cb_settings *s,
             cb_solution *sol, cb_info *info, cb_error *err)
{
    memset(info, 0, sizeof *info);
    info->status = CB_STATUS_BAD_INPUT;
    if (!solver || !prob || !s || !sol || !sol->p || !sol->y)
        return cb_fail(err, CB_ERR_INPUT, "solve: NULL argument");
    int rc = check_settings(s, err);
    if (rc == CB_OK)
        rc = cb_problem_check(prob, err);
    if (rc == CB_OK && sol->n != cb_problem_n(prob))
        rc = cb_fail(err, CB_ERR_INPUT, "solution: size %zu, problem needs %zu", sol->n,
                     cb_problem_n(prob));
    if (rc == CB_OK && !cb_all_finite(sol->p, sol->n))
        rc = cb_fail(err, CB_ERR_INPUT, "warm start: p has a non-finite entry");
    if (rc != CB_OK)
        return rc;
    if (solver->supports && (rc = solver->supports(prob, err)) != CB_OK) {
        info->status = CB_STATUS_UNSUPPORTED; /* not bad input: this solver does not take it */
        return rc;
    }
    double *p0 = s->trace ? cb_malloc_array(sol->n, sizeof *p0) : NULL; /* for iteration 0 */
    if (s->trace && !p0)
        return cb_fail(err, CB_ERR_NOMEM, "trace: out of memory (n = %zu)", sol->n);
    if (p0)
        memcpy(p0, sol->p, sol->n * sizeof *p0);
    rc = run_judged(solver, prob, s, sol, info, err);
    if (rc == CB_OK)
        rc = trace_from_zero(info, s, prob, p0, err);
    free(p0);
    return rc;
}

