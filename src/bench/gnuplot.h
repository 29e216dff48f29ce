/* conebench — the one gnuplot driver: every figure of the tree is drawn through cb_gnuplot.
 *
 * gnuplot is started without a shell (posix_spawnp of "gnuplot" found in PATH); its script comes
 * on its standard input: the caller's definitions ("name = value" lines), then `load` of a script
 * file of the plots folder. gnuplot's messages (its standard error) are appended to a log file.
 *
 * One quoting rule for every path and title written into a script: a gnuplot string expression
 * whose runs without a single quote are single-quoted and each single quote is the constant
 * "'", joined by gnuplot's `.` ('it' . "'" . 's' is it's; '' is the empty string). Inside single
 * quotes gnuplot reads backslashes, double quotes, backquotes, $ and @ literally (in double
 * quotes a backquoted command would run; gnuplot 5.4 misreads a doubled '' at the start of a
 * single-quoted string). A newline cannot be quoted (a script is read line by line): refused.
 *
 * Failures are CB_ERR_IO (exit 1): gnuplot missing from PATH, or gnuplot ending with a non-zero
 * status (the message names the figure, the script and gnuplot's last line); the figure's files
 * (out.png, out.svg) are then removed, so no partial figure is left. */
#ifndef CONEBENCH_GNUPLOT_H
#define CONEBENCH_GNUPLOT_H

#include <stddef.h>

#include "conebench/common.h"

#define CB_GNUPLOT_PROGRAM "gnuplot"   /* looked up in PATH */
#define CB_GNUPLOT_INSTALL "apt-get install gnuplot-nox"

/* One figure to draw. */
typedef struct {
    const char *plots;  /* folder of the scripts */
    const char *script; /* file name of the script in plots (loaded after the definitions) */
    const char *vars;   /* definitions written before the load ("a = 1; b = 'x'"), NULL: none */
    const char *log;    /* gnuplot's messages appended here */
    const char *out;    /* the figure: its path without extension (named in messages; out.png
                           and out.svg removed when gnuplot fails) */
    struct cb_gnuplot_batch *batch; /* NULL: drawn now; else queued (drawn by its run) */
} cb_gnuplot_job;

/* A batch: figures queued by cb_gnuplot (job.batch set), drawn by cb_gnuplot_batch_run in
 * CB_GNUPLOT_PROCS gnuplot processes at the same time, each drawing its share of the figures
 * one after the other (`reset session` between two: no setting or variable carries over), so
 * a report pays for a few gnuplot starts, not one per figure. A figure whose script fails
 * (GPVAL_ERRNO) does not stop the others; the run then fails naming the first failed figure
 * and removes every failed figure's files. The data files a queued figure reads must stay
 * until the run. Messages of every process go to the log of the run. */
#define CB_GNUPLOT_PROCS 2
typedef struct cb_gnuplot_batch cb_gnuplot_batch;
int cb_gnuplot_batch_new(cb_gnuplot_batch **out, cb_error *err);
/* Draw the queued figures (none: nothing runs), messages appended to log; the queue is then
 * empty. CB_ERR_IO as cb_gnuplot. */
int cb_gnuplot_batch_run(cb_gnuplot_batch *b, const char *log, cb_error *err);
/* Figures queued and not yet drawn. */
int cb_gnuplot_batch_size(const cb_gnuplot_batch *b);
void cb_gnuplot_batch_free(cb_gnuplot_batch *b);

/* s as a gnuplot string expression (the rule above) into buf, to be used where gnuplot takes an
 * expression (name = ..., print ...); CB_ERR_INPUT naming `what` when s has a newline or does
 * not fit in len bytes (CB_GP_QUOTED(strlen(s)) always do). */
#define CB_GP_QUOTED(n) (6 * (size_t)(n) + 3)
int cb_gp_str(char *buf, size_t len, const char *s, const char *what, cb_error *err);

/* Draw job's figure: CB_OK, or CB_ERR_IO (gnuplot missing or failing), CB_ERR_INPUT (a path
 * that cannot be quoted), CB_ERR_NOMEM. */
int cb_gnuplot(const cb_gnuplot_job *job, cb_error *err);

/* CB_OK when gnuplot is found in PATH (an executable file), else CB_ERR_IO "cannot run gnuplot:
 * not found in PATH (...)": the check a command makes before any work. */
int cb_gnuplot_check(cb_error *err);

#endif
