/* conebench — compliant, history-based friction models (Fang & Negrut).
 *
 * cb_compliant_run runs a scenario description (scenario.h) with
 *   CB_COMPLIANT_FANG    the Fang & Negrut model: contact-point tracking (C_i0/C_i1 on each body,
 *                        projection of the old point onto the tangent plane at geodesic distance,
 *                        p_i, p_j, the contact frame continued as in App. B, spin angle ψ), slide
 *                        micro-deflection S with static/kinetic modes and a-posteriori capping
 *                        (eq. 1a–1c), roll (eq. 2, 2a–2c, Table 1, D_R = 2√(I K_R)), spin (eq. 3,
 *                        3a–3d; Hertz variant of App. C). Damping acts in static mode only (§5).
 *   CB_COMPLIANT_LEGACY  the same with the constant-torque rolling model of eq. (8):
 *                        M_r = −ω_rel/‖ω_rel‖ μ_r R_eff F_n on body j.
 *   CB_COMPLIANT_EDEM    the same with EDEM's spinning model: M = (2/3) μ_k F_n R_disk,
 *                        R_disk = √(A/π) (Hertz contact area A = π a²), limited to
 *                        C_safety |ω_rel,n| min(I)/Δt, plus rocking damping −(γ_n/4) R_disk² ω_rel,t.
 * with the half-implicit symplectic Euler of §4: v₁ = v₀ + Δt a₀, x₁ = x₀ + Δt v₁ (q₁ = exp(Δt ω₁/2) q₀),
 * friction loads at t₁ from the kinematics between t₀ and t₁.
 *
 * Normal force: CB_NORMAL_GIVEN (N = −m g·n, the analytic value of a body resting on a plane, the
 * body kept on it), CB_NORMAL_HOOKE (N = k_n δ + c_n δ̇), CB_NORMAL_HERTZ (N = (4/3) E_eff √R_eff δ^{3/2}
 * plus the restitution damping of Chrono's SMC Hertz model). The summary of a run comes from the
 * body states (cb_observer_*), plus model statistics (kinetic-phase loads, switch times).
 *
 * Mapping to the rigid models (man conebench, MODELS): the kinetic rolling torque on a sphere
 * on a plane is 2η_r R μ_k N, so when eta_r is not given it is taken as μ_r/(2 μ_k R) of the scenario; μ_k is the
 * scenario's μ; η_ψ (heuristic spin) as μ_s/(μ_k R) (the scenario's μ_s is a length).
 */
#ifndef CONEBENCH_COMPLIANT_H
#define CONEBENCH_COMPLIANT_H

#include "scenario.h"

/* Fang & Negrut §4.4, Table 5 "Sphere parameters" (SI): the steel spheres (#1 R = 0.02, #2
 * R = 0.04) and the glass one (#3 R = 0.02). Steel is also the ellipsoids' material (§4.5.2)
 * and the default of the Hertz normal law (E, ν). */
#define CB_STEEL_RHO 8000
#define CB_STEEL_E 2e11
#define CB_STEEL_NU 0.3
#define CB_GLASS_RHO 2500
#define CB_GLASS_E 5e10
#define CB_GLASS_NU 0.2

typedef enum {
    CB_COMPLIANT_FANG = 0,
    CB_COMPLIANT_LEGACY = 1,
    CB_COMPLIANT_EDEM = 2
} cb_compliant_variant;

typedef enum {
    CB_NORMAL_GIVEN = 0,
    CB_NORMAL_HOOKE = 1,
    CB_NORMAL_HERTZ = 2
} cb_normal_law;

typedef enum {
    CB_MODE_STATIC = 0, /* stick */
    CB_MODE_KINETIC = 1 /* slip */
} cb_friction_mode;

/* Settings. NAN in an optional field means "derive it" as the comment says. */
typedef struct {
    cb_compliant_variant variant;
    double dt;          /* Δt (default 1e-4 s, all of Fang §4) */
    double t_end;       /* > 0 overrides the scenario's horizon */
    double mu_s;        /* static friction (default 0.25); NAN: the scenario's μ */
    double mu_k;        /* kinetic friction; NAN (default): the scenario's μ */
    double K_E;         /* slide stiffness (N/m, default 1e5) */
    double K_D;         /* slide damping (N·s/m); NAN: kd_factor·√(m_ij K_E) */
    double kd_factor;   /* 2 = critical (eq. 1c, default); Fig. 10 uses 1 */
    double eta_r;       /* roll resistance; NAN: μ_r/(2 μ_k R) of the scenario */
    double dr_factor;   /* D_R = dr_factor·√(I K_R) (2 = critical, default) */
    int roll_identical; /* 1: partner curvature = own curvature in eq. 2b/2c (Table 1
                           "identical" row; Fang's disk, Table 3: K_r = η_r R² K_E = 1600) */
    int spin_hertz;     /* 0: heuristic K, η_ψ (eq. 3c); 1: Hertz (App. C) */
    double eta_psi;     /* heuristic spin coefficient; NAN: μ_s^{scen}/(μ_k R) */
    double spin_K;      /* heuristic spin curvature 𝒦 (default 5 = 1/R of §4.4); NAN: mean curvature */
    double dpsi_factor; /* D_ψ = dpsi_factor·√(I K_ψ) (default 2, eq. 3d) */
    cb_normal_law normal;
    double k_n, c_n;    /* Hooke stiffness (default 1e7) and damping (default 0) */
    double E, nu;       /* Young's modulus and Poisson ratio of the bodies (Hertz, App. C) */
    double E_ground;    /* plane's modulus; 0 (default): rigid plane, E_eff = E/(1−ν²) */
    double e_rest;      /* restitution of the Hertz damping (default 0.4) */
    double mu_r_legacy; /* eq. 8 coefficient (default 0.1, Fang §4.2) */
    double c_safety;    /* EDEM limiter (0.125) */
    double gamma_n;     /* EDEM rocking damping γ_n; NAN: the Hertz normal damping */
    double creep_tol;   /* brick: "slip" when it travelled more than this (m), default 1e-4 */
    int lock_rotation_box; /* boxes translate only (the brick of §4.1; default 1) */
} cb_compliant_settings;

void cb_compliant_settings_default(cb_compliant_settings *s);
/* Validate (names the field). */
int cb_compliant_settings_check(const cb_compliant_settings *s, cb_error *err);

/* Friction state of one contact, all in the continued contact frame (n, u, w). */
typedef struct {
    int i, j;                /* bodies (i: the plane or lower index) */
    int active;
    double n[3], u[3], w[3]; /* frame at the end of the step (world) */
    double point[3];         /* contact point C_i1 (world) */
    double N;                /* normal force */
    double delta;            /* penetration (m) */
    double S[2];             /* slide micro-deflection (u, w components) */
    double dS[2];            /* its last increment p_i − p_j */
    double Theta[2][2];      /* roll micro-deflection of body i [0] and j [1] */
    double Psi, psi;         /* spin micro-deflection and last spin angle */
    cb_friction_mode slide, roll[2], spin;
    double F_E[3], F_D[3];   /* elastic and damping slide force on body j (world) */
    double T_E[2][3], T_D[2][3]; /* elastic and damping roll torque on body i, j */
    double T_spin_E, T_spin_D;   /* spin torque on body j about n (elastic, damping) */
    double K_R[2], K_psi, S_psi_s, S_psi_k, spin_curv, a_hertz; /* parameters of this step */
    double kappa[2];         /* curvatures of i and j along their p */
    /* tracked points and frames (body-local) */
    double Ci0[3], Cj0[3], ui0[3], wi0[3], uj0[3], wj0[3];
} cb_compliant_contact;

/* Statistics of a run (primary contact: the scenario's first pair, else the first contact). */
typedef struct {
    long steps;
    long long contact_steps;  /* Σ over steps of active contacts */
    double t, time_s;
    cb_scenario_summary summary;   /* from body states (cb_observer_*) */
    double Ef_kinetic, TE_kinetic, T_spin_kinetic; /* means over kinetic steps (NAN: none) */
    double Ef_max, TE_max, T_spin_E_max;           /* maxima of the elastic loads */
    double t_slide_kinetic;   /* first time the slide mode became kinetic (NAN: never) */
    double t_slide_static;    /* first kinetic → static switch (the disk's switch to rolling) */
    double accel;             /* down-travel acceleration fitted while slide-kinetic (NAN) */
    double travel;            /* (x − x₀)·travel of the subject at the end */
    cb_friction_mode slide_end, roll_end, spin_end;
    double eta_r, K_R, D_R, K_psi, S_psi_s, S_psi_k, spin_curv, a_hertz, K_D, N0;
    double up_angle;          /* ellipsoid: angle of the body z axis from the vertical (rad) */
} cb_compliant_result;

/* Called after every step with all contacts; return nonzero to stop. */
typedef int (*cb_compliant_hook)(void *ctx, double t, const cb_body *bodies, int nbodies,
                                 const cb_compliant_contact *c, int nc);

int cb_compliant_run(const cb_scenario *scen, const cb_compliant_settings *s,
                     cb_compliant_hook hook, void *ctx, cb_compliant_result *res, cb_error *err);

const char *cb_compliant_variant_name(cb_compliant_variant v); /* "compliant", ... */
const char *cb_friction_mode_name(cb_friction_mode m);         /* "static", "kinetic" */

/* Spin parameters of App. C (Hertz) for normal force N on a body of mean curvature K on a rigid
 * plane: a = (3 N R_eff/(4 E_eff))^{1/3}, R_eff = 1/K, E_eff = E/(1−ν²); K_ψ = a² K_E/2,
 * S_ψ^s = μ_s N/(K_E a), max T = K_ψ S_ψ^s (Table 7). */
typedef struct {
    double a, K_psi, S_psi_s, T_max;
} cb_hertz_spin;
void cb_hertz_spin_params(double N, double K, double E, double nu, double K_E, double mu_s,
                          cb_hertz_spin *out);

#endif
