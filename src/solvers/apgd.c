/* conebench — `apgd`: accelerated projected gradient (Nesterov) with adaptive step, adaptive
 * restart and best-iterate return, after Mazhar, Heyn, Negrut & Tasora (ACM TOG 34(3), 2015,
 * Algorithm 2), with the De Saxcé shift: the gradient at the extrapolated point x_k is
 * F(x_k) = ŷ(W x_k + q) = W x_k + q + g(W x_k + q), i.e. the shifted quadratic
 * f_s(p) = ½ pᵀW p + (q + s)ᵀ p with s = g(W x_k + q) frozen for the step, so a fixed point
 * p = P_K(p − t F(p)) solves the cone complementarity problem (the natural map vanishes).
 *
 *   p_{k+1} = P_K(x_k − t_k F(x_k)),  t_k = 1/L_k; L_k ← 2 L_k while
 *             ½ dᵀW d > ½ L_k ‖d‖², d = p_{k+1} − x_k   (the sufficient-decrease test of f_s)
 *   θ_{k+1} = θ_k (√(θ_k² + 4) − θ_k) / 2,  β = θ_k (1 − θ_k) / (θ_k² + θ_{k+1})
 *   x_{k+1} = p_{k+1} + β (p_{k+1} − p_k); restart x_{k+1} = p_{k+1}, θ = 1 when
 *             F(x_k)ᵀ(p_{k+1} − p_k) > 0 (the step went uphill)
 *   L_{k+1} = shrink · L_k
 *
 * One W product per tried step, kept as velocities y = W p + q: y(x_{k+1}) = (1 + β) y(p_{k+1})
 * − β y(p_k) by linearity, and dᵀW d = dᵀ(y(p_{k+1}) − y(x_k)). The stopping test is the judge's
 * natural-map residual at p_{k+1}, from y(p_{k+1}) = cb_problem_y (the judge's own kernel: the
 * same bits; with W's half, cb_whalf_y, a converged step is judged again by cb_problem_y before
 * it stops), with pfp/eg's settle test: error_q ≤ min(1, √tol), ‖p_{k+1} − p_k‖ ≤ ‖p_{k+1}‖/4.
 * Option shift_every = k > 1 re-evaluates the shift s only every k steps (F = y(x) + s in
 * between): a slower-moving, piecewise-variational field that stops the stalls below at the
 * price of more steps on easy problems. The default, auto, refreshes every step and switches to
 * every 3 steps once AP_STALL_STEPS steps have passed without a new best residual
 * (BENCHMARKS.md, "apgd's shift schedule": auto solves what every-3-steps solves, in fewer
 * steps).
 * The iterate with the lowest residual is returned (APGD is not monotone). Convergence is not
 * guaranteed for μ > 0 (the shift makes the problem non-variational): on some singular
 * multibody W the residual stalls near 1e-4 where pfp and nsgs converge (test_pfp_eg.c); the
 * judge decides.
 */
#include "first_order.h"
#include "solvers_internal.h"

#include "bsr_half.h"
#include "detmath.h"
#include "base.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define AP_MAX_DOUBLINGS 60 /* L may grow by 2^60 in one step before the test is waived */
#define AP_STALL_STEPS 50   /* shift_every=auto: steps without a new best before freezing */
#define AP_STALL_EVERY 3    /* shift_every=auto: the refresh period after a stall */
#define AP_SUMS 4           /* dᵀW d, ‖d‖², F(x)ᵀ(p_{k+1} − p_k), ‖p_{k+1} − p_k‖² */

typedef struct {
    double L0;     /* initial Lipschitz estimate; ≤ 0 before "auto" is resolved */
    double shrink; /* L ← shrink · L after each step, (0, 1] */
    int restart;   /* adaptive restart on/off */
    long shift_every; /* refresh the De Saxcé shift every this many steps (≥ 1); 0: auto */
    size_t half_min;  /* W's half from this many bytes of W's blocks (SIZE_MAX: never) */
} ap_params;

typedef struct {
    const cb_problem *prob;
    size_t n;
    ap_params par;
    int L0_auto;          /* L0 = auto: par.L0 is estimated from W (auto_L0) */
    cb_judge_scale scale; /* the judge's data scales */
    double *p, *yp;   /* p_k and y(p_k) = W p_k + q */
    double *pn, *yn;  /* candidate p_{k+1} and y(p_{k+1}) */
    double *x, *yx;   /* extrapolated x_k and y(x_k) */
    double *F;        /* F(x_k) = y(x_k) + s, s the De Saxcé shift g(y) of the last refresh */
    double *shift;    /* s = ŷ − y at the last refresh */
    double *best;     /* lowest-residual iterate */
    double *part;     /* per chunk of CB_PAR_CHUNK contacts: the AP_SUMS partial sums */
    double *res2;     /* per contact: ‖p_α − P_K(p_α − ŷ_α)‖² at the candidate */
    const int *work;  /* the product's cost prefix sums (BSR row_ptr), NULL: even */
    int rows_ok;      /* W's rows can be had a range at a time (cb_problem_y_rows) */
    cb_whalf *half;   /* W's upper half when W is large and bitwise symmetric, else NULL */
    double *buf;
} ap_work;

typedef struct {
    ap_work *w;
    const cb_settings *s;
    cb_info *info;
    double t0, L, theta;
    cb_fo_residual res;
    double step, best_err;
    double beta;  /* the momentum of the pending extrapolation */
    int pending;  /* an extrapolation waits for the next step's pass */
    int keep;     /* ... and best ← p with it */
    long every; /* current refresh period of the shift */
    int k_best; /* step of the best residual so far */
} ap_run;

static const cb_option_spec ap_options[] = {
    {"L0", "auto", "initial Lipschitz estimate L > 0 (step 1/L); auto = ‖W(x1 − x0)‖/‖x1 − x0‖ "
                   "for x0 = 0, x1 = ones (Mazhar et al.), the largest diagonal entry if W x1 = 0"},
    {"shrink", "0.9", "L <- shrink L after every step, in (0, 1]"},
    {"restart", "on", "adaptive restart when the step goes uphill: on | off"},
    {"shift_every", "auto", "re-evaluate the De Saxce shift g(y) at the extrapolated point every "
                            "k >= 1 steps, frozen in between; auto: every step, every 3 after 50 "
                            "steps without a new best residual (see BENCHMARKS.md)"},
    CB_FO_HALF_OPTION,
    {NULL, NULL, NULL}};

/* ---------------------------------------------------------------- options and setup */

static int read_params(const cb_settings *s, ap_params *par, cb_error *err)
{
    int rc = cb_options_check(s, ap_options, "apgd", err);
    if (rc != CB_OK)
        return rc;
    rc = cb_fo_option_positive_or_auto(s, ap_options, "L0", &par->L0, err);
    if (rc != CB_OK)
        return rc;
    rc = cb_option_double(s, ap_options, "shrink", 0.0, 1.0, &par->shrink, err);
    if (rc == CB_OK && !(par->shrink > 0.0))
        rc = cb_fail(err, CB_ERR_INPUT, "option shrink: must be in (0, 1], got %g", par->shrink);
    const char *restart = cb_option_get(s, ap_options, "restart");
    if (rc == CB_OK && strcmp(restart, "on") != 0 && strcmp(restart, "off") != 0)
        rc = cb_fail(err, CB_ERR_INPUT, "option restart: '%s' is not on or off", restart);
    par->restart = strcmp(restart, "on") == 0;
    par->shift_every = 0;
    if (rc == CB_OK && strcmp(cb_option_get(s, ap_options, "shift_every"), "auto") != 0)
        rc = cb_option_int(s, ap_options, "shift_every", 1, 1000000, &par->shift_every, err);
    if (rc == CB_OK)
        rc = cb_fo_option_half(s, ap_options, &par->half_min, err);
    return rc;
}

/* L₀ = ‖W 1‖ / ‖1‖ (a Rayleigh-like estimate of ‖W‖₂ from below); max W_ii when W 1 = 0. */
static double auto_L0(const cb_problem *prob, double *ones, double *Wones)
{
    size_t n = cb_problem_n(prob);
    for (size_t i = 0; i < n; i++)
        ones[i] = 1.0;
    cb_problem_Wp(prob, ones, Wones);
    double L = cb_nrm2(Wones, n) / sqrt((double)n);
    if (!(L > 0.0) || !isfinite(L)) {
        double block[CB_MAX_DIM * CB_MAX_DIM];
        L = 0.0;
        for (int a = 0; a < prob->nc; a++) {
            cb_problem_diag_block(prob, a, block);
            for (int i = 0; i < prob->d; i++)
                L = fmax(L, fabs(block[i + i * prob->d]));
        }
    }
    return L > 0.0 && isfinite(L) ? L : 1.0;
}

static void ap_cleanup(void *work)
{
    ap_work *w = work;
    if (!w)
        return;
    free(w->buf);
    cb_whalf_free(w->half);
    free(w);
}

/* Validate options, then allocate the 9 vectors of n, the contact residuals and the partial
 * sums. */
static int ap_setup(const cb_problem *prob, const cb_settings *s, void **work, cb_error *err)
{
    ap_params par;
    int rc = read_params(s, &par, err);
    if (rc != CB_OK)
        return rc;
    size_t n = cb_problem_n(prob), total;
    size_t nsums = (size_t)AP_SUMS * cb_par_nchunks(prob->nc) + (size_t)prob->nc;
    ap_work *w = calloc(1, sizeof *w);
    if (!w || cb_mul_size(9, n, &total) != 0 || total > SIZE_MAX - nsums ||
        !(w->buf = cb_malloc_array(total + nsums, sizeof(double)))) {
        ap_cleanup(w);
        return cb_fail(err, CB_ERR_NOMEM, "apgd: out of memory (n = %zu)", n);
    }
    w->prob = prob;
    w->n = n;
    w->par = par;
    double **v[9] = {&w->p, &w->yp, &w->pn, &w->yn, &w->x, &w->yx, &w->F, &w->best, &w->shift};
    for (size_t k = 0; k < 9; k++)
        *v[k] = w->buf + k * n;
    w->part = w->buf + total;
    w->res2 = w->part + (size_t)AP_SUMS * cb_par_nchunks(prob->nc);
    rc = cb_whalf_new(prob, w->par.half_min, &w->half, err);
    if (rc != CB_OK) {
        ap_cleanup(w);
        return rc;
    }
    w->work = prob->storage == CB_STORAGE_BSR ? prob->bsr.row_ptr : NULL;
    w->rows_ok = prob->storage != CB_STORAGE_FACTORED && !w->half;
    w->L0_auto = w->par.L0 <= 0.0;
    if (w->L0_auto)
        w->par.L0 = auto_L0(prob, w->x, w->yx);
    cb_judge_scale_of(prob, &w->scale);
    *work = w;
    return CB_OK;
}

/* After q, μ or W changed: the judge's scales, and W's half and L0 = auto again when W did. */
static int ap_update(void *work, const cb_problem *prob, unsigned changed, cb_error *err)
{
    ap_work *w = work;
    int rc = CB_OK;
    w->prob = prob;
    if (changed & CB_CHANGED_W) { /* on failure the full product serves: no half */
        cb_whalf_free(w->half);
        rc = cb_whalf_new(prob, w->par.half_min, &w->half, err);
    }
    w->work = prob->storage == CB_STORAGE_BSR ? prob->bsr.row_ptr : NULL;
    w->rows_ok = prob->storage != CB_STORAGE_FACTORED && !w->half;
    if (w->L0_auto && (changed & CB_CHANGED_W))
        w->par.L0 = auto_L0(prob, w->x, w->yx);
    cb_judge_scale_of(prob, &w->scale);
    return rc;
}

/* ---------------------------------------------------------------- kernels */

/* A pass over contacts [a0, a1) of the work vectors (cb_parallel_rows / cb_parallel_chunks_by). */
typedef struct {
    ap_work *w;
    int gradient;    /* step: F(x) first (0: a retry with the same F) */
    int refresh;     /* step: re-evaluate the shift */
    double t;        /* step: the step length 1/L */
    int extrapolate; /* step: the pending momentum step first (extrapolate_entries) */
    double beta;     /* extrapolate: the momentum */
    int keep;        /* extrapolate: best ← p_{k+1} too */
    _Atomic int bad; /* a non-finite entry was met */
} ap_pass;

/* Entries [i0, i1): x ← p_{k+1} + β(p_{k+1} − p_k), y(x) ← (1 + β) y(p_{k+1}) − β y(p_k), and
 * best ← p_{k+1} when asked (p, yp hold p_{k+1}; pn, yn still p_k: the vectors swapped roles). */
static void extrapolate_entries(const ap_pass *c, size_t i0, size_t i1)
{
    ap_work *w = c->w;
    double beta = c->beta;
    for (size_t i = i0; i < i1; i++) {
        w->x[i] = w->p[i] + beta * (w->p[i] - w->pn[i]);
        w->yx[i] = (1.0 + beta) * w->yp[i] - beta * w->yn[i];
    }
    for (size_t i = i0; c->keep && i < i1; i++) /* a few entries: no memcpy call */
        w->best[i] = w->p[i];
}

/* Contact a: F = ŷ(y(x)) and s = F − y(x) on a refresh, else F = y(x) + s; 1 when finite. */
static int gradient_of(const ap_pass *c, int a, const cb_friction *f)
{
    ap_work *w = c->w;
    size_t d = (size_t)w->prob->d, off = (size_t)a * d;
    if (c->refresh)
        cb_modified_velocity(w->prob->kind, f, w->yx + off, w->F + off);
    for (size_t i = off; i < off + d; i++) {
        if (c->refresh)
            w->shift[i] = w->F[i] - w->yx[i];
        else
            w->F[i] = w->yx[i] + w->shift[i];
    }
    return cb_all_finite(w->F + off, d);
}

/* Contacts [a0, a1): the pending extrapolation when asked, F(x) (see gradient_of) when asked,
 * then pn = P_K(x − t F). Every piece is contact-local: one pass, each contact read once. */
static void step_rows(void *ctx, int a0, int a1)
{
    ap_pass *c = ctx;
    ap_work *w = c->w;
    int d = w->prob->d;
    for (int a = a0; a < a1; a++) {
        size_t off = (size_t)a * (size_t)d;
        if (c->extrapolate)
            extrapolate_entries(c, off, off + (size_t)d);
        cb_friction f;
        cb_problem_friction(w->prob, a, &f);
        if (c->gradient && !gradient_of(c, a, &f))
            c->bad = 1;
        double z[CB_MAX_DIM];
        for (int i = 0; i < d; i++)
            z[i] = w->x[off + i] - c->t * w->F[off + i];
        if (cb_project(w->prob->kind, &f, z, w->pn + off) == CB_PROJ_NONFINITE)
            c->bad = 1;
    }
}

/* The chunk of contacts [a0, a1): its AP_SUMS partial sums in index order, with
 * d = p_{k+1} − x_k and Δ = p_{k+1} − p_k, and each contact's residual term
 * ‖p_α − P_K(p_α − ŷ_α)‖² at pn; a non-finite y(p_{k+1}) is flagged. */
static void chunk_sums(ap_pass *c, int a0, int a1)
{
    ap_work *w = c->w;
    size_t d = (size_t)w->prob->d, i0 = (size_t)a0 * d, i1 = (size_t)a1 * d;
    double dWd = 0.0, dd = 0.0, uphill = 0.0, step2 = 0.0;
    for (size_t i = i0; i < i1; i++) {
        double di = w->pn[i] - w->x[i], dp = w->pn[i] - w->p[i];
        dWd += di * (w->yn[i] - w->yx[i]);
        dd += di * di;
        uphill += w->F[i] * dp;
        step2 += dp * dp;
    }
    if (!cb_all_finite(w->yn + i0, i1 - i0))
        c->bad = 1;
    double *part = w->part + (size_t)AP_SUMS * (size_t)(a0 / CB_PAR_CHUNK);
    part[0] = dWd, part[1] = dd, part[2] = uphill, part[3] = step2;
    for (int a = a0; a < a1; a++) {
        cb_friction f;
        cb_problem_friction(w->prob, a, &f);
        size_t off = (size_t)a * d;
        w->res2[a] = cb_contact_residual2(w->prob->kind, &f, w->pn + off, w->yn + off);
    }
}

/* Chunks of contacts [a0, a1): yn = W pn + q chunk by chunk when W's rows can be had a range
 * at a time (else it is there already), then chunk_sums: each chunk read once, just written. */
static void product_rows(void *ctx, int a0, int a1)
{
    ap_pass *c = ctx;
    ap_work *w = c->w;
    for (int a = a0; a < a1; a += CB_PAR_CHUNK) {
        int end = a1 - a < CB_PAR_CHUNK ? a1 : a + CB_PAR_CHUNK;
        if (w->rows_ok)
            cb_problem_y_rows(w->prob, w->pn, w->yn, a, end);
        chunk_sums(c, a, end);
    }
}

/* pn = P_K(x − t F(x)) (the pending extrapolation first; F(x) first when `gradient`:
 * F = y(x) + s, s = g(y(x)) refreshed when `refresh`, else the last one), yn = W pn + q, the
 * AP_SUMS sums (each the chunks' partial sums in order: the same bits for any thread count) and
 * the contacts' residual terms; 1 when finite. Two parallel passes. */
static int candidate(ap_run *r, int gradient, int refresh, double sums[AP_SUMS])
{
    ap_work *w = r->w;
    ap_pass c = {.w = w, .gradient = gradient, .refresh = refresh, .t = 1.0 / r->L,
                 .extrapolate = r->pending, .beta = r->beta, .keep = r->keep};
    r->pending = 0;
    cb_parallel_rows(w->prob->nc, step_rows, &c);
    r->info->work.projections += w->prob->nc;
    if (c.bad)
        return 0;
    if (w->half)
        cb_whalf_y(w->half, w->pn, w->prob->q, w->yn);
    else if (!w->rows_ok)
        cb_problem_y(w->prob, w->pn, w->yn);
    r->info->work.block_products += cb_problem_blocks_per_matvec(w->prob);
    cb_parallel_chunks_by(w->prob->nc, w->work, product_rows, &c);
    for (int j = 0; j < AP_SUMS; j++)
        sums[j] = 0.0;
    for (int ch = 0; ch < cb_par_nchunks(w->prob->nc); ch++)
        for (int j = 0; j < AP_SUMS; j++)
            sums[j] += w->part[(size_t)AP_SUMS * ch + j];
    return !c.bad;
}

/* The judge's residual at the accepted candidate pn: e² = Σ_α of the terms in contact order
 * (cb_fo_residual2's bits), then the norms. */
static void residual(ap_run *r)
{
    ap_work *w = r->w;
    double e2 = 0.0;
    for (int a = 0; a < w->prob->nc; a++)
        e2 += w->res2[a];
    cb_fo_residual_of(w->prob, w->pn, w->yn, &w->scale, e2, &r->res, &r->info->work);
}

/* ---------------------------------------------------------------- iterations */

static int time_up(const ap_run *r)
{
    return cb_fo_time_up(r->s, r->t0);
}

/* F(x), then p_{k+1} = P_K(x − F/L), doubling L until ½dᵀWd ≤ ½L‖d‖² (d = p_{k+1} − x); 0 if not finite.
 * sums: the AP_SUMS sums of the accepted step. */
static int backtrack(ap_run *r, int refresh, double sums[AP_SUMS])
{
    for (int doublings = 0;; doublings++) {
        if (!candidate(r, doublings == 0, refresh, sums))
            return 0;
        if (sums[0] <= r->L * sums[1] || doublings >= AP_MAX_DOUBLINGS || time_up(r))
            return 1;
        r->L *= 2.0;
    }
}

/* Momentum: β (or a restart); p_k ← p_{k+1} (the vectors swap roles); x ← p_{k+1} +
 * β(p_{k+1} − p_k), y(x) alike and best ← p_{k+1} when `keep` are left pending for the next
 * step's pass (ap_settle when there is none). */
static void extrapolate(ap_run *r, const double sums[AP_SUMS], int keep)
{
    ap_work *w = r->w;
    r->step = sqrt(sums[3]);
    double th = r->theta, th1 = 0.5 * th * (sqrt(th * th + 4.0) - th);
    double beta = th * (1.0 - th) / (th * th + th1);
    r->theta = th1;
    if (w->par.restart && sums[2] > 0.0) {
        beta = 0.0;
        r->theta = 1.0;
    }
    r->beta = beta, r->keep = keep, r->pending = 1;
    double *t = w->p;
    w->p = w->pn, w->pn = t;
    t = w->yp;
    w->yp = w->yn, w->yn = t;
    r->L *= w->par.shrink;
}

/* The stopping test after k steps. With W's half, whose bits are not the judge's, a converged
 * p_{k+1} is judged again from y = W p + q by the judge's own kernel (kept as y(p_{k+1})) and
 * stops only if it still passes. */
static int stop_status(ap_run *r, int k)
{
    ap_work *w = r->w;
    int status = cb_fo_stop_status(&r->res, r->step, w->scale.norm_q, r->s, k, r->t0);
    if (status != CB_STATUS_CONVERGED || !w->half || k == 0)
        return status;
    cb_problem_y(w->prob, w->p, w->yp);
    r->info->work.block_products += cb_problem_blocks_per_matvec(w->prob);
    cb_fo_residual_eval(w->prob, w->p, w->yp, &w->scale, &r->res, &r->info->work);
    return cb_fo_stop_status(&r->res, r->step, w->scale.norm_q, r->s, k, r->t0);
}

/* Iterations from the evaluated warm start; the best iterate is kept in w->best. */
static int iterate(ap_run *r, int *k, int *status, cb_error *err)
{
    ap_work *w = r->w;
    for (*k = 0; (*status = stop_status(r, *k)) < 0;) {
        if (w->par.shift_every == 0 && r->every == 1 && *k - r->k_best > AP_STALL_STEPS)
            r->every = AP_STALL_EVERY; /* auto: stalled, freeze the shift between refreshes */
        double sums[AP_SUMS];
        if (!backtrack(r, *k % r->every == 0, sums)) { /* the best finite iterate is returned */
            r->res.err = r->res.err_q = NAN;
            *status = CB_STATUS_DIVERGED;
            return CB_OK;
        }
        ++*k;
        residual(r);
        int better = r->res.err < r->best_err || !isfinite(r->best_err);
        extrapolate(r, sums, better);
        if (better) {
            r->best_err = r->res.err;
            r->k_best = *k;
        }
        if (cb_info_trace(r->info, r->s, *k, r->t0, r->res.err) != CB_OK)
            return cb_fail(err, CB_ERR_NOMEM, "trace: out of memory");
    }
    return CB_OK;
}

/* Copies of the contacts' entries of src into up to AP_COPIES vectors (copy_rows). */
#define AP_COPIES 4
typedef struct {
    const double *src;
    double *dst[AP_COPIES];
    size_t d;
} ap_copy;

/* Contacts [a0, a1): dst_j ← src (each vector first touched by the thread that uses it). */
static void copy_rows(void *ctx, int a0, int a1)
{
    const ap_copy *c = ctx;
    size_t i0 = (size_t)a0 * c->d, len = (size_t)(a1 - a0) * c->d * sizeof(double);
    for (int j = 0; j < AP_COPIES && c->dst[j]; j++)
        memcpy(c->dst[j] + i0, c->src + i0, len);
}

/* The pending extrapolation's best ← p_{k+1} when no step took it (x and y(x) are not needed). */
static void ap_settle(ap_run *r)
{
    ap_copy c = {r->w->p, {r->w->best}, (size_t)r->w->prob->d};
    if (r->pending && r->keep)
        cb_parallel_rows(r->w->prob->nc, copy_rows, &c);
    r->pending = 0;
}

/* The start: pn, p, x, best ← the warm start; yn = W pn + q judged as iterate 0; yp, yx ← yn. */
static void ap_start(ap_run *r, const double *p0)
{
    ap_work *w = r->w;
    size_t d = (size_t)w->prob->d;
    ap_copy cp = {p0, {w->pn, w->p, w->x, w->best}, d};
    cb_parallel_rows(w->prob->nc, copy_rows, &cp);
    cb_problem_y(w->prob, w->pn, w->yn);
    r->info->work.block_products += cb_problem_blocks_per_matvec(w->prob);
    cb_fo_residual_eval(w->prob, w->pn, w->yn, &w->scale, &r->res, &r->info->work);
    ap_copy cy = {w->yn, {w->yp, w->yx}, d};
    cb_parallel_rows(w->prob->nc, copy_rows, &cy);
}

static int ap_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                    cb_error *err)
{
    ap_work *w = work;
    ap_run r = {.w = w, .s = s, .info = info, .t0 = cb_now(), .L = w->par.L0, .theta = 1.0};
    int k = 0, status = CB_STATUS_DIVERGED, rc = CB_OK;
    ap_start(&r, sol->p);
    r.best_err = r.res.err;
    r.every = w->par.shift_every > 0 ? w->par.shift_every : 1;
    if (cb_info_trace(info, s, 0, r.t0, r.res.err) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "trace: out of memory");
    if (rc == CB_OK && cb_all_finite(w->yp, w->n))
        rc = iterate(&r, &k, &status, err);
    ap_settle(&r);
    ap_copy out = {status == CB_STATUS_CONVERGED ? w->p : w->best, {sol->p}, (size_t)w->prob->d};
    cb_parallel_rows(w->prob->nc, copy_rows, &out);
    cb_problem_y(w->prob, sol->p, sol->y);
    info->status = (cb_status)status;
    info->iterations = k;
    info->solver_error = status == CB_STATUS_CONVERGED ? r.res.err : r.best_err;
    return rc;
}

const cb_solver cb_solver_apgd = {
    .name = "apgd",
    .summary = "accelerated projected gradient (Nesterov; Mazhar et al. 2015) on F = W p + q + "
               "g(W p + q): adaptive step, adaptive restart, best iterate returned",
    .options = ap_options,
    .supports = cb_fo_supports,
    .setup = ap_setup,
    .solve = ap_solve,
    .cleanup = ap_cleanup,
    .update = ap_update,
};
