/* conebench — `conebench report DIR`: tables and figures from a results directory.
 *
 * Reads DIR/runs.csv, DIR/limits.txt (time limit and max iterations the runner used) and
 * DIR/traces/; writes DIR/report.md, DIR/summary.csv and DIR/figures/ (PNG + SVG from the gnuplot
 * scripts in plots/: performance profiles for time, iterations and work per tolerance, and one
 * convergence figure per problem; gnuplot's own messages go to DIR/figures/gnuplot.log).
 *
 * cb_report_summary_read gives the same numbers as data (for `report --json`), writing nothing.
 */
#ifndef CONEBENCH_REPORT_H
#define CONEBENCH_REPORT_H

#include <stdio.h>
#include "conebench/common.h"
#include "results.h"

/* Shifts of the shifted geometric means (report.md, --json): time in seconds, iterations. */
#define CB_REPORT_TIME_SHIFT_S 0.010
#define CB_REPORT_ITER_SHIFT 10.0

typedef struct {
    const char *dir;
    const char *plots_dir;   /* gnuplot scripts (default: cb_home_dir()/plots, campaign.h) */
    int figures;             /* 1: run gnuplot (default) */
    int max_convergence;     /* at most this many convergence figures (default 40) */
    FILE *summary;           /* where the summary table is printed (default stdout; NULL: none) */
    int html;                /* 1: also DIR/report.html, self-contained (figures inlined) */
} cb_report_settings;

void cb_report_settings_default(cb_report_settings *s);
int cb_report(const cb_report_settings *s, cb_error *err);

/* One solver at one tolerance. Runs leave out the (problem, solver) pairs the solver does not
 * take (unsupported); means charge failures the time limit and max_iter. */
typedef struct {
    const char *label;               /* borrowed from the summary's rows */
    int runs, solved, unsupported;
    double success;                  /* solved / runs, NaN when no runs */
    double sgm_time_s, sgm_iter;     /* shifted geometric means (shifts above) */
    double median_error;             /* over runs with a finite error */
    int work_filled;                 /* 0: every work counter is 0 on every run */
    int status_count[CB_STATUS_COUNT];
} cb_report_solver;

/* One problem at one tolerance: the fastest solver that solved it (median time). */
typedef struct {
    const char *problem, *kind;      /* borrowed from the summary's rows */
    int nc;
    int winner;                      /* index into the tolerance's solvers, -1: none solved it */
    double winner_time_s;            /* NaN when no winner */
} cb_report_problem;

typedef struct {
    double tol;
    int nsolvers, nproblems;
    int profile_problems;            /* problems every solver supports (the profiles' set) */
    cb_report_solver *solvers;
    cb_report_problem *problems;
} cb_report_tol;

/* Everything `report --json` prints. Owns its arrays and rows; free with cb_report_summary_free. */
typedef struct {
    char campaign[256];
    int runs, unsupported;           /* rows of runs.csv that are runs / unsupported pairs */
    double time_limit_s;
    int max_iter;
    int ntols;
    cb_report_tol *tols;             /* largest tolerance first */
    cb_results res;
} cb_report_summary;

/* Read DIR (runs.csv, limits.txt) into out. CB_ERR_INPUT: no such directory, no runs. */
int cb_report_summary_read(const char *dir, cb_report_summary *out, cb_error *err);
/* Free what cb_report_summary_read allocated (NULL and zeroed summaries accepted). */
void cb_report_summary_free(cb_report_summary *s);

/* `conebench plot`: the solvers of a comma-separated list run one after the other on one
 * problem file (trace on), their convergence drawn as in a report (error against iteration and
 * time) into out (a .png, written at once: nothing there on failure), a line per run and the
 * figure's caption to caption. CB_ERR_INPUT (before any work) for an unknown or repeated
 * solver, an output not ending in .png, tol <= 0. */
#define CB_PLOT_MAX_SOLVERS 16

typedef struct {
    const char *file;        /* the problem */
    const char *solvers;     /* "a,b,c" */
    const char *out;         /* F.png */
    const char *plots_dir;   /* gnuplot scripts (NULL: cb_home_dir()/plots) */
    cb_settings s;           /* tol, max_iter, time_limit (trace is turned on) */
    FILE *caption;           /* default stdout */
} cb_plot_settings;

void cb_plot_settings_default(cb_plot_settings *ps);
int cb_plot(const cb_plot_settings *ps, cb_error *err);

#endif
