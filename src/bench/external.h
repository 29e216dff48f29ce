/* conebench — the external solver: a user's command, in any language, solves each problem
 * (src/bench/external.c; the file contract is in README "Solvers in any language" and
 * man conebench, EXTERNAL SOLVERS).
 *
 * Per solve: a fresh temporary directory ($TMPDIR or /tmp, conebench-external-XXXXXX) gets
 *   problem.dat      the problem as Siconos text (cb_write_problem);
 *   settings.json    tol, max_iter, time_limit (null: none), warm_start ("warm_start.txt", a
 *                    file of the same directory, or null), kind, nc, d, format;
 *   warm_start.txt   the warm start p (nc·d numbers) when it is not zero;
 * then `/bin/sh -c CMD` runs in its own process group, stdin /dev/null, stdout and stderr in
 * stdout.txt and stderr.txt, with {problem} {solution} {settings} {trace} {dir} in CMD replaced
 * by those paths. At the time limit the group gets SIGTERM, one second later SIGKILL: status
 * time_limit. Exit 0: solution.txt must hold the nc·d numbers of p (white space between them;
 * nan/inf read as such and judged diverged); trace.csv (optional: "iteration,time_s,error"
 * lines, a header line allowed) gives the trace and the iteration count. A nonzero exit, a
 * missing or malformed solution or trace: status stalled, p stays the warm start.
 *
 * A run that fails this way returns CB_OK with info->status stalled (or diverged) and the
 * reason in err (one line): callers that print run failures (the campaign runner's
 * errors.log, `conebench solve`) print it. */
#ifndef CONEBENCH_EXTERNAL_H
#define CONEBENCH_EXTERNAL_H

#include "conebench/solver.h"

/* The solver table ("external"; options cmd, name, format, keep). Programs register it with
 * cb_solver_register(&cb_solver_external, ...) (the CLI does at start). */
extern const cb_solver cb_solver_external;

/* The python solver ("python"; options module, function, path, name, keep): the external
 * solver running `python3 -m conebench._driver` (python/conebench/_driver.py), which calls
 * function(problem, settings) -> p of the user's module. Setup loads the function once (a
 * child process) and refuses, with Python's reason, what does not load (man conebench,
 * PYTHON SOLVERS). Registered by the CLI next to the external solver. */
extern const cb_solver cb_solver_python;

#endif
