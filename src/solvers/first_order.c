/* conebench — shared pieces of the first-order solvers (see first_order.h). */
#include "first_order.h"
#include "bsr_half.h"

#include "detmath.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/cone.h"
#include "conebench/judge.h"
#include "base.h"

#define FO_MAX_STEP 0.25 /* "solved" needs ‖p_k − p_{k−1}‖ ≤ FO_MAX_STEP ‖p_k‖ */

/* ‖p_α − P_K(p_α − ŷ_α)‖² of contact α. */
static double residual2_of(const cb_problem *prob, int a, const double *p, const double *y)
{
    cb_friction f;
    cb_problem_friction(prob, a, &f);
    size_t off = (size_t)a * prob->d;
    return cb_contact_residual2(prob->kind, &f, p + off, y + off);
}

double cb_fo_residual2(const cb_problem *prob, const double *p, const double *y,
                       double *scratch)
{
    int nc = prob->nc, threads = scratch ? cb_threads_for(nc) : 1;
    double e2 = 0.0;
    if (threads == 1) {
        for (int a = 0; a < nc; a++)
            e2 += residual2_of(prob, a, p, y);
        return e2;
    }
    CB_OMP(omp parallel for num_threads(threads) schedule(static))
    for (int a = 0; a < nc; a++)
        scratch[a] = residual2_of(prob, a, p, y);
    for (int a = 0; a < nc; a++) /* the serial loop's order: its bits */
        e2 += scratch[a];
    return e2;
}

/* e² = Σ_α ‖p_α − P_K(p_α − ŷ_α)‖², normalised as the judge does (err: its error_data). */
void cb_fo_residual_eval(const cb_problem *prob, const double *p, const double *y,
                         const cb_judge_scale *sc, cb_fo_residual *out, cb_work *cnt)
{
    double *scratch = cb_threads_for(prob->nc) > 1 /* else one thread: no scratch, same bits */
                          ? cb_malloc_array((size_t)prob->nc + 1, sizeof *scratch)
                          : NULL;
    double e2 = cb_fo_residual2(prob, p, y, scratch);
    free(scratch);
    cb_fo_residual_of(prob, p, y, sc, e2, out, cnt);
}

/* err = √e² / max(‖q‖, ‖p‖, ‖y‖) as the judge normalises it (its error_data). */
void cb_fo_residual_of(const cb_problem *prob, const double *p, const double *y,
                       const cb_judge_scale *sc, double e2, cb_fo_residual *out, cb_work *cnt)
{
    size_t n = cb_problem_n(prob);
    double sp = 0.0, sy = 0.0; /* both sums of squares in one pass, each cb_nrm2's */
    for (size_t i = 0; i < n; i++) {
        sp += p[i] * p[i];
        sy += y[i] * y[i];
    }
    out->norm_p = cb_nrm2_from(sp, p, n);
    out->norm_y = cb_nrm2_from(sy, y, n);
    double norm = fmax(sc->norm_q, fmax(out->norm_p, out->norm_y)), e = sqrt(e2);
    double err = fabs(norm) > DBL_EPSILON ? e / norm : e;
    out->err = cb_judge_error_data(sc, err, e, out->norm_p, out->norm_y);
    out->err_q = e / fmax(sc->norm_q, DBL_MIN);
    if (!isfinite(norm)) /* ‖p‖ or ‖y‖ overflows: diverged, though every entry is finite */
        out->err = out->err_q = INFINITY;
    cnt->projections += prob->nc;
    cnt->error_evals++;
}

typedef struct {
    const cb_problem *prob;
    const double *p, *y; /* project_step: p and F; modified_velocity: y */
    double rho;
    double *out;
    _Atomic int bad; /* a projection met a non-finite entry */
} fo_rows_ctx;

/* Contacts [a0, a1): F_α = ŷ_α (De Saxcé's modified velocity of y_α). */
static void modified_velocity_rows(void *ctx, int a0, int a1)
{
    fo_rows_ctx *c = ctx;
    for (int a = a0; a < a1; a++) {
        cb_friction f;
        cb_problem_friction(c->prob, a, &f);
        size_t off = (size_t)a * c->prob->d;
        cb_modified_velocity(c->prob->kind, &f, c->y + off, c->out + off);
    }
}

int cb_fo_modified_velocity(const cb_problem *prob, const double *y, double *F)
{
    fo_rows_ctx c = {prob, NULL, y, 0.0, F, 0};
    cb_parallel_rows(prob->nc, modified_velocity_rows, &c);
    return cb_all_finite(F, cb_problem_n(prob));
}

/* Contacts [a0, a1): out_α = P_K(p_α − ρ F_α). */
static void project_step_rows(void *ctx, int a0, int a1)
{
    fo_rows_ctx *c = ctx;
    int d = c->prob->d;
    for (int a = a0; a < a1; a++) {
        double z[CB_MAX_DIM];
        cb_friction f;
        cb_problem_friction(c->prob, a, &f);
        size_t off = (size_t)a * d;
        for (int i = 0; i < d; i++)
            z[i] = c->p[off + i] - c->rho * c->y[off + i];
        if (cb_project(c->prob->kind, &f, z, c->out + off) == CB_PROJ_NONFINITE)
            c->bad = 1;
    }
}

int cb_fo_project_step(const cb_problem *prob, const double *p, const double *F, double rho,
                       double *out, cb_work *cnt)
{
    fo_rows_ctx c = {prob, p, F, rho, out, 0};
    cb_parallel_rows(prob->nc, project_step_rows, &c);
    cnt->projections += prob->nc;
    return !c.bad;
}

int cb_fo_option_positive_or_auto(const cb_settings *s, const cb_option_spec *spec,
                                  const char *key, double *out, cb_error *err)
{
    *out = 0.0;
    if (strcmp(cb_option_get(s, spec, key), "auto") == 0)
        return CB_OK;
    int rc = cb_option_double(s, spec, key, 0.0, DBL_MAX, out, err);
    if (rc == CB_OK && !(*out > 0.0))
        rc = cb_fail(err, CB_ERR_INPUT, "option %s: must be > 0 or auto, got %g", key, *out);
    return rc;
}

int cb_fo_option_adaptive(const cb_settings *s, const cb_option_spec *spec, const char *key,
                          int *out, cb_error *err)
{
    const char *mode = cb_option_get(s, spec, key);
    *out = strcmp(mode, "adaptive") == 0;
    if (!*out && strcmp(mode, "fixed") != 0)
        return cb_fail(err, CB_ERR_INPUT, "option %s: '%s' is not adaptive or fixed", key, mode);
    return CB_OK;
}

int cb_fo_option_half(const cb_settings *s, const cb_option_spec *spec, size_t *min_bytes,
                      cb_error *err)
{
    const char *half = cb_option_get(s, spec, "half");
    *min_bytes = !strcmp(half, "on") ? 0 : !strcmp(half, "off") ? SIZE_MAX : CB_HALF_MIN_BYTES;
    if (strcmp(half, "on") && strcmp(half, "off") && strcmp(half, "auto"))
        return cb_fail(err, CB_ERR_INPUT, "option half: '%s' is not on, off or auto", half);
    return CB_OK;
}

int cb_fo_time_up(const cb_settings *s, double t0)
{
    (void)t0; /* the budget started with the run (cb_solve), not with this loop */
    return cb_time_up(s);
}

int cb_fo_stop_status(const cb_fo_residual *r, double step, double norm_q, const cb_settings *s,
                      int k, double t0)
{
    if (!isfinite(r->err))
        return CB_STATUS_DIVERGED;
    if (r->err <= s->tol && r->err_q <= fmin(1.0, sqrt(s->tol)) &&
        step <= FO_MAX_STEP * r->norm_p && DBL_EPSILON * fmax(r->norm_p, r->norm_y) <= norm_q)
        return CB_STATUS_CONVERGED;
    if (k >= s->max_iter)
        return CB_STATUS_MAX_ITER;
    if (cb_fo_time_up(s, t0))
        return CB_STATUS_TIME_LIMIT;
    return -1;
}

int cb_fo_supports(const cb_problem *prob, cb_error *err)
{
    if (cb_kind_dim(prob->kind) != prob->d)
        return cb_fail(err, CB_ERR_INPUT, "kind: %d has no cone", (int)prob->kind);
    return CB_OK;
}

/* scale = ‖q‖ / mean_α ‖W_αα‖∞. */
void cb_fo_drift_init(cb_fo_drift *d, const cb_problem *prob, double norm_q, double mean_diag)
{
    d->prob = prob, d->scale = mean_diag > 0 ? norm_q / mean_diag : INFINITY;
    d->err_q = INFINITY, d->norm_p = 0.0, d->norm_wp = 0.0;
}

/* ‖y − q‖ = ‖W p‖. */
static double norm_wp(const cb_problem *prob, const double *y)
{
    double s = 0.0;
    for (size_t i = 0; i < (size_t)prob->nc * prob->d; i++)
        s += (y[i] - prob->q[i]) * (y[i] - prob->q[i]);
    return sqrt(s);
}

/* Reference update and drift test (first_order.h). */
int cb_fo_drift_update(cb_fo_drift *d, const cb_fo_residual *r, const double *y)
{
    double wp = norm_wp(d->prob, y);
    if (r->err_q <= CB_FO_DRIFT_GAIN * d->err_q) {
        d->err_q = r->err_q, d->norm_p = r->norm_p, d->norm_wp = wp;
        return 1;
    }
    return r->norm_p > CB_FO_DRIFT * fmax(d->scale, d->norm_p) && wp <= CB_FO_DRIFT_WP * d->norm_wp
               ? 2
               : 0;
}
