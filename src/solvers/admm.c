/* conebench — `admm`: alternating direction method of multipliers for the cone complementarity
 * problem with the De Saxcé shift (after Acary, Brémond & Huber 2018, and Siconos's
 * fc3d_admm), matrix-free: the linear step is solved by BiCGSTAB through the problem.h kernels,
 * so dense, BSR and factored W behave alike and W need not be symmetric.
 *
 *   (W + ρI) p_{k+1} = ρ (z_k − u_k) − q − s_k              (inexact: BiCGSTAB from p_k)
 *   z_{k+1} = P_K(p_{k+1} + u_k),   u_{k+1} = u_k + p_{k+1} − z_{k+1}
 *   s_{k+1} = g(W p_{k+1} + q)  (the shift ŷ − y at the linear-step iterate: taken at z
 *                                instead, the iteration stalls near 1e-2 on singular W)
 *   ρ: residual balancing — r = ‖p − z‖, d = ρ‖z_{k+1} − z_k‖; ρ ← 2ρ (u ← u/2) when r > 10 d,
 *   ρ ← ρ/2 (u ← 2u) when d > 10 r.
 *
 * The iterate is z (always in K); the stopping test is the judge's natural-map residual at z
 * (first_order.c, with the settle and resolvability guards). The inner tolerance follows the
 * outer error: ‖r_inner‖ ≤ min(0.1, err) ‖b‖, at most inner_max BiCGSTAB steps. With
 * linear=direct the step is exact: W + ρI factored by sparse LU (admm_direct.c) once and again
 * only when ρ changes, one pair of triangular solves an iteration (BiCGSTAB when it fails), and
 * the shift's W p + q read off the same equation: b − ρp + q, one W product an iteration.
 */
#include "first_order.h"
#include "admm_internal.h"
#include "solvers_internal.h"

#include "detmath.h"
#include "base.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AD_NVEC 14 /* vectors of n in the work */

typedef struct {
    double rho0;    /* ≤ 0: auto */
    int adaptive;   /* residual balancing on/off */
    long inner_max; /* BiCGSTAB steps per iteration */
    int direct;     /* linear=direct: sparse LU of W + ρI */
} ad_params;

typedef struct {
    const cb_problem *prob;
    size_t n;
    ad_params par;
    int rho_auto;         /* rho = auto: par.rho0 is estimated from W (auto_rho) */
    cb_judge_scale scale; /* the judge's data scales */
    double *p, *z, *z0, *u, *s, *y, *F, *b;      /* iterates, shift, velocity, rhs */
    double *r, *rh, *v, *pv, *sv, *t;           /* BiCGSTAB */
    double *buf;
    cb_admm_direct *dir; /* linear=direct: the factors of W + ρI, else NULL */
} ad_work;

typedef struct {
    ad_work *w;
    const cb_settings *s;
    cb_info *info;
    double t0, rho, step;
    cb_fo_residual res;
} ad_run;

static const cb_option_spec ad_options[] = {
    {"rho", "auto", "initial penalty rho > 0; auto = ‖W 1‖/‖1‖ (a scale of W)"},
    {"rho_mode", "adaptive", "adaptive (residual balancing, factor 2 at ratio 10) | fixed"},
    {"inner_max", "50", "BiCGSTAB steps per iteration for (W + rho I) p = b (>= 1)"},
    {"linear", "bicgstab", "the linear step: bicgstab (matrix-free, inexact) | direct (sparse LU "
                           "of W + rho I, refactored when rho changes)"},
    {NULL, NULL, NULL}};

/* ---------------------------------------------------------------- options and setup */

static int read_params(const cb_settings *s, ad_params *par, cb_error *err)
{
    int rc = cb_options_check(s, ad_options, "admm", err);
    if (rc != CB_OK)
        return rc;
    if (rc == CB_OK)
        rc = cb_fo_option_positive_or_auto(s, ad_options, "rho", &par->rho0, err);
    if (rc == CB_OK)
        rc = cb_fo_option_adaptive(s, ad_options, "rho_mode", &par->adaptive, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, ad_options, "inner_max", 1, 100000, &par->inner_max, err);
    const char *lin = cb_option_get(s, ad_options, "linear");
    par->direct = lin && strcmp(lin, "direct") == 0;
    if (rc == CB_OK && !par->direct && !(lin && strcmp(lin, "bicgstab") == 0))
        rc = cb_fail(err, CB_ERR_INPUT, "option linear: '%s' is not one of bicgstab | direct",
                     lin ? lin : "");
    return rc;
}

static void ad_cleanup(void *work)
{
    ad_work *w = work;
    if (!w)
        return;
    cb_admm_direct_free(w->dir);
    free(w->buf);
    free(w);
}

/* ρ₀ = ‖W 1‖ / ‖1‖ (1 when W 1 = 0 or not finite). */
static double auto_rho(const ad_work *w)
{
    for (size_t i = 0; i < w->n; i++)
        w->t[i] = 1.0;
    cb_problem_Wp(w->prob, w->t, w->v);
    double rho = cb_nrm2(w->v, w->n) / sqrt((double)w->n);
    return rho > 0.0 && isfinite(rho) ? rho : 1.0;
}

/* Validate options, then allocate the AD_NVEC vectors of n. */
static int ad_setup(const cb_problem *prob, const cb_settings *s, void **work, cb_error *err)
{
    ad_params par;
    int rc = read_params(s, &par, err);
    if (rc != CB_OK)
        return rc;
    size_t n = cb_problem_n(prob), total;
    ad_work *w = calloc(1, sizeof *w);
    if (!w || cb_mul_size(AD_NVEC, n, &total) != 0 ||
        !(w->buf = cb_malloc_array(total, sizeof(double)))) {
        ad_cleanup(w);
        return cb_fail(err, CB_ERR_NOMEM, "admm: out of memory (n = %zu)", n);
    }
    w->prob = prob;
    w->n = n;
    w->par = par;
    double **v[AD_NVEC] = {&w->p, &w->z, &w->z0, &w->u, &w->s, &w->y, &w->F,
                           &w->b, &w->r, &w->rh, &w->v, &w->pv, &w->sv, &w->t};
    for (size_t k = 0; k < AD_NVEC; k++)
        *v[k] = w->buf + k * n;
    w->rho_auto = w->par.rho0 <= 0.0;
    if (w->rho_auto)
        w->par.rho0 = auto_rho(w);
    cb_judge_scale_of(prob, &w->scale);
    if (par.direct && (rc = cb_admm_direct_new(prob, &w->dir, err)) != CB_OK) {
        ad_cleanup(w);
        return rc;
    }
    *work = w;
    return CB_OK;
}

/* After q, μ or W changed: the judge's scales, and rho = auto estimated again when W did. */
static int ad_update(void *work, const cb_problem *prob, unsigned changed, cb_error *err)
{
    ad_work *w = work;
    w->prob = prob;
    if (w->rho_auto && (changed & CB_CHANGED_W))
        w->par.rho0 = auto_rho(w);
    cb_judge_scale_of(prob, &w->scale);
    if (w->dir && (changed & CB_CHANGED_W)) { /* the pattern may have changed: start afresh */
        cb_admm_direct_free(w->dir);
        w->dir = NULL;
        return cb_admm_direct_new(prob, &w->dir, err);
    }
    return CB_OK;
}

/* ---------------------------------------------------------------- linear step */

/* out = (W + ρI) x; counts one W product. */
static void apply(const ad_work *w, double rho, const double *x, double *out, cb_work *cnt)
{
    cb_problem_Wp(w->prob, x, out);
    for (size_t i = 0; i < w->n; i++)
        out[i] += rho * x[i];
    cnt->block_products += cb_problem_blocks_per_matvec(w->prob);
}

static double dot(size_t n, const double *a, const double *b)
{
    return cb_dot(a, b, n);
}

/* One BiCGSTAB step on (W + ρI) x = b (van der Vorst 1992) from the state r, r̂, v, p̂;
 * updates x and r; returns 0 on a breakdown (ρ_k, α or ω zero). */
static int bicgstab_step(const ad_work *w, double rho, double *x, double *coef, cb_work *cnt)
{
    size_t n = w->n;
    double rho_k = dot(n, w->rh, w->r);
    if (rho_k == 0.0)
        return 0;
    double beta = (rho_k / coef[0]) * (coef[1] / coef[2]);
    for (size_t i = 0; i < n; i++)
        w->pv[i] = w->r[i] + beta * (w->pv[i] - coef[2] * w->v[i]);
    apply(w, rho, w->pv, w->v, cnt);
    double rv = dot(n, w->rh, w->v);
    if (rv == 0.0)
        return 0;
    double alpha = rho_k / rv;
    for (size_t i = 0; i < n; i++)
        w->sv[i] = w->r[i] - alpha * w->v[i];
    apply(w, rho, w->sv, w->t, cnt);
    double tt = dot(n, w->t, w->t), omega = tt > 0.0 ? dot(n, w->t, w->sv) / tt : 0.0;
    for (size_t i = 0; i < n; i++) {
        x[i] += alpha * w->pv[i] + omega * w->sv[i];
        w->r[i] = w->sv[i] - omega * w->t[i];
    }
    coef[0] = rho_k, coef[1] = alpha, coef[2] = omega;
    return omega != 0.0;
}

/* p ← approximately (W + ρI)⁻¹ b from the current p: ‖b − (W + ρI)p‖ ≤ tol ‖b‖. The start
 * residual reuses t = W p + q, left there by shift_at(p): no W product. */
static void linear_solve(const ad_work *w, double rho, double tol, long max, cb_work *cnt)
{
    size_t n = w->n;
    for (size_t i = 0; i < n; i++) {
        w->r[i] = w->b[i] - (w->t[i] - w->prob->q[i] + rho * w->p[i]);
        w->rh[i] = w->r[i];
        w->v[i] = w->pv[i] = 0.0;
    }
    double nb = cb_nrm2(w->b, n), coef[3] = {1.0, 1.0, 1.0};
    for (long k = 0; k < max && cb_nrm2(w->r, n) > tol * nb; k++)
        if (!bicgstab_step(w, rho, w->p, coef, cnt))
            break;
}

/* ---------------------------------------------------------------- iterations */

/* s = ŷ(t) − t = g(t) for the velocity t = W x + q already in w->t; 1 when finite. */
static int shift_of_t(const ad_work *w)
{
    int ok = cb_fo_modified_velocity(w->prob, w->t, w->F);
    for (size_t i = 0; i < w->n; i++)
        w->s[i] = w->F[i] - w->t[i];
    return ok;
}

/* The De Saxcé shift at x: t = W x + q, then shift_of_t. */
static int shift_at(const ad_work *w, const double *x, cb_work *cnt)
{
    cb_problem_y(w->prob, x, w->t);
    cnt->block_products += cb_problem_blocks_per_matvec(w->prob);
    return shift_of_t(w);
}

/* p = (W + ρI)⁻¹ b by the factors, and t = W p + q = b − ρ p + q from the same equation (no W
 * product); 0 when the direct solve failed (p and t untouched). */
static int direct_step(ad_work *w, double rho)
{
    memcpy(w->r, w->b, w->n * sizeof(double));
    if (!w->dir || cb_admm_direct_solve(w->dir, rho, w->r) != CB_OK)
        return 0;
    for (size_t i = 0; i < w->n; i++) {
        w->p[i] = w->r[i];
        w->t[i] = w->b[i] - rho * w->p[i] + w->prob->q[i];
    }
    return 1;
}

/* y = W z + q and the judged residual at z; 1 when y is finite. */
static int evaluate(ad_run *r)
{
    ad_work *w = r->w;
    cb_problem_y(w->prob, w->z, w->y);
    r->info->work.block_products += cb_problem_blocks_per_matvec(w->prob);
    cb_fo_residual_eval(w->prob, w->z, w->y, &w->scale, &r->res, &r->info->work);
    return cb_all_finite(w->y, w->n);
}

/* Residual balancing: rescale ρ (and the scaled multiplier u) by 2. */
static void balance(ad_run *r, double prim, double dual)
{
    ad_work *w = r->w;
    double f = prim > 10.0 * dual ? 2.0 : dual > 10.0 * prim ? 0.5 : 1.0;
    if (!w->par.adaptive || f == 1.0)
        return;
    r->rho *= f;
    for (size_t i = 0; i < w->n; i++)
        w->u[i] /= f;
}

/* One ADMM iteration; 0 when an iterate is not finite. */
static int admm_step(ad_run *r)
{
    ad_work *w = r->w;
    size_t n = w->n;
    for (size_t i = 0; i < n; i++)
        w->b[i] = r->rho * (w->z[i] - w->u[i]) - w->prob->q[i] - w->s[i];
    double tol = fmin(1e-2, isfinite(r->res.err) ? 1e-2 * r->res.err : 1e-2);
    int direct = direct_step(w, r->rho);
    if (!direct)
        linear_solve(w, r->rho, tol, w->par.inner_max, &r->info->work);
    memcpy(w->z0, w->z, n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        w->F[i] = w->p[i] + w->u[i];
    if (!cb_fo_project_step(w->prob, w->F, w->F, 0.0, w->z, &r->info->work))
        return 0;
    double prim = 0.0, dual = 0.0;
    for (size_t i = 0; i < n; i++) {
        w->u[i] += w->p[i] - w->z[i];
        prim += (w->p[i] - w->z[i]) * (w->p[i] - w->z[i]);
        dual += (w->z[i] - w->z0[i]) * (w->z[i] - w->z0[i]);
    }
    r->step = sqrt(dual);
    balance(r, sqrt(prim), r->rho * sqrt(dual));
    int ok = direct ? shift_of_t(w) : shift_at(w, w->p, &r->info->work);
    return ok && evaluate(r);
}

static int ad_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                    cb_error *err)
{
    ad_work *w = work;
    ad_run r = {.w = w, .s = s, .info = info, .t0 = cb_now(), .rho = w->par.rho0};
    int k = 0, status = CB_STATUS_DIVERGED, rc = CB_OK;
    memcpy(w->z, sol->p, w->n * sizeof(double)); /* warm start: z = p = p₀, u = 0 */
    memcpy(w->p, sol->p, w->n * sizeof(double));
    memset(w->u, 0, w->n * sizeof(double));
    int ok = evaluate(&r);
    if (cb_info_trace(info, s, 0, r.t0, r.res.err) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "trace: out of memory");
    while (rc == CB_OK && ok &&
           (status = cb_fo_stop_status(&r.res, r.step, w->scale.norm_q, s, k, r.t0)) < 0) {
        if (k == 0) /* the shift of the first linear step, at the warm start */
            ok = shift_at(w, w->p, &info->work);
        ok = ok && admm_step(&r);
        k++;
        if (cb_info_trace(info, s, k, r.t0, r.res.err) != CB_OK)
            rc = cb_fail(err, CB_ERR_NOMEM, "trace: out of memory");
    }
    if (!ok)
        status = CB_STATUS_DIVERGED;
    memcpy(sol->p, w->z, w->n * sizeof(double));
    memcpy(sol->y, w->y, w->n * sizeof(double));
    info->status = (cb_status)status;
    info->iterations = k;
    info->solver_error = r.res.err;
    return rc;
}

const cb_solver cb_solver_admm = {
    .name = "admm",
    .summary = "ADMM on (W + rho I) p = rho (z - u) - q - s, z = P_K(p + u), De Saxce shift s at "
               "z; BiCGSTAB inner solves (any storage, nonsymmetric W); residual balancing",
    .options = ad_options,
    .supports = cb_fo_supports,
    .setup = ad_setup,
    .solve = ad_solve,
    .cleanup = ad_cleanup,
    .update = ad_update,
};
