/* conebench — the conformance suite: the contract every solver owes the harness, checked on
 * generated problems with known solutions (`conebench conformance`). Internal to bench and cli.
 *
 * Each check runs in its own child process (a crash or a hang fails that check only):
 *   options        an unknown option is refused (cb_solve returns CB_ERR_INPUT, bad_input);
 *   max_iter       max_iter = 2 on an unreachable tolerance: at most 2 iterations;
 *   time_limit     time limit T on an unreachable tolerance: back within T + slack seconds of
 *                  CPU (this process and its children; wall only as a hang guard);
 *   nan_q          a NaN in q (solver called directly, not through cb_solve, which refuses it):
 *                  refused, or status diverged within 1 iteration;
 *   nan_start      a NaN in the warm start, likewise;
 *   warm_start     started from the known solution: solved in ≤ 1 iteration;
 *   deterministic  the same run twice: the same bits of p and y, iterations and counters;
 *   counters       a run that iterates fills a work counter;
 *   trace          trace points non-decreasing in iteration and in time;
 *   known          solves (judged, tol 1e-8) the known-solution problem of every cone kind it
 *                  says it supports (and supports at least one).
 */
#ifndef CONEBENCH_CONFORMANCE_H
#define CONEBENCH_CONFORMANCE_H

#include "conebench/solver.h"

#define CB_CONF_NCHECKS 10

typedef struct {
    double time_limit; /* seconds given in the time_limit check (default 0.5) */
    double slack;      /* seconds allowed past it (default 1.5: process start, judge, kill) */
    double known_limit; /* time limit of each known-solution solve (default 20) */
    int nc;            /* contacts of the generated problems (default 20) */
    const cb_option *options; /* the solver's options in every run (not owned; default none) */
    int noptions;             /* at most CB_CONF_MAX_OPTIONS */
} cb_conformance_settings;

#define CB_CONF_MAX_OPTIONS 32

void cb_conformance_settings_default(cb_conformance_settings *s);

typedef struct {
    const char *name; /* "max_iter", ... (static) */
    int passed;       /* 1 pass, 0 fail */
    char detail[256]; /* what was seen */
    /* NULL; or, for a check that needs the exact cone's answer (warm_start, known) and that a
     * solver of another friction model fails (cb_solver_model_gap), why it cannot pass: such a
     * check is reported as "cannot", not as a failure. */
    const char *cannot;
} cb_conformance_check;

/* Run every check on solver; out[CB_CONF_NCHECKS] receives the results. Returns CB_OK when the
 * checks ran (whatever they found), CB_ERR_INPUT when the solver's setup refuses s->options,
 * CB_ERR_NOMEM / CB_ERR_IO when they could not. */
int cb_conformance_run(const cb_solver *solver, const cb_conformance_settings *s,
                       cb_conformance_check out[CB_CONF_NCHECKS], cb_error *err);

#endif
