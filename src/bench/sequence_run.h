/* conebench — sequence runs of a campaign (src/bench, internal): the child side of one run
 * (sequence, solver, tolerance, warm-start mode, repetition), which reads the steps in order and
 * drives one workspace (solver.h: cb_setup once, cb_update_q/_mu/_W while the kind, nc and W's
 * pattern stay, else set up again; cb_warm_start per the mode; cb_solve_ws), each step judged
 * and held to the campaign's time limit of CPU time; and what the runner needs to record it.
 *
 * The child writes to its pipe one "R row" line per step (run id: the first 16 hex digits of
 * sha256(SEQUENCE_RUN_ID|step|N), sequence_run = the run's id), then the sequence row last (the
 * run's own id: totals, results.h), "E msg" lines for errors.log and "F msg" when a file could
 * not be written. Sequence runs write no traces; with solutions on, solutions/<step run id>.sol.gz.
 */
#ifndef CONEBENCH_SEQUENCE_RUN_H
#define CONEBENCH_SEQUENCE_RUN_H

#include "campaign.h"
#include "results.h"
#include "sequence.h"

/* What the child of one sequence run needs. */
typedef struct {
    const cb_campaign *c;
    const cb_run_ref *r;
    const cb_solver *solver;
    const char *outdir;  /* where solutions/ is */
    int solutions;       /* write solutions/<step run id>.sol.gz */
} cb_sequence_job;

/* The child side of a sequence run: rows and messages to fd. Returns the child's exit status:
 * 0 when the sequence row was sent (every step ran, or the solver does not take the problem:
 * status unsupported), 2 otherwise (the "E" message says why). */
int cb_sequence_child(const cb_sequence_job *j, int fd);

/* The "R " lines of a child's messages but the last (its step rows), each with its '\n', into
 * *rows (malloc'd, NUL-terminated; "" when none) and their length. CB_ERR_NOMEM. */
int cb_sequence_step_rows(const char *data, char **rows, size_t *len);

/* The CPU seconds a sequence run may take in all: its steps' budgets. */
double cb_sequence_budget(const cb_campaign *c, const cb_run_ref *r);

#endif
