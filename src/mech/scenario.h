/* conebench — a mechanical scenario as data, independent of the model that runs it.
 *
 * A scenario lists the bodies with their initial state (and birth times, for pouring), the
 * contact law (cone kind, friction, restitution, detection margin), gravity, the time grid the
 * papers use (h, θ, t_end), what to record (tracked bodies and body pairs for CSV series) and
 * which summary it reports. The nonsmooth model (timestepper.h) runs it; a compliant model can
 * run the same description. Scenarios are built by the registry (scenarios/scenario_registry.h) from
 * parameters.
 *
 * Summary quantities (cb_scenario_summary), all computed from body states only:
 *   CB_OUT_STOP    the subject's stop: first time its speed ‖v‖ + ρ‖ω‖ (ρ its bounding radius)
 *                  falls to ≤ stop_speed, and its travel x_stop = (x − x₀)·travel then, the
 *                  distance d_stop = ‖x − x₀‖ and the heading error, the angle between x − x₀
 *                  and travel in the plane of travel and travel × gravity (degrees: 0 on a
 *                  straight path along travel; the settle into the ground left out);
 *   CB_OUT_REGIME  sphere on an incline: S, PR, PS or RwS (Fang & Negrut Table 4) at the end;
 *   CB_OUT_PILE    pile height / φ and mean base radius / φ (Acary & Bourrier §6.2);
 *   CB_OUT_STACK   three spheres: whether the top sphere fell (drop > R/2) and its drop.
 */
#ifndef CONEBENCH_SCENARIO_H
#define CONEBENCH_SCENARIO_H

#include "body.h"
#include "contact.h"

enum {
    CB_OUT_STOP = 1,
    CB_OUT_REGIME = 2,
    CB_OUT_PILE = 4,
    CB_OUT_STACK = 8
};

typedef enum {
    CB_REGIME_NONE = 0,
    CB_REGIME_S = 1,   /* static: v = 0, ω = 0 */
    CB_REGIME_PR = 2,  /* pure rolling: v = ωR */
    CB_REGIME_PS = 3,  /* pure slip: ω = 0, v ≠ 0 */
    CB_REGIME_RWS = 4  /* rolling with slipping: v > ωR */
} cb_regime;

const char *cb_regime_name(cb_regime r); /* "S", "PR", "PS", "RwS", "none" */

typedef struct {
    int i, j; /* bodies; the contact between them is recorded (p, mode) */
} cb_body_pair;

typedef struct {
    char *name;            /* scenario name */
    char *params;          /* the full parameter set used, "k=v k=v ..." */
    uint64_t seed;

    /* mechanics */
    cb_kind kind;
    cb_detect_settings contact; /* margin, friction and restitution of every contact */
    double gravity[3];
    int nbodies;
    cb_body *bodies;       /* initial states (owned) */

    /* time grid of the reference papers */
    double h, theta, t_end;
    double tol;            /* suggested solver tolerance for each step's CCP */

    /* recording */
    int ntracked;          /* bodies whose state goes to CSV */
    int *tracked;
    int npairs;            /* contacts whose reaction and mode go to CSV */
    cb_body_pair *pairs;

    /* summary */
    unsigned outputs;      /* CB_OUT_* bits */
    int subject;           /* body the summary is about (stop, regime, stack) */
    int ground;            /* the ground plane (pile, regime) */
    double travel[3];      /* unit direction of x_stop; for CB_OUT_REGIME: down-slope */
    double stop_speed;     /* m/s */
    int end_on_stop;       /* end the run once the subject has stopped */
    double phi;            /* pile: sphere diameter */
} cb_scenario;

typedef struct {
    int stopped;
    double t_stop, x_stop;
    double d_stop, heading_deg;   /* stop: ‖x − x₀‖ and the angle (°) of x − x₀ from travel */
    cb_regime regime;
    double v_slope, w_roll;       /* regime: down-slope velocity and rolling rate at the end */
    double height_over_phi, mean_radius_over_phi;
    int base_count;               /* pile: spheres touching the ground */
    int collapsed;
    double drop;                  /* stack: how far the top sphere went down (m) */
} cb_scenario_summary;

void cb_scenario_free(cb_scenario *s);   /* frees the arrays, keeps the struct */
/* Validate everything (bodies, indices, h, θ ∈ [0, 1], t_end, tol, travel...); names the field. */
int cb_scenario_check(const cb_scenario *s, cb_error *err);

/* Observer of a run: call begin with the initial state, update after every step, finish at the
 * end. The summary depends only on body states, whatever model produced them. */
typedef struct {
    double x0[3];
    double drop_ref;
    cb_scenario_summary sum;
} cb_observer;

void cb_observer_begin(cb_observer *o, const cb_scenario *s, const cb_body *bodies);
/* Returns 1 when the run may end (subject stopped and end_on_stop). */
int cb_observer_update(cb_observer *o, const cb_scenario *s, const cb_body *bodies, double t);
void cb_observer_finish(cb_observer *o, const cb_scenario *s, const cb_body *bodies, double t,
                        cb_scenario_summary *out);

/* Pile geometry (Acary & Bourrier §6.2): height of the highest sphere top above the ground / φ;
 * the spheres touching the ground (centre height within [R − φ/10, R + φ/100], inside the
 * plane's bounds) form the base, whose centroid in the ground plane gives the mean distance / φ.
 * Spheres that fell off a bounded plane count in neither. */
void cb_pile_measure(const cb_body *bodies, int nbodies, int ground, double t, double phi,
                     cb_scenario_summary *out);

/* Total mechanical energy (kinetic + gravity) of the bodies with alive[k] (NULL: all). */
double cb_bodies_energy(const cb_body *bodies, int nbodies, const unsigned char *alive,
                        const double g[3]);

#endif
