/* conebench — `conebench conformance SOLVER...`: the solver contract, checked (bench/conformance.h). */
#include "commands.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

#include "conebench/plugin.h"
#include "conformance.h"
#include "kv.h"
#include "solve_limited.h"

static const cb_cli_opt opts[] = {
    {"plugin", 'P', "SO", CB_CLI_PLUGIN_HELP},
    {"all", 'a', NULL, "every solver conebench knows (built in and plugins; default: the named ones)"},
    {"time-limit", 'l', "S", "the time limit given in the time_limit check (default 0.5)"},
    {"slack", 's', "S", "CPU seconds a solver may take past that limit (default 1.5)"},
    {"nc", 'c', "N", "contacts of the generated problems (1..2000; default 20)"},
    {"option", 'o', "k=v", "a solver option for every run, repeatable (default none)"},
    {NULL, 0, NULL, NULL}};

typedef struct {
    cb_conformance_settings s;
    cb_kv_list opts; /* --option k=v */
    int all;
} conf_args;

static int parse_conformance(int argc, char **argv, conf_args *a)
{
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    long v;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1) {
        if (c == 'P')
            rc = cb_cli_plugin(optarg);
        else if (c == 'a')
            a->all = 1;
        else if (c == 'l')
            rc = cb_cli_parse_time_limit("--time-limit", optarg, &a->s.time_limit);
        else if (c == 's')
            rc = cb_cli_parse_double("--slack", optarg, &a->s.slack);
        else if (c == 'c' && (rc = cb_cli_parse_long("--nc", optarg, 1, 2000, &v)) == CB_EXIT_OK)
            a->s.nc = (int)v;
        else if (c == 'o')
            rc = a->opts.n < CB_CONF_MAX_OPTIONS ? cb_cli_kv_add(&a->opts, "--option", optarg)
                 : cb_cli_usage_error("--option: at most %d", CB_CONF_MAX_OPTIONS);
        else if (c == '?')
            rc = cb_cli_usage(&cb_command_conformance);
    }
    if (rc == CB_EXIT_OK && !(a->s.time_limit > 0 && a->s.slack >= 0))
        rc = cb_cli_usage_error("--time-limit must be > 0 and --slack ≥ 0");
    if (rc == CB_EXIT_OK && (optind == argc) == !a->all)
        rc = cb_cli_usage_error("conformance: name the solvers, or --all");
    char hint[CB_CLI_HINT_LEN];
    for (int i = optind; rc == CB_EXIT_OK && i < argc; i++)
        if (!cb_solver_find(argv[i]))
            rc = cb_cli_usage_error("conformance: unknown solver '%s'%s (conebench list solvers)",
                                    argv[i], cb_solver_suggest(argv[i], hint, sizeof hint));
    return rc;
}

/* Check one solver and print its table; *failed gets the names of the failed checks. */
static int conform(const cb_solver *sv, const conf_args *a, char *failed, size_t n)
{
    cb_conformance_check c[CB_CONF_NCHECKS];
    cb_error err = {{0}};
    const char *from = cb_solver_origin(sv);
    printf("conformance of %s%s%s%s\n", sv->name, from ? " (" : "", from ? from : "",
           from ? ")" : "");
    fflush(stdout);
    int rc = cb_conformance_run(sv, &a->s, c, &err), nfail = 0;
    if (rc != CB_OK)
        return cb_cli_report(rc, &err);
    failed[0] = '\0';
    const char *cannot = NULL;
    int ncannot = 0;
    for (int k = 0; k < CB_CONF_NCHECKS; k++) {
        printf("  %-14s %s  %s\n", c[k].name,
               c[k].passed ? "pass" : c[k].cannot ? "cannot" : "FAIL", c[k].detail);
        ncannot += c[k].cannot != NULL;
        cannot = c[k].cannot ? c[k].cannot : cannot;
        if (!c[k].passed && !c[k].cannot && strlen(failed) + strlen(c[k].name) + 2 < n)
            snprintf(failed + strlen(failed), n - strlen(failed), "%s%s", nfail++ ? ", " : "",
                     c[k].name);
    }
    printf("%s: %d of %d checks passed", sv->name, CB_CONF_NCHECKS - nfail - ncannot,
           CB_CONF_NCHECKS);
    if (ncannot)
        printf("; %d cannot pass (%s)", ncannot, cannot);
    printf("\n");
    fflush(stdout);
    return nfail ? CB_EXIT_FAIL : CB_EXIT_OK;
}

int cb_cmd_conformance(int argc, char **argv)
{
    conf_args a;
    memset(&a, 0, sizeof a);
    cb_conformance_settings_default(&a.s);
    int rc = parse_conformance(argc, argv, &a), worst = CB_EXIT_OK;
    a.s.options = a.opts.items;
    a.s.noptions = a.opts.n;
    if (rc != CB_EXIT_OK) {
        cb_kv_list_free(&a.opts);
        return rc;
    }
    int n = a.all ? cb_solver_count() : argc - optind;
    for (int i = 0; i < n && worst != CB_EXIT_BADINPUT; i++) {
        const cb_solver *sv = a.all ? cb_solver_at(i) : cb_solver_find(argv[optind + i]);
        char failed[512];
        rc = conform(sv, &a, failed, sizeof failed);
        if (rc == CB_EXIT_FAIL && failed[0])
            fprintf(stderr, "conebench: conformance: %s fails %s\n", sv->name, failed);
        worst = rc > worst ? rc : worst;
    }
    cb_kv_list_free(&a.opts);
    return worst;
}

static const cb_cli_form forms[] = {{"conformance SOLVER... [options]\nconformance --all [options]",
                                     opts},
                                    {NULL, NULL}};

const cb_cli_command cb_command_conformance = {
    "conformance", cb_cmd_conformance, "check the contract a solver owes the harness", forms,
    "Runs each check in its own process on generated problems with known solutions (seed 1,\n"
    "multibody W, --nc contacts, every cone kind) and prints a pass/FAIL table per solver:\n"
    "  options        an unknown option is refused;\n"
    "  max_iter       max_iter 2 on an unreachable tolerance: at most 2 iterations;\n"
    "  time_limit     back within --time-limit + --slack CPU seconds on an unreachable tolerance;\n"
    "  nan_q          a NaN in q: refused, or diverged within 1 iteration;\n"
    "  nan_start      a NaN in the warm start: likewise;\n"
    "  warm_start     from the known solution: solved in at most 1 iteration;\n"
    "  deterministic  two identical runs: the same bits of p and y, iterations and counters;\n"
    "  counters       a run that iterates fills a work counter;\n"
    "  trace          trace points non-decreasing in iteration and time;\n"
    "  known          the known-solution problem of every kind it supports solved to 1e-8\n"
    "                 (as judged), and at least one kind supported.\n"
    "The checks use the harness (cb_solve_limited) except nan_q and nan_start, which call the\n"
    "solver's setup and solve directly (the harness refuses non-finite input itself).",
    "conebench conformance pjacobi --plugin ./pjacobi.so",
    "0 every check passed, 1 a check failed (named on stderr), 2 bad input"};
