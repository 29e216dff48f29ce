/* conebench — CLI commands on problem files: info, error, generate, project, list. */
#include "commands.h"
#include "json.h"
#include "util.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glob.h>

#include "conebench/campaign.h"
#include "conebench/generate.h"
#include "conebench/io.h"
#include "conebench/judge.h"
#include "conebench/scenarios.h"
#include "conebench/solver.h"

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

/* "key":[lo,hi] */
static void json_range(cb_json *j, const char *key, double lo, double hi)
{
    cb_json_array(j, key);
    cb_json_num(j, NULL, lo);
    cb_json_num(j, NULL, hi);
    cb_json_close(j);
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
               "norm_q: %.17g\nmu: [%.17g, %.17g]\nmu_r: [%.17g, %.17g]\nmu_s: [%.17g, %.17g]\n"
               "sha256: %s\n",
               p->prov.source, cb_kind_name(p->kind), p->nc, p->d, cb_storage_name(p->storage),
               nnzb, sqrt(qn), mlo, mhi, rlo, rhi, slo, shi, p->prov.sha256);
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
    json_range(&j, "mu", mlo, mhi);
    json_range(&j, "mu_r", rlo, rhi);
    json_range(&j, "mu_s", slo, shi);
    cb_json_str(&j, "sha256", p->prov.sha256);
    cb_json_end(&j);
}

int cb_cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, 0, 'j'}, {"kind", required_argument, 0, 'k'}, {0, 0, 0, 0}};
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    int json = 0, c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'j')
            json = 1;
        else if (c == 'k' && (rc = parse_read_kind(optarg, &rs)) != CB_EXIT_OK)
            return rc;
        else if (c == '?')
            return cb_cli_usage_error("usage: conebench info FILE [--json] [--kind K]");
    }
    if (optind != argc - 1)
        return cb_cli_usage_error("usage: conebench info FILE [--json] [--kind K]");
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
    int rc = cb_read_problem(file, rs, &p, &err);
    if (rc == CB_OK)
        rc = cb_read_solution(sol, &nc, &d, &x, &y, &err);
    if (rc == CB_OK && (nc != p->nc || d != p->d))
        rc = cb_fail_at(&err, CB_ERR_INPUT, sol, 1,
                        "solution is %d contacts of dimension %d, problem %s has %d of %d", nc, d,
                        file, p->nc, p->d);
    if (rc == CB_OK)
        rc = cb_judge(p, x, tol, NULL, &j, &err);
    if (rc == CB_OK) {
        cb_json o;
        cb_json_begin(&o, stdout);
        cb_json_num(&o, "error", j.error);
        cb_json_num(&o, "error_q", j.error_q);
        cb_json_num(&o, "abs_error", j.abs_error);
        cb_json_num(&o, "tol", tol);
        cb_json_bool(&o, "solved", j.solved);
        cb_json_end(&o);
    }
    cb_problem_free(p);
    free(x);
    free(y);
    return rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
}

int cb_cmd_error(int argc, char **argv)
{
    static const struct option opts[] = {{"solution", required_argument, 0, 's'},
                                         {"tol", required_argument, 0, 't'},
                                         {"kind", required_argument, 0, 'k'},
                                         {0, 0, 0, 0}};
    static const char *use = "usage: conebench error FILE --solution SOL [--tol T] [--kind K]";
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    const char *sol = NULL;
    double tol = 1e-8;
    int c, rc = CB_EXIT_OK;
    optind = 1;
    while (rc == CB_EXIT_OK && (c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 's')
            sol = optarg;
        else if (c == 't')
            rc = cb_cli_parse_double("--tol", optarg, &tol);
        else if (c == 'k')
            rc = parse_read_kind(optarg, &rs);
        else
            rc = cb_cli_usage_error("%s", use);
    }
    if (rc != CB_EXIT_OK)
        return rc;
    if (optind != argc - 1 || !sol)
        return cb_cli_usage_error("%s", use);
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
        if (cb_campaign_parse(g.gl_pathv[i], "/tmp", &c, &err) == CB_OK)
            printf("%-16s %-6ld runs  %s\n", c->name, cb_campaign_nruns(c),
                   c->description ? c->description : "");
        else
            printf("%-16s (invalid: %s)\n", g.gl_pathv[i], err.text);
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

int cb_cmd_list(int argc, char **argv)
{
    if (argc != 2)
        return cb_cli_usage_error("usage: conebench list solvers|scenarios|campaigns");
    if (!strcmp(argv[1], "solvers")) {
        for (int i = 0; i < cb_solver_count(); i++) {
            const cb_solver *s = cb_solver_at(i);
            printf("%-20s %s\n", s->name, s->summary);
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
