/* conebench — the solver function tables the registry lists (solvers/registry.c). Internal. */
#ifndef CONEBENCH_SOLVERS_INTERNAL_H
#define CONEBENCH_SOLVERS_INTERNAL_H

#include "conebench/solver.h"

extern const cb_solver cb_solver_pfp;               /* solvers/pfp_eg.c */
extern const cb_solver cb_solver_eg;                /* solvers/pfp_eg.c */
extern const cb_solver cb_solver_apgd;              /* solvers/apgd.c */
extern const cb_solver cb_solver_admm;              /* solvers/admm.c */
extern const cb_solver cb_solver_nsgs;              /* solvers/nsgs.c */
extern const cb_solver cb_solver_psor;              /* solvers/nsgs.c */
extern const cb_solver cb_solver_nsn;               /* solvers/nsn.c */
extern const cb_solver cb_solver_siconos_nsgs;      /* solvers/siconos_adapter.c */
extern const cb_solver cb_solver_siconos_nsgs_light;/* solvers/siconos_adapter.c */
extern const cb_solver cb_solver_siconos_admm;      /* solvers/siconos_adapter.c */

#endif
