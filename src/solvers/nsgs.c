/* conebench — nsgs (block Gauss–Seidel over contacts, Acary & Bourrier 2020 §5.2) and psor
 * (one projection step per contact per sweep, Jean–Moreau / Chrono style).
 *
 * Both keep y = W p + q up to date while sweeping: contact α reads q̄_α = y_α − W_αα p_α
 * (= q_α + Σ_{β≠α} W_αβ p_β), solves its local problem, and pushes its change Δp_α into y with
 * one block-column product y += W_{:,α} Δp_α (skipped when Δp_α = 0, e.g. a contact that stays
 * open). This is the same iteration as the row form (Gauss–Seidel), at the cost of one block
 * row/column per visited contact, but y is exact at the end of a sweep, so the judge's full
 * residual costs nc projections and no mat-vec. y is recomputed from scratch before a result is
 * declared solved (and at exit), so rounding drift can never make a run look solved.
 *
 * Factored W = G M⁻¹ Gᵀ (problem.h) is never assembled: the sweep keeps the body velocities
 * v_b = M_b⁻¹ Σ G_βtᵀ p_β instead of y, reads y_α = q_α + Σ_s G_αs v_body(α,s) when it visits α
 * (the same Gauss–Seidel iterate), and pushes Δp_α as v_b += M_b⁻¹ G_αsᵀ Δp_α: O(1) per visit
 * and no copy of W. y of every contact is brought up to date from v before a full residual;
 * v and y are recomputed from scratch wherever y is for the other storages.
 *
 * Local problems (nsgs): closed-form take-off / stick first (trivial=warm: only when they keep the
 * contact's mode — the local problem may have several solutions), then semismooth Newton on the
 * natural map (solvers/nsgs_local.c) or the self-adaptive projected fixed point. psor takes one
 * step p_α ← P_K(p_α − ρ_α ŷ_α) with ρ_α = rho_factor/‖W_αα‖₂.
 *
 * Relaxation (nsgs omega=auto, the default): Young's adaptive SOR on the observed rate of the
 * full residual (auto_omega); every decision reads only full residuals, which are the same bits
 * at any thread count, so the iterates are too.
 *
 * Work counters: block_products counts d×d block × vector products (column update: nc blocks for
 * dense, the column's stored blocks for BSR; W_αα p_α: 1; a full W p: nc² or nnzb); for
 * factored W one d×6 G block × vector counts as one (reading y_α and pushing Δp_α: one per
 * slot with a body; bringing y or v up to date: one per such slot of every contact; a full
 * W p: both, cb_problem_blocks_per_matvec), the 3×3 M_b⁻¹ products are not counted;
 * projections counts every one-contact projection (sweeps, local solvers, error evaluations);
 * local_iters counts local solver iterations (psor: 1 per visit); error_evals the full
 * residuals. All are deterministic. The sweep allocates nothing.
 */
#include "solvers_internal.h"
#include "nsgs_internal.h"
#include "nsgs_colour.h"
#include "first_order.h"
#include "rng.h"

#include "detmath.h"
#include "base.h"
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STALL_ZIGZAG 20     /* zigzags of the residual in a row: a 2-cycle (stall_check) */
#define STALL_DAMP 0.9      /* ω ← 0.9 ω on a stall */
#define STALL_OMEGA_MIN 0.5 /* ω is never lowered below 0.5 */
#define AUTO_WINDOW 10      /* omega=auto: full residuals per rate estimate */
#define AUTO_RATE_MIN 0.5   /* omega=auto: only a slower rate per sweep than this is relaxed */
#define AUTO_OMEGA_MAX 1.9  /* omega=auto: the highest ω it sets */
#define AUTO_GROWTH 4.0     /* omega=auto: the SOR transient may raise the error this much */
#define AUTO_MIN_LEFT 30    /* omega=auto: relax only when Gauss–Seidel needs more sweeps */
#define POLISH_WINDOW 1000  /* polish=auto: sweeps of a window of the stall rule (polish_due) */
#define POLISH_FLAT 2.0     /* polish=auto: a window's residuals within this factor: a stall */
#define POLISH_STEPS 100    /* polish=auto: active-set solves in one polish */
#define POLISH_PROX 1e-6    /* polish=auto: ε = 1e-6 max ‖W_αα‖₂ (doubled after a failure) */
#define VISIT_WEIGHT 2      /* order=coloured: a visit's cost in block products besides its
                               pushes, for sharing a colour out among threads */

typedef enum { LOCAL_AUTO = 0, LOCAL_NEWTON = 1, LOCAL_PROJ = 2, LOCAL_ENUM = 3 } local_kind;
typedef enum { ORDER_NATURAL = 0, ORDER_SHUFFLED = 1, ORDER_SYMMETRIC = 2, ORDER_COLOURED = 3,
               ORDER_DOMAINS = 4 } sweep_order;
typedef enum { TRIVIAL_WARM = 0, TRIVIAL_ALWAYS = 1, TRIVIAL_NEVER = 2 } trivial_mode;

typedef struct {
    int psor;
    local_kind local;
    double local_tol;
    int local_max_iter;
    sweep_order order;
    uint64_t seed;
    double omega;
    int omega_auto; /* nsgs omega=auto: ω from the observed rate (auto_omega) */
    int error_every;
    trivial_mode trivial;
    double rho_factor;
    int polish;     /* nsgs polish=auto on coulomb2d: the active-set polish on a stall */
} gs_options;

typedef struct {
    const cb_problem *prob;
    int nc, d;
    size_t n;
    gs_options opt;
    double *diag, *lu;   /* nc·d² diagonal blocks and their LU factors */
    int *piv;            /* nc·d pivots */
    unsigned char *lu_ok;/* nc: diagonal block invertible */
    double *rho_nm;      /* nc: 1/‖W_αα‖₂ */
    double *rho;         /* nc: self-adaptive local ρ (reset at each solve) */
    double *qnorm;       /* nc: ‖q_α‖ */
    int *order;          /* visiting order of one sweep */
    int norder;
    int *cptr, *crow;    /* BSR only: block columns (pointers, block-row index) */
    int *cblk;           /* BSR only: each column entry's block in W's BSR values (no copy) */
    double *vel;         /* factored only: body velocities M⁻¹ Gᵀ p, 6 per body */
    cb_judge_scale scale; /* the judge's data scales */
    double local_tol;    /* of the current solve: min(option, max(tol/10, 1e-15)) */
    cb_rng rng;
    double omega;        /* this solve's relaxation: opt.omega, lowered on a stall (nsgs) */
    double last_e, last_de; /* the last full residual and its change */
    int zigzag;          /* changes in a row, each of the opposite sign to the one before */
    struct {             /* omega=auto (auto_omega) */
        int on, raised;  /* still adapting; ω > 1 set by it */
        int streak;      /* full residuals since the window began (ω = 1: each one falling) */
        int it0, it_mid; /* the window's first sweep, its middle one, and their errors */
        double e0, e_mid;
        double ref_rate; /* plain Gauss–Seidel's rate, measured before the raise */
        int it_raise;    /* the sweep of the raise */
        double om_good;  /* the ω of the last window that beat Gauss–Seidel (1: none) */
        double *p, *y, *v, *rho; /* the iterate kept at the window's start (auto_state) */
        double e, last_e, last_de;
        int zigzag;
    } au;
    cb_nsgs_colouring colouring; /* order=coloured: the colours (nsgs_colour.h) */
    double *dp2;         /* order=coloured: ‖Δp_α‖² of each visit, summed after the sweep */
    int *cost;           /* order=coloured: each visit's block products in the last sweep */
    int *cum;            /* order=coloured: VISIT_WEIGHT + cost, summed along the colour order */
    struct {             /* polish=auto (polish) */
        cb_nsgs_polish *pl; /* made at the first stall */
        double *p, *y, *t, *by, *best; /* two iterates and their y, the best one */
        double eps;      /* ε of the proximal term (0: not set yet) */
        int it0;         /* the sweep before the current window */
        double lo, hi;   /* the least and largest residual of the window */
        int steps, runs; /* active-set solves, polishes */
        cb_work work;    /* the polishes' counters */
        double time;     /* their wall seconds */
    } po;
} gs_work;

static const cb_option_spec nsgs_spec[] = {
    {"local", "auto", "local solver: auto (enum on coulomb2d and rolling2d, else newton) | newton "
                      "(semismooth Newton on the natural map, line search, falls back to proj) | "
                      "proj (projected fixed point, self-adaptive rho) | enum (exact active-set "
                      "enumeration of the polyhedral 2D cones; newton on the others)"},
    {"local_tol", "1e-10", "relative local tolerance on ||p - P_K(p - yhat)||, (0, 1); the run uses "
                          "min(local_tol, max(tol/10, 1e-15))"},
    {"local_max_iter", "100", "iterations per local solve (>= 1)"},
    {"trivial", "warm", "closed-form take-off (p = 0) and stick (p = -W_aa^-1 qbar) tries: warm "
                        "(take-off for an open contact, stick for a sticking one) | always | never"},
    {"order", "natural", "sweep order: natural | shuffled (new permutation every sweep from seed) "
                         "| symmetric (forward then backward in one sweep) | coloured (colour by colour, "
                         "contacts of a colour independent: on --threads, the same bits for any "
                         "count) | domains (nested dissection: parts of the contact graph, each in "
                         "contact order, then the separators between them, the root's halved; "
                         "parts of a level independent: on --threads, the same bits for any "
                         "count)"},
    {"seed", "1", "seed of the shuffled order (>= 0)"},
    {"omega", "auto", "relaxation p_a <- p_a + omega (p_local - p_a): auto (1, then Young's SOR "
                      "value 2/(1+sqrt(1-mu^2)) from the residual's rate once it falls slowly and "
                      "steadily, back to 1 when that loses to plain Gauss-Seidel; 1 with order "
                      "shuffled or symmetric) or a number in "
                      "(0, 2); lowered by 10 % (not below 0.5) after the residual zigzags 20 times "
                      "in a row (a 2-cycle of exact Gauss-Seidel on a rank-deficient W)"},
    {"error_every", "1", "full judged residual every k sweeps (a sweep whose change in p is below "
                         "tol also triggers one) (>= 1)"},
    {"polish", "auto", "coulomb2d: auto (when the judged residuals of a window of 1000 sweeps all "
                       "lie within a factor 2, each contact's status - take-off, stick, slide - is "
                       "read off the iterate and their linear equations, with a proximal term "
                       "eps = 1e-6 max ||W_aa|| on the rows of W, solved by a sparse LU, again from "
                       "each result, at most 100 solves; the best result replaces the iterate when "
                       "its residual is lower, else eps doubles for the next window) | off"},
    {NULL, NULL, NULL}};

static const cb_option_spec psor_spec[] = {
    {"rho_factor", "1.5", "rho_a = rho_factor / ||W_aa||_2, in [1e-6, 1e6]"},
    {"order", "natural", "sweep order: natural | shuffled (new permutation every sweep from seed) "
                         "| symmetric (forward then backward in one sweep) | coloured (colour by colour, "
                         "contacts of a colour independent: on --threads, the same bits for any "
                         "count) | domains (nested dissection: parts of the contact graph, each in "
                         "contact order, then the separators between them, the root's halved; "
                         "parts of a level independent: on --threads, the same bits for any "
                         "count)"},
    {"seed", "1", "seed of the shuffled order (>= 0)"},
    {"omega", "1", "relaxation p_a <- p_a + omega (P_K(p_a - rho_a yhat_a) - p_a), omega in (0, 2)"},
    {"error_every", "1", "full judged residual every k sweeps (a sweep whose change in p is below "
                         "tol also triggers one) (>= 1)"},
    {NULL, NULL, NULL}};

/* ---------------------------------------------------------------- options */

/* *out = index of the option's value in names[0..count), or CB_ERR_INPUT naming the key. */
static int option_choice(const cb_settings *s, const cb_option_spec *spec, const char *key,
                         const char *const *names, int count, int *out, cb_error *err)
{
    const char *v = cb_option_get(s, spec, key);
    for (int i = 0; v && i < count; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return CB_OK;
        }
    char list[128] = "";
    for (int i = 0; i < count; i++) {
        strncat(list, names[i], sizeof list - strlen(list) - 1);
        if (i + 1 < count)
            strncat(list, " | ", sizeof list - strlen(list) - 1);
    }
    return cb_fail(err, CB_ERR_INPUT, "option %s: '%s' is not one of %s", key, v ? v : "",
                   list);
}

/* Options both solvers share: order, seed, omega, error_every. */
static int parse_common(const cb_settings *s, const cb_option_spec *spec, gs_options *o,
                        cb_error *err)
{
    static const char *const orders[] = {"natural", "shuffled", "symmetric", "coloured",
                                         "domains"};
    int ord = 0;
    long seed = 0, every = 1;
    int rc = option_choice(s, spec, "order", orders, 5, &ord, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, spec, "seed", 0, LONG_MAX, &seed, err);
    const char *om = cb_option_get(s, spec, "omega");
    o->omega_auto = rc == CB_OK && spec == nsgs_spec && om && strcmp(om, "auto") == 0;
    o->omega = 1.0;
    if (rc == CB_OK && !o->omega_auto)
        rc = cb_option_double(s, spec, "omega", 1e-3, 1.999, &o->omega, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, spec, "error_every", 1, INT_MAX, &every, err);
    o->order = (sweep_order)ord;
    o->seed = (uint64_t)seed;
    o->error_every = (int)every;
    return rc;
}

/* nsgs-only options: local, local_tol, local_max_iter, trivial, polish. */
static int parse_local(const cb_settings *s, gs_options *o, cb_error *err)
{
    static const char *const locals[] = {"auto", "newton", "proj", "enum"};
    static const char *const trivials[] = {"warm", "always", "never"};
    static const char *const polishes[] = {"off", "auto"};
    int loc = 0, triv = 0, pol = 1;
    long maxit = 1;
    int rc = option_choice(s, nsgs_spec, "local", locals, 4, &loc, err);
    if (rc == CB_OK)
        rc = cb_option_double(s, nsgs_spec, "local_tol", DBL_MIN, 0.999, &o->local_tol, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, nsgs_spec, "local_max_iter", 1, 1000000, &maxit, err);
    if (rc == CB_OK)
        rc = option_choice(s, nsgs_spec, "trivial", trivials, 3, &triv, err);
    if (rc == CB_OK)
        rc = option_choice(s, nsgs_spec, "polish", polishes, 2, &pol, err);
    o->polish = pol;
    o->local = (local_kind)loc;
    o->local_max_iter = (int)maxit;
    o->trivial = (trivial_mode)triv;
    return rc;
}

static int parse_options(const cb_settings *s, int psor, gs_options *o, cb_error *err)
{
    const cb_option_spec *spec = psor ? psor_spec : nsgs_spec;
    memset(o, 0, sizeof *o);
    o->psor = psor;
    int rc = cb_options_check(s, spec, psor ? "psor" : "nsgs", err);
    if (rc == CB_OK)
        rc = parse_common(s, spec, o, err);
    if (rc == CB_OK && psor)
        rc = cb_option_double(s, spec, "rho_factor", 1e-6, 1e6, &o->rho_factor, err);
    if (rc == CB_OK && !psor)
        rc = parse_local(s, o, err);
    return rc;
}

/* ---------------------------------------------------------------- setup */

static void gs_cleanup(void *work)
{
    gs_work *w = work;
    if (!w)
        return;
    free(w->diag);
    free(w->lu);
    free(w->piv);
    free(w->lu_ok);
    free(w->rho_nm);
    free(w->rho);
    free(w->qnorm);
    free(w->order);
    free(w->cptr);
    free(w->crow);
    free(w->cblk);
    free(w->vel);
    free(w->au.p);
    free(w->au.y);
    free(w->au.v);
    free(w->au.rho);
    cb_nsgs_colouring_free(&w->colouring);
    free(w->dp2);
    free(w->cost);
    free(w->cum);
    cb_nsgs_polish_free(w->po.pl);
    free(w->po.p);
    free(w->po.y);
    free(w->po.best);
    free(w->po.t);
    free(w->po.by);
    free(w);
}

/* Block-column index of a BSR matrix: column β lists its blocks in row order (their rows and
 * where W's BSR values hold them), so a column update reads W itself, never a copy. */
static void build_columns(gs_work *w)
{
    const cb_bsr *b = &w->prob->bsr;
    for (int k = 0; k < b->nnzb; k++)
        w->cptr[b->col[k] + 1]++;
    for (int c = 0; c < w->nc; c++)
        w->cptr[c + 1] += w->cptr[c];
    int *fill = w->order; /* scratch (≥ nc entries), reset by the solve */
    memcpy(fill, w->cptr, (size_t)w->nc * sizeof(int));
    for (int a = 0; a < w->nc; a++)
        for (int k = b->row_ptr[a]; k < b->row_ptr[a + 1]; k++) {
            int slot = fill[b->col[k]]++;
            w->crow[slot] = a;
            w->cblk[slot] = k;
        }
}

/* order=coloured or domains: the phases of independent units (nsgs_colour.h), from W's pattern. */
static int make_phases(gs_work *w)
{
    cb_nsgs_colouring_free(&w->colouring);
    return w->opt.order == ORDER_DOMAINS ? cb_nsgs_domains(w->prob, &w->colouring)
                                         : cb_nsgs_colour(w->prob, &w->colouring);
}

static int alloc_work(const cb_problem *prob, const gs_options *o, gs_work **out)
{
    gs_work *w = calloc(1, sizeof *w);
    *out = w;
    if (!w)
        return CB_ERR_NOMEM;
    w->prob = prob;
    w->nc = prob->nc;
    w->d = prob->d;
    w->n = cb_problem_n(prob);
    w->opt = *o;
    size_t nc = (size_t)w->nc, dd = (size_t)(w->d * w->d);
    w->norder = o->order == ORDER_SYMMETRIC ? 2 * w->nc - 1 : w->nc;
    w->diag = cb_malloc_array(nc * dd, sizeof(double));
    w->lu = cb_malloc_array(nc * dd, sizeof(double));
    w->piv = cb_malloc_array(w->n, sizeof(int));
    w->lu_ok = cb_calloc(nc, 1);
    w->rho_nm = cb_malloc_array(nc, sizeof(double));
    w->rho = cb_malloc_array(nc, sizeof(double));
    w->qnorm = cb_malloc_array(nc, sizeof(double));
    w->order = cb_malloc_array((size_t)w->norder, sizeof(int));
    int ok = w->diag && w->lu && w->piv && w->lu_ok && w->rho_nm && w->rho && w->qnorm && w->order;
    if (ok && prob->storage == CB_STORAGE_BSR) {
        w->cptr = cb_calloc(nc + 1, sizeof(int));
        w->crow = cb_malloc_array((size_t)prob->bsr.nnzb, sizeof(int));
        w->cblk = cb_malloc_array((size_t)prob->bsr.nnzb, sizeof(int));
        ok = w->cptr && w->crow && w->cblk;
    }
    if (ok && prob->storage == CB_STORAGE_FACTORED) {
        w->vel = cb_malloc_array((size_t)prob->fac.nbody, 6 * sizeof(double));
        ok = w->vel != NULL;
    }
    if (ok && o->omega_auto) {
        size_t nv = prob->storage == CB_STORAGE_FACTORED ? 6 * (size_t)prob->fac.nbody : 0;
        ok = (w->au.p = cb_malloc_array(w->n, sizeof(double))) &&
             (w->au.y = cb_malloc_array(w->n, sizeof(double))) &&
             (w->au.v = cb_malloc_array(nv + 1, sizeof(double))) &&
             (w->au.rho = cb_malloc_array(nc, sizeof(double)));
    }
    if (ok && (o->order == ORDER_COLOURED || o->order == ORDER_DOMAINS))
        ok = (w->dp2 = cb_malloc_array(nc + 1, sizeof(double))) &&
             (w->cost = cb_calloc(nc + 1, sizeof(int))) &&
             (w->cum = cb_malloc_array(nc + 1, sizeof(int))) && make_phases(w) == CB_OK;
    return ok ? CB_OK : CB_ERR_NOMEM;
}

/* Contact α's W_αα, its LU (stick solution) and ρ = 1/‖W_αα‖₂; with keep, the factors stay
 * when W_αα is bit for bit the one they were made from. */
static void diagonal_block(gs_work *w, int a, int keep)
{
    int d = w->d;
    size_t dd = (size_t)(d * d);
    double *D = w->diag + a * dd, B[CB_MAX_DIM * CB_MAX_DIM];
    cb_problem_diag_block(w->prob, a, B);
    if (keep && memcmp(B, D, dd * sizeof *B) == 0)
        return;
    memcpy(D, B, dd * sizeof *B);
    w->lu_ok[a] = cb_nsgs_lu_factor(d, D, w->lu + a * dd, w->piv + (size_t)a * d) == 0;
    double nw = cb_nsgs_norm2(d, D);
    w->rho_nm[a] = nw > 0 && isfinite(nw) ? 1.0 / nw : 1.0;
}

/* Per contact: W_αα, its LU, ρ (changed & CB_CHANGED_W; keep: the factors of unchanged blocks
 * stay), ‖q_α‖ (CB_CHANGED_Q); the judge's scales always. */
static void precompute_contacts(gs_work *w, unsigned changed, int keep)
{
    int d = w->d;
    for (int a = 0; a < w->nc; a++) {
        if (changed & CB_CHANGED_W)
            diagonal_block(w, a, keep);
        if (changed & CB_CHANGED_Q)
            w->qnorm[a] = cb_nrm2(w->prob->q + (size_t)a * d, (size_t)d);
    }
    cb_judge_scale_of(w->prob, &w->scale);
    if ((changed & CB_CHANGED_W) && w->prob->storage == CB_STORAGE_BSR) {
        memset(w->cptr, 0, ((size_t)w->nc + 1) * sizeof *w->cptr);
        build_columns(w);
    }
}

/* The work as a fresh setup makes it after prob's q, μ or W values changed: the diagonal blocks
 * refactored only where W_αα changed (μ alone: nothing but the scales). */
static int gs_update(void *work, const cb_problem *prob, unsigned changed, cb_error *err)
{
    gs_work *w = work;
    w->prob = prob;
    precompute_contacts(w, changed, 1);
    cb_nsgs_polish_free(w->po.pl); /* it reads W and q (or a copy): made again at a stall */
    w->po.pl = NULL;
    if ((w->opt.order == ORDER_COLOURED || w->opt.order == ORDER_DOMAINS) &&
        (changed & CB_CHANGED_W) && prob->storage == CB_STORAGE_DENSE &&
        make_phases(w) != CB_OK) /* its phases follow the nonzero blocks */
        return cb_fail(err, CB_ERR_NOMEM, "nsgs: out of memory for the sweep's phases");
    return CB_OK;
}

static int gs_setup(const cb_problem *prob, const cb_settings *s, int psor, void **work,
                    cb_error *err)
{
    *work = NULL;
    gs_options o;
    int rc = parse_options(s, psor, &o, err);
    if (rc != CB_OK)
        return rc;
    gs_work *w = NULL;
    if (alloc_work(prob, &o, &w) != CB_OK) {
        gs_cleanup(w);
        return cb_fail(err, CB_ERR_NOMEM, "%s: out of memory (nc = %d)", psor ? "psor" : "nsgs",
                       prob->nc);
    }
    precompute_contacts(w, CB_CHANGED_Q | CB_CHANGED_W, 0);
    *work = w;
    return CB_OK;
}

static int nsgs_setup(const cb_problem *prob, const cb_settings *s, void **work, cb_error *err)
{
    return gs_setup(prob, s, 0, work, err);
}

static int psor_setup(const cb_problem *prob, const cb_settings *s, void **work, cb_error *err)
{
    return gs_setup(prob, s, 1, work, err);
}

static int gs_supports(const cb_problem *prob, cb_error *err)
{
    if (prob->storage != CB_STORAGE_DENSE && prob->storage != CB_STORAGE_BSR &&
        prob->storage != CB_STORAGE_FACTORED)
        return cb_fail(err, CB_ERR_INPUT, "storage: nsgs/psor need dense, BSR or factored W "
                       "(got %d)", (int)prob->storage);
    return CB_OK;
}

/* ---------------------------------------------------------------- kernels */

/* y[0..m) += B x, B with d columns of leading dimension ld (d known at compile time). */
static inline __attribute__((always_inline)) void cols_axpy(int d, const double *B, size_t ld,
                                                            size_t m, const double *x, double *y)
{
    for (size_t i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < d; j++)
            s += B[i + (size_t)j * ld] * x[j];
        y[i] += s;
    }
}

/* y += W_{:,α} dx; returns the number of blocks multiplied. */
static inline __attribute__((always_inline)) long long column_update_d(const gs_work *w, int d,
                                                                      int a, const double *dx,
                                                                      double *y)
{
    const cb_problem *P = w->prob;
    if (P->storage == CB_STORAGE_DENSE) {
        cols_axpy(d, P->W + (size_t)a * d * w->n, w->n, w->n, dx, y);
        return w->nc;
    }
    size_t dd = (size_t)(d * d);
    for (int k = w->cptr[a]; k < w->cptr[a + 1]; k++)
        cols_axpy(d, P->bsr.val + (size_t)w->cblk[k] * dd, (size_t)d, (size_t)d, dx,
                  y + (size_t)w->crow[k] * d);
    return w->cptr[a + 1] - w->cptr[a];
}

/* y += W_{:,α} dx with d specialised. */
static long long column_update(const gs_work *w, int a, const double *dx, double *y)
{
    switch (w->d) {
    case 2: return column_update_d(w, 2, a, dx, y);
    case 3: return column_update_d(w, 3, a, dx, y);
    case 5: return column_update_d(w, 5, a, dx, y);
    case 6: return column_update_d(w, 6, a, dx, y);
    default: return column_update_d(w, w->d, a, dx, y);
    }
}

/* Factored: y_α = q_α + Σ_s G_αs v_body(α,s) (d×6 blocks); returns the blocks used. */
static inline __attribute__((always_inline)) long long fac_y_d(const cb_problem *P, int d,
                                                               int a, const double *vel,
                                                               double *ya)
{
    const cb_factored *f = &P->fac;
    long long used = 0;
    for (int r = 0; r < d; r++)
        ya[r] = P->q[(size_t)a * d + r];
    for (int s = 0; s < 2; s++) {
        int b = f->body[2 * a + s];
        if (b < 0)
            continue;
        const double *G = f->G + (size_t)(2 * a + s) * 6 * d, *v = vel + 6 * (size_t)b;
        for (int r = 0; r < d; r++) {
            const double *g = G + 6 * r;
            ya[r] += g[0] * v[0] + g[1] * v[1] + g[2] * v[2] + g[3] * v[3] + g[4] * v[4] +
                     g[5] * v[5];
        }
        used++;
    }
    return used;
}

/* Factored: v_b += M_b⁻¹ G_αsᵀ Δp_α for each slot with a body; returns the blocks used. */
static inline __attribute__((always_inline)) long long fac_push_d(const cb_problem *P, int d,
                                                                  int a, const double *dp,
                                                                  double *vel)
{
    const cb_factored *f = &P->fac;
    long long used = 0;
    for (int s = 0; s < 2; s++) {
        int b = f->body[2 * a + s];
        if (b < 0)
            continue;
        const double *G = f->G + (size_t)(2 * a + s) * 6 * d, *m = f->minv + 10 * (size_t)b;
        double fr[6] = {0, 0, 0, 0, 0, 0}, *v = vel + 6 * (size_t)b;
        for (int r = 0; r < d; r++)
            for (int k = 0; k < 6; k++)
                fr[k] += G[6 * r + k] * dp[r];
        for (int k = 0; k < 3; k++)
            v[k] += m[0] * fr[k];
        for (int r = 0; r < 3; r++)
            v[3 + r] += m[1 + 3 * r] * fr[3] + m[2 + 3 * r] * fr[4] + m[3 + 3 * r] * fr[5];
        used++;
    }
    return used;
}

/* Factored y_α from the body velocities, d specialised. */
static long long fac_y(const gs_work *w, int a, double *ya)
{
    switch (w->d) {
    case 2: return fac_y_d(w->prob, 2, a, w->vel, ya);
    case 3: return fac_y_d(w->prob, 3, a, w->vel, ya);
    case 5: return fac_y_d(w->prob, 5, a, w->vel, ya);
    case 6: return fac_y_d(w->prob, 6, a, w->vel, ya);
    default: return fac_y_d(w->prob, w->d, a, w->vel, ya);
    }
}

/* Factored push of Δp_α into the body velocities, d specialised. */
static long long fac_push(const gs_work *w, int a, const double *dp)
{
    switch (w->d) {
    case 2: return fac_push_d(w->prob, 2, a, dp, w->vel);
    case 3: return fac_push_d(w->prob, 3, a, dp, w->vel);
    case 5: return fac_push_d(w->prob, 5, a, dp, w->vel);
    case 6: return fac_push_d(w->prob, 6, a, dp, w->vel);
    default: return fac_push_d(w->prob, w->d, a, dp, w->vel);
    }
}

/* Factored: y = q + G v for every contact (before a full residual). */
static void fac_sync_y(const gs_work *w, double *y, cb_work *wk)
{
    long long used = 0;
    CB_OMP(omp parallel for num_threads(cb_threads_for(w->nc)) schedule(static)
           reduction(+ : used))
    for (int a = 0; a < w->nc; a++)
        used += fac_y(w, a, y + (size_t)a * w->d);
    wk->block_products += used;
}

/* p_α ← p_α + ω (pn − p_α) (projected back on K when ω > 1), y += W_{:,α} Δp_α (factored:
 * v += M⁻¹ G_αᵀ Δp_α). Returns ‖Δp_α‖². */
static double apply_update(const gs_work *w, int a, double *pn, double *p, double *y,
                           cb_work *wk)
{
    int d = w->d;
    double *pa = p + (size_t)a * d, dp[CB_MAX_DIM], s = 0;
    if (w->omega != 1.0) {
        for (int i = 0; i < d; i++)
            pn[i] = pa[i] + w->omega * (pn[i] - pa[i]);
        if (w->omega > 1.0) {
            cb_friction f;
            cb_problem_friction(w->prob, a, &f);
            cb_project(w->prob->kind, &f, pn, pn);
            wk->projections++;
        }
    }
    int moved = 0;
    for (int i = 0; i < d; i++) {
        dp[i] = pn[i] - pa[i];
        moved |= dp[i] != 0.0 || isnan(dp[i]);
        s += dp[i] * dp[i];
        pa[i] = pn[i];
    }
    if (moved)
        wk->block_products += w->vel ? fac_push(w, a, dp) : column_update(w, a, dp, y);
    return s;
}

/* ---------------------------------------------------------------- sweeps */

/* 1 iff p is in the interior of K: r_N > 0 and ‖x_i‖ < μ_i r_N (x_i = 0 where μ_i = 0). */
static int sticking(const cb_nsgs_local *lp, const double *p)
{
    cb_disk_cone c;
    cb_disk_cone_of(lp->kind, &lp->f, &c);
    if (!(p[0] > 0))
        return 0;
    for (int b = 0, off = 1; b < c.nblocks; off += c.size[b], b++) {
        double n2 = 0, cap = c.mu[b] * p[0];
        for (int k = 0; k < c.size[b]; k++)
            n2 += p[off + k] * p[off + k];
        if (!(n2 < cap * cap || (c.mu[b] == 0 && n2 == 0)))
            return 0;
    }
    return 1;
}

/* Which closed-form solutions may contact α try (lp->lu = NULL disables stick)? The local
 * problem can have several solutions (W_αα couples normal and tangential parts, μ large):
 * 'warm' keeps the mode — take-off only for an open contact (p_α = 0), stick only for a sticking
 * one (p_α in the interior of K) — and lets the local solver, started at p_α, find the nearby
 * solution otherwise; jumping between solutions can stall the sweep (seen on random SPD
 * coulomb3d). Returns 0 when none may be tried. */
static int trivial_allowed(const gs_work *w, cb_nsgs_local *lp, const double *pa)
{
    if (w->opt.trivial != TRIVIAL_WARM)
        return w->opt.trivial == TRIVIAL_ALWAYS;
    int open = 1, d = w->d;
    for (int i = 0; i < d; i++)
        open &= pa[i] == 0.0;
    if (open) {
        lp->lu = NULL;
        return 1;
    }
    if (lp->qbar[0] >= 0) /* take-off from a closed contact: leave it to the local solver */
        return 0;
    if (!sticking(lp, pa))
        lp->lu = NULL;
    return 1;
}

/* nsgs at contact α: q̄ = y_α − W_αα p_α, then take-off/stick, then the local solver. */
static void nsgs_contact(gs_work *w, int a, const double *p, const double *y, double *pn,
                         cb_work *wk)
{
    int d = w->d;
    size_t off = (size_t)a * d, dd = (size_t)(d * d);
    double qbar[CB_MAX_DIM];
    cb_nsgs_local lp = {.kind = w->prob->kind, .d = d, .W = w->diag + a * dd,
                        .lu = w->lu_ok[a] ? w->lu + a * dd : NULL, .piv = w->piv + off,
                        .qbar = qbar, .qnorm = w->qnorm[a], .rho_nm = w->rho_nm[a],
                        .rho = w->rho + a, .tol = w->local_tol,
                        .max_iter = w->opt.local_max_iter};
    cb_problem_friction(w->prob, a, &lp.f);
    for (int i = 0; i < d; i++) {
        double s = y[off + i];
        for (int j = 0; j < d; j++)
            s -= lp.W[i + j * d] * p[off + j];
        qbar[i] = s;
        pn[i] = p[off + i];
    }
    wk->block_products++;
    if (trivial_allowed(w, &lp, pn) && cb_nsgs_local_trivial(&lp, pn))
        return;
    cb_nsgs_local_stats st = {0, 0};
    if (w->opt.local == LOCAL_PROJ)
        cb_nsgs_local_proj(&lp, pn, &st);
    else if (w->opt.local == LOCAL_NEWTON)
        cb_nsgs_local_newton(&lp, pn, &st);
    else /* auto and enum: enumeration on the polyhedral kinds, Newton on the others */
        cb_nsgs_local_enum(&lp, pn, &st);
    wk->local_iters += st.iters;
    wk->projections += st.projections;
}

/* psor at contact α: pn = P_K(p_α − ρ_α ŷ(y_α)). */
static void psor_contact(const gs_work *w, int a, const double *p, const double *y, double *pn,
                         cb_work *wk)
{
    int d = w->d;
    size_t off = (size_t)a * d;
    cb_friction f;
    cb_problem_friction(w->prob, a, &f);
    double yh[CB_MAX_DIM], rho = w->opt.rho_factor * w->rho_nm[a];
    cb_modified_velocity(w->prob->kind, &f, y + off, yh);
    for (int i = 0; i < d; i++)
        pn[i] = p[off + i] - rho * yh[i];
    cb_project(w->prob->kind, &f, pn, pn);
    wk->projections++;
    wk->local_iters++;
}

/* Visit contact α: its local problem, then p_α and y (or v) updated; returns ‖Δp_α‖². */
static double visit(gs_work *w, int a, double *p, double *y, cb_work *wk)
{
    double pn[CB_MAX_DIM];
    if (w->vel) /* factored: y_α from the current body velocities */
        wk->block_products += fac_y(w, a, y + (size_t)a * w->d);
    if (w->opt.psor)
        psor_contact(w, a, p, y, pn, wk);
    else
        nsgs_contact(w, a, p, y, pn, wk);
    return apply_update(w, a, pn, p, y, wk);
}

/* order=coloured, contacts [i0, i1) of the colour order: visits, each one's ‖Δp_α‖² into dp2
 * and its block products into cost. */
static void visit_range(gs_work *w, int i0, int i1, double *p, double *y, cb_work *mine)
{
    for (int i = i0; i < i1; i++) {
        long long b0 = mine->block_products;
        w->dp2[i] = visit(w, w->colouring.order[i], p, y, mine);
        w->cost[i] = (int)(mine->block_products - b0);
    }
}

/* order=coloured: thread t's contiguous range of phase [s0, s1), cut where the work cum is even. */
static void visit_share(gs_work *w, int s0, int s1, int threads, int t, double *p, double *y,
                        cb_work *mine)
{
    int r0, r1;
    cb_parallel_part(s1 - s0, w->cum + s0, threads, t, &r0, &r1);
    visit_range(w, s0 + r0, s0 + r1, p, y, mine);
}

/* order=domains: thread t's units of phase [s0, s1). Every thread deals the phase's units out
 * the same way, longest first (by the work cum), each to the least loaded thread so far (ties:
 * the lower), and visits its own: within one unit of even, where a contiguous cut is within
 * half the phase's largest unit. The units are independent: the bits are one thread's. */
static void visit_units(gs_work *w, int s0, int s1, int threads, int t, double *p, double *y,
                        cb_work *mine)
{
    const cb_nsgs_colouring *c = &w->colouring;
    const int *cum = w->cum;
    int u[CB_DOMAIN_MAX_UNITS], m = 0;
    long long load[CB_THREADS_MAX] = {0};
    /* by work, stable; a phase has at most 2^depth units (the leaves, or the deepest halves) */
    for (int i = s0; i < s1 && m < CB_DOMAIN_MAX_UNITS; i = c->uend[i]) {
        int k = m++;
        for (; k > 0 && cum[c->uend[u[k - 1]]] - cum[u[k - 1]] < cum[c->uend[i]] - cum[i]; k--)
            u[k] = u[k - 1];
        u[k] = i;
    }
    for (int k = 0; k < m; k++) {
        int best = 0;
        for (int j = 1; j < threads; j++)
            best = load[j] < load[best] ? j : best;
        load[best] += cum[c->uend[u[k]]] - cum[u[k]];
        if (best == t)
            visit_range(w, u[k], c->uend[u[k]], p, y, mine);
    }
}

/* order=coloured or domains: phase by phase (a colour, or the leaves, then the separators level
 * by level, the root's halves and their separator last; empty phases skipped), each phase
 * shared out among the threads by the last sweep's work (cum: VISIT_WEIGHT + block products a
 * visit; open contacts push nothing, and they gather in parts of the pile): a colour in
 * contiguous ranges (visit_share), a phase of domains unit by unit (visit_units). The contacts of a colour, and the units of a phase,
 * are independent (nsgs_colour.h), so the shares change no bit. ‖Δp‖² summed in the visiting
 * order afterwards, so every bit is the one thread's. Dense W runs on one thread (a column
 * update writes all of y). */
static double sweep_coloured(gs_work *w, double *p, double *y, cb_work *wk)
{
    const cb_nsgs_colouring *c = &w->colouring;
    int threads = w->prob->storage == CB_STORAGE_DENSE ? 1 : cb_threads_for(w->nc);
    if (threads == 1) {
        visit_range(w, 0, w->nc, p, y, wk);
    } else {
        w->cum[0] = 0;
        for (int i = 0; i < w->nc; i++)
            w->cum[i + 1] = w->cum[i] + VISIT_WEIGHT + w->cost[i];
        long long bp = 0, pr = 0, li = 0;
        CB_OMP(omp parallel num_threads(threads) reduction(+ : bp, pr, li))
        {
            cb_work mine = {0, 0, 0, 0};
            for (int k = 0; k < c->nphases; k++) {
                if (c->start[k] == c->start[k + 1])
                    continue; /* an empty phase: no barrier */
                CB_OMP(omp for schedule(static))
                for (int t = 0; t < threads; t++)
                    (c->uend ? visit_units : visit_share)(w, c->start[k], c->start[k + 1],
                                                          threads, t, p, y, &mine);
            }
            bp += mine.block_products, pr += mine.projections, li += mine.local_iters;
        }
        wk->block_products += bp, wk->projections += pr, wk->local_iters += li;
    }
    double dp2 = 0;
    for (int i = 0; i < w->nc; i++)
        dp2 += w->dp2[i];
    return dp2;
}

/* One sweep over w->order (or the colours); returns ‖Δp‖² (non-finite when an iterate is). */
static double sweep(gs_work *w, double *p, double *y, cb_work *wk)
{
    if (w->opt.order == ORDER_COLOURED || w->opt.order == ORDER_DOMAINS)
        return sweep_coloured(w, p, y, wk);
    double dp2 = 0;
    for (int k = 0; k < w->norder; k++)
        dp2 += visit(w, w->order[k], p, y, wk);
    return dp2;
}

/* Fill the visiting order for the next sweep (a fresh permutation when shuffled). */
static void next_order(gs_work *w, int first)
{
    int nc = w->nc;
    if (w->opt.order == ORDER_SHUFFLED) {
        if (first)
            for (int i = 0; i < nc; i++)
                w->order[i] = i;
        for (int i = nc - 1; i > 0; i--) { /* Fisher–Yates */
            int j = (int)cb_rng_below(&w->rng, (uint64_t)i + 1);
            int t = w->order[i];
            w->order[i] = w->order[j];
            w->order[j] = t;
        }
        return;
    }
    if (!first)
        return;
    for (int i = 0; i < nc; i++)
        w->order[i] = i;
    for (int i = nc; i < w->norder; i++) /* symmetric: back from nc − 2 to 0 */
        w->order[i] = 2 * nc - 2 - i;
}

/* ---------------------------------------------------------------- residual and solve */

/* The judge's residual of (p, y): its error_data (≥ ‖e‖/max(‖q‖,‖p‖,‖y‖)), *err_q = ‖e‖/‖q‖. */
static double full_error(const gs_work *w, const double *p, const double *y, cb_work *wk,
                         double *err_q)
{
    double e2 = cb_fo_residual2(w->prob, p, y, w->dp2); /* dp2 free here: scratch */
    wk->projections += w->nc;
    wk->error_evals++;
    double np = cb_nrm2(p, w->n), ny = cb_nrm2(y, w->n);
    double norm = fmax(w->scale.norm_q, fmax(np, ny)), e = sqrt(e2);
    *err_q = e / fmax(w->scale.norm_q, DBL_MIN);
    return cb_judge_error_data(&w->scale, fabs(norm) > DBL_EPSILON ? e / norm : e, e, np, ny);
}

/* y = W p + q from scratch (counted as one full product); factored: v = M⁻¹ Gᵀ p, then
 * y = q + G v. */
static void refresh_y(const gs_work *w, const double *p, double *y, cb_work *wk)
{
    if (w->vel) {
        cb_problem_factored_velocities(w->prob, p, w->vel);
        wk->block_products += cb_problem_blocks_per_matvec(w->prob) / 2;
        fac_sync_y(w, y, wk);
        return;
    }
    cb_problem_y(w->prob, p, y);
    wk->block_products += cb_problem_blocks_per_matvec(w->prob);
}

/* Full evaluation after a sweep: sets *status to SOLVED (after re-checking with a fresh y) or
 * DIVERGED, leaves it otherwise; records the trace point. */
static int evaluate(gs_work *w, const cb_settings *s, cb_solution *sol, cb_info *info,
                    int iter, double t0, cb_status *status)
{
    if (w->vel) /* factored: the sweep left y current only where it visited */
        fac_sync_y(w, sol->y, &info->work);
    double eq, e = full_error(w, sol->p, sol->y, &info->work, &eq);
    if (e <= s->tol) {
        refresh_y(w, sol->p, sol->y, &info->work);
        e = full_error(w, sol->p, sol->y, &info->work, &eq);
        if (e <= s->tol)
            *status = CB_STATUS_CONVERGED;
    }
    if (!isfinite(e))
        *status = CB_STATUS_DIVERGED;
    info->solver_error = e;
    return cb_info_trace(info, s, iter, t0, e);
}

/* Is a full residual due after this sweep? (every error_every sweeps, on the last one, or when
 * the change in p fell below tol·‖p‖). */
static int full_due(const gs_work *w, const cb_settings *s, int iter, double dp2,
                    const double *p)
{
    if (w->opt.error_every == 1 || iter % w->opt.error_every == 0 || iter == s->max_iter)
        return 1;
    return sqrt(dp2) <= s->tol * cb_nrm2(p, w->n);
}

/* Young's SOR value: on a consistently ordered W, Gauss–Seidel's rate is μ² (μ: Jacobi's) and
 * the best ω is 2/(1+√(1−μ²)); a rate λ observed at ω gives μ² = (λ+ω−1)²/(λ ω²). */
static double young_omega(double lambda, double omega)
{
    double mu2 = (lambda + omega - 1.0) * (lambda + omega - 1.0) / (lambda * omega * omega);
    return 2.0 / (1.0 + sqrt(1.0 - fmin(mu2, 1.0)));
}

/* A window of omega=auto after a raise of ω (nsgs_internal.h): the first one must fall over its
 * second half and end below AUTO_GROWTH × its start (an SOR transient first raises the error);
 * one that began with a new ω must end below its start, or fall faster than plain
 * Gauss–Seidel's rate over its second half within AUTO_GROWTH × its start (the new ω's
 * transient, paid back by its rate: the 10⁵-sphere step, BENCHMARKS.md); one at an unchanged ω
 * must be faster than plain Gauss–Seidel. */
int cb_nsgs_window_passes(cb_nsgs_window win, double rate, double ref_rate, double e, double e0)
{
    int faster = rate < ref_rate, bounded = e < AUTO_GROWTH * e0;
    switch (win) {
    case CB_NSGS_WINDOW_FIRST: return rate < 1.0 && bounded;
    case CB_NSGS_WINDOW_CHANGED: return e < e0 || (faster && bounded);
    default: return faster;
    }
}

/* omega=auto: start a rate window at sweep it with error e. */
static void auto_window(gs_work *w, int it, double e)
{
    w->au.streak = 0, w->au.it0 = it, w->au.e0 = e;
}

/* omega=auto: keep (restore = 0) or bring back (1) the iterate p, y, the body velocities, the
 * local ρ and the stall state; *e is the kept error. */
static void auto_state(gs_work *w, cb_solution *sol, double *e, int restore)
{
    size_t nv = w->vel ? 6 * (size_t)w->prob->fac.nbody : 0;
    double *from[4] = {sol->p, sol->y, w->vel, w->rho};
    double *to[4] = {w->au.p, w->au.y, w->au.v, w->au.rho};
    size_t len[4] = {w->n, w->n, nv, (size_t)w->nc};
    for (int k = 0; k < 4; k++)
        if (len[k])
            memcpy(restore ? from[k] : to[k], restore ? to[k] : from[k], len[k] * sizeof(double));
    if (restore) {
        *e = w->au.e, w->last_e = w->au.last_e, w->last_de = w->au.last_de;
        w->zigzag = w->au.zigzag;
    } else {
        w->au.e = *e, w->au.last_e = w->last_e, w->au.last_de = w->last_de;
        w->au.zigzag = w->zigzag;
    }
}

/* omega=auto: the last window lost; its iterate is dropped (the one kept comes back, *e its
 * error) and ω is 1 for the rest of the solve (a fixed ω > 1 stalled a nonsmooth problem:
 * random multibody rolling3d nc = 60, seed 4). */
static void auto_back_off(gs_work *w, cb_solution *sol, double *e)
{
    auto_state(w, sol, e, 1);
    w->omega = 1.0;
    w->au.on = w->au.raised = 0;
}

/* omega=auto after the full residual *e of sweep it (w->last_e: the one before). Windows of
 * AUTO_WINDOW residuals; a window's rate λ per sweep is taken over its second half (past the
 * transient of a change). At ω = 1 a window must fall at every residual; when its λ is slower
 * than AUTO_RATE_MIN and plain Gauss–Seidel would still need more than AUTO_MIN_LEFT sweeps to
 * reach tol at λ, λ is kept as its rate and ω = young_omega(λ, 1). The first window after the
 * raise passes by cb_nsgs_window_passes, provisionally: the state before the raise stays the one
 * to come back to until a later window passes; later windows pass by the same function. A
 * window that passes may raise ω to young_omega(λ, ω); one that does not is undone
 * (auto_back_off). The iterate is kept at the start of each window that follows a passed one. */
static void auto_omega(gs_work *w, int it, double tol, cb_solution *sol, double *e)
{
    if (!w->au.on || !isfinite(*e) || *e <= 0.0)
        return;
    if (!w->au.raised && !(*e < w->last_e)) {
        auto_window(w, it, *e);
        return;
    }
    if (++w->au.streak == AUTO_WINDOW / 2)
        w->au.it_mid = it, w->au.e_mid = *e;
    if (w->au.streak < AUTO_WINDOW)
        return;
    double rate = cb_pow(*e / w->au.e_mid, 1.0 / (it - w->au.it_mid)), e0 = w->au.e0;
    int first = w->au.raised && w->au.it0 == w->au.it_raise, changed = w->omega != w->au.om_good;
    cb_nsgs_window win = first ? CB_NSGS_WINDOW_FIRST : changed ? CB_NSGS_WINDOW_CHANGED
                                                                : CB_NSGS_WINDOW_SAME;
    int pass = cb_nsgs_window_passes(win, rate, w->au.ref_rate, *e, e0);
    if (w->au.raised && !pass) {
        auto_back_off(w, sol, e);
        return;
    }
    auto_window(w, it, *e);
    int keep = w->au.raised && !first; /* first: provisional, the state before the raise stays */
    if (keep)
        w->au.om_good = w->omega;
    double om = fmin(AUTO_OMEGA_MAX, young_omega(rate, w->omega));
    int worth = rate > AUTO_RATE_MIN && rate < 1.0 && om > w->omega &&
                (w->au.raised || cb_log(tol / *e) / cb_log(rate) > AUTO_MIN_LEFT);
    if (!w->au.raised && worth) {
        w->au.raised = 1, w->au.om_good = 1.0, w->au.ref_rate = rate, w->au.it_raise = it;
        keep = 1;
    }
    if (keep)
        auto_state(w, sol, e, 0);
    if (worth)
        w->omega = om;
}

/* Exact block Gauss–Seidel (nsgs) can fall into a period-2 cycle on a rank-deficient W: two
 * sweeps alternate between two states and the residual stops falling (random multibody
 * rolling3d: two values, slowly rising, for thousands of sweeps, nearly every change of the
 * opposite sign to the one before, where a slowly converging run rarely reverses).
 * After each full residual e: when the residual has zigzagged (each change of the opposite
 * sign to the one before) STALL_ZIGZAG times in a row, ω ← max(ω_min, 0.9 ω): the relaxed
 * sweep p + ω (p_local − p) damps the alternating mode (its −1 becomes 1 − 2ω). */
static void stall_check(gs_work *w, int it, cb_solution *sol, double *e)
{
    (void)it;
    if (w->opt.psor)
        return;
    double de = *e - w->last_e;
    w->zigzag = de * w->last_de < 0 ? w->zigzag + 1 : 0;
    w->last_e = *e, w->last_de = de;
    if (w->zigzag >= STALL_ZIGZAG) {
        w->zigzag = 0;
        if (w->au.raised) { /* omega=auto's relaxation zigzags: undone */
            auto_back_off(w, sol, e);
            return;
        }
        w->omega = fmax(STALL_OMEGA_MIN, STALL_DAMP * w->omega);
        w->au.on = 0; /* the stall damping owns ω from here */
    }
}

/* polish=auto after the full residual e of sweep it: 1 when the polish is due. On coulomb2d,
 * sweeps are cut into windows of POLISH_WINDOW; a window whose residuals all lie within a
 * factor POLISH_FLAT of each other (the error neither falls nor moves: a stall, not a transient)
 * calls the polish at its end. */
static int polish_due(gs_work *w, int it, double e)
{
    if (!w->opt.polish || w->prob->kind != CB_KIND_COULOMB2D || !isfinite(e))
        return 0;
    w->po.lo = fmin(w->po.lo, e), w->po.hi = fmax(w->po.hi, e);
    if (it - w->po.it0 < POLISH_WINDOW)
        return 0;
    int flat = w->po.hi <= POLISH_FLAT * w->po.lo;
    w->po.it0 = it, w->po.lo = w->po.hi = e;
    return flat;
}

/* The polish's workspace, made at its first use (what a failed attempt left is kept). */
static int polish_alloc(gs_work *w, cb_error *err)
{
    double **arr[5] = {&w->po.p, &w->po.y, &w->po.t, &w->po.by, &w->po.best};
    for (int k = 0; k < 5; k++)
        if (!*arr[k] && !(*arr[k] = cb_malloc_array(w->n, sizeof(double))))
            return cb_fail(err, CB_ERR_NOMEM, "nsgs: out of memory for the polish (n = %zu)",
                           w->n);
    return w->po.pl ? CB_OK : cb_nsgs_polish_new(w->prob, &w->po.pl, err);
}

/* polish: ε of its first proximal term, POLISH_PROX times the largest ‖W_αα‖₂. */
static double polish_eps0(const gs_work *w)
{
    double m = 0.0;
    for (int a = 0; a < w->nc; a++)
        m = fmax(m, 1.0 / w->rho_nm[a]);
    return POLISH_PROX * m;
}

/* Proximal active-set steps p_{k+1} = M_ε(p_k)⁻¹ b_ε(p_k) from the iterate (nsgs_polish.c),
 * each judged; when the least error is below the iterate's, p becomes that p_k, y is made
 * afresh and the sweeps go on from it (ω and the stall state start over); else nothing
 * changes and the next polish takes ε twice as large. */
static int polish(gs_work *w, const cb_settings *s, cb_solution *sol, cb_info *info, int it,
                  cb_status *status, cb_error *err)
{
    double t0 = cb_now(), eq, best = info->solver_error;
    int rc = polish_alloc(w, err), found = 0;
    cb_work *wk = &w->po.work;
    size_t n = w->n;
    double *pc = w->po.t, *yc = w->po.by, *pn = w->po.p, *yn = w->po.y;
    if (rc == CB_OK) {
        memcpy(pc, sol->p, n * sizeof(double));
        memcpy(yc, sol->y, n * sizeof(double));
        if (w->po.eps == 0.0)
            w->po.eps = polish_eps0(w);
    }
    for (int k = 0; rc == CB_OK && k < POLISH_STEPS && best > s->tol && !cb_time_up(s); k++) {
        if (cb_nsgs_polish_step(w->po.pl, w->rho_nm, w->po.eps, pc, yc, pn, wk) != 0)
            break;
        w->po.steps++;
        cb_problem_y(w->prob, pn, yn);
        wk->block_products += cb_problem_blocks_per_matvec(w->prob);
        double e = full_error(w, pn, yn, wk, &eq);
        if (e < best) {
            best = e, found = 1;
            memcpy(w->po.best, pn, n * sizeof(double));
        }
        double *t = pc;
        pc = pn, pn = t, t = yc, yc = yn, yn = t;
    }
    if (found) {
        memcpy(sol->p, w->po.best, n * sizeof(double));
        refresh_y(w, sol->p, sol->y, wk);
        double e = full_error(w, sol->p, sol->y, wk, &eq);
        if (e <= s->tol)
            *status = CB_STATUS_CONVERGED;
        info->solver_error = e;
        w->po.lo = w->po.hi = e;
        if (info->ntrace > 0 && info->trace[info->ntrace - 1].iteration == it)
            info->trace[info->ntrace - 1].error = e; /* sweep it's point: its final iterate */
        w->last_e = e, w->last_de = 0.0, w->zigzag = 0;
        w->au.on = w->au.raised = 0;
    }
    if (*status != CB_STATUS_CONVERGED)
        w->po.eps *= 2.0;
    w->po.runs++;
    w->po.time += cb_now() - t0;
    return rc;
}

/* After a polished run: the phases nsgs (the sweeps) and polish (its solves), its counters
 * added into the totals. */
static void polish_phases(const gs_work *w, cb_info *info, double t0)
{
    if (!w->po.runs)
        return;
    cb_info_phase(info, cb_solver_nsgs.name, info->iterations, &info->work,
                  cb_now() - t0 - w->po.time);
    cb_info_phase(info, "polish", w->po.steps, &w->po.work, w->po.time);
    cb_work_add(&info->work, &w->po.work);
}

static int gs_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                    cb_error *err)
{
    gs_work *w = work;
    double t0 = cb_now();
    for (int a = 0; a < w->nc; a++)
        w->rho[a] = w->rho_nm[a];
    cb_rng_seed(&w->rng, w->opt.seed);
    w->omega = w->opt.omega, w->last_e = w->last_de = 0.0, w->zigzag = 0;
    w->au.on = w->au.raised = w->au.streak = 0;
    w->po.lo = INFINITY, w->po.hi = 0.0, w->po.it0 = w->po.steps = w->po.runs = 0;
    w->po.time = 0.0;
    w->po.eps = 0.0;
    memset(&w->po.work, 0, sizeof w->po.work);
    /* Young's theory is for a fixed sweep order: natural, coloured, domains (not shuffled) */
    w->au.on = w->opt.omega_auto &&
               (w->opt.order == ORDER_NATURAL || w->opt.order == ORDER_COLOURED ||
                w->opt.order == ORDER_DOMAINS);
    /* tol/10, but not below 1e-15 (a relative residual local Newton cannot reach in double:
     * it would run to local_max_iter on every contact); an explicit smaller local_tol wins */
    w->local_tol = fmin(w->opt.local_tol, fmax(0.1 * s->tol, 1e-15));
    refresh_y(w, sol->p, sol->y, &info->work);
    cb_status status = CB_STATUS_MAX_ITER;
    info->solver_error = INFINITY;
    for (int it = 1; it <= s->max_iter; it++) {
        next_order(w, it == 1);
        double dp2 = sweep(w, sol->p, sol->y, &info->work);
        info->iterations = it;
        if (!isfinite(dp2)) {
            status = CB_STATUS_DIVERGED;
            break;
        }
        if (full_due(w, s, it, dp2, sol->p)) {
            if (evaluate(w, s, sol, info, it, t0, &status) != CB_OK)
                return cb_fail(err, CB_ERR_NOMEM, "%s: out of memory for the trace",
                               w->opt.psor ? "psor" : "nsgs");
            auto_omega(w, it, s->tol, sol, &info->solver_error);
            stall_check(w, it, sol, &info->solver_error);
            int prc = status == CB_STATUS_MAX_ITER && polish_due(w, it, info->solver_error)
                          ? polish(w, s, sol, info, it, &status, err) : CB_OK;
            if (prc != CB_OK)
                return prc;
        }
        if (status != CB_STATUS_MAX_ITER)
            break;
        if (cb_time_up(s)) {
            status = CB_STATUS_TIME_LIMIT;
            break;
        }
    }
    if (status != CB_STATUS_CONVERGED && status != CB_STATUS_DIVERGED)
        refresh_y(w, sol->p, sol->y, &info->work);
    info->status = status;
    polish_phases(w, info, t0);
    return CB_OK;
}

const cb_solver cb_solver_nsgs = {
    .name = "nsgs",
    .summary = "block Gauss-Seidel over contacts; local Newton, projected fixed point or exact "
               "enumeration (2D cones), take-off/stick shortcuts",
    .options = nsgs_spec,
    .supports = gs_supports,
    .setup = nsgs_setup,
    .solve = gs_solve,
    .cleanup = gs_cleanup,
    .update = gs_update,
};

const cb_solver cb_solver_psor = {
    .name = "psor",
    .summary = "projected SOR: one projection step per contact per sweep, rho from W_aa",
    .options = psor_spec,
    .supports = gs_supports,
    .setup = psor_setup,
    .solve = gs_solve,
    .cleanup = gs_cleanup,
    .update = gs_update,
};
