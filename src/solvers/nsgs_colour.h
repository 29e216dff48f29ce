/* conebench — the parallel visiting orders of nsgs/psor (order=coloured and order=domains;
 * nsgs_colour.c). Internal.
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

/*
 * order=domains: a nested dissection of the same graph. Level sets of a breadth-first search cut
 * the contacts into two parts and a separator a conflict thick, so that no contact of one part
 * conflicts with one of the other (checked on the whole graph, and contacts moved into the
 * separator where one does); each part is cut again, to a depth set by nc alone (never by
 * threads). The root's separator is then cut once more, by the same search over its own
 * contacts, into two halves and a separator of theirs (their conflicts through any contact
 * repaired the same way). Phase 0 visits the leaves; then one phase a depth, from the leaves
 * up, its separators; then the root's halves, and last their separator, the one unit visited
 * by a single thread. The units of a phase (its leaves, separators or halves) are independent,
 * each visited in contact order (the locality of the natural order), so a phase's units can go
 * to any number of threads with the bits of the one order.
 */
#define CB_DOMAIN_MAX_DEPTH 4                        /* order=domains: at most 2^4 leaves */
#define CB_DOMAIN_MAX_UNITS (1 << CB_DOMAIN_MAX_DEPTH) /* units of a phase: the leaves at most */

typedef struct {
    int nphases; /* coloured: the colours; domains: depth + 2 (1 at depth 0) */
    int *start;  /* nphases + 1: phase k is order[start[k] .. start[k+1]) */
    int *order;  /* nc contacts, by phase, then by unit, increasing inside a unit */
    int *ubeg, *uend; /* domains: position i's unit is order[ubeg[i] .. uend[i]); NULL: a
                         unit per contact */
    int repaired; /* domains: contacts the whole-graph check moved into a separator */
} cb_nsgs_colouring;

/* The colouring of prob's contacts into *c (zeroed first); CB_ERR_NOMEM (c then holds what
 * cb_nsgs_colouring_free releases). */
int cb_nsgs_colour(const cb_problem *prob, cb_nsgs_colouring *c);
/* The nested dissection of prob's contacts into *c (zeroed first); CB_ERR_NOMEM as above. */
int cb_nsgs_domains(const cb_problem *prob, cb_nsgs_colouring *c);
void cb_nsgs_colouring_free(cb_nsgs_colouring *c);

#endif
