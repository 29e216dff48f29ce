/* conebench — the budget held for every solver, and the solver facts the harness needs
 * (not installed: the harness's, not the API's). */
#ifndef CONEBENCH_SOLVE_LIMITED_H
#define CONEBENCH_SOLVE_LIMITED_H

#include "conebench/solver.h"

/* The wall guard of s in seconds: wall_limit when > 0, CB_WALL_GUARD_FACTOR × time_limit when
 * wall_limit is 0, none (0) when wall_limit < 0 or without a budget. */
double cb_wall_guard(const cb_settings *s);

/* 1 when solver stops itself at settings->time_limit (every conebench solver checks the clock
 * in its loop), 0 for the Siconos and game-engine adapters (their loops cannot be interrupted;
 * registry.c marks them). */
int cb_solver_stops_at_limit(const cb_solver *solver);
/* 1 for the solvers that stop themselves between steps but whose steps include a sparse
 * factorisation that cannot be interrupted (nsn, ipm): cb_solve_limited runs them in a child
 * process on large problems. */
int cb_solver_has_long_kernels(const cb_solver *solver);
/* NULL, or why solver answers another friction model than the exact cone (the game-engine
 * adapters' box, registry.c): the conformance checks that need the exact answer (warm_start,
 * known) then report that they cannot pass, with this reason. */
const char *cb_solver_model_gap(const cb_solver *solver);
/* cb_solve with the budget held for every solver (solvers/solve_limited.c): a solver that
 * cannot stop itself (and, without a server, nsn and ipm on problems of 1000 unknowns or more:
 * cb_solver_has_long_kernels) runs in a child process killed once its CPU time reaches the
 * budget left after cpu_spent plus ¼ s (for the judge and the answer), or at the wall guard plus
 * ¼ s; then info->status is time_limit, sol->p keeps the warm start (y and the judged errors are
 * its own), *killed = 1 (killed may be NULL); a child that dies gives status crashed. server
 * NULL: a child per call; else the calls share one persistent child (a simulation's steps;
 * cb_solve_server_new). Other solvers, or no limit: cb_solve itself, in this process, with no
 * overhead. */
typedef struct cb_solve_server cb_solve_server;
int cb_solve_limited(const cb_solver *solver, const cb_problem *prob, const cb_settings *s,
                     cb_solution *sol, cb_info *info, cb_solve_server *server, int *killed,
                     cb_error *err);
/* 1 when cb_solve_limited would run cb_solve in this process (no child): the caller may as well
 * keep a workspace (solver.h: cb_setup) across such solves. */
int cb_solve_runs_here(const cb_solver *solver, const cb_problem *prob, const cb_settings *s,
                       const cb_solution *sol, const cb_solve_server *server);
/* For such a caller that assembles a new problem for every solve and needs it no more (the
 * time-stepper): the workspace takes *prob instead of copying it, so that no more than two
 * problems are ever held (the kept one and the new one). *ws NULL, or set up with solver and s.
 * Same pattern as *ws's problem (cb_update_problem): its values are copied into the workspace and
 * *prob is freed; else *ws is cleaned up first and a new workspace is set up on *prob itself.
 * *prob is NULL afterwards in every case (cb_workspace_problem(*ws) is the problem now); on
 * failure *ws is NULL or, after a failed update of the same pattern, as cb_update_problem
 * leaves it. */
int cb_workspace_take(cb_workspace **ws, const cb_solver *solver, cb_problem **prob,
                      const cb_settings *s, cb_error *err);
int cb_solve_server_new(cb_solve_server **out, cb_error *err);
void cb_solve_server_free(cb_solve_server *server); /* stops its child; NULL ok */

/* Is W positive definite? (solvers/w_definite.c; `conebench reference` says from it whether p*
 * is unique). A factored W with nc·d > 6·bodies has rank ≤ 6·bodies < nc·d: *definite = 0.
 * Otherwise S = (W + Wᵀ)/2 (a factored W assembled as BSR) is factored by CHOLMOD's sparse LDLᵀ
 * (simplicial: the same bits on every CPU): *definite = 1 when every pivot is ≥ 1e-12 ×
 * max_i W_ii (the problem is then strongly monotone), 0 when not (W singular or indefinite to
 * that precision). CB_ERR_NOMEM when the factorisation runs out of memory. */
int cb_problem_W_definite(const cb_problem *prob, int *definite, cb_error *err);

#endif
