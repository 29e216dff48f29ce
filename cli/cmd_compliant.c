/* conebench — `conebench simulate SCENARIO --model compliant|compliant-legacy|compliant-edem`:
 * parameter routing between the scenario and the compliant model, per-scenario presets from
 * Fang & Negrut's tables, CSV time series and the JSON summary. */
#include "cli_compliant.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "util.h"
#include "conebench/io.h"
#include "scenarios/fang.h"

#define CBC_MAX_KV 64

const cb_scenario_def *cb_compliant_scenario_find(const char *name)
{
    const cb_scenario_def *d = cb_scenario_find(name);
    return d ? d : cb_fang_scenario_find(name);
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

/* Keywords taking a word: normal, spin, roll, material. */
static const char *const word_keys[] = {"normal", "spin", "roll", "material", NULL};

typedef struct {
    int n;
    cb_option kv[CBC_MAX_KV];
    char buf[CBC_MAX_KV][160];
} kv_set;

static int kv_put(kv_set *l, const char *k, const char *v, cb_error *err)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->kv[i].key, k) == 0) { /* later values win */
            snprintf(l->buf[i] + strlen(k) + 1, sizeof l->buf[i] - strlen(k) - 1, "%s", v);
            return CB_OK;
        }
    if (l->n == CBC_MAX_KV || strlen(k) + strlen(v) + 2 > sizeof l->buf[0])
        return cb_fail(err, CB_ERR_INPUT, "param %s: too many or too long", k);
    char *b = l->buf[l->n];
    snprintf(b, sizeof l->buf[0], "%s", k);
    snprintf(b + strlen(k) + 1, sizeof l->buf[0] - strlen(k) - 1, "%s", v);
    l->kv[l->n].key = b;
    l->kv[l->n].value = b + strlen(k) + 1;
    l->n++;
    return CB_OK;
}

static int spec_has(const cb_option_spec *spec, const char *key)
{
    for (; spec->key; spec++)
        if (strcmp(spec->key, key) == 0)
            return 1;
    return 0;
}

static const model_key *model_key_find(const char *key)
{
    for (const model_key *m = model_keys; m->key; m++)
        if (strcmp(m->key, key) == 0)
            return m;
    return NULL;
}

static int is_word_key(const char *key)
{
    for (int i = 0; word_keys[i]; i++)
        if (strcmp(word_keys[i], key) == 0)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ presets */

/* Model defaults of each scenario (Fang & Negrut tables) and scenario defaults for the
 * compliant runs; user parameters given later override them. */
static int presets(const char *name, cb_compliant_settings *s, kv_set *scen, kv_set *model,
                   cb_error *err)
{
    int rc = CB_OK;
    if (!strcmp(name, "brick-incline")) {
        s->K_D = 632.0; /* Table 2 */
    } else if (!strcmp(name, "disk-rolling")) {
        s->roll_identical = 1; /* Table 3: K_r = eta_r R^2 K_E = 1600, D_cr = 25.30 */
    } else if (!strcmp(name, "sphere-spin")) {
        rc = kv_put(scen, "t_end", "10", err);
    } else if (!strcmp(name, "ellipsoid")) {
        s->normal = CB_NORMAL_HOOKE; /* §4.5: k_n = 1e7; Table 6: K_D = 1414.21 */
        s->K_D = 1414.21;
        s->c_n = 3960.0; /* not in the paper: linear dashpot of restitution ≈ 0.4 (ζ = 0.28)
                            so that the ellipsoid does not keep bouncing once it falls */
    } else if (!strcmp(name, "ellipsoid-spin")) {
        s->spin_hertz = 1; /* Table 7: K_E = 5e6, steel (Table 5) */
        s->K_E = 5e6;
    } else if (!strcmp(name, "three-spheres")) {
        s->normal = CB_NORMAL_HERTZ; /* §4.6: Chrono Hertz, E = 2 MPa, nu = 0.3, e = 0.4 */
        s->E = 2e6;
        s->E_ground = 2e6;
    } else if (!strcmp(name, "sphere-plane")) {
        s->mu_s = NAN; /* one coefficient, as the rigid model and its closed form */
    }
    (void)model;
    return rc;
}

/* Table 5 spheres: R, density, E, nu → scenario R and m, model E and nu. */
static int material(const char *v, cb_compliant_settings *s, kv_set *scen, cb_error *err)
{
    static const struct {
        const char *name;
        double R, rho, E, nu;
    } t5[] = {{"steel1", 0.02, 8e3, 2e11, 0.3}, {"steel2", 0.04, 8e3, 2e11, 0.3},
              {"glass", 0.02, 2.5e3, 5e10, 0.2}};
    for (size_t k = 0; k < sizeof t5 / sizeof *t5; k++)
        if (!strcmp(v, t5[k].name)) {
            char R[64], m[64];
            snprintf(R, sizeof R, "%.17g", t5[k].R);
            snprintf(m, sizeof m, "%.17g", t5[k].rho * 4.0 / 3.0 * M_PI * pow(t5[k].R, 3));
            s->E = t5[k].E;
            s->nu = t5[k].nu;
            s->spin_hertz = 1;
            int rc = kv_put(scen, "R", R, err);
            return rc == CB_OK ? kv_put(scen, "m", m, err) : rc;
        }
    return cb_fail(err, CB_ERR_INPUT, "param material: '%s' is not steel1, steel2 or glass", v);
}

/* normal=given|hooke|hertz, spin=heuristic|hertz, roll=plane|identical, material=... */
static int word_param(const char *k, const char *v, cb_compliant_settings *s, kv_set *scen,
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
        const char *a = k[0] == 's' ? "heuristic" : "plane", *b = k[0] == 's' ? "hertz"
                                                                         : "identical";
        if (strcmp(v, a) && strcmp(v, b))
            return cb_fail(err, CB_ERR_INPUT, "param %s: '%s' is not %s or %s", k, v, a, b);
        *(k[0] == 's' ? &s->spin_hertz : &s->roll_identical) = strcmp(v, b) == 0;
        return CB_OK;
    }
    return material(v, s, scen, err);
}

/* A numeric model parameter. */
static int model_number(const model_key *m, const char *v, cb_compliant_settings *s,
                        cb_error *err)
{
    char *end = NULL;
    double x = strtod(v, &end);
    if (!*v || *end || !isfinite(x))
        return cb_fail(err, CB_ERR_INPUT, "param %s: '%s' is not a finite number", m->key, v);
    *(double *)((char *)s + m->off) = x;
    return CB_OK;
}

/* Route one user parameter (after aliases) to the scenario and/or the model. */
static int route(const cb_scenario_def *def, const char *k, const char *v,
                 cb_compliant_settings *s, kv_set *scen, kv_set *model, cb_error *err)
{
    const model_key *m = model_key_find(k);
    int to_scen = spec_has(def->params, k);
    int rc = CB_OK;
    if (!strcmp(k, "alpha_deg") && !to_scen && spec_has(def->params, "alpha"))
        return kv_put(scen, "alpha", v, err); /* sphere-incline takes degrees as alpha */
    if (!strcmp(k, "mu_k") && spec_has(def->params, "mu"))
        rc = kv_put(scen, "mu", v, err);
    if (rc == CB_OK && is_word_key(k))
        return word_param(k, v, s, scen, err);
    if (rc == CB_OK && m) {
        rc = model_number(m, v, s, err);
        if (rc == CB_OK)
            rc = kv_put(model, k, v, err);
        if (rc != CB_OK || !m->shared || !to_scen)
            return rc;
    }
    if (rc == CB_OK && !to_scen && !m)
        return cb_fail(err, CB_ERR_INPUT, "param %s: not a parameter of scenario %s nor of "
                       "the compliant model", k, def->name);
    return rc == CB_OK ? kv_put(scen, k, v, err) : rc;
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

int cb_compliant_setup(const char *scenario, const char *model, const cb_option *params,
                       int nparams, cb_scenario *scen, cb_compliant_settings *s, cb_error *err)
{
    memset(scen, 0, sizeof *scen);
    cb_compliant_settings_default(s);
    const cb_scenario_def *def = cb_compliant_scenario_find(scenario);
    if (!def)
        return cb_fail(err, CB_ERR_INPUT, "unknown scenario '%s' (see: conebench list "
                       "scenarios)", scenario ? scenario : "");
    kv_set *sk = calloc(2, sizeof *sk);
    if (!sk)
        return cb_fail(err, CB_ERR_NOMEM, "compliant: out of memory");
    int rc = parse_variant(model, &s->variant, err);
    if (rc == CB_OK)
        rc = presets(def->name, s, &sk[0], &sk[1], err);
    for (int k = 0; rc == CB_OK && k < nparams; k++)
        rc = route(def, params[k].key, params[k].value, s, &sk[0], &sk[1], err);
    if (rc == CB_OK)
        rc = cb_scenario_build(def, sk[0].kv, sk[0].n, scen, err);
    if (rc == CB_OK)
        rc = cb_compliant_settings_check(s, err);
    if (rc != CB_OK)
        cb_scenario_free(scen);
    free(sk);
    return rc;
}

/* ------------------------------------------------------------------ output */

/* Model statistics: kinetic loads, switch times, parameters in use. */
static void json_model(cb_json *j, const cb_compliant_settings *s, const cb_compliant_result *r)
{
    cb_json_str(j, "mode", r->travel > s->creep_tol ? "slip" : "stick");
    cb_json_num(j, "travel", r->travel);
    cb_json_num(j, "accel", r->accel);
    cb_json_num(j, "Ef_kinetic", r->Ef_kinetic);
    cb_json_num(j, "FE_kinetic", r->Ef_kinetic);
    cb_json_num(j, "TE_kinetic", r->TE_kinetic);
    cb_json_num(j, "T_spin_kinetic", r->T_spin_kinetic);
    cb_json_num(j, "t_roll", r->t_slide_static);
    cb_json_num(j, "t_slip", r->t_slide_kinetic);
    cb_json_num(j, "Ef_max", r->Ef_max);
    cb_json_num(j, "TE_max", r->TE_max);
    cb_json_num(j, "T_spin_E_max", r->T_spin_E_max);
    cb_json_str(j, "slide_mode", cb_friction_mode_name(r->slide_end));
    cb_json_str(j, "roll_mode", cb_friction_mode_name(r->roll_end));
    cb_json_str(j, "spin_mode", cb_friction_mode_name(r->spin_end));
    cb_json_num(j, "eta_r", r->eta_r);
    cb_json_num(j, "K_R", r->K_R);
    cb_json_num(j, "D_R", r->D_R);
    cb_json_num(j, "K_D", r->K_D);
    cb_json_num(j, "K_psi", r->K_psi);
    cb_json_num(j, "S_psi_s", r->S_psi_s);
    cb_json_num(j, "S_psi_k", r->S_psi_k);
    cb_json_num(j, "spin_curvature", r->spin_curv);
    cb_json_num(j, "a_hertz", r->a_hertz);
    cb_json_num(j, "N0", r->N0);
    cb_json_num(j, "up_angle_deg", r->up_angle * 180.0 / M_PI);
}

/* The summary of a compliant run as one JSON object (keys: docs/conebench.1, JSON OUTPUT). */
static void print_json(const char *model, const cb_scenario *scen, const cb_compliant_settings *s,
                       const cb_compliant_result *r)
{
    cb_json j;
    cb_json_scenario_begin(&j, stdout, scen, model);
    cb_json_int(&j, "steps", r->steps);
    cb_json_int(&j, "contact_steps", r->contact_steps);
    cb_json_num(&j, "t", r->t);
    cb_json_num(&j, "time_s", r->time_s);
    if (!(scen->outputs & CB_OUT_STOP))
        cb_json_num(&j, "t_stop", r->summary.t_stop);
    cb_json_scenario_summary(&j, scen, &r->summary);
    json_model(&j, s, r);
    cb_json_end(&j);
}

/* ------------------------------------------------------------------ CSV */

typedef struct {
    FILE *f;
    const cb_scenario *scen;
    long every, step;
} csv_ctx;

static void csv_header(const csv_ctx *c)
{
    static const char *st[] = {"x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz"};
    fprintf(c->f, "t");
    for (int k = 0; k < c->scen->ntracked; k++)
        for (int q = 0; q < 9; q++)
            fprintf(c->f, ",b%d_%s", c->scen->tracked[k], st[q]);
    fprintf(c->f, ",v_travel,N,S,FE,FD,FE_travel,TE,TD,TE_y,Tspin_E,Tspin_D,Psi,slide,roll,spin"
                  "\n");
}

/* The primary contact: the scenario's first pair, else the first active one. */
static const cb_compliant_contact *primary(const csv_ctx *c, const cb_compliant_contact *cc,
                                           int nc)
{
    for (int a = 0; a < nc; a++)
        if (c->scen->npairs > 0 && cc[a].i == c->scen->pairs[0].i &&
            cc[a].j == c->scen->pairs[0].j)
            return &cc[a];
    return nc > 0 ? &cc[0] : NULL;
}

static int csv_hook(void *ctx, double t, const cb_body *b, int nb, const cb_compliant_contact *cc,
                    int nc)
{
    csv_ctx *c = ctx;
    (void)nb;
    if (c->step++ % c->every != 0)
        return 0;
    fprintf(c->f, "%.10g", t);
    for (int k = 0; k < c->scen->ntracked; k++) {
        const cb_body *x = &b[c->scen->tracked[k]];
        const double *v[3] = {x->x, x->v, x->w};
        for (int q = 0; q < 9; q++)
            fprintf(c->f, ",%.12g", v[q / 3][q % 3]);
    }
    int sj = c->scen->subject >= 0 ? c->scen->subject : 0;
    const double *tr = c->scen->travel;
    fprintf(c->f, ",%.12g", b[sj].v[0] * tr[0] + b[sj].v[1] * tr[1] + b[sj].v[2] * tr[2]);
    const cb_compliant_contact *p = primary(c, cc, nc);
    if (!p || !p->active) {
        fprintf(c->f, ",0,0,0,0,0,0,0,0,0,0,0,,,\n");
        return 0;
    }
    double fe = sqrt(p->F_E[0] * p->F_E[0] + p->F_E[1] * p->F_E[1] + p->F_E[2] * p->F_E[2]);
    double fd = sqrt(p->F_D[0] * p->F_D[0] + p->F_D[1] * p->F_D[1] + p->F_D[2] * p->F_D[2]);
    const double *te = p->T_E[1], *td = p->T_D[1];
    fprintf(c->f, ",%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%s,%s,%s\n",
            p->N, hypot(p->S[0], p->S[1]), fe, fd,
            p->F_E[0] * tr[0] + p->F_E[1] * tr[1] + p->F_E[2] * tr[2],
            sqrt(te[0] * te[0] + te[1] * te[1] + te[2] * te[2]),
            sqrt(td[0] * td[0] + td[1] * td[1] + td[2] * td[2]), te[1], p->T_spin_E,
            p->T_spin_D, p->Psi, cb_friction_mode_name(p->slide),
            cb_friction_mode_name(p->roll[1]), cb_friction_mode_name(p->spin));
    return 0;
}

/* ------------------------------------------------------------------ command */

typedef struct {
    const char *scenario, *model, *csv;
    long every;
    int json;
    int n;
    cb_option kv[CBC_MAX_KV];
} comp_args;

const cb_cli_opt cb_simulate_compliant_opts[] = {
    {"model", 'm', "M", "compliant (Fang & Negrut), compliant-legacy (eq. 8) or compliant-edem"},
    {"param", 'p', "k=v", "a scenario or model parameter, repeatable: the scenario's keys, and "
                          "mu_s mu_k K_E K_D kd_factor eta_r dr_factor eta_psi K_spin dpsi_factor "
                          "k_n c_n E nu E_ground e_rest mu_r_legacy c_safety gamma_n dt t_end "
                          "creep_tol normal=given|hooke|hertz spin=heuristic|hertz "
                          "roll=plane|identical material=steel1|steel2|glass"},
    {"csv", 'c', "OUT", "write the time series (one row every N steps: man conebench, RESULTS FILES)"},
    {"every", 'e', "N", "one CSV row every N steps (default 10)"},
    {"json", 'j', NULL, "print one JSON object (keys: man conebench, JSON OUTPUT)"},
    {NULL, 0, NULL, NULL}};

static int comp_parse(int argc, char **argv, comp_args *a)
{
    memset(a, 0, sizeof *a);
    a->model = "compliant";
    a->every = 10;
    cb_cli_parser p;
    int c;
    cb_cli_parser_init(&p, cb_simulate_compliant_opts);
    while ((c = cb_cli_next(&p, argc, argv)) != -1) {
        char *eq = c == 'p' ? strchr(optarg, '=') : NULL;
        if (c == 'm')
            a->model = optarg;
        else if (c == 'c')
            a->csv = optarg;
        else if (c == 'j')
            a->json = 1;
        else if (c == 'e' && cb_cli_parse_long("--every", optarg, 1, 0x7fffffff, &a->every))
            return CB_EXIT_BADINPUT;
        else if (c == 'p' && (!eq || eq == optarg || a->n == CBC_MAX_KV))
            return cb_cli_usage_error("--param: '%s' is not key=value (at most %d)", optarg,
                                      CBC_MAX_KV);
        else if (c == 'p') {
            *eq = '\0'; /* argv is ours to split */
            a->kv[a->n].key = optarg;
            a->kv[a->n++].value = eq + 1;
        } else if (c == '?')
            return cb_cli_usage_of("simulate", CB_USAGE_SIMULATE_COMPLIANT);
    }
    if (optind != argc - 1)
        return cb_cli_usage_of("simulate", CB_USAGE_SIMULATE_COMPLIANT);
    a->scenario = argv[optind];
    return CB_EXIT_OK;
}

static void print_text(const char *model, const cb_scenario *s, const cb_compliant_result *r)
{
    printf("%s  %s  steps=%ld  t=%.6g  time=%.3fs  slide=%s roll=%s spin=%s", s->name, model,
           r->steps, r->t, r->time_s, cb_friction_mode_name(r->slide_end),
           cb_friction_mode_name(r->roll_end), cb_friction_mode_name(r->spin_end));
    if (s->outputs & CB_OUT_STOP)
        printf("  stopped=%s x_stop=%.9g t_stop=%.9g", r->summary.stopped ? "yes" : "no",
               r->summary.x_stop, r->summary.t_stop);
    if (s->outputs & CB_OUT_REGIME)
        printf("  regime=%s", cb_regime_name(r->summary.regime));
    printf("  Ef_kinetic=%.6g TE_kinetic=%.6g T_spin_kinetic=%.6g\n", r->Ef_kinetic,
           r->TE_kinetic, r->T_spin_kinetic);
}

static int comp_run(const comp_args *a, const cb_scenario *scen, const cb_compliant_settings *s)
{
    char *buf = NULL;
    size_t len = 0;
    csv_ctx c = {NULL, scen, a->every, 0};
    if (a->csv && !(c.f = open_memstream(&buf, &len)))
        return cb_cli_usage_error("csv: out of memory");
    if (c.f)
        csv_header(&c);
    cb_compliant_result res;
    cb_error err;
    cb_error_clear(&err);
    int rc = cb_compliant_run(scen, s, c.f ? csv_hook : NULL, &c, &res, &err);
    int st = rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
    if (c.f) {
        fclose(c.f);
        int rc2 = cb_write_file_atomic(a->csv, buf, len, &err);
        if (st == CB_EXIT_OK && rc2 != CB_OK)
            st = cb_cli_report(rc2, &err);
    }
    free(buf);
    if (rc == CB_OK)
        a->json ? print_json(a->model, scen, s, &res)
                : print_text(a->model, scen, &res);
    return st;
}

int cb_cmd_simulate_compliant(int argc, char **argv)
{
    comp_args a;
    int rc = comp_parse(argc, argv, &a);
    if (rc != CB_EXIT_OK)
        return rc;
    cb_scenario scen;
    cb_compliant_settings s;
    cb_error err;
    cb_error_clear(&err);
    rc = cb_compliant_setup(a.scenario, a.model, a.kv, a.n, &scen, &s, &err);
    if (rc != CB_OK)
        return cb_cli_report(rc, &err);
    rc = comp_run(&a, &scen, &s);
    cb_scenario_free(&scen);
    return rc;
}
