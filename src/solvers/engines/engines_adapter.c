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
 *
 * Pyramids (option facets = k, even, 4 ≤ k ≤ CB_ENG_FACETS_MAX; the 3D kinds): the engines
 * bound each row on its own, so a k-facet pyramid is m = k/2 tangential rows per contact, with
 * directions d_i = (cos(iπ/m), sin(iπ/m)), i = 0..m−1 (d_0 = the first tangent axis), and
 * impulses β_i, |β_i| ≤ c μ r_N, r_T = D β (D = [d_0 … d_{m−1}], 2×m). The set of r_T is the
 * Minkowski sum of m segments of half-length c μ r_N: a regular k-gon whose edges are parallel
 * to the d_i (edge normals at iπ/m + π/2, vertices halfway between). c = tan(π/k) puts its
 * edges tangent to the circle ‖r_T‖ = μ r_N, as the box's are: inradius μ r_N, circumradius
 * μ r_N / cos(π/k), support value in the unit direction u: c μ r_N Σ_i |d_i·u|. k = 4 is the box
 * exactly (d_0, d_1 the axes, c = 1). The boxed LCP is built over the engine unknowns
 * x = (r_N, β, rolling, spin) of every contact: p = T x (T block-diagonal: D on the tangential
 * rows, identity elsewhere), A = Tᵀ W T, b = −Tᵀ q, and the answer is mapped back, p = T x.
 * The start's β is the least-squares one, β = (2/m) Dᵀ r_T (D Dᵀ = (m/2) I). Rolling and spin stay
 * independent box bounds whatever k. The 2D kinds have one tangential row: facets must be 4.
 * For k > 4, A is singular (Dᵀ W_TT D has rank 2 per contact): PGS does not mind, the Dantzig
 * pivoting fails once two rows of a contact are free (a sticking contact: stalled or NaN) and
 * btLemkeSolver, which inverts A, returns zeros or a wrong answer (test_engines.c).
 *
 * Signs. Our problem is y = W p + q, p ∈ K. Each engine solves w = A x − b with x in its box and
 * w of the sign the active bound asks (x = lo: w ≥ 0; x = hi: w ≤ 0; inside: w = 0): the
 * Gauss–Seidel updates are x_i = (b_i − Σ_{j≠i} A_ij x_j)/A_ii (btSolveProjectedGaussSeidel.h,
 * DART's PgsBoxedLcpSolver.cpp) and ODE's dSolveLCP solves A x = b + w. With x = p and w = y:
 * A = W, b = −q (test_engines.c checks it on one contact with a known answer).
 *
 * W is copied dense (n² doubles, n = the engine unknowns: nc·d, nc·(d − 2 + k/2) for k facets);
 * above CB_ENG_MAX_N unknowns (CB_ENG_LEMKE_MAX_N for
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
#define CB_ENG_BOX_FACETS 4     /* the box: the pyramid the engines build */
#define CB_ENG_FACETS_MAX 64    /* the most pyramid facets taken (32 tangential rows a contact) */
#define CB_ENG_BULLET_NORMAL_HI 1e10 /* btSequentialImpulseConstraintSolver's contact m_upperLimit */
#define CB_ENG_ITER_MAX 1000000 /* the largest sweep/pivot cap accepted */

typedef struct {
    const char *name;
    cb_eng_backend backend;
    int bullet;          /* 1: Bullet, 0: DART */
    int default_iters;   /* the engine's own default cap (0: Dantzig, no cap) */
    const cb_option_spec *options;
} eng_row;

/* Engine unknown u in the problem's p: p[row[0]] += wt[0] x_u, p[row[1]] += wt[1] x_u (row[1] = −1:
 * one row). */
typedef struct {
    int row[2];
    double wt[2];
    int pyramid; /* 1: a pyramid row β_i (its start is (2/m) d_i·r_T) */
} eng_map;

typedef struct {
    const eng_row *row;
    const cb_problem *prob;
    cb_eng_box box;
    double *A, *b, *lo, *hi, *x;
    int *findex;
    eng_map *map;
    int n;       /* engine unknowns */
    int facets;
    long iterations;
} eng_work;

#define FACETS_HELP "friction pyramid facets: 4 (the box the engines build) or an even k up to 64, " \
                    "k/2 tangential rows each bounded by tan(pi/k) mu r_N"
static const cb_option_spec dantzig_options[] = {
    {"facets", "4", FACETS_HELP},
    {NULL, NULL, NULL}};
static const cb_option_spec bullet_pgs_options[] = {
    {"facets", "4", FACETS_HELP},
    {"iterations", "10", "PGS sweeps (btContactSolverInfo's m_numIterations default: 10)"},
    {NULL, NULL, NULL}};
static const cb_option_spec lemke_options[] = {
    {"facets", "4", FACETS_HELP},
    {"iterations", "1000", "Lemke pivots (btLemkeSolver's m_maxLoops default: 1000)"},
    {NULL, NULL, NULL}};
static const cb_option_spec dart_pgs_options[] = {
    {"facets", "4", FACETS_HELP},
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
    free(w->map);
    free(w);
}

/* 1 when the kind has two tangential rows (r_T1, r_T2 at components 1, 2): the 3D kinds. */
static int two_tangents(const cb_problem *prob)
{
    return prob->kind == CB_KIND_COULOMB3D || prob->kind == CB_KIND_ROLLING3D ||
           prob->kind == CB_KIND_ROLLSPIN3D;
}

/* Engine unknowns of the problem with k facets: nc·(d − 2 + k/2) on the 3D kinds, nc·d else. */
static long long engine_n(const cb_problem *prob, int facets)
{
    return (long long)prob->nc * (two_tangents(prob) ? prob->d - 2 + facets / 2 : prob->d);
}

/* Direction i of the k/2 of a k-facet pyramid: d_i = (cos θ, sin θ), θ = i·2π/k; exact on the
 * axes (θ = 0, π/2), so that k = 4 is the box bit for bit. */
static void pyramid_dir(int facets, int i, double *dx, double *dy)
{
    int m = facets / 2;
    if ((2 * i) % m == 0) {
        *dx = i == 0 ? 1.0 : 0.0;
        *dy = i == 0 ? 0.0 : 1.0;
        return;
    }
    double th = i * CB_PI / m;
    *dx = cos(th);
    *dy = sin(th);
}

/* The bound scale c = tan(π/k) putting the k-gon's edges on the circle ‖r_T‖ = μ r_N (1 exactly
 * for the box). */
static double pyramid_scale(int facets)
{
    return facets == CB_ENG_BOX_FACETS ? 1.0 : tan(CB_PI / facets);
}

/* One engine unknown u: its map into p and its bounds (normal: [0, hi_n], else ±coef tied to
 * the normal unknown u_n). */
static void set_unknown(eng_work *w, int u, int r0, double w0, int r1, double w1, int u_n,
                        double coef, double normal_hi)
{
    w->map[u] = (eng_map){{r0, r1}, {w0, w1}, 0};
    w->findex[u] = u_n;
    w->lo[u] = u_n < 0 ? 0.0 : -coef;
    w->hi[u] = u_n < 0 ? normal_hi : coef;
}

/* The map p = T x and the bounds of every engine unknown, contact by contact. */
static void build_map(eng_work *w)
{
    const cb_problem *prob = w->prob;
    int d = prob->d, m = w->facets / 2, u = 0, pyr = two_tangents(prob);
    double normal_hi = w->row->bullet ? CB_ENG_BULLET_NORMAL_HI : INFINITY;
    double c = pyramid_scale(w->facets);
    for (int a = 0; a < prob->nc; a++) {
        int u_n = u, r = a * d;
        for (int k = 0; k < d; k++) {
            if (pyr && k == 2)
                continue; /* r_T2: in the pyramid rows of k = 1 */
            if (!pyr || k != 1) {
                set_unknown(w, u++, r + k, 1.0, -1, 0.0, k == 0 ? -1 : u_n,
                            bound_coef(prob, a, k), normal_hi);
                continue;
            }
            for (int i = 0; i < m; i++) {
                double dx, dy;
                pyramid_dir(w->facets, i, &dx, &dy);
                if (dx == 0.0)
                    set_unknown(w, u++, r + 2, dy, -1, 0.0, u_n, c * prob->mu[a], normal_hi);
                else
                    set_unknown(w, u++, r + 1, dx, dy == 0.0 ? -1 : r + 2, dy, u_n,
                                c * prob->mu[a], normal_hi);
                w->map[u - 1].pyramid = 1;
            }
        }
    }
}

/* Entry (T_uᵀ) W (T_v) of A = Tᵀ W T, W column-major with n rows. */
static double tw_t(const eng_map *mu, const eng_map *mv, const double *Wd, size_t n)
{
    double sum = 0.0;
    for (int s = 0; s < 2 && (s == 0 || mu->row[1] >= 0); s++)
        for (int t = 0; t < 2 && (t == 0 || mv->row[1] >= 0); t++)
            sum += mu->wt[s] * mv->wt[t] * Wd[mu->row[s] + (size_t)mv->row[t] * n];
    return sum;
}

/* A = Tᵀ W T (row-major), b = −Tᵀ q, the box rows of every contact (the box: T = I). */
static void fill_box(eng_work *w, const double *Wd)
{
    const cb_problem *prob = w->prob;
    size_t n = cb_problem_n(prob);
    build_map(w);
    for (int i = 0; i < w->n; i++) {
        const eng_map *mi = &w->map[i];
        for (int j = 0; j < w->n; j++)
            w->A[(size_t)i * w->n + j] = tw_t(mi, &w->map[j], Wd, n);
        w->b[i] = -mi->wt[0] * prob->q[mi->row[0]];
        if (mi->row[1] >= 0)
            w->b[i] -= mi->wt[1] * prob->q[mi->row[1]];
    }
    w->box = (cb_eng_box){.n = w->n, .A = w->A, .b = w->b, .lo = w->lo, .hi = w->hi,
                          .findex = w->findex};
}

/* x from p: r_N, rolling, spin copied; β = (2/m) Dᵀ r_T (least squares, D Dᵀ = (m/2) I). */
static void to_engine(const eng_work *w, const double *p, double *x)
{
    for (int u = 0; u < w->n; u++) {
        const eng_map *mu = &w->map[u];
        double scale = mu->pyramid ? 4.0 / w->facets : 1.0; /* 2/m; 1 for the box */
        x[u] = scale * mu->wt[0] * p[mu->row[0]];
        if (mu->row[1] >= 0)
            x[u] += scale * mu->wt[1] * p[mu->row[1]];
    }
}

/* p = T x. */
static void from_engine(const eng_work *w, const double *x, double *p, size_t n)
{
    memset(p, 0, n * sizeof(double));
    for (int u = 0; u < w->n; u++) {
        const eng_map *mu = &w->map[u];
        p[mu->row[0]] += mu->wt[0] * x[u];
        if (mu->row[1] >= 0)
            p[mu->row[1]] += mu->wt[1] * x[u];
    }
}

static int read_options(const eng_row *row, const cb_problem *prob, const cb_settings *s,
                        long *iters, long *facets, cb_error *err)
{
    int rc = cb_options_check(s, row->options, row->name, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, row->options, "facets", 1, CB_ENG_ITER_MAX, facets, err);
    if (rc == CB_OK && (*facets % 2 || *facets < CB_ENG_BOX_FACETS || *facets > CB_ENG_FACETS_MAX))
        rc = cb_fail(err, CB_ERR_INPUT, "option facets: %ld is not supported: an even number "
                     "from %d (the box) to %d (k/2 tangential rows a contact)", *facets,
                     CB_ENG_BOX_FACETS, CB_ENG_FACETS_MAX);
    if (rc == CB_OK && *facets != CB_ENG_BOX_FACETS && !two_tangents(prob))
        rc = cb_fail(err, CB_ERR_INPUT, "option facets: %ld is not supported on a 2D kind (one "
                     "tangential row, no pyramid): only %d", *facets, CB_ENG_BOX_FACETS);
    if (rc == CB_OK && engine_n(prob, (int)*facets) > max_n(row))
        rc = cb_fail(err, CB_ERR_INPUT, "%s: %lld engine unknowns (facets=%ld) is above the "
                     "limit of %d (the engine solvers take a dense copy of W)", row->name,
                     engine_n(prob, (int)*facets), *facets, max_n(row));
    *iters = row->default_iters;
    if (rc == CB_OK && row->default_iters > 0)
        rc = cb_option_int(s, row->options, "iterations", 1, CB_ENG_ITER_MAX, iters, err);
    return rc;
}

static int eng_setup_row(const eng_row *row, const cb_problem *prob, const cb_settings *s,
                         void **work, cb_error *err)
{
    long iters = 0, facets = 0;
    int rc = read_options(row, prob, s, &iters, &facets, err);
    if (rc != CB_OK)
        return rc;
    cb_problem *dense = NULL;
    size_t n = (size_t)engine_n(prob, (int)facets);
    eng_work *w = cb_calloc(1, sizeof *w);
    if (w) {
        w->row = row;
        w->prob = prob;
        w->iterations = iters;
        w->facets = (int)facets;
        w->n = (int)n;
        w->A = cb_calloc(n * n, sizeof(double));
        w->b = cb_calloc(n, sizeof(double));
        w->lo = cb_calloc(n, sizeof(double));
        w->hi = cb_calloc(n, sizeof(double));
        w->x = cb_calloc(n, sizeof(double));
        w->findex = cb_calloc(n, sizeof(int));
        w->map = cb_calloc(n, sizeof(eng_map));
    }
    if (!w || !w->A || !w->b || !w->lo || !w->hi || !w->x || !w->findex || !w->map)
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
    if (!cb_all_finite(sol->p, sol->n) || !cb_all_finite(w->prob->q, sol->n)) {
        info->status = CB_STATUS_DIVERGED; /* not handed to the engine (DART asserts on NaN) */
        info->iterations = 0;
        info->solver_error = NAN;
        cb_problem_y(w->prob, sol->p, sol->y);
        return CB_OK;
    }
    to_engine(w, sol->p, w->x);
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
    from_engine(w, w->x, sol->p, sol->n);
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
