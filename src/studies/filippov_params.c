/* conebench — a rolling body from key=value parameters (filippov_study.h): the wheel (AS §6)
 * or a shape (sphere, disk, ellipsoid) in a rolling state, the keys not given keeping their
 * defaults. */
#include "filippov_study.h"

#include <math.h>
#include <string.h>

#include "base.h"

/* 1 when key is a word of the space-separated list. */
static int key_in(const char *list, const char *key)
{
    size_t len = strlen(key);
    for (const char *k = list; *k;) {
        size_t kl = strcspn(k, " ");
        if (kl == len && !strncmp(k, key, len))
            return 1;
        k += kl + (k[kl] == ' ');
    }
    return 0;
}

/* Every key given is one of known, else CB_ERR_INPUT naming it. */
static int known_keys(const cb_kv_view *v, const char *known, const char *what, cb_error *err)
{
    for (int i = 0; i < v->n; i++)
        if (!key_in(known, v->items[i].key))
            return cb_fail(err, CB_ERR_INPUT, "%s %s: not a parameter of the %s (known: %s)",
                           v->noun, v->items[i].key, what, known);
    return CB_OK;
}

/* keys[i] → *vals[i] for each key given (any finite number). */
static int given_doubles(const cb_kv_view *v, const char *const *keys, double *const *vals, int n,
                         cb_error *err)
{
    int rc = CB_OK;
    for (int i = 0; rc == CB_OK && i < n; i++)
        if (cb_kv_given(v, keys[i]))
            rc = cb_kv_double(v, keys[i], -HUGE_VAL, HUGE_VAL, vals[i], err);
    return rc;
}

/* *out ← 0 or 1 for key when given. */
static int given_flag(const cb_kv_view *v, const char *key, int *out, cb_error *err)
{
    const char *s = cb_kv_given(v, key) ? cb_kv_get(v, key) : NULL;
    if (s && strcmp(s, "0") && strcmp(s, "1"))
        return cb_fail(err, CB_ERR_INPUT, "%s %s: must be 0 or 1, got '%s'", v->noun, key, s);
    if (s)
        *out = s[0] == '1';
    return CB_OK;
}

/* law, mu0, gamma: law defaults to stribeck when gamma is given, stiction when mu0 is. */
static int given_friction(const cb_kv_view *v, cb_fil_friction *f, cb_error *err)
{
    static const char *const keys[2] = {"mu0", "gamma"};
    double *vals[2] = {&f->mu_static, &f->gamma};
    f->mu_static = f->mu;
    int rc = given_doubles(v, keys, vals, 2, err);
    f->law = cb_kv_given(v, "gamma") ? CB_FIL_STRIBECK
             : cb_kv_given(v, "mu0") ? CB_FIL_STICTION : CB_FIL_COULOMB;
    const char *s = cb_kv_given(v, "law") ? cb_kv_get(v, "law") : NULL;
    if (rc != CB_OK || !s)
        return rc;
    if (!strcmp(s, "coulomb"))
        f->law = CB_FIL_COULOMB;
    else if (!strcmp(s, "stiction"))
        f->law = CB_FIL_STICTION;
    else if (!strcmp(s, "stribeck"))
        f->law = CB_FIL_STRIBECK;
    else
        rc = cb_fail(err, CB_ERR_INPUT, "%s law: must be coulomb, stiction or stribeck, got '%s'",
                     v->noun, s);
    return rc;
}

int cb_fil_wheel_of(const cb_kv_view *v, cb_fil_wheel *w, cb_error *err)
{
    static const char *const keys[8] = {"m", "rho", "g", "mu", "Md", "Ms", "w2", "w3"};
    double *vals[8] = {&w->m, &w->rho, &w->g, &w->mu, &w->Md, &w->Ms, &w->w2, &w->w3};
    cb_fil_wheel_default(w);
    int rc = known_keys(v, CB_FIL_WHEEL_KEYS, "wheel", err);
    if (rc == CB_OK)
        rc = given_doubles(v, keys, vals, 8, err);
    cb_fil_friction f = {CB_FIL_COULOMB, w->mu, w->mu, w->gamma};
    if (rc == CB_OK)
        rc = given_friction(v, &f, err);
    w->law = f.law;
    w->mu_static = f.mu_static;
    w->gamma = f.gamma;
    return rc;
}

/* The shape (default sphere). */
static int given_shape(const cb_kv_view *v, cb_fil_shape_state *s, cb_error *err)
{
    const char *name = cb_kv_given(v, "shape") ? cb_kv_get(v, "shape") : "sphere";
    for (int k = CB_FIL_SPHERE; k <= CB_FIL_ELLIPSOID; k++)
        if (!strcmp(name, cb_fil_shape_name((cb_fil_shape)k))) {
            s->shape = (cb_fil_shape)k;
            return CB_OK;
        }
    return cb_fail(err, CB_ERR_INPUT, "%s shape: must be sphere, disk or ellipsoid, got '%s'",
                   v->noun, name);
}

int cb_fil_shape_of(const cb_kv_view *v, cb_fil_shape_state *s, cb_error *err)
{
    static const char *const keys[21] = {"m",  "R",  "L",  "a",  "b",  "c",  "roll",
                                         "pitch", "yaw", "g", "wx", "wy", "wz", "Fx",
                                         "Fy", "Fz", "Mx", "My", "Mz", "mu", "N"};
    double *vals[21] = {&s->mass,     &s->radius,    &s->thickness,  &s->semi[0],
                        &s->semi[1],  &s->semi[2],   &s->roll,       &s->pitch,
                        &s->yaw,      &s->g,         &s->omega[0],   &s->omega[1],
                        &s->omega[2], &s->force[0],  &s->force[1],   &s->force[2],
                        &s->torque[0], &s->torque[1], &s->torque[2], &s->friction.mu,
                        &s->normal_force};
    cb_fil_shape_state_default(s);
    int rc = known_keys(v, CB_FIL_BODY_KEYS, "body", err);
    if (rc == CB_OK)
        rc = given_shape(v, s, err);
    if (rc == CB_OK)
        rc = given_doubles(v, keys, vals, 21, err);
    if (rc == CB_OK)
        rc = given_friction(v, &s->friction, err);
    if (rc == CB_OK)
        rc = given_flag(v, "balance", &s->balance, err);
    if (rc == CB_OK)
        rc = given_flag(v, "spin_frame", &s->frame_spins, err);
    return rc;
}
