/* conebench — `nsn`: semismooth Newton on the cone complementarity problem, for every cone
 * kind: Alart & Curnier's map (formulation=ac, the default: the normal part and each disk of
 * the product-disk cone projected separately, the disk radii μ_i max(0, x_n); no De Saxcé term)
 * or the natural map with the De Saxcé term (formulation=natural; Acary & Bourrier 2020 §5).
 * Both have the same zeros: the solutions of the CCP. The residuals and their generalised
 * Jacobians are in nsn_internal.h:  F(p) = p − P(p − ρ ·),  H = I − D + A W  (block by block).
 * Each iteration solves (H + λ I) Δ = −F — sparse LU of the block-sparse matrix (KLU) on dense
 * and BSR storage (dense LU below NSN_DENSE_MAX rows: nsn_dense.c), restarted GMRES through the W kernels on factored storage or when the
 * factorisation fails — with λ = reg · min(1, e_k) · s_W · m (e_k the judged error, s_W the mean
 * ρ_α‖W_αα‖∞, m a multiplier, 1 unless adapted): a Levenberg–Marquardt/proximal shift that keeps the system solvable on a
 * singular W and vanishes as F → 0 (local superlinear convergence where H is nonsingular at the
 * solution). On the direct route's plain phase m adapts as in classical Levenberg–Marquardt
 * (lm_adapt): slow full steps in a row shrink it, a failed line search grows it. Globalisation: non-monotone Armijo line search on ψ = ½‖F‖² (the last NSN_MEMORY
 * values); when it fails, λ grows for the next step, and with fallback_sweeps > 0 (the
 * composite nsn+nsgs sets 20: composite.c) the safeguard is that many sweeps of nsgs from the
 * current iterate (block Gauss–Seidel makes progress where Newton's model does not yet hold, and
 * brings the iterate into Newton's basin). With fallback_sweeps = 0 (the default) only the
 * smoothing phase of smoothing=auto runs nsgs; nsgs is set up at its first use, so a run that
 * does not need it does not pay for it. With the safeguard, nsgs's share of the counters is a phase of its own
 * (cb_info.phases: nsn, then nsgs with its sweeps), added into the totals. The stopping test is
 * the judge's (first_order.h), not ‖F‖.
 *
 * The Krylov route (linear=krylov, or auto when CHOLMOD's analysis of the contact graph counts
 * too many flops for a factor: nsn_internal.h): nsgs sweeps to a judged error of
 * NSN_KRYLOV_START first, then the steps by GMRES with an Eisenstat–Walker tolerance and the
 * shift scaled by NSN_KRYLOV_REG (without it, a shift far above the small eigenvalues of a
 * pile's W makes every step remove only a sliver of the residual). linear=auto on the direct
 * route tries the Krylov route first when KLU estimates a costly factor (NSN_TRIAL_FLOPS: the
 * pile steps of every size, where the direct route crawls from p = 0 under its shift) and keeps
 * it while the steps converge fast (NSN_TRIAL_GAIN); else the run restarts from its start on
 * the direct route, the path it takes without the trial (solve_begin, trial_check).
 *
 * smoothing=auto (the default with formulation=ac) runs the plain method first, and when its
 * error has not fallen tenfold in NSN_STALL_WINDOW steps or NSN_PLAIN_FAILS line searches in a
 * row failed, the smoothing phase below from the starting point (once), with its nsgs
 * safeguard whatever fallback_sweeps: where plain Newton converges the default is plain Newton.
 * smoothing=on runs the smoothing Newton phase first: the steps solve the smoothed map F_ε (nsn_internal.h) with a monotone search on ½‖F_ε‖², on a
 * path ε_0 = ‖F(p_0)‖/√nc, ε ← ε/10 once ‖F_ε‖/√nc ≤ NSN_SMOOTH_ETA ε, and ε ≤ 100 r²/r_0
 * near the solution (smooth_path). On a singular W the nonsmooth ψ has stationary points that
 * are not solutions, where the line search on ψ fails step after step; F_ε has no kinks, and on
 * the random multibody problems its path kept ‖p‖ near the generator's solution's. Its
 * safeguard (with fallback_sweeps > 0) is a longer nsgs run (up to NSN_SMOOTH_SWEEPS sweeps, stopped at a tenth of its
 * starting error, a chunk undone when it takes ‖p‖ past NSN_SMOOTH_GROWTH × the largest accepted
 * ‖p‖). The phase ends, and the plain method above restarts from the starting point, when p
 * drifts (‖p‖ grows eightfold with W p and the absolute residual in place: first_order.h) or
 * the error has not fallen tenfold in NSN_STALL_WINDOW steps (BENCHMARKS.md: the random
 * multibody rolling3d problems it was made for). With smoothing=auto and handover=ipm (the
 * defaults), when the plain method restarted after the smoothing phase has both not fallen
 * tenfold in NSN_STALL_WINDOW steps and failed NSN_PLAIN_FAILS line searches in a row, the
 * policy is exhausted and the run goes on in ipm from the starting point (set up at
 * that first use; a phase of its own), the better final iterate of the two kept: on a
 * degenerate solution (a hyperstatic packing's self-stress, not strictly complementary) the
 * semismooth steps stall where the interior point converges. */
#include "first_order.h"
#include "nsn_internal.h"
#include "solvers_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "detmath.h"
#include "base.h"

#define NSN_MEMORY 3          /* non-monotone line search: max of the last ψ values */
#define NSN_ARMIJO 1e-4       /* sufficient decrease σ */
#define NSN_MAX_HALVINGS 4    /* step t down to 2^-4: a shorter one is no Newton step */
#define NSN_LAMBDA_GROW 10.0  /* λ multiplier after a failed step or a singular factorisation */
#define NSN_MAX_FACTOR_TRIES 6
#define NSN_LM_SLOW 0.95      /* plain direct-route phase: a full step accepted that took the
                                 judged error down, but not below this × its value before the
                                 step, is slow (an over-damped step: a sliver removed); */
#define NSN_LM_PATIENCE 3     /* after this many slow steps in a row, each further one divides */
#define NSN_LM_SHRINK 10.0    /* λ's multiplier by this, */
#define NSN_LM_FLOOR 1e-4     /* down to this (a failed line search multiplies it back up) */
#define NSN_GMRES_RESTART 30
#define NSN_KRYLOV_REG 1e-4   /* Krylov route: λ's scale × this (a shift of 1e-2 stalls piles) */
#define NSN_KRYLOV_START 0.1  /* Krylov route: nsgs sweeps from p_0 to this judged error, */
#define NSN_KRYLOV_SWEEPS 50  /* … at most this many */
#define NSN_TRIAL_FLOPS 40.0  /* linear=auto below NSN_ND_MIN_NC contacts: the Krylov route is
                                 tried first when KLU's analysis estimates more than this many
                                 flops of a factorisation per entry of the Newton matrix, */
#define NSN_TRIAL_GAIN 0.25   /* and kept while each Newton step takes the judged error to at
                                 most this × its value before the step */
#define NSN_EW_GAMMA 0.9      /* Krylov route: Eisenstat–Walker forcing (choice 2) γ, */
#define NSN_EW_MAX 0.1        /* η at most (and the first step's) */
#define NSN_SMOOTH_ETA 0.3    /* ε path: ε is divided once ‖F_ε‖/√nc ≤ η ε */
#define NSN_SMOOTH_DIV 10.0   /* … by this */
#define NSN_SMOOTH_CUTS 60    /* at most this many divisions per step */
#define NSN_SMOOTH_TAIL 100.0 /* and ε ≤ this · r²/r_0 (r = ‖F(p)‖/√nc): the superlinear tail */
#define NSN_SMOOTH_SWEEPS 500 /* smoothing phase's safeguard: nsgs sweeps at most, */
#define NSN_SMOOTH_CHUNK 20   /* run in chunks of this many, */
#define NSN_SMOOTH_GAIN 0.1   /* stopped at this fraction of its starting error, */
#define NSN_SMOOTH_GROWTH 1.5 /* a chunk undone when ‖p‖ passes this × the reference */
#define NSN_STALL_WINDOW 30   /* smoothing phase ends: no decrease to NSN_STALL_GAIN × the */
#define NSN_STALL_GAIN 0.1    /* error of NSN_STALL_WINDOW steps before */
#define NSN_PLAIN_FAILS 6     /* smoothing=auto: the plain phase ends after this many line
                                 searches failed in a row (λ grown by 10^6) */

enum { NSN_SMOOTH_OFF, NSN_SMOOTH_ON, NSN_SMOOTH_AUTO };

typedef struct {
    int ac;               /* formulation=ac: ρ_α = 1/‖W_αα‖ */
    int linear;           /* 0 auto, 1 klu, 2 gmres, 3 krylov (the Krylov route) */
    double reg;           /* λ scale */
    long gmres_max;       /* GMRES iterations per Newton step */
    long sweeps;          /* nsgs sweeps of the safeguard */
    int smooth;           /* with formulation=ac: NSN_SMOOTH_OFF, _ON (the smoothing phase
                             first) or _AUTO (plain first, smoothing when it stalls) */
    int handover;         /* with _AUTO: 1 (handover=ipm) when the plain method stalls again
                             after the smoothing phase, the run goes on in ipm */
} nsn_params;

typedef struct {
    const cb_problem *prob;
    size_t n;
    nsn_params par;
    cb_judge_scale scale; /* the judge's data scales */
    double w_scale;
    int krylov;             /* the steps in progress are the Krylov route's (no KLU) */
    int krylov_setup;       /* the Krylov route chosen at setup (nsn_internal.h:
                               nsn_direct_new_auto): every solve takes it */
    int trial;              /* 1 while a solve tries the Krylov route before the direct one */
    double *p_start;        /* the solve's starting point, kept during the trial */
    double f_prev;          /* its forcing term: ‖F‖ at the last step (0: none yet) */
    const cb_settings *run; /* the settings of the solve in progress (GMRES's time limit) */
    double *rho;            /* ρ_α of F */
    nsn_system sys;
    nsn_direct *direct;     /* NULL: GMRES (or, with small, not made yet) */
    nsn_dense *small;       /* the small path's LU (nsn_small.c), in mem; NULL: no small path */
    int small_diag;         /* with small: W is block diagonal (contact by contact) */
    double *y, *dp, *pt, *yt, *Ft, *scratch;
    double psi_hist[NSN_MEMORY];
    double lambda_boost;    /* grows after failures, back to 1 after good steps; below 1
                               (to NSN_LM_FLOOR) after slow full steps (lm_adapt) */
    double err_last;        /* the judged error before the last step (0: none) */
    int full_last;          /* the last step was accepted at full length (t = 1) */
    int slow;               /* slow full steps in a row (lm_adapt) */
    int lm_off;             /* 1: the phase stalled with m shrunk; m is 1 to its end */
    void *gs;               /* nsgs work for the safeguard (NULL: fallback_sweeps = 0) */
    cb_work gs_work;        /* the safeguard's counters in this solve (its phase) */
    int gs_sweeps;          /* its sweeps */
    double gs_time;         /* its wall seconds */
    double *p0;             /* the starting point (the plain method restarts there) */
    double *mem;            /* every array above, in the block of the struct (one allocation) */
    int smoothing;          /* 1 while in the smoothing phase */
    int smooth_first;       /* 1 at the smoothing phase's first step (ε_0 from there) */
    int may_smooth;         /* smoothing=auto: 1 while the plain phase may hand over */
    int fails;              /* line searches failed in a row (plain phase) */
    int k0;                 /* the step the current phase started after */
    int sys_at_p;           /* 1: sys holds F and the blocks at the current p (the accepted
                               trial's evaluation), no need to evaluate them again */
    double eps, r0;         /* its current ε; ‖F(p_0)‖/√nc */
    double p_ref;           /* the largest ‖p‖ it accepted */
    cb_fo_drift drift;      /* the drift detector (first_order.h) */
    double err_hist[NSN_STALL_WINDOW]; /* judged errors of the last steps (ring) */
    int hand;               /* 1: the policy is exhausted, the run is handed to ipm */
    void *ipm;              /* ipm's work for the handover (set up at its first use) */
    cb_work ipm_work;       /* its counters in this solve (its phase), */
    int ipm_iters;          /* iterations, */
    double ipm_time;        /* wall seconds; */
    int ipm_ran;            /* 1 when it ran in this solve */
} nsn_work;

static const cb_option_spec nsn_options[] = {
    {"formulation", "ac", "ac: Alart-Curnier, x = p - rho y (rho = 1/||W_aa|| per contact), "
                          "F_n = p_n - max(0, x_n), F_i = p_i - P_{disk(mu_i max(0, x_n))}(x_i); "
                          "natural: F = p - P_K(p - yhat), yhat with the De Saxce term"},
    {"linear", "auto", "Newton system solver: klu (sparse LU, dense/BSR W) | gmres (matrix-free, "
                       "any storage) | krylov (the Krylov route: nsgs sweeps to error 0.1 first, "
                       "then GMRES steps with the shift scaled by 1e-4) | auto (klu unless W is "
                       "factored or, from 2000 contacts, the factor would cost more than 100 "
                       "flops per entry of the Newton matrix: then krylov; with klu, when KLU "
                       "estimates more than 40 flops per entry, krylov is tried first and kept "
                       "while each Newton step cuts the error fourfold, else the run restarts "
                       "on klu)"},
    {"reg", "1e-2", "Levenberg-Marquardt shift lambda = reg min(1, error) mean(rho ||W_aa||) "
                    "m, m = 1 then /10 per slow full step (error cut by less than 5 %) from the "
                    "3rd in a row, to 1e-4, x10 per failed line search; reg >= 0"},
    {"gmres_max", "200", "GMRES iterations per Newton step (>= 1)"},
    {"fallback_sweeps", "0", "nsgs sweeps when the line search fails (>= 0; 0: no nsgs, only "
                             "a larger shift; nsn+nsgs sets 20)"},
    {"smoothing", "auto", "with formulation=ac: auto: the plain method first, and when it stalls "
                          "or p drifts, the smoothing phase from the start | on: the smoothing "
                          "Newton phase first (smoothed max and disk projections on a path eps "
                          "-> 0; ends when p drifts along null(W) or stalls, then the plain method "
                          "from the start) | off: the plain method only"},
    {"handover", "ipm", "with smoothing=auto: when the plain method stalls again after the "
                        "smoothing phase, ipm: the run goes on in ipm (with its defaults) from "
                        "the start, and the better final iterate of the two is kept | none: "
                        "nsn goes on"},
    {NULL, NULL, NULL}};

static int parse_options(const cb_settings *s, nsn_params *p, cb_error *err)
{
    int rc = cb_options_check(s, nsn_options, "nsn", err);
    const char *f = rc == CB_OK ? cb_option_get(s, nsn_options, "formulation") : "";
    const char *l = rc == CB_OK ? cb_option_get(s, nsn_options, "linear") : "";
    const char *sm = rc == CB_OK ? cb_option_get(s, nsn_options, "smoothing") : "";
    const char *ho = rc == CB_OK ? cb_option_get(s, nsn_options, "handover") : "";
    if (rc == CB_OK && strcmp(f, "natural") && strcmp(f, "ac"))
        rc = cb_fail(err, CB_ERR_INPUT, "option formulation: '%s' is not natural or ac", f);
    if (rc == CB_OK && strcmp(l, "auto") && strcmp(l, "klu") && strcmp(l, "gmres") &&
        strcmp(l, "krylov"))
        rc = cb_fail(err, CB_ERR_INPUT, "option linear: '%s' is not auto, klu, gmres or krylov",
                     l);
    if (rc == CB_OK && strcmp(sm, "auto") && strcmp(sm, "on") && strcmp(sm, "off"))
        rc = cb_fail(err, CB_ERR_INPUT, "option smoothing: '%s' is not auto, on or off", sm);
    if (rc == CB_OK && strcmp(ho, "ipm") && strcmp(ho, "none"))
        rc = cb_fail(err, CB_ERR_INPUT, "option handover: '%s' is not ipm or none", ho);
    if (rc == CB_OK)
        rc = cb_option_double(s, nsn_options, "reg", 0, 1e10, &p->reg, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, nsn_options, "gmres_max", 1, 100000000, &p->gmres_max, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, nsn_options, "fallback_sweeps", 0, 1000000, &p->sweeps, err);
    p->ac = !strcmp(f, "ac");
    p->linear = !strcmp(l, "klu") ? 1 : !strcmp(l, "gmres") ? 2 : !strcmp(l, "krylov") ? 3 : 0;
    p->smooth = !p->ac || !strcmp(sm, "off") ? NSN_SMOOTH_OFF
                : !strcmp(sm, "on")             ? NSN_SMOOTH_ON
                                                : NSN_SMOOTH_AUTO;
    p->handover = p->smooth == NSN_SMOOTH_AUTO && !strcmp(ho, "ipm");
    return rc;
}

/* The defaults parsed once from nsn_options (a solve without options reads no strings). */
static nsn_params defaults;
static int defaults_rc;
static once_flag defaults_once = ONCE_FLAG_INIT;

static void parse_defaults(void)
{
    cb_settings s;
    cb_settings_default(&s);
    defaults_rc = parse_options(&s, &defaults, NULL);
}

static int parse_params(const cb_settings *s, nsn_params *p, cb_error *err)
{
    if (s->noptions > 0)
        return parse_options(s, p, err);
    call_once(&defaults_once, parse_defaults);
    *p = defaults;
    return defaults_rc == CB_OK ? CB_OK : cb_fail(err, defaults_rc, "nsn: bad option defaults");
}

static void nsn_cleanup(void *work)
{
    nsn_work *w = work;
    if (!w)
        return;
    nsn_direct_free(w->direct);
    if (w->gs)
        cb_solver_nsgs.cleanup(w->gs);
    if (w->ipm)
        cb_solver_ipm.cleanup(w->ipm);
    free(w);
}

/* ρ_α = 1/‖W_αα‖∞ for formulation=ac (1 when the block is zero), 1 for natural; s_W = mean
 * ρ_α ‖W_αα‖∞, × NSN_KRYLOV_REG on the Krylov route (the drift detector takes the judge's
 * diag_mean). */
static void scales(nsn_work *w)
{
    const cb_problem *prob = w->prob;
    double sum = 0.0;
    for (int a = 0; a < prob->nc; a++) {
        double nrm = cb_problem_diag_norm(prob, a);
        w->rho[a] = w->par.ac && nrm > 0 ? 1.0 / nrm : 1.0;
        sum += w->rho[a] * nrm;
    }
    w->w_scale = (sum > 0 ? sum / prob->nc : 1.0) * (w->krylov ? NSN_KRYLOV_REG : 1.0);
}

/* The small path fits prob: few contacts, the dense LU's order, assembled W, and options that
 * ask for plain Alart–Curnier Newton with a direct solver first and no safeguard (whose runs
 * list the phases nsn and nsgs) (nsn_internal.h). */
static int small_fits(const cb_problem *prob, const nsn_params *par)
{
    return prob->nc <= NSN_SMALL_NC && cb_problem_n(prob) <= NSN_DENSE_MAX &&
           prob->storage != CB_STORAGE_FACTORED && par->ac && par->linear < 2 &&
           par->smooth == NSN_SMOOTH_AUTO && par->sweeps == 0;
}

/* The work and its arrays (and the small path's LU) in one zeroed block: one allocation. */
static nsn_work *alloc_work(const cb_problem *prob, const nsn_params *par)
{
    size_t n = cb_problem_n(prob), nc = (size_t)prob->nc, dd = (size_t)prob->d * prob->d;
    size_t head = (sizeof(nsn_work) + sizeof(double) - 1) / sizeof(double) * sizeof(double);
    size_t arrays = (nc + 10 * n + 2 * nc * dd) * sizeof(double);
    int small = small_fits(prob, par);
    nsn_work *w = cb_calloc(1, head + arrays + (small ? nsn_dense_size(prob) : 0));
    if (!w)
        return NULL;
    w->n = n, w->par = *par;
    w->mem = (double *)((char *)w + head);
    if (small)
        w->small = nsn_dense_init((char *)w->mem + arrays, prob);
    double *m = w->mem;
    w->rho = m, m += nc;
    w->sys = (nsn_system){prob, prob->nc, prob->d, n, w->rho, m, m + n, m + n + nc * dd,
                          m + n + 2 * nc * dd, w->par.ac, 0.0};
    m += 2 * n + 2 * nc * dd;
    double **vec[] = {&w->y, &w->dp, &w->pt, &w->yt, &w->Ft, &w->scratch, &w->p0,
                      &w->p_start};
    for (size_t k = 0; k < sizeof vec / sizeof *vec; k++, m += n)
        *vec[k] = m;
    return w;
}

/* The Krylov route: no direct solver, GMRES, the shift scaled by NSN_KRYLOV_REG (scales). */
static void krylov_route(nsn_work *w)
{
    nsn_direct_free(w->direct);
    w->direct = NULL;
    w->krylov = w->krylov_setup = 1;
    scales(w);
}

static int nsn_setup(const cb_problem *prob, const cb_settings *s, void **work, cb_error *err)
{
    nsn_params par;
    *work = NULL;
    int rc = parse_params(s, &par, err);
    if (rc != CB_OK)
        return rc;
    if (par.linear == 1 && prob->storage == CB_STORAGE_FACTORED)
        return cb_fail(err, CB_ERR_INPUT, "option linear: klu needs an assembled W (dense or "
                       "bsr); use gmres or auto for factored storage");
    nsn_work *w = alloc_work(prob, &par);
    if (!w)
        return cb_fail(err, CB_ERR_NOMEM, "nsn: out of memory (nc = %d)", prob->nc);
    w->prob = prob, w->lambda_boost = 1.0;
    w->small_diag = w->small && nsn_small_block_diagonal(prob);
    scales(w);
    cb_judge_scale_of(prob, &w->scale);
    if (!w->small && par.linear < 2 && prob->storage != CB_STORAGE_FACTORED &&
        (rc = nsn_direct_new_auto(prob, par.linear == 0, &w->direct, err)) != CB_OK) {
        nsn_cleanup(w);
        return rc;
    }
    if (par.linear == 3 || (w->direct && nsn_direct_krylov(w->direct)))
        krylov_route(w);
    *work = w;
    return CB_OK;
}

/* The state a fresh setup leaves: every vector zero, the histories and the phase reset. */
static void reset_state(nsn_work *w)
{
    size_t n = w->n, nd2 = (size_t)w->prob->nc * w->prob->d * w->prob->d;
    double *vec[] = {w->sys.F, w->sys.z, w->y,       w->dp, w->pt,
                     w->yt,    w->Ft,     w->scratch, w->p0, w->p_start};
    for (size_t k = 0; k < sizeof vec / sizeof *vec; k++)
        memset(vec[k], 0, n * sizeof *vec[k]);
    memset(w->sys.IJ, 0, nd2 * sizeof *w->sys.IJ);
    memset(w->sys.A, 0, nd2 * sizeof *w->sys.A);
    memset(w->psi_hist, 0, sizeof w->psi_hist);
    memset(w->err_hist, 0, sizeof w->err_hist);
    memset(&w->drift, 0, sizeof w->drift);
    w->sys.eps = w->eps = w->r0 = w->p_ref = 0.0;
    w->smoothing = 0;
    w->lambda_boost = 1.0;
}

/* After prob's q, μ or W changed: the work as nsn_setup makes it, keeping the buffers, the KLU
 * symbolic analysis (nsn_direct_update) and nsgs's work (its own update). */
static int nsn_update(void *work, const cb_problem *prob, unsigned changed, cb_error *err)
{
    nsn_work *w = work;
    w->prob = prob, w->sys.prob = prob;
    reset_state(w);
    if (changed & CB_CHANGED_W)
        scales(w);
    cb_judge_scale_of(prob, &w->scale);
    if (w->small)
        nsn_dense_set_problem(w->small, prob);
    if (w->small && (changed & CB_CHANGED_W))
        w->small_diag = nsn_small_block_diagonal(prob);
    int rc = w->gs ? cb_solver_nsgs.update(w->gs, prob, changed, err) : CB_OK;
    if (rc == CB_OK && w->ipm)
        rc = cb_solver_ipm.update(w->ipm, prob, changed, err);
    if (rc == CB_OK && w->direct)
        rc = nsn_direct_update(&w->direct, prob, changed, err);
    return rc;
}

/* ψ = ½‖F‖² of the system's current F. */
static double merit(const nsn_work *w, const double *F)
{
    double nf = cb_nrm2(F, w->n);
    return 0.5 * nf * nf;
}

/* The Krylov route's GMRES tolerance (Eisenstat & Walker 1996, choice 2): η = γ (‖F_k‖ /
 * ‖F_{k−1}‖)², at most NSN_EW_MAX (the first step's): loose far from the solution, tight as
 * Newton converges (its safeguard γ η_{k−1}² never binds below NSN_EW_MAX = 0.1). */
static double forcing(nsn_work *w)
{
    double f = cb_nrm2(w->sys.F, w->n), r = w->f_prev > 0 ? f / w->f_prev : 1.0;
    double eta = w->f_prev > 0 ? fmin(NSN_EW_MAX, NSN_EW_GAMMA * r * r) : NSN_EW_MAX;
    w->f_prev = f;
    return eta;
}

/* Δ = −(H + λ I)⁻¹ F: KLU when there is a direct solver and the step is not the Krylov
 * route's (λ grows while the matrix is singular), else (or when that fails) GMRES. Counts
 * linear iterations in local_iters. */
static int newton_direction(nsn_work *w, double lambda, cb_work *cnt)
{
    for (int t = 0; w->direct && !w->krylov && t < NSN_MAX_FACTOR_TRIES;
         t++, lambda *= NSN_LAMBDA_GROW) {
        int r = nsn_direct_factor(w->direct, &w->sys, lambda, cnt);
        if (r == CB_ERR_NOMEM)
            return r;
        if (r != 0)
            continue;
        for (size_t i = 0; i < w->n; i++)
            w->dp[i] = -w->sys.F[i];
        cnt->local_iters++;
        if (nsn_direct_solve(w->direct, w->dp) == CB_OK && cb_all_finite(w->dp, w->n))
            return CB_OK;
    }
    for (size_t i = 0; i < w->n; i++)
        w->scratch[i] = -w->sys.F[i];
    double rtol = w->krylov ? forcing(w)
                            : fmin(0.1, sqrt(cb_nrm2(w->sys.F, w->n) / fmax(w->scale.norm_q, DBL_MIN)));
    long it = nsn_gmres(&w->sys, lambda, w->scratch, w->dp, rtol, NSN_GMRES_RESTART,
                        w->par.gmres_max, w->run, cnt);
    if (it < 0)
        return CB_ERR_NOMEM;
    cnt->local_iters += it;
    return CB_OK;
}

/* F at pt (y at yt): ψ, or +inf when not finite. The blocks are not needed: a scratch system. */
static double trial_merit(nsn_work *w, cb_work *cnt)
{
    cb_problem_y(w->prob, w->pt, w->yt);
    cnt->block_products += cb_problem_blocks_per_matvec(w->prob);
    nsn_system trial = w->sys;
    trial.F = w->Ft; /* IJ and A are overwritten too: after an acceptance, the new p's */
    if (!nsn_system_eval(&trial, w->pt, w->yt, cnt) || !cb_all_finite(w->Ft, w->n))
        return INFINITY;
    return merit(w, w->Ft);
}

/* Armijo backtracking along dp from p, non-monotone (the last NSN_MEMORY ψ) unless mono; 1 when
 * a step was accepted (p, y updated). */
static int line_search(nsn_work *w, double *p, int k, int mono, cb_work *cnt)
{
    double psi = merit(w, w->sys.F), ref = psi;
    for (int i = 0; !mono && i < NSN_MEMORY && i < k; i++)
        ref = fmax(ref, w->psi_hist[i]);
    double t = 1.0;
    for (int h = 0; h <= NSN_MAX_HALVINGS; h++, t *= 0.5) {
        for (size_t i = 0; i < w->n; i++)
            w->pt[i] = p[i] + t * w->dp[i];
        if (trial_merit(w, cnt) <= ref - NSN_ARMIJO * t * 2.0 * psi) {
            memcpy(p, w->pt, w->n * sizeof *p);
            memcpy(w->y, w->yt, w->n * sizeof *p);
            return h == 0 ? 2 : 1;
        }
    }
    return 0;
}

/* `sweeps` sweeps of nsgs from p to tolerance tol (its work, sweeps and time counted in the
 * safeguard's phase); the nsgs status. */
static int nsgs_run(nsn_work *w, const cb_settings *s, double *p, int sweeps, double tol,
                    int *status, cb_error *err)
{
    cb_settings gs = *s;
    gs.options = NULL, gs.noptions = 0, gs.trace = 0, gs.max_iter = sweeps, gs.tol = tol;
    cb_solution sol = {w->n, p, w->y};
    cb_info info;
    memset(&info, 0, sizeof info);
    double t0 = cb_now();
    int rc = cb_solver_nsgs.solve(w->gs, &gs, &sol, &info, err);
    w->gs_time += cb_now() - t0;
    cb_work_add(&w->gs_work, &info.work);
    w->gs_sweeps += info.iterations;
    *status = (int)info.status;
    cb_info_free(&info);
    return rc;
}

/* The smoothing phase's safeguard: nsgs in chunks of NSN_SMOOTH_CHUNK sweeps, up to
 * NSN_SMOOTH_SWEEPS, until the error is NSN_SMOOTH_GAIN × its value at the start; a chunk that
 * takes ‖p‖ past NSN_SMOOTH_GROWTH × max(‖p_start‖, p_ref) is undone and ends the run. */
static int smooth_safeguard(nsn_work *w, const cb_settings *s, double *p, cb_work *cnt,
                            cb_error *err)
{
    cb_fo_residual r0;
    cb_fo_residual_eval(w->prob, p, w->y, &w->scale, &r0, cnt);
    double tol = fmax(s->tol, NSN_SMOOTH_GAIN * r0.err);
    double bound = NSN_SMOOTH_GROWTH * fmax(cb_nrm2(p, w->n), w->p_ref);
    int rc = CB_OK, st = CB_STATUS_MAX_ITER;
    for (int done = 0; done < NSN_SMOOTH_SWEEPS && rc == CB_OK; done += NSN_SMOOTH_CHUNK) {
        memcpy(w->pt, p, w->n * sizeof *p);
        rc = nsgs_run(w, s, p, NSN_SMOOTH_CHUNK, tol, &st, err);
        if (rc != CB_OK || st == CB_STATUS_CONVERGED || st == CB_STATUS_DIVERGED)
            break;
        if (cb_nrm2(p, w->n) > bound) { /* drifting along K ∩ null(W): undo the chunk */
            memcpy(p, w->pt, w->n * sizeof *p);
            break;
        }
    }
    return rc;
}

/* The safeguard's nsgs work, set up at its first use (nsgs with its own defaults but plain
 * Gauss-Seidel, omega=1: a few sweeps at a time, where an over-relaxation's transient would
 * only add to the residual; no nsn option), so a run that never needs it never pays for it. */
static int safeguard_work(nsn_work *w, const cb_settings *s, cb_error *err)
{
    static const cb_option plain[] = {{"omega", "1"}};
    if (w->gs)
        return CB_OK;
    cb_settings gs = *s;
    gs.options = plain, gs.noptions = 1;
    return cb_solver_nsgs.setup(w->prob, &gs, &w->gs, err);
}

/* The safeguard: fallback_sweeps sweeps of nsgs from p (the smoothing phase's own in that
 * phase, which smoothing=auto runs whatever fallback_sweeps), then y = W p + q with the judge's
 * kernel; none (p and y kept) when fallback_sweeps = 0 (outside that phase). */
static int fallback_step(nsn_work *w, const cb_settings *s, double *p, cb_work *cnt,
                         cb_error *err)
{
    int used = w->par.sweeps > 0 || (w->smoothing && w->par.smooth == NSN_SMOOTH_AUTO);
    if (!used)
        return CB_OK;
    int st, rc = safeguard_work(w, s, err);
    if (rc != CB_OK)
        return rc;
    rc = w->smoothing ? smooth_safeguard(w, s, p, cnt, err)
                      : nsgs_run(w, s, p, (int)w->par.sweeps, s->tol, &st, err);
    cb_problem_y(w->prob, p, w->y);
    cnt->block_products += cb_problem_blocks_per_matvec(w->prob);
    return rc;
}

/* The ε path: r = ‖F(p)‖/√nc, ε_0 = r_0 at the phase's first step; ε ≤ NSN_SMOOTH_TAIL r²/r_0
 * (near the solution ε falls faster than r, so the steps become semismooth Newton steps on F:
 * a superlinear tail), and ε ← ε / NSN_SMOOTH_DIV while ‖F_ε‖/√nc ≤ NSN_SMOOTH_ETA ε. Leaves
 * F_ε and its blocks at p in w->sys; 0 when not finite. */
static int smooth_path(nsn_work *w, const double *p, int first, cb_work *cnt)
{
    double rn = sqrt((double)w->prob->nc);
    w->sys.eps = 0.0;
    if (!nsn_system_eval(&w->sys, p, w->y, cnt))
        return 0;
    double r = cb_nrm2(w->sys.F, w->n) / rn;
    if (first)
        w->eps = w->r0 = r;
    w->eps = fmin(w->eps, NSN_SMOOTH_TAIL * r * r / fmax(w->r0, DBL_MIN));
    for (int t = 0; t < NSN_SMOOTH_CUTS; t++, w->eps /= NSN_SMOOTH_DIV) {
        w->sys.eps = w->eps;
        if (!nsn_system_eval(&w->sys, p, w->y, cnt))
            return 0;
        if (cb_nrm2(w->sys.F, w->n) / rn > NSN_SMOOTH_ETA * w->eps)
            break;
    }
    return 1;
}

/* One smoothing Newton step: (H_ε + λ I) Δ = −F_ε, monotone search on ½‖F_ε‖², else the
 * phase's safeguard (on the nonsmooth problem) and a larger λ. */
static int smooth_iterate(nsn_work *w, const cb_settings *s, double *p, int first, double err,
                          cb_work *cnt, cb_error *e)
{
    if (!smooth_path(w, p, first, cnt))
        return CB_ERR_INPUT;
    double lambda = w->par.reg * fmin(1.0, err) * w->w_scale * w->lambda_boost;
    int rc = newton_direction(w, lambda, cnt);
    int ok = rc == CB_OK && line_search(w, p, 0, 1, cnt);
    w->sys.eps = 0.0;
    if (rc != CB_OK)
        return rc;
    if (!ok) {
        w->lambda_boost *= NSN_LAMBDA_GROW;
        return fallback_step(w, s, p, cnt, e);
    }
    w->lambda_boost = fmax(1.0, w->lambda_boost / NSN_LAMBDA_GROW);
    w->p_ref = fmax(w->p_ref, cb_nrm2(p, w->n));
    return CB_OK;
}

/* The shift's adaptation forgotten: multiplier 1, no slow steps counted (lm_adapt). */
static void lm_reset(nsn_work *w)
{
    w->lambda_boost = 1.0, w->err_last = 0.0, w->full_last = 0, w->slow = 0, w->lm_off = 0;
}

/* Classical Levenberg–Marquardt adaptation of the shift on the plain direct route: before the
 * step from error e, when the last step was a full one and NSN_LM_SLOW · e_before < e <
 * e_before, it was slow (a rise is the non-monotone search's, not the shift's); from the NSN_LM_PATIENCE-th slow step in a row, λ's multiplier ÷ NSN_LM_SHRINK (at
 * least NSN_LM_FLOOR). A shift far above a singular W's small eigenvalues makes every full
 * step remove a sliver of the error (the pile steps: BENCHMARKS.md); fast Newton is untouched.
 * When a phase stalls (phase_check) with m below 1, m is 1 again to the phase's end. */
static void lm_adapt(nsn_work *w, double err)
{
    int slow = w->full_last && err < w->err_last && err > NSN_LM_SLOW * w->err_last;
    w->slow = slow ? w->slow + 1 : 0;
    w->err_last = err;
    if (w->slow >= NSN_LM_PATIENCE && !w->krylov && !w->lm_off && w->lambda_boost <= 1.0)
        w->lambda_boost = fmax(NSN_LM_FLOOR, w->lambda_boost / NSN_LM_SHRINK);
}

/* One Newton iteration from p: system, direction, line search (or the safeguard). */
static int iterate(nsn_work *w, const cb_settings *s, double *p, int k, double err,
                   cb_work *cnt, cb_error *e)
{
    if (w->smoothing) {
        int first = w->smooth_first;
        w->smooth_first = 0;
        return smooth_iterate(w, s, p, first, err, cnt, e);
    }
    if (!w->sys_at_p && !nsn_system_eval(&w->sys, p, w->y, cnt))
        return CB_ERR_INPUT; /* not finite: the caller reports diverged */
    w->sys_at_p = 0;
    lm_adapt(w, err);
    double lambda = w->par.reg * fmin(1.0, err) * w->w_scale * w->lambda_boost;
    int rc = newton_direction(w, lambda, cnt);
    if (rc != CB_OK)
        return rc;
    memmove(w->psi_hist + 1, w->psi_hist, (NSN_MEMORY - 1) * sizeof *w->psi_hist);
    w->psi_hist[0] = merit(w, w->sys.F);
    int ls = line_search(w, p, k - w->k0, 0, cnt);
    w->full_last = ls == 2;
    if (ls) {
        if (w->lambda_boost > 1.0)
            w->lambda_boost = fmax(1.0, w->lambda_boost / NSN_LAMBDA_GROW);
        w->fails = 0;
        double *F = w->sys.F; /* the accepted trial's F (and its blocks, left in sys) */
        w->sys.F = w->Ft, w->Ft = F, w->sys_at_p = 1;
    } else {
        w->lambda_boost *= NSN_LAMBDA_GROW;
        w->fails++;
        return fallback_step(w, s, p, cnt, e);
    }
    return CB_OK;
}

/* A new phase from p_0 after step k: the line search's and the drift detector's memories
 * cleared (res, y updated). */
static void restart(nsn_work *w, double *p, int k, cb_fo_residual *res, cb_work *cnt)
{
    lm_reset(w);
    w->fails = 0;
    w->f_prev = 0.0;
    w->k0 = k;
    w->sys_at_p = 0;
    memset(w->psi_hist, 0, sizeof w->psi_hist);
    cb_fo_drift_init(&w->drift, w->prob, w->scale.norm_q, w->scale.diag_mean);
    memcpy(p, w->p0, w->n * sizeof *p);
    cb_problem_y(w->prob, p, w->y);
    cnt->block_products += cb_problem_blocks_per_matvec(w->prob);
    cb_fo_residual_eval(w->prob, p, w->y, &w->scale, res, cnt);
}

/* After step k: the smoothing phase ends when p drifts (first_order.h) or its error has not
 * fallen tenfold in NSN_STALL_WINDOW steps, and hands over to the plain method; smoothing=auto's
 * plain phase ends (once) when its error has not fallen so or after NSN_PLAIN_FAILS failed line
 * searches in a row (not on drift: Newton's first steps may grow ‖p‖ towards a solution), and
 * hands over to the smoothing phase. The new phase starts from p_0. */
static void phase_check(nsn_work *w, double *p, int k, cb_fo_residual *res, cb_work *cnt)
{
    double *old = &w->err_hist[k % NSN_STALL_WINDOW];
    int stalled = k - w->k0 > NSN_STALL_WINDOW && res->err > NSN_STALL_GAIN * *old;
    *old = res->err;
    if (stalled && !w->smoothing && w->lambda_boost < 1.0)
        w->lambda_boost = 1.0, w->lm_off = 1; /* the shrunk shift did not help: the policy's */
    if (w->smoothing && (cb_fo_drift_update(&w->drift, res, w->y) == 2 || stalled)) {
        w->smoothing = 0;
    } else if (w->may_smooth && (stalled || w->fails >= NSN_PLAIN_FAILS)) {
        w->may_smooth = 0;
        w->smoothing = w->smooth_first = 1;
    } else if (!w->smoothing && w->k0 > 0 && w->par.handover && stalled &&
               w->fails >= NSN_PLAIN_FAILS) {
        w->hand = 1; /* the plain method again after the smoothing phase: the policy's end */
        return;
    } else {
        return;
    }
    restart(w, p, k, res, cnt);
}

/* With the safeguard or the handover: the phases nsn (its own counters, its `iters`
 * iterations), nsgs (the safeguard's) and ipm (the handover's), their counters added into the
 * totals (info->iterations has ipm's already). Plain nsn: nothing (one phase, the whole run). */
static void record_phases(const nsn_work *w, cb_info *info, int iters, double t0)
{
    if (!w->gs && w->par.sweeps == 0 && !w->ipm_ran)
        return;
    cb_info_phase(info, cb_solver_nsn.name, iters, &info->work,
                  cb_now() - t0 - w->gs_time - w->ipm_time);
    if (w->gs || w->par.sweeps > 0) {
        cb_info_phase(info, cb_solver_nsgs.name, w->gs_sweeps, &w->gs_work, w->gs_time);
        cb_work_add(&info->work, &w->gs_work);
    }
    if (w->ipm_ran) {
        cb_info_phase(info, cb_solver_ipm.name, w->ipm_iters, &w->ipm_work, w->ipm_time);
        cb_work_add(&info->work, &w->ipm_work);
    }
}

/* ipm (its defaults, no trace of its own iteration 0) from p_0 within the iterations left after
 * nsn's `k`; its counters, iterations and time kept in w, its trace points appended to info's.
 * sol holds ipm's final iterate; *ipm_info its status and judged error. */
static int run_ipm(nsn_work *w, const cb_settings *s, cb_solution *sol, cb_info *info, int k,
                   double t0, cb_info *ipm_info, cb_error *err)
{
    cb_settings is = *s;
    is.options = NULL, is.noptions = 0, is.max_iter = s->max_iter - k;
    int rc = w->ipm ? CB_OK : cb_solver_ipm.setup(w->prob, &is, &w->ipm, err);
    double start = cb_now();
    if (rc == CB_OK) {
        memcpy(sol->p, w->p0, w->n * sizeof *sol->p);
        rc = cb_solver_ipm.solve(w->ipm, &is, sol, ipm_info, err);
    }
    w->ipm_ran = 1;
    w->ipm_time = cb_now() - start;
    w->ipm_iters = ipm_info->iterations;
    w->ipm_work = ipm_info->work;
    if (rc == CB_OK && cb_info_trace_append(info, ipm_info, s, k, start - t0, 1) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "nsn: out of memory for the trace");
    return rc;
}

/* The handover (none when nsn used every iteration: status max_iter): nsn's iterate (error
 * `err`, in sol) kept aside, ipm from p_0; ipm's final iterate is kept when ipm converged or
 * ended finite below err (status and error ipm's), else nsn's comes back (status stalled: the
 * policy is exhausted; ipm's when the budget or max_iter stopped it). */
static int handover(nsn_work *w, const cb_settings *s, cb_solution *sol, cb_info *info, int k,
                    double t0, double err_nsn, cb_error *err)
{
    if (k >= s->max_iter)
        return CB_OK;
    memcpy(w->pt, sol->p, w->n * sizeof *w->pt);
    memcpy(w->yt, sol->y, w->n * sizeof *w->yt);
    cb_info pi;
    memset(&pi, 0, sizeof pi);
    int rc = run_ipm(w, s, sol, info, k, t0, &pi, err);
    int better = rc == CB_OK && (pi.status == CB_STATUS_CONVERGED ||
                                 (pi.solver_error < err_nsn && cb_all_finite(sol->p, w->n)));
    info->iterations = k + w->ipm_iters;
    int capped = pi.status == CB_STATUS_TIME_LIMIT || pi.status == CB_STATUS_MAX_ITER;
    info->status = better || capped ? pi.status : CB_STATUS_STALLED;
    info->solver_error = better ? pi.solver_error : err_nsn;
    if (!better) {
        memcpy(sol->p, w->pt, w->n * sizeof *sol->p);
        memcpy(sol->y, w->yt, w->n * sizeof *sol->y);
    }
    cb_info_free(&pi);
    return rc;
}

/* The Krylov route's start: nsgs sweeps from p (the safeguard's work and phase) down to the
 * judged error NSN_KRYLOV_START, NSN_KRYLOV_SWEEPS at most; p_0, y and res from there. */
static int krylov_start(nsn_work *w, const cb_settings *s, double *p, cb_fo_residual *res,
                        cb_work *cnt, cb_error *err)
{
    int st, rc = safeguard_work(w, s, err);
    if (rc == CB_OK)
        rc = nsgs_run(w, s, p, NSN_KRYLOV_SWEEPS, fmax(s->tol, NSN_KRYLOV_START), &st, err);
    if (rc != CB_OK)
        return rc;
    memcpy(w->p0, p, w->n * sizeof *p);
    cb_problem_y(w->prob, p, w->y);
    cnt->block_products += cb_problem_blocks_per_matvec(w->prob);
    cb_fo_residual_eval(w->prob, p, w->y, &w->scale, res, cnt);
    w->err_hist[0] = res->err;
    return CB_OK;
}

/* The smoothing policy of a phase on the direct route (none while the trial runs). */
static void smooth_policy(nsn_work *w)
{
    w->smoothing = w->smooth_first = !w->trial && w->par.smooth == NSN_SMOOTH_ON;
    w->may_smooth = !w->trial && w->par.smooth == NSN_SMOOTH_AUTO;
}

/* A new solve of s from p: its counters and memories cleared, and its route: the Krylov route
 * when setup chose it; else, with linear=auto on the direct route, the trial of the Krylov
 * route first when KLU's analysis estimates more than NSN_TRIAL_FLOPS flops of a
 * factorisation per entry of the Newton matrix (heap piles of 30–300 spheres: 50–930; the
 * files of ../shared/data at most 50, random multibody 375–1 850), p kept in p_start; else the
 * direct route. The shift's scale follows the route (scales). */
static void solve_begin(nsn_work *w, const cb_settings *s, const double *p)
{
    lm_reset(w);
    w->p_ref = 0.0, w->fails = 0, w->k0 = 0, w->sys_at_p = 0;
    w->f_prev = 0.0, w->run = s;
    memset(&w->gs_work, 0, sizeof w->gs_work), w->gs_sweeps = 0, w->gs_time = 0.0;
    w->hand = 0, w->ipm_ran = 0, w->ipm_iters = 0, w->ipm_time = 0.0;
    cb_fo_drift_init(&w->drift, w->prob, w->scale.norm_q, w->scale.diag_mean);
    w->trial = !w->krylov_setup && w->par.linear == 0 && w->direct &&
               nsn_direct_flops_per_entry(w->direct) > NSN_TRIAL_FLOPS;
    if (w->trial)
        memcpy(w->p_start, p, w->n * sizeof *p);
    if (w->krylov != (w->krylov_setup || w->trial)) {
        w->krylov = !w->krylov;
        scales(w);
    }
    smooth_policy(w);
}

/* The trial's test after step k (k = 0: after the nsgs start), e_prev the judged error before
 * the step: the Krylov route goes on while the start reached NSN_KRYLOV_START and each step
 * was accepted by the line search and took the error to NSN_TRIAL_GAIN × e_prev or below
 * (fast local convergence: the pile steps); else the run restarts from the solve's starting
 * point on the direct route with the default policy (the path a run without the trial takes,
 * its steps numbered on from k; solve_begin). */
static void trial_check(nsn_work *w, double *p, int k, double e_prev, cb_fo_residual *res,
                        cb_work *cnt)
{
    int fast = k == 0 ? res->err <= NSN_KRYLOV_START
                      : w->fails == 0 && res->err <= NSN_TRIAL_GAIN * e_prev;
    if (!w->trial || fast)
        return;
    w->trial = w->krylov = 0;
    scales(w);
    smooth_policy(w);
    memcpy(w->p0, w->p_start, w->n * sizeof *w->p0);
    restart(w, p, k, res, cnt);
}

/* The small path first (nsn_small.c); *solved = 1 when it converged. Else p is back at the
 * start, its trace points are dropped (the full method's trace starts at iteration 0), and the
 * full method's direct solver is made at this first need. */
static int small_first(nsn_work *w, const cb_settings *s, cb_solution *sol, cb_info *info,
                       int *solved, cb_error *err)
{
    *solved = 0;
    if (!w->small)
        return CB_OK;
    memcpy(w->p0, sol->p, w->n * sizeof *w->p0);
    nsn_small c = {&w->sys, &w->Ft, w->small, &w->scale, w->w_scale, w->par.reg,
                   w->y, w->dp, w->pt, w->yt, w->small_diag};
    int done = nsn_small_solve(&c, s, sol, info);
    if (done < 0)
        return cb_fail(err, CB_ERR_NOMEM, "nsn: out of memory for the trace");
    if ((*solved = done) != 0)
        return CB_OK;
    info->ntrace = 0;
    memcpy(sol->p, w->p0, w->n * sizeof *sol->p);
    return w->direct ? CB_OK : nsn_direct_new(w->prob, &w->direct, err);
}

static int nsn_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                     cb_error *err)
{
    nsn_work *w = work;
    cb_error_clear(err); /* a message set below comes from the step that failed */
    int solved, rc0 = small_first(w, s, sol, info, &solved, err);
    if (rc0 != CB_OK || solved)
        return rc0;
    double t0 = cb_now(), step = INFINITY;
    cb_fo_residual res;
    cb_step_cost cost;
    int status = -1;
    solve_begin(w, s, sol->p);
    memcpy(w->p0, sol->p, w->n * sizeof *w->p0);
    cb_problem_y(w->prob, sol->p, w->y);
    info->work.block_products += cb_problem_blocks_per_matvec(w->prob);
    cb_fo_residual_eval(w->prob, sol->p, w->y, &w->scale, &res, &info->work);
    w->err_hist[0] = res.err;
    if (cb_info_trace(info, s, 0, t0, res.err) != CB_OK)
        return cb_fail(err, CB_ERR_NOMEM, "nsn: out of memory for the trace");
    if (w->krylov && (rc0 = krylov_start(w, s, sol->p, &res, &info->work, err)) != CB_OK)
        return rc0;
    trial_check(w, sol->p, 0, res.err, &res, &info->work);
    cb_step_cost_start(&cost, s, w->n);
    for (int k = 1; k <= s->max_iter && status < 0 && !w->hand; k++) {
        if (!cb_step_fits(s, &cost)) { /* a factorisation cannot be stopped: none that won't fit */
            status = CB_STATUS_TIME_LIMIT;
            break;
        }
        memcpy(w->pt, sol->p, w->n * sizeof *w->pt); /* p_{k−1}, for the step length */
        double e_prev = res.err;
        int rc = iterate(w, s, sol->p, k, e_prev, &info->work, err);
        if (rc == CB_ERR_NOMEM)
            return err && err->text[0] ? rc
                                       : cb_fail(err, rc, "nsn: out of memory (linear solver)");
        info->iterations = k;
        if (rc != CB_OK) {
            status = CB_STATUS_DIVERGED;
            break;
        }
        for (size_t i = 0; i < w->n; i++)
            w->pt[i] -= sol->p[i];
        step = cb_nrm2(w->pt, w->n);
        cb_fo_residual_eval(w->prob, sol->p, w->y, &w->scale, &res, &info->work);
        if (cb_info_trace(info, s, k, t0, res.err) != CB_OK)
            return cb_fail(err, CB_ERR_NOMEM, "nsn: out of memory for the trace");
        status = cb_fo_stop_status(&res, step, w->scale.norm_q, s, k, t0);
        if (status < 0 && w->trial)
            trial_check(w, sol->p, k, e_prev, &res, &info->work);
        else if (status < 0)
            phase_check(w, sol->p, k, &res, &info->work);
    }
    memcpy(sol->y, w->y, w->n * sizeof *sol->y);
    info->solver_error = res.err;
    info->status = status < 0 ? CB_STATUS_MAX_ITER : (cb_status)status;
    int iters = info->iterations, rc = CB_OK;
    if (w->hand)
        rc = handover(w, s, sol, info, iters, t0, res.err, err);
    record_phases(w, info, iters, t0);
    return rc;
}

const cb_solver cb_solver_nsn = {
    .name = "nsn",
    .summary = "semismooth Newton on Alart-Curnier's map (or the natural map), sparse LU "
               "(KLU; dense LU on small systems) or GMRES, Levenberg-Marquardt shift; when plain "
               "Newton stalls, a smoothing Newton phase with an nsgs safeguard; when that "
               "fails too, ipm (handover)",
    .options = nsn_options,
    .supports = cb_fo_supports,
    .setup = nsn_setup,
    .solve = nsn_solve,
    .cleanup = nsn_cleanup,
    .update = nsn_update,
};
