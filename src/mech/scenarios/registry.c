/* conebench — the scenario registry and the helpers shared by the builders. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fang.h"
#include "scenarios_internal.h"

static const cb_scenario_def *const registry[] = {
    &cb_scenario_sphere_plane, &cb_scenario_sphere_incline, &cb_scenario_disk_rolling,
    &cb_scenario_sphere_spin,  &cb_scenario_three_spheres,  &cb_scenario_sphere_pile,
    &cb_scenario_brick_incline, &cb_scenario_ellipsoid,     &cb_scenario_ellipsoid_spin,
};

int cb_scenario_count(void) { return (int)(sizeof registry / sizeof *registry); }

const cb_scenario_def *cb_scenario_at(int i)
{
    return i >= 0 && i < cb_scenario_count() ? registry[i] : NULL;
}

const cb_scenario_def *cb_scenario_find(const char *name)
{
    for (int i = 0; name && i < cb_scenario_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

static int known_key(const cb_option_spec *spec, const char *key)
{
    for (; spec->key; spec++)
        if (strcmp(spec->key, key) == 0)
            return 1;
    return 0;
}

/* "k=v k=v ..." of every parameter, given or default. */
static char *param_string(const cb_scenario_def *def, const cb_settings *ps)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int first = 1;
    for (const cb_option_spec *sp = def->params; sp->key; sp++) {
        const char *v = cb_option_get(ps, def->params, sp->key);
        if (!v || !*v)
            continue; /* derived from other parameters (e.g. sphere-plane config) */
        fprintf(f, "%s%s=%s", first ? "" : " ", sp->key, v);
        first = 0;
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

int cb_scenario_build(const cb_scenario_def *def, const cb_option *params, int nparams,
                      cb_scenario *out, cb_error *err)
{
    memset(out, 0, sizeof *out);
    if (!def || nparams < 0 || (nparams > 0 && !params))
        return cb_fail(err, CB_ERR_INPUT, "scenario: bad arguments");
    for (int k = 0; k < nparams; k++)
        if (!params[k].key || !params[k].value || !known_key(def->params, params[k].key))
            return cb_fail(err, CB_ERR_INPUT, "param %s: not a parameter of scenario %s",
                           params[k].key ? params[k].key : "(null)", def->name);
    cb_settings ps;
    cb_settings_default(&ps);
    ps.options = params;
    ps.noptions = nparams;
    int rc = def->build(&ps, out, err);
    if (rc == CB_OK) {
        out->name = cb_strdup(def->name);
        out->params = param_string(def, &ps);
        if (!out->name || !out->params)
            rc = cb_fail(err, CB_ERR_NOMEM, "scenario %s: out of memory", def->name);
    }
    if (rc == CB_OK)
        rc = cb_scenario_check(out, err);
    if (rc != CB_OK)
        cb_scenario_free(out);
    return rc;
}

int cb_scen_given(const cb_settings *ps, const char *key)
{
    for (int i = 0; i < ps->noptions; i++)
        if (strcmp(ps->options[i].key, key) == 0)
            return 1;
    return 0;
}

int cb_scen_double(const cb_settings *ps, const cb_option_spec *spec, const char *key, double lo,
                   double hi, double *out, cb_error *err)
{
    int rc = cb_option_double(ps, spec, key, lo, hi, out, err);
    if (rc != CB_OK && err) { /* "option k: ..." → "param k: ..." */
        char tmp[CB_ERROR_LEN];
        snprintf(tmp, sizeof tmp, "%s", err->text);
        cb_fail(err, rc, "param%s", strncmp(tmp, "option", 6) == 0 ? tmp + 6 : tmp);
    }
    return rc;
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
    s->gravity[2] = -9.81;
    s->theta = 0.5;
    s->tol = 1e-10;
    s->stop_speed = 1e-6;
    s->subject = s->ground = -1;
    return CB_OK;
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
