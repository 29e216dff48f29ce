/* conebench — `conebench report DIR`. */
#include "commands.h"
#include "util.h"

#include <stdio.h>

#include "conebench/report.h"

static const cb_cli_opt opts[] = {
    {"no-figures", 'n', NULL, "tables only, no gnuplot figures (default: figures)"},
    {"max-convergence", 'm', "N", "convergence figures for N problems at most (default 40)"},
    {NULL, 0, NULL, NULL}};

int cb_cmd_report(int argc, char **argv)
{
    cb_report_settings s;
    cb_report_settings_default(&s);
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    long v;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1) {
        if (c == 'n')
            s.figures = 0;
        else if (c == 'm' &&
                 (rc = cb_cli_parse_long("--max-convergence", optarg, 0, 100000, &v)) == 0)
            s.max_convergence = (int)v;
        else if (c == '?')
            rc = cb_cli_usage(&cb_command_report);
    }
    if (rc != CB_EXIT_OK)
        return rc;
    if (optind != argc - 1)
        return cb_cli_usage(&cb_command_report);
    s.dir = argv[optind];
    cb_error err = {{0}};
    int code = cb_report(&s, &err);
    if (code != CB_OK)
        return cb_cli_report(code, &err);
    fprintf(stderr, "conebench: wrote %s/report.md\n", s.dir);
    return CB_EXIT_OK;
}

static const cb_cli_form forms[] = {{"report DIR [options]", opts}, {NULL, NULL}};

const cb_cli_command cb_command_report = {
    "report", cb_cmd_report, "tables, figures and report.md from a results directory", forms,
    "Reads DIR/runs.csv (and traces/, limits.txt, campaign.conf) written by `conebench run` and\n"
    "writes DIR/report.md: success rates, shifted geometric means of time and iterations,\n"
    "Dolan-More performance profiles and convergence curves (gnuplot PNG + SVG in DIR/figures/).\n"
    "The summary table also goes to stdout.",
    "conebench report results/default",
    "0 written, 1 failure, 2 bad input (e.g. no DIR/runs.csv)"};
