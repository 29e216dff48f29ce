/* conebench — the performance-regression gate: `conebench bench-check` and `conebench compare`.
 *
 * Two kinds of figures, two kinds of comparison:
 *  - Deterministic figures (status, iterations, work counters, judged error) of conebench's own
 *    solvers are bitwise the same on every x86-64 CPU, OpenBLAS kernel and thread count (they
 *    never go through BLAS or libm's run-time-dispatched functions, see solvers/detmath.h), so
 *    they are compared EXACTLY with a stored bench file (results/baseline/bench.csv). Siconos
 *    adapters run OpenBLAS inside Siconos: their iteration counts are not under conebench's
 *    control and only their status is compared (row field exact = 0).
 *  - Time is never compared with stored numbers (another day, another load, another machine).
 *    The baseline revision's binary and the current one run every run of the campaign
 *    interleaved (A B B A A B …: each round one `solve --repeat N` process of each binary, whose
 *    least CPU time over its N solves is the round's sample), so both share the machine's noise; per solver the ratio current/baseline of CPU time gets a 95 % bootstrap
 *    confidence interval (repetitions resampled within every run), and a regression is
 *    declared only when the whole interval lies above 1 + threshold (an improvement when it
 *    lies below 1/(1+threshold)).
 *    Only runs with equal work in both binaries (same status and iterations) and a baseline
 *    time of at least min_time (2 ms: the process CPU clock counts microseconds) enter it.
 *
 * Bench file (the stored baseline is one): '#'-comment lines, among them
 *   # tolerances: iterations=0 work=0 error_factor=100
 *   # data_missing: 0
 * then CSV with header problem,solver,tol,exact,status,iterations,block_products,projections,
 * local_iters,error. Comparison, per row present in both: status solved → not solved is a
 * regression (the reverse an improvement); for exact rows also iterations or block products
 * above the baseline by more than their tolerance (relative, default 0), and error above
 * error_factor × baseline (and above 1e-3·tol). Rows of the baseline missing now are regressions
 * unless their problem came from the (absent) Siconos data folder.
 *
 * Output directory of a bench run: problems/ (generated problems), bench.csv (figures of the
 * current binary), samples.csv (problem,solver,tol,rep,base_s,cur_s: CPU seconds of each
 * repetition), gate.txt ("key value": time_unit cpu_s, baseline_rev, baseline_bin,
 * current_bin, repetitions), campaign.conf and limits.txt (the campaign record of `run`
 * directories), errors.log (runs that gave no answer), machine.txt.
 */
#ifndef CONEBENCH_GATE_H
#define CONEBENCH_GATE_H

#include <stdint.h>
#include <stdio.h>
#include "campaign.h"

#define CB_BENCH_MAX_REPS 64    /* rounds (timing samples) kept per run */
#define CB_BENCH_REPEAT 3       /* solves inside each process; the least CPU time counts */
#define CB_BENCH_MAX_REPEAT 100
#define CB_AB_THRESHOLD 0.05  /* default regression threshold on the time ratio (+5 %) */
#define CB_AB_NBOOT 2000      /* bootstrap replicates */
#define CB_AB_MIN_TIME 2e-3   /* runs whose baseline takes less (s) are not timed: the process
                                 CPU clock (getrusage) counts microseconds */

/* ---- time statistics (harness/gate_stats.c): pure functions on samples ---- */

typedef struct {
    double base, cur;    /* seconds of one repetition: baseline and current */
} cb_ab_pair;

typedef struct {
    int npairs;
    const cb_ab_pair *pairs; /* not owned */
} cb_ab_run;

/* INSUFFICIENT: some run has fewer repetitions than the interval needs
 * (cb_ab_min_repetitions): no interval, no verdict on time. */
typedef enum {
    CB_AB_NONE = 0,
    CB_AB_SAME,
    CB_AB_REGRESSION,
    CB_AB_IMPROVEMENT,
    CB_AB_INSUFFICIENT
} cb_ab_verdict;

typedef struct {
    double threshold;    /* relative (default CB_AB_THRESHOLD) */
    int nboot;           /* ≥ 100 (default CB_AB_NBOOT) */
    uint64_t seed;       /* of the bootstrap draws (default 1): same samples, same verdict */
    double min_time;     /* seconds: shorter runs are left out of the ratio (CB_AB_MIN_TIME) */
} cb_ab_stats;

typedef struct {
    double ratio;        /* exp(weighted median of log(cur/base) over every pair of every
                            run, each run weighing 1 in all): the typical run's ratio, robust
                            to a disturbed process */
    double lo, hi;       /* 95 % bootstrap interval (the pairs of every run resampled) */
    int runs;
    int min_reps;        /* the fewest repetitions of any run */
    int needed;          /* repetitions per run the interval needs (cb_ab_min_repetitions) */
    cb_ab_verdict verdict; /* NONE when there were no runs */
} cb_ab_estimate;

void cb_ab_stats_default(cb_ab_stats *s);
/* The fewest repetitions n of one run for which the 95 % percentile bootstrap interval of the
 * (lower) median can lie inside the sample's range: P(Binomial(n, 1/n) ≥ ⌈n/2⌉) ≤ 2.5 %, the
 * chance that a resample's median is the sample's least value. Below it the percentile
 * interval sits on the sample's extremes (one repetition: zero width). */
int cb_ab_min_repetitions(void);
/* P(Binomial(n, 1/n) ≥ ⌈n/2⌉): the share of bootstrap resamples of n distinct values whose
 * lower median is the least value (n ≥ 1). */
double cb_ab_extreme_median_prob(int n);
/* Estimate the ratio current/baseline over nruns runs (every time finite and > 0). */
int cb_ab_ratio(const cb_ab_run *runs, int nruns, const cb_ab_stats *s, cb_ab_estimate *out,
                cb_error *err);
const char *cb_ab_verdict_name(cb_ab_verdict v);

/* ---- bench files and bench runs ---- */

typedef struct {
    double iterations;   /* relative (default 0: deterministic) */
    double work;         /* relative (default 0) */
    double error_factor; /* (default 100) */
} cb_gate_tolerances;

typedef struct {
    char problem[256];
    char solver[256];    /* the campaign label */
    double tol;
    int exact;           /* 1: counters compared exactly; 0: status only (Siconos adapters) */
    cb_status status;    /* the stop reason */
    int solved;          /* the judge's verdict */
    int iterations;
    cb_work work;
    double error;
    int ntimes;          /* timing samples (CPU s of the current binary, or a run's time_s) */
    double times[CB_BENCH_MAX_REPS];
    double base_times[CB_BENCH_MAX_REPS]; /* the baseline binary's, interleaved (bench-check) */
} cb_bench_row;

typedef struct {
    cb_bench_row *rows;
    int nrows;
    int data_missing;    /* the campaign's data folder was absent */
    cb_gate_tolerances tols;
    char time_unit[16];  /* "cpu_s" (bench-check), "wall_s" (a run directory), "" (none) */
    char campaign_sha256[65]; /* sha256 of the directory's campaign.conf; "" when unknown */
} cb_bench;

typedef struct {
    const char *outdir;       /* problems/, bench.csv, samples.csv, gate.txt (default
                                 results/bench-check) */
    const char *current_bin;  /* binary under test (default: this executable) */
    const char *baseline_bin; /* NULL: deterministic figures only, no time samples */
    const char *baseline_rev; /* recorded in gate.txt (may be NULL) */
    int repetitions;          /* rounds: ≤ 0: the campaign's (at most CB_BENCH_MAX_REPS) */
    int repeat;               /* solves inside each `solve` process (`solve --repeat`): its
                                 least CPU time is the round's sample (≤ 0: CB_BENCH_REPEAT) */
    int progress;             /* progress lines on stderr */
} cb_bench_settings;

typedef struct {
    int compared, regressions, improvements, missing_ok;
    int insufficient;   /* solvers whose time was not judged: too few repetitions */
    int needed, fewest; /* ... the repetitions their interval needs, the fewest they had */
    int not_own_stop;   /* runs whose counters were not compared: a stop forced from outside */
} cb_gate_summary;

void cb_gate_tolerances_default(cb_gate_tolerances *t);
void cb_bench_settings_default(cb_bench_settings *s);

/* Run every (problem, solver, tol) of the campaign in child `solve` processes: `repetitions`
 * times the current binary, interleaved with the baseline binary when there is one. *cur gets
 * the current binary's figures (first repetition) and both binaries' times; *base (may be NULL)
 * the baseline binary's figures. Writes the output directory described above. */
int cb_bench_run(const cb_campaign *c, const cb_bench_settings *s, cb_bench *cur, cb_bench *base,
                 cb_error *err);
int cb_bench_write(const char *path, const cb_bench *b, cb_error *err);
/* Append a copy of row to b. */
int cb_bench_row_push(cb_bench *b, const cb_bench_row *row);
int cb_bench_read(const char *path, cb_bench *out, cb_error *err);
/* A results directory as a bench: DIR/runs.csv (a `run` directory: time_s per repetition,
 * wall seconds) or DIR/bench.csv with DIR/samples.csv (a bench-check directory: CPU seconds of
 * the current binary). */
int cb_bench_from_dir(const char *dir, cb_bench *out, cb_error *err);
void cb_bench_free(cb_bench *b);

/* Deterministic figures of current against baseline (tolerances of the baseline); prints a
 * table to f (may be NULL). */
int cb_gate_compare(const cb_bench *baseline, const cb_bench *current, FILE *f,
                    cb_gate_summary *sum);
/* Time per solver: pairs (baseline, current) of every row with equal work in both (same
 * status and iterations); with `interleaved`, current's own base_times are the baseline.
 * Prints one line per solver with the ratio, its interval and the verdict; counts the
 * regressions and improvements into sum. */
int cb_gate_times(const cb_bench *baseline, const cb_bench *current, int interleaved,
                  const cb_ab_stats *st, FILE *f, cb_gate_summary *sum, cb_error *err);

/* The baseline binary of git revision rev: built once with `make` in a worktree at
 * build-baseline/<commit>/ of the repository (reused while it exists). bin gets its path,
 * sha_out the full commit. CB_ERR_INPUT when rev is not a revision of this repository. */
int cb_gate_baseline_binary(const char *rev, int progress, char *bin, size_t len,
                            char sha_out[41], cb_error *err);
/* The commit HEAD; CB_ERR_INPUT when tracked files other than results/baseline/ have
 * uncommitted changes (unless allow_dirty): a baseline names the revision that produced it. */
int cb_gate_head_revision(int allow_dirty, char sha[41], cb_error *err);

#endif
