/* conebench — compliant runs of the scenarios: the per-scenario presets taken from Fang &
 * Negrut's tables (each number below names its table or section) and the routing of the user's
 * key=value parameters between the scenario and the compliant model (cb_compliant_prepare). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "compliant.h"
#include "scenarios_internal.h"
#include "kv.h"

/* ------------------------------------------------------------------ presets (Fang & Negrut) */

/* §4.1, Table 2 "Brick on incline parameters": slide damping K_D (N·s/m). */
#define BRICK_K_D 632.0
/* §4.4: "The simulation lasts for 8 sec" (the spinning sphere; it stops near 6.8 s). The
 * scenario's own default horizon (10 s) stays for the nonsmooth runs. */
#define SPIN_T_END "8"
/* §4.5: the ellipsoid's Hookean normal force, k_n = 10^7 N/m. */
#define ELLIPSOID_K_N 1e7
/* §4.5.1, Table 6 "Ellipsoid parameters": slide damping K_D (N·s/m). */
#define ELLIPSOID_K_D 1414.21
/* NOT in the paper: a linear normal dashpot (N·s/m) of restitution ≈ 0.4 (ζ = 0.28), so that
 * the ellipsoid does not keep bouncing once it falls flat. */
#define ELLIPSOID_C_N 3960.0
/* §4.5.2, Table 7 caption: "K_E = 5 × 10^6 N/m" (Hertz spin of App. C, steel of Table 5). */
#define ELLIPSOID_SPIN_K_E 5e6
/* §4.6: Chrono's Hertz model with E = 2 MPa (spheres and ground); its ν = 0.3 and restitution
 * 0.4 are the model's defaults (compliant_run.c). */
#define STACK_E 2e6

/* The model defaults of each scenario and scenario defaults for the compliant runs; the user's
 * parameters are applied after them. */
static int presets(const char *name, cb_compliant_settings *s, cb_kv_list *scen, cb_error *err)
{
    if (!strcmp(name, "brick-incline")) {
        s->K_D = BRICK_K_D;
    } else if (!strcmp(name, "disk-rolling")) {
        s->roll_identical = 1; /* §4.2, Table 3: K_r = η_r R² K_E = 1600, D_cr = 25.30 follow */
    } else if (!strcmp(name, "sphere-spin")) {
        return cb_kv_put(scen, "t_end", SPIN_T_END, err);
    } else if (!strcmp(name, "ellipsoid")) {
        s->normal = CB_NORMAL_HOOKE;
        s->k_n = ELLIPSOID_K_N;
        s->K_D = ELLIPSOID_K_D;
        s->c_n = ELLIPSOID_C_N;
    } else if (!strcmp(name, "ellipsoid-spin")) {
        s->spin_hertz = 1;
        s->K_E = ELLIPSOID_SPIN_K_E;
    } else if (!strcmp(name, "three-spheres")) {
        s->normal = CB_NORMAL_HERTZ;
        s->E = s->E_ground = STACK_E;
    } else if (!strcmp(name, "sphere-plane")) {
        s->mu_s = NAN; /* not a paper value: one coefficient, as the rigid model and its closed
                          form (Acary & Bourrier §6.1) */
    }
    return CB_OK;
}

/* material=NAME: a sphere of Table 5 (§4.4) → the scenario's R and m, the model's E, ν and the
 * Hertz spin model. */
static int material(const char *v, cb_compliant_settings *s, cb_kv_list *scen, cb_error *err)
{
    static const struct {
        const char *name;
        double R, rho, E, nu;
    } t5[] = {{"steel1", 0.02, CB_STEEL_RHO, CB_STEEL_E, CB_STEEL_NU},
              {"steel2", 0.04, CB_STEEL_RHO, CB_STEEL_E, CB_STEEL_NU},
              {"glass", 0.02, CB_GLASS_RHO, CB_GLASS_E, CB_GLASS_NU}};
    for (size_t k = 0; k < sizeof t5 / sizeof *t5; k++)
        if (!strcmp(v, t5[k].name)) {
            char R[64], m[64];
            snprintf(R, sizeof R, "%.17g", t5[k].R);
            snprintf(m, sizeof m, "%.17g", t5[k].rho * 4.0 / 3.0 * CB_PI * pow(t5[k].R, 3));
            s->E = t5[k].E;
            s->nu = t5[k].nu;
            s->spin_hertz = 1;
            int rc = cb_kv_put(scen, "R", R, err);
            return rc == CB_OK ? cb_kv_put(scen, "m", m, err) : rc;
        }
    return cb_fail(err, CB_ERR_INPUT, "param material: '%s' is not steel1, steel2 or glass", v);
}

/* ------------------------------------------------------------------ model parameters */

typedef struct {
    const char *key;
    size_t off;         /* offset of the double in cb_compliant_settings */
    int shared;         /* also passed to the scenario when it has the key */
    const char *help;
} model_key;

#define OFF(f) offsetof(cb_compliant_settings, f)
static const model_key model_keys[] = {
    {"mu_s", OFF(mu_s), 0, "static friction (default 0.25; sphere-plane: the scenario's mu)"},
    {"mu_k", OFF(mu_k), 1, "kinetic friction (default: the scenario's mu; sets it too)"},
    {"K_E", OFF(K_E), 0, "slide stiffness (N/m, 1e5)"},
    {"K_D", OFF(K_D), 0, "slide damping (default kd_factor sqrt(m K_E))"},
    {"kd_factor", OFF(kd_factor), 0, "K_D = kd_factor sqrt(m K_E) (2)"},
    {"eta_r", OFF(eta_r), 1, "rolling resistance (default mu_r/(2 mu_k R))"},
    {"dr_factor", OFF(dr_factor), 0, "D_R = dr_factor sqrt(I K_R) (2)"},
    {"eta_psi", OFF(eta_psi), 1, "spin coefficient (heuristic, default mu_s^scen/(mu_k R))"},
    {"K_spin", OFF(spin_K), 0, "heuristic spin curvature (5)"},
    {"dpsi_factor", OFF(dpsi_factor), 0, "D_psi = dpsi_factor sqrt(I K_psi) (2)"},
    {"k_n", OFF(k_n), 0, "Hooke normal stiffness (1e7)"},
    {"c_n", OFF(c_n), 0, "Hooke normal damping (0)"},
    {"E", OFF(E), 0, "Young's modulus (Hertz)"},
    {"nu", OFF(nu), 0, "Poisson ratio (Hertz)"},
    {"E_ground", OFF(E_ground), 0, "modulus of the plane (0: rigid)"},
    {"e_rest", OFF(e_rest), 0, "restitution of the Hertz damping (0.4)"},
    {"mu_r_legacy", OFF(mu_r_legacy), 0, "eq. 8 coefficient (0.1)"},
    {"c_safety", OFF(c_safety), 0, "EDEM limiter (0.125)"},
    {"gamma_n", OFF(gamma_n), 0, "EDEM rocking damping (default: Hertz normal damping)"},
    {"dt", OFF(dt), 0, "time step (1e-4)"},
    {"t_end", OFF(t_end), 1, "horizon (s)"},
    {"creep_tol", OFF(creep_tol), 0, "brick: slip when it travels more than this (m)"},
    {NULL, 0, 0, NULL}};
#undef OFF

static const model_key *model_key_find(const char *key)
{
    for (const model_key *m = model_keys; m->key; m++)
        if (strcmp(m->key, key) == 0)
            return m;
    return NULL;
}

/* Keywords taking a word: normal, spin, roll, material. */
static int is_word_key(const char *key)
{
    static const char *const words[] = {"normal", "spin", "roll", "material", NULL};
    for (int i = 0; words[i]; i++)
        if (strcmp(words[i], key) == 0)
            return 1;
    return 0;
}

/* normal=given|hooke|hertz, spin=heuristic|hertz, roll=plane|identical, material=... */
static int word_param(const char *k, const char *v, cb_compliant_settings *s, cb_kv_list *scen,
                      cb_error *err)
{
    if (!strcmp(k, "normal")) {
        static const char *n[] = {"given", "hooke", "hertz"};
        for (int i = 0; i < 3; i++)
            if (!strcmp(v, n[i])) {
                s->normal = (cb_normal_law)i;
                return CB_OK;
            }
        return cb_fail(err, CB_ERR_INPUT, "param normal: '%s' is not given, hooke or hertz", v);
    }
    if (!strcmp(k, "spin") || !strcmp(k, "roll")) {
        int spin = k[0] == 's';
        const char *off = spin ? "heuristic" : "plane", *on = spin ? "hertz" : "identical";
        if (strcmp(v, off) && strcmp(v, on))
            return cb_fail(err, CB_ERR_INPUT, "param %s: '%s' is not %s or %s", k, v, off, on);
        *(spin ? &s->spin_hertz : &s->roll_identical) = strcmp(v, on) == 0;
        return CB_OK;
    }
    return material(v, s, scen, err);
}

/* A numeric model parameter: any finite number (cb_compliant_settings_check judges ranges). */
static int model_number(const model_key *m, const char *v, cb_compliant_settings *s,
                        cb_error *err)
{
    cb_kv one = {m->key, v};
    cb_kv_view view = {&one, 1, NULL, "param"};
    return cb_kv_double(&view, m->key, -HUGE_VAL, HUGE_VAL, (double *)((char *)s + m->off), err);
}

/* Route one user parameter to the scenario and/or the model. */
static int route(const cb_scenario_def *def, const char *k, const char *v,
                 cb_compliant_settings *s, cb_kv_list *scen, cb_error *err)
{
    const model_key *m = model_key_find(k);
    int to_scen = cb_kv_spec_find(def->params, k) != NULL;
    int rc = CB_OK;
    if (!strcmp(k, "alpha_deg") && !to_scen && cb_kv_spec_find(def->params, "alpha"))
        return cb_kv_put(scen, "alpha", v, err); /* sphere-incline takes degrees as alpha */
    if (!strcmp(k, "mu_k") && cb_kv_spec_find(def->params, "mu"))
        rc = cb_kv_put(scen, "mu", v, err);
    if (rc == CB_OK && is_word_key(k))
        return word_param(k, v, s, scen, err);
    if (rc == CB_OK && m) {
        rc = model_number(m, v, s, err);
        if (rc != CB_OK || !m->shared || !to_scen)
            return rc;
    }
    if (rc == CB_OK && !to_scen && !m)
        return cb_fail(err, CB_ERR_INPUT, "param %s: not a parameter of scenario %s nor of "
                       "the compliant model", k, def->name);
    return rc == CB_OK ? cb_kv_put(scen, k, v, err) : rc;
}

static int parse_variant(const char *model, cb_compliant_variant *v, cb_error *err)
{
    static const char *names[] = {"compliant", "compliant-legacy", "compliant-edem"};
    for (int i = 0; i < 3; i++)
        if (model && !strcmp(model, names[i])) {
            *v = (cb_compliant_variant)i;
            return CB_OK;
        }
    return cb_fail(err, CB_ERR_INPUT, "--model: '%s' is not compliant, compliant-legacy or "
                   "compliant-edem", model ? model : "");
}

/* Every pair has a key and a value (checked before anything is built). */
static int params_shape(const cb_kv *params, int n, cb_error *err)
{
    if (n < 0 || (n > 0 && !params))
        return cb_fail(err, CB_ERR_INPUT, "params: inconsistent count %d", n);
    for (int k = 0; k < n; k++)
        if (!params[k].key || !params[k].value)
            return cb_fail(err, CB_ERR_INPUT, "param %d: missing key or value", k);
    return CB_OK;
}

int cb_compliant_prepare(const char *scenario, const char *model, const cb_kv *params,
                         int nparams, cb_scenario *scen, cb_compliant_settings *s, cb_error *err)
{
    memset(scen, 0, sizeof *scen);
    cb_compliant_settings_default(s);
    const cb_scenario_def *def = cb_scenario_find(scenario);
    if (!def)
        return cb_fail(err, CB_ERR_INPUT, "unknown scenario '%s' (see: conebench list "
                       "scenarios)", scenario ? scenario : "");
    int rc = params_shape(params, nparams, err);
    if (rc == CB_OK)
        rc = parse_variant(model, &s->variant, err);
    cb_kv_list sk = {0};
    if (rc == CB_OK)
        rc = presets(def->name, s, &sk, err);
    for (int k = 0; rc == CB_OK && k < nparams; k++)
        rc = route(def, params[k].key, params[k].value, s, &sk, err);
    if (rc == CB_OK)
        rc = cb_scenario_build(def, sk.items, sk.n, scen, err);
    if (rc == CB_OK)
        rc = cb_compliant_settings_check(s, err);
    if (rc != CB_OK)
        cb_scenario_free(scen);
    cb_kv_list_free(&sk);
    return rc;
}
