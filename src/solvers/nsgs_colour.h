/* conebench — the coloured visiting order of nsgs/psor (order=coloured; nsgs_colour.c). Internal.
 *
 * Contacts of one colour are independent in a sweep: none reads what another of its colour
 * writes, so a colour can be visited on any number of threads, in any order, with the bits of
 * visiting it in contact order. Factored W: no two contacts of a colour share a body (a visit
 * reads and writes the velocities of its bodies). Dense and BSR W: no two contacts of a colour
 * are within two steps of each other in the graph of W's blocks taken both ways (a visit reads
 * y_α and adds W_{:,α} Δp_α into the rows of column α; BSR: every stored block, dense: every
 * block with a nonzero entry). The colours are given greedily in contact order (the smallest
 * colour no conflicting contact has), so they depend on W's pattern only, never on threads.
 */
#ifndef CONEBENCH_NSGS_COLOUR_H
#define CONEBENCH_NSGS_COLOUR_H

#include "conebench/problem.h"

typedef struct {
    int ncolours;
    int *start; /* ncolours + 1: colour c is order[start[c] .. start[c+1]) */
    int *order; /* nc contacts, by colour, increasing inside a colour */
} cb_nsgs_colouring;

/* The colouring of prob's contacts into *c (zeroed first); CB_ERR_NOMEM (c then holds what
 * cb_nsgs_colouring_free releases). */
int cb_nsgs_colour(const cb_problem *prob, cb_nsgs_colouring *c);
void cb_nsgs_colouring_free(cb_nsgs_colouring *c);

#endif
