/* conebench — the Siconos 4.4 solvers beyond NSGS and ADMM, one table row each
 * (siconos_internal.h: CB_SIC_ADAPTER(ident, name, summary, options, ids per kind, NSGS local
 * solver per kind, flags, max nc, configure)). Every row runs with Siconos's own defaults for
 * its solver (solver_options_create) and our tol → dparam[SICONOS_DPARAM_TOL] and max_iter →
 * iparam[SICONOS_IPARAM_MAX_ITER] (outer iterations: Newton steps for NSN-*, proximal steps for
 * PROX, fixed-point steps for TFP/DSFP/ACLMFP/PFP, their inner solvers keep Siconos's
 * caps); the NSGS variants set the NSGS loop as siconos-nsgs does (full residual every sweep).
 * Which of them run on which problems: README.md, "Siconos adapters".
 *
 * Left out (each tried through the child-process runner with Debian's 4.4.0; README.md says the
 * same): NSGSV (fc3d_nsgs_velocity rejects its default local solver ONECONTACT_NSN, "Unknown
 * internal solver", segfaults with ProjectionOnCone_velocity, and takes no sparse-block W); the
 * GAMS solvers (Debian builds without GAMS: "gams was not enabled at compile time!" and exit);
 * NCPGlockerFBFixedPoint (fc3d_driver does not dispatch it: "Unknown solver", exit); HP (stalls
 * at 7e-2 on an SPD problem of condition 2); SOCLCP (solves the associated law, without the De
 * Saxce term: not solved on that same problem); NSGS with the local solvers NCPGlockerFBNewton
 * ("stack smashing detected", abort), ProjectionOnConeWithDiagonalization (stalls near 1e-4) and
 * QUARTIC / QUARTIC_NU (fc3d_unitary_enumerative prints every failed local solve on stdout,
 * megabytes per solve, which corrupts `solve --json`); rolling2d NSGS with the ProjectionOnCone
 * local solver (the child dies on a random 20-contact problem); fc2d CPG (stops after 0
 * iterations at error 0.3 on a coupled SPD 2-contact problem, 1e-2 after 1e5 iterations on 8
 * contacts).
 */
#include "siconos_internal.h"

#include "Friction_cst.h"

#define FC3D(id) {[CB_KIND_COULOMB3D] = (id)}
#define FC2D(id) {[CB_KIND_COULOMB2D] = (id)}
#define NO_LOCAL {0}
#define NONE cb_sic_no_options
#define NSGS_OPTIONS cb_sic_nsgs_full_options

/* ---- fc3d_driver: whole-problem solvers (coulomb3d) --------------------------------------- */

CB_SIC_ADAPTER(siconos_nsn_ac, "siconos-nsn-ac",
               "Siconos 4.4 nonsmooth Newton on Alart-Curnier (fc3d NSN_AC), line search",
               NONE, FC3D(SICONOS_FRICTION_3D_NSN_AC), NO_LOCAL, 0, 0, NULL);
CB_SIC_ADAPTER(siconos_nsn_ac_test, "siconos-nsn-ac-test",
               "Siconos 4.4 fc3d NSN_AC_TEST (fc3d_nonsmooth_Newton_AlartCurnier2)",
               NONE, FC3D(SICONOS_FRICTION_3D_NSN_AC_TEST), NO_LOCAL, 0, 0, NULL);
CB_SIC_ADAPTER(siconos_nsn_fb, "siconos-nsn-fb",
               "Siconos 4.4 nonsmooth Newton on Fischer-Burmeister (fc3d NSN_FB)",
               NONE, FC3D(SICONOS_FRICTION_3D_NSN_FB), NO_LOCAL, 0, 0, NULL);
CB_SIC_ADAPTER(siconos_nsn_nm, "siconos-nsn-nm",
               "Siconos 4.4 nonsmooth Newton on the natural map (fc3d NSN_NM)",
               NONE, FC3D(SICONOS_FRICTION_3D_NSN_NM), NO_LOCAL, 0, 0, NULL);
CB_SIC_ADAPTER(siconos_prox, "siconos-prox",
               "Siconos 4.4 proximal point with NSN-AC inside (fc3d PROX)",
               NONE, FC3D(SICONOS_FRICTION_3D_PROX), NO_LOCAL, 0, 0, NULL);
CB_SIC_ADAPTER(siconos_tfp, "siconos-tfp",
               "Siconos 4.4 Tresca fixed point (fc3d TFP): a Tresca problem per step",
               NONE, FC3D(SICONOS_FRICTION_3D_TFP), NO_LOCAL, 0, 0, NULL);
CB_SIC_ADAPTER(siconos_pfp, "siconos-pfp",
               "Siconos 4.4 Panagiotopoulos fixed point (fc3d PFP)",
               NONE, FC3D(SICONOS_FRICTION_3D_PFP), NO_LOCAL, CB_SIC_SPARSE, 0, NULL);
CB_SIC_ADAPTER(siconos_dsfp, "siconos-dsfp",
               "Siconos 4.4 De Saxce fixed point (fc3d DSFP)",
               NONE, FC3D(SICONOS_FRICTION_3D_DSFP), NO_LOCAL, 0, 0, NULL);
CB_SIC_ADAPTER(siconos_aclmfp, "siconos-aclmfp",
               "Siconos 4.4 Acary-Cadoux-Lemarechal-Malick fixed point (fc3d ACLMFP)",
               NONE, FC3D(SICONOS_FRICTION_3D_ACLMFP), NO_LOCAL, 0, 0, NULL);
CB_SIC_ADAPTER(siconos_fpp, "siconos-fpp",
               "Siconos 4.4 fixed-point projection (fc3d FPP)",
               NONE, FC3D(SICONOS_FRICTION_3D_FPP), NO_LOCAL, 0, 0, NULL);
CB_SIC_ADAPTER(siconos_eg, "siconos-eg",
               "Siconos 4.4 extra-gradient (fc3d EG)",
               NONE, FC3D(SICONOS_FRICTION_3D_EG), NO_LOCAL, 0, 0, NULL);
CB_SIC_ADAPTER(siconos_vi_fpp, "siconos-vi-fpp",
               "Siconos 4.4 fixed-point projection on the VI (fc3d VI_FPP)",
               NONE, FC3D(SICONOS_FRICTION_3D_VI_FPP), NO_LOCAL, 0, 0, NULL);
CB_SIC_ADAPTER(siconos_vi_eg, "siconos-vi-eg",
               "Siconos 4.4 extra-gradient on the VI (fc3d VI_EG)",
               NONE, FC3D(SICONOS_FRICTION_3D_VI_EG), NO_LOCAL, 0, 0, NULL);

/* ---- fc3d NSGS with another local solver (rolling: the rolling local solvers) -------------- */

#define NSGS3(local) FC3D(SICONOS_FRICTION_3D_NSGS), FC3D(local)

CB_SIC_ADAPTER(siconos_nsgs_nsn, "siconos-nsgs-nsn",
               "Siconos 4.4 NSGS, local nonsmooth Newton (ONECONTACT_NSN)",
               NSGS_OPTIONS, NSGS3(SICONOS_FRICTION_3D_ONECONTACT_NSN), 0, 0, cb_sic_configure_nsgs_full);
CB_SIC_ADAPTER(siconos_nsgs_nsn_gp, "siconos-nsgs-nsn-gp",
               "Siconos 4.4 NSGS, local nonsmooth Newton with line search (ONECONTACT_NSN_GP)",
               NSGS_OPTIONS, NSGS3(SICONOS_FRICTION_3D_ONECONTACT_NSN_GP), 0, 0,
               cb_sic_configure_nsgs_full);
CB_SIC_ADAPTER(siconos_nsgs_pli, "siconos-nsgs-pli",
               "Siconos 4.4 NSGS, local projection with local iteration "
               "(ProjectionOnConeWithLocalIteration)",
               NSGS_OPTIONS, NSGS3(SICONOS_FRICTION_3D_ONECONTACT_ProjectionOnConeWithLocalIteration), 0,
               0, cb_sic_configure_nsgs_full);
CB_SIC_ADAPTER(siconos_nsgs_pcr, "siconos-nsgs-pcr",
               "Siconos 4.4 NSGS, local regularised projection "
               "(ProjectionOnConeWithRegularization)",
               NSGS_OPTIONS, NSGS3(SICONOS_FRICTION_3D_ONECONTACT_ProjectionOnConeWithRegularization), 0,
               0, cb_sic_configure_nsgs_full);
CB_SIC_ADAPTER(siconos_nsgs_pc, "siconos-nsgs-pc",
               "Siconos 4.4 NSGS, local plain projection (ProjectionOnCone; rolling3d: the "
               "rolling cone's)",
               NSGS_OPTIONS,
               {[CB_KIND_COULOMB3D] = SICONOS_FRICTION_3D_NSGS,
                [CB_KIND_ROLLING3D] = SICONOS_ROLLING_FRICTION_3D_NSGS},
               {[CB_KIND_COULOMB3D] = SICONOS_FRICTION_3D_ONECONTACT_ProjectionOnCone,
                [CB_KIND_ROLLING3D] = SICONOS_ROLLING_FRICTION_3D_ONECONTACT_ProjectionOnCone},
               0, 0, cb_sic_configure_nsgs_full);

/* ---- fc2d_driver (coulomb2d) --------------------------------------------------------------- */

CB_SIC_ADAPTER(siconos_fc2d_lemke, "siconos-fc2d-lemke",
               "Siconos 4.4 fc2d Lemke (the 2D problem as an LCP, lexicographic Lemke)",
               NONE, FC2D(SICONOS_FRICTION_2D_LEMKE), NO_LOCAL, CB_SIC_DENSE | CB_SIC_SAME_MU, 0,
               NULL);
CB_SIC_ADAPTER(siconos_fc2d_enum, "siconos-fc2d-enum",
               "Siconos 4.4 fc2d enumeration (the 2D problem as an LCP, every complementarity "
               "case)",
               NONE, FC2D(SICONOS_FRICTION_2D_ENUM), NO_LOCAL, CB_SIC_DENSE | CB_SIC_SAME_MU, 6,
               NULL);

/* ---- gfc3d_driver / g_rolling_fc3d_driver: global solvers on M, H (global files only) ----- */

#define GFC3D(id) {[CB_KIND_COULOMB3D] = (id)}
#define GLOBAL_ROW(IDENT, NAME, SUMMARY, ID)                                                   \
    CB_SIC_ADAPTER(IDENT, NAME, SUMMARY, NONE, GFC3D(ID), NO_LOCAL, CB_SIC_GLOBAL, 0, NULL)

CB_SIC_ADAPTER(siconos_global_nsgs_wr, "siconos-global-nsgs-wr",
               "Siconos 4.4 global NSGS_WR (gfc3d / g_rolling_fc3d): condensed by Siconos, then "
               "its local NSGS",
               NONE,
               {[CB_KIND_COULOMB3D] = SICONOS_GLOBAL_FRICTION_3D_NSGS_WR,
                [CB_KIND_ROLLING3D] = SICONOS_GLOBAL_ROLLING_FRICTION_3D_NSGS_WR},
               NO_LOCAL, CB_SIC_GLOBAL, 0, NULL);
GLOBAL_ROW(siconos_global_nsgs, "siconos-global-nsgs",
           "Siconos 4.4 global NSGS (gfc3d NSGS) on M, H", SICONOS_GLOBAL_FRICTION_3D_NSGS);
GLOBAL_ROW(siconos_global_prox_wr, "siconos-global-prox-wr",
           "Siconos 4.4 global PROX_WR (gfc3d): condensed, then local PROX",
           SICONOS_GLOBAL_FRICTION_3D_PROX_WR);
GLOBAL_ROW(siconos_global_dsfp_wr, "siconos-global-dsfp-wr",
           "Siconos 4.4 global DSFP_WR (gfc3d): condensed, then local DSFP",
           SICONOS_GLOBAL_FRICTION_3D_DSFP_WR);
GLOBAL_ROW(siconos_global_tfp_wr, "siconos-global-tfp-wr",
           "Siconos 4.4 global TFP_WR (gfc3d): condensed, then local TFP",
           SICONOS_GLOBAL_FRICTION_3D_TFP_WR);
GLOBAL_ROW(siconos_global_nsn_ac_wr, "siconos-global-nsn-ac-wr",
           "Siconos 4.4 global NSN_AC_WR (gfc3d): condensed, then local NSN-AC",
           SICONOS_GLOBAL_FRICTION_3D_NSN_AC_WR);
GLOBAL_ROW(siconos_global_nsn_ac, "siconos-global-nsn-ac",
           "Siconos 4.4 global nonsmooth Newton on Alart-Curnier (gfc3d NSN_AC) on M, H",
           SICONOS_GLOBAL_FRICTION_3D_NSN_AC);
GLOBAL_ROW(siconos_global_vi_fpp, "siconos-global-vi-fpp",
           "Siconos 4.4 global VI fixed-point projection (gfc3d VI_FPP)",
           SICONOS_GLOBAL_FRICTION_3D_VI_FPP);
GLOBAL_ROW(siconos_global_vi_eg, "siconos-global-vi-eg",
           "Siconos 4.4 global VI extra-gradient (gfc3d VI_EG)", SICONOS_GLOBAL_FRICTION_3D_VI_EG);
GLOBAL_ROW(siconos_global_aclmfp, "siconos-global-aclmfp",
           "Siconos 4.4 global ACLM fixed point (gfc3d ACLMFP)", SICONOS_GLOBAL_FRICTION_3D_ACLMFP);
GLOBAL_ROW(siconos_global_admm, "siconos-global-admm",
           "Siconos 4.4 global ADMM (gfc3d ADMM) on M, H", SICONOS_GLOBAL_FRICTION_3D_ADMM);
GLOBAL_ROW(siconos_global_admm_wr, "siconos-global-admm-wr",
           "Siconos 4.4 global ADMM_WR (gfc3d): condensed, then local ADMM",
           SICONOS_GLOBAL_FRICTION_3D_ADMM_WR);
CB_SIC_ADAPTER(siconos_global_ipm, "siconos-global-ipm",
               "Siconos 4.4 global interior point (gfc3d IPM) on M, H: the convex relaxation",
               NONE,
               GFC3D(SICONOS_GLOBAL_FRICTION_3D_IPM), NO_LOCAL, CB_SIC_GLOBAL | CB_SIC_MUTE, 0,
               NULL);
