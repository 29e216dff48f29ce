/* conebench — the semismooth Newton solver `nsn` (nsn.c): its Newton system (nsn_system.c) and
 * linear solvers (nsn_linear.c). Internal to src/solvers.
 *
 * formulation=natural: F_α(p) = p_α − P_K(p_α − ŷ_α(p)), ŷ = y + g(y), y = W p + q,
 * g(y)_α = (Σ_i μ_i ‖y_α,i‖, 0, …) (De Saxcé), ρ_α = 1. With J_α ∈ ∂_B P_K(z_α) (cone.h:
 * cb_project_jacobian) and G_α = ∂g_α/∂y_α (row 0: μ_i u_iᵀ on block i, u_i = y_i/‖y_i‖), an
 * element of the generalised Jacobian is, block by block,
 *     H_αβ = δ_αβ (I − J_α) + A_α W_αβ,   A_α = ρ_α J_α (I + G_α).
 * formulation=ac (Alart–Curnier): x_α = p_α − ρ_α y_α, ρ_α = 1/‖W_αα‖∞, ν = max(0, x_n),
 * F_n = p_n − ν, F_i = p_i − P_{B(μ_i ν)}(x_i) for each disk block i; with D_α = ∂P/∂x (the
 * disk's projection Jacobian and, outside the disk, μ_i x_i/‖x_i‖ in column n when x_n > 0)
 * the blocks are I − D_α and A_α = ρ_α D_α. Same form, same linear solvers. The smoothed map
 * F_ε (sys.eps > 0) replaces max(0, t) by ½(t + √(t² + 4ε²)) and the disk projection's
 * max(R, ‖x‖) likewise (Chen–Harker–Kanzow–Smale): F_ε is smooth and F_ε → F as ε → 0.
 * The Newton step solves (H + λ I) Δ = −F with λ ≥ 0 a Levenberg–Marquardt/proximal shift. */
#ifndef CONEBENCH_NSN_INTERNAL_H
#define CONEBENCH_NSN_INTERNAL_H

#include "conebench/judge.h"
#include "conebench/solver.h"

#define NSN_D2 (CB_MAX_DIM * CB_MAX_DIM)

/* The Newton system at one iterate: F, and per contact I − J_α and A_α (d×d column-major). */
typedef struct {
    const cb_problem *prob;
    int nc, d;
    size_t n;
    const double *rho;   /* ρ_α, nc */
    double *F;           /* n */
    double *IJ;          /* nc · d² : I − J_α */
    double *A;           /* nc · d² : A_α */
    double *z;           /* n scratch */
    int ac;              /* 1: Alart–Curnier's map instead of the natural map */
    double eps;          /* ac only: > 0 evaluates the smoothed map F_ε (nsn_system.c) */
} nsn_system;

/* F and the blocks at p, given y = W p + q. Returns 0 when some input was not finite. Counts nc
 * projections. */
int nsn_system_eval(nsn_system *sys, const double *p, const double *y, cb_work *cnt);
/* Contact a alone: F_α and its blocks I − J_α, A_α at (p_α, y_α) (pointers to its d entries);
 * 0 when not finite. */
int nsn_contact_eval(const nsn_system *sys, int a, const double *p, const double *y, double *F,
                     double *IJ, double *A);
/* out = (H + λ I) v (one W product: counted). */
void nsn_system_apply(const nsn_system *sys, double lambda, const double *v, double *out,
                      double *scratch, cb_work *cnt);

/* A sparse direct solver for (H + λ I) Δ = b on dense or BSR storage: the matrix is assembled
 * in compressed columns from W's block pattern (the pattern is fixed: analysed once, KLU). */
typedef struct nsn_direct nsn_direct;
int nsn_direct_new(const cb_problem *prob, nsn_direct **out, cb_error *err);
/* linear=auto: as nsn_direct_new, but with may_krylov, when CHOLMOD's symbolic analysis of
 * the contact graph (from NSN_ND_MIN_NC contacts) counts more than NSN_KRYLOV_FLOPS flops of a
 * factorisation per entry of the Newton matrix, no KLU analysis is made and
 * nsn_direct_krylov(*out) is 1: the caller takes the Krylov route (GMRES) instead. */
#define NSN_KRYLOV_FLOPS 100.0
int nsn_direct_new_auto(const cb_problem *prob, int may_krylov, nsn_direct **out, cb_error *err);
int nsn_direct_krylov(const nsn_direct *s);
/* KLU's estimate of the flops of a factorisation (its AMD analysis: klu_symbolic.est_flops)
 * per entry of the Newton matrix; 0 for the dense backend or without a KLU analysis. */
double nsn_direct_flops_per_entry(const nsn_direct *s);
/* After prob's data changed (CB_CHANGED_* flags): *s as nsn_direct_new would make it, keeping
 * its symbolic analysis unless a dense W's block pattern changed (*s may be replaced). */
int nsn_direct_update(nsn_direct **s, const cb_problem *prob, unsigned changed, cb_error *err);
/* Assemble and factor H + λ I; 0 on success, 1 when the matrix is singular (try a larger λ),
 * CB_ERR_NOMEM. Counts the block products of the assembly. */
int nsn_direct_factor(nsn_direct *s, const nsn_system *sys, double lambda, cb_work *cnt);
/* b ← (H + λ I)⁻¹ b with the last factorisation. */
int nsn_direct_solve(nsn_direct *s, double *b);
void nsn_direct_free(nsn_direct *s);

/* The dense backend of the direct solver (nsn_dense.c): Newton systems of order n ≤
 * NSN_DENSE_MAX are assembled as one dense matrix and factored by LU with partial pivoting (no
 * pattern analysis, no allocation after nsn_dense_new); nsn_direct_* hand them over. */
#define NSN_DENSE_MAX 100
typedef struct nsn_dense nsn_dense;
int nsn_dense_new(const cb_problem *prob, nsn_dense **out);
/* After prob's data changed: the next factorisation reads prob. */
void nsn_dense_set_problem(nsn_dense *s, const cb_problem *prob);
int nsn_dense_factor(nsn_dense *s, const nsn_system *sys, double lambda, cb_work *cnt);
int nsn_dense_solve(const nsn_dense *s, double *b);
void nsn_dense_free(nsn_dense *s);
/* Bytes of one nsn_dense (struct and arrays) for prob, and one built in caller memory mem of
 * that size, aligned for double (not to be freed by nsn_dense_free). */
size_t nsn_dense_size(const cb_problem *prob);
nsn_dense *nsn_dense_init(void *mem, const cb_problem *prob);
/* In-place LU with partial pivoting of the n×n column-major M (row k swapped with piv[k],
 * dinv = 1/U_kk); 1 when singular. nsn_lu_solve: b ← U⁻¹ L⁻¹ P b. */
int nsn_lu(double *M, int n, int *piv, double *dinv);
void nsn_lu_solve(const double *M, int n, const int *piv, const double *dinv, double *b);

/* The small path (nsn_small.c): problems of at most NSN_SMALL_NC contacts and n ≤ NSN_DENSE_MAX
 * (dense or BSR W) are first solved by plain semismooth Newton on the Alart–Curnier map with
 * the dense LU in the work (no allocation, no trace, no phases, monotone Armijo search), block
 * Gauss–Seidel sweeps first on a block-diagonal W or one with at most one contact closing at
 * p = 0 (nsn_small.c); when it does not reach the judge's tolerance the full method runs from
 * the starting point. */
#define NSN_SMALL_NC 20
typedef struct {
    nsn_system *sys;      /* F and the blocks (sys->F swapped with *Ft on acceptance) */
    double **Ft;          /* the trial F */
    nsn_dense *dense;
    const cb_judge_scale *scale;
    double w_scale, reg;  /* λ = reg · min(1, error) · w_scale */
    double *y, *dp, *pt, *yt; /* n each */
    int diag;             /* nsn_small_block_diagonal(prob) */
} nsn_small;
/* 1 when it converged (sol->p, sol->y, info's status, iterations, error and counters set), 0
 * when not (sol->p changed: the caller restarts from its starting point), −1 when the trace
 * ran out of memory. */
int nsn_small_solve(const nsn_small *c, const cb_settings *s, cb_solution *sol, cb_info *info);
/* 1 when no two contacts are coupled: every off-diagonal block of W (dense or BSR) is zero;
 * nsn_small_solve then solves contact by contact (a d×d Newton each), the judge's test on the
 * whole at the end. */
int nsn_small_block_diagonal(const cb_problem *prob);
/* Enumeration of contact statuses (nsn_enum.c): on a 2D Coulomb problem of at most
 * NSN_ENUM_NC contacts with dense W (nsn_enum_fits), each combination of take-off, stick and
 * slide (both ways) a linear solve, the first whose p, y pass the sign test and the judge's
 * test accepted; nsn_enum_solve returns as nsn_small_solve (0: none accepted, sol->p unchanged). */
#define NSN_ENUM_NC 3
int nsn_enum_fits(const cb_problem *prob);
int nsn_enum_solve(const nsn_small *c, const cb_settings *s, cb_solution *sol, cb_info *info);

/* Restarted GMRES(m) on (H + λ I) x = b through the W kernels (any storage), preconditioned by
 * the inverse diagonal blocks (H_αα + λ I)⁻¹; x starts at 0. Returns the iterations done, −1
 * when out of memory; stops at ‖r‖ ≤ rtol ‖b‖, max_iter, or when budget's time is up
 * (cb_time_up; budget NULL: never), x the iterate so far. */
long nsn_gmres(const nsn_system *sys, double lambda, const double *b, double *x, double rtol,
               int restart, long max_iter, const cb_settings *budget, cb_work *cnt);

#endif
