/* conebench — the one gnuplot driver: every figure of the tree is drawn through cb_gnuplot.
 *
 * gnuplot is started without a shell (posix_spawnp of "gnuplot" found in PATH); its script comes
 * on its standard input: the caller's definitions ("name = value" lines), then `load` of a script
 * file of the plots folder. gnuplot's messages (its standard error) are appended to a log file.
 *
 * One quoting rule for every path and title written into a script: a gnuplot single-quoted
 * string, each ' inside doubled ('it''s' is it's); backslashes and double quotes are literal
 * there. A newline cannot be quoted (gnuplot reads a script line by line): refused.
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
} cb_gnuplot_job;

/* s as a gnuplot string literal (the rule above) into buf; CB_ERR_INPUT naming `what` when s
 * has a newline or does not fit in len bytes. */
int cb_gp_str(char *buf, size_t len, const char *s, const char *what, cb_error *err);

/* Draw job's figure: CB_OK, or CB_ERR_IO (gnuplot missing or failing), CB_ERR_INPUT (a path
 * that cannot be quoted), CB_ERR_NOMEM. */
int cb_gnuplot(const cb_gnuplot_job *job, cb_error *err);

/* CB_OK when gnuplot is found in PATH (an executable file), else CB_ERR_IO "cannot run gnuplot:
 * not found in PATH (...)": the check a command makes before any work. */
int cb_gnuplot_check(cb_error *err);

#endif
