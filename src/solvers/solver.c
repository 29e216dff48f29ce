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
    s->threads = 1;
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

/* The trace of a phase after the points so far: iterations after `iters`, times after
 * `offset` seconds; iteration 0 left out when `skip0` (it is the previous phase's last). */
int cb_info_trace_append(cb_info *info, const cb_info *pi, const cb_settings *s, int iters,
                         double offset, int skip0)
{
    for (int k = 0; k < pi->ntrace; k++) {
        const cb_trace_point *t = &pi->trace[k];
        if (skip0 && t->iteration == 0)
            continue;
        if (cb_info_trace(info, s, iters + t->iteration, 0.0, t->error) != CB_OK)
            return CB_ERR_NOMEM;
        if (s->trace)
            info->trace[info->ntrace - 1].time_s = offset + t->time_s;
    }
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
    if (s->noptions == 0)
        return CB_OK; /* nothing to check (and no message to compose) */
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

static _Atomic long analyses;

void cb_analysis_count(void) { analyses++; }

long cb_analyses(void) { return analyses; }

/* to += w, counter by counter. */
void cb_work_add(cb_work *to, const cb_work *w)
{
    to->block_products += w->block_products;
    to->projections += w->projections;
    to->local_iters += w->local_iters;
    to->error_evals += w->error_evals;
}

/* Append (or, past CB_PHASES_MAX, add to the last) the phase SOLVER with its counters. */
void cb_info_phase(cb_info *info, const char *solver, int iterations, const cb_work *work,
                   double time_s)
{
    cb_phase *ph = &info->phases[info->nphases < CB_PHASES_MAX ? info->nphases : CB_PHASES_MAX - 1];
    if (info->nphases < CB_PHASES_MAX) {
        memset(ph, 0, sizeof *ph);
        snprintf(ph->solver, sizeof ph->solver, "%s", solver);
        info->nphases++;
    }
    ph->iterations += iterations;
    cb_work_add(&ph->work, work);
    ph->time_s += time_s;
}
