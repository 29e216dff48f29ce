/* conebench — report internals shared by report.c (Markdown, figures), report_table.c (the
 * problem × solver tables and their statistics) and report_summary.c (summary, verdict). */
#ifndef CONEBENCH_REPORT_INTERNAL_H
#define CONEBENCH_REPORT_INTERNAL_H

#include "gnuplot.h"
#include "report.h"

#define CB_REPORT_MAX_TOLS 16                /* tolerances a report shows */
#define CB_REPORT_GNUPLOT_LOG "gnuplot.log"  /* gnuplot's messages, in DIR/figures/ */

typedef struct {
    int present, nreps, solved;
    int work_filled;       /* some work counter is non-zero on some repetition */
    cb_status status;      /* first repetition's */
    double time;           /* median over repetitions */
    double iterations, work, error, error_q;
    double dist_ref;       /* first repetition's, NaN: no reference or p* not unique */
    const char *run_id;
} cb_report_cell;

typedef struct {
    double tol;
    int np, ns;
    const char **probs, **solvs; /* borrowed from the rows */
    const char **kinds;
    int *ncs;
    cb_report_cell *cells;       /* np × ns */
    int *common, ncommon;        /* problems no solver of the table refused as unsupported */
    int has_dist;                /* some cell has a dist_ref */
} cb_report_table;

/* The limits of DIR/limits.txt (defaults when absent). */
typedef struct {
    double time_limit;
    int max_iter;
    char campaign[256];
    char earlier[256];   /* after a forced resume: the record the earlier rows were made under */
} cb_report_limits;

/* What the report of one results directory is made from. */
typedef struct {
    const cb_report_settings *s;
    cb_results res;
    cb_results seq;      /* the rows of sequence runs (cb_report_load) */
    cb_report_limits lim;
    char plots[4096];    /* folder of the gnuplot scripts */
    cb_gnuplot_batch *batch; /* the figures, drawn together at the end (gnuplot.h) */
} cb_report_ctx;

/* Check DIR, read DIR/runs.csv (CB_ERR_INPUT when it has no rows) and DIR/limits.txt. The
 * rows of sequence runs go to seq as read (NULL: dropped); res keeps the other rows and, for
 * the tables and profiles, each sequence row (its totals) once, as a problem, with the label
 * "LABEL warm=MODE" when its warm start is not cold; step rows are not in res. */
int cb_report_load(const char *dir, cb_results *res, cb_results *seq, cb_report_limits *lim,
                   cb_error *err);
/* The sequences section of report.md (report_sequence.c): per sequence and tolerance, the
 * verdict line, the table of totals and the per-step figures. Nothing when seq has no rows. */
int cb_report_sequences(const cb_report_ctx *x, const double *tols, int nt, FILE *md,
                        cb_error *err);
/* Distinct tolerances of r, largest first; returns the count (at most max). */
int cb_report_tols(const cb_results *r, double *tols, int max);
/* Rows of tolerance tol → cells (problem × solver), median time over repetitions. */
int cb_report_table_build(const cb_results *r, double tol, cb_report_table *t);
void cb_report_table_free(cb_report_table *t);
/* 1 for a cell whose solver does not take the problem (supports() refused it). */
int cb_report_unsupported(const cb_report_cell *c);
/* Statistics of solver s of t (label borrowed from t). */
void cb_report_stats(const cb_report_limits *lim, const cb_report_table *t, int s,
                     cb_report_solver *st);
/* "problem(s)" for n problems of t, "KIND problem(s)" when all of t's have one cone kind
 * (static buffer: a figure title's word). */
const char *cb_report_problem_word(const cb_report_table *t, int n);
/* The index of s in list[0..n), -1 when absent. */
int cb_report_index_of(const char **list, int n, const char *s);
/* The fastest solver that solved problem p (median time), -1 when none did. */
int cb_report_winner(const cb_report_table *t, int p);
/* The figures of table t (tolerance number ti) under DIR/figures/, their links and captions in
 * md: performance profiles, then one convergence figure per problem (at most max_convergence). */
int cb_report_figures(const cb_report_ctx *x, const cb_report_table *t, int ti, FILE *md,
                      cb_error *err);
/* Run plots/script (after the definitions vars) drawing out, queued on x's batch. */
int cb_report_gnuplot(const cb_report_ctx *x, const char *vars, const char *script,
                      const char *out, cb_error *err);
/* The solvers of t that fill their work counters into cols; returns their number. */
int cb_report_work_columns(const cb_report_table *t, int *cols);
/* The fixed colours of solvers cols[0..nc) of t, space separated, into buf. */
void cb_report_colours(const cb_report_table *t, const int *cols, int nc, char *buf, size_t len);
/* The data profile of table t (report_profiles.c): its CSV, figure, link and caption in md. */
int cb_report_data_profile(const cb_report_ctx *x, const cb_report_table *t, const char *tag, FILE *md,
                           cb_error *err);
/* The table of time per contact (solved runs' time / nc: median, min, max) of table t. */
int cb_report_time_per_contact(const cb_report_table *t, FILE *md);
/* The fixed-budget error profiles of table t (report_budget.c): iterations and seconds. */
int cb_report_budget_profiles(const cb_report_ctx *x, const cb_report_table *t, const char *tag,
                              FILE *md, cb_error *err);
/* DIR/report.html from DIR/report.md (report_html.c): one page, figures' SVG inlined. */
int cb_report_html(const char *dir, cb_error *err);
/* The three-line verdict of report.md (most solved, fastest of those, solved by none) from the
 * table of the tightest tolerance, ntols tolerances in all. */
int cb_report_verdict(const cb_report_limits *lim, const cb_report_table *t, int ntols, FILE *md);

/* The section on the game-engine solvers (report_engines.c), tolerance tol's rows: per solver
 * and set of problems (data files, random problems of each μ) the exact-cone error and the cone
 * violation, a table and a figure against μ. Nothing when no engine solver is in the rows. */
int cb_report_engines(const cb_report_ctx *x, double tol, FILE *md, cb_error *err);

/* The section on solvers inside the time loop (report_loop.c) from DIR/loops.csv: nothing when
 * it is absent. */
int cb_report_loops(const cb_report_ctx *x, FILE *md, cb_error *err);

/* ---- figures (figure_conv.c): shared by report and plot ---- */

/* A solver label's fixed colour ("#rrggbb") and gnuplot point type: a table for the known
 * solvers, a hash of the label for the others; the same in every figure and report. */
typedef struct {
    const char *label;
    char colour[8];
    int point;
} cb_figure_style;

#define CB_CONV_MAX_CURVES 64 /* solvers one convergence figure draws */

/* One solver's curve of a convergence figure; n = 0: no trace (named in the caption). */
typedef struct {
    const char *label;
    cb_status status;
    const cb_trace_point *pts;
    int n;
} cb_conv_curve;

/* Least positive error and time of a figure's traces, whether some error is exactly 0, rows. */
typedef struct {
    double least, least_time;
    int zeros;
    int rows;
} cb_conv_range;

/* Where a convergence figure goes. */
typedef struct {
    const char *plots;  /* folder of the gnuplot scripts */
    const char *log;    /* gnuplot's messages (appended) */
    const char *data;   /* the figure's data file (written) */
    const char *out;    /* output path without extension */
    const char *terms;  /* gnuplot terminals: "pngcairo svg" or "pngcairo" */
    const char *title;
    double tol;
    cb_gnuplot_batch *batch; /* NULL: drawn at once; else queued */
} cb_conv_spec;

void cb_figure_style_of(const char *label, cb_figure_style *out);
/* A file-name-safe form of name: [A-Za-z0-9_.-] kept, anything else '-', at most 80 chars. */
void cb_figure_slug(const char *name, char *slug, size_t len);
/* A trace CSV (iteration,time_s,error; rows with a negative error skipped) into *pts (owned,
 * free()) and *n (0 when the file is absent or empty: no trace). CB_ERR_NOMEM. */
int cb_trace_load(const char *path, cb_trace_point **pts, int *n, cb_error *err);
/* The convergence figure of n curves (error against iteration and time): *drawn = 0 when no
 * curve has a point. */
int cb_conv_draw(const cb_conv_spec *sp, const cb_conv_curve *c, int n, int *drawn,
                 cb_error *err);
/* The caption's words on the curves: untraced stretches (drawn dotted), runs without a trace. */
void cb_conv_caption(const cb_conv_curve *c, int n, FILE *md);

#endif
