/* conebench — the solver function tables the registry lists (solvers/registry.c). Internal. */
#ifndef CONEBENCH_SOLVERS_INTERNAL_H
#define CONEBENCH_SOLVERS_INTERNAL_H

#include "conebench/solver.h"

struct cb_budget {
    double cpu0;      /* process CPU clock at the run's start (cpu_spent before cb_solve) */
    double cpu_end;   /* process CPU clock at which the budget is spent (INFINITY: none) */
    double wall_end;  /* monotonic clock of the wall guard (INFINITY: none) */
    double read_wall; /* wall clock at the last read of the CPU clock */
    double read_left; /* CPU seconds left at that read */
    double cores;     /* online cores */
    int over;         /* the budget is spent (sticky) */
};

/* Start the budget of a run with settings s (solvers/budget.c). */
void cb_budget_start(cb_budget *b, const cb_settings *s);
/* CPU seconds the run has used so far (cpu_spent included). */
double cb_budget_used(const cb_budget *b);

/* From this many unknowns (nc·d) on, one step of nsn or ipm (a sparse factorisation) may take
 * longer than what is left of the budget: they measure their steps (cb_step_fits) and
 * cb_solve_limited runs them in a child process; below it, neither (no overhead). */
#define CB_KERNEL_CHILD_MIN_N 1000

/* The CPU cost of a solver's steps, to start none that cannot fit in the budget. */
typedef struct {
    double cpu0; /* process CPU clock at the start of the current step */
    double cost; /* CPU seconds of the last step */
    int on;      /* measured: a budget and n ≥ CB_KERNEL_CHILD_MIN_N */
} cb_step_cost;
void cb_step_cost_start(cb_step_cost *c, const cb_settings *s, size_t n);
/* Called between steps: 1 when the budget still holds another step as costly as the last one
 * (cb_time_fits), 0 when it does not (the run stops: time_limit). */
int cb_step_fits(const cb_settings *s, cb_step_cost *c);

/* Symbolic analyses (klu_analyze, cholmod_analyze) the solvers ran in this process: an update
 * keeps them, and the tests count them (solver.c). */
void cb_analysis_count(void);
long cb_analyses(void);

extern const cb_solver cb_solver_pfp;               /* solvers/pfp_eg.c */
extern const cb_solver cb_solver_eg;                /* solvers/pfp_eg.c */
extern const cb_solver cb_solver_apgd;              /* solvers/apgd.c */
extern const cb_solver cb_solver_admm;              /* solvers/admm.c */
extern const cb_solver cb_solver_nsgs;              /* solvers/nsgs.c */
extern const cb_solver cb_solver_psor;              /* solvers/nsgs.c */
extern const cb_solver cb_solver_nsn;               /* solvers/nsn.c */
extern const cb_solver cb_solver_ipm;               /* solvers/ipm.c */
extern const cb_solver cb_solver_ipm_nsn;           /* solvers/composite.c: ipm+nsn */
extern const cb_solver cb_solver_nsn_nsgs;          /* solvers/composite.c: nsn+nsgs */
/* The solver of phase i of a composite (composite.c), NULL past its last phase or when solver
 * is not a composite. */
const cb_solver *cb_composite_phase(const cb_solver *solver, int i);
/* The trace points of a phase's pi appended to info's (solver.c): iterations after `iters`,
 * times after `offset` seconds, pi's iteration 0 left out when `skip0`; CB_ERR_NOMEM. */
int cb_info_trace_append(cb_info *info, const cb_info *pi, const cb_settings *s, int iters,
                         double offset, int skip0);
/* to += w, counter by counter. */
void cb_work_add(cb_work *to, const cb_work *w);
/* Append a phase (solver, iterations, work, time) to info->phases; added into the last one when
 * CB_PHASES_MAX are there. */
void cb_info_phase(cb_info *info, const char *solver, int iterations, const cb_work *work,
                   double time_s);
/* The Siconos adapters (solvers/siconos/: siconos_adapter.c the first three,
 * siconos_solvers.c the others). */
extern const cb_solver cb_solver_siconos_nsgs;
extern const cb_solver cb_solver_siconos_nsgs_light;
extern const cb_solver cb_solver_siconos_admm;
extern const cb_solver cb_solver_siconos_nsn_ac;
extern const cb_solver cb_solver_siconos_nsn_ac_test;
extern const cb_solver cb_solver_siconos_nsn_fb;
extern const cb_solver cb_solver_siconos_nsn_nm;
extern const cb_solver cb_solver_siconos_prox;
extern const cb_solver cb_solver_siconos_tfp;
extern const cb_solver cb_solver_siconos_pfp;
extern const cb_solver cb_solver_siconos_dsfp;
extern const cb_solver cb_solver_siconos_aclmfp;
extern const cb_solver cb_solver_siconos_fpp;
extern const cb_solver cb_solver_siconos_eg;
extern const cb_solver cb_solver_siconos_vi_fpp;
extern const cb_solver cb_solver_siconos_vi_eg;
extern const cb_solver cb_solver_siconos_nsgs_nsn;
extern const cb_solver cb_solver_siconos_nsgs_nsn_gp;
extern const cb_solver cb_solver_siconos_nsgs_pli;
extern const cb_solver cb_solver_siconos_nsgs_pcr;
extern const cb_solver cb_solver_siconos_nsgs_pc;
extern const cb_solver cb_solver_siconos_fc2d_lemke;
extern const cb_solver cb_solver_siconos_fc2d_enum;
extern const cb_solver cb_solver_siconos_global_nsgs_wr;
extern const cb_solver cb_solver_siconos_global_nsgs;
extern const cb_solver cb_solver_siconos_global_prox_wr;
extern const cb_solver cb_solver_siconos_global_dsfp_wr;
extern const cb_solver cb_solver_siconos_global_tfp_wr;
extern const cb_solver cb_solver_siconos_global_nsn_ac_wr;
extern const cb_solver cb_solver_siconos_global_nsn_ac;
extern const cb_solver cb_solver_siconos_global_vi_fpp;
extern const cb_solver cb_solver_siconos_global_vi_eg;
extern const cb_solver cb_solver_siconos_global_aclmfp;
extern const cb_solver cb_solver_siconos_global_admm;
extern const cb_solver cb_solver_siconos_global_admm_wr;
extern const cb_solver cb_solver_siconos_global_ipm;
/* Every Siconos adapter, for the registry (registry.c) and its cannot-stop list. */
#define CB_SICONOS_SOLVERS \
    &cb_solver_siconos_nsgs, &cb_solver_siconos_nsgs_light, &cb_solver_siconos_admm, \
    &cb_solver_siconos_nsn_ac, &cb_solver_siconos_nsn_ac_test, &cb_solver_siconos_nsn_fb, \
    &cb_solver_siconos_nsn_nm, &cb_solver_siconos_prox, &cb_solver_siconos_tfp, \
    &cb_solver_siconos_pfp, &cb_solver_siconos_dsfp, &cb_solver_siconos_aclmfp, \
    &cb_solver_siconos_fpp, &cb_solver_siconos_eg, &cb_solver_siconos_vi_fpp, \
    &cb_solver_siconos_vi_eg, &cb_solver_siconos_nsgs_nsn, &cb_solver_siconos_nsgs_nsn_gp, \
    &cb_solver_siconos_nsgs_pli, &cb_solver_siconos_nsgs_pcr, &cb_solver_siconos_nsgs_pc, \
    &cb_solver_siconos_fc2d_lemke, &cb_solver_siconos_fc2d_enum, \
    &cb_solver_siconos_global_nsgs_wr, &cb_solver_siconos_global_nsgs, \
    &cb_solver_siconos_global_prox_wr, &cb_solver_siconos_global_dsfp_wr, \
    &cb_solver_siconos_global_tfp_wr, &cb_solver_siconos_global_nsn_ac_wr, \
    &cb_solver_siconos_global_nsn_ac, &cb_solver_siconos_global_vi_fpp, \
    &cb_solver_siconos_global_vi_eg, &cb_solver_siconos_global_aclmfp, \
    &cb_solver_siconos_global_admm, &cb_solver_siconos_global_admm_wr, \
    &cb_solver_siconos_global_ipm

/* The game-engine adapters (solvers/engines/engines_adapter.c; make BULLET=0 / DART=0 builds
 * without them). */
extern const cb_solver cb_solver_bullet_dantzig;
extern const cb_solver cb_solver_bullet_pgs;
extern const cb_solver cb_solver_bullet_lemke;
extern const cb_solver cb_solver_dart_dantzig;
extern const cb_solver cb_solver_dart_pgs;
#define CB_BULLET_SOLVERS &cb_solver_bullet_dantzig, &cb_solver_bullet_pgs, &cb_solver_bullet_lemke
#define CB_DART_SOLVERS &cb_solver_dart_dantzig, &cb_solver_dart_pgs

#endif
