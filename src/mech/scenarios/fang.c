/* conebench — Fang & Negrut scenarios for the compliant models: brick-incline (§4.1, Table 2),
 * ellipsoid (§4.5.1, Table 6) and ellipsoid-spin (§4.5.2, Table 7). Gravity g = 9.8 m/s² as in
 * the paper (its stated numbers use it). */
#include <math.h>
#include <string.h>

#include "compliant.h"
#include "scenarios_internal.h"

/* ---------------------------------------------------------------- brick-incline */

static const cb_kv_spec brick_params[] = {
    {"alpha", "0.25", "incline angle (rad): Fang uses atan(mu_k), atan(mu_s), 0.25"},
    {"alpha_deg", "", "incline angle (degrees); overrides alpha"},
    {"m", "1", "brick mass (kg)"},
    {"mu", "0.2", "Coulomb friction (Fang mu_k; the compliant model adds mu_s)"},
    {"size", "0.1", "brick edge along the slope (m); half as wide, a quarter as high"},
    {"g", CB_XSTR(CB_GRAVITY_FANG), "gravity (m/s^2)"},
    {"h", "1e-4", "time step (s)"},
    {"theta", "0.5", "theta of the Moreau-Jean scheme"},
    {"t_end", "1", "horizon (s)"},
    {"tol", "1e-10", "solver tolerance of each step"},
    {NULL, NULL, NULL}};

/* Shared grid parameters (h, θ, t_end, tol) and gravity g along −z. */
static int fang_grid(const cb_scenario_params *ps, cb_scenario *s, cb_error *err)
{
    double g = 0;
    int rc = cb_scen_grid(ps, s, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "g", 0.0, 1e3, &g, err);
    s->gravity[2] = -g;
    return rc;
}

static int brick_angle(const cb_scenario_params *ps, double *alpha, cb_error *err)
{
    if (cb_param_given(ps, "alpha_deg")) {
        int rc = cb_param_double(ps, "alpha_deg", 0, 89, alpha, err);
        *alpha *= CB_DEG;
        return rc;
    }
    return cb_param_double(ps, "alpha", 0, 1.55, alpha, err);
}

static int build_brick(const cb_scenario_params *ps, cb_scenario *s, cb_error *err)
{
    double alpha = 0, m = 0, mu = 0, L = 0;
    int rc = brick_angle(ps, &alpha, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "m", 1e-9, 1e9, &m, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "mu", 0, 1e3, &mu, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "size", 1e-6, 1e3, &L, err);
    if (rc == CB_OK)
        rc = cb_scen_alloc(s, CB_KIND_COULOMB3D, 2, 1, 1, err);
    if (rc == CB_OK)
        rc = fang_grid(ps, s, err);
    if (rc == CB_OK)
        rc = cb_scen_ground(&s->bodies[0], alpha, err);
    cb_shape sh = {.kind = CB_SHAPE_BOX, .half = {0.5 * L, 0.25 * L, 0.125 * L}};
    if (rc == CB_OK)
        rc = cb_body_init_mass(&s->bodies[1], &sh, m, err);
    if (rc != CB_OK)
        return rc;
    static const double ex[3] = {1, 0, 0};
    double up[3] = {0, 0, 0.125 * L};
    memcpy(s->bodies[1].q, s->bodies[0].q, sizeof s->bodies[1].q);
    cb_quat_rotate(s->bodies[0].q, up, s->bodies[1].x);
    cb_quat_rotate(s->bodies[0].q, ex, s->travel); /* down the slope */
    s->contact.friction = (cb_friction){mu, 0.0, 0.0};
    s->contact.margin = 0.01 * L;
    s->tracked[0] = 1;
    s->pairs[0] = (cb_body_pair){0, 1};
    s->subject = 1;
    s->ground = 0;
    s->stop_speed = 1e-6;
    return CB_OK;
}

const cb_scenario_def cb_scenario_brick_incline = {
    "brick-incline", "brick at rest on an incline: stick or slip (Fang 4.1, Table 2)",
    brick_params, build_brick};

/* ---------------------------------------------------------------- ellipsoids */

static const cb_kv_spec ellipsoid_params[] = {
    {"a", "0.2", "semi-axis along local x (m)"},
    {"b", "0.2", "semi-axis along local y (m)"},
    {"c", "0.5", "semi-axis along local z (m)"},
    {"m", "5", "mass (kg); <= 0: from rho"},
    {"rho", CB_XSTR(CB_STEEL_RHO), "density (kg/m^3) when m <= 0 (steel, Table 5)"},
    {"pose", "upright", "upright (c axis vertical) or flat (c axis horizontal, along x)"},
    {"vy", "0.3", "initial centre velocity along y (m/s)"},
    {"W0", "0", "initial spin about the vertical (rad/s)"},
    {"mu", "0.2", "Coulomb friction (Fang mu_k)"},
    {"eta_r", "0.2", "Fang rolling resistance: mu_r = 2 eta_r mu a (a: equatorial radius)"},
    {"mu_s", "", "spinning resistance (m); default 0.5 a_Hertz mu (App. C, steel on rigid)"},
    {"g", CB_XSTR(CB_GRAVITY_FANG), "gravity (m/s^2)"},
    {"h", "1e-4", "time step (s)"},
    {"theta", "0.5", "theta of the Moreau-Jean scheme"},
    {"t_end", "4", "horizon (s)"},
    {"tol", "1e-10", "solver tolerance of each step"},
    {"stop_speed", "1e-3", "stopped when |v| + r|w| <= this (m/s), r the largest semi-axis"},
    {NULL, NULL, NULL}};

static const cb_kv_spec ellipsoid_spin_params[] = {
    {"a", "0.02", "semi-axis along local x (m)"},
    {"b", "0.02", "semi-axis along local y (m)"},
    {"c", "0.05", "semi-axis along local z (m)"},
    {"m", "0", "mass (kg); <= 0: from rho"},
    {"rho", CB_XSTR(CB_STEEL_RHO), "density (kg/m^3) when m <= 0 (steel, Table 5)"},
    {"pose", "upright", "upright (c axis vertical) or flat (c axis horizontal, along x)"},
    {"vy", "0", "initial centre velocity along y (m/s)"},
    {"W0", "1", "initial spin about the vertical (rad/s)"},
    {"mu", "0.2", "Coulomb friction (Fang mu_k)"},
    {"eta_r", "0.2", "Fang rolling resistance: mu_r = 2 eta_r mu a"},
    {"mu_s", "", "spinning resistance (m); default 0.5 a_Hertz mu (App. C, steel on rigid)"},
    {"g", CB_XSTR(CB_GRAVITY_FANG), "gravity (m/s^2)"},
    {"h", "1e-4", "time step (s)"},
    {"theta", "0.5", "theta of the Moreau-Jean scheme"},
    {"t_end", "30", "horizon (s); the run ends when the spin stops"},
    {"tol", "1e-10", "solver tolerance of each step"},
    {"stop_speed", "1e-7", "stopped when |v| + r|w| <= this (m/s), r the largest semi-axis"},
    {NULL, NULL, NULL}};

typedef struct {
    double half[3], m, rho, vy, W0, mu, eta_r;
    int flat;
} ell_params;

static int ellipsoid_read(const cb_scenario_params *ps, ell_params *e, cb_error *err)
{
    const char *keys[3] = {"a", "b", "c"};
    int rc = CB_OK;
    for (int k = 0; rc == CB_OK && k < 3; k++)
        rc = cb_param_double(ps, keys[k], 1e-6, 1e3, &e->half[k], err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "m", -1, 1e9, &e->m, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "rho", 1e-6, 1e6, &e->rho, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "vy", -1e3, 1e3, &e->vy, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "W0", -1e4, 1e4, &e->W0, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "mu", 0, 1e3, &e->mu, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "eta_r", 0, 1e3, &e->eta_r, err);
    const char *pose = cb_param_get(ps, "pose");
    e->flat = strcmp(pose, "flat") == 0;
    if (rc == CB_OK && !e->flat && strcmp(pose, "upright") != 0)
        rc = cb_fail(err, CB_ERR_INPUT, "param pose: '%s' is not upright or flat", pose);
    return rc;
}

/* Body 1: the ellipsoid resting on the plane in the chosen pose, moving and spinning. */
static int ellipsoid_body(cb_scenario *s, const ell_params *e, cb_error *err)
{
    cb_shape sh = {.kind = CB_SHAPE_ELLIPSOID, .half = {e->half[0], e->half[1], e->half[2]}};
    cb_body *b = &s->bodies[1];
    int rc = e->m > 0 ? cb_body_init_mass(b, &sh, e->m, err) : cb_body_init(b, &sh, e->rho, err);
    if (rc != CB_OK)
        return rc;
    static const double ey[3] = {0, 1, 0};
    if (e->flat) /* c axis along x: the bottom point is the end of the a axis */
        cb_quat_from_axis_angle(ey, 0.5 * CB_PI, b->q);
    b->x[2] = e->flat ? e->half[0] : e->half[2];
    b->v[1] = e->vy;
    b->w[2] = e->W0;
    return CB_OK;
}

/* Default spinning resistance: the kinetic Hertz spin torque 0.5 a μ N over N (App. C). */
static double hertz_mu_s(const cb_scenario *s, const ell_params *e)
{
    const cb_body *b = &s->bodies[1];
    const double *h = e->half;
    double K = e->flat ? 0.5 * (h[0] / (h[1] * h[1]) + h[0] / (h[2] * h[2]))
                       : 0.5 * (h[2] / (h[0] * h[0]) + h[2] / (h[1] * h[1]));
    cb_hertz_spin hz;
    cb_hertz_spin_params(-b->mass * s->gravity[2], K, CB_STEEL_E, CB_STEEL_NU, CB_ELLIPSOID_K_E,
                         e->mu, &hz);
    return 0.5 * hz.a * e->mu;
}

/* ellipsoid and ellipsoid-spin: the same build, their own defaults (ps carries the spec). */
static int build_ellipsoid(const cb_scenario_params *ps, cb_scenario *s, cb_error *err)
{
    ell_params e;
    double mu_s = 0;
    int rc = ellipsoid_read(ps, &e, err);
    if (rc == CB_OK)
        rc = cb_scen_alloc(s, CB_KIND_ROLLSPIN3D, 2, 1, 1, err);
    if (rc == CB_OK)
        rc = fang_grid(ps, s, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "stop_speed", 0, 1e3, &s->stop_speed, err);
    if (rc == CB_OK)
        rc = cb_scen_ground(&s->bodies[0], 0.0, err);
    if (rc == CB_OK)
        rc = ellipsoid_body(s, &e, err);
    if (rc == CB_OK && cb_param_given(ps, "mu_s"))
        rc = cb_param_double(ps, "mu_s", 0, 1e3, &mu_s, err);
    else if (rc == CB_OK)
        mu_s = hertz_mu_s(s, &e);
    if (rc != CB_OK)
        return rc;
    s->contact.friction = (cb_friction){e.mu, 2.0 * e.eta_r * e.mu * e.half[0], mu_s};
    s->contact.margin = 0.01 * e.half[0];
    s->tracked[0] = 1;
    s->pairs[0] = (cb_body_pair){0, 1};
    s->outputs = CB_OUT_STOP;
    s->subject = 1;
    s->ground = 0;
    s->travel[1] = 1.0;
    s->end_on_stop = e.W0 != 0 && e.vy == 0;
    return CB_OK;
}

const cb_scenario_def cb_scenario_ellipsoid = {
    "ellipsoid", "upright ellipsoid pushed sideways: rolls, slides, falls flat (Fang 4.5.1)",
    ellipsoid_params, build_ellipsoid};

const cb_scenario_def cb_scenario_ellipsoid_spin = {
    "ellipsoid-spin", "steel ellipsoid spinning upright or flat (Fang 4.5.2, Table 7)",
    ellipsoid_spin_params, build_ellipsoid};
