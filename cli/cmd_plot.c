/* conebench — `conebench plot`: several solvers' convergence on one problem, no campaign. */
#include "commands.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

#include "report.h"

static const cb_cli_opt opts[] = {
    {"solver", 's', "A,B,...", "the solvers, comma separated (conebench list solvers); required"},
    {"tol", 't', "T", "target judged error: the dashed line (default 1e-8)"},
    {"max-iter", 'n', "N", "outer iterations at most (default 10000)"},
    {"time-limit", 'l', "S", "seconds at most per solver (default 60)"},
    {"output", CB_CLI_SHORT('o'), "F.png", "the figure (default convergence.png)"},
    {"plugin", 'P', "SO", CB_CLI_PLUGIN_HELP},
    {NULL, 0, NULL, NULL}};

static int plot_option(int c, cb_plot_settings *ps)
{
    long v;
    int rc;
    switch (c) {
    case 's': ps->solvers = optarg; return CB_EXIT_OK;
    case 't': return cb_cli_parse_double("--tol", optarg, &ps->s.tol);
    case 'n':
        rc = cb_cli_parse_long("--max-iter", optarg, 1, 0x7fffffff, &v);
        ps->s.max_iter = (int)v;
        return rc;
    case 'l': return cb_cli_parse_double("--time-limit", optarg, &ps->s.time_limit);
    case 'o': ps->out = optarg; return CB_EXIT_OK;
    case 'P': return cb_cli_plugin(optarg);
    default: return cb_cli_usage(&cb_command_plot);
    }
}

int cb_cmd_plot(int argc, char **argv)
{
    cb_plot_settings ps;
    cb_plot_settings_default(&ps);
    ps.out = "convergence.png";
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1)
        rc = plot_option(c, &ps);
    if (rc == CB_EXIT_OK && (optind != argc - 1 || !ps.solvers))
        rc = cb_cli_usage(&cb_command_plot);
    if (rc != CB_EXIT_OK)
        return rc;
    ps.file = argv[optind];
    cb_error err = {{0}};
    int code = cb_plot(&ps, &err);
    if (code != CB_OK)
        return cb_cli_report(code, &err);
    fprintf(stderr, "conebench: wrote %s\n", ps.out);
    return CB_EXIT_OK;
}

static const cb_cli_form forms[] = {{"plot FILE --solver A,B,... [options]", opts},
                                    {NULL, NULL}};

const cb_cli_command cb_command_plot = {
    "plot", cb_cmd_plot, "several solvers' convergence on one problem, drawn (no campaign)",
    forms,
    "Runs each solver of the list on FILE from p = 0 with its trace on, one after the other,\n"
    "and draws their judged error against iteration and against time as a report does (a\n"
    "marker at every traced point, a fixed colour and marker per solver, untraced iterations\n"
    "dotted, the tolerance line labelled) into one PNG, written only when complete. Prints a\n"
    "line per run (status, iterations, error, time) and the figure's caption.",
    "conebench plot problem.dat --solver nsn,ipm,nsgs --tol 1e-8 -o conv.png",
    "0 the figure was written, 1 failure (gnuplot missing or failing, I/O), 2 bad input"};
