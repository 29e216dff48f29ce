/* conebench — campaign results: DIR/runs.csv, one row per run, read and written here.
 *
 * Columns: run_id, problem, sha256, kind, nc, solver, label, options, tol, rep, status,
 * iterations, error, error_q, time_s, time_setup_s, time_solve_s, block_products, projections,
 * local_iters, error_evals, machine, dist_ref (empty when the problem has no reference or its
 * p* is not unique), solved (yes/no: the judge's verdict), error_data (the verdict's error).
 * status is the stop reason, solved the verdict (solver.h). Then time_cpu_s (the CPU seconds the
 * run's budget counted: reading the problem, setup and solve; nan when the run gave none, e.g.
 * crashed). Then the columns of step sequences
 * (campaign lines `sequence`, empty on the row of a single problem): sequence (its name), step
 * (N of the step file NAME-stepN; empty on the sequence's own row), warm_start (cold, previous or
 * mapped), steps_unsolved (the sequence row: steps the judge did not call solved), sequence_run
 * (a step row: the run id of its sequence's row). A sequence run writes one row per step, then
 * its sequence row (totals: iterations, times and work counters summed, the worst step's
 * errors, solved only when every step is); the run is done when its sequence row is there.
 * Then the gap measures of the run's final p (judge_gap.h; empty when not applicable or not
 * known: an unsupported, crashed or killed run, a kind without that block, no sliding contact):
 * cone_violation, rolling_violation, spin_violation, angle_max, angle_mean (degrees), sliding,
 * positive_work.
 * Files of the earlier 31-column layout (without the gap columns: empty) and 25-column layout
 * (without the six sequence columns either; time_cpu_s NaN) are read. Rows of other layouts are
 * refused.
 * Fields are RFC 4180 CSV (quoted when needed). Rows are appended with one write() each (a
 * failed one is cut back), so a killed campaign leaves at most one torn last line, which
 * readers ignore (cb_results_read reports how many bytes of valid rows the file has).
 */
#ifndef CONEBENCH_RESULTS_H
#define CONEBENCH_RESULTS_H

#include <stdio.h>
#include "conebench/solver.h"
#include "judge_gap.h"

typedef struct {
    char run_id[17];
    char problem[256];
    char sha256[65];
    char kind[16];
    int nc;
    char solver[64];
    char label[256];
    char options[512];
    double tol;
    int rep;
    cb_status status;    /* the stop reason */
    int solved;          /* the judge's verdict */
    int iterations;
    double error, error_q, error_data;
    double time_s, time_setup_s, time_solve_s;
    cb_work work;
    char machine[17];
    double dist_ref;     /* ‖p − p*‖ / max(1, ‖p*‖) against the reference, NaN: none */
    double time_cpu_s;   /* CPU seconds in the budget, NaN: not known */
    char sequence[256];  /* the sequence's name, "" on the row of a single problem */
    long step;           /* a step row's N, -1 otherwise */
    char warm_start[16]; /* cold, previous, mapped ("" outside sequences) */
    int steps_unsolved;  /* the sequence row's, -1 otherwise */
    char sequence_run[17]; /* a step row's sequence run id, "" otherwise */
    cb_gap gap;          /* the gap measures; NaN (counts −1): not known */
} cb_result;

/* 1 for the row of one step of a sequence run (not a run of its own: its run is sequence_run). */
int cb_result_is_step(const cb_result *r);

typedef struct {
    cb_result *rows;
    int nrows;
    long valid_bytes; /* length of the file prefix made of complete, valid rows */
    int header;       /* 1 when the file starts with the header line: row i is on line i+1+header */
} cb_results;

/* The header line (with '\n'). */
const char *cb_results_header(void);
/* Format one row (with '\n') into buf; returns its length, or -1 if it does not fit. */
int cb_result_format(const cb_result *r, char *buf, size_t len);
/* Parse one row (no '\n'); CB_ERR_INPUT if malformed. */
int cb_result_parse(const char *line, cb_result *r);
/* Read DIR/runs.csv style file. A missing file gives zero rows. A torn or malformed last line is
 * skipped; a malformed line elsewhere is an error naming FILE:LINE. */
int cb_results_read(const char *path, cb_results *out, cb_error *err);
void cb_results_free(cb_results *r);
/* "run ID (problem, label, tol T, rep R)" of row r into buf. */
void cb_result_describe(const cb_result *r, char *buf, size_t len);
/* Each run id of res (read from path) on one row only; else CB_ERR_INPUT "PATH:LINE: run ID
 * (...) is already on line K" for the pair whose second row comes first. */
int cb_results_check_unique(const char *path, const cb_results *res, cb_error *err);

/* Write a solver trace as CSV "iteration,time_s,error" to path, atomically. */
int cb_trace_write(const char *path, const cb_info *info, cb_error *err);

#endif
