/* conebench — one-contact (local) solvers used by nsgs and psor (solvers/nsgs_local.c). Internal.
 *
 * The local problem of contact α (Acary & Bourrier 2020, eq. 67): find p ∈ K with
 *     y = W p + q̄,   ŷ = y + g(y) ∈ K*,   ⟨ŷ, p⟩ = 0,
 * where W = W_αα (d×d, column-major) and q̄ = q_α + Σ_{β≠α} W_αβ p_β.
 *
 * Local accuracy: the natural-map residual ‖p − P_K(p − ŷ)‖ is driven below
 * tol · max(‖p‖, ‖y‖, ‖q_α‖) (the judge's normalisation restricted to one contact; ‖q_α‖ is the
 * contact's original data, not q̄, whose size depends on the other contacts).
 */
#ifndef CONEBENCH_NSGS_INTERNAL_H
#define CONEBENCH_NSGS_INTERNAL_H

#include "conebench/cone.h"
#include "conebench/problem.h"
#include "conebench/solver.h"

/* One local problem; every pointer is borrowed. */
typedef struct {
    cb_kind kind;
    int d;
    cb_friction f;
    const double *W;    /* d×d diagonal block, column-major */
    const double *lu;   /* LU factors of W (row pivots piv), or NULL when W is singular */
    const int *piv;
    const double *qbar; /* d */
    double qnorm;       /* ‖q_α‖ of the original data (local normalisation) */
    double rho_nm;      /* ρ of the natural map used by Newton (≈ 1/‖W‖₂) */
    double *rho;        /* in/out: self-adaptive ρ of the projected fixed point */
    double tol;         /* relative local tolerance */
    int max_iter;       /* local iterations per solver */
} cb_nsgs_local;

/* Work of one local solve (added to the solver's counters). */
typedef struct {
    long long iters;
    long long projections;
} cb_nsgs_local_stats;

/* LU with partial pivoting of a d×d column-major A into lu (d ≤ CB_MAX_DIM); -1 if singular
 * (a pivot ≤ 1e-13 · max|A|), else 0. */
int cb_nsgs_lu_factor(int d, const double *A, double *lu, int *piv);
/* b ← A⁻¹ b from the factors of cb_nsgs_lu_factor. */
void cb_nsgs_lu_solve(int d, const double *lu, const int *piv, double *b);
/* ‖A‖₂ of a d×d column-major A: power iteration on AᵀA (deterministic start, at most 40 steps,
 * stops at 1e-12 relative change); a lower bound, equal to ‖A‖₂ to ~1e-12 when σ₂/σ₁ is not
 * close to 1 (nsgs only needs the scale: ρ ≈ 1/‖W_αα‖₂). */
double cb_nsgs_norm2(int d, const double *A);

/* Take-off (p = 0 iff ŷ(q̄) ∈ K*) then stick (p = −W⁻¹q̄ iff it is in K). 1 and p set when one
 * of them solves the local problem, else 0 and p untouched. */
int cb_nsgs_local_trivial(const cb_nsgs_local *lp, double *p);
/* Projected fixed point p ← P_K(p − ρ ŷ(W p + q̄)) with self-adaptive ρ, from p.
 * Returns 0 when the local tolerance is met, 1 otherwise (p is the last iterate). */
int cb_nsgs_local_proj(const cb_nsgs_local *lp, double *p, cb_nsgs_local_stats *st);
/* Semismooth Newton on p − P_K(p − ρ ŷ(W p + q̄)) with a backtracking line search, from p;
 * falls back to cb_nsgs_local_proj when it fails. Returns 0 when the tolerance is met. */
int cb_nsgs_local_newton(const cb_nsgs_local *lp, double *p, cb_nsgs_local_stats *st);
/* Polyhedral cones (coulomb2d, rolling2d): the exact solution by active-set enumeration —
 * take-off, then p itself when it already meets the tolerance (left unchanged), then the
 * 3^(d−1) stick/slide± sets of the friction components (the one of p first),
 * each a k×k linear solve (k ≤ 3) with sign and cone tests, accepted when its natural-map
 * residual meets the local tolerance. Other kinds, or no accepted set (singular or degenerate
 * W_αα), go to cb_nsgs_local_newton from p. Returns 0 when the tolerance is met. */
int cb_nsgs_local_enum(const cb_nsgs_local *lp, double *p, cb_nsgs_local_stats *st);

/* Active-set polish of nsgs on coulomb2d (solvers/nsgs_polish.c): each contact's status
 * (take-off, stick, slide ±) read off the natural map at the iterate, then the linear equations
 * of those statuses solved directly (sparse LU) with a proximal term ε. Made at nsgs's first
 * stall. */
/* omega=auto's windows after a raise of ω: the first, one that began with a new ω, one at an
 * unchanged ω. */
typedef enum { CB_NSGS_WINDOW_FIRST, CB_NSGS_WINDOW_CHANGED, CB_NSGS_WINDOW_SAME } cb_nsgs_window;
/* 1 when a window of that kind keeps its ω: rate per sweep over its second half, plain
 * Gauss–Seidel's rate ref_rate (measured before the raise), its last error e, its first e0. */
int cb_nsgs_window_passes(cb_nsgs_window win, double rate, double ref_rate, double e, double e0);

typedef struct cb_nsgs_polish cb_nsgs_polish;
/* The polish of a coulomb2d problem (dense and factored W copied to BSR); CB_ERR_INPUT for
 * other kinds, CB_ERR_NOMEM. */
int cb_nsgs_polish_new(const cb_problem *prob, cb_nsgs_polish **out, cb_error *err);
void cb_nsgs_polish_free(cb_nsgs_polish *pl);
/* One step from (p, y = W p + q), statuses by the natural map at ρ_α = rho[α]: 0 and p_next
 * solving the statuses' equations, (W + εI) p_next = −q + ε p in the rows of W; -1 when the
 * system is singular. p_next may alias p. Its work (projections, one read of W) added to wk. */
int cb_nsgs_polish_step(cb_nsgs_polish *pl, const double *rho, double eps, const double *p,
                        const double *y, double *p_next, cb_work *wk);

#endif
