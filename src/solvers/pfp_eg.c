/* conebench — projected fixed point `pfp` (Acary & Bourrier eq. 64) and extra-gradient `eg`
 * (eq. 65) for y = W p + q, ŷ = y + g(y), K* ∋ ŷ ⟂ p ∈ K, with F(p) = ŷ(W p + q):
 *
 *   pfp:  p_{k+1} = P_K(p_k − ρ_k F(p_k))
 *   eg:   p̃_k = P_K(p_k − ρ_k F(p_k)),  p_{k+1} = P_K(p_k − ρ_k F(p̃_k))
 *
 * Self-adaptive step (default): the predictor p̃ = P_K(p − ρ F(p)) is recomputed with ρ ← τ ρ
 * while ρ‖F(p) − F(p̃)‖ > L ‖p − p̃‖; after the step ρ ← ρ / τ when that ratio is below L_min.
 * The stopping test is the judge's natural-map residual (judge.h), computed from the p and
 * y = W p + q the iteration already has: same kernels, same normalisation, same bits. "Solved"
 * also needs the iterate to have settled: error_q = ‖e‖/‖q‖ ≤ min(1, √tol) and a last step
 * ‖p_k − p_{k−1}‖ ≤ ‖p_k‖ / 4. On an infeasible problem (W = 0, q_N < 0) the iterates run off
 * to infinity: ‖e‖ ≈ ‖q‖ for ever, so the Siconos normalisation max(‖q‖, ‖p‖, ‖y‖) falls below
 * any tol, and once ‖p‖ ≳ ‖q‖/ε even ‖e‖ rounds to 0 (p − ŷ == p); error_q ≤ 1 catches neither.
 * W is only touched through the problem.h kernels, so dense and BSR storage behave alike (to the
 * bit) and factored storage works unchanged (its W p rounds differently, ~1e-16 relative).
 */
#include "first_order.h"
#include "solvers_internal.h"

#include "detmath.h"
#include "base.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PE_MAX_SHRINK 100 /* ρ reductions in one iteration before the rule is waived */
#define PE_RUNNING (-1)   /* no stopping test holds yet */

typedef enum { PE_STEP_OK, PE_STEP_DIVERGED, PE_STEP_TIME } pe_step;

typedef struct {
    double rho;   /* initial step; ≤ 0 before "auto" is resolved */
    int adaptive; /* 1: self-adaptive rule, 0: fixed ρ */
    double tau, L, Lmin;
} pe_params;

/* One iterate with its velocity y = W p + q and F = ŷ(y). */
typedef struct {
    double *p, *y, *F;
} pe_point;

typedef struct {
    const cb_problem *prob;
    size_t n;
    int extragradient;
    pe_params par;
    int rho_auto;         /* rho = auto: par.rho is estimated from W (auto_rho) */
    cb_judge_scale scale; /* the judge's data scales */
    pe_point cur, trial, next; /* next: eg corrector only */
    double *res2;              /* nc: the residual's terms (cb_fo_residual2's scratch) */
    double *buf;               /* storage behind the points and res2 */
} pe_work;

/* State of one run. */
typedef struct {
    pe_work *w;
    const cb_settings *s;
    cb_info *info;
    double t0;
    double rho;   /* current step */
    double ratio; /* ρ‖ΔF‖/‖Δp‖ of the last accepted predictor */
    cb_fo_residual res;
    double step;   /* ‖p_k − p_{k−1}‖ (0 at the warm start) */
} pe_run;

static const cb_option_spec pe_options[] = {
    {"rho", "auto", "initial step rho > 0; auto = 1 / (largest diagonal entry of W), 1 if none"},
    {"rho_mode", "adaptive",
     "adaptive: shrink rho by tau while rho|dF| > L|dp|, grow by 1/tau when below Lmin; "
     "fixed: keep rho"},
    {"tau", "0.6666666666666666", "shrink factor of rho, in (0, 1)"},
    {"L", "0.9", "largest accepted step ratio rho|F(p)-F(p~)| / |p-p~|, in (0, 1)"},
    {"Lmin", "0.3", "grow rho by 1/tau when the step ratio is below Lmin, in [0, L)"},
    {NULL, NULL, NULL}};

/* ---------------------------------------------------------------- options and setup */

/* x ∈ (0, 1) for option key. */
static int open_unit(const cb_settings *s, const char *key, double *out, cb_error *err)
{
    int rc = cb_option_double(s, pe_options, key, 0.0, 1.0, out, err);
    if (rc == CB_OK && (*out <= 0.0 || *out >= 1.0))
        rc = cb_fail(err, CB_ERR_INPUT, "option %s: %g is not in the open interval (0, 1)", key,
                     *out);
    return rc;
}

/* Parse and validate every option (nothing is allocated here). */
static int read_params(const cb_settings *s, const char *solver, pe_params *par, cb_error *err)
{
    int rc = cb_options_check(s, pe_options, solver, err);
    if (rc != CB_OK)
        return rc;
    rc = cb_fo_option_positive_or_auto(s, pe_options, "rho", &par->rho, err);
    if (rc == CB_OK)
        rc = cb_fo_option_adaptive(s, pe_options, "rho_mode", &par->adaptive, err);
    if (rc != CB_OK)
        return rc;
    if ((rc = open_unit(s, "tau", &par->tau, err)) != CB_OK ||
        (rc = open_unit(s, "L", &par->L, err)) != CB_OK ||
        (rc = cb_option_double(s, pe_options, "Lmin", 0.0, 1.0, &par->Lmin, err)) != CB_OK)
        return rc;
    if (par->Lmin >= par->L)
        return cb_fail(err, CB_ERR_INPUT, "option Lmin: %g must be < L = %g", par->Lmin, par->L);
    return CB_OK;
}

/* ρ₀ = 1 / max_i W_ii (a cheap inverse Lipschitz estimate), 1 when the diagonal is zero. */
static double auto_rho(const cb_problem *prob)
{
    int d = prob->d;
    double block[CB_MAX_DIM * CB_MAX_DIM], dmax = 0.0;
    for (int a = 0; a < prob->nc; a++) {
        cb_problem_diag_block(prob, a, block);
        for (int i = 0; i < d; i++)
            dmax = fmax(dmax, fabs(block[i + i * d]));
    }
    double rho = dmax > 0.0 ? 1.0 / dmax : 1.0;
    return isfinite(rho) ? rho : 1.0;
}

static void pe_cleanup(void *work)
{
    pe_work *w = work;
    if (!w)
        return;
    free(w->buf);
    free(w);
}

/* Validate options, then allocate 3 (pfp: 2) iterates of 3 vectors of n and the residual's
 * nc terms. */
static int pe_setup_common(const cb_problem *prob, const cb_settings *s, int extragradient,
                           void **work, cb_error *err)
{
    const char *name = extragradient ? "eg" : "pfp";
    pe_params par;
    int rc = read_params(s, name, &par, err);
    if (rc != CB_OK)
        return rc;
    size_t n = cb_problem_n(prob), npoints = extragradient ? 3 : 2, total;
    pe_work *w = calloc(1, sizeof *w);
    if (!w || cb_mul_size(3 * npoints, n, &total) != 0 || total > SIZE_MAX - (size_t)prob->nc ||
        !(w->buf = cb_malloc_array(total + (size_t)prob->nc, sizeof(double)))) {
        pe_cleanup(w);
        return cb_fail(err, CB_ERR_NOMEM, "%s: out of memory (n = %zu)", name, n);
    }
    w->prob = prob;
    w->n = n;
    w->extragradient = extragradient;
    w->par = par;
    w->res2 = w->buf + total;
    w->rho_auto = w->par.rho <= 0.0;
    if (w->rho_auto)
        w->par.rho = auto_rho(prob);
    cb_judge_scale_of(prob, &w->scale);
    pe_point *pts[3] = {&w->cur, &w->trial, &w->next};
    for (size_t k = 0; k < npoints; k++) {
        pts[k]->p = w->buf + (3 * k) * n;
        pts[k]->y = w->buf + (3 * k + 1) * n;
        pts[k]->F = w->buf + (3 * k + 2) * n;
    }
    *work = w;
    return CB_OK;
}

/* After q, μ or W changed: the judge's scales, and rho = auto estimated again when W did. */
static int pe_update(void *work, const cb_problem *prob, unsigned changed, cb_error *err)
{
    pe_work *w = work;
    (void)err;
    w->prob = prob;
    if (w->rho_auto && (changed & CB_CHANGED_W))
        w->par.rho = auto_rho(prob);
    cb_judge_scale_of(prob, &w->scale);
    return CB_OK;
}

static int pfp_setup(const cb_problem *prob, const cb_settings *s, void **work, cb_error *err)
{
    return pe_setup_common(prob, s, 0, work, err);
}

static int eg_setup(const cb_problem *prob, const cb_settings *s, void **work, cb_error *err)
{
    return pe_setup_common(prob, s, 1, work, err);
}

/* Every kind and every storage (dense, BSR, factored: through the kernels) is supported. */
/* ---------------------------------------------------------------- kernels */

/* y = W p + q, F = ŷ(y) = y + g(y) contact by contact; 1 when y and F are finite. */
static int eval_point(const pe_work *w, pe_point *x, cb_work *cnt)
{
    cb_problem_y(w->prob, x->p, x->y);
    cnt->block_products += cb_problem_blocks_per_matvec(w->prob);
    return cb_fo_modified_velocity(w->prob, x->y, x->F) && cb_all_finite(x->y, w->n);
}

/* out = P_K(p − ρ F); 1 when every projection had finite input. */
static int project_step(const pe_work *w, const double *p, const double *F, double rho,
                        double *out, cb_work *cnt)
{
    return cb_fo_project_step(w->prob, p, F, rho, out, cnt);
}

/* ρ‖F(a) − F(b)‖ / ‖a − b‖ (0 when b = a, which then solves the problem). */
static double step_ratio(size_t n, const pe_point *a, const pe_point *b, double rho)
{
    double dF = 0.0, dp = 0.0;
    for (size_t i = 0; i < n; i++) {
        double u = a->F[i] - b->F[i], v = a->p[i] - b->p[i];
        dF += u * u;
        dp += v * v;
    }
    return dp > 0.0 ? rho * sqrt(dF) / sqrt(dp) : 0.0;
}

/* The judge's residual of the current iterate (its terms on the run's threads, summed in
 * contact order: cb_fo_residual_eval's bits, without its allocation a step). */
static void residual(pe_run *r)
{
    const pe_work *w = r->w;
    double e2 = cb_fo_residual2(w->prob, w->cur.p, w->cur.y, w->res2);
    cb_fo_residual_of(w->prob, w->cur.p, w->cur.y, &w->scale, e2, &r->res, &r->info->work);
}

/* ---------------------------------------------------------------- iterations */

static int time_up(const pe_run *r)
{
    return cb_fo_time_up(r->s, r->t0);
}

/* ‖a − b‖ */
static double distance(size_t n, const double *a, const double *b)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(s);
}

static void swap_points(pe_point *a, pe_point *b)
{
    pe_point t = *a;
    *a = *b;
    *b = t;
}

/* trial = P_K(p − ρ F(p)), shrinking ρ by τ while ρ‖F(p) − F(trial)‖ > L‖p − trial‖. */
static pe_step predict(pe_run *r)
{
    pe_work *w = r->w;
    cb_work *cnt = &r->info->work;
    for (int shrinks = 0;; shrinks++) {
        if (!project_step(w, w->cur.p, w->cur.F, r->rho, w->trial.p, cnt) ||
            !eval_point(w, &w->trial, cnt))
            return PE_STEP_DIVERGED;
        if (!w->par.adaptive)
            return PE_STEP_OK;
        r->ratio = step_ratio(w->n, &w->cur, &w->trial, r->rho);
        if (!(r->ratio > w->par.L) || shrinks >= PE_MAX_SHRINK)
            return PE_STEP_OK; /* a NaN ratio (overflow) is left to the finiteness checks */
        r->rho *= w->par.tau;
        if (time_up(r))
            return PE_STEP_TIME;
    }
}

/* ρ ← ρ / τ after an accepted step whose ratio was below L_min. */
static void grow(pe_run *r)
{
    if (r->w->par.adaptive && r->ratio < r->w->par.Lmin)
        r->rho /= r->w->par.tau;
}

/* One pfp step (eq. 64): cur ← P_K(cur − ρ F(cur)). */
static pe_step pfp_iteration(pe_run *r)
{
    pe_step st = predict(r);
    if (st == PE_STEP_OK)
        r->step = distance(r->w->n, r->w->cur.p, r->w->trial.p);
    if (st != PE_STEP_TIME)
        swap_points(&r->w->cur, &r->w->trial); /* a diverged iterate is handed back as is */
    if (st == PE_STEP_OK)
        grow(r);
    return st;
}

/* One eg step (eq. 65): p̃ = P_K(p − ρ F(p)), then p ← P_K(p − ρ F(p̃)). */
static pe_step eg_iteration(pe_run *r)
{
    pe_work *w = r->w;
    pe_step st = predict(r);
    if (st == PE_STEP_DIVERGED)
        swap_points(&w->cur, &w->trial);
    if (st != PE_STEP_OK)
        return st;
    int ok = project_step(w, w->cur.p, w->trial.F, r->rho, w->next.p, &r->info->work) &&
             eval_point(w, &w->next, &r->info->work);
    r->step = distance(w->n, w->cur.p, w->next.p);
    swap_points(&w->cur, &w->next);
    if (!ok)
        return PE_STEP_DIVERGED;
    grow(r);
    return PE_STEP_OK;
}

/* Iterate from the evaluated warm start until a stopping test holds; *k counts iterations. */
static int iterate(pe_run *r, int *k, int *status, cb_error *err)
{
    for (*k = 0;;) {
        if ((*status = cb_fo_stop_status(&r->res, r->step, r->w->scale.norm_q, r->s, *k, r->t0)) !=
            PE_RUNNING)
            return CB_OK;
        pe_step st = r->w->extragradient ? eg_iteration(r) : pfp_iteration(r);
        if (st == PE_STEP_TIME) {
            *status = CB_STATUS_TIME_LIMIT;
            return CB_OK;
        }
        ++*k;
        if (st == PE_STEP_DIVERGED) {
            r->res.err = r->res.err_q = NAN;
            *status = CB_STATUS_DIVERGED;
            return CB_OK;
        }
        residual(r);
        if (cb_info_trace(r->info, r->s, *k, r->t0, r->res.err) != CB_OK)
            return cb_fail(err, CB_ERR_NOMEM, "trace: out of memory");
    }
}

static int pe_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                    cb_error *err)
{
    pe_work *w = work;
    pe_run r = {.w = w, .s = s, .info = info, .t0 = cb_now(), .rho = w->par.rho};
    int k = 0, status = CB_STATUS_DIVERGED, rc = CB_OK;
    memcpy(w->cur.p, sol->p, w->n * sizeof(double));
    if (eval_point(w, &w->cur, &info->work)) {
        residual(&r);
        rc = cb_info_trace(info, s, 0, r.t0, r.res.err) == CB_OK
                 ? iterate(&r, &k, &status, err)
                 : cb_fail(err, CB_ERR_NOMEM, "trace: out of memory");
    } else {
        r.res.err = r.res.err_q = NAN;
    }
    memcpy(sol->p, w->cur.p, w->n * sizeof(double));
    memcpy(sol->y, w->cur.y, w->n * sizeof(double));
    info->status = (cb_status)status;
    info->iterations = k;
    info->solver_error = r.res.err;
    return rc;
}

const cb_solver cb_solver_pfp = {
    .name = "pfp",
    .summary = "projected fixed point p <- P_K(p - rho F(p)), F = W p + q + g(W p + q) (eq. 64); "
               "self-adaptive or fixed rho",
    .options = pe_options,
    .supports = cb_fo_supports,
    .setup = pfp_setup,
    .solve = pe_solve,
    .cleanup = pe_cleanup,
    .update = pe_update,
};

const cb_solver cb_solver_eg = {
    .name = "eg",
    .summary = "extra-gradient p~ = P_K(p - rho F(p)), p <- P_K(p - rho F(p~)) (eq. 65); "
               "self-adaptive or fixed rho",
    .options = pe_options,
    .supports = cb_fo_supports,
    .setup = eg_setup,
    .solve = pe_solve,
    .cleanup = pe_cleanup,
    .update = pe_update,
};
