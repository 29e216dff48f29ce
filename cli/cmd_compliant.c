/* conebench — `conebench simulate SCENARIO --model compliant|compliant-legacy|compliant-edem`:
 * the compliant run of a scenario (presets and parameter routing: cb_compliant_prepare,
 * src/mech/scenarios/presets.c), CSV time series and the JSON summary. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "util.h"
#include "compliant.h"
#include "conebench/io.h"
#include "scenario_registry.h"
#include "fileio.h"
#include "kv.h"

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
    cb_json_num(j, "up_angle_deg", r->up_angle * 180.0 / CB_PI);
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
    cb_kv_list params; /* --param pairs (owned) */
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
    int c, rc;
    cb_cli_parser_init(&p, cb_simulate_compliant_opts);
    while ((c = cb_cli_next(&p, argc, argv)) != -1) {
        if (c == 'm')
            a->model = optarg;
        else if (c == 'c')
            a->csv = optarg;
        else if (c == 'j')
            a->json = 1;
        else if (c == 'e' && cb_cli_parse_long("--every", optarg, 1, 0x7fffffff, &a->every))
            return CB_EXIT_BADINPUT;
        else if (c == 'p' && (rc = cb_cli_kv_add(&a->params, "--param", optarg)) != CB_EXIT_OK)
            return rc;
        else if (c == '?')
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
    cb_outbuf o = {0};
    csv_ctx c = {NULL, scen, a->every, 0};
    if (a->csv && cb_cli_outbuf_open(&o) != CB_EXIT_OK)
        return CB_EXIT_FAIL;
    c.f = o.f;
    if (c.f)
        csv_header(&c);
    cb_compliant_result res;
    cb_error err;
    cb_error_clear(&err);
    int rc = cb_compliant_run(scen, s, c.f ? csv_hook : NULL, &c, &res, &err);
    int st = rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
    if (c.f) {
        int st2 = cb_cli_outbuf_commit(&o, NULL, a->csv);
        st = st == CB_EXIT_OK ? st2 : st;
    }
    if (rc == CB_OK)
        a->json ? print_json(a->model, scen, s, &res)
                : print_text(a->model, scen, &res);
    return st;
}

int cb_cmd_simulate_compliant(int argc, char **argv)
{
    comp_args a;
    cb_scenario scen;
    cb_compliant_settings s;
    cb_error err;
    cb_error_clear(&err);
    memset(&scen, 0, sizeof scen);
    int rc = comp_parse(argc, argv, &a);
    if (rc == CB_EXIT_OK) {
        int lib = cb_compliant_prepare(a.scenario, a.model, a.params.items, a.params.n, &scen,
                                       &s, &err);
        rc = lib == CB_OK ? comp_run(&a, &scen, &s) : cb_cli_report(lib, &err);
    }
    cb_scenario_free(&scen);
    cb_kv_list_free(&a.params);
    return rc;
}
