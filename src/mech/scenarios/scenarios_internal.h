/* conebench — the scenario definitions and the helpers their builders share (src/mech/
 * scenarios/, internal). */
#ifndef CONEBENCH_SCENARIOS_INTERNAL_H
#define CONEBENCH_SCENARIOS_INTERNAL_H

#include "scenario_registry.h"

extern const cb_scenario_def cb_scenario_sphere_plane;   /* spheres.c */
extern const cb_scenario_def cb_scenario_sphere_incline; /* spheres.c */
extern const cb_scenario_def cb_scenario_sphere_spin;    /* spheres.c */
extern const cb_scenario_def cb_scenario_disk_rolling;   /* spheres.c */
extern const cb_scenario_def cb_scenario_three_spheres;  /* spheres.c */
extern const cb_scenario_def cb_scenario_sphere_pile;    /* pile.c */
extern const cb_scenario_def cb_scenario_brick_incline;  /* fang.c */
extern const cb_scenario_def cb_scenario_ellipsoid;      /* fang.c */
extern const cb_scenario_def cb_scenario_ellipsoid_spin; /* fang.c */

/* The materials of Fang & Negrut's Table 5 (CB_STEEL_*, CB_GLASS_*): src/mech/compliant.h. */
/* Fang & Negrut §4.5.1, Table 6 "Ellipsoid parameters": slide stiffness K_E (N/m). */
#define CB_ELLIPSOID_K_E 1e5

/* The helpers below live in params.c. */
/* Allocate the arrays of s (zeroed) and set the defaults every scenario shares: gravity
 * (0, 0, −CB_GRAVITY), θ = ½, tol 1e-10, stop speed 1e-6 m/s, subject/ground −1. */
int cb_scen_alloc(cb_scenario *s, cb_kind kind, int nbodies, int ntracked, int npairs,
                  cb_error *err);
/* The time grid every scenario takes: h, theta, t_end, tol (in that order). */
int cb_scen_grid(const cb_scenario_params *ps, cb_scenario *s, cb_error *err);
/* Ground plane through the origin, tilted by `incline` (rad) about +y: normal
 * (sin α, 0, cos α), local +x (cos α, 0, −sin α) points down the slope. */
int cb_scen_ground(cb_body *b, double incline, cb_error *err);
/* A sphere of radius r and mass m (m > 0) or density (m ≤ 0: rho) resting on the plane
 * `ground` at in-plane coordinates (a, b) along its local (x, y). */
int cb_scen_sphere_on(cb_body *b, const cb_body *ground, double r, double m, double rho, double a,
                      double bcoord, cb_error *err);

#endif
