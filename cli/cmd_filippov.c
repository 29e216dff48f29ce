/* conebench — `conebench filippov wheel|body`: the extended-Filippov limit-direction analysis
 * of a body rolling on a plane (Antali & Stepan 2019) of one rolling state (text or --json);
 * `filippov map|check` are the studies (cmd_filippov_files.c). */
#include "commands.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filippov.h"
#include "filippov_study.h"
#include "kv.h"

#define STATE_USAGE "filippov wheel|body [--param k=v]... [--json]"

static const cb_cli_opt state_opts[] = {
    {"param", CB_CLI_SHORT('p'), "k=v", "a parameter of the body or its state, repeatable (keys "
                                        "below)"},
    {"json", 'j', NULL, "print one JSON object (keys: man conebench, JSON OUTPUT)"},
    {NULL, 0, NULL, NULL}};

static const char *wheel_keys = CB_FIL_WHEEL_KEYS;
static const char *body_keys = CB_FIL_BODY_KEYS;

typedef struct {
    const char *sub; /* wheel, body */
    int json;
    cb_kv_list params; /* --param pairs (owned) */
} fil_args;

/* ------------------------------------------------------------------ arguments */

static void args_free(fil_args *a)
{
    cb_kv_list_free(&a->params);
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
    return CB_EXIT_OK;
}

/* argv[1] is the subcommand: wheel and body take --param and --json. */
static int parse_args(int argc, char **argv, fil_args *a)
{
    memset(a, 0, sizeof *a);
    if (argc < 2)
        return cb_cli_usage(&cb_command_filippov);
    a->sub = argv[1];
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, state_opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc - 1, argv + 1)) != -1) {
        if (c == 'p')
            rc = param_add(a, optarg);
        else if (c == 'j')
            a->json = 1;
        else
            rc = cb_cli_usage(&cb_command_filippov);
    }
    if (rc == CB_EXIT_OK && optind != argc - 1) {
        cb_cli_usage_error("filippov %s: unexpected argument '%s'", a->sub, argv[1 + optind]);
        rc = cb_cli_usage(&cb_command_filippov);
    }
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

/* The parameters as the studies read them (messages name them "--param KEY"). */
static cb_kv_view params_view(const fil_args *a)
{
    return (cb_kv_view){a->params.items, a->params.n, NULL, "--param"};
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
    cb_json_str(j, "normalisation", cb_fil_normalisation_note);
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
    cb_kv_view v = params_view(a);
    int rc = cb_fil_wheel_of(&v, &w, &err);
    if (rc == CB_OK)
        rc = cb_fil_wheel_body(&w, &b, &err);
    if (rc != CB_OK)
        return report_error(rc, &err, wheel_keys);
    return analyse_print(a, "wheel", &b, &w, wheel_keys);
}

static int cmd_body(fil_args *a)
{
    cb_fil_shape_state s;
    cb_fil_body b;
    cb_error err;
    cb_error_clear(&err);
    cb_kv_view v = params_view(a);
    int rc = cb_fil_shape_of(&v, &s, &err);
    if (rc == CB_OK)
        rc = cb_fil_shape_body(&s, &b, &err);
    if (rc != CB_OK)
        return report_error(rc, &err, body_keys);
    return analyse_print(a, cb_fil_shape_name(s.shape), &b, NULL, body_keys);
}

int cb_cmd_filippov(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "check")) /* the studies: src/studies/filippov_study.h */
        return cb_cmd_filippov_check(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "map"))
        return cb_cmd_filippov_map(argc - 1, argv + 1);
    fil_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc == CB_EXIT_OK) {
        if (!strcmp(a.sub, "wheel"))
            rc = cmd_wheel(&a);
        else if (!strcmp(a.sub, "body"))
            rc = cmd_body(&a);
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
    "  wheel keys: " CB_FIL_WHEEL_KEYS "\n"
    "  body keys:  " CB_FIL_BODY_KEYS "\n"
    "  (law=coulomb|stiction|stribeck, shape=sphere|disk|ellipsoid, balance and spin_frame 0|1)\n"
    "map writes the wheel's region maps (AS Fig. 12-13), phase portraits of the four cases\n"
    "(Fig. 6-9), their data, gnuplot figures and DIR/filippov.md. check compares the case with\n"
    "one Moreau-Jean step's CCP and with the compliant slide law at random rolling states of\n"
    "the wheel and of a sphere (DIR/filippov_check.md).",
    "conebench filippov wheel --param Md=0.44145 --param w2=1.7658 --param w3=1 --json\n"
    "conebench filippov map -o results/filippov --quick",
    "0 done (check: agreement away from the boundary >= 99 %), 1 failure (check: below), 2 bad "
    "input"};
