/* conebench — the game-engine adapters (solvers/engines/): the boxed LCP every engine back end
 * receives, and the C entry points of the C++ back ends (engines_bullet.cpp, engines_dart.cpp).
 * Private to this folder. */
#ifndef CONEBENCH_ENGINES_INTERNAL_H
#define CONEBENCH_ENGINES_INTERNAL_H

#ifdef __cplusplus
extern "C" {
#endif

/* The boxed LCP of n unknowns x: w = A x − b with, for each i, either lo_i < x_i < hi_i and
 * w_i = 0, or x_i = lo_i and w_i ≥ 0, or x_i = hi_i and w_i ≤ 0; a row with findex[i] = j ≥ 0
 * has the bounds ±hi_i · x_j instead (lo_i = −hi_i: friction tied to the normal x_j). A is
 * row-major n×n (entry (i, j) at A[i·n + j]). */
typedef struct {
    int n;
    const double *A, *b, *lo, *hi;
    const int *findex;
} cb_eng_box;

/* The back ends of one engine. */
typedef enum {
    CB_ENG_BULLET_DANTZIG = 0, /* btDantzigSolver */
    CB_ENG_BULLET_PGS = 1,     /* btSolveProjectedGaussSeidel */
    CB_ENG_BULLET_LEMKE = 2,   /* btLemkeSolver */
    CB_ENG_DART_DANTZIG = 3,   /* dart::constraint::DantzigBoxedLcpSolver */
    CB_ENG_DART_PGS = 4        /* dart::constraint::PgsBoxedLcpSolver */
} cb_eng_backend;

/* What one back-end call reports. */
typedef struct {
    int ok;         /* the engine's own success flag (1: it accepted its answer) */
    int iterations; /* sweeps or pivots done, when the engine says; the cap otherwise */
    int threw;      /* a C++ exception (bad_alloc ...) ended the call */
} cb_eng_result;

/* Solve box with backend from x (n values: the start, overwritten by the engine's answer);
 * iterations: the sweep cap (PGS) or pivot cap (Lemke), ignored by Dantzig. Never throws. */
void cb_eng_bullet_solve(cb_eng_backend backend, const cb_eng_box *box, int iterations, double *x,
                         cb_eng_result *out);
void cb_eng_dart_solve(cb_eng_backend backend, const cb_eng_box *box, int iterations, double *x,
                       cb_eng_result *out);

#ifdef __cplusplus
}
#endif

#endif
