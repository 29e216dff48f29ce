/* conebench — pieces shared by the first-order solvers pfp, eg (pfp_eg.c) and apgd (apgd.c):
 * the judged residual of an iterate, the common stopping test, the kind check. Internal. */
#ifndef CONEBENCH_FIRST_ORDER_H
#define CONEBENCH_FIRST_ORDER_H

#include "conebench/solver.h"

/* The judge's residual of one iterate: err = ‖p − P_K(p − ŷ)‖ / max(‖q‖, ‖p‖, ‖y‖), err_q =
 * ‖·‖ / ‖q‖, with the norms of p and y (err = err_q = inf when a norm overflows). */
typedef struct {
    double err;   /* the judge's error_data (judge.h): what the verdict compares with tol */
    double err_q, norm_p, norm_y;
} cb_fo_residual;

/* Residual of p given y = W p + q (from cb_problem_y: the judge's own bits) on the data's
 * scales sc (cb_judge_scale_of, taken once at setup); counts nc projections and one error
 * evaluation in cnt. */
void cb_fo_residual_eval(const cb_problem *prob, const double *p, const double *y,
                         const cb_judge_scale *sc, cb_fo_residual *out, cb_work *cnt);

/* cb_fo_residual_eval from its e² (cb_fo_residual2's bits): the norms, the normalisation and
 * the counts. */
void cb_fo_residual_of(const cb_problem *prob, const double *p, const double *y,
                       const cb_judge_scale *sc, double e2, cb_fo_residual *out, cb_work *cnt);

/* e² = Σ_α ‖p_α − P_K(p_α − ŷ_α)‖² in contact order; with scratch (nc entries) the terms are
 * computed on the run's threads, and the sum still has the bits of one thread. */
double cb_fo_residual2(const cb_problem *prob, const double *p, const double *y,
                       double *scratch);

/* F = ŷ(y) = y + g(y) contact by contact; 1 when F is finite. */
int cb_fo_modified_velocity(const cb_problem *prob, const double *y, double *F);

/* out = P_K(p − ρ F) contact by contact; counts nc projections; 1 when every projection had
 * a finite input. */
int cb_fo_project_step(const cb_problem *prob, const double *p, const double *F, double rho,
                       double *out, cb_work *cnt);

/* Option key of spec: a value > 0 into *out, or 0 for "auto"; CB_ERR_INPUT naming the key
 * otherwise ("must be > 0 or auto"). */
int cb_fo_option_positive_or_auto(const cb_settings *s, const cb_option_spec *spec,
                                  const char *key, double *out, cb_error *err);

/* The choice "adaptive" (1) or "fixed" (0) of option key; CB_ERR_INPUT naming it otherwise. */
int cb_fo_option_adaptive(const cb_settings *s, const cb_option_spec *spec, const char *key,
                          int *out, cb_error *err);

/* Option "half" (apgd): products from W's upper half (core/bsr_half.h). */
#define CB_FO_HALF_OPTION                                                                         \
    {"half", "auto", "products from W's upper half when W is bitwise symmetric (half the bytes "  \
                     "read; other rounding, the same at any thread count): on | off | auto (on " \
                     "from 16 MiB of W's blocks)"}
/* Option half of spec into the size of W's blocks from which the half is used: 0 (on),
 * SIZE_MAX (off) or CB_HALF_MIN_BYTES (auto); CB_ERR_INPUT naming it otherwise. */
int cb_fo_option_half(const cb_settings *s, const cb_option_spec *spec, size_t *min_bytes,
                      cb_error *err);

/* 1 when the run's budget is spent (cb_time_up; t0, the loop's start, is not used). */
int cb_fo_time_up(const cb_settings *s, double t0);

/* The status that ends a run after iteration k, or -1 to go on. Solved needs err ≤ tol, a
 * settled iterate (err_q ≤ min(1, √tol), last step ≤ ‖p‖/4) and the judge's resolvability
 * ε·max(‖p‖, ‖y‖) ≤ ‖q‖: on an infeasible problem the iterates run off, ‖e‖ rounds to 0 and
 * the normalised error falls below any tol. A non-finite err is diverged. */
int cb_fo_stop_status(const cb_fo_residual *r, double step, double norm_q, const cb_settings *s,
                      int k, double t0);

/* Drift detection for the second-order solvers. On a singular W an iterate can run off along
 * K ∩ null(W): ‖p‖ grows while W p = y − q and the absolute residual ‖e‖ = err_q ‖q‖ stay put.
 * The detector's reference is the last iterate whose err_q improved on the previous reference's
 * by the factor CB_FO_DRIFT_GAIN; drift is ‖p‖ > CB_FO_DRIFT · max(scale, ‖p_ref‖) with
 * ‖y − q‖ ≤ CB_FO_DRIFT_WP ‖y_ref − q‖, where scale = ‖q‖ / mean_α ‖W_αα‖∞ (the force that balances q with
 * the diagonal blocks; +inf when every diagonal block is zero). An iterate that grows towards
 * a large solution (an interior point's small start, a tall stack) moves W p with it or lowers
 * err_q, and is not drift. */
#define CB_FO_DRIFT 8.0      /* ‖p‖ growth over the reference's (or the scale) */
#define CB_FO_DRIFT_GAIN 0.9 /* err_q improvement that makes a new reference */
#define CB_FO_DRIFT_WP 2.0   /* ‖y − q‖ at most this × the reference's */
typedef struct {
    const cb_problem *prob;
    double scale;   /* ‖q‖ / mean ‖W_αα‖∞ */
    double err_q;   /* the reference's err_q, */
    double norm_p;  /* ‖p‖ */
    double norm_wp; /* and ‖y − q‖ */
} cb_fo_drift;
/* The reference cleared; scale from mean_diag = mean_α ‖W_αα‖∞ (cb_judge_scale.diag_mean,
 * taken once at setup). */
void cb_fo_drift_init(cb_fo_drift *d, const cb_problem *prob, double norm_q, double mean_diag);

/* Records the iterate of residual r and y = W p + q; 1 when it is the new reference (the caller
 * may keep it), 2 when p drifts (see above), else 0. */
int cb_fo_drift_update(cb_fo_drift *d, const cb_fo_residual *r, const double *y);

/* Every kind with a cone, every storage (the solvers only use the problem.h kernels). */
int cb_fo_supports(const cb_problem *prob, cb_error *err);

#endif
