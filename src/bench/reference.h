/* conebench — reference solutions (`conebench reference`; the file format is in io.h): the best
 * judged solution of a problem, polished by the second-order solvers, and whether it is the
 * only solution.
 *
 * Ownership: cb_reference_compute fills a cb_reference the caller releases with
 * cb_reference_free; nothing else allocates for the caller.
 */
#ifndef CONEBENCH_REFERENCE_H
#define CONEBENCH_REFERENCE_H

#include "conebench/io.h"
#include "conebench/solver.h"

typedef struct {
    double tol;          /* target judged error of every solver run (default 1e-12), > 0 */
    double time_limit;   /* seconds per solver run (default 60), > 0 */
    int max_iter;        /* iterations per solver run (default 10000), ≥ 1 */
} cb_reference_settings;

void cb_reference_settings_default(cb_reference_settings *s);

/* The reference of prob: nsn+nsgs (formulation=ac, then natural) and ipm+nsn from p = 0, then
 * nsn+nsgs (formulation=ac) warm-started from the best of them; the best judged run (least error, then
 * least error_q; cb_solve's judge, never a solver's own figure) is kept in *out (sha256 =
 * prob->prov.sha256; unique = yes when cb_problem_W_definite says so, else no). A run a
 * solver refuses (unsupported storage or kind) is skipped; CB_ERR_INTERNAL when no run gives a
 * finite error. */
int cb_reference_compute(const cb_problem *prob, const cb_reference_settings *s,
                         cb_reference *out, cb_error *err);

/* The reference of a problem whose file is problem_path (sha256 hex): problem_path.ref, else
 * the first DIR/\*.ref (dir may be NULL) whose header has that sha256. *found = 1 and *out
 * filled when one matches; a file that does not read, or problem_path.ref of another problem
 * (another sha256) or size, is ignored with its reason in note (empty otherwise). */
void cb_reference_find(const char *problem_path, const char *sha256, const char *dir, int nc,
                       int d, cb_reference *out, int *found, char *note, size_t notelen);

/* ‖p − p*‖ / max(1, ‖p*‖) against the reference cb_reference_find gives for the problem (p of
 * length nc·d), when its p* is unique; NaN otherwise. Why a reference was ignored is in note. */
double cb_reference_dist(const char *problem_path, const char *sha256, const char *dir, int nc,
                         int d, const double *p, char *note, size_t notelen);

#endif
