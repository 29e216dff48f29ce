/* conebench — `ipm`: primal–dual interior point (Mehrotra predictor–corrector, Nesterov–Todd
 * scaling) on the second-order-cone program of each cone kind, with the De Saxcé shift handled
 * as in Acary, Armand, Nguyen & Shpakovych (2023). With the shift g and the skew part of W
 * frozen at a reference iterate p̄,
 *     c = q + g(W p̄ + q) + (W − S) p̄,   S = (W + Wᵀ)/2,
 * the problem is the convex program  min ½ pᵀS p + cᵀp (+ ρ/2 ‖p − p̂‖², option prox)  s.t.
 * s = G p ∈ L × … × L (ipm_internal.h: a rolling cone is two second-order cones sharing r_N, a
 * spinning one three), whose optimality conditions S p + c = Gᵀ z, s ∘ z = 0 are what the
 * interior point iterates on. p stays strictly inside K (s = G p exactly), z inside the dual
 * cones; steps stay in a wide neighbourhood of the central path. Each iteration factors the
 * normal matrix S + Gᵀ W_NT⁻² G + δ I once (CHOLMOD sparse Cholesky, ipm_normal.c; δ = ρ +
 * 1e-12 mean S_ii, ×100 while CHOLMOD reports it is not positive definite) and solves with it
 * twice (predictor, corrector).
 *
 * The shift (option shift): `newton` (default) refreezes c at every iteration and takes the
 * Newton direction of the exact problem — the derivative of g and the skew part of W in the
 * matrix — by GMRES preconditioned with that Cholesky factor (ipm_krylov.c), falling back to
 * the symmetric direction when the exact one allows only a short step; `each` refreezes c at
 * every iteration and uses the symmetric direction (a fixed point on the shift, one
 * factorisation per update); `outer` refreezes it once the convex program is solved to a tenth
 * of the judged error (Acary et al.'s outer loop). On problems whose solution is degenerate
 * (not strictly complementary) the interior point slows down near the solution; when it has not
 * halved the judged error for IPM_STALL iterations, or breaks down, it stops `stalled` (the
 * composite ipm+nsn then hands its iterate to the semismooth Newton solver nsn, a crossover:
 * composite.c). On a singular W the program with a frozen shift can be unbounded along
 * K ∩ null(W): when p drifts (‖p‖ grows eightfold with W p and the absolute residual in place:
 * first_order.h) the interior point stops `stalled` at the drift detector's reference iterate.
 * The stopping test is always the judge's (first_order.h), never the interior point's own gap.
 *
 * Counters: iterations = interior-point iterations (the trace has a point per iteration);
 * work.local_iters = interior-point iterations (one factorisation and two solves each);
 * block_products (W p, S p, GMRES products), projections and error_evals.
 * Factored W is assembled in block-sparse rows (cb_problem_to_bsr) at setup.
 *
 * Option form: on a problem read from a global file (M v = H p + f, y = Hᵀ v + w, kept as
 * prob->global), form=global works on M and H without forming W: y and W products by solves
 * with M, and the normal system as the augmented system [M H; Hᵀ −D̃] (ipm_global.c).
 * form=local uses the condensed W; form=auto (default) takes the global form when it has no
 * more velocities than the nc·d unknowns of W (on the shipped global files, ndof ≫ nc·d and
 * the global form is slower: BENCHMARKS.md). */
#include "first_order.h"
#include "ipm_internal.h"
#include "solvers_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "detmath.h"
#include "base.h"

#define IPM_STEP_FRACTION 0.99 /* step to this share of the distance to the boundary */
#define IPM_DELTA_MIN 1e-12    /* δ ≥ this · mean S_ii (with prox = 0: a numerical floor) */
#define IPM_DELTA_GROW 100.0   /* δ multiplier while the matrix is not positive definite */
#define IPM_MAX_FACTOR_TRIES 6
#define IPM_INNER_RATIO 0.1    /* shift=outer: refreeze when the program's error ≤ this · error */
#define IPM_NEIGHBOURHOOD 1e-3 /* wide neighbourhood: min eigenvalue² of λ_j ≥ this · μ */
#define IPM_BACKTRACK 0.8      /* step shortening factor until the step is central enough */
#define IPM_MAX_BACKTRACK 40
#define IPM_WARM_LIFT 1.0      /* a warm start's normals are lifted by this · τ_p (start_point) */
#define IPM_STICK 1e-3          /* De Saxcé derivative smoothed below ‖y_t‖ ~ this · ‖e‖ */
#define IPM_PROGRESS 0.5        /* stalled: the error has not fallen below this · its best ... */
#define IPM_STALL 10           /* ... for this many iterations: stalled */
#define IPM_EXACT_MIN_STEP 0.1 /* shift=newton: below this step, the symmetric direction */
#define IPM_CENTRAL 0.1        /* μ target ≥ this · ‖r_d‖ ‖p‖ (total over the cones) */
#define IPM_GMRES_RESTART 25
#define IPM_GMRES_RTOL 1e-10   /* shift=newton: GMRES relative tolerance max(this, ... */
#define IPM_GMRES_FORCING 1e-2 /* ... min(IPM_GMRES_RTOL_MAX, this · error)): inexact Newton */
#define IPM_GMRES_RTOL_MAX 1e-2
#define IPM_NVEC 12            /* vectors of n in the work */
#define IPM_NCVEC 9            /* cone vectors (stride IPM_STRIDE per cone) in the work */

enum { IPM_FORM_AUTO, IPM_FORM_LOCAL, IPM_FORM_GLOBAL };

typedef struct {
    int outer;      /* shift=outer */
    int newton;     /* shift=newton */
    long gmres_max; /* GMRES iterations per solve (shift=newton) */
    int supernodal; /* factor=supernodal: 1, simplicial: 0, auto: -1 */
    int ordering;   /* IPM_ORDER_* (option ordering) */
    double prox;    /* ρ scale */
    int form;       /* IPM_FORM_* */
    long max_inner; /* interior-point iterations per shift value */
    int start_mean; /* 1 start=mean: one τ_p from mean S_ii for every contact; 0 contact; −1 auto */
} ipm_params;

typedef struct {
    const cb_problem *prob;
    cb_problem *own; /* the BSR copy of a factored problem, else NULL */
    size_t n;
    int m;           /* cones */
    ipm_params par;
    ipm_cones cones;
    ipm_normal *nm;
    cb_judge_scale scale; /* the judge's data scales */
    double tau_p, tau_z, delta;
    double *tau_c;                        /* m: τ_p of each cone's contact (start_point) */
    double rho;                           /* proximal weight ρ = prox · mean S_ii */
    double err, eps_stick;                /* judged error and absolute residual at p */
    int precond_rc;                       /* first failure of a solve inside GMRES */
    int exact;                            /* this direction: exact Newton (GMRES) */
    cb_work *cnt;                         /* counters of the running solve (GMRES products) */
    ipm_krylov kry;
    double *buf;                          /* every vector below */
    double *y, *c, *Sp, *rd, *rhs, *dp, *dpa, *ghat, *erow, *Wv, *pbar, *pbest; /* n */
    cb_fo_drift drift;                    /* drift detector; pbest: its reference iterate */
    double *s, *z, *lam, *ds, *dz, *dsa, *dza, *rc, *t; /* 3m */
    double *Winv, *Wm, *Q;                /* 9m */
    double *lamdet;                       /* m: det λ_j */
    double *D;                            /* nc · d² */
} ipm_work;

static const cb_option_spec ipm_options[] = {
    {"shift", "newton", "De Saxce shift and skew part of W: in the Newton system, solved by "
                        "GMRES preconditioned by the Cholesky factor (newton), or refrozen at "
                        "every iteration (each) or once the convex program is solved (outer)"},
    {"prox", "0", "proximal term rho/2 ||p - pbar||^2, rho = prox mean(S_ii), its centre pbar "
                     "moved once the program is solved (keeps p bounded on a singular W), >= 0"},
    {"factor", "auto", "CHOLMOD factorisation: simplicial (LDL', no BLAS: the same bits "
                       "everywhere) | supernodal (BLAS) | auto (from 2000 contacts: "
                       "supernodal when the factor is dense enough, by CHOLMOD's rule)"},
    {"ordering", "auto", "fill-reducing ordering of the normal matrix: amd | metis | nesdis "
                         "(nested dissection: less fill on large contact graphs) | auto (amd; "
                         "from 2000 contacts amd or metis, whichever fills less)"},
    {"max_inner", "100", "shift=outer: interior-point iterations per shift value (>= 1)"},
    {"gmres_max", "50", "shift=newton: GMRES iterations per linear solve (>= 0)"},
    {"start", "auto", "start point's normal reactions: contact (||q||inf / max(W_nn, mean "
                      "W_nn) at each contact) | mean (||q||inf / mean S_ii at every contact) | "
                      "auto (mean below 2000 contacts, contact from there)"},
    {"form", "auto", "the problem the interior point works on: local (W) | global (M, H of a "
                     "global file, W never formed) | auto (global when the file has one with "
                     "no more velocities than nc d unknowns)"},
    {NULL, NULL, NULL}};

static int parse_params(const cb_settings *s, ipm_params *p, cb_error *err)
{
    int rc = cb_options_check(s, ipm_options, "ipm", err);
    const char *sh = rc == CB_OK ? cb_option_get(s, ipm_options, "shift") : "";
    const char *f = rc == CB_OK ? cb_option_get(s, ipm_options, "factor") : "";
    if (rc == CB_OK && strcmp(sh, "each") && strcmp(sh, "outer") && strcmp(sh, "newton"))
        rc = cb_fail(err, CB_ERR_INPUT, "option shift: '%s' is not newton, each or outer", sh);
    const char *fo = rc == CB_OK ? cb_option_get(s, ipm_options, "form") : "";
    if (rc == CB_OK && strcmp(fo, "auto") && strcmp(fo, "local") && strcmp(fo, "global"))
        rc = cb_fail(err, CB_ERR_INPUT, "option form: '%s' is not auto, local or global", fo);
    p->form = !strcmp(fo, "local") ? IPM_FORM_LOCAL : !strcmp(fo, "global") ? IPM_FORM_GLOBAL
                                                                           : IPM_FORM_AUTO;
    const char *st = rc == CB_OK ? cb_option_get(s, ipm_options, "start") : "";
    if (rc == CB_OK && strcmp(st, "contact") && strcmp(st, "mean") && strcmp(st, "auto"))
        rc = cb_fail(err, CB_ERR_INPUT, "option start: '%s' is not auto, contact or mean", st);
    p->start_mean = !strcmp(st, "mean") ? 1 : !strcmp(st, "auto") ? -1 : 0;
    if (rc == CB_OK && strcmp(f, "simplicial") && strcmp(f, "supernodal") && strcmp(f, "auto"))
        rc = cb_fail(err, CB_ERR_INPUT, "option factor: '%s' is not auto, simplicial or "
                     "supernodal", f);
    const char *od = rc == CB_OK ? cb_option_get(s, ipm_options, "ordering") : "";
    p->ordering = !strcmp(od, "metis")    ? IPM_ORDER_METIS
                  : !strcmp(od, "nesdis") ? IPM_ORDER_NESDIS
                  : !strcmp(od, "amd")    ? IPM_ORDER_AMD : IPM_ORDER_AUTO;
    if (rc == CB_OK && strcmp(od, "amd") && strcmp(od, "metis") && strcmp(od, "nesdis") &&
        strcmp(od, "auto"))
        rc = cb_fail(err, CB_ERR_INPUT, "option ordering: '%s' is not auto, amd, metis or nesdis",
                     od);
    if (rc == CB_OK)
        rc = cb_option_double(s, ipm_options, "prox", 0, 1e6, &p->prox, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, ipm_options, "max_inner", 1, 100000000, &p->max_inner, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, ipm_options, "gmres_max", 0, 100000000, &p->gmres_max, err);
    p->outer = !strcmp(sh, "outer");
    p->newton = !strcmp(sh, "newton");
    p->supernodal = !strcmp(f, "auto") ? -1 : !strcmp(f, "supernodal");
    return rc;
}

/* Free what w holds (not w). */
static void clear_work(ipm_work *w)
{
    ipm_normal_free(w->nm);
    ipm_cones_free(&w->cones);
    cb_problem_free(w->own);
    free(w->buf);
}

static void ipm_cleanup(void *work)
{
    ipm_work *w = work;
    if (!w)
        return;
    clear_work(w);
    free(w);
}

/* Carve every vector out of one allocation. */
static int alloc_vectors(ipm_work *w)
{
    size_t n = w->n, cm = (size_t)w->m * IPM_STRIDE, km = (size_t)w->m * IPM_K2;
    size_t dd = (size_t)w->prob->nc * w->prob->d * w->prob->d, R = IPM_GMRES_RESTART;
    size_t kr = (R + 1) * n + (R + 1) * R + 4 * R + 1;
    w->buf = cb_calloc(IPM_NVEC * n + IPM_NCVEC * cm + 3 * km + dd + kr + 2 * (size_t)w->m,
                       sizeof(double));
    if (!w->buf)
        return CB_ERR_NOMEM;
    double *b = w->buf;
    double **nv[IPM_NVEC] = {&w->y, &w->c, &w->Sp, &w->rd, &w->rhs, &w->dp, &w->dpa, &w->ghat,
                             &w->erow, &w->Wv, &w->pbar, &w->pbest};
    double **cv[IPM_NCVEC] = {&w->s, &w->z, &w->lam, &w->ds, &w->dz, &w->dsa, &w->dza, &w->rc,
                              &w->t};
    for (int i = 0; i < IPM_NVEC; i++, b += n)
        *nv[i] = b;
    for (int i = 0; i < IPM_NCVEC; i++, b += cm)
        *cv[i] = b;
    w->Winv = b, w->Wm = b + km, w->Q = b + 2 * km, w->D = b + 3 * km;
    b = w->D + dd;
    ipm_krylov *k = &w->kry;
    k->n = n, k->restart = (int)R, k->V = b, k->H = b + (R + 1) * n;
    k->cs = k->H + (R + 1) * R, k->sn = k->cs + R, k->y = k->sn + R, k->g = k->y + R;
    w->lamdet = k->g + R + 1;
    w->tau_c = w->lamdet + w->m;
    return CB_OK;
}

/* τ_p,j = τ_z / max(W_ii, mean W_ii) over the cones' axis components i (normal reactions):
 * the mean S_ii of the mean start mixes in the rolling components, whose inertia terms dwarf
 * W_nn on small bodies, so that start puts most contacts far below their central path; the mean
 * as a floor keeps contacts of heavy bodies from starting far out (on a singular W that start
 * drifts along the null space). Read from W's diagonal blocks: both forms start alike. */
void ipm_start_reactions(const cb_problem *prob, const ipm_cones *c, double tau_z, double *tau)
{
    double sum = 0.0, blk[CB_MAX_DIM * CB_MAX_DIM];
    for (int j = 0; j < c->ncones; j++) {
        int a = c->contact[j], i = c->comp[j][0] - a * prob->d;
        cb_problem_diag_block(prob, a, blk);
        tau[j] = blk[i * (prob->d + 1)];
        sum += tau[j];
    }
    double mean = c->ncones ? sum / c->ncones : 0.0;
    for (int j = 0; j < c->ncones; j++)
        tau[j] = tau_z / (mean > 0 ? fmax(tau[j], mean) : 1.0);
}

/* Starting scales: τ_z = ‖q‖∞, τ_p = τ_z / mean S_ii (a reaction that balances q); per cone
 * τ_p,j = τ_p (start=mean) or ipm_start_reactions (start=contact); start=auto: mean below
 * IPM_LARGE_NC contacts (a few-contact step stalled at 1.2e-8 with the contact start where the
 * mean one solves it), contact from there (the 10^4-sphere pile step: solved). */
static void start_scales(ipm_work *w)
{
    double qi = 0.0;
    for (size_t i = 0; i < w->n; i++)
        qi = fmax(qi, fabs(w->prob->q[i]));
    if (!(qi > 0))
        qi = 1.0;
    w->tau_z = qi;
    w->tau_p = qi / ipm_normal_scale(w->nm);
    int mean = w->par.start_mean < 0 ? w->prob->nc < IPM_LARGE_NC : w->par.start_mean;
    if (!mean) {
        ipm_start_reactions(w->prob, &w->cones, qi, w->tau_c);
        return;
    }
    for (int j = 0; j < w->m; j++)
        w->tau_c[j] = w->tau_p;
}

/* The work of prob with options par; the normal matrix takes donor's symbolic analysis when
 * its pattern is donor's (donor NULL: analysed). */
static int build_work(const cb_problem *prob, const ipm_params *par, const ipm_normal *donor,
                      ipm_work **out, cb_error *err)
{
    int rc = CB_OK;
    *out = NULL;
    ipm_work *w = cb_calloc(1, sizeof *w);
    if (!w)
        return cb_fail(err, CB_ERR_NOMEM, "ipm: out of memory");
    w->par = *par, w->prob = prob, w->n = cb_problem_n(prob);
    int global = par->form == IPM_FORM_GLOBAL ||
                 (par->form == IPM_FORM_AUTO && prob->global && (size_t)prob->global->ndof <= w->n);
    if (!global && prob->storage == CB_STORAGE_FACTORED) {
        rc = cb_problem_to_bsr(prob, &w->own, err);
        w->prob = w->own;
    }
    if (rc == CB_OK && ipm_cones_build(w->prob, &w->cones) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "ipm: out of memory (nc = %d)", prob->nc);
    w->m = w->cones.ncones;
    if (rc == CB_OK && alloc_vectors(w) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "ipm: out of memory (nc = %d)", prob->nc);
    if (rc == CB_OK)
        rc = global ? ipm_normal_new_global(w->prob, w->cones.fixed, &w->nm, err)
                    : ipm_normal_renew(w->prob, w->cones.fixed,
                                       par->supernodal < 0 ? -(prob->nc >= IPM_LARGE_NC)
                                                           : par->supernodal,
                                       par->ordering, donor, &w->nm, err);
    if (rc != CB_OK) {
        ipm_cleanup(w);
        return rc;
    }
    cb_judge_scale_of(prob, &w->scale);
    w->rho = par->prox * ipm_normal_scale(w->nm);
    start_scales(w);
    *out = w;
    return CB_OK;
}

static int ipm_setup(const cb_problem *prob, const cb_settings *s, void **work, cb_error *err)
{
    ipm_params par;
    *work = NULL;
    int rc = parse_params(s, &par, err);
    ipm_work *w = NULL;
    if (rc == CB_OK)
        rc = build_work(prob, &par, NULL, &w, err);
    *work = w;
    return rc;
}

/* After prob's q, μ or W changed: the work built again as ipm_setup builds it, the CHOLMOD
 * symbolic analysis kept when the pattern of S is unchanged (local form). */
static int ipm_update(void *work, const cb_problem *prob, unsigned changed, cb_error *err)
{
    ipm_work *w = work, *fresh = NULL;
    (void)changed; /* q and μ move the start scales and the cones' fixed components: all anew */
    int rc = build_work(prob, &w->par, w->nm, &fresh, err);
    if (rc != CB_OK)
        return rc;
    clear_work(w);
    *w = *fresh;
    free(fresh);
    return CB_OK;
}

/* p strictly inside K: p = τ_p,j e_N per cone j from zero, else the warm start with r_N raised
 * above max_j ‖x_j‖/μ_j by 1e-2 τ_p,j and then lifted by IPM_WARM_LIFT·τ_p,j (a warm start on the
 * cone's boundary against the central z = τ_z e stalls the Mehrotra steps; lifted, it keeps the
 * warm start's direction at the cold start's distance from the boundary); z = τ_z e per cone.
 * Fixed components are set to 0. */
static void start_point(ipm_work *w, double *p)
{
    const ipm_cones *c = &w->cones;
    int zero = 1;
    for (size_t i = 0; i < w->n; i++) {
        if (c->fixed[i])
            p[i] = 0.0;
        zero &= p[i] == 0.0;
    }
    for (int j = 0; j < w->m; j++) {
        double *pn = p + c->comp[j][0], nx = 0.0;
        for (int i = 1; i < c->dim[j]; i++)
            nx += p[c->comp[j][i]] * p[c->comp[j][i]];
        double tp = w->tau_c[j], need = sqrt(nx) / c->mu[j] + 1e-2 * tp;
        *pn = zero ? tp : fmax(*pn, need) + IPM_WARM_LIFT * tp;
        double *zj = w->z + (size_t)j * IPM_STRIDE;
        zj[0] = w->tau_z, zj[1] = zj[2] = 0.0;
    }
}

/* Freeze c = q + g(y) + (W − S) p at p, given y = W p + q and S p in w->Sp. */
static void freeze_shift(ipm_work *w)
{
    cb_fo_modified_velocity(w->prob, w->y, w->ghat);
    for (size_t i = 0; i < w->n; i++) /* ŷ + W p − S p − W p = ŷ − S p, with y − W p = q */
        w->c[i] = w->ghat[i] - w->Sp[i];
}

/* r_d = S p + c + ρ (p − p̄) − Gᵀ z on the free components (S p in w->Sp). */
static void dual_residual(ipm_work *w, const double *p)
{
    ipm_cones_apply_t(&w->cones, w->n, w->z, w->rd);
    for (size_t i = 0; i < w->n; i++)
        w->rd[i] = w->cones.fixed[i] ? 0.0
                                     : w->Sp[i] + w->c[i] + w->rho * (p[i] - w->pbar[i]) - w->rd[i];
}

/* D_α = Σ_{j ∈ α} G_jᵀ Q_j G_j (G_j: μ_j on r_N, 1 on the block's components). */
static void scaling_blocks(ipm_work *w)
{
    const ipm_cones *c = &w->cones;
    int d = w->prob->d;
    size_t dd = (size_t)d * d;
    memset(w->D, 0, (size_t)w->prob->nc * dd * sizeof *w->D);
    for (int j = 0; j < w->m; j++) {
        int k = c->dim[j], base = c->contact[j] * d;
        double *Dj = w->D + (size_t)c->contact[j] * dd, g[IPM_STRIDE] = {c->mu[j], 1.0, 1.0};
        const double *Q = w->Q + (size_t)j * IPM_K2;
        for (int b = 0; b < k; b++)
            for (int a = 0; a < k; a++)
                Dj[(c->comp[j][a] - base) + (size_t)(c->comp[j][b] - base) * d] +=
                    g[a] * g[b] * Q[a + b * k];
    }
}

/* NT scaling of every cone at s = G p, D, and the factorisation of S + D + δ I (δ grows while
 * CHOLMOD reports the matrix is not positive definite). CB_OK, CB_ERR_NOMEM, or
 * CB_ERR_INTERNAL when s or z left its cone or no δ gave a factorisation. */
static int scale_and_factor(ipm_work *w, const double *p, cb_work *cnt)
{
    ipm_cones_apply(&w->cones, p, w->s);
    for (int j = 0; j < w->m; j++) {
        size_t o = (size_t)j * IPM_STRIDE, o2 = (size_t)j * IPM_K2;
        if (!ipm_soc_scaling(w->cones.dim[j], w->s + o, w->z + o, w->Winv + o2, w->Wm + o2,
                             w->Q + o2, w->lam + o, w->lamdet + j))
            return CB_ERR_INTERNAL;
    }
    scaling_blocks(w);
    double delta = w->rho + IPM_DELTA_MIN * ipm_normal_scale(w->nm);
    for (int t = 0; t < IPM_MAX_FACTOR_TRIES; t++) {
        int r = ipm_normal_factor(w->nm, w->D, delta, cnt);
        w->delta = delta;
        if (r != 1)
            return r;
        delta *= IPM_DELTA_GROW;
    }
    return CB_ERR_INTERNAL;
}

/* Row N of ∂g_α/∂y_α per contact: μ_i y_i/‖y_i‖ on the components of block i (0 where
 * y_i = 0 or the block is fixed), at y = w->y. */
static void desaxce_rows(ipm_work *w)
{
    const ipm_cones *c = &w->cones;
    memset(w->erow, 0, w->n * sizeof *w->erow);
    for (int j = 0; j < w->m; j++) {
        int k = c->dim[j];
        double ny = 0.0;
        for (int i = 1; i < k; i++)
            ny += w->y[c->comp[j][i]] * w->y[c->comp[j][i]];
        ny = sqrt(ny);
        ny = sqrt(ny * ny + w->eps_stick * w->eps_stick); /* smoothed near sticking */
        for (int i = 1; ny > 0 && i < k; i++)
            w->erow[c->comp[j][i]] = c->mu[j] * w->y[c->comp[j][i]] / ny;
    }
}

/* out = (W + E W + D + δ I) v on the free components (E = e_N ∂g/∂y row per contact), v on
 * the fixed ones: the Jacobian of S p + c(p) − Gᵀz with the shift and skew part not frozen. */
static void apply_exact(void *ctx, const double *v, double *out)
{
    ipm_work *w = ctx;
    int d = w->prob->d;
    int rc = ipm_normal_Wp(w->nm, v, out, w->cnt);
    if (rc != CB_OK && w->precond_rc == CB_OK)
        w->precond_rc = rc;
    for (int a = 0; a < w->prob->nc; a++) {
        size_t o = (size_t)a * d;
        const double *Da = w->D + o * d;
        double e = 0.0;
        for (int i = 1; i < d; i++)
            e += w->erow[o + i] * out[o + i];
        out[o] += e;
        for (int i = 0; i < d; i++) {
            double t = w->delta * v[o + i];
            for (int l = 0; l < d; l++)
                t += Da[i + l * d] * v[o + l];
            out[o + i] = w->cones.fixed[o + i] ? v[o + i] : out[o + i] + t;
        }
    }
}

/* v ← (S + D + δ I)⁻¹ v with the Cholesky factor. */
static void precond_cholesky(void *ctx, double *v)
{
    ipm_work *w = ctx;
    int rc = ipm_normal_precond(w->nm, v);
    if (rc != CB_OK && w->precond_rc == CB_OK)
        w->precond_rc = rc;
}

/* Δp from the right-hand side in dp: the Cholesky solve (the symmetric system with the shift
 * frozen), then with shift=newton GMRES on the exact system from there, to a relative
 * tolerance that follows the judged error (inexact Newton). */
static int solve_newton(ipm_work *w, double *dp, cb_work *cnt)
{
    if (w->exact)
        memcpy(w->Wv, dp, w->n * sizeof *dp);
    int rc = ipm_normal_solve(w->nm, dp);
    if (rc != CB_OK || !w->exact || w->par.gmres_max == 0)
        return rc;
    w->cnt = cnt, w->precond_rc = CB_OK;
    w->kry.apply = apply_exact, w->kry.precond = precond_cholesky, w->kry.ctx = w;
    double rtol = fmax(IPM_GMRES_RTOL, fmin(IPM_GMRES_RTOL_MAX, IPM_GMRES_FORCING * w->err));
    ipm_gmres(&w->kry, w->Wv, dp, rtol, w->par.gmres_max);
    if (w->precond_rc == CB_ERR_NOMEM) /* out of memory is not a breakdown: no retry */
        return CB_ERR_NOMEM;
    return w->precond_rc != CB_OK ? CB_ERR_INTERNAL : CB_OK;
}

/* Newton direction for the complementarity right-hand side rc (per cone, λ ∘ (W Δz + W⁻¹ Δs)
 * = rc): u = λ \ rc, t = W⁻¹ u, N Δp = −r_d + Gᵀ t, Δs = G Δp, Δz = t − W⁻² Δs.
 * CB_ERR_INTERNAL when it is not finite. */
static int direction(ipm_work *w, const double *rc, double *dp, double *ds, double *dz,
                     cb_work *cnt)
{
    for (int j = 0; j < w->m; j++) {
        int k = w->cones.dim[j];
        size_t o = (size_t)j * IPM_STRIDE;
        const double *Wi = w->Winv + (size_t)j * IPM_K2;
        double u[IPM_STRIDE];
        ipm_soc_jordan_solve(k, w->lam + o, w->lamdet[j], rc + o, u);
        for (int a = 0; a < k; a++) {
            w->t[o + a] = 0.0;
            for (int b = 0; b < k; b++)
                w->t[o + a] += Wi[a + b * k] * u[b];
        }
    }
    ipm_cones_apply_t(&w->cones, w->n, w->t, dp);
    for (size_t i = 0; i < w->n; i++)
        dp[i] -= w->rd[i];
    int rc2 = solve_newton(w, dp, cnt);
    if (rc2 != CB_OK)
        return rc2;
    ipm_cones_apply(&w->cones, dp, ds);
    for (int j = 0; j < w->m; j++) {
        int k = w->cones.dim[j];
        size_t o = (size_t)j * IPM_STRIDE;
        const double *Q = w->Q + (size_t)j * IPM_K2;
        for (int a = 0; a < k; a++) {
            double qs = 0.0;
            for (int b = 0; b < k; b++)
                qs += Q[a + b * k] * ds[o + b];
            dz[o + a] = w->t[o + a] - qs;
        }
    }
    return cb_all_finite(dp, w->n) && cb_all_finite(dz, (size_t)w->m * IPM_STRIDE)
               ? CB_OK : CB_ERR_INTERNAL; /* not finite: a breakdown */
}

/* Largest α ≤ cap keeping s + α Δs and z + α Δz in their cones. */
static double max_step(const ipm_work *w, const double *ds, const double *dz, double cap)
{
    double alpha = cap;
    for (int j = 0; j < w->m; j++) {
        size_t o = (size_t)j * IPM_STRIDE;
        alpha = fmin(alpha, ipm_soc_max_step(w->cones.dim[j], w->s + o, ds + o));
        alpha = fmin(alpha, ipm_soc_max_step(w->cones.dim[j], w->z + o, dz + o));
    }
    return alpha;
}

/* Σ_j (s_j + α Δs_j)ᵀ (z_j + α Δz_j). */
static double gap_at(const ipm_work *w, double alpha, const double *ds, const double *dz)
{
    double g = 0.0;
    for (int j = 0; j < w->m; j++)
        for (int i = 0; i < w->cones.dim[j]; i++) {
            size_t o = (size_t)j * IPM_STRIDE + i;
            g += (w->s[o] + alpha * ds[o]) * (w->z[o] + alpha * dz[o]);
        }
    return g;
}

/* det x of a trial point x = x₀ + α Δx of one cone, as (t − ‖x̄‖)(t + ‖x̄‖); < 0 outside. */
static double trial_det(int k, const double *x, const double *dx, double alpha)
{
    double t = x[0] + alpha * dx[0], nx = 0.0;
    for (int i = 1; i < k; i++)
        nx += (x[i] + alpha * dx[i]) * (x[i] + alpha * dx[i]);
    nx = sqrt(nx);
    return t > nx ? (t - nx) * (t + nx) : -1.0;
}

/* The wide neighbourhood at step α: every cone inside, and the smaller eigenvalue² of its
 * scaled point λ_j, l² = det s det z / (sᵀz + √((sᵀz)² − det s det z)), at least
 * IPM_NEIGHBOURHOOD · μ (μ = Σ sᵀz / m). */
static int central_at(const ipm_work *w, double alpha, const double *ds, const double *dz)
{
    double lmin = INFINITY, gap = 0.0;
    for (int j = 0; j < w->m; j++) {
        int k = w->cones.dim[j];
        size_t o = (size_t)j * IPM_STRIDE;
        double a = trial_det(k, w->s + o, ds + o, alpha), b = trial_det(k, w->z + o, dz + o, alpha);
        if (!(a > 0) || !(b > 0))
            return 0;
        double sz = 0.0;
        for (int i = 0; i < k; i++)
            sz += (w->s[o + i] + alpha * ds[o + i]) * (w->z[o + i] + alpha * dz[o + i]);
        gap += sz;
        lmin = fmin(lmin, a * b / (sz + sqrt(fmax(0.0, sz * sz - a * b))));
    }
    return lmin >= IPM_NEIGHBOURHOOD * gap / w->m;
}

/* rc_j = σμ e − λ_j ∘ λ_j − (W⁻¹Δs_a)_j ∘ (W Δz_a)_j (σ = 0 and no Δ terms: the predictor). */
static void complementarity_rhs(ipm_work *w, double sigma_mu, int corrector)
{
    for (int j = 0; j < w->m; j++) {
        int k = w->cones.dim[j];
        size_t o = (size_t)j * IPM_STRIDE, o2 = (size_t)j * IPM_K2;
        double ll[IPM_STRIDE], a[IPM_STRIDE] = {0}, b[IPM_STRIDE] = {0}, ab[IPM_STRIDE] = {0};
        ipm_soc_jordan(k, w->lam + o, w->lam + o, ll);
        for (int r = 0; corrector && r < k; r++)
            for (int l = 0; l < k; l++) {
                a[r] += w->Winv[o2 + r + l * k] * w->dsa[o + l];
                b[r] += w->Wm[o2 + r + l * k] * w->dza[o + l];
            }
        if (corrector)
            ipm_soc_jordan(k, a, b, ab);
        for (int r = 0; r < k; r++)
            w->rc[o + r] = (r == 0 ? sigma_mu : 0.0) - ll[r] - ab[r];
    }
}

/* Mehrotra predictor–corrector direction (Δp, Δz) at (p, z) with the current factorisation:
 * σ = (μ_aff/μ)³, raised to keep μ ≥ IPM_CENTRAL ‖r_d‖ ‖p‖; *alpha: IPM_STEP_FRACTION of the
 * way to the boundary, at most 1, shortened until the wide neighbourhood holds. */
static int pc_direction(ipm_work *w, const double *p, double *alpha, cb_work *cnt)
{
    int rc;
    complementarity_rhs(w, 0.0, 0);
    if ((rc = direction(w, w->rc, w->dpa, w->dsa, w->dza, cnt)) != CB_OK)
        return rc;
    double alpha_a = max_step(w, w->dsa, w->dza, 1.0), mu = gap_at(w, 0.0, w->dsa, w->dza);
    double mu_a = gap_at(w, alpha_a, w->dsa, w->dza);
    double sigma = mu > 0 ? fmin(1.0, fmax(0.0, mu_a / mu)) : 0.0;
    sigma = sigma * sigma * sigma;
    double floor_mu = IPM_CENTRAL * cb_nrm2(w->rd, w->n) * cb_nrm2(p, w->n);
    if (mu > 0)
        sigma = fmin(1.0, fmax(sigma, floor_mu / mu));
    complementarity_rhs(w, sigma * mu / w->m, 1);
    if ((rc = direction(w, w->rc, w->dp, w->ds, w->dz, cnt)) != CB_OK)
        return rc;
    double a = IPM_STEP_FRACTION * max_step(w, w->ds, w->dz, 1.0 / IPM_STEP_FRACTION);
    for (int t = 0; t < IPM_MAX_BACKTRACK && !central_at(w, a, w->ds, w->dz); t++)
        a *= IPM_BACKTRACK;
    *alpha = a;
    return CB_OK;
}

/* One interior-point iteration from (p, z): factorisation, direction (shift=newton: the exact
 * Newton direction, or the symmetric one when that is not finite or allows a step below
 * IPM_EXACT_MIN_STEP), step. *step = ‖Δp‖ of the step taken. */
static int mehrotra_step(ipm_work *w, double *p, double *step, cb_work *cnt)
{
    double alpha = 0.0;
    int rc = scale_and_factor(w, p, cnt);
    w->exact = w->par.newton;
    if (rc == CB_OK)
        rc = pc_direction(w, p, &alpha, cnt);
    if (w->exact && (rc == CB_ERR_INTERNAL || (rc == CB_OK && alpha < IPM_EXACT_MIN_STEP))) {
        w->exact = 0;
        rc = pc_direction(w, p, &alpha, cnt);
    }
    if (rc != CB_OK)
        return rc;
    for (size_t i = 0; i < w->n; i++)
        p[i] += alpha * w->dp[i];
    for (size_t i = 0; i < (size_t)w->m * IPM_STRIDE; i++)
        w->z[i] += alpha * w->dz[i];
    *step = alpha * cb_nrm2(w->dp, w->n);
    return CB_OK;
}

/* shift=outer: the convex program's own error (‖r_d‖ + sᵀz/‖p‖) / max(‖q‖, ‖p‖, ‖y‖). */
static double program_error(const ipm_work *w, const cb_fo_residual *res, const double *p)
{
    ipm_cones_apply(&w->cones, p, w->s);
    double g = gap_at(w, 0.0, w->s, w->z), np = fmax(res->norm_p, DBL_MIN);
    double norm = fmax(w->scale.norm_q, fmax(res->norm_p, res->norm_y));
    return (cb_nrm2(w->rd, w->n) + fabs(g) / np) / fmax(norm, DBL_MIN);
}

/* After a step: y, S p and the judged residual at p; then r_d, refreezing c (force, shift=each,
 * or when the program is solved well enough, or after max_inner iterations). */
static void after_step(ipm_work *w, const double *p, cb_fo_residual *res, long *inner,
                       int force, cb_work *cnt)
{
    if (ipm_normal_y(w->nm, p, w->y, cnt) != CB_OK) /* M factored at setup: cannot fail */
        for (size_t i = 0; i < w->n; i++)
            w->y[i] = NAN;
    cb_fo_residual_eval(w->prob, p, w->y, &w->scale, res, cnt);
    w->err = res->err;
    w->eps_stick = IPM_STICK * res->err * fmax(w->scale.norm_q, fmax(res->norm_p, res->norm_y));
    ipm_normal_Sp(w->nm, p, w->Sp, cnt);
    dual_residual(w, p);
    if (w->par.newton)
        desaxce_rows(w);
    int solved = force || ++*inner >= w->par.max_inner ||
                 program_error(w, res, p) <= IPM_INNER_RATIO * res->err;
    if (solved) /* the proximal program is solved: move its centre */
        memcpy(w->pbar, p, w->n * sizeof *p);
    if (!solved && w->par.outer)
        return;
    freeze_shift(w);
    dual_residual(w, p);
    if (solved)
        *inner = 0;
}

/* The drift guard: pbest = the detector's reference iterate; when p drifts (first_order.h: the
 * frozen-shift program can be unbounded along K ∩ null(W) on a singular W), p = pbest (y, res
 * and the shift updated) and 1: the interior point stops there. */
static int drifted(ipm_work *w, double *p, cb_fo_residual *res, long *inner, cb_work *cnt)
{
    int r = cb_fo_drift_update(&w->drift, res, w->y);
    if (r == 1)
        memcpy(w->pbest, p, w->n * sizeof *p);
    if (r != 2)
        return 0;
    memcpy(p, w->pbest, w->n * sizeof *p);
    after_step(w, p, res, inner, 1, cnt);
    return 1;
}

/* 1 when the error has not halved for IPM_STALL iterations (best, k_best updated). */
static int stalled(double e, int k, double *best, int *k_best)
{
    if (e <= IPM_PROGRESS * *best)
        *best = e, *k_best = k;
    return k - *k_best >= IPM_STALL;
}

/* The warm start as it is (start_point moves it into the interior): a solution the stop test
 * accepts is returned after 0 iterations, a non-finite one is diverged at once; else -1. The
 * default start p = 0 is not looked at (it costs nothing then). */
static int warm_start_status(ipm_work *w, const cb_settings *s, cb_solution *sol, double t0,
                             cb_info *info)
{
    cb_fo_residual res;
    size_t i = 0;
    while (i < w->n && sol->p[i] == 0.0)
        i++;
    if (i == w->n)
        return -1;
    after_step(w, sol->p, &res, &(long){0}, 1, &info->work);
    int status = cb_fo_stop_status(&res, 0.0, w->scale.norm_q, s, 0, t0);
    if (status != CB_STATUS_CONVERGED && status != CB_STATUS_DIVERGED)
        return -1;
    memcpy(sol->y, w->y, w->n * sizeof *sol->y);
    info->solver_error = res.err;
    info->status = (cb_status)status;
    return status;
}

static int ipm_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                     cb_error *err)
{
    ipm_work *w = work;
    double t0 = cb_now(), step = INFINITY, best = INFINITY;
    long inner = 0;
    int k = 0, k_best = 0, status = -1, broke = 0;
    cb_fo_residual res;
    cb_step_cost cost;
    if (warm_start_status(w, s, sol, t0, info) >= 0)
        return cb_info_trace(info, s, 0, t0, info->solver_error);
    start_point(w, sol->p);
    after_step(w, sol->p, &res, &inner, 1, &info->work);
    cb_fo_drift_init(&w->drift, w->prob, w->scale.norm_q, w->scale.diag_mean);
    cb_step_cost_start(&cost, s, w->n);
    while (status < 0) {
        if (drifted(w, sol->p, &res, &inner, &info->work))
            broke = 1;
        if (cb_info_trace(info, s, k, t0, res.err) != CB_OK)
            return cb_fail(err, CB_ERR_NOMEM, "ipm: out of memory for the trace");
        status = cb_fo_stop_status(&res, step, w->scale.norm_q, s, k, t0);
        if (status >= 0 || broke || stalled(res.err, k, &best, &k_best))
            break;
        if (!cb_step_fits(s, &cost)) { /* a factorisation cannot be stopped: none that won't fit */
            status = CB_STATUS_TIME_LIMIT;
            break;
        }
        int rc = mehrotra_step(w, sol->p, &step, &info->work);
        if (rc == CB_ERR_NOMEM)
            return cb_fail(err, rc, "ipm: out of memory (normal equations, n = %zu)", w->n);
        broke = rc != CB_OK; /* left the cone or no factorisation */
        info->iterations = ++k;
        info->work.local_iters++;
        after_step(w, sol->p, &res, &inner, 0, &info->work);
    }
    memcpy(sol->y, w->y, w->n * sizeof *sol->y);
    info->solver_error = res.err;
    info->status = status < 0 ? CB_STATUS_STALLED : (cb_status)status;
    return CB_OK;
}

const cb_solver cb_solver_ipm = {
    .name = "ipm",
    .summary = "primal-dual interior point (Mehrotra, Nesterov-Todd scaling) on the second-order "
               "cone program, fixed point on the De Saxce shift, sparse Cholesky (CHOLMOD)",
    .options = ipm_options,
    .supports = cb_fo_supports,
    .setup = ipm_setup,
    .solve = ipm_solve,
    .cleanup = ipm_cleanup,
    .update = ipm_update,
};
