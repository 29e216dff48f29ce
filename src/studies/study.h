/* conebench — what a study returns: a report, an ordered list of blocks (markdown paragraphs,
 * tables of numbers with their labels and source, figures as gnuplot scripts), and the runs
 * that failed. The study computes; the CLI prints (cb_study_write_md) and draws
 * (cb_study_draw).
 *
 * Errors are sticky: the first allocation failure is kept in report->rc and every later call
 * does nothing, so a study builds its report without checking each call and returns report->rc
 * at the end. Ownership: the report owns every string and table; cb_study_report_free
 * releases them (NULL ok). */
#ifndef CONEBENCH_STUDY_H
#define CONEBENCH_STUDY_H

#include <stdio.h>

#include "conebench/common.h"

typedef struct {
    double num; /* the number the cell shows (NAN: a label) */
    char *text; /* as printed */
} cb_study_cell;

/* A table: ncol labelled columns, cells appended row by row. */
typedef struct {
    char *source; /* where the reference numbers come from: paper, table or figure */
    int ncol, ncell, cap;
    char **head;         /* ncol column labels */
    cb_study_cell *cell; /* ncell cells, row-major (row r, column c: cell[r * ncol + c]) */
} cb_study_table;

typedef enum { CB_STUDY_TEXT, CB_STUDY_TABLE, CB_STUDY_FIGURE } cb_study_kind;

typedef struct {
    cb_study_kind kind;
    char *text;           /* TEXT: markdown; FIGURE: the figure's title */
    char *name;           /* FIGURE: file name under figures/, without extension */
    char *script;         /* FIGURE: the gnuplot script of the plots folder that draws it */
    char *vars;           /* FIGURE: its definitions, gnuplot lines (src/bench/gnuplot.h) */
    cb_study_table table; /* TABLE */
} cb_study_block;

typedef struct {
    cb_study_block **block;
    int n, cap;
    int failures; /* runs or cells that failed */
    char *failed; /* one line per failure: what and why */
    int nfig;
    int rc; /* CB_OK, or the first error (sticky) */
} cb_study_report;

/* Append markdown text (printf format) to the report. */
void cb_study_text(cb_study_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A new table of ncol columns labelled head[0..ncol-1]; NULL after an error. */
cb_study_table *cb_study_table_new(cb_study_report *r, const char *source, int ncol,
                                   const char *const *head);
/* Append one cell: the number num (NAN for a label) shown as the printf format says. */
void cb_study_cell_add(cb_study_report *r, cb_study_table *t, double num, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Rows of a table; the cell at row i, column j (NULL when out of range). */
int cb_study_rows(const cb_study_table *t);
const cb_study_cell *cb_study_cell_at(const cb_study_table *t, int i, int j);
/* A figure drawn into figures/NAME.png by the plots folder's script after the definitions vars
 * (taken over; NULL: it could not be built, an error). */
void cb_study_figure(cb_study_report *r, const char *name, const char *title, const char *script,
                     char *vars);
/* Record a failed run or cell: counted, and its line (printf format) kept; _n: n failures
 * (cells) under one line. */
void cb_study_fail(cb_study_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cb_study_fail_n(cb_study_report *r, int n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cb_study_report_free(cb_study_report *r);

/* The report as markdown: paragraphs as they are, tables as pipe tables, figures as links to
 * figures/NAME.png. Returns CB_OK or CB_ERR_IO. */
int cb_study_write_md(FILE *f, const cb_study_report *r);

/* Draw every figure of the report into DIR/figures with the scripts of the plots folder,
 * through the gnuplot driver (src/bench/gnuplot.h; its messages in DIR/figures/gnuplot.log).
 * A figure that fails is recorded in the report (cb_study_fail). Returns r->rc. */
int cb_study_draw(cb_study_report *r, const char *dir, const char *plots);

#endif
