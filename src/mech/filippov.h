/* conebench — extended-Filippov limit-direction analysis of a rigid body rolling on a fixed plane
 * (Antali & Stepan, Nonlinear Dyn. 97 (2019) 1799–1817, cited below as "AS").
 *
 * Frame: (t1, t2, n), n the plane's upward normal, t1 × t2 = n; every vector below is given by
 * its components in this frame at the analysed state. The slip velocity of the contact point is
 * v_P = u1 t1 + u2 t2; the body rolls when u1 = u2 = 0 (the discontinuity Σ, AS eq. 30). Near Σ
 * the slipping equations read (AS eq. 29, 32)
 *
 *     ẋ → F(φ) = A cos φ + B sin φ + C     as u = |u| (cos φ, sin φ), |u| → 0,
 *
 * with x = (u1, u2, ω1, ω2, ω3). A, B, C are derived here from the Newton–Euler equations
 * (AS eq. 10–11) of a body given by its mass, inertia tensor, r_PC, radius-of-curvature tensor,
 * μ, external force/torque and angular velocity: writing v̇_P = W F_P + b and ω̇ = G F_P + h
 * (W, G, b, h from eq. 10–11; W is the contact point's Delassus matrix), the friction force of
 * slipping F_P = N (n − μ (cos φ t1 + sin φ t2)) (eq. 17) gives
 *
 *     A = −μ N (W e1, G e1),  B = −μ N (W e2, G e2),  C = (b + N W n, h + N G n)  (+ frame terms)
 *
 * restricted to (t1, t2) for the u-rows. N is the normal force of the rolling state (so that
 * AS Theorem 4 holds exactly), unless the caller fixes it. When W_nt ≠ 0 the normal force of
 * slipping depends on φ: N(φ) = −b_n / (W_nn − μ W_nt·d(φ)); the exact directional limits are
 * then F(φ) = (Ã cos φ + B̃ sin φ + C̃) / (d0 + dc cos φ + ds sin φ), also computed (AS treat N
 * as a fixed coefficient; conebench reports the difference).
 *
 * Wheel normalisation (AS §6): re-deriving AS eq. 62 from eq. 10–11 for a thin disk
 * (J = mρ²/4, mρ²/2, mρ²/4) confirms C1 = −2 M_d / (m ρ). AS eq. 69–70 as printed and the
 * quoted special values |M_d| = 3, 2, 0.459 μ m g ρ use C1 = −M_d / (m ρ) instead (a factor 2).
 * conebench uses eq. 62: M_d is the physical driving torque; the boundaries are
 * (2M_d/(mρ))² + (3ρω2ω3)² = (3gμ)² and |2M_d/(mρ)|^(2/3) + |ρω2ω3|^(2/3) = (2gμ)^(2/3), and the
 * special values are |M_d| = 1.5, 1 and 0.2296 μ m g ρ (AS's numbers are those of 2|M_d|).
 */
#ifndef CONEBENCH_FILIPPOV_H
#define CONEBENCH_FILIPPOV_H

#include "conebench/common.h"

/* ------------------------------------------------------------------ planar limit field */

/* The (u1, u2) rows of F(φ): F1 = A1 cos φ + B1 sin φ + C1, F2 = A2 cos φ + B2 sin φ + C2
 * (AS eq. 33). */
typedef struct {
    double A1, A2, B1, B2, C1, C2;
} cb_fil_coef;

/* A planar limit field (num(φ)) / den(φ) with num given by cb_fil_coef and a positive scalar
 * den(φ) = d0 + dc cos φ + ds sin φ (1, 0, 0 for AS's decomposition; N(φ)-scaling for the
 * exact limits). */
typedef struct {
    cb_fil_coef num;
    double d0, dc, ds;
} cb_fil_field;

/* A truncated Fourier series c0 + c1 cos φ + s1 sin φ + c2 cos 2φ + s2 sin 2φ. */
typedef struct {
    double c0, c1, s1, c2, s2;
} cb_fil_trig2;

typedef enum {
    CB_FIL_DEGENERATE = 0, /* on a boundary of Table 3 (3 directions, R = 0) or V ≡ 0 */
    CB_FIL_CASE_I = 1,     /* 2 attracting directions */
    CB_FIL_CASE_II = 2,    /* 4 attracting */
    CB_FIL_CASE_III = 3,   /* 1 attracting + 1 repelling */
    CB_FIL_CASE_IV = 4     /* 3 attracting + 1 repelling */
} cb_fil_case;

const char *cb_fil_case_name(cb_fil_case c); /* "I".."IV", "degenerate" */

#define CB_FIL_MAX_DIR 4

typedef struct {
    double phi;           /* slip direction in (t1, t2), [0, 2π) */
    double R;             /* radial component R(φ) (AS eq. 25; scaled by den for exact fields) */
    double dV;            /* dV/dφ at the root (same scaling) */
    int attracting;       /* R < 0 (AS Def. 3) */
    int angularly_stable; /* dV/dφ < 0 (AS Def. 5) */
} cb_fil_direction;

typedef struct {
    int continuum;        /* V ≡ 0: every φ is a limit direction (AS Thm 2 point 4) */
    int ndir;             /* number of limit directions (roots of V), 0 if continuum */
    cb_fil_direction dir[CB_FIL_MAX_DIR]; /* sorted by φ */
    int nrepelling;
    int on_boundary;      /* a root with R ≈ 0 or dV/dφ ≈ 0 (a boundary of Table 3) */
    cb_fil_case kase;     /* from ndir and nrepelling (Table 3) */
} cb_fil_dirset;

typedef struct {
    double root_tol;       /* accept a refined root when |V| ≤ root_tol · scale (1e-10) */
    double zero_tol;       /* relative size under which R, dV/dφ, V count as zero (1e-9) */
    double imag_tol;       /* companion eigenvalues with |Im| ≤ imag_tol (1 + |Re|) are tried (1e-6) */
    int newton_max_iter;   /* Newton iterations per root (60) */
} cb_fil_settings;

void cb_fil_settings_default(cb_fil_settings *s);

/* R(φ) = ⟨F(φ), n(φ)⟩ and V(φ) = ⟨F(φ), n(φ + π/2)⟩ of the numerator (AS eq. 34–35). */
void cb_fil_radial(const cb_fil_coef *c, cb_fil_trig2 *R);
void cb_fil_circumferential(const cb_fil_coef *c, cb_fil_trig2 *V);
double cb_fil_trig2_eval(const cb_fil_trig2 *p, double phi);
double cb_fil_trig2_deriv(const cb_fil_trig2 *p, double phi);

/* Every root in [0, 2π) of a nonzero trig2 (at most 4): eigenvalues of the 4×4 companion matrix
 * of the quartic in t = tan((φ − φ0)/2) (LAPACKE dhseqr), refined by Newton on p(φ). scale is
 * the size of the quantities p was made of (for the tolerances). *nroots = −1 when p ≡ 0. */
int cb_fil_trig2_roots(const cb_fil_trig2 *p, double scale, const cb_fil_settings *s,
                       double roots[CB_FIL_MAX_DIR], int *nroots, cb_error *err);

/* Limit directions of a planar field and their type (AS Def. 2, 3, 5; Table 3). */
int cb_fil_directions(const cb_fil_field *f, const cb_fil_settings *s, cb_fil_dirset *out,
                      cb_error *err);

typedef struct {
    cb_fil_coef input;     /* as given */
    double delta;          /* rotation of AS Prop. 3 (eq. 40–41), |δ| ≤ π/4 */
    cb_fil_coef reduced;   /* after the rotation: A2 = B1 = 0 (eq. 42) */
    double symmetry_defect;/* |A2 − B1| / scale of the input (0 for a body: AS Prop. 1) */
    double fold_margin;    /* (|C1|^⅔ + |C2|^⅔) / |B2 − A1|^⅔ − 1, reduced (eq. 46; > 0: 2 dirs) */
    double repel_margin;   /* C1²/A1² + C2²/B2² − 1, reduced (eq. 48; > 0: a repelling dir) */
    cb_fil_case kase_criteria; /* Theorems 2 and 3 from the two margins */
    cb_fil_dirset dirs;    /* directions in the input frame (φ_reduced = φ − δ) */
    double weights[2];     /* (α, β): α A + β B + C = 0 on the u-rows (eq. 56) */
    double weight_norm;    /* √(α² + β²); ≤ 1 iff F_Σ is a convex combination (eq. 55) */
} cb_fil_analysis;

/* Rotation, criteria, directions and sliding weights of AS's decomposition. */
int cb_fil_analyze(const cb_fil_coef *c, const cb_fil_settings *s, cb_fil_analysis *out,
                   cb_error *err);

/* ------------------------------------------------------------------ bodies */

typedef enum {
    CB_FIL_COULOMB = 0,  /* μ0 = μ (AS Theorem 4) */
    CB_FIL_STICTION = 1, /* slipping with μ, static limit μ0 (AS Fig. 10 top right) */
    CB_FIL_STRIBECK = 2  /* μ̃(|v|) = (μ0 − μ) e^(−γ|v|) + μ (eq. 59–61, Prop. 10) */
} cb_fil_friction_law;

typedef struct {
    cb_fil_friction_law law;
    double mu;        /* dynamic coefficient, > 0 */
    double mu_static; /* μ0 (stiction, Stribeck); ignored for Coulomb */
    double gamma;     /* Stribeck decay rate (s/m), > 0 */
} cb_fil_friction;

/* Friction law valid: mu > 0; mu0 > 0 (stiction, Stribeck); gamma > 0 (Stribeck). */
int cb_fil_friction_check(const cb_fil_friction *f, cb_error *err);

/* A rigid body touching the plane at one point P, at the analysed instant. */
typedef struct {
    double mass;          /* m > 0 */
    double inertia[3][3]; /* J about C (symmetric positive definite) */
    double r_pc[3];       /* C − P, with r_pc[2] > 0 (C above the plane) */
    double curv_radius[2][2]; /* radius-of-curvature tensor of the body surface at P on (t1,t2):
                               * the contact point moves over the body at w_P = ρ (ω × n)
                               * (AS eq. 5; ρ I for a sphere, diag(ρ, 0) for a disk edge);
                               * symmetric positive semidefinite */
    double omega[3];      /* angular velocity */
    double force[3];      /* F_C, external force at C (gravity included) */
    double torque[3];     /* T_C, external torque about C */
    cb_fil_friction friction;
    int frame_spins;      /* 1: (t1, t2) turn with the body about n (Ω = ω3), as the wheel's frame
                           * fixed to its axis (AS §6); 0: world-fixed frame */
    int level_axis;       /* 1: a balancing torque keeps the body axis `axis` at its inclination
                           * (AS §6's M_b; needs ω · (axis × n) = 0) */
    double axis[3];       /* that axis (not parallel to n) */
    double normal_force;  /* N in A, B, C; NaN or ≤ 0: the rolling normal force */
} cb_fil_body;

/* The contact point's dynamics: v̇_P = W F_P + b (AS eq. 11), ω̇ = G F_P + h (eq. 10), both in the
 * (possibly spinning) frame, with the balancing constraint eliminated. */
typedef struct {
    double W[3][3], b[3];
    double G[3][3], h[3];
} cb_fil_maps;

/* Validate a body (names the field) and build its maps. */
int cb_fil_body_check(const cb_fil_body *b, cb_error *err);
int cb_fil_body_maps(const cb_fil_body *b, cb_fil_maps *m, cb_error *err);

typedef struct {
    double force[3];    /* F_P of rolling (v̇_P = 0): friction (t1, t2) and N */
    double friction;    /* |F_f| */
    double normal;      /* N */
    double ratio;       /* |F_f| / (μ0 N) */
    int admissible;     /* |F_f| < μ0 N (AS eq. 58) */
    double omega_dot[3];/* ω̇ of rolling (in the frame) */
} cb_fil_rolling;

/* Rolling (static) contact force from v̇_P = 0. */
int cb_fil_rolling_solve(const cb_fil_body *b, const cb_fil_maps *m, cb_fil_rolling *out,
                         cb_error *err);

/* A state rate: (u̇1, u̇2) and the frame components of ω̇. */
typedef struct {
    double u[2];
    double w[3];
} cb_fil_rate;

typedef struct {
    cb_fil_maps maps;
    cb_fil_rolling rolling;
    double N;              /* normal force used in A, B, C */
    double mu_limit;       /* coefficient of the limit field: μ, or μ0 for Stribeck (Prop. 10) */
    cb_fil_rate A, B, C;   /* AS eq. 32 in the input frame */
    cb_fil_analysis paper; /* AS's analysis of (A, B, C) */
    cb_fil_rate F_sigma;   /* sliding vector (eq. 56): ω̇ of rolling, u-rows 0 */
    int theorem4_holds;    /* rolling.admissible ⇔ no repelling direction (AS Thm 4 / Prop. 10) */
    /* exact directional limits with N(φ) from the normal constraint */
    int exact_valid;       /* N(φ) > 0 and den(φ) > 0 for all φ (no lift-off, no Painlevé) */
    cb_fil_field exact;
    cb_fil_dirset exact_dirs;
    double N_min, N_max;   /* range of N(φ) */
    double exact_diff;     /* max_φ |F_exact(φ) − F(φ)| / max_φ |F(φ)|, u-rows, 256 angles */
    double exact_dir_shift;/* max |φ_exact − φ_paper| over matched directions (same count) */
} cb_fil_report;

int cb_fil_body_analyze(const cb_fil_body *b, const cb_fil_settings *s, cb_fil_report *r,
                        cb_error *err);

/* The full slipping vector field at slip velocity u ≠ 0 (frozen configuration, N from the
 * normal constraint, friction law of b): rate and normal force. */
int cb_fil_slip_rate(const cb_fil_body *b, const double u[2], cb_fil_rate *rate, double *N,
                     cb_error *err);

/* ------------------------------------------------------------------ the wheel (AS §6) */

typedef struct {
    double m, rho, g;   /* mass, radius, gravity (all > 0) */
    double mu;          /* friction coefficient (> 0) */
    double Md, Ms;      /* driving torque about the axis t2, steering torque about n */
    double w2, w3;      /* angular velocity about the axis and about n */
    cb_fil_friction_law law;
    double mu_static, gamma;
} cb_fil_wheel;

void cb_fil_wheel_default(cb_fil_wheel *w); /* m = 1, ρ = 0.5, g = 9.81, μ = 0.3, rest 0 */
int cb_fil_wheel_check(const cb_fil_wheel *w, cb_error *err);
/* The thin disk on its rim, axis t2 kept horizontal, frame fixed to the axis (no wheel
 * formula inside: the generic derivation gives AS eq. 62). */
int cb_fil_wheel_body(const cb_fil_wheel *w, cb_fil_body *b, cb_error *err);
/* AS eq. 68 with C1 = −2 M_d/(m ρ) (eq. 62) — the closed form the generic derivation must match. */
void cb_fil_wheel_coef(const cb_fil_wheel *w, cb_fil_coef *c);
/* Normalised plane of AS Fig. 12: x = M_d / (μ m g ρ), y = ρ ω2 ω3 / (g μ). */
void cb_fil_wheel_xy(const cb_fil_wheel *w, double *x, double *y);
/* The analytic boundaries in that plane: eq. 69 (repelling) and eq. 70 (fold) left-hand side
 * minus right-hand side, each > 0 on the outer side; `printed` = 1 uses the equations as
 * printed in AS (C1 = −M_d/(mρ)), 0 uses eq. 62. */
double cb_fil_wheel_eq69(double x, double y, int printed);
double cb_fil_wheel_eq70(double x, double y, int printed);
/* Case from eq. 69–70 (degenerate within rel_margin of a boundary). */
cb_fil_case cb_fil_wheel_case_analytic(double x, double y, double rel_margin);

/* The special |M_d| / (μ m g ρ) of AS §6 in eq. 62 normalisation: eq. 69 at ω2ω3 = 0 (1.5),
 * eq. 70 at ω2ω3 = 0 (1) and the crossing of the two curves (0.2296…). */
typedef struct {
    double repel_axis, fold_axis, crossing, crossing_y;
} cb_fil_wheel_specials;
void cb_fil_wheel_special_values(cb_fil_wheel_specials *s);

/* ------------------------------------------------------------------ sphere, disk, ellipsoid */

typedef enum { CB_FIL_SPHERE = 0, CB_FIL_DISK = 1, CB_FIL_ELLIPSOID = 2 } cb_fil_shape;

const char *cb_fil_shape_name(cb_fil_shape s);

/* A homogeneous body of a given shape resting on the plane (default gravity −m g n). */
typedef struct {
    cb_fil_shape shape;
    double mass;
    double radius;      /* sphere, disk */
    double thickness;   /* disk (inertia only; the contact is on the rim's mid-circle) */
    double semi[3];     /* ellipsoid semi-axes a, b, c along the body x, y, z axes */
    double roll, pitch, yaw; /* orientation R = Rz(yaw) Ry(pitch) Rx(roll), body → (t1,t2,n);
                              * the disk's axis is the body y axis (roll tilts it) */
    double g;           /* gravity, ≥ 0 */
    double omega[3];
    double force[3];    /* extra force at C (added to gravity) */
    double torque[3];
    cb_fil_friction friction;
    int balance;        /* disk: keep its axis' inclination (wheel-like balancing torque) */
    int frame_spins;
    double normal_force;/* NaN: rolling normal force */
} cb_fil_shape_state;

void cb_fil_shape_state_default(cb_fil_shape_state *s); /* sphere R = 0.1, m = 1, μ = 0.3 */
int cb_fil_shape_body(const cb_fil_shape_state *s, cb_fil_body *b, cb_error *err);

/* ------------------------------------------------------------------ slipping near Σ */

typedef struct {
    double radius;       /* |u| of the start points (m/s) */
    int nstart;          /* start points on the circle */
    double stop_ratio;   /* stop when |u| < stop_ratio · radius (Σ reached) */
    double escape_ratio; /* stop when |u| > escape_ratio · radius */
    double step_ratio;   /* step h = step_ratio · |u| / |u̇| (RK4) */
    int max_steps;
    int backward;        /* also integrate each start point backward in time */
} cb_fil_sim_settings;

void cb_fil_sim_settings_default(cb_fil_sim_settings *s);

/* Called for every point: trajectory index, time (negative backward), slip velocity. A nonzero
 * return stops the simulation (returned as CB_ERR_IO). */
typedef int (*cb_fil_point_fn)(void *ctx, int traj, double t, const double u[2]);

/* Integrate the slipping equations (frozen configuration, ω evolving) from points on a circle
 * of slip velocities around Σ; trajectories end when they reach Σ or leave the disk. */
int cb_fil_simulate(const cb_fil_body *b, const cb_fil_sim_settings *s, cb_fil_point_fn fn,
                    void *ctx, cb_error *err);

#endif
