/* conebench — `conebench report DIR`: tables and figures from a results directory.
 *
 * Reads DIR/runs.csv, DIR/limits.txt (time limit and max iterations the runner used) and
 * DIR/traces/; writes DIR/report.md, DIR/summary.csv and DIR/figures/ (PNG + SVG from the gnuplot
 * scripts in plots/: performance profiles for time, iterations and work per tolerance, and one
 * convergence figure per problem).
 */
#ifndef CONEBENCH_REPORT_H
#define CONEBENCH_REPORT_H

#include <stdio.h>
#include "conebench/common.h"

typedef struct {
    const char *dir;
    const char *plots_dir;   /* gnuplot scripts (default: cb_home_dir()/plots, campaign.h) */
    int figures;             /* 1: run gnuplot (default) */
    int max_convergence;     /* at most this many convergence figures (default 40) */
    FILE *summary;           /* where the summary table is printed (default stdout; NULL: none) */
} cb_report_settings;

void cb_report_settings_default(cb_report_settings *s);
int cb_report(const cb_report_settings *s, cb_error *err);

#endif
