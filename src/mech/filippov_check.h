/* conebench — cross-checks 1–2 of the extended-Filippov analysis (Antali & Stepan 2019).
 *
 * What is compared, and why (AS = Antali & Stepan 2019, filippov.h):
 *
 * (1) One Moreau–Jean step. At a rolling state the contact point's dynamics is v̇_P = W F_P + b
 *     (cb_fil_maps, balancing constraint of the wheel eliminated). One Moreau–Jean step of size h
 *     from the slip u0 (u0 = 0: exact rolling) is the one-contact CCP
 *         y = W P + q,  q = (u0, 0) + h (b + Ω-frame term),  P = h F_P ∈ K_μ,  y ⊥ P (De Saxcé),
 *     i.e. W is the contact-space inverse inertia with the rolling rows and q the free velocity
 *     after h — exactly the step a rigid-body time-stepper takes for that body; it is built here
 *     directly from the Filippov maps because the wheel's balancing torque M_b is a constraint
 *     that the rigid-body mechanics (body.h) cannot express. The solver is a registered one
 *     (cb_solver_find, "nsgs" by default), judged as usual.
 *     Theory: a stick solution y_T = 0 exists iff P_stick = h F_roll ∈ K, i.e. |F_f| ≤ μ N (AS
 *     eq. 58); with μ0 = μ this holds iff there is no repelling limit direction (AS Theorem 4),
 *     i.e. iff the case is I or II. A slip solution P_T = −μ P_N d has y_T = h F(φ) (exact limit
 *     field with N from the normal row) and y_T ∥ +d, so its direction is a root of V with R > 0:
 *     a repelling limit direction. So the prediction is "CCP sticks ⇔ case I/II" *from the
 *     rolling state* (plus a perturbation u0 ≪ μ g h, which cannot change the answer), and in
 *     case III/IV the CCP's slip direction is the repelling direction (also checked). Note the
 *     CCP does not "keep" a rolling state of case III/IV: the stick impulse is outside the cone
 *     there, so instability along the repelling direction and inadmissibility of rolling are the
 *     same statement (Theorem 4), not two different ones.
 * (2) Compliant return. The Fang–Negrut slide law (eq. 1a–1c: micro-deflection S, F_T = −K_E S
 *     − K_D u in static mode, capped a posteriori at μ N in kinetic mode, damping in static mode
 *     only), integrated by half-implicit symplectic Euler with the same maps (configuration
 *     frozen, ω evolving), started from the compliant model's own rolling equilibrium
 *     (S0 = −proj_{μN}(F_roll)/K_E) plus a slip u0 = ε d for several directions d. It returns to
 *     rolling (static mode over [T/2, T]: only the model's micro-slip O(μN/K_E) remains, e.g.
 *     Ω × S in the wheel's spinning frame) iff the spring can hold F_roll, i.e. iff case I/II;
 *     in case III/IV it slips and the slip grows (along the repelling direction, reported).
 *
 * "Near the boundary" = |F_f|/(μN) within boundary_margin of 1 (AS eq. 69 for the wheel) or a
 * degenerate case; the fold curve (eq. 70, I ↔ II, III ↔ IV) does not separate stick from slip.
 */
#ifndef CONEBENCH_FILIPPOV_CHECK_H
#define CONEBENCH_FILIPPOV_CHECK_H

#include "filippov.h"
#include "rng.h"

typedef struct {
    double h;              /* Moreau–Jean step (1e-4 s) */
    double ccp_slip;       /* |u0| of the CCP start (1e-9 m/s, random direction; 0: exact) */
    double stick_tol;      /* stick when |y_T| ≤ stick_tol (|u0| + h |b|) (1e-6) */
    const char *solver;    /* registered solver name ("nsgs") */
    double comp_slip;      /* ε: |u0| of the compliant starts (1e-5 m/s) */
    int comp_ndir;         /* start directions on the circle (8) */
    double comp_T;         /* integration time (0.05 s) */
    double comp_dt;        /* Δt (1e-4 s, Fang §4) */
    double K_E;            /* slide stiffness (1e5 N/m) */
    double kd_factor;      /* K_D = kd_factor √(m K_E) (2: critical) */
    int comp_freeze_omega; /* 1 (default): ω frozen at the analysed state during the compliant
                            * run — the analysis classifies that state, while over T the rolling
                            * state itself drifts (the wheel's M_d changes ω2, hence y) and may
                            * cross the boundary; 0: ω evolves (reported as a variant) */
    double boundary_margin;/* near the boundary: | |F_f|/(μN) − 1 | < margin (0.02) */
} cb_fc_settings;

void cb_fc_settings_default(cb_fc_settings *s);
int cb_fc_settings_check(const cb_fc_settings *s, cb_error *err);

typedef struct {
    cb_fil_case kase;      /* AS analysis of the limit field */
    int rolls;             /* case I or II (the prediction: stick / return) */
    double ratio;          /* |F_f| / (μ N) of rolling */
    int near_boundary;     /* excluded from the "away" agreement */
    int ccp_stick;         /* the CCP step ends with y_T ≈ 0 */
    double ccp_slip_speed; /* |y_T| after the step */
    double ccp_dir_err;    /* angle (rad) between y_T and the nearest repelling direction; NaN
                            * when stick or no repelling direction */
    int comp_returned;     /* compliant starts that returned to rolling (of comp_ndir) */
    int comp_roll;         /* all of them returned */
    double comp_dir_err;   /* max angle (rad) between the final slip and the nearest repelling
                            * direction over the starts that slip; NaN if none */
    int agree_ccp, agree_comp;
} cb_fc_result;

/* Both cross-checks at the rolling state of a body (Coulomb friction: μ0 = μ). */
int cb_fc_check_body(const cb_fil_body *b, const cb_fc_settings *s, cb_rng *rng,
                     cb_fc_result *r, cb_error *err);

typedef struct {
    long n, n_away;                  /* samples, samples away from the boundary */
    long agree_ccp, agree_comp;      /* all samples */
    long agree_ccp_away, agree_comp_away;
    long n_rolls;                    /* samples of case I/II */
    double max_ccp_dir_err;          /* over the samples away from the boundary */
} cb_fc_tally;

void cb_fc_tally_add(cb_fc_tally *t, const cb_fc_result *r);

/* A random wheel (AS §6) with (x, y) = (M_d/(μmgρ), ρω2ω3/(gμ)) uniform in [−range, range]²,
 * random m, ρ, μ, M_s and split of ω2ω3; x, y returned. */
int cb_fc_wheel_sample(cb_rng *rng, double range, cb_fil_wheel *w, double *x, double *y,
                       cb_error *err);
/* A random sphere on the plane with a horizontal force and torque at C of up to `load` times
 * the size that saturates friction, and a random ω. */
int cb_fc_sphere_sample(cb_rng *rng, double load, cb_fil_shape_state *s, cb_error *err);

#endif
