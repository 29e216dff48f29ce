/* conebench — few-body scenarios: sphere-plane (Acary & Bourrier §6.1), sphere-incline,
 * disk-rolling, sphere-spin and three-spheres (Fang & Negrut §4.2–4.6). */
#include <math.h>
#include <string.h>

#include "scenarios_internal.h"

/* ---------------------------------------------------------------- sphere-plane */

/* Body 1 on the ground (body 0): record it and its contact, summary = where and when it stops
 * travelling along x; the run ends there. */
static void stop_on_ground(cb_scenario *s)
{
    s->tracked[0] = 1;
    s->pairs[0] = (cb_body_pair){0, 1};
    s->outputs = CB_OUT_STOP;
    s->subject = 1;
    s->ground = 0;
    s->travel[0] = 1.0;
    s->end_on_stop = 1;
}

/* Turn the launch of body 1 (v along x, w about y) and the travel direction by angle degrees
 * about z: v = U0 (cos a, sin a, 0), w = W0 (−sin a, cos a, 0); angle 0 leaves them untouched. */
static void launch_at(cb_scenario *s, double angle)
{
    if (angle == 0.0)
        return;
    double a = angle * (CB_PI / 180.0), ca = cos(a), sa = sin(a);
    cb_body *b = &s->bodies[1];
    double U0 = b->v[0], W0 = b->w[1];
    b->v[0] = U0 * ca;
    b->v[1] = U0 * sa;
    b->w[0] = -W0 * sa;
    b->w[1] = W0 * ca;
    s->travel[0] = ca;
    s->travel[1] = sa;
}

static const cb_kv_spec sphere_plane_params[] = {
    {"config", "a", "a (U0=2.5 W0=5 mu=0.2 mu_r=0.04), b (W0=2.5), c (mu=0.05) of Acary Fig. 3"},
    {"U0", "", "initial centre velocity along x (m/s); default from config"},
    {"W0", "", "initial angular velocity about y (rad/s); slip u_T = U0 - R W0; from config"},
    {"angle", "0", "launch direction in the plane, degrees from x: v = U0 (cos, sin, 0), "
                   "w = W0 (-sin, cos, 0), travel measured along it"},
    {"mu", "", "Coulomb friction coefficient; default from config"},
    {"mu_r", "", "rolling resistance coefficient (m); default from config"},
    {"mu_s", "0", "spinning resistance (m), used when kind=rollspin3d"},
    {"R", "0.5", "sphere radius (m)"},
    {"rho", "2500", "density (kg/m^3)"},
    {"kind", "rolling3d", "cone kind: rolling3d or rollspin3d"},
    {"e", "0", "Newton restitution coefficient"},
    {"h", "1e-4", "time step (s)"},
    {"theta", "0.5", "theta of the Moreau-Jean scheme"},
    {"t_end", "10", "horizon (s); the run ends when the sphere stops"},
    {"tol", "1e-10", "solver tolerance of each step"},
    {"stop_speed", "1e-6", "the sphere has stopped when |v| + R|w| <= this (m/s)"},
    {NULL, NULL, NULL}};

typedef struct {
    double U0, W0, mu, mu_r;
} sp_config;

/* The configuration's values, overridden one by one by explicit parameters. */
static int sphere_plane_config(const cb_scenario_params *ps, sp_config *c, cb_error *err)
{
    static const struct {
        const char *name;
        sp_config c;
    } configs[] = {{"a", {2.5, 5.0, 0.2, 0.04}}, {"b", {2.5, 2.5, 0.2, 0.04}},
                   {"c", {2.5, 5.0, 0.05, 0.04}}};
    const char *name = cb_param_get(ps, "config");
    int found = 0;
    for (size_t k = 0; k < sizeof configs / sizeof *configs; k++)
        if (strcmp(name, configs[k].name) == 0) {
            *c = configs[k].c;
            found = 1;
        }
    if (!found)
        return cb_fail(err, CB_ERR_INPUT, "param config: '%s' is not a, b or c", name);
    const char *keys[4] = {"U0", "W0", "mu", "mu_r"};
    double *vals[4] = {&c->U0, &c->W0, &c->mu, &c->mu_r};
    double lo[4] = {-1e3, -1e3, 0, 0}, hi[4] = {1e3, 1e3, 1e3, 1e3};
    for (int k = 0; k < 4; k++)
        if (cb_param_given(ps, keys[k]) &&
            cb_param_double(ps, keys[k], lo[k], hi[k], vals[k], err) != CB_OK)
            return CB_ERR_INPUT;
    return CB_OK;
}

/* Grid, tolerance and stop speed shared by the few-body scenarios. */
static int common_grid(const cb_scenario_params *ps, cb_scenario *s, cb_error *err)
{
    int rc = cb_scen_grid(ps, s, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "stop_speed", 0.0, 1e3, &s->stop_speed, err);
    return rc;
}

static int parse_kind(const cb_scenario_params *ps, cb_kind *kind, cb_error *err)
{
    const char *v = cb_param_get(ps, "kind");
    if (cb_kind_parse(v, kind) != CB_OK || (*kind != CB_KIND_ROLLING3D &&
                                            *kind != CB_KIND_ROLLSPIN3D))
        return cb_fail(err, CB_ERR_INPUT, "param kind: '%s' is not rolling3d or rollspin3d", v);
    return CB_OK;
}

static int build_sphere_plane(const cb_scenario_params *ps, cb_scenario *s, cb_error *err)
{
    sp_config c;
    double R = 0, rho = 0, mu_s = 0, e = 0, angle = 0;
    cb_kind kind;
    int rc = sphere_plane_config(ps, &c, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "angle", -360, 360, &angle, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "R", 1e-6, 1e3, &R, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "rho", 1e-6, 1e6, &rho, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "mu_s", 0, 1e3, &mu_s, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "e", 0, 1, &e, err);
    if (rc == CB_OK)
        rc = parse_kind(ps, &kind, err);
    if (rc == CB_OK)
        rc = cb_scen_alloc(s, kind, 2, 1, 1, err);
    if (rc == CB_OK)
        rc = common_grid(ps, s, err);
    if (rc == CB_OK)
        rc = cb_scen_ground(&s->bodies[0], 0.0, err);
    if (rc == CB_OK)
        rc = cb_scen_sphere_on(&s->bodies[1], &s->bodies[0], R, 0, rho, 0, 0, err);
    if (rc != CB_OK)
        return rc;
    s->contact.friction = (cb_friction){c.mu, c.mu_r, mu_s};
    s->contact.e_n = e;
    s->contact.margin = 0.01 * R;
    s->bodies[1].v[0] = c.U0;
    s->bodies[1].w[1] = c.W0;
    stop_on_ground(s);
    launch_at(s, angle);
    return CB_OK;
}

const cb_scenario_def cb_scenario_sphere_plane = {
    "sphere-plane", "sphere rolling/sliding on a plane until it stops (Acary & Bourrier 6.1)",
    sphere_plane_params, build_sphere_plane};

/* ---------------------------------------------------------------- sphere-incline */

static const cb_kv_spec sphere_incline_params[] = {
    {"alpha", "35", "incline angle (degrees)"},
    {"v0", "0.5", "initial velocity up the slope (m/s), zero angular velocity"},
    {"R", "0.2", "sphere radius (m)"},
    {"m", "5", "sphere mass (kg)"},
    {"mu", "0.2", "Coulomb friction coefficient (Fang mu_k)"},
    {"eta_r", "0.3", "Fang rolling resistance coefficient: mu_r = 2 eta_r mu R"},
    {"mu_r", "", "rolling resistance (m); overrides eta_r"},
    {"h", "1e-4", "time step (s)"},
    {"theta", "0.5", "theta of the Moreau-Jean scheme"},
    {"t_end", "1", "horizon (s); the regime is read at the end"},
    {"tol", "1e-10", "solver tolerance of each step"},
    {"stop_speed", "1e-4", "speeds below this count as zero for the regime (m/s)"},
    {NULL, NULL, NULL}};

/* mu_r given, else 2 η_r μ R (the cross-model mapping: man conebench, MODELS). */
static int rolling_coefficient(const cb_scenario_params *ps, double mu, double R, double *mu_r,
                               cb_error *err)
{
    if (cb_param_given(ps, "mu_r"))
        return cb_param_double(ps, "mu_r", 0, 1e3, mu_r, err);
    double eta;
    int rc = cb_param_double(ps, "eta_r", 0, 1e3, &eta, err);
    *mu_r = 2.0 * eta * mu * R;
    return rc;
}

/* Radius, mass and μ of the single sphere of a Fang scenario. */
static int fang_sphere(const cb_scenario_params *ps, double *R, double *m, double *mu,
                       cb_error *err)
{
    int rc = cb_param_double(ps, "R", 1e-6, 1e3, R, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "m", 1e-9, 1e9, m, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "mu", 0, 1e3, mu, err);
    return rc;
}

static int build_sphere_incline(const cb_scenario_params *ps, cb_scenario *s, cb_error *err)
{
    double alpha = 0, v0 = 0, R = 0, m = 0, mu = 0, mu_r = 0;
    int rc = cb_param_double(ps, "alpha", 0, 89, &alpha, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "v0", -1e3, 1e3, &v0, err);
    if (rc == CB_OK)
        rc = fang_sphere(ps, &R, &m, &mu, err);
    if (rc == CB_OK)
        rc = rolling_coefficient(ps, mu, R, &mu_r, err);
    if (rc == CB_OK)
        rc = cb_scen_alloc(s, CB_KIND_ROLLING3D, 2, 1, 1, err);
    if (rc == CB_OK)
        rc = common_grid(ps, s, err);
    if (rc == CB_OK)
        rc = cb_scen_ground(&s->bodies[0], alpha * CB_DEG, err);
    if (rc == CB_OK)
        rc = cb_scen_sphere_on(&s->bodies[1], &s->bodies[0], R, m, 0, 0, 0, err);
    if (rc != CB_OK)
        return rc;
    static const double ex[3] = {1, 0, 0};
    cb_quat_rotate(s->bodies[0].q, ex, s->travel); /* down the slope */
    for (int k = 0; k < 3; k++)
        s->bodies[1].v[k] = -v0 * s->travel[k];
    s->contact.friction = (cb_friction){mu, mu_r, 0.0};
    s->contact.margin = 0.01 * R;
    s->tracked[0] = 1;
    s->pairs[0] = (cb_body_pair){0, 1};
    s->outputs = CB_OUT_REGIME;
    s->subject = 1;
    s->ground = 0;
    return CB_OK;
}

const cb_scenario_def cb_scenario_sphere_incline = {
    "sphere-incline", "sphere launched up an incline: final regime S/PR/PS/RwS (Fang 4.3)",
    sphere_incline_params, build_sphere_incline};

/* ---------------------------------------------------------------- disk-rolling (2D) */

static const cb_kv_spec disk_rolling_params[] = {
    {"v0", "5", "initial velocity (m/s), zero angular velocity"},
    {"W0", "0", "initial angular velocity about the disk axis y (rad/s)"},
    {"R", "0.2", "disk radius (m)"},
    {"m", "5", "disk mass (kg); I = m R^2/2 about its axis (0.1 for Fang's disk)"},
    {"mu", "0.2", "Coulomb friction coefficient"},
    {"eta_r", "0.4", "Fang rolling resistance coefficient: mu_r = 2 eta_r mu R"},
    {"mu_r", "", "rolling resistance (m); overrides eta_r"},
    {"h", "1e-4", "time step (s)"},
    {"theta", "0.5", "theta of the Moreau-Jean scheme"},
    {"t_end", "10", "horizon (s); the run ends when the disk stops"},
    {"tol", "1e-10", "solver tolerance of each step"},
    {"stop_speed", "1e-6", "stopped when |v| + R|w| <= this (m/s)"},
    {NULL, NULL, NULL}};

static int build_disk_rolling(const cb_scenario_params *ps, cb_scenario *s, cb_error *err)
{
    double v0 = 0, W0 = 0, R = 0, m = 0, mu = 0, mu_r = 0;
    int rc = cb_param_double(ps, "v0", -1e3, 1e3, &v0, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "W0", -1e4, 1e4, &W0, err);
    if (rc == CB_OK)
        rc = fang_sphere(ps, &R, &m, &mu, err);
    if (rc == CB_OK)
        rc = rolling_coefficient(ps, mu, R, &mu_r, err);
    if (rc == CB_OK)
        rc = cb_scen_alloc(s, CB_KIND_ROLLING2D, 2, 1, 1, err);
    if (rc == CB_OK)
        rc = common_grid(ps, s, err);
    if (rc == CB_OK)
        rc = cb_scen_ground(&s->bodies[0], 0.0, err);
    cb_shape sh = {.kind = CB_SHAPE_DISK, .radius = R, .length = 0.25 * R};
    if (rc == CB_OK)
        rc = cb_body_init_mass(&s->bodies[1], &sh, m, err);
    if (rc != CB_OK)
        return rc;
    s->bodies[1].x[2] = R;
    s->bodies[1].v[0] = v0;
    s->bodies[1].w[1] = W0;
    s->contact.friction = (cb_friction){mu, mu_r, 0.0};
    s->contact.margin = 0.01 * R;
    stop_on_ground(s);
    return CB_OK;
}

const cb_scenario_def cb_scenario_disk_rolling = {
    "disk-rolling", "2D disk launched on a plane: slides, rolls, stops (Fang 4.2, rolling2d)",
    disk_rolling_params, build_disk_rolling};

/* ---------------------------------------------------------------- sphere-spin */

static const cb_kv_spec sphere_spin_params[] = {
    {"W0", "1", "initial spin about the vertical (rad/s)"},
    {"R", "0.2", "sphere radius (m)"},
    {"m", "5", "sphere mass (kg)"},
    {"mu", "0.2", "Coulomb friction coefficient"},
    {"eta_r", "0.3", "Fang rolling resistance: mu_r = 2 eta_r mu R"},
    {"mu_r", "", "rolling resistance (m); overrides eta_r"},
    {"eta_psi", "0.006", "Fang spinning coefficient: mu_s = mu eta_psi R (T = mu N eta_psi R)"},
    {"mu_s", "", "spinning resistance (m); overrides eta_psi"},
    {"h", "1e-3", "time step (s)"},
    {"theta", "0.5", "theta of the Moreau-Jean scheme"},
    {"t_end", "10", "horizon (s); the run ends when the spin stops"},
    {"tol", "1e-10", "solver tolerance of each step"},
    {"stop_speed", "1e-6", "stopped when |v| + R|w| <= this (m/s)"},
    {NULL, NULL, NULL}};

static int build_sphere_spin(const cb_scenario_params *ps, cb_scenario *s, cb_error *err)
{
    double W0 = 0, R = 0, m = 0, mu = 0, mu_r = 0, mu_s = 0, eta = 0;
    int rc = cb_param_double(ps, "W0", -1e4, 1e4, &W0, err);
    if (rc == CB_OK)
        rc = fang_sphere(ps, &R, &m, &mu, err);
    if (rc == CB_OK)
        rc = rolling_coefficient(ps, mu, R, &mu_r, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "eta_psi", 0, 1e3, &eta, err);
    mu_s = mu * eta * R;
    if (rc == CB_OK && cb_param_given(ps, "mu_s"))
        rc = cb_param_double(ps, "mu_s", 0, 1e3, &mu_s, err);
    if (rc == CB_OK)
        rc = cb_scen_alloc(s, CB_KIND_ROLLSPIN3D, 2, 1, 1, err);
    if (rc == CB_OK)
        rc = common_grid(ps, s, err);
    if (rc == CB_OK)
        rc = cb_scen_ground(&s->bodies[0], 0.0, err);
    if (rc == CB_OK)
        rc = cb_scen_sphere_on(&s->bodies[1], &s->bodies[0], R, m, 0, 0, 0, err);
    if (rc != CB_OK)
        return rc;
    s->bodies[1].w[2] = W0;
    s->contact.friction = (cb_friction){mu, mu_r, mu_s};
    s->contact.margin = 0.01 * R;
    stop_on_ground(s);
    return CB_OK;
}

const cb_scenario_def cb_scenario_sphere_spin = {
    "sphere-spin", "sphere spinning about the vertical on a plane (Fang 4.4, rollspin3d)",
    sphere_spin_params, build_sphere_spin};

/* ---------------------------------------------------------------- three-spheres */

static const cb_kv_spec three_spheres_params[] = {
    {"m_top", "1", "mass of the top sphere (kg)"},
    {"m", "1", "mass of each bottom sphere (kg)"},
    {"R", "0.15", "radius of the spheres (m)"},
    {"gap", "0.3", "gap between the bottom spheres in units of R (centres 2R + gap R apart)"},
    {"mu", "0.2", "Coulomb friction coefficient (every contact)"},
    {"eta_r", "0.2", "Fang rolling resistance: mu_r = 2 eta_r mu R"},
    {"mu_r", "", "rolling resistance (m); overrides eta_r"},
    {"h", "1e-4", "time step (s)"},
    {"theta", "0.5", "theta of the Moreau-Jean scheme"},
    {"t_end", "1", "horizon (s)"},
    {"tol", "1e-10", "solver tolerance of each step"},
    {"stop_speed", "1e-6", "unused (kept for uniformity)"},
    {NULL, NULL, NULL}};

/* Ground, two bottom spheres ±(1 + gap/2) R apart along x, the top one touching both. */
static int three_bodies(cb_scenario *s, double R, double m, double m_top, double gap,
                        cb_error *err)
{
    double half = (1.0 + 0.5 * gap) * R;
    int rc = cb_scen_ground(&s->bodies[0], 0.0, err);
    if (rc == CB_OK)
        rc = cb_scen_sphere_on(&s->bodies[1], &s->bodies[0], R, m, 0, -half, 0, err);
    if (rc == CB_OK)
        rc = cb_scen_sphere_on(&s->bodies[2], &s->bodies[0], R, m, 0, half, 0, err);
    if (rc == CB_OK)
        rc = cb_scen_sphere_on(&s->bodies[3], &s->bodies[0], R, m_top, 0, 0, 0, err);
    if (rc == CB_OK)
        s->bodies[3].x[2] = R + sqrt(4.0 * R * R - half * half);
    return rc;
}

static int build_three_spheres(const cb_scenario_params *ps, cb_scenario *s, cb_error *err)
{
    double m_top = 0, m = 0, R = 0, gap = 0, mu = 0, mu_r = 0;
    int rc = cb_param_double(ps, "m_top", 1e-9, 1e9, &m_top, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "gap", 0, 1.99, &gap, err);
    if (rc == CB_OK)
        rc = fang_sphere(ps, &R, &m, &mu, err);
    if (rc == CB_OK)
        rc = rolling_coefficient(ps, mu, R, &mu_r, err);
    if (rc == CB_OK)
        rc = cb_scen_alloc(s, CB_KIND_ROLLING3D, 4, 3, 4, err);
    if (rc == CB_OK)
        rc = common_grid(ps, s, err);
    if (rc == CB_OK)
        rc = three_bodies(s, R, m, m_top, gap, err);
    if (rc != CB_OK)
        return rc;
    s->contact.friction = (cb_friction){mu, mu_r, 0.0};
    s->contact.margin = 0.01 * R;
    for (int k = 0; k < 3; k++)
        s->tracked[k] = k + 1;
    s->pairs[0] = (cb_body_pair){0, 1};
    s->pairs[1] = (cb_body_pair){0, 2};
    s->pairs[2] = (cb_body_pair){1, 3};
    s->pairs[3] = (cb_body_pair){2, 3};
    s->outputs = CB_OUT_STACK;
    s->subject = 3;
    s->ground = 0;
    s->travel[0] = 1.0;
    return CB_OK;
}

const cb_scenario_def cb_scenario_three_spheres = {
    "three-spheres", "two spheres on a plane carrying a third: does the stack hold? (Fang 4.6)",
    three_spheres_params, build_three_spheres};
