/* conebench — game-engine friction as solvers: Bullet's and DART's boxed-LCP solvers behind the
 * solver table, judged on the exact cone like every solver. The C++ stays in engines_bullet.cpp
 * and engines_dart.cpp; this file builds the boxed LCP from the problem and reads the answer.
 *
 * The engines' friction model, as the engines build it (btMLCPSolver::solveGroupCacheFriendlySetup
 * and createMLCPFast: friction rows get lo = −μ, hi = +μ and limitDependency = their contact's
 * normal row; DART's ContactConstraint: lo = −μ, hi = μ, findex = the normal row), one row per
 * component of a contact (layout of cone.h):
 *   normal r_N:      lo = 0, hi = unbounded (Bullet's contact rows use 1e10, DART ODE's dInfinity);
 *   tangential r_Tk: |r_Tk| ≤ μ r_N, each component on its own (a box: facets=4);
 *   rolling m_Rk:    |m_Rk| ≤ μ_r r_N, each component on its own;
 *   spin m_S:        |m_S| ≤ μ_s r_N.
 * Every bounded row carries findex = its contact's normal row. So a tangential load at 45° to the
 * axes gets ‖r_T‖ up to √2 μ r_N: the box's corner, outside the exact cone by √2 − 1.
 * Only facets=4 (the box, what both engines build) is taken so far: a k-facet pyramid needs k/2
 * rows per contact with their own directions, which neither engine's contact builds.
 *
 * Signs. Our problem is y = W p + q, p ∈ K. Each engine solves w = A x − b with x in its box and
 * w of the sign the active bound asks (x = lo: w ≥ 0; x = hi: w ≤ 0; inside: w = 0): the
 * Gauss–Seidel updates are x_i = (b_i − Σ_{j≠i} A_ij x_j)/A_ii (btSolveProjectedGaussSeidel.h,
 * DART's PgsBoxedLcpSolver.cpp) and ODE's dSolveLCP solves A x = b + w. With x = p and w = y:
 * A = W, b = −q (test_engines.c checks it on one contact with a known answer).
 *
 * W is copied dense (n² doubles, n = nc·d); above CB_ENG_MAX_N unknowns (CB_ENG_LEMKE_MAX_N for
 * Lemke, which also builds a 2n×2n system and inverts A) the adapters refuse the problem.
 * solver_error is the engine's own residual: max_i |x_i − clamp(x_i − w_i, lo_i, hi_i)| on its
 * boxed LCP (bounds scaled by the normal), i.e. how well the engine solved the problem it was
 * given; the judge's error measures the distance to the exact cone's answer.
 * The sweep (PGS) or pivot (Lemke) cap is the option iterations (the engine's default), at most
 * the run's max_iter. A non-finite q or start is not handed to the engine: status diverged at 0
 * iterations. The engines cannot be interrupted: the harness runs them in a child process at a
 * time limit.
 */
#include "engines_internal.h"
#include "solvers_internal.h"

#include "base.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef CB_HAVE_BULLET
#define CB_HAVE_BULLET 0
#endif
#ifndef CB_HAVE_DART
#define CB_HAVE_DART 0
#endif

#define CB_ENG_MAX_N 3000       /* unknowns nc·d of the dense copy of W (72 MB) */
#define CB_ENG_LEMKE_MAX_N 600  /* btLemkeSolver: a 2n×2n LCP and a Gauss–Jordan inverse of A */
#define CB_ENG_BOX_FACETS 4     /* the box: the only pyramid the engines build */
#define CB_ENG_BULLET_NORMAL_HI 1e10 /* btSequentialImpulseConstraintSolver's contact m_upperLimit */
#define CB_ENG_ITER_MAX 1000000 /* the largest sweep/pivot cap accepted */

typedef struct {
    const char *name;
    cb_eng_backend backend;
    int bullet;          /* 1: Bullet, 0: DART */
    int default_iters;   /* the engine's own default cap (0: Dantzig, no cap) */
    const cb_option_spec *options;
} eng_row;

typedef struct {
    const eng_row *row;
    const cb_problem *prob;
    cb_eng_box box;
    double *A, *b, *lo, *hi, *x;
    int *findex;
    long iterations;
} eng_work;

static const cb_option_spec dantzig_options[] = {
    {"facets", "4", "friction pyramid facets; only 4 (the box the engines build)"},
    {NULL, NULL, NULL}};
static const cb_option_spec bullet_pgs_options[] = {
    {"facets", "4", "friction pyramid facets; only 4 (the box the engines build)"},
    {"iterations", "10", "PGS sweeps (btContactSolverInfo's m_numIterations default: 10)"},
    {NULL, NULL, NULL}};
static const cb_option_spec lemke_options[] = {
    {"facets", "4", "friction pyramid facets; only 4 (the box the engines build)"},
    {"iterations", "1000", "Lemke pivots (btLemkeSolver's m_maxLoops default: 1000)"},
    {NULL, NULL, NULL}};
static const cb_option_spec dart_pgs_options[] = {
    {"facets", "4", "friction pyramid facets; only 4 (the box the engines build)"},
    {"iterations", "30", "PGS sweeps (PgsBoxedLcpSolver::Option's mMaxIteration default: 30)"},
    {NULL, NULL, NULL}};

/* The friction coefficient bounding component k ≥ 1 of contact a (layout of cone.h). */
static double bound_coef(const cb_problem *prob, int a, int k)
{
    switch (prob->kind) {
    case CB_KIND_COULOMB2D:
    case CB_KIND_COULOMB3D: return prob->mu[a];
    case CB_KIND_ROLLING2D: return k == 1 ? prob->mu[a] : prob->mu_r[a];
    case CB_KIND_ROLLING3D: return k <= 2 ? prob->mu[a] : prob->mu_r[a];
    default: return k <= 2 ? prob->mu[a] : k <= 4 ? prob->mu_r[a] : prob->mu_s[a];
    }
}

static int max_n(const eng_row *row)
{
    return row->backend == CB_ENG_BULLET_LEMKE ? CB_ENG_LEMKE_MAX_N : CB_ENG_MAX_N;
}

static const eng_row *row_of(const char *name);

static int eng_supports(const cb_problem *prob, const char *name, cb_error *err)
{
    const eng_row *row = row_of(name);
    if ((long long)prob->nc * prob->d > max_n(row))
        return cb_fail(err, CB_ERR_INPUT, "%s: n = nc·d = %lld unknowns is above the limit of "
                       "%d (the engine solvers take a dense copy of W)", name,
                       (long long)prob->nc * prob->d, max_n(row));
    return CB_OK;
}

static void eng_cleanup(void *work)
{
    eng_work *w = work;
    if (!w)
        return;
    free(w->A);
    free(w->b);
    free(w->lo);
    free(w->hi);
    free(w->x);
    free(w->findex);
    free(w);
}

/* A = W (row-major), b = −q, the box rows of every contact. */
static void fill_box(eng_work *w, const double *Wd)
{
    const cb_problem *prob = w->prob;
    int n = prob->nc * prob->d;
    double normal_hi = w->row->bullet ? CB_ENG_BULLET_NORMAL_HI : INFINITY;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            w->A[(size_t)i * n + j] = Wd[i + (size_t)j * n];
    for (int a = 0; a < prob->nc; a++)
        for (int k = 0; k < prob->d; k++) {
            int i = a * prob->d + k;
            w->b[i] = -prob->q[i];
            w->findex[i] = k == 0 ? -1 : a * prob->d;
            w->lo[i] = k == 0 ? 0.0 : -bound_coef(prob, a, k);
            w->hi[i] = k == 0 ? normal_hi : bound_coef(prob, a, k);
        }
    w->box = (cb_eng_box){.n = n, .A = w->A, .b = w->b, .lo = w->lo, .hi = w->hi,
                          .findex = w->findex};
}

static int read_options(const eng_row *row, const cb_settings *s, long *iters, cb_error *err)
{
    long facets = 0;
    int rc = cb_options_check(s, row->options, row->name, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, row->options, "facets", 1, CB_ENG_ITER_MAX, &facets, err);
    if (rc == CB_OK && facets != CB_ENG_BOX_FACETS)
        rc = cb_fail(err, CB_ERR_INPUT, "option facets: %ld is not supported: only %d (the box "
                     "both engines build for a contact)", facets, CB_ENG_BOX_FACETS);
    *iters = row->default_iters;
    if (rc == CB_OK && row->default_iters > 0)
        rc = cb_option_int(s, row->options, "iterations", 1, CB_ENG_ITER_MAX, iters, err);
    return rc;
}

static int eng_setup_row(const eng_row *row, const cb_problem *prob, const cb_settings *s,
                         void **work, cb_error *err)
{
    long iters = 0;
    int rc = read_options(row, s, &iters, err);
    if (rc != CB_OK)
        return rc;
    cb_problem *dense = NULL;
    size_t n = cb_problem_n(prob);
    eng_work *w = cb_calloc(1, sizeof *w);
    if (w) {
        w->row = row;
        w->prob = prob;
        w->iterations = iters;
        w->A = cb_calloc(n * n, sizeof(double));
        w->b = cb_calloc(n, sizeof(double));
        w->lo = cb_calloc(n, sizeof(double));
        w->hi = cb_calloc(n, sizeof(double));
        w->x = cb_calloc(n, sizeof(double));
        w->findex = cb_calloc(n, sizeof(int));
    }
    if (!w || !w->A || !w->b || !w->lo || !w->hi || !w->x || !w->findex)
        rc = cb_fail(err, CB_ERR_NOMEM, "%s: out of memory (dense LCP of %zu unknowns)",
                     row->name, n);
    if (rc == CB_OK && prob->storage != CB_STORAGE_DENSE)
        rc = cb_problem_to_dense(prob, &dense, err);
    if (rc == CB_OK)
        fill_box(w, dense ? dense->W : prob->W);
    cb_problem_free(dense);
    if (rc != CB_OK) {
        eng_cleanup(w);
        w = NULL;
    }
    *work = w;
    return rc;
}

/* The engine's own residual: max_i |x_i − clamp(x_i − (A x − b)_i, lo_i, hi_i)| (bounds scaled). */
static double box_residual(const cb_eng_box *box, const double *x)
{
    double worst = 0.0;
    for (int i = 0; i < box->n; i++) {
        double wi = -box->b[i];
        for (int j = 0; j < box->n; j++)
            wi += box->A[(size_t)i * box->n + j] * x[j];
        double lo = box->lo[i], hi = box->hi[i];
        if (box->findex[i] >= 0) {
            hi = fabs(hi * x[box->findex[i]]);
            lo = -hi;
        }
        double z = fmin(fmax(x[i] - wi, lo), hi);
        worst = fmax(worst, fabs(x[i] - z));
    }
    return worst;
}

/* Diverged on a non-finite answer; PGS: converged when its own stop test fired before the sweep
 * cap (the option iterations, at most max_iter), else max_iter; Dantzig and Lemke: converged
 * when the engine accepted its answer, else stalled. */
static cb_status status_of(const eng_work *w, const cb_eng_result *res, int cap,
                           const cb_solution *sol)
{
    cb_eng_backend b = w->row->backend;
    if (!cb_all_finite(sol->p, sol->n))
        return CB_STATUS_DIVERGED;
    if (b == CB_ENG_BULLET_PGS || b == CB_ENG_DART_PGS)
        return res->ok && res->iterations < cap ? CB_STATUS_CONVERGED
                                                          : CB_STATUS_MAX_ITER;
    return res->ok ? CB_STATUS_CONVERGED : CB_STATUS_STALLED;
}

static int eng_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                     cb_error *err)
{
    eng_work *w = work;
    cb_eng_result res = {0, 0, 0};
    double t0 = cb_now();
    memcpy(w->x, sol->p, sol->n * sizeof(double));
    if (!cb_all_finite(w->x, sol->n) || !cb_all_finite(w->prob->q, sol->n)) {
        info->status = CB_STATUS_DIVERGED; /* not handed to the engine (DART asserts on NaN) */
        info->iterations = 0;
        info->solver_error = NAN;
        cb_problem_y(w->prob, sol->p, sol->y);
        return CB_OK;
    }
    int cap = (int)(w->iterations < s->max_iter ? w->iterations : s->max_iter);
#if CB_HAVE_BULLET
    if (w->row->bullet)
        cb_eng_bullet_solve(w->row->backend, &w->box, cap, w->x, &res);
#endif
#if CB_HAVE_DART
    if (!w->row->bullet)
        cb_eng_dart_solve(w->row->backend, &w->box, cap, w->x, &res);
#endif
    if (res.threw)
        return cb_fail(err, CB_ERR_NOMEM, "%s: the engine threw (out of memory)", w->row->name);
    memcpy(sol->p, w->x, sol->n * sizeof(double));
    cb_problem_y(w->prob, sol->p, sol->y);
    info->work.block_products += cb_problem_blocks_per_matvec(w->prob);
    info->iterations = res.iterations;
    info->solver_error = box_residual(&w->box, w->x);
    info->status = status_of(w, &res, cap, sol);
    return cb_info_trace(info, s, res.iterations, t0, info->solver_error) == CB_OK
               ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "trace: out of memory");
}

/* One solver table per back end: setup and supports know their row by name. */
#define ENG_SOLVER(ident, row_name, spec, text)                                            \
    static int ident##_supports(const cb_problem *prob, cb_error *err)                     \
    {                                                                                      \
        return eng_supports(prob, row_name, err);                                          \
    }                                                                                      \
    static int ident##_setup(const cb_problem *prob, const cb_settings *s, void **work,    \
                             cb_error *err)                                                \
    {                                                                                      \
        return eng_setup_row(row_of(row_name), prob, s, work, err);                        \
    }                                                                                      \
    const cb_solver cb_solver_##ident = {.name = row_name, .summary = text,               \
                                         .options = spec, .supports = ident##_supports,    \
                                         .setup = ident##_setup, .solve = eng_solve,       \
                                         .cleanup = eng_cleanup}

static const eng_row rows[] = {
    {"bullet-dantzig", CB_ENG_BULLET_DANTZIG, 1, 0, dantzig_options},
    {"bullet-pgs", CB_ENG_BULLET_PGS, 1, 10, bullet_pgs_options},
    {"bullet-lemke", CB_ENG_BULLET_LEMKE, 1, 1000, lemke_options},
    {"dart-dantzig", CB_ENG_DART_DANTZIG, 0, 0, dantzig_options},
    {"dart-pgs", CB_ENG_DART_PGS, 0, 30, dart_pgs_options},
};

static const eng_row *row_of(const char *name)
{
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (!strcmp(rows[i].name, name))
            return &rows[i];
    return &rows[0];
}

#if CB_HAVE_BULLET
ENG_SOLVER(bullet_dantzig, "bullet-dantzig", dantzig_options,
           "Bullet 3's btDantzigSolver (ODE's Dantzig pivoting) on the engine's friction box "
           "|r_Tk| <= mu r_N, |m_Rk| <= mu_r r_N, |m_S| <= mu_s r_N; judged on the exact cone");
ENG_SOLVER(bullet_pgs, "bullet-pgs", bullet_pgs_options,
           "Bullet 3's btSolveProjectedGaussSeidel on the engine's friction box; fixed sweeps; "
           "judged on the exact cone");
ENG_SOLVER(bullet_lemke, "bullet-lemke", lemke_options,
           "Bullet 3's btLemkeSolver on the engine's box; it ignores limitDependency: friction "
           "bounded by mu itself, not mu r_N; judged on the exact cone");
#endif
#if CB_HAVE_DART
ENG_SOLVER(dart_dantzig, "dart-dantzig", dantzig_options,
           "DART 6's DantzigBoxedLcpSolver (ODE's dSolveLCP) on the engine's friction box; "
           "judged on the exact cone");
ENG_SOLVER(dart_pgs, "dart-pgs", dart_pgs_options,
           "DART 6's PgsBoxedLcpSolver on the engine's friction box; judged on the exact cone");
#endif
