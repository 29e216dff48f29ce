/* conebench — scenario descriptions: validation and model-independent observables. */
#include "scenario.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vec3.h"
#include "base.h"

const char *cb_regime_name(cb_regime r)
{
    static const char *names[] = {"none", "S", "PR", "PS", "RwS"};
    return (int)r >= 0 && (int)r <= CB_REGIME_RWS ? names[r] : "none";
}

void cb_scenario_free(cb_scenario *s)
{
    if (!s)
        return;
    free(s->name);
    free(s->params);
    free(s->bodies);
    free(s->tracked);
    free(s->pairs);
    s->name = s->params = NULL;
    s->bodies = NULL;
    s->tracked = NULL;
    s->pairs = NULL;
    s->nbodies = s->ntracked = s->npairs = 0;
}

static int check_indices(const cb_scenario *s, cb_error *err)
{
    for (int k = 0; k < s->ntracked; k++)
        if (s->tracked[k] < 0 || s->tracked[k] >= s->nbodies)
            return cb_fail(err, CB_ERR_INPUT, "tracked[%d]: body %d out of range", k,
                           s->tracked[k]);
    for (int k = 0; k < s->npairs; k++)
        if (s->pairs[k].i < 0 || s->pairs[k].i >= s->nbodies || s->pairs[k].j < 0 ||
            s->pairs[k].j >= s->nbodies)
            return cb_fail(err, CB_ERR_INPUT, "pairs[%d]: body out of range", k);
    if ((s->outputs & (CB_OUT_STOP | CB_OUT_REGIME | CB_OUT_STACK)) &&
        (s->subject < 0 || s->subject >= s->nbodies || s->bodies[s->subject].fixed))
        return cb_fail(err, CB_ERR_INPUT, "subject: %d is not a dynamic body", s->subject);
    if ((s->outputs & (CB_OUT_PILE | CB_OUT_REGIME)) &&
        (s->ground < 0 || s->ground >= s->nbodies ||
         s->bodies[s->ground].shape.kind != CB_SHAPE_PLANE))
        return cb_fail(err, CB_ERR_INPUT, "ground: %d is not a plane", s->ground);
    return CB_OK;
}

static int check_grid(const cb_scenario *s, cb_error *err)
{
    if (!(s->h > 0) || !isfinite(s->h))
        return cb_fail(err, CB_ERR_INPUT, "h: must be finite and > 0, got %g", s->h);
    if (!(s->theta >= 0 && s->theta <= 1))
        return cb_fail(err, CB_ERR_INPUT, "theta: must be in [0, 1], got %g", s->theta);
    if (!(s->t_end > 0) || !isfinite(s->t_end))
        return cb_fail(err, CB_ERR_INPUT, "t_end: must be finite and > 0, got %g", s->t_end);
    if (s->t_end / s->h > 1e9)
        return cb_fail(err, CB_ERR_INPUT, "t_end/h: %g steps is too many", s->t_end / s->h);
    if (!(s->tol > 0) || !isfinite(s->tol))
        return cb_fail(err, CB_ERR_INPUT, "tol: must be finite and > 0, got %g", s->tol);
    if (!(s->stop_speed >= 0) || !isfinite(s->stop_speed))
        return cb_fail(err, CB_ERR_INPUT, "stop_speed: must be finite and ≥ 0");
    return CB_OK;
}

int cb_scenario_check(const cb_scenario *s, cb_error *err)
{
    if (!s || !s->bodies || s->nbodies < 1)
        return cb_fail(err, CB_ERR_INPUT, "scenario: no bodies");
    if (cb_kind_dim(s->kind) == 0)
        return cb_fail(err, CB_ERR_INPUT, "kind: invalid (%d)", (int)s->kind);
    const cb_friction *f = &s->contact.friction;
    if (!(f->mu >= 0 && f->mu_r >= 0 && f->mu_s >= 0) || !isfinite(f->mu + f->mu_r + f->mu_s))
        return cb_fail(err, CB_ERR_INPUT, "friction: μ, μ_r, μ_s must be finite and ≥ 0");
    if (!(s->contact.e_n >= 0 && s->contact.e_n <= 1))
        return cb_fail(err, CB_ERR_INPUT, "e: must be in [0, 1], got %g", s->contact.e_n);
    if (!(s->contact.margin >= 0) || !isfinite(s->contact.margin))
        return cb_fail(err, CB_ERR_INPUT, "margin: must be finite and ≥ 0");
    if (!cb_all_finite(s->gravity, 3) || !cb_all_finite(s->travel, 3))
        return cb_fail(err, CB_ERR_INPUT, "gravity/travel: not finite");
    int rc = check_grid(s, err);
    for (int k = 0; rc == CB_OK && k < s->nbodies; k++)
        if ((rc = cb_body_check(&s->bodies[k], err)) != CB_OK)
            return cb_body_error(err, rc, k);
    return rc == CB_OK ? check_indices(s, err) : rc;
}

double cb_bodies_energy(const cb_body *bodies, int nbodies, const unsigned char *alive,
                        const double g[3])
{
    double e = 0.0;
    for (int k = 0; k < nbodies; k++)
        if (!alive || alive[k])
            e += cb_body_energy(&bodies[k], g);
    return e;
}

/* Speed of a body: ‖v‖ + ρ‖ω‖, ρ its bounding radius. */
static double body_speed(const cb_body *b)
{
    return v3_norm(b->v) + cb_shape_bounding_radius(&b->shape) * v3_norm(b->w);
}

void cb_observer_begin(cb_observer *o, const cb_scenario *s, const cb_body *bodies)
{
    memset(o, 0, sizeof *o);
    o->sum.t_stop = NAN;
    o->sum.x_stop = NAN;
    o->sum.d_stop = NAN;
    o->sum.heading_deg = NAN;
    if (s->subject >= 0 && s->subject < s->nbodies) {
        v3_copy(bodies[s->subject].x, o->x0);
        o->drop_ref = bodies[s->subject].x[2];
    }
}

int cb_observer_update(cb_observer *o, const cb_scenario *s, const cb_body *bodies, double t)
{
    if (!(s->outputs & CB_OUT_STOP) || o->sum.stopped)
        return o->sum.stopped && s->end_on_stop;
    const cb_body *b = &bodies[s->subject];
    if (body_speed(b) <= s->stop_speed) {
        double d[3], side[3], across[3];
        v3_axpy(b->x, -1.0, o->x0, d);
        v3_cross(s->travel, s->gravity, across); /* in the ground's plane, across the travel */
        double na = v3_norm(across);
        v3_cross(d, s->travel, side);
        o->sum.stopped = 1;
        o->sum.t_stop = t;
        o->sum.x_stop = v3_dot(d, s->travel);
        o->sum.d_stop = v3_norm(d);
        /* heading = angle of d from travel within the plane of travel and `across` (the settle
         * into the ground, along its normal, left out); without gravity across travel, in 3-D */
        double off = na > 0 ? fabs(v3_dot(d, across)) / na : v3_norm(side);
        o->sum.heading_deg = atan2(off, o->sum.x_stop) * (180.0 / CB_PI);
    }
    return o->sum.stopped && s->end_on_stop;
}

/* Regime of a sphere on an incline (Fang & Negrut Table 4) from its final velocities:
 * v_s = v·down-slope, ω_r = rolling rate with v_s = R ω_r in pure rolling (ω_r = (n × d)·ω). */
static void regime_of(const cb_scenario *s, const cb_body *bodies, cb_scenario_summary *out)
{
    static const double ez[3] = {0, 0, 1};
    const cb_body *b = &bodies[s->subject];
    double n[3], axis[3], R = b->shape.radius;
    cb_quat_rotate(bodies[s->ground].q, ez, n);
    v3_cross(n, s->travel, axis);
    double vs = v3_dot(b->v, s->travel), wr = v3_dot(b->w, axis);
    double tol = fmax(s->stop_speed, 1e-6);
    out->v_slope = vs;
    out->w_roll = wr;
    if (fabs(vs) <= tol && R * fabs(wr) <= tol)
        out->regime = CB_REGIME_S;
    else if (R * fabs(wr) <= tol)
        out->regime = CB_REGIME_PS;
    else if (fabs(vs - R * wr) <= fmax(tol, 1e-3 * fabs(vs)))
        out->regime = CB_REGIME_PR;
    else
        out->regime = CB_REGIME_RWS;
}

/* Height of the sphere centre of b above the ground and its ground-plane coordinates. */
static int pile_coords(const cb_body *g, const cb_body *b, double t, double phi, double *top,
                       double xy[2])
{
    static const double ez[3] = {0, 0, 1}, ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0};
    if (b->fixed || b->t_birth > t || b->shape.kind != CB_SHAPE_SPHERE)
        return 0;
    double n[3], e[3], d[3], r = b->shape.radius;
    v3_axpy(b->x, -1.0, g->x, d);
    cb_quat_rotate(g->q, ez, n);
    double hgt = v3_dot(d, n);
    *top = fmax(*top, hgt + r);
    cb_quat_rotate(g->q, ex, e);
    xy[0] = v3_dot(d, e);
    cb_quat_rotate(g->q, ey, e);
    xy[1] = v3_dot(d, e);
    int inside = !(g->shape.half[0] > 0 && g->shape.half[1] > 0) ||
                 (fabs(xy[0]) <= g->shape.half[0] && fabs(xy[1]) <= g->shape.half[1]);
    return inside && hgt <= r + 0.01 * phi && hgt >= r - 0.1 * phi; /* touches the ground */
}

/* Top / φ; base = spheres touching the ground; mean distance to their centroid / φ. */
void cb_pile_measure(const cb_body *bodies, int nbodies, int ground, double t, double phi,
                     cb_scenario_summary *out)
{
    const cb_body *g = &bodies[ground];
    double top = 0.0, c[2] = {0.0, 0.0}, sum = 0.0, xy[2];
    int nb = 0;
    for (int k = 0; k < nbodies; k++)
        if (pile_coords(g, &bodies[k], t, phi, &top, xy)) {
            c[0] += xy[0];
            c[1] += xy[1];
            nb++;
        }
    if (nb > 0) {
        c[0] /= nb;
        c[1] /= nb;
    }
    for (int k = 0; k < nbodies; k++)
        if (pile_coords(g, &bodies[k], t, phi, &top, xy))
            sum += hypot(xy[0] - c[0], xy[1] - c[1]);
    out->height_over_phi = top / phi;
    out->base_count = nb;
    out->mean_radius_over_phi = nb > 0 ? sum / nb / phi : 0.0;
}

void cb_observer_finish(cb_observer *o, const cb_scenario *s, const cb_body *bodies, double t,
                        cb_scenario_summary *out)
{
    if (s->outputs & CB_OUT_REGIME)
        regime_of(s, bodies, &o->sum);
    if (s->outputs & CB_OUT_PILE)
        cb_pile_measure(bodies, s->nbodies, s->ground, t, s->phi, &o->sum);
    if (s->outputs & CB_OUT_STACK) {
        const cb_body *b = &bodies[s->subject];
        o->sum.drop = o->drop_ref - b->x[2];
        o->sum.collapsed = o->sum.drop > 0.5 * b->shape.radius;
    }
    *out = o->sum;
}
