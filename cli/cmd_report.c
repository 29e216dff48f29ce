/* conebench — `conebench report DIR`. */
#include "commands.h"
#include "json.h"
#include "util.h"

#include <stdio.h>

#include "report.h"
#include "runner.h"

static const cb_cli_opt opts[] = {
    {"no-figures", 'n', NULL, "tables only, no gnuplot figures (default: figures)"},
    {"max-convergence", 'm', "N", "convergence figures for N problems at most (default 40)"},
    {"html", 'H', NULL, "also DIR/report.html: one self-contained page (figures inlined as SVG)"},
    {"json", 'j', NULL, "print the summary as one JSON object on stdout; write nothing"},
    {NULL, 0, NULL, NULL}};

/* One solver of one tolerance as a JSON object of the array "solvers". */
static void json_solver(cb_json *j, const cb_report_solver *st)
{
    cb_json_object(j, NULL);
    cb_json_str(j, "solver", st->label);
    cb_json_int(j, "runs", st->runs);
    cb_json_int(j, "solved", st->solved);
    cb_json_num(j, "success", st->success);
    cb_json_int(j, "unsupported", st->unsupported);
    cb_json_num(j, "sgm_time_s", st->sgm_time_s);
    cb_json_num(j, "sgm_iterations", st->sgm_iter);
    cb_json_num(j, "median_error", st->median_error);
    cb_json_bool(j, "work_counters_filled", st->work_filled);
    cb_json_object(j, "failures");
    for (int s = 0; s < CB_STATUS_COUNT; s++)
        if (s != CB_STATUS_UNSUPPORTED)
            cb_json_int(j, cb_status_name((cb_status)s), st->status_count[s]);
    cb_json_close(j);
    cb_json_close(j);
}

/* One tolerance: its solvers, then its problems with their winners. */
static void json_tol(cb_json *j, const cb_report_tol *t)
{
    cb_json_object(j, NULL);
    cb_json_num(j, "tol", t->tol);
    cb_json_int(j, "problems", t->nproblems);
    cb_json_int(j, "profile_problems", t->profile_problems);
    cb_json_array(j, "solvers");
    for (int s = 0; s < t->nsolvers; s++)
        json_solver(j, &t->solvers[s]);
    cb_json_close(j);
    cb_json_array(j, "winners");
    for (int p = 0; p < t->nproblems; p++) {
        const cb_report_problem *q = &t->problems[p];
        cb_json_object(j, NULL);
        cb_json_str(j, "problem", q->problem);
        cb_json_str(j, "kind", q->kind);
        cb_json_int(j, "nc", q->nc);
        if (q->winner < 0)
            cb_json_null(j, "winner");
        else
            cb_json_str(j, "winner", t->solvers[q->winner].label);
        cb_json_num_digits(j, "winner_time_s", q->winner_time_s, 9);
        cb_json_close(j);
    }
    cb_json_close(j);
    cb_json_close(j);
}

/* `report DIR --json`: the summary of DIR as one JSON object on stdout. */
static int report_json(const char *dir)
{
    cb_report_summary r;
    cb_results_tally t;
    cb_error err = {{0}};
    int code = cb_results_dir_count(dir, NULL, &t, &err);
    if (code == CB_OK)
        code = cb_report_summary_read(dir, &r, &err);
    if (code != CB_OK)
        return cb_cli_report(code, &err);
    if (t.rows < t.expected)
        fprintf(stderr, "conebench: warning: %s: incomplete: %ld of %ld runs (no verdict from a "
                        "partial campaign)\n", dir, t.rows, t.expected);
    cb_json j;
    cb_json_begin(&j, stdout);
    cb_json_str(&j, "dir", dir);
    cb_json_str(&j, "campaign", r.campaign);
    cb_json_int(&j, "runs", r.runs);
    cb_json_int(&j, "unsupported", r.unsupported);
    cb_json_num(&j, "time_limit_s", r.time_limit_s);
    cb_json_int(&j, "max_iter", r.max_iter);
    cb_json_num(&j, "time_shift_s", CB_REPORT_TIME_SHIFT_S);
    cb_json_num(&j, "iteration_shift", CB_REPORT_ITER_SHIFT);
    cb_json_array(&j, "tolerances");
    for (int i = 0; i < r.ntols; i++)
        json_tol(&j, &r.tols[i]);
    cb_json_end(&j);
    cb_report_summary_free(&r);
    return CB_EXIT_OK;
}

int cb_cmd_report(int argc, char **argv)
{
    int json = 0;
    cb_report_settings s;
    cb_report_settings_default(&s);
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    long v;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1) {
        if (c == 'n')
            s.figures = 0;
        else if (c == 'H')
            s.html = 1;
        else if (c == 'j')
            json = 1;
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
    if (json)
        return report_json(s.dir);
    cb_error err = {{0}};
    int code = cb_report(&s, &err);
    if (code != CB_OK)
        return cb_cli_report(code, &err);
    fprintf(stderr, "conebench: wrote %s/report.md%s\n", s.dir, s.html ? " and report.html" : "");
    return CB_EXIT_OK;
}

static const cb_cli_form forms[] = {{"report DIR [options]", opts}, {NULL, NULL}};

const cb_cli_command cb_command_report = {
    "report", cb_cmd_report, "tables, figures and report.md from a results directory", forms,
    "Reads DIR/runs.csv (and traces/, limits.txt, campaign.conf) written by `conebench run` and\n"
    "writes DIR/report.md: success rates, shifted geometric means of time and iterations,\n"
    "Dolan-More performance profiles, data profiles (solved within k W-products per contact),\n"
    "the error reached within a budget of iterations and of seconds, time per contact and\n"
    "convergence curves (gnuplot PNG + SVG in DIR/figures/, each profile's curve also as CSV).\n"
    "--html also writes DIR/report.html, one page with every figure inlined (no network).\n"
    "The summary table also goes to stdout. With --json, the same numbers (and each problem's\n"
    "winner) go to stdout as one JSON object instead, and nothing is written. A campaign with\n"
    "runs missing gets \"incomplete: N of M runs\" instead of a verdict.",
    "conebench report results/default",
    "0 written, 1 failure (DIR in use by another process), 2 bad input (e.g. no DIR/runs.csv, a "
    "run id twice)"};
