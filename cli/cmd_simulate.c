/* conebench — `conebench simulate SCENARIO` (run a scenario with a model, CSV time series and a
 * JSON summary) and `conebench generate SCENARIO` (dump the CCP of chosen time steps). */
#include "commands.h"
#include "json.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "analytic.h"
#include "campaign.h"
#include "conebench/io.h"
#include "scenario_registry.h"
#include "sim_csv.h"
#include "timestepper.h"
#include "fclib_check.h"
#include "fileio.h"
#include "kv.h"

#define SIM_USAGE "simulate SCENARIO [--model nonsmooth|analytic] [options]"

/* The options of every step's solve, shared by simulate and generate SCENARIO. */
#define STEP_OPTS                                                                                  \
    {"param", 'p', "k=v", "a scenario parameter, repeatable (conebench list scenarios)"},         \
        {"solver", 's', "S", "the solver of every step (default nsgs)"},                          \
        {"tol", 't', "T", "its tolerance (default: the scenario's tol parameter)"},               \
        {"max-iter", 'n', "N", "its iterations at most (default 10000)"},                         \
        {"time-limit", 'l', "S", "seconds per solve at most (default 60)"},                       \
        {"option", 'O', "k=v", "a solver option, repeatable (conebench list solvers)"},           \
        {"storage", 'W', "bsr|factored", "storage of W (default bsr)"}

static const cb_cli_opt sim_opts[] = {
    {"model", 'm', "M", "nonsmooth (Moreau-Jean, default), analytic (the closed form of "
                        "sphere-plane and disk-rolling) or compliant* (below)"},
    STEP_OPTS,
    {"csv", 'c', "OUT", "write the time series (one row a step: man conebench, RESULTS FILES)"},
    {"every", 'e', "N", "one CSV row every N steps (default 1)"},
    {"json", 'j', NULL, "print one JSON object (keys: man conebench, JSON OUTPUT)"},
    {NULL, 0, NULL, NULL}};

const cb_cli_opt cb_generate_scenario_opts[] = {
    STEP_OPTS,
    {"steps", 'S', "LIST", "the steps to write: 100,200,500 or FIRST:LAST:STRIDE items; required"},
    {"output", CB_CLI_SHORT('o'), "DIR", "folder of DIR/SCENARIO-stepN.dat, .ids and .meta (created); "
                                         "required"},
    {"format", 'F', "siconos|fclib", "step files as Siconos text (default) or FCLIB .hdf5"},
    {NULL, 0, NULL, NULL}};

typedef struct {
    const char *scenario, *model, *solver, *csv, *outdir, *steps, *storage, *format;
    int json;
    long every;
    double tol;          /* the solver tolerance when have_tol, else the scenario's */
    int have_tol;
    long max_iter;       /* ≤ 0: default */
    double time_limit;   /* < 0: default */
    cb_kv_list params, options; /* --param, --option pairs (owned) */
} sim_args;

static int sim_option(int c, sim_args *a)
{
    switch (c) {
    case 'm': a->model = optarg; return CB_EXIT_OK;
    case 'p': return cb_cli_kv_add(&a->params, "--param", optarg);
    case 's': a->solver = optarg; return CB_EXIT_OK;
    case 't': a->have_tol = 1; return cb_cli_parse_double("--tol", optarg, &a->tol);
    case 'n': return cb_cli_parse_long("--max-iter", optarg, 1, 0x7fffffff, &a->max_iter);
    case 'l': return cb_cli_parse_time_limit("--time-limit", optarg, &a->time_limit);
    case 'O': return cb_cli_kv_add(&a->options, "--option", optarg);
    case 'c': a->csv = optarg; return CB_EXIT_OK;
    case 'e': return cb_cli_parse_long("--every", optarg, 1, 0x7fffffff, &a->every);
    case 'j': a->json = 1; return CB_EXIT_OK;
    case 'S': a->steps = optarg; return CB_EXIT_OK;
    case 'o': a->outdir = optarg; return CB_EXIT_OK;
    case 'W': a->storage = optarg; return CB_EXIT_OK;
    case 'F': a->format = optarg; return CB_EXIT_OK;
    default: return CB_EXIT_BADINPUT; /* getopt has said what is wrong */
    }
}

/* Parse argv (argv[0] = command name) with the options of opts; exactly one positional argument,
 * the scenario. usage: the form's usage line, for errors. */
static int parse_args(int argc, char **argv, sim_args *a, const cb_cli_opt *opts,
                      const char *usage)
{
    memset(a, 0, sizeof *a);
    a->model = "nonsmooth";
    a->solver = "nsgs";
    a->every = 1;
    a->time_limit = -1;
    cb_cli_parser p;
    int c = 0, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1)
        rc = sim_option(c, a);
    if ((rc != CB_EXIT_OK && c == '?') || (rc == CB_EXIT_OK && optind != argc - 1))
        return cb_cli_usage_of(argv[0], usage);
    if (rc != CB_EXIT_OK)
        return rc;
    a->scenario = argv[optind];
    if (a->have_tol && !(a->tol > 0))
        return cb_cli_usage_error("--tol: must be > 0, got %g", a->tol);
    return CB_EXIT_OK;
}

/* Build the scenario named in a (exit status). */
static int build_scenario(const sim_args *a, cb_scenario *scen)
{
    const cb_scenario_def *def = cb_scenario_find(a->scenario);
    if (!def)
        return cb_cli_usage_error("unknown scenario '%s' (see: conebench list scenarios)",
                                  a->scenario);
    cb_error err;
    cb_error_clear(&err);
    int rc = cb_scenario_build(def, a->params.items, a->params.n, scen, &err);
    return rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
}

/* Run settings from the flags (solver looked up and options passed through). */
static int run_settings(const sim_args *a, cb_run_settings *rs)
{
    cb_run_settings_default(rs);
    rs->mj.solver = cb_solver_find(a->solver);
    if (!rs->mj.solver)
        return cb_cli_usage_error("--solver: unknown solver '%s' (see: conebench list solvers)",
                                  a->solver);
    if (a->max_iter > 0)
        rs->mj.solve.max_iter = (int)a->max_iter;
    if (a->time_limit >= 0)
        rs->mj.solve.time_limit = a->time_limit;
    rs->mj.solve.options = a->options.items;
    rs->mj.solve.noptions = a->options.n;
    if (a->storage && !strcmp(a->storage, "factored"))
        rs->mj.storage = CB_STORAGE_FACTORED;
    else if (a->storage && strcmp(a->storage, "bsr") != 0)
        return cb_cli_usage_error("--storage: '%s' is not bsr or factored", a->storage);
    return CB_EXIT_OK;
}

/* ------------------------------------------------------------------ CSV time series */

typedef struct {
    cb_sim_csv csv;   /* the rows (csv.f NULL: none) */
    double t_end;     /* simulated horizon, for the progress line */
    double t0, next;  /* wall clock at the start, and of the next progress line */
    double interval;  /* seconds between progress lines (10 on a terminal, else 60) */
} csv_ctx;

/* A progress line on stderr for long runs: simulated time, steps, contacts, ETA. */
static void progress_line(csv_ctx *c, const cb_step_record *rec)
{
    double now = cb_now();
    if (now < c->next)
        return;
    c->next = now + c->interval;
    double frac = c->t_end > 0 ? rec->t / c->t_end : 0, el = now - c->t0;
    fprintf(stderr, "conebench: simulate %s: t = %.4g of %.4g s (%.0f %%), step %ld, %d contacts, "
                    "%.0f s elapsed, ETA %.0f s\n",
            c->csv.scen->name, rec->t, c->t_end, 100 * frac, rec->step, rec->nc, el,
            frac > 0 ? el * (1 - frac) / frac : 0);
}

static int csv_hook(void *ctx, const cb_system *sys, const cb_mj_work *w,
                    const cb_step_record *rec)
{
    csv_ctx *c = ctx;
    cb_sim_csv_step(&c->csv, sys, w, rec);
    progress_line(c, rec);
    return 0;
}

/* ------------------------------------------------------------------ summaries */

/* The summary of a nonsmooth run as one JSON object (keys: docs/conebench.1, JSON OUTPUT). */
static void print_run(const sim_args *a, const cb_scenario *s, const cb_run_result *r)
{
    cb_json j;
    cb_json_scenario_begin(&j, stdout, s, "nonsmooth");
    cb_json_str(&j, "solver", a->solver);
    cb_json_str(&j, "storage", a->storage ? a->storage : "bsr");
    cb_json_str(&j, "kind", cb_kind_name(s->kind));
    cb_json_int(&j, "steps", r->steps);
    cb_json_int(&j, "unsolved", r->unsolved);
    cb_json_int(&j, "time_limited", r->time_limited);
    cb_json_int(&j, "iterations", r->iterations);
    cb_json_int(&j, "max_nc", r->max_nc);
    cb_json_num(&j, "t", r->t);
    cb_json_num(&j, "max_error", r->max_error);
    cb_json_num(&j, "max_energy_increase", r->max_energy_increase);
    cb_json_num(&j, "time_s", r->time_s);
    cb_json_scenario_summary(&j, s, &r->summary);
    cb_json_end(&j);
}

static void print_text(const cb_scenario *s, const cb_run_result *r)
{
    const cb_scenario_summary *m = &r->summary;
    printf("%s  steps=%ld  t=%.6g  unsolved=%ld  max_error=%.3e  iterations=%lld  time=%.3fs",
           s->name, r->steps, r->t, r->unsolved, r->max_error, r->iterations, r->time_s);
    if (s->outputs & CB_OUT_STOP)
        printf("  stopped=%s  x_stop=%.9g  t_stop=%.9g", m->stopped ? "yes" : "no", m->x_stop,
               m->t_stop);
    if (s->outputs & CB_OUT_REGIME)
        printf("  regime=%s", cb_regime_name(m->regime));
    if (s->outputs & CB_OUT_PILE)
        printf("  height/phi=%.4g  mean_radius/phi=%.4g", m->height_over_phi,
               m->mean_radius_over_phi);
    if (s->outputs & CB_OUT_STACK)
        printf("  collapsed=%s  drop=%.4g", m->collapsed ? "yes" : "no", m->drop);
    printf("\n");
}

/* ------------------------------------------------------------------ models */

static int simulate_nonsmooth(const sim_args *a, cb_scenario *scen)
{
    cb_run_settings rs;
    int rc = run_settings(a, &rs);
    if (rc != CB_EXIT_OK)
        return rc;
    if (a->have_tol)
        scen->tol = a->tol;
    cb_error err;
    cb_outbuf o = {0};
    double t0 = cb_now(), interval = isatty(2) ? 10.0 : 60.0;
    csv_ctx c = {{NULL, scen, a->every}, rs.t_end > 0 ? rs.t_end : scen->t_end, t0,
                 t0 + interval, interval};
    if (a->csv && cb_cli_outbuf_open(&o) != CB_EXIT_OK)
        return CB_EXIT_FAIL;
    c.csv.f = o.f;
    if (c.csv.f)
        cb_sim_csv_start(&c.csv);
    cb_run_result res;
    cb_error_clear(&err);
    rc = cb_nonsmooth_run(scen, &rs, csv_hook, &c, &res, &err);
    int st = rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
    if (c.csv.f) {
        int st2 = cb_cli_outbuf_commit(&o, NULL, a->csv);
        st = st == CB_EXIT_OK ? st2 : st;
    }
    if (rc == CB_OK && res.time_limited > 0) /* say so: those steps used an unsolved p */
        fprintf(stderr, "conebench: %ld of %ld steps stopped at the time limit (%g s per solve)\n",
                res.time_limited, res.steps, rs.mj.solve.time_limit);
    if (rc == CB_OK)
        a->json ? print_run(a, scen, &res) : print_text(scen, &res);
    return st;
}

/* The closed form's stop as text or one JSON object (keys: docs/conebench.1, JSON OUTPUT). */
static void print_analytic(const cb_scenario *s, const cb_sphere_plane_solution *sol, int json)
{
    if (!json) {
        printf("%s  analytic  stopped=%s  x_stop=%.9g  t_stop=%.9g\n", s->name,
               sol->stops ? "yes" : "no", sol->x_stop, sol->t_stop);
        return;
    }
    cb_json j;
    cb_json_scenario_begin(&j, stdout, s, "analytic");
    cb_json_bool(&j, "stopped", sol->stops);
    cb_json_int(&j, "phases", sol->nphases);
    cb_json_num(&j, "x_stop", sol->x_stop);
    cb_json_num(&j, "t_stop", sol->t_stop);
    cb_json_end(&j);
}

static int simulate_analytic(const sim_args *a, const cb_scenario *s)
{
    cb_sphere_plane_params p;
    cb_sphere_plane_solution sol;
    cb_error err;
    cb_error_clear(&err);
    int rc = cb_sim_analytic_params(s, &p, &err);
    if (rc == CB_OK)
        rc = cb_sphere_plane_solve(&p, s->t_end, &sol, &err);
    if (rc != CB_OK)
        return cb_cli_report(rc, &err);
    if (a->csv) {
        cb_outbuf o;
        if (cb_cli_outbuf_open(&o) != CB_EXIT_OK)
            return CB_EXIT_FAIL;
        cb_sim_analytic_csv(o.f, s, &sol, a->every);
        rc = cb_cli_outbuf_commit(&o, NULL, a->csv);
        if (rc != CB_EXIT_OK)
            return rc;
    }
    print_analytic(s, &sol, a->json);
    return CB_EXIT_OK;
}

/* The --model value of a simulate command line, read before getopt permutes argv. */
static const char *model_of(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--model") && i + 1 < argc)
            return argv[i + 1];
        if (!strncmp(argv[i], "--model=", 8))
            return argv[i] + 8;
    }
    return "";
}

int cb_cmd_simulate(int argc, char **argv)
{
    if (!strncmp(model_of(argc, argv), "compliant", 9)) /* compliant, -legacy, -edem */
        return cb_cmd_simulate_compliant(argc, argv);
    sim_args a;
    cb_scenario scen;
    memset(&scen, 0, sizeof scen);
    int rc = parse_args(argc, argv, &a, sim_opts, SIM_USAGE);
    if (rc == CB_EXIT_OK)
        rc = build_scenario(&a, &scen);
    if (rc == CB_EXIT_OK) {
        if (!strcmp(a.model, "nonsmooth"))
            rc = simulate_nonsmooth(&a, &scen);
        else if (!strcmp(a.model, "analytic"))
            rc = simulate_analytic(&a, &scen);
        else
            rc = cb_cli_usage_error("--model: '%s' is not nonsmooth, analytic, compliant, "
                                    "compliant-legacy or compliant-edem",
                                    a.model);
    }
    cb_scenario_free(&scen);
    cb_kv_list_free(&a.params);
    cb_kv_list_free(&a.options);
    return rc;
}

/* ------------------------------------------------------------------ generate SCENARIO */

/* Each written file on stdout; steps without contact on stderr. */
static void gen_note(void *ctx, long step, double t, const char *path)
{
    (void)ctx;
    if (path)
        printf("%s\n", path);
    else
        fprintf(stderr, "conebench: step %ld (t = %g) has no contact: nothing written\n", step, t);
}

int cb_cmd_generate_scenario(int argc, char **argv)
{
    sim_args a;
    cb_scenario scen;
    cb_dump_settings ds;
    cb_dump_result res;
    long *steps = NULL;
    int nsteps = 0;
    memset(&scen, 0, sizeof scen);
    cb_dump_settings_default(&ds);
    int rc = parse_args(argc, argv, &a, cb_generate_scenario_opts, CB_USAGE_GENERATE_SCENARIO);
    if (rc == CB_EXIT_OK && (!a.steps || !a.outdir))
        rc = cb_cli_usage_of("generate", CB_USAGE_GENERATE_SCENARIO);
    cb_error err = {0};
    if (rc == CB_EXIT_OK && cb_steps_parse(a.steps, &steps, &nsteps, &err) != CB_OK)
        rc = cb_cli_usage_error("--%s", err.text);
    if (rc == CB_EXIT_OK && a.format && strcmp(a.format, "siconos") && strcmp(a.format, "fclib"))
        rc = cb_cli_usage_error("--format: '%s' is not siconos or fclib", a.format);
    ds.format = a.format && !strcmp(a.format, "fclib") ? CB_FORMAT_FCLIB : CB_FORMAT_SICONOS;
    if (rc == CB_EXIT_OK)
        rc = build_scenario(&a, &scen);
    if (rc == CB_EXIT_OK && ds.format == CB_FORMAT_FCLIB &&
        cb_fclib_local_kind_check(a.outdir, scen.kind, &err) != CB_OK)
        rc = cb_cli_usage_error("--format: %s", err.text);
    if (rc == CB_EXIT_OK)
        rc = run_settings(&a, &ds.run);
    if (rc == CB_EXIT_OK) {
        if (a.have_tol)
            scen.tol = a.tol;
        ds.outdir = a.outdir, ds.steps = steps, ds.nsteps = nsteps, ds.on_step = gen_note;
        int code = cb_scenario_dump_steps(&scen, &ds, &res, &err);
        rc = code == CB_OK ? CB_EXIT_OK : cb_cli_report(code, &err);
    }
    free(steps);
    cb_scenario_free(&scen);
    cb_kv_list_free(&a.params);
    cb_kv_list_free(&a.options);
    return rc;
}

static const cb_cli_form sim_forms[] = {
    {SIM_USAGE, sim_opts}, {CB_USAGE_SIMULATE_COMPLIANT, cb_simulate_compliant_opts}, {NULL, NULL}};

const cb_cli_command cb_command_simulate = {
    "simulate", cb_cmd_simulate, "run a mechanical scenario with a model; summary and time series",
    sim_forms,
    "SCENARIO: conebench list scenarios (the papers' scenarios with their parameters). Models:\n"
    "nonsmooth runs the Moreau-Jean time-stepper, a cone complementarity problem solved each\n"
    "step; analytic evaluates the closed form (sphere-plane, disk-rolling); compliant (Fang &\n"
    "Negrut history model), compliant-legacy (constant rolling torque, their eq. 8) and\n"
    "compliant-edem (EDEM spin model) integrate the compliant models with the presets of the\n"
    "paper's tables. Prints one summary line (or --json): steps, unsolved steps, the largest\n"
    "judged error, and what the scenario measures (stop, regime, pile shape, collapse).",
    "conebench simulate sphere-plane --param mu=0.3 --csv run.csv --json\n"
    "conebench simulate brick-incline --model compliant --json",
    "0 simulated (unsolved steps are counted, not failures), 1 failure, 2 bad input"};
