/* conebench — closed-form mechanics used to check the models (Acary & Bourrier §6.1).
 *
 * A rigid sphere (radius R, I = k m R², k = 2/5) on a horizontal plane with Coulomb friction μ
 * and rolling resistance μ_r (a length): centre velocity U along x, angular velocity Ω about y,
 * slip s = U − RΩ, normal force N = m g. Per unit mass, with f = F/m (friction) and
 * τ = M/m (rolling moment):  U̇ = f,  Ω̇ = (−R f + τ)/(k R²),  |f| ≤ μ g,  |τ| ≤ μ_r g.
 * The motion is piecewise uniformly accelerated; cb_sphere_plane_solve computes the phases
 * exactly (event-driven: s = 0 or Ω = 0), see models/analytic.c for the phase rules.
 */
#ifndef CONEBENCH_ANALYTIC_H
#define CONEBENCH_ANALYTIC_H

#include "conebench/common.h"

typedef struct {
    double R;         /* radius (m) */
    double U0, W0;    /* initial U (m/s) and Ω (rad/s) */
    double mu, mu_r;  /* μ, μ_r (m) */
    double g;         /* gravity (m/s², > 0) */
    double k;         /* I/(m R²), 2/5 for a solid sphere */
} cb_sphere_plane_params;

void cb_sphere_plane_params_default(cb_sphere_plane_params *p); /* config a, g = 9.81 */

typedef enum {
    CB_SP_SLIDE_ROLL = 0, /* s ≠ 0 and Ω ≠ 0: f = −μ g sgn s, τ = −μ_r g sgn Ω */
    CB_SP_SLIDE = 1,      /* s ≠ 0, Ω held at 0 by the rolling moment (τ = R f) */
    CB_SP_ROLL = 2,       /* s = 0 held by friction, Ω ≠ 0: Ω̇ = τ/((1 + k) R²) */
    CB_SP_REST = 3        /* U = Ω = 0 */
} cb_sphere_plane_mode;

#define CB_SP_MAX_PHASES 16

typedef struct {
    cb_sphere_plane_mode mode;
    double t0, x0, U0, W0; /* start of the phase */
    double a, alpha;       /* U̇ and Ω̇ during the phase */
} cb_sphere_plane_phase;

typedef struct {
    int nphases;
    cb_sphere_plane_phase phase[CB_SP_MAX_PHASES];
    int stops;             /* the sphere comes to rest before t_max */
    double t_stop, x_stop; /* when it does (NaN otherwise) */
} cb_sphere_plane_solution;

/* The exact motion on [0, t_max]. Validates the parameters (names the field). */
int cb_sphere_plane_solve(const cb_sphere_plane_params *p, double t_max,
                          cb_sphere_plane_solution *out, cb_error *err);
/* x(t), U(t), Ω(t) (any may be NULL); t beyond the last phase extrapolates it. */
void cb_sphere_plane_eval(const cb_sphere_plane_solution *s, double t, double *x, double *U,
                          double *W);

#endif
