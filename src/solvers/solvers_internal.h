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
extern const cb_solver cb_solver_ipm;               /* solvers/ipm.c */
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

#endif
