/* conebench — admm's direct linear step (solvers/admm_direct.c). Internal to src/solvers. */
#ifndef CONEBENCH_ADMM_INTERNAL_H
#define CONEBENCH_ADMM_INTERNAL_H

#include "conebench/problem.h"

typedef struct cb_admm_direct cb_admm_direct;

/* The sparse pattern of W + ρI (any storage) and its analysis; factors come at the first solve. */
int cb_admm_direct_new(const cb_problem *prob, cb_admm_direct **out, cb_error *err);
/* b ← (W + ρI)⁻¹ b; factors afresh when ρ differs from the last call's. CB_ERR_INTERNAL when
 * the factorisation or the solve fails (the caller falls back to its iterative solve). */
int cb_admm_direct_solve(cb_admm_direct *s, double rho, double *b);
void cb_admm_direct_free(cb_admm_direct *s);

#endif
