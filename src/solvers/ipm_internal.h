/* conebench — the interior-point solver `ipm` (ipm.c): its second-order cones and Nesterov–Todd
 * scaling (ipm_soc.c) and its normal-equations matrix, factored by CHOLMOD (ipm_normal.c).
 * Internal to src/solvers.
 *
 * The friction cone of a contact is an intersection of second-order cones that share the normal
 * component: p ∈ K ⇔ G_j p = (μ_j r_N, x_j) ∈ L^{1+|x_j|} for every block j with μ_j > 0 (a
 * contact without such a block keeps r_N ≥ 0, the cone L¹; the components of a block with
 * μ_j = 0 are fixed at 0). With the stacked s = G p and its multiplier z, K* = Gᵀ(L × … × L).
 * Every cone vector is stored with stride IPM_STRIDE (dimension k ≤ 3).
 */
#ifndef CONEBENCH_IPM_INTERNAL_H
#define CONEBENCH_IPM_INTERNAL_H

#include "conebench/solver.h"

#include <cholmod.h>

#define IPM_STRIDE 3 /* largest second-order cone: (μ r_N, x_1, x_2) */
#define IPM_K2 (IPM_STRIDE * IPM_STRIDE)

/* The cones of a problem: cone j acts on contact contact[j] through μ_j and the components
 * comp[j][0..dim−1) of p (comp[j][0] is the normal component, scaled by mu[j]). */
typedef struct {
    int ncones;
    int *contact, *dim;
    int (*comp)[IPM_STRIDE];
    double *mu;
    unsigned char *fixed; /* n: 1 for a component held at 0 (its block has μ = 0) */
} ipm_cones;

/* Describe the cones of prob (contact order, block order). CB_ERR_NOMEM on failure. */
int ipm_cones_build(const cb_problem *prob, ipm_cones *c);
void ipm_cones_free(ipm_cones *c);
/* out (stride IPM_STRIDE per cone) = G p. */
void ipm_cones_apply(const ipm_cones *c, const double *p, double *out);
/* out (n) = Gᵀ v (zero on fixed components). */
void ipm_cones_apply_t(const ipm_cones *c, size_t n, const double *v, double *out);

/* tau (ncones) = the start point's normal reaction of each cone of c, tau_z / max(W_ii, mean
 * W_ii) over the cones' axis components i (ipm.c, option start=contact). */
void ipm_start_reactions(const cb_problem *prob, const ipm_cones *c, double tau_z, double *tau);

/* Nesterov–Todd scaling of one cone of dimension k at s, z ∈ int L: W = β(2 v vᵀ − J),
 * λ = W z = W⁻¹ s, *det_lambda = det λ = √(det s det z) (accurate where λ₀² − ‖λ̄‖² is not);
 * Winv = W⁻¹ and Q = W⁻² (k×k, column-major). 0 when s or z is not interior. */
int ipm_soc_scaling(int k, const double *s, const double *z, double *Winv, double *W,
                    double *Q, double *lambda, double *det_lambda);
/* x ∘ y = (xᵀy, x₀ ȳ + y₀ x̄), the Jordan product. */
void ipm_soc_jordan(int k, const double *x, const double *y, double *out);
/* u with λ ∘ u = r (λ ∈ int L with det λ = det > 0: the arrow matrix of λ inverted in closed
 * form). */
void ipm_soc_jordan_solve(int k, const double *lambda, double det, const double *r, double *u);
/* Largest α ≥ 0 with x + α d ∈ L (x ∈ int L), +inf when the ray stays inside. */
double ipm_soc_max_step(int k, const double *x, const double *dx);

/* The normal-equations matrix N = S + D + δ I on the free components (S = (W + Wᵀ)/2, D the
 * block-diagonal Gᵀ W⁻² G, identity rows on fixed components), its CHOLMOD factorisation (the
 * block pattern of S is analysed once) and S p. Dense and BSR storage. */
typedef struct ipm_normal ipm_normal;
/* Fill-reducing ordering of the normal matrix: AMD (minimum degree), METIS (nested dissection
 * by graph partitioning), CHOLMOD's own nested dissection (NESDIS, METIS's partitioner), or
 * auto: AMD below IPM_LARGE_NC contacts, from there AMD or METIS, whichever CHOLMOD's symbolic
 * analysis finds fills less. */
enum { IPM_ORDER_AMD, IPM_ORDER_METIS, IPM_ORDER_NESDIS, IPM_ORDER_AUTO };
#define IPM_LARGE_NC 2000 /* from this many contacts: METIS and the supernodal factor considered */
/* supernodal: 1: CHOLMOD's supernodal factorisation (dense BLAS kernels: the bits may depend on
 * the CPU) instead of the simplicial LDLᵀ (0); −1: CHOLMOD's choice (supernodal when the
 * factor's flops per entry are high); ordering: IPM_ORDER_*. */
int ipm_normal_new(const cb_problem *prob, const unsigned char *fixed, int supernodal,
                   int ordering, ipm_normal **out, cb_error *err);
/* The same, taking donor's symbolic analysis (not analysing again) when S has donor's pattern
 * (donor NULL: none); donor is left as it was. */
int ipm_normal_renew(const cb_problem *prob, const unsigned char *fixed, int supernodal,
                     int ordering, const ipm_normal *donor, ipm_normal **out, cb_error *err);
/* Factor S + D + δ I, D given as nc diagonal blocks (d×d column-major). 0 when factored, 1 when
 * not positive definite (try a larger δ), CB_ERR_NOMEM. Counts the block products. */
int ipm_normal_factor(ipm_normal *nm, const double *D, double delta, cb_work *cnt);
/* b ← N⁻¹ b with the last factorisation. CB_OK, CB_ERR_NOMEM or CB_ERR_INTERNAL.
 * ipm_normal_precond: the same as a fixed linear map (global form: without refinement). */
int ipm_normal_solve(ipm_normal *nm, double *b);
int ipm_normal_precond(ipm_normal *nm, double *b);
/* out = S p (the symmetric part of W; counts one W product). */
void ipm_normal_Sp(const ipm_normal *nm, const double *p, double *out, cb_work *cnt);
/* Mean diagonal entry of S over the free components (1 when it is not positive). */
double ipm_normal_scale(const ipm_normal *nm);
/* The least pivot of the last simplicial factorisation (0 when it failed or is supernodal). */
double ipm_normal_min_pivot(const ipm_normal *nm);
void ipm_normal_free(ipm_normal *nm);

/* The same on the global form (ipm_global.c): N = W + D + δ I on the free components with
 * W = Hᵀ M⁻¹ H never formed. ipm_normal_new_global builds it from prob->global. */
int ipm_normal_new_global(const cb_problem *prob, const unsigned char *fixed, ipm_normal **out,
                          cb_error *err);
/* y = W p + q (global form: Hᵀ M⁻¹ (H p + f) + w) and out = W v, one W product counted each.
 * CB_OK or CB_ERR_INTERNAL (a failed solve with M). */
int ipm_normal_y(ipm_normal *nm, const double *p, double *y, cb_work *cnt);
int ipm_normal_Wp(ipm_normal *nm, const double *v, double *out, cb_work *cnt);

/* The global form's linear algebra, behind ipm_normal (ipm_global.c). */
typedef struct ipm_global ipm_global;
int ipm_global_new(const cb_problem *prob, const unsigned char *fixed, ipm_global **out,
                   cb_error *err);
/* Factor the augmented matrix [M H'; H'ᵀ −D̃], D̃ = D + δ I on the free components: 0, 1
 * (singular) or CB_ERR_NOMEM. */
int ipm_global_factor(ipm_global *gl, const double *D, double delta);
/* b ← (W + D̃)⁻¹ b on the free components (b unchanged on fixed ones) by the augmented system,
 * then (refine) iterative refinement: a fixed linear map without it (a Krylov preconditioner). */
int ipm_global_solve(ipm_global *gl, double *b, int refine);
int ipm_global_Wp(ipm_global *gl, const double *p, double *out);
int ipm_global_y(ipm_global *gl, const double *p, double *y);
double ipm_global_scale(const ipm_global *gl); /* mean W_ii over the free components */
void ipm_global_free(ipm_global *gl);

/* Restarted GMRES(restart) with left preconditioning: apply(ctx, v, out) = A v,
 * precond(ctx, v): v ← M⁻¹ v. Work: V ((restart + 1) · n), H ((restart + 1) · restart),
 * cs, sn, y (restart), g (restart + 1), all owned by the caller. */
typedef struct {
    size_t n;
    int restart;
    void (*apply)(void *ctx, const double *v, double *out);
    void (*precond)(void *ctx, double *v);
    void *ctx;
    double *V, *H, *cs, *sn, *y, *g;
} ipm_krylov;
/* Solve M⁻¹ A x = M⁻¹ b from x until ‖M⁻¹(b − A x)‖ ≤ rtol ‖M⁻¹ b‖ or max_iter iterations
 * (each one A product and one M⁻¹ solve). Returns the iterations done. */
long ipm_gmres(const ipm_krylov *k, const double *b, double *x, double rtol, long max_iter);

/* CHOLMOD's solve workspaces, kept from one solve to the next (ipm_global.c). */
typedef struct {
    cholmod_dense *X, *Y, *E;
} ipm_cholmod_ws;
/* b (n × nrhs, column-major) ← A⁻¹ b with the factor L of A (cholmod_solve2 with ws). */
int ipm_cholmod_solve(cholmod_factor *L, double *b, size_t n, int nrhs, ipm_cholmod_ws *ws,
                      cholmod_common *cm);
void ipm_cholmod_ws_free(ipm_cholmod_ws *ws, cholmod_common *cm);

#endif
