/* conebench — the performance-regression gate (SPEC §10): `conebench bench-check`, `compare`.
 *
 * A bench run solves every (problem, solver, tol) of a campaign in this process, `repetitions`
 * times, and records the deterministic figures (status, iterations, work counters, judged error)
 * of the first repetition and the minimum thread CPU time over the repetitions (CPU time is not
 * inflated by other processes; the minimum is the least disturbed run of a deterministic
 * computation). Times are also divided by the CPU time of a calibration kernel (fixed
 * arithmetic, no conebench code; minimum of 7) timed in the same process before and after the
 * runs, so that a baseline taken on a faster or slower machine still compares.
 *
 * Bench file (the baseline is one): '#'-comment lines, one of which is
 *   # tolerances: time=0.15 iterations=0 work=0 error_factor=100 min_time=0.002
 * then CSV with header
 *   problem,solver,tol,status,iterations,block_products,projections,local_iters,error,time_s,
 *   norm_time
 * Comparison, per row present in both: status solved → not solved, iterations or work above the
 * baseline by more than their tolerance (relative), or error above error_factor × baseline
 * (and above tol) are regressions; the reverse are improvements. Time: per solver, the sum of
 * norm_time over rows with the same status and iterations in both (equal work) whose baseline
 * time ≥ min_time; a ratio above 1 + time is a regression, below 1/(1 + time) an improvement. Rows of the baseline missing now are
 * regressions unless their problem came from the (absent) data folder.
 */
#ifndef CONEBENCH_GATE_H
#define CONEBENCH_GATE_H

#include <stdio.h>
#include "conebench/campaign.h"

typedef struct {
    double time;         /* relative, per-solver aggregate (default 0.15) */
    double iterations;   /* relative (default 0: deterministic) */
    double work;         /* relative (default 0) */
    double error_factor; /* (default 100) */
    double min_time;     /* seconds (default 0.002) */
} cb_gate_tolerances;

typedef struct {
    char problem[256];
    char solver[256];    /* the campaign label */
    double tol;
    cb_status status;
    int iterations;
    cb_work work;
    double error;
    double time_s;       /* minimum thread CPU time over repetitions */
    double norm_time;    /* time_s / calibration time */
} cb_bench_row;

typedef struct {
    cb_bench_row *rows;
    int nrows;
    double calib_s;      /* median calibration-kernel time (0 when unknown) */
    int data_missing;    /* the campaign's data folder was absent */
    cb_gate_tolerances tols;
} cb_bench;

typedef struct {
    const char *outdir;  /* where generated problems go (outdir/problems) */
    int progress;
    const cb_solver *(*find_solver)(const char *name); /* default cb_solver_find */
} cb_bench_settings;

typedef struct {
    int compared, regressions, improvements, missing_ok;
} cb_gate_summary;

void cb_gate_tolerances_default(cb_gate_tolerances *t);
void cb_bench_settings_default(cb_bench_settings *s);

/* Seconds taken by one run of the calibration kernel. */
double cb_calibration_kernel(void);

int cb_bench_run(const cb_campaign *c, const cb_bench_settings *s, cb_bench *out, cb_error *err);
int cb_bench_write(const char *path, const cb_bench *b, cb_error *err);
int cb_bench_read(const char *path, cb_bench *out, cb_error *err);
/* A results directory's runs.csv as a bench (norm_time = time_s, calib_s = 0). */
int cb_bench_from_results(const char *dir, cb_bench *out, cb_error *err);
void cb_bench_free(cb_bench *b);

/* Compare current against baseline (tolerances of the baseline); prints a table to f. */
int cb_gate_compare(const cb_bench *baseline, const cb_bench *current, FILE *f,
                    cb_gate_summary *sum);

#endif
