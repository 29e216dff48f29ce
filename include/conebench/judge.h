/* conebench — the judge: the residual every solver's result is measured by.
 *
 * Per contact α: e_α = p_α − P_{K_α}(p_α − ŷ_α), with y = W p + q recomputed from p and
 * ŷ = y + g(y). Then
 *   error   = ‖e‖₂ / max(‖q‖₂, ‖p‖₂, ‖y‖₂)  if that max exceeds DBL_EPSILON, else ‖e‖₂
 *             (Siconos 4.4 rolling_fc3d_compute_error / fc3d_compute_error normalisation);
 *   error_q = ‖e‖₂ / max(‖q‖₂, DBL_MIN)      (FCLIB normalisation; not fooled by a huge p);
 *   solved  = every entry of p and y finite (and their norms) ∧ error ≤ tol ∧ error_q ≤ 1
 *             ∧ resolvable.
 * resolvable = DBL_EPSILON · max(‖p‖, ‖y‖) ≤ ‖q‖: e is computed from p − ŷ, whose rounding
 * error is about ε‖p‖; when that exceeds the data, a residual of exactly 0 means nothing
 * (an iterate running off to ‖p‖ ~ 1e22 on an infeasible problem reads e = 0, because p − ŷ
 * rounds to p). Legitimate solutions are nowhere near this (rockfall: ‖p‖ ~ 1e4 ‖q‖).
 */
#ifndef CONEBENCH_JUDGE_H
#define CONEBENCH_JUDGE_H

#include "conebench/problem.h"

typedef struct {
    double error;     /* primary, Siconos normalisation */
    double error_q;   /* ‖e‖ / ‖q‖ */
    double abs_error; /* ‖e‖ */
    double norm_p, norm_y, norm_q;
    int finite;       /* every entry of p and y finite, and ‖p‖, ‖y‖ too */
    int resolvable;   /* ε · max(‖p‖, ‖y‖) ≤ ‖q‖ */
    int solved;       /* finite ∧ error ≤ tol ∧ error_q ≤ 1 ∧ resolvable */
} cb_judgement;

/* Judge p. y_out (n entries, may be NULL) receives y = W p + q. Errors are non-finite errors
 * and solved = 0 when p or y has a NaN/inf; the function itself fails only on bad arguments. */
int cb_judge(const cb_problem *prob, const double *p, double tol, double *y_out,
             cb_judgement *out, cb_error *err);

/* Squared natural-map residual ‖p − P_K(p − ŷ)‖² of one contact given its p and y. */
double cb_contact_residual2(cb_kind kind, const cb_friction *f, const double *p, const double *y);


#endif
