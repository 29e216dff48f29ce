/* conebench — a BSR W's symmetry: its lower blocks mirrored from the upper ones, and, when W is
 * bitwise symmetric, its upper half kept alone for y = W x + q (half the bytes read a product).
 * Internal to the library (core; used by io, mech and solvers). */
#ifndef CONEBENCH_BSR_HALF_H
#define CONEBENCH_BSR_HALF_H

#include "conebench/problem.h"

/* Position of block (a, b) in B, or −1 (a row's columns ascending, as every BSR here). */
int cb_bsr_find(const cb_bsr *B, int a, int b);
/* W_ab ← W_baᵀ for every stored b < a and W_aa ← (W_aa + W_aaᵀ)/2 (d×d column-major blocks):
 * W bitwise symmetric; CB_ERR_INTERNAL when the pattern is not symmetric (a mirror position is
 * not stored). */
int cb_bsr_symmetrize(cb_bsr *B, int d);

/* Row strips of the half product: fixed, so its bits do not depend on the thread count (at most
 * this many threads share one product). */
#define CB_HALF_STRIPS 8
/* The size from which the half pays (its callers' default min_bytes): below it W is read from
 * cache and the full product is as fast. */
#define CB_HALF_MIN_BYTES ((size_t)16 << 20)

typedef struct cb_whalf cb_whalf;

/* W's diagonal and upper blocks copied out of p when p is BSR, its W bitwise symmetric off the
 * diagonal (pattern and values: W_ab = W_baᵀ bit for bit for a ≠ b; a diagonal block is used
 * whole) and its blocks at least min_bytes; otherwise *out = NULL and CB_OK (the full product is
 * the one to use). CB_ERR_NOMEM. The half owns its copy (p may
 * change or go afterwards); release it with cb_whalf_free. */
int cb_whalf_new(const cb_problem *p, size_t min_bytes, cb_whalf **out, cb_error *err);
void cb_whalf_free(cb_whalf *h);
/* y = W x (+ q when q is not NULL) from the half: each stored block once for its row and once,
 * transposed, for its column's. The same bits at any thread count, not the full product's (the
 * sums run in another order). h's scratch is written: one product at a time per half. */
void cb_whalf_y(cb_whalf *h, const double *x, const double *q, double *y);
/* The bytes h holds (its blocks, indices and scratch); 0 for NULL. */
size_t cb_whalf_bytes(const cb_whalf *h);

#endif
