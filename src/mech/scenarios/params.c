/* conebench — what every scenario builder shares: parameter reads ("param KEY: ..." messages),
 * the scenario arrays and defaults, the time grid, the ground plane and spheres resting on it. */
#include <string.h>

#include "scenarios_internal.h"
#include "base.h"
#include "kv.h"

const char *cb_param_get(const cb_scenario_params *ps, const char *key)
{
    return cb_kv_get(&ps->kv, key);
}

int cb_param_given(const cb_scenario_params *ps, const char *key)
{
    return cb_kv_given(&ps->kv, key);
}

int cb_param_double(const cb_scenario_params *ps, const char *key, double lo, double hi,
                    double *out, cb_error *err)
{
    return cb_kv_double(&ps->kv, key, lo, hi, out, err);
}

int cb_param_long(const cb_scenario_params *ps, const char *key, long lo, long hi, long *out,
                  cb_error *err)
{
    return cb_kv_long(&ps->kv, key, lo, hi, out, err);
}

int cb_scen_alloc(cb_scenario *s, cb_kind kind, int nbodies, int ntracked, int npairs,
                  cb_error *err)
{
    memset(s, 0, sizeof *s);
    s->bodies = cb_calloc((size_t)nbodies, sizeof *s->bodies);
    s->tracked = cb_calloc((size_t)(ntracked > 0 ? ntracked : 1), sizeof *s->tracked);
    s->pairs = cb_calloc((size_t)(npairs > 0 ? npairs : 1), sizeof *s->pairs);
    if (!s->bodies || !s->tracked || !s->pairs) {
        cb_scenario_free(s);
        return cb_fail(err, CB_ERR_NOMEM, "scenario: out of memory (%d bodies)", nbodies);
    }
    s->nbodies = nbodies;
    s->ntracked = ntracked;
    s->npairs = npairs;
    s->kind = kind;
    cb_detect_settings_default(&s->contact);
    s->gravity[2] = -CB_GRAVITY;
    s->theta = 0.5;
    s->tol = 1e-10;
    s->stop_speed = 1e-6;
    s->subject = s->ground = -1;
    return CB_OK;
}

int cb_scen_grid(const cb_scenario_params *ps, cb_scenario *s, cb_error *err)
{
    int rc = cb_param_double(ps, "h", 1e-9, 1.0, &s->h, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "theta", 0.0, 1.0, &s->theta, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "t_end", 1e-9, 1e6, &s->t_end, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "tol", 1e-16, 1.0, &s->tol, err);
    return rc;
}

int cb_scen_ground(cb_body *b, double incline, cb_error *err)
{
    cb_shape sh = {.kind = CB_SHAPE_PLANE};
    int rc = cb_body_init(b, &sh, 0.0, err);
    if (rc != CB_OK)
        return rc;
    static const double ey[3] = {0, 1, 0};
    cb_quat_from_axis_angle(ey, incline, b->q);
    return CB_OK;
}

int cb_scen_sphere_on(cb_body *b, const cb_body *ground, double r, double m, double rho, double a,
                      double bcoord, cb_error *err)
{
    cb_shape sh = {.kind = CB_SHAPE_SPHERE, .radius = r};
    int rc = m > 0 ? cb_body_init_mass(b, &sh, m, err) : cb_body_init(b, &sh, rho, err);
    if (rc != CB_OK)
        return rc;
    double local[3] = {a, bcoord, r};
    cb_quat_rotate(ground->q, local, b->x);
    for (int k = 0; k < 3; k++)
        b->x[k] += ground->x[k];
    return CB_OK;
}
