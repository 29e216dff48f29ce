/* conebench — CLI commands on problem files: info, error, generate, project, list. */
#include "commands.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glob.h>
#include <sys/stat.h>

#include "campaign.h"
#include "conebench/generate.h"
#include "conebench/io.h"
#include "conebench/judge.h"
#include "scenario_registry.h"
#include "conebench/plugin.h"
#include "conebench/solver.h"
#include "base.h"

/* --kind K for readers: force the cone kind (e.g. rolling2d for a d = 3 file). */
static int parse_read_kind(const char *arg, cb_read_settings *rs)
{
    if (cb_kind_parse(arg, &rs->kind) != CB_OK)
        return cb_cli_usage_error("--kind: unknown cone kind '%s'", arg);
    rs->force_kind = 1;
    return CB_EXIT_OK;
}

/* min and max of x[0..n). */
static void range(const double *x, int n, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        *lo = fmin(*lo, x[i]);
        *hi = fmax(*hi, x[i]);
    }
}

/* "key":[lo,hi] ([] without contacts) */
static void json_range(cb_json *j, const char *key, int nc, double lo, double hi)
{
    cb_json_array(j, key);
    if (nc > 0) {
        cb_json_num(j, NULL, lo);
        cb_json_num(j, NULL, hi);
    }
    cb_json_close(j);
}

/* "key: [lo, hi]" ([] without contacts) */
static void print_range(const char *key, int nc, double lo, double hi)
{
    if (nc > 0)
        printf("%s: [%.17g, %.17g]\n", key, lo, hi);
    else
        printf("%s: []\n", key);
}

static void print_info(const cb_problem *p, int json)
{
    size_t n = cb_problem_n(p);
    double qn = 0, mlo, mhi, rlo, rhi, slo, shi;
    for (size_t i = 0; i < n; i++)
        qn += p->q[i] * p->q[i];
    range(p->mu, p->nc, &mlo, &mhi);
    range(p->mu_r, p->nc, &rlo, &rhi);
    range(p->mu_s, p->nc, &slo, &shi);
    long long nnzb = p->storage == CB_STORAGE_BSR ? p->bsr.nnzb : (long long)p->nc * p->nc;
    if (!json) {
        printf("file: %s\nkind: %s\nnc: %d\nd: %d\nstorage: %s\nnnz_blocks: %lld\n"
               "norm_q: %.17g\n",
               p->prov.source, cb_kind_name(p->kind), p->nc, p->d, cb_storage_name(p->storage),
               nnzb, sqrt(qn));
        print_range("mu", p->nc, mlo, mhi);
        print_range("mu_r", p->nc, rlo, rhi);
        print_range("mu_s", p->nc, slo, shi);
        printf("sha256: %s\n", p->prov.sha256);
        if (p->global)
            printf("global: ndof %d, M %d entries, H %d entries (W and q condensed from them)\n",
                   p->global->ndof, p->global->M.nnz, p->global->H.nnz);
        return;
    }
    cb_json j;
    cb_json_begin(&j, stdout);
    cb_json_str(&j, "file", p->prov.source);
    cb_json_str(&j, "kind", cb_kind_name(p->kind));
    cb_json_int(&j, "nc", p->nc);
    cb_json_int(&j, "d", p->d);
    cb_json_str(&j, "storage", cb_storage_name(p->storage));
    cb_json_int(&j, "nnz_blocks", nnzb);
    cb_json_num(&j, "norm_q", sqrt(qn));
    json_range(&j, "mu", p->nc, mlo, mhi);
    json_range(&j, "mu_r", p->nc, rlo, rhi);
    json_range(&j, "mu_s", p->nc, slo, shi);
    cb_json_str(&j, "sha256", p->prov.sha256);
    cb_json_int(&j, "global_ndof", p->global ? p->global->ndof : 0);
    cb_json_end(&j);
}

#define KIND_OPT                                                                                 \
    {"kind", 'k', "K", "read FILE as cone kind K (e.g. rolling2d for a d = 3 file; default: the " \
                       "file's)"}

static const cb_cli_opt info_opts[] = {
    {"json", 'j', NULL, "print one JSON object (keys: man conebench, JSON OUTPUT)"},
    KIND_OPT,
    {NULL, 0, NULL, NULL}};

int cb_cmd_info(int argc, char **argv)
{
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    cb_cli_parser cp;
    int json = 0, c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&cp, info_opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&cp, argc, argv)) != -1)
        rc = c == 'j' ? (json = 1, CB_EXIT_OK)
             : c == 'k' ? parse_read_kind(optarg, &rs)
                        : cb_cli_usage(&cb_command_info);
    if (rc == CB_EXIT_OK && optind != argc - 1)
        rc = cb_cli_usage(&cb_command_info);
    if (rc != CB_EXIT_OK)
        return rc;
    struct stat st;
    if (stat(argv[optind], &st) == 0 && S_ISDIR(st.st_mode))
        return cb_cli_info_sequence(argv[optind], &rs, json);
    cb_problem *p = NULL;
    cb_error err = {{0}};
    rc = cb_read_problem(argv[optind], &rs, &p, &err);
    if (rc != CB_OK)
        return cb_cli_report(rc, &err);
    print_info(p, json);
    cb_problem_free(p);
    return CB_EXIT_OK;
}

/* Judge a solution file against a problem file. */
static int judge_files(const char *file, const char *sol, const cb_read_settings *rs, double tol)
{
    cb_problem *p = NULL;
    double *x = NULL, *y = NULL;
    int nc, d;
    cb_error err = {{0}};
    cb_judgement j;
    cb_gap g = CB_GAP_UNKNOWN;
    double *yj = NULL; /* W p + q, the judge's */
    int rc = cb_read_problem(file, rs, &p, &err);
    if (rc == CB_OK)
        rc = cb_read_solution(sol, &nc, &d, &x, &y, &err);
    if (rc == CB_OK && (nc != p->nc || d != p->d))
        rc = cb_fail_at(&err, CB_ERR_INPUT, sol, 1,
                        "solution is %d contacts of dimension %d, problem %s has %d of %d", nc, d,
                        file, p->nc, p->d);
    if (rc == CB_OK && !(yj = cb_calloc(cb_problem_n(p), sizeof *yj)))
        rc = cb_fail(&err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK)
        rc = cb_judge(p, x, tol, yj, &j, &err);
    if (rc == CB_OK)
        rc = cb_judge_gap(p, x, yj, &g, &err);
    if (rc == CB_OK) {
        cb_json o;
        cb_json_begin(&o, stdout);
        cb_json_num(&o, "error", j.error);
        cb_json_num(&o, "error_q", j.error_q);
        cb_json_num(&o, "error_data", j.error_data);
        cb_json_num(&o, "abs_error", j.abs_error);
        cb_json_num(&o, "tol", tol);
        cb_json_bool(&o, "solved", j.solved);
        cb_json_gap(&o, &g);
        cb_json_end(&o);
    }
    cb_problem_free(p);
    free(x);
    free(y);
    free(yj);
    return rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
}

static const cb_cli_opt error_opts[] = {
    {"solution", 's', "SOL", "the solution file to judge (line 1: nc d; then nc*d lines p y); "
                             "required"},
    {"tol", 't', "T", "tolerance of \"solved\" (default 1e-8)"},
    KIND_OPT,
    {NULL, 0, NULL, NULL}};

int cb_cmd_error(int argc, char **argv)
{
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    const char *sol = NULL;
    double tol = 1e-8;
    cb_cli_parser cp;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&cp, error_opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&cp, argc, argv)) != -1) {
        if (c == 's')
            sol = optarg;
        else if (c == 't')
            rc = cb_cli_parse_double("--tol", optarg, &tol);
        else if (c == 'k')
            rc = parse_read_kind(optarg, &rs);
        else
            rc = cb_cli_usage(&cb_command_error);
    }
    if (rc != CB_EXIT_OK)
        return rc;
    if (optind != argc - 1 || !sol)
        return cb_cli_usage(&cb_command_error);
    if (!(tol > 0))
        return cb_cli_usage_error("--tol: must be > 0");
    return judge_files(argv[optind], sol, &rs, tol);
}

/* Every campaign file (campaigns/NAME.conf) with its description line. */
static int list_campaigns(void)
{
    char pattern[4200];
    snprintf(pattern, sizeof pattern, "%s/campaigns/*.conf", cb_home_dir());
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0) {
        globfree(&g);
        fprintf(stderr, "conebench: no campaign files under %s\n", pattern);
        return CB_EXIT_OK;
    }
    for (size_t i = 0; i < g.gl_pathc; i++) {
        cb_campaign *c = NULL;
        cb_error err;
        long loops = 0; /* a loop campaign's trajectories: per line, every run and a reference */
        if (cb_campaign_parse(g.gl_pathv[i], "/tmp", &c, &err) == CB_OK) {
            loops = (long)c->nloops * ((long)c->nsolvers * c->ntols * c->repetitions + 1);
            printf("%-16s %-6ld %s  %s\n", c->name, loops ? loops : cb_campaign_nruns(c),
                   loops ? "trajectories" : "runs", c->description ? c->description : "");
        } else {
            printf("%-16s (invalid: %s)\n", g.gl_pathv[i], err.text);
        }
        cb_campaign_free(c);
    }
    globfree(&g);
    return CB_EXIT_OK;
}

/* Every scenario: name, summary and parameters (key=default  help). */
static int list_scenarios(void)
{
    for (int i = 0; i < cb_scenario_count(); i++) {
        const cb_scenario_def *d = cb_scenario_at(i);
        printf("%-16s %s\n", d->name, d->summary);
        for (const cb_option_spec *sp = d->params; sp->key; sp++) {
            char kv[64];
            snprintf(kv, sizeof kv, "%s=%s", sp->key, sp->default_value);
            printf("    %-20s %s\n", kv, sp->help);
        }
    }
    return CB_EXIT_OK;
}

static const cb_cli_opt list_opts[] = {
    {"plugin", 'P', "SO", CB_CLI_PLUGIN_HELP},
    {NULL, 0, NULL, NULL}};

int cb_cmd_list(int argc, char **argv)
{
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, list_opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1)
        rc = c == 'P' ? cb_cli_plugin(optarg) : cb_cli_usage(&cb_command_list);
    if (rc != CB_EXIT_OK)
        return rc;
    if (optind != argc - 1)
        return cb_cli_usage(&cb_command_list);
    argv += optind - 1;
    if (!strcmp(argv[1], "solvers")) {
        for (int i = 0; i < cb_solver_count(); i++) {
            const cb_solver *s = cb_solver_at(i);
            const char *from = cb_solver_origin(s);
            printf("%-20s %s%s%s%s\n", s->name, s->summary, from ? " [" : "", from ? from : "",
                   from ? "]" : "");
            for (const cb_option_spec *o = s->options; o && o->key; o++)
                printf("    %s=%s  %s\n", o->key, o->default_value, o->help);
        }
        return CB_EXIT_OK;
    }
    if (!strcmp(argv[1], "campaigns"))
        return list_campaigns();
    if (!strcmp(argv[1], "scenarios"))
        return list_scenarios();
    return cb_cli_usage_error("list: unknown list '%s' (solvers, scenarios, campaigns)", argv[1]);
}

static const cb_cli_form list_forms[] = {{"list solvers|scenarios|campaigns [--plugin SO]", list_opts},
                                         {NULL, NULL}};
static const cb_cli_form info_forms[] = {{"info FILE|DIR [options]", info_opts}, {NULL, NULL}};
static const cb_cli_form error_forms[] = {{"error FILE --solution SOL [options]", error_opts},
                                          {NULL, NULL}};

const cb_cli_command cb_command_list = {
    "list", cb_cmd_list, "list the solvers, the scenarios or the campaigns", list_forms,
    "solvers: every solver with its options (key=default  help); scenarios: every mechanical\n"
    "scenario with its parameters (key=default  help); campaigns: the campaign files found in\n"
    "campaigns/ of the share folder, with their run counts (a loop campaign: its trajectories)\n"
    "and descriptions.",
    "conebench list solvers", "0 listed, 2 bad input"};

const cb_cli_command cb_command_info = {
    "info", cb_cmd_info, "describe a problem file (kind, sizes, norms, friction ranges, sha256) or a "
    "step sequence",
    info_forms,
    "Reads FILE: Siconos text (dense, sparse-block or CSparse dump; global GFC3D/GRFC3D files\n"
    "are condensed to W = H' M^-1 H), FCLIB HDF5 (local, global, global rolling; read in a child\n"
    "process, so a file that crashes the HDF5 library is bad input) or conebench's own files.\n"
    "Prints kind, nc, d, storage, nonzero blocks, ||q||, the ranges of mu, mu_r, mu_s and the\n"
    "sha256 of the file. DIR: a step sequence (NAME-stepN files with their .ids, .meta, .sol;\n"
    "conebench generate SCENARIO --steps): its steps, time span, nc range, how many steps have\n"
    "contact ids and solutions, the contacts that appeared and vanished from step to step.",
    "conebench info problem.dat --json\nconebench info steps/",
    "0 described, 1 failure, 2 bad input (conebench: FILE:LINE: what is wrong)"};

const cb_cli_command cb_command_error = {
    "error", cb_cmd_error, "judge a solution file against a problem file (one JSON object)",
    error_forms,
    "Recomputes y = W p + q from the p of SOL and prints the natural-map residuals: error\n"
    "(Siconos 4.4 normalisation), error_q (FCLIB normalisation), error_data (the verdict's),\n"
    "abs_error (unnormalised) and solved (finite, resolvable and error_data <= tol; the rule is\n"
    "in man conebench, VERDICT), then the gap measures of p (cone_violation ... positive_work:\n"
    "VERDICT, Gap measures). solve, run, report and compare give the same verdict.",
    "conebench error problem.dat --solution problem.sol --tol 1e-6",
    "0 judged (solved or not), 1 failure, 2 bad input"};
