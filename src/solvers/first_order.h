/* conebench — pieces shared by the first-order solvers pfp, eg (pfp_eg.c) and apgd (apgd.c):
 * the judged residual of an iterate, the common stopping test, the kind check. Internal. */
#ifndef CONEBENCH_FIRST_ORDER_H
#define CONEBENCH_FIRST_ORDER_H

#include "conebench/solver.h"

/* The judge's residual of one iterate: err = ‖p − P_K(p − ŷ)‖ / max(‖q‖, ‖p‖, ‖y‖), err_q =
 * ‖·‖ / ‖q‖, with the norms of p and y (err = err_q = inf when a norm overflows). */
typedef struct {
    double err, err_q, norm_p, norm_y;
} cb_fo_residual;

/* Residual of p given y = W p + q (from cb_problem_y: the judge's own bits); counts nc
 * projections and one error evaluation in cnt. */
void cb_fo_residual_eval(const cb_problem *prob, const double *p, const double *y, double norm_q,
                         cb_fo_residual *out, cb_work *cnt);

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

/* 1 when the wall-clock limit of s (> 0) has passed since t0. */
int cb_fo_time_up(const cb_settings *s, double t0);

/* The status that ends a run after iteration k, or -1 to go on. Solved needs err ≤ tol, a
 * settled iterate (err_q ≤ min(1, √tol), last step ≤ ‖p‖/4) and the judge's resolvability
 * ε·max(‖p‖, ‖y‖) ≤ ‖q‖: on an infeasible problem the iterates run off, ‖e‖ rounds to 0 and
 * the normalised error falls below any tol. A non-finite err is diverged. */
int cb_fo_stop_status(const cb_fo_residual *r, double step, double norm_q, const cb_settings *s,
                      int k, double t0);

/* Every kind with a cone, every storage (the solvers only use the problem.h kernels). */
int cb_fo_supports(const cb_problem *prob, cb_error *err);

#endif
