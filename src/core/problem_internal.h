/* conebench — factored storage of W (problems/problem_factored.c), used by problems/problem.c.
 * Internal. Layout and ownership: cb_factored in conebench/problem.h. */
#ifndef CONEBENCH_PROBLEM_INTERNAL_H
#define CONEBENCH_PROBLEM_INTERNAL_H

#include "conebench/problem.h"

/* Validate nbody and the array sizes of a factored problem of kind/nc (before allocating). */
int cb_fac_check_sizes(int d, int nc, int nbody, cb_error *err);
/* Allocate p->fac for p->nc contacts and nbody bodies (sizes checked); CB_ERR_NOMEM on failure
 * (the arrays allocated so far stay in p->fac for cb_fac_free). */
int cb_fac_alloc(cb_problem *p, int nbody);
void cb_fac_free(cb_factored *f);
/* cb_problem_check's factored part: factors, adjacency, diagonal blocks. */
int cb_fac_check(const cb_problem *p, cb_error *err);
/* Copy every factored array of src into dst (allocated for the same nc, d, nbody). */
void cb_fac_copy(const cb_problem *src, cb_problem *dst);
/* y = W p;  out = Σ_β W_αβ p_β. */
void cb_fac_Wp(const cb_problem *p, const double *x, double *y);
void cb_fac_row_Wp(const cb_problem *p, int alpha, const double *x, double *out);
/* (contact, slot) pairs with a body. */
long long cb_fac_slots(const cb_problem *p);
size_t cb_fac_bytes(const cb_problem *p);
/* Blocks of the assembled BSR (pairs of contacts sharing a body, diagonal included). */
long long cb_fac_bsr_count(const cb_problem *p);
/* Fill dst's BSR (allocated with cb_fac_bsr_count blocks) with the assembled W of p: the upper
 * blocks computed, the lower ones their mirrors (W bitwise symmetric). */
void cb_fac_bsr_fill(const cb_problem *p, cb_problem *dst);

#endif
