/* conebench — the judge: the residual every solver's result is measured by, and the verdict.
 *
 * Per contact α: e_α = p_α − P_{K_α}(p_α − ŷ_α), with y = W p + q recomputed from p and
 * ŷ = y + g(y). Then
 *   error      = ‖e‖₂ / max(‖q‖₂, ‖p‖₂, ‖y‖₂)  if that max exceeds DBL_EPSILON, else ‖e‖₂
 *                (Siconos 4.4 rolling_fc3d_compute_error / fc3d_compute_error normalisation);
 *   error_q    = ‖e‖₂ / max(‖q‖₂, DBL_MIN)      (FCLIB normalisation);
 *   error_data = max(error, ‖e‖₂ / N) with N = max(‖q‖, min(max(‖p‖, ‖y‖), κ s)), where
 *                s = max(‖q‖, ‖q‖ / w̄), w̄ = mean_α ‖W_αα‖∞ and κ = CB_JUDGE_KAPPA (‖e‖₂ when
 *                N ≤ DBL_EPSILON): Siconos' normalisation with the iterate's size capped at κ
 *                times a scale fixed by the data. ‖q‖/w̄ is the size of the reactions the free
 *                velocities call for (force units), ‖q‖ that of the velocities.
 *   solved     = every entry of p and y finite (and their norms) ∧ resolvable ∧ error_data ≤ tol.
 * error_data = error on every solution whose max(‖p‖, ‖y‖) stays within κ s: on all the shipped
 * Siconos problems, random and scenario problems the solution has max(‖p‖, ‖y‖) ≤ 9.4 s
 * (Rover1039), so κ = 20 leaves a factor 2. An iterate that runs off along K ∩ null(W) (W p and
 * the residual in place, ‖p‖ → ∞) makes Siconos' error small by its own size; error_data is
 * not fooled (coulomb3d nc 200 seed 1, nsn at 9 steps: ‖p‖ = 2.5e6, ‖e‖ = 0.21, error 8e-8,
 * error_data 2e-4). When ‖q‖ ≈ 0 (fc2d granular files: ‖q‖ ~ 4e-18) both are the absolute ‖e‖.
 * resolvable = DBL_EPSILON · max(‖p‖, ‖y‖) ≤ ‖q‖: e is computed from p − ŷ, whose rounding
 * error is about ε‖p‖; when that exceeds the data, a residual of exactly 0 means nothing.
 * The verdict depends on the problem and the point only: `conebench error` reproduces it.
 */
#ifndef CONEBENCH_JUDGE_H
#define CONEBENCH_JUDGE_H

#include "conebench/problem.h"

/* κ: the iterate's size counts in error_data up to κ times the data's scale. */
#define CB_JUDGE_KAPPA 20.0

/* The data's scales of a problem: ‖q‖ and ‖q‖ / w̄ (w̄ = mean_α ‖W_αα‖∞; 0 when w̄ is 0). */
typedef struct {
    double norm_q;    /* ‖q‖₂ */
    double diag_mean; /* w̄ = mean_α ‖W_αα‖∞ */
    double force;     /* ‖q‖₂ / w̄ */
} cb_judge_scale;

typedef struct {
    double error;      /* Siconos normalisation */
    double error_q;    /* ‖e‖ / ‖q‖ */
    double error_data; /* the verdict's error: ≥ error, equal unless ‖p‖ outgrows the data */
    double abs_error; /* ‖e‖ */
    double norm_p, norm_y, norm_q;
    int finite;       /* every entry of p and y finite, and ‖p‖, ‖y‖ too */
    int resolvable;   /* ε · max(‖p‖, ‖y‖) ≤ ‖q‖ */
    int solved;       /* finite ∧ resolvable ∧ error_data ≤ tol */
} cb_judgement;

/* Judge p. y_out (n entries, may be NULL) receives y = W p + q. Errors are non-finite errors
 * and solved = 0 when p or y has a NaN/inf; the function itself fails only on bad arguments. */
int cb_judge(const cb_problem *prob, const double *p, double tol, double *y_out,
             cb_judgement *out, cb_error *err);

/* The scales of prob (one pass over the diagonal blocks). */
void cb_judge_scale_of(const cb_problem *prob, cb_judge_scale *out);

/* error_data from ‖e‖ and the iterate's norms (error: Siconos' one, already computed). */
double cb_judge_error_data(const cb_judge_scale *sc, double error, double abs_error,
                           double norm_p, double norm_y);

/* Squared natural-map residual ‖p − P_K(p − ŷ)‖² of one contact given its p and y. */
double cb_contact_residual2(cb_kind kind, const cb_friction *f, const double *p, const double *y);


#endif
