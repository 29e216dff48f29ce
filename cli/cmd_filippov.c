/* conebench — `conebench filippov wheel|body|map`: the extended-Filippov limit-direction analysis
 * of a body rolling on a plane (Antali & Stepan 2019). `wheel` and `body` analyse one
 * rolling state (text or --json); `map` writes the wheel's region maps (AS Fig. 12–13), phase
 * portraits of the four cases (Fig. 6–9) from simulations of the slipping equations near Σ,
 * their data, gnuplot PNG+SVG figures (plots/filippov_*.gp) and DIR/filippov.md. */
#include "commands.h"
#include "json.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "body.h"
#include "campaign.h"
#include "filippov.h"
#include "conebench/io.h"
#include "fileio.h"
#include "gnuplot.h"
#include "kv.h"

#define STATE_USAGE "filippov wheel|body [--param k=v]... [--json]"

static const cb_cli_opt state_opts[] = {
    {"param", CB_CLI_SHORT('p'), "k=v", "a parameter of the body or its state, repeatable (keys "
                                        "below)"},
    {"json", 'j', NULL, "print one JSON object (keys: man conebench, JSON OUTPUT)"},
    {NULL, 0, NULL, NULL}};

#define WHEEL_KEYS "m rho g mu Md Ms w2 w3 law mu0 gamma"
#define BODY_KEYS                                                                                 \
    "shape m R L a b c roll pitch yaw g wx wy wz Fx Fy Fz Mx My Mz mu law mu0 gamma balance "      \
    "spin_frame N"
static const char *wheel_keys = WHEEL_KEYS;
static const char *body_keys = BODY_KEYS;

static const char *normalisation_note =
    "Md is the physical driving torque of AS eq. 62 (C1 = -2 Md/(m rho)); AS eq. 69-70 as "
    "printed and the quoted special values |Md| = 3, 2, 0.459 mu m g rho use C1 = -Md/(m rho) "
    "(a factor 2): in eq. 62 normalisation they are 1.5, 1 and 0.2296 mu m g rho";

typedef struct {
    const char *sub; /* wheel, body, map */
    int json, quick;
    const char *outdir, *plots;
    cb_kv_list params;   /* --param pairs (owned) */
    unsigned char *used; /* used[i]: params.items[i] was read (owned) */
} fil_args;

/* ------------------------------------------------------------------ arguments */

static void args_free(fil_args *a)
{
    cb_kv_list_free(&a->params);
    free(a->used);
    a->used = NULL;
}

/* "k=v" appended to the parameter list, each key once (exit status). */
static int param_add(fil_args *a, const char *s)
{
    int rc = cb_cli_kv_add(&a->params, "--param", s);
    if (rc != CB_EXIT_OK)
        return rc;
    int n = a->params.n;
    const char *k = a->params.items[n - 1].key;
    for (int i = 0; i < n - 1; i++)
        if (!strcmp(a->params.items[i].key, k))
            return cb_cli_usage_error("--param %s: given twice", k);
    unsigned char *u = realloc(a->used, (size_t)n);
    if (!u)
        return cb_cli_fail("out of memory");
    a->used = u;
    a->used[n - 1] = 0;
    return CB_EXIT_OK;
}

/* argv[1] is the subcommand: wheel and body take --param and --json, map -o, --plots, --quick. */
static int parse_args(int argc, char **argv, fil_args *a)
{
    memset(a, 0, sizeof *a);
    if (argc < 2)
        return cb_cli_usage(&cb_command_filippov);
    a->sub = argv[1];
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, strcmp(a->sub, "map") ? state_opts : cb_filippov_files_opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc - 1, argv + 1)) != -1) {
        if (c == 'p')
            rc = param_add(a, optarg);
        else if (c == 'j')
            a->json = 1;
        else if (c == 'o')
            a->outdir = optarg;
        else if (c == 'P')
            a->plots = optarg;
        else if (c == 'q')
            a->quick = 1;
        else
            rc = cb_cli_usage(&cb_command_filippov);
    }
    if (rc == CB_EXIT_OK && optind != argc - 1) {
        cb_cli_usage_error("filippov %s: unexpected argument '%s'", a->sub, argv[1 + optind]);
        rc = cb_cli_usage(&cb_command_filippov);
    }
    return rc;
}

/* The pair given for key (marked read), or NULL. */
static const cb_kv *param_find(fil_args *a, const char *key)
{
    for (int i = 0; i < a->params.n; i++)
        if (!strcmp(a->params.items[i].key, key)) {
            a->used[i] = 1;
            return &a->params.items[i];
        }
    return NULL;
}

/* *out ← the number given for key (unchanged when absent); exit status. */
static int param_double(fil_args *a, const char *key, double *out)
{
    const cb_kv *p = param_find(a, key);
    if (!p)
        return CB_EXIT_OK;
    char opt[96];
    snprintf(opt, sizeof opt, "--param %s", key);
    return cb_cli_parse_double(opt, p->value, out);
}

/* *out ← 0 or 1 for key (unchanged when absent); exit status. */
static int param_flag(fil_args *a, const char *key, int *out)
{
    const cb_kv *p = param_find(a, key);
    if (!p)
        return CB_EXIT_OK;
    if (strcmp(p->value, "0") && strcmp(p->value, "1"))
        return cb_cli_usage_error("--param %s: must be 0 or 1, got '%s'", key, p->value);
    *out = p->value[0] == '1';
    return CB_EXIT_OK;
}

/* Every parameter given must have been read. */
static int params_all_used(const fil_args *a, const char *known)
{
    for (int i = 0; i < a->params.n; i++)
        if (!a->used[i])
            return cb_cli_usage_error("--param %s: unknown parameter for `filippov %s` (known: %s)",
                                      a->params.items[i].key, a->sub, known);
    return CB_EXIT_OK;
}

/* Several numbers at once: keys[i] → *vals[i]. */
static int param_doubles(fil_args *a, const char *const *keys, double *const *vals, int n)
{
    int rc = CB_EXIT_OK;
    for (int i = 0; rc == CB_EXIT_OK && i < n; i++)
        rc = param_double(a, keys[i], vals[i]);
    return rc;
}

/* law, mu0, gamma: law defaults to stribeck when gamma is given, stiction when mu0 is. */
static int param_friction(fil_args *a, cb_fil_friction *f)
{
    int have_mu0 = param_find(a, "mu0") != NULL, have_gamma = param_find(a, "gamma") != NULL;
    f->mu_static = f->mu;
    const char *keys[2] = {"mu0", "gamma"};
    double *vals[2] = {&f->mu_static, &f->gamma};
    int rc = param_doubles(a, keys, vals, 2);
    f->law = have_gamma ? CB_FIL_STRIBECK : have_mu0 ? CB_FIL_STICTION : CB_FIL_COULOMB;
    const cb_kv *p = param_find(a, "law");
    if (rc != CB_EXIT_OK || !p)
        return rc;
    if (!strcmp(p->value, "coulomb"))
        f->law = CB_FIL_COULOMB;
    else if (!strcmp(p->value, "stiction"))
        f->law = CB_FIL_STICTION;
    else if (!strcmp(p->value, "stribeck"))
        f->law = CB_FIL_STRIBECK;
    else
        rc = cb_cli_usage_error("--param law: must be coulomb, stiction or stribeck, got '%s'",
                                p->value);
    return rc;
}

/* A library error "field: what": "--param field: what" when field is a parameter name. */
static int report_error(int code, const cb_error *err, const char *known)
{
    const char *colon = strchr(err->text, ':');
    size_t len = colon ? (size_t)(colon - err->text) : 0;
    const char *k = known;
    while (len && *k) {
        size_t kl = strcspn(k, " ");
        if (kl == len && !strncmp(k, err->text, len)) {
            fprintf(stderr, "conebench: --param %s\n", err->text);
            return cb_cli_exit_code(code);
        }
        k += kl + (k[kl] == ' ');
    }
    return cb_cli_report(code, err);
}

/* ------------------------------------------------------------------ bodies from parameters */

static int wheel_from_params(fil_args *a, cb_fil_wheel *w)
{
    cb_fil_wheel_default(w);
    const char *keys[8] = {"m", "rho", "g", "mu", "Md", "Ms", "w2", "w3"};
    double *vals[8] = {&w->m, &w->rho, &w->g, &w->mu, &w->Md, &w->Ms, &w->w2, &w->w3};
    int rc = param_doubles(a, keys, vals, 8);
    cb_fil_friction f = {CB_FIL_COULOMB, w->mu, w->mu, w->gamma};
    if (rc == CB_EXIT_OK)
        rc = param_friction(a, &f);
    w->law = f.law;
    w->mu_static = f.mu_static;
    w->gamma = f.gamma;
    return rc == CB_EXIT_OK ? params_all_used(a, wheel_keys) : rc;
}

static int shape_kind(fil_args *a, cb_fil_shape_state *s)
{
    const cb_kv *p = param_find(a, "shape");
    const char *v = p ? p->value : "sphere";
    for (int k = CB_FIL_SPHERE; k <= CB_FIL_ELLIPSOID; k++)
        if (!strcmp(v, cb_fil_shape_name((cb_fil_shape)k))) {
            s->shape = (cb_fil_shape)k;
            return CB_EXIT_OK;
        }
    return cb_cli_usage_error("--param shape: must be sphere, disk or ellipsoid, got '%s'", v);
}

static int body_from_params(fil_args *a, cb_fil_shape_state *s)
{
    cb_fil_shape_state_default(s);
    int rc = shape_kind(a, s);
    const char *keys[21] = {"m",  "R",  "L",  "a",  "b",  "c",  "roll", "pitch", "yaw", "g", "wx",
                            "wy", "wz", "Fx", "Fy", "Fz", "Mx", "My",    "Mz",  "mu", "N"};
    double *vals[21] = {&s->mass,     &s->radius,    &s->thickness,  &s->semi[0],
                        &s->semi[1],  &s->semi[2],   &s->roll,       &s->pitch,
                        &s->yaw,      &s->g,         &s->omega[0],   &s->omega[1],
                        &s->omega[2], &s->force[0],  &s->force[1],   &s->force[2],
                        &s->torque[0], &s->torque[1], &s->torque[2], &s->friction.mu,
                        &s->normal_force};
    if (rc == CB_EXIT_OK)
        rc = param_doubles(a, keys, vals, 21);
    if (rc == CB_EXIT_OK)
        rc = param_friction(a, &s->friction);
    if (rc == CB_EXIT_OK)
        rc = param_flag(a, "balance", &s->balance);
    if (rc == CB_EXIT_OK)
        rc = param_flag(a, "spin_frame", &s->frame_spins);
    return rc == CB_EXIT_OK ? params_all_used(a, body_keys) : rc;
}

/* ------------------------------------------------------------------ JSON */

static void json_coef(cb_json *j, const cb_fil_coef *c)
{
    const char *k[6] = {"A1", "A2", "B1", "B2", "C1", "C2"};
    const double v[6] = {c->A1, c->A2, c->B1, c->B2, c->C1, c->C2};
    for (int i = 0; i < 6; i++)
        cb_json_num(j, k[i], v[i]);
}

static void json_rate(cb_json *j, const char *key, const cb_fil_rate *r)
{
    cb_json_object(j, key);
    cb_json_num(j, "du1", r->u[0]);
    cb_json_num(j, "du2", r->u[1]);
    cb_json_num(j, "dw1", r->w[0]);
    cb_json_num(j, "dw2", r->w[1]);
    cb_json_num(j, "dw3", r->w[2]);
    cb_json_close(j);
}

static void json_dirs(cb_json *j, const char *key, const cb_fil_dirset *d, double delta)
{
    cb_json_array(j, key);
    for (int k = 0; k < d->ndir; k++) {
        const cb_fil_direction *x = &d->dir[k];
        cb_json_object(j, NULL);
        cb_json_num(j, "phi", x->phi);
        cb_json_num(j, "phi_reduced", fmod(x->phi - delta + 4 * CB_PI, 2 * CB_PI));
        cb_json_bool(j, "attracting", x->attracting);
        cb_json_bool(j, "angularly_stable", x->angularly_stable);
        cb_json_num(j, "R", x->R);
        cb_json_num(j, "dV_dphi", x->dV);
        cb_json_close(j);
    }
    cb_json_close(j);
}

static const char *law_name(cb_fil_friction_law l)
{
    return l == CB_FIL_STRIBECK ? "stribeck" : l == CB_FIL_STICTION ? "stiction" : "coulomb";
}

static void json_rolling(cb_json *j, const cb_fil_report *r, double mu0)
{
    cb_json_object(j, "static_friction");
    cb_json_num(j, "Ff1", r->rolling.force[0]);
    cb_json_num(j, "Ff2", r->rolling.force[1]);
    cb_json_num(j, "N", r->rolling.normal);
    cb_json_num(j, "mu0", mu0);
    cb_json_num(j, "ratio", r->rolling.ratio);
    cb_json_close(j);
}

static void json_exact(cb_json *j, const cb_fil_report *r)
{
    cb_json_object(j, "exact");
    cb_json_bool(j, "valid", r->exact_valid);
    if (r->exact_valid) {
        cb_json_str(j, "case", cb_fil_case_name(r->exact_dirs.kase));
        cb_json_int(j, "n_directions", r->exact_dirs.ndir);
        json_dirs(j, "directions", &r->exact_dirs, 0);
        cb_json_num(j, "N_min", r->N_min);
        cb_json_num(j, "N_max", r->N_max);
        cb_json_num(j, "max_rel_difference", r->exact_diff);
        cb_json_num(j, "max_direction_shift", r->exact_dir_shift);
    }
    cb_json_str(j, "note", "directional limits of the full slipping field with N(phi) from the "
                           "normal constraint; AS's A, B, C use the fixed N above");
    cb_json_close(j);
}

/* The case, its directions and the criteria behind it. */
static void json_case(cb_json *j, const cb_fil_report *r)
{
    const cb_fil_analysis *p = &r->paper;
    cb_json_str(j, "case", cb_fil_case_name(p->dirs.kase));
    cb_json_str(j, "case_criteria", cb_fil_case_name(p->kase_criteria));
    json_dirs(j, "directions", &p->dirs, p->delta);
    cb_json_int(j, "n_directions", p->dirs.ndir);
    cb_json_int(j, "n_repelling", p->dirs.nrepelling);
    cb_json_bool(j, "continuum", p->dirs.continuum);
    cb_json_bool(j, "on_boundary", p->dirs.on_boundary);
    cb_json_bool(j, "rolling_admissible", r->rolling.admissible);
    cb_json_bool(j, "theorem4_holds", r->theorem4_holds);
    json_coef(j, &p->reduced);
    cb_json_num(j, "delta", p->delta);
    cb_json_object(j, "coefficients_input");
    json_coef(j, &p->input);
    cb_json_close(j);
    cb_json_num(j, "fold_margin_eq46", p->fold_margin);
    cb_json_num(j, "repel_margin_eq48", p->repel_margin);
}

/* Main body of the report (everything but the wheel extras). */
static void json_report(cb_json *j, const cb_fil_report *r, const cb_fil_friction *fr)
{
    const cb_fil_analysis *p = &r->paper;
    json_case(j, r);
    cb_json_num(j, "N", r->N);
    cb_json_str(j, "friction_law", law_name(fr->law));
    cb_json_num(j, "mu_limit", r->mu_limit);
    json_rolling(j, r, fr->law == CB_FIL_COULOMB ? fr->mu : fr->mu_static);
    json_rate(j, "F_Sigma", &r->F_sigma);
    cb_json_array(j, "sliding_weights");
    cb_json_num(j, NULL, p->weights[0]);
    cb_json_num(j, NULL, p->weights[1]);
    cb_json_close(j);
    cb_json_num(j, "sliding_weight_norm", p->weight_norm);
    json_rate(j, "A", &r->A);
    json_rate(j, "B", &r->B);
    json_rate(j, "C", &r->C);
    json_exact(j, r);
    cb_json_str(j, "frame", "phi from t1 towards t2 of the input frame; A1..C2 are in the frame "
                            "rotated by delta (AS Prop. 3), phi_reduced = phi - delta");
}

static void json_wheel(cb_json *j, const cb_fil_wheel *w)
{
    double x, y;
    cb_fil_wheel_xy(w, &x, &y);
    cb_fil_wheel_specials sp;
    cb_fil_wheel_special_values(&sp);
    cb_json_object(j, "wheel");
    cb_json_num(j, "x_Md_over_mu_m_g_rho", x);
    cb_json_num(j, "y_rho_w2w3_over_g_mu", y);
    cb_json_str(j, "case_analytic_eq69_70", cb_fil_case_name(cb_fil_wheel_case_analytic(x, y, 0)));
    cb_json_num(j, "eq69_margin", cb_fil_wheel_eq69(x, y, 0));
    cb_json_num(j, "eq70_margin", cb_fil_wheel_eq70(x, y, 0));
    cb_json_num(j, "Md_in_paper_fig12_units", 2 * x);
    cb_json_num(j, "special_repel_axis", sp.repel_axis);
    cb_json_num(j, "special_fold_axis", sp.fold_axis);
    cb_json_num(j, "special_crossing", sp.crossing);
    cb_json_close(j);
    cb_json_str(j, "normalisation", normalisation_note);
}

/* ------------------------------------------------------------------ text */

static void print_text(const char *what, const cb_fil_report *r)
{
    const cb_fil_analysis *p = &r->paper;
    printf("%s: case %s (criteria eq. 46/48: %s), %d limit directions, %d repelling%s\n", what,
           cb_fil_case_name(p->dirs.kase), cb_fil_case_name(p->kase_criteria), p->dirs.ndir,
           p->dirs.nrepelling, p->dirs.continuum ? " (V ≡ 0: every direction)" : "");
    printf("  delta = %.9g;  A1 = %.9g  B2 = %.9g  C1 = %.9g  C2 = %.9g  (A2 = %.3g, B1 = %.3g)\n",
           p->delta, p->reduced.A1, p->reduced.B2, p->reduced.C1, p->reduced.C2, p->reduced.A2,
           p->reduced.B1);
    for (int k = 0; k < p->dirs.ndir; k++) {
        const cb_fil_direction *d = &p->dirs.dir[k];
        printf("  phi = %10.6f rad (%8.3f deg)  %-10s  angularly %s\n", d->phi,
               d->phi * (180.0 / CB_PI), d->attracting ? "attracting" : "repelling",
               d->angularly_stable ? "stable" : "unstable");
    }
    printf("  rolling: |Ff| = %.9g, N = %.9g, |Ff|/(mu0 N) = %.6g -> %s; Theorem 4 %s\n",
           r->rolling.friction, r->rolling.normal, r->rolling.ratio,
           r->rolling.admissible ? "admissible" : "not admissible",
           r->theorem4_holds ? "holds" : "does NOT hold (stiction: mu0 != mu)");
    printf("  F_Sigma: dw = (%.9g, %.9g, %.9g)\n", r->F_sigma.w[0], r->F_sigma.w[1],
           r->F_sigma.w[2]);
    if (r->exact_valid)
        printf("  exact limits with N(phi) in [%.6g, %.6g]: case %s, max rel. difference %.3g\n",
               r->N_min, r->N_max, cb_fil_case_name(r->exact_dirs.kase), r->exact_diff);
}

/* ------------------------------------------------------------------ wheel, body */

static int analyse_print(fil_args *a, const char *what, const cb_fil_body *b,
                         const cb_fil_wheel *w, const char *known)
{
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    cb_fil_report r;
    cb_error err;
    cb_error_clear(&err);
    int rc = cb_fil_body_analyze(b, &s, &r, &err);
    if (rc != CB_OK)
        return report_error(rc, &err, known);
    if (!a->json) {
        print_text(what, &r);
        return CB_EXIT_OK;
    }
    cb_json j;
    cb_json_begin(&j, stdout);
    cb_json_str(&j, "body", what);
    json_report(&j, &r, &b->friction);
    if (w)
        json_wheel(&j, w);
    cb_json_end(&j);
    return CB_EXIT_OK;
}

static int cmd_wheel(fil_args *a)
{
    cb_fil_wheel w;
    cb_fil_body b;
    cb_error err;
    cb_error_clear(&err);
    int rc = wheel_from_params(a, &w);
    if (rc != CB_EXIT_OK)
        return rc;
    if ((rc = cb_fil_wheel_body(&w, &b, &err)) != CB_OK)
        return report_error(rc, &err, wheel_keys);
    return analyse_print(a, "wheel", &b, &w, wheel_keys);
}

static int cmd_body(fil_args *a)
{
    cb_fil_shape_state s;
    cb_fil_body b;
    cb_error err;
    cb_error_clear(&err);
    int rc = body_from_params(a, &s);
    if (rc != CB_EXIT_OK)
        return rc;
    if ((rc = cb_fil_shape_body(&s, &b, &err)) != CB_OK)
        return report_error(rc, &err, body_keys);
    return analyse_print(a, cb_fil_shape_name(s.shape), &b, NULL, body_keys);
}

/* ------------------------------------------------------------------ map: data */

/* The wheel of the figures: m = 1, ρ = 0.5, g = 9.81, μ = 0.3, at normalised (x, y) with
 * ω3 = 1 rad/s. */
static void map_wheel(double x, double y, cb_fil_wheel *w)
{
    cb_fil_wheel_default(w);
    w->Md = x * w->mu * w->m * w->g * w->rho;
    w->w3 = 1;
    w->w2 = y * w->g * w->mu / w->rho;
}

/* Case of the generic analysis at (x, y) (−1 on error). */
static int map_case(double x, double y, const cb_fil_settings *s)
{
    cb_fil_wheel w;
    cb_fil_body b;
    cb_fil_report r;
    map_wheel(x, y, &w);
    if (cb_fil_wheel_body(&w, &b, NULL) != CB_OK || cb_fil_body_analyze(&b, s, &r, NULL) != CB_OK)
        return -1;
    return (int)r.paper.dirs.kase;
}

typedef struct {
    long cells, away, agree, printed_disagree, counts[5];
} map_stats;

/* One grid cell of the region map: row "x y case", agreement with eq. 69–70. */
static void region_cell(FILE *f, double x, double y, const cb_fil_settings *s, map_stats *st)
{
    int k = map_case(x, y, s);
    fprintf(f, "%.6g %.6g %d\n", x, y, k);
    st->cells++;
    st->counts[k < 0 ? 0 : k]++;
    cb_fil_case an = cb_fil_wheel_case_analytic(x, y, 0.02);
    if (an == CB_FIL_DEGENERATE)
        return;
    st->away++;
    st->agree += k == (int)an;
    int rep = cb_fil_wheel_eq69(x, y, 1) > 0, two = cb_fil_wheel_eq70(x, y, 1) > 0;
    int printed = rep ? (two ? 3 : 4) : (two ? 1 : 2);
    st->printed_disagree += printed != k;
}

/* AS Fig. 12: the case on a grid of (x, y). */
static int map_regions(const char *dir, int n, map_stats *st)
{
    cb_outbuf o;
    if (cb_cli_outbuf_open(&o) != CB_EXIT_OK)
        return CB_EXIT_FAIL;
    FILE *f = o.f;
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    memset(st, 0, sizeof *st);
    fprintf(f, "# x = Md/(mu m g rho)  y = rho w2 w3/(g mu)  case (0 degenerate, 1..4 = I..IV)\n");
    for (int i = 0; i <= n; i++) {
        for (int j = 0; j <= n; j++)
            region_cell(f, -2.25 + 4.5 * i / n, -2.5 + 5.0 * j / n, &s, st);
        fputc('\n', f);
    }
    return cb_cli_outbuf_commit(&o, dir, "filippov_regions.dat");
}

/* Boundary curves: index 0 eq. 69 (ellipse (2x/3)² + y² = 1), 1 eq. 70 (astroid |2x|^⅔ + |y|^⅔
 * = 2^⅔), 2–3 the same as printed in AS (x/3, |x|), each traced parametrically. */
static int map_curves(const char *dir)
{
    cb_outbuf o;
    if (cb_cli_outbuf_open(&o) != CB_EXIT_OK)
        return CB_EXIT_FAIL;
    FILE *f = o.f;
    for (int printed = 0; printed <= 1; printed++) {
        double sx = printed ? 2 : 1;
        fprintf(f, "# eq. 69%s\n", printed ? " as printed" : " (eq. 62)");
        for (int k = 0; k <= 720; k++) {
            double t = k * (2 * CB_PI) / 720;
            fprintf(f, "%.8g %.8g\n", 1.5 * sx * cos(t), sin(t));
        }
        fprintf(f, "\n\n# eq. 70%s\n", printed ? " as printed" : " (eq. 62)");
        for (int k = 0; k <= 720; k++) {
            double t = k * (2 * CB_PI) / 720;
            fprintf(f, "%.8g %.8g\n", sx * pow(cos(t), 3), 2 * pow(sin(t), 3));
        }
        fprintf(f, "\n\n");
    }
    return cb_cli_outbuf_commit(&o, dir, "filippov_curves.dat");
}

/* The four Md of AS Fig. 13 (a–d), between the special values 0.2296, 1, 1.5. */
static const double sigma_x[4] = {0.1, 0.6, 1.25, 1.8};

/* AS Fig. 13: the case over (ω̂2, ω̂3) = ω √(ρ/(gμ)) for each Md, blocks a–d; curves separate. */
static int map_sigma(const char *dir, int n)
{
    cb_outbuf o;
    if (cb_cli_outbuf_open(&o) != CB_EXIT_OK)
        return CB_EXIT_FAIL;
    FILE *f = o.f;
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    for (int p = 0; p < 4; p++) {
        fprintf(f, "# panel %c: x = %g; w2hat w3hat case\n", 'a' + p, sigma_x[p]);
        for (int i = 0; i <= n; i++) {
            for (int j = 0; j <= n; j++) {
                double a = -2.5 + 5.0 * i / n, b = -2.5 + 5.0 * j / n;
                fprintf(f, "%.6g %.6g %d\n", a, b, map_case(sigma_x[p], a * b, &s));
            }
            fputc('\n', f);
        }
        fputc('\n', f);
    }
    return cb_cli_outbuf_commit(&o, dir, "filippov_sigma.dat");
}

/* Hyperbolas ω̂2 ω̂3 = y_b of the boundaries at each panel's x: per panel one block with the
 * columns w2hat, then w3hat of eq. 69 (+, −) and eq. 70 (+, −) (NaN where absent). */
static int map_sigma_curves(const char *dir)
{
    cb_outbuf o;
    if (cb_cli_outbuf_open(&o) != CB_EXIT_OK)
        return CB_EXIT_FAIL;
    FILE *f = o.f;
    for (int p = 0; p < 4; p++) {
        double x = sigma_x[p], r69 = 1 - 4 * x * x / 9, r70 = cbrt(4.0) - cbrt(4 * x * x);
        double y69 = r69 > 0 ? sqrt(r69) : NAN, y70 = r70 > 0 ? pow(r70, 1.5) : NAN;
        fprintf(f, "# panel %c: x = %g  y69 = %g  y70 = %g\n", 'a' + p, x, y69, y70);
        for (int k = -400; k <= 400; k++) {
            double a = 2.5 * k / 400;
            if (k == 0)
                fprintf(f, "\n");
            else
                fprintf(f, "%.6g %.6g %.6g %.6g %.6g\n", a, y69 / a, -y69 / a, y70 / a, -y70 / a);
        }
        fprintf(f, "\n\n");
    }
    return cb_cli_outbuf_commit(&o, dir, "filippov_sigma_curves.dat");
}

/* ------------------------------------------------------------------ map: phase portraits */

/* Start points of the phase portraits. */
static int phase_starts(int quick)
{
    return quick ? 24 : 56;
}

/* Representative states of the four cases (normalised x, y; see map_wheel). */
static const struct {
    const char *name;
    double x, y;
} phase_states[4] = {{"I", 1.25, 0.3}, {"II", 0.3, 0.3}, {"III", 1.8, 0.5}, {"IV", 0.08, 1.3}};

typedef struct {
    FILE *traj, *arrows;
    double eps;
    int cur, oom;
    double *pts; /* (u1, u2) pairs of the current trajectory */
    size_t n, cap;
} phase_ctx;

/* Write the buffered trajectory (in units of ε) and an arrowhead at its middle pointing along
 * physical time (odd trajectories were integrated backward). */
static void phase_flush(phase_ctx *c)
{
    for (size_t k = 0; k < c->n; k++)
        fprintf(c->traj, "%.6g %.6g\n", c->pts[2 * k] / c->eps, c->pts[2 * k + 1] / c->eps);
    if (c->n)
        fputc('\n', c->traj);
    if (c->n >= 4) {
        size_t m = c->n / 2;
        double s = c->cur % 2 ? -1 : 1, dx = s * (c->pts[2 * m + 2] - c->pts[2 * m]),
               dy = s * (c->pts[2 * m + 3] - c->pts[2 * m + 1]), l = hypot(dx, dy);
        if (l > 0)
            fprintf(c->arrows, "%.6g %.6g %.6g %.6g\n", c->pts[2 * m] / c->eps,
                    c->pts[2 * m + 1] / c->eps, 0.06 * dx / l, 0.06 * dy / l);
    }
    c->n = 0;
}

static int phase_point(void *ctx, int traj, double t, const double u[2])
{
    (void)t;
    phase_ctx *c = ctx;
    if (traj != c->cur) {
        phase_flush(c);
        c->cur = traj;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1024;
        double *p = realloc(c->pts, 2 * cap * sizeof *p);
        if (!p) {
            c->oom = 1;
            return 1;
        }
        c->pts = p;
        c->cap = cap;
    }
    c->pts[2 * c->n] = u[0];
    c->pts[2 * c->n + 1] = u[1];
    c->n++;
    return 0;
}

/* Rays of the limit directions: "0 0 dx dy type", type 0/1 attracting angularly
 * stable/unstable, 2/3 repelling stable/unstable. */
static void phase_rays(FILE *f, const cb_fil_dirset *d)
{
    fprintf(f, "# x0 y0 dx dy type (0 attracting stable, 1 attracting unstable, "
               "2 repelling stable, 3 repelling unstable)\n");
    for (int k = 0; k < d->ndir; k++) {
        const cb_fil_direction *x = &d->dir[k];
        int type = 2 * !x->attracting + !x->angularly_stable;
        fprintf(f, "0 0 %.6g %.6g %d\n", 1.2 * cos(x->phi), 1.2 * sin(x->phi), type);
    }
}

/* Simulate the slipping wheel from a circle of radius ε around Σ and write the data. */
static int phase_data(const char *dir, int which, int quick, cb_fil_report *r)
{
    cb_fil_wheel w;
    cb_fil_body b;
    cb_fil_settings s;
    cb_fil_sim_settings ss;
    cb_error err;
    cb_error_clear(&err);
    cb_fil_settings_default(&s);
    cb_fil_sim_settings_default(&ss);
    ss.nstart = phase_starts(quick);
    map_wheel(phase_states[which].x, phase_states[which].y, &w);
    int rc = cb_fil_wheel_body(&w, &b, &err);
    if (rc == CB_OK)
        rc = cb_fil_body_analyze(&b, &s, r, &err);
    if (rc != CB_OK)
        return cb_cli_report(rc, &err);
    cb_outbuf o[3] = {{0}}; /* trajectories, arrows, rays */
    int st = CB_EXIT_OK;
    for (int k = 0; k < 3 && st == CB_EXIT_OK; k++)
        st = cb_cli_outbuf_open(&o[k]);
    phase_ctx c = {o[0].f, o[1].f, ss.radius, 0, 0, NULL, 0, 0};
    if (st == CB_EXIT_OK) {
        rc = cb_fil_simulate(&b, &ss, phase_point, &c, &err);
        phase_flush(&c);
        phase_rays(o[2].f, &r->paper.dirs);
        st = c.oom ? cb_cli_fail("out of memory") : rc != CB_OK ? cb_cli_report(rc, &err) : st;
    }
    free(c.pts);
    const char *kinds[3] = {"traj", "arrows", "rays"};
    for (int k = 0; k < 3; k++) {
        char name[64];
        snprintf(name, sizeof name, "filippov_phase_%s_%s.dat", phase_states[which].name, kinds[k]);
        if (st == CB_EXIT_OK)
            st = cb_cli_outbuf_commit(&o[k], dir, name);
        cb_outbuf_discard(&o[k]);
    }
    return st;
}

/* ------------------------------------------------------------------ map: gnuplot */

typedef struct {
    const char *dir;
    char plots[4096];
} fig_ctx;

/* The plots directory: --plots, else cb_home_dir()/plots; must hold our scripts. */
static int find_plots(const fil_args *a, fig_ctx *x)
{
    if (a->plots)
        snprintf(x->plots, sizeof x->plots, "%s", a->plots);
    else
        snprintf(x->plots, sizeof x->plots, "%s/plots", cb_home_dir());
    char path[4200];
    snprintf(path, sizeof path, "%s/filippov_regions.gp", x->plots);
    struct stat st;
    if (stat(path, &st) != 0)
        return cb_cli_usage_error("--plots: %s not found (give --plots DIR or set CONEBENCH_HOME)",
                                  path);
    return CB_EXIT_OK;
}

/* gnuplot (gnuplot.h) with `dir` and `vars` then `load` of a script drawing DIR/fig; its
 * messages go to DIR/filippov_gnuplot.log. */
static int gnuplot(const fig_ctx *x, const char *vars, const char *script, const char *fig)
{
    char q[8400], all[9600], log[4200], out[4200];
    cb_error err = {{0}};
    snprintf(log, sizeof log, "%s/filippov_gnuplot.log", x->dir);
    snprintf(out, sizeof out, "%s/%s", x->dir, fig);
    int rc = cb_gp_str(q, sizeof q, x->dir, x->dir, &err);
    if (rc == CB_OK)
        snprintf(all, sizeof all, "dir = %s\n%s", q, vars);
    cb_gnuplot_job job = {x->plots, script, all, log, out};
    if (rc == CB_OK)
        rc = cb_gnuplot(&job, &err);
    return rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
}

static int figures(const fig_ctx *x, const cb_fil_wheel_specials *sp)
{
    char vars[1024], fig[64];
    snprintf(vars, sizeof vars, "xc = %.6f; yc = %.6f", sp->crossing, sp->crossing_y);
    int rc = gnuplot(x, vars, "filippov_regions.gp", "filippov_regions");
    if (rc == CB_EXIT_OK) {
        snprintf(vars, sizeof vars, "xa = %g; xb = %g; xcc = %g; xd = %g", sigma_x[0], sigma_x[1],
                 sigma_x[2], sigma_x[3]);
        rc = gnuplot(x, vars, "filippov_sigma.gp", "filippov_sigma");
    }
    for (int k = 0; rc == CB_EXIT_OK && k < 4; k++) {
        snprintf(vars, sizeof vars, "cs = '%s'; xs = %g; ys = %g", phase_states[k].name,
                 phase_states[k].x, phase_states[k].y);
        snprintf(fig, sizeof fig, "filippov_phase_%s", phase_states[k].name);
        rc = gnuplot(x, vars, "filippov_phase.gp", fig);
    }
    return rc;
}

/* ------------------------------------------------------------------ map: markdown */

static void md_directions(FILE *f, const cb_fil_report *r)
{
    for (int k = 0; k < r->paper.dirs.ndir; k++) {
        const cb_fil_direction *d = &r->paper.dirs.dir[k];
        fprintf(f, "%s%.1f° (%s, angularly %s)", k ? "; " : "", d->phi * (180.0 / CB_PI),
                d->attracting ? "attracting" : "repelling",
                d->angularly_stable ? "stable" : "unstable");
    }
}

static void md_intro(FILE *f, const map_stats *st, const cb_fil_wheel_specials *sp)
{
    fprintf(f, "# Extended-Filippov analysis of the rolling wheel (Antali & Stepan 2019, §6)\n\n"
               "Generated by `conebench filippov map`. The wheel: thin disk, m = 1 kg, "
               "ρ = 0.5 m, g = " CB_XSTR(CB_GRAVITY) " m/s², μ = 0.3, ω3 = 1 rad/s; every case "
               "below comes from the "
               "generic body analysis (Newton–Euler eq. 10–11 → A, B, C → roots of V), not from "
               "the wheel's closed form.\n\n");
    fprintf(f, "**Normalisation.** %s. Axes: x = M_d/(μ m g ρ), y = ρ ω2 ω3/(g μ); the top axis "
               "of the region map shows AS's Fig. 12 scale 2x.\n\n", normalisation_note);
    fprintf(f, "**Special values of |M_d| (checked against eq. 62).** Substituting eq. 68 into "
               "eq. 48 and 46 gives (2M_d/(mρ))² + (3ρω2ω3)² = (3gμ)² and "
               "|2M_d/(mρ)|^(2/3) + |ρω2ω3|^(2/3) = (2gμ)^(2/3). At ω2ω3 = 0 these give "
               "|M_d| = %.4g and %.4g μmgρ, and the two curves cross at |M_d| = %.4f μmgρ "
               "(ρω2ω3 = %.4f gμ). The paper's 3, 2 and 0.459 μmgρ are exactly twice these: they "
               "satisfy eq. 69–70 as printed (C1 = −M_d/(mρ)), not eq. 62.\n\n",
            sp->repel_axis, sp->fold_axis, sp->crossing, sp->crossing_y);
    fprintf(f, "**Agreement.** On the %ld-cell grid, %ld cells lie more than 2%% from both "
               "boundaries; the computed case equals the case of eq. 69–70 (eq. 62 "
               "normalisation) on %ld of them, and differs from eq. 69–70 as printed on %ld. "
               "Cells per case: degenerate %ld, I %ld, II %ld, III %ld, IV %ld.\n\n",
            st->cells, st->away, st->agree, st->printed_disagree, st->counts[0], st->counts[1],
            st->counts[2], st->counts[3], st->counts[4]);
}

static void md_figures(FILE *f, const cb_fil_report r[4], int nstart)
{
    fprintf(f, "## Region map (AS Fig. 12)\n\n![regions](filippov_regions.png)\n\n"
               "## The discontinuity set Σ = (ω2, ω3) plane for four M_d (AS Fig. 13)\n\n"
               "![sigma](filippov_sigma.png)\n\n## Phase portraits near Σ (AS Fig. 6–9)\n\n"
               "Trajectories of the full slipping equations of the wheel (AS eq. 64, which do not "
               "depend on the configuration; RK4 with steps of 1%% of |u|/|u̇|) from %d points on "
               "the circle |u| = ε = 1 mm/s, forward and backward in time until |u| < 10⁻³ ε or "
               "|u| > 1.5 ε; rays: limit directions of the analysis (solid attracting, dashed "
               "repelling; thick = angularly stable).\n\n"
               "| case | x | y | limit directions (φ from t1) |\n|---|---|---|---|\n",
            nstart);
    for (int k = 0; k < 4; k++) {
        fprintf(f, "| %s (computed: %s) | %g | %g | ", phase_states[k].name,
                cb_fil_case_name(r[k].paper.dirs.kase), phase_states[k].x, phase_states[k].y);
        md_directions(f, &r[k]);
        fprintf(f, " |\n");
    }
    fputc('\n', f);
    for (int k = 0; k < 4; k++)
        fprintf(f, "![case %s](filippov_phase_%s.png)\n\n", phase_states[k].name,
                phase_states[k].name);
}

static int write_md(const char *dir, const map_stats *st, const cb_fil_report r[4], int nstart)
{
    cb_outbuf o;
    if (cb_cli_outbuf_open(&o) != CB_EXIT_OK)
        return CB_EXIT_FAIL;
    FILE *f = o.f;
    cb_fil_wheel_specials sp;
    cb_fil_wheel_special_values(&sp);
    md_intro(f, st, &sp);
    md_figures(f, r, nstart);
    return cb_cli_outbuf_commit(&o, dir, "filippov.md");
}

/* ------------------------------------------------------------------ map */

static int cmd_map(fil_args *a)
{
    if (!a->outdir) {
        cb_cli_usage_error("filippov map: -o DIR is required");
        return cb_cli_usage_of("filippov", CB_USAGE_FILIPPOV_FILES);
    }
    cb_error err = {{0}};
    fig_ctx x = {a->outdir, {0}};
    int rc = find_plots(a, &x);
    if (rc == CB_EXIT_OK && cb_gnuplot_check(&err) != CB_OK)
        rc = cb_cli_report(CB_ERR_IO, &err);
    if (rc == CB_EXIT_OK && mkdir(a->outdir, 0777) != 0 && errno != EEXIST)
        rc = cb_cli_usage_error("-o %s: cannot create: %s", a->outdir, strerror(errno));
    map_stats st;
    cb_fil_report r[4];
    if (rc == CB_EXIT_OK)
        rc = map_regions(a->outdir, a->quick ? 120 : 300, &st);
    if (rc == CB_EXIT_OK)
        rc = map_curves(a->outdir);
    if (rc == CB_EXIT_OK)
        rc = map_sigma(a->outdir, a->quick ? 80 : 160);
    if (rc == CB_EXIT_OK)
        rc = map_sigma_curves(a->outdir);
    for (int k = 0; rc == CB_EXIT_OK && k < 4; k++)
        rc = phase_data(a->outdir, k, a->quick, &r[k]);
    cb_fil_wheel_specials sp;
    cb_fil_wheel_special_values(&sp);
    if (rc == CB_EXIT_OK)
        rc = figures(&x, &sp);
    if (rc == CB_EXIT_OK)
        rc = write_md(a->outdir, &st, r, phase_starts(a->quick));
    if (rc == CB_EXIT_OK)
        printf("conebench: wrote %s/filippov.md (regions: %ld of %ld cells away from the "
               "boundaries agree with eq. 69-70)\n", a->outdir, st.agree, st.away);
    return rc;
}

int cb_cmd_filippov(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "check")) /* cross-checks against MJ and compliant */
        return cb_cmd_filippov_check(argc - 1, argv + 1);
    fil_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc == CB_EXIT_OK) {
        if (!strcmp(a.sub, "wheel"))
            rc = cmd_wheel(&a);
        else if (!strcmp(a.sub, "body"))
            rc = cmd_body(&a);
        else if (!strcmp(a.sub, "map"))
            rc = cmd_map(&a);
        else
            rc = cb_cli_usage_error("filippov: unknown subcommand '%s' (wheel, body, map, check; "
                                    "conebench filippov --help)",
                                    a.sub);
    }
    args_free(&a);
    return rc;
}

static const cb_cli_form forms[] = {
    {STATE_USAGE, state_opts}, {CB_USAGE_FILIPPOV_FILES, cb_filippov_files_opts}, {NULL, NULL}};

const cb_cli_command cb_command_filippov = {
    "filippov", cb_cmd_filippov,
    "extended-Filippov limit directions of a body rolling on a plane (Antali & Stepan 2019)",
    forms,
    "wheel and body analyse one rolling state: the limit vector field F(phi) = A cos phi +\n"
    "B sin phi + C of the slipping dynamics, every limit direction (attracting or repelling,\n"
    "angular stability), the case I-IV, the sliding vector F_Sigma and the static-friction check\n"
    "(Theorem 4), with the exact directional limits where the normal force depends on phi.\n"
    "  wheel keys: " WHEEL_KEYS "\n"
    "  body keys:  " BODY_KEYS "\n"
    "  (law=coulomb|stiction|stribeck, shape=sphere|disk|ellipsoid, balance and spin_frame 0|1)\n"
    "map writes the wheel's region maps (AS Fig. 12-13), phase portraits of the four cases\n"
    "(Fig. 6-9), their data, gnuplot figures and DIR/filippov.md. check compares the case with\n"
    "one Moreau-Jean step's CCP and with the compliant slide law at random rolling states of\n"
    "the wheel and of a sphere (DIR/filippov_check.md).",
    "conebench filippov wheel --param Md=0.44145 --param w2=1.7658 --param w3=1 --json\n"
    "conebench filippov map -o results/filippov --quick",
    "0 done (check: agreement away from the boundary >= 99 %), 1 failure (check: below), 2 bad "
    "input"};
