/* conebench — performance-regression gate: bench files, results directories as benches, the
 * exact comparison of deterministic figures and the per-solver time verdicts. */
#include "gate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conebench/io.h"
#include "metrics.h"
#include "results.h"
#include "base.h"
#include "fileio.h"
#include "solve_limited.h"

#define BENCH_COLUMNS 11
#define LINE_MAX_LEN 2048

void cb_gate_tolerances_default(cb_gate_tolerances *t)
{
    t->iterations = 0.0;
    t->work = 0.0;
    t->error_factor = 100.0;
}

void cb_bench_free(cb_bench *b)
{
    if (!b)
        return;
    free(b->rows);
    b->rows = NULL;
    b->nrows = 0;
}

static void bench_init(cb_bench *b)
{
    memset(b, 0, sizeof *b);
    cb_gate_tolerances_default(&b->tols);
}

/* Append a row (capacity doubles at powers of two). */
int cb_bench_row_push(cb_bench *b, const cb_bench_row *row)
{
    if ((b->nrows & (b->nrows - 1)) == 0) {
        size_t cap = b->nrows ? 2 * (size_t)b->nrows : 16;
        cb_bench_row *r = realloc(b->rows, cap * sizeof *r);
        if (!r)
            return CB_ERR_NOMEM;
        b->rows = r;
    }
    b->rows[b->nrows++] = *row;
    return CB_OK;
}

int cb_bench_write(const char *path, const cb_bench *b, cb_error *err)
{
    cb_outbuf o;
    if (cb_outbuf_open(&o, err) != CB_OK)
        return CB_ERR_NOMEM;
    FILE *f = o.f;
    fprintf(f, "# conebench bench file (format: src/bench/gate.h)\n"
               "# tolerances: iterations=%g work=%g error_factor=%g\n# data_missing: %d\n"
               "problem,solver,tol,exact,status,solved,iterations,block_products,projections,"
               "local_iters,error\n",
            b->tols.iterations, b->tols.work, b->tols.error_factor, b->data_missing);
    for (int i = 0; i < b->nrows; i++) {
        const cb_bench_row *r = &b->rows[i];
        fprintf(f, "%s,%s,%.17g,%d,%s,%s,%d,%lld,%lld,%lld,%.17g\n", r->problem, r->solver,
                r->tol, r->exact, cb_status_name(r->status), r->solved ? "yes" : "no",
                r->iterations, r->work.block_products,
                r->work.projections, r->work.local_iters, r->error);
    }
    return cb_outbuf_commit(&o, path, err);
}

/* "# key: ..." lines of a bench file. */
static void bench_comment(const char *line, cb_bench *b)
{
    if (sscanf(line, "# tolerances: iterations=%lf work=%lf error_factor=%lf",
               &b->tols.iterations, &b->tols.work, &b->tols.error_factor) == 3)
        return;
    sscanf(line, "# data_missing: %d", &b->data_missing);
}

/* Split line at commas into at most n fields; returns the count. */
static int split_fields(char *line, char **f, int n)
{
    int k = 0;
    for (char *s = line; s && k < n; k++) {
        f[k] = s;
        s = strchr(s, ',');
        if (s)
            *s++ = '\0';
    }
    return k;
}

/* Strict number: the whole field. */
static int number(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return end != s && *end == '\0' && errno != ERANGE ? CB_OK : CB_ERR_INPUT;
}

/* One CSV row of a bench file. */
static int bench_row_parse(char *line, cb_bench_row *r)
{
    char *f[BENCH_COLUMNS + 1];
    double v[BENCH_COLUMNS];
    memset(r, 0, sizeof *r);
    if (split_fields(line, f, BENCH_COLUMNS + 1) != BENCH_COLUMNS ||
        strlen(f[0]) >= sizeof r->problem || strlen(f[1]) >= sizeof r->solver ||
        cb_status_parse(f[4], &r->status) != CB_OK ||
        (strcmp(f[5], "yes") != 0 && strcmp(f[5], "no") != 0))
        return CB_ERR_INPUT;
    for (int k = 2; k < BENCH_COLUMNS; k++)
        if (k != 4 && k != 5 && number(f[k], &v[k]) != CB_OK)
            return CB_ERR_INPUT;
    r->solved = f[5][0] == 'y';
    strcpy(r->problem, f[0]);
    strcpy(r->solver, f[1]);
    r->tol = v[2];
    r->exact = v[3] != 0;
    r->iterations = (int)v[6];
    r->work.block_products = (long long)v[7];
    r->work.projections = (long long)v[8];
    r->work.local_iters = (long long)v[9];
    r->error = v[10];
    return CB_OK;
}

int cb_bench_read(const char *path, cb_bench *out, cb_error *err)
{
    bench_init(out);
    FILE *f = fopen(path, "r");
    if (!f)
        return cb_fail_at(err, CB_ERR_INPUT, path, 0, "cannot read: %s", strerror(errno));
    char line[LINE_MAX_LEN];
    long lineno = 0;
    int rc = CB_OK;
    while (rc == CB_OK && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#') {
            bench_comment(line, out);
            continue;
        }
        if (!line[0] || !strncmp(line, "problem,", 8))
            continue;
        cb_bench_row r;
        if (bench_row_parse(line, &r) != CB_OK)
            rc = cb_fail_at(err, CB_ERR_INPUT, path, lineno,
                            "malformed bench row (want %d fields: see the header line)",
                            BENCH_COLUMNS);
        else if (cb_bench_row_push(out, &r) != CB_OK)
            rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    fclose(f);
    if (rc != CB_OK)
        cb_bench_free(out);
    return rc;
}

static cb_bench_row *find_row(const cb_bench *b, const char *problem, const char *solver,
                              double tol)
{
    for (int i = 0; i < b->nrows; i++)
        if (!strcmp(b->rows[i].problem, problem) && !strcmp(b->rows[i].solver, solver) &&
            b->rows[i].tol == tol)
            return &b->rows[i];
    return NULL;
}

/* 1 when a solver's counters are conebench's own (compared exactly), 0 for Siconos adapters. */
static int exact_counters(const char *solver)
{
    const cb_solver *s = cb_solver_find(solver);
    return !s || cb_solver_stops_at_limit(s);
}

/* A result row's figures into a bench row (first repetition) or its time into the samples. */
static int add_result(cb_bench *b, const cb_result *x)
{
    cb_bench_row *r = find_row(b, x->problem, x->label, x->tol), fresh;
    if (!r) {
        memset(&fresh, 0, sizeof fresh);
        snprintf(fresh.problem, sizeof fresh.problem, "%s", x->problem);
        snprintf(fresh.solver, sizeof fresh.solver, "%s", x->label);
        fresh.tol = x->tol;
        fresh.exact = exact_counters(x->solver);
        fresh.status = CB_STATUS_COUNT; /* set by repetition 0 */
        if (cb_bench_row_push(b, &fresh) != CB_OK)
            return CB_ERR_NOMEM;
        r = &b->rows[b->nrows - 1];
    }
    if (x->rep == 0) {
        r->status = x->status;
        r->solved = x->solved;
        r->iterations = x->iterations;
        r->work = x->work;
        r->error = x->error;
    }
    if (r->ntimes < CB_BENCH_MAX_REPS && x->time_s > 0)
        r->times[r->ntimes++] = x->time_s;
    return CB_OK;
}

/* DIR/runs.csv (a `run` directory): wall seconds of each repetition. The rows of sequence runs
 * are left out: their steps and warm-start modes are not repetitions of one problem. */
static int bench_from_runs(const char *path, cb_bench *out, cb_error *err)
{
    cb_results res;
    int rc = cb_results_read(path, &res, err);
    for (int i = 0; rc == CB_OK && i < res.nrows; i++)
        if (!res.rows[i].sequence[0] && add_result(out, &res.rows[i]) != CB_OK)
            rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK && res.nrows == 0)
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 0, "no results");
    snprintf(out->time_unit, sizeof out->time_unit, "wall_s");
    cb_results_free(&res);
    return rc;
}

/* DIR/samples.csv of a bench-check directory: the current binary's CPU seconds. */
static int read_samples(const char *path, cb_bench *b, cb_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return cb_fail_at(err, CB_ERR_INPUT, path, 0, "cannot read: %s", strerror(errno));
    char line[LINE_MAX_LEN], *fl[7];
    long lineno = 0;
    int rc = CB_OK;
    while (rc == CB_OK && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || !strncmp(line, "problem,", 8))
            continue;
        double tol, rep, base, cur;
        cb_bench_row *r = NULL;
        if (split_fields(line, fl, 7) != 6 || number(fl[2], &tol) || number(fl[3], &rep) ||
            number(fl[4], &base) || number(fl[5], &cur) ||
            !(r = find_row(b, fl[0], fl[1], tol)))
            rc = cb_fail_at(err, CB_ERR_INPUT, path, lineno, "malformed sample or unknown run");
        else if (r->ntimes < CB_BENCH_MAX_REPS)
            r->base_times[r->ntimes] = base, r->times[r->ntimes++] = cur;
    }
    fclose(f);
    return rc;
}

/* The record of a results directory: time_unit from DIR/gate.txt (bench-check), and the
 * campaign's identity: sha256 of DIR/campaign.conf, the campaign file as run. */
static void read_record(const char *dir, cb_bench *b)
{
    char path[4200], line[512];
    snprintf(path, sizeof path, "%s/gate.txt", dir);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        sscanf(line, "time_unit %15s", b->time_unit);
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/campaign.conf", dir);
    if (cb_sha256_file(path, b->campaign_sha256, NULL) != CB_OK)
        b->campaign_sha256[0] = '\0';
}

int cb_bench_from_dir(const char *dir, cb_bench *out, cb_error *err)
{
    char path[4200];
    struct stat st;
    bench_init(out);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cb_fail_at(err, CB_ERR_INPUT, dir, 0, "no such directory");
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    int rc;
    if (stat(path, &st) == 0) {
        rc = bench_from_runs(path, out, err);
    } else {
        snprintf(path, sizeof path, "%s/bench.csv", dir);
        rc = cb_bench_read(path, out, err);
        snprintf(path, sizeof path, "%s/samples.csv", dir);
        if (rc == CB_OK && stat(path, &st) == 0)
            rc = read_samples(path, out, err);
    }
    read_record(dir, out);
    if (rc != CB_OK)
        cb_bench_free(out);
    return rc;
}

static void verdict(FILE *f, cb_gate_summary *sum, int worse, const cb_bench_row *r,
                    const char *what, double base, double now)
{
    if (worse)
        sum->regressions++;
    else
        sum->improvements++;
    if (f)
        fprintf(f, "%-11s %-34s %-22s %-7.0e %-14s %14.6g %14.6g\n",
                worse ? "REGRESSION" : "improvement", r->problem, r->solver, r->tol, what, base,
                now);
}

/* Relative change test: now above base·(1 + tol) is worse, below base·(1 − tol) better. */
static void compare_count(FILE *f, cb_gate_summary *sum, const cb_bench_row *r, const char *what,
                          double base, double now, double tol)
{
    if (now > base * (1 + tol))
        verdict(f, sum, 1, r, what, base, now);
    else if (now < base * (1 - tol))
        verdict(f, sum, 0, r, what, base, now);
}

/* 1 when a run stopped on its own (converged, hit its iteration cap, diverged, gave up): its
 * counters are the solver's. A time limit, a crash or a kill stops it from outside, at a point
 * that depends on the machine's speed and load. */
static int stopped_on_own(cb_status s)
{
    return s != CB_STATUS_TIME_LIMIT && s != CB_STATUS_CRASHED && s != CB_STATUS_UNSUPPORTED &&
           s != CB_STATUS_COUNT;
}

/* Deterministic figures of one baseline row against the current one (the verdict only when
 * either row is not exact or did not stop on its own). */
static void compare_row(FILE *f, cb_gate_summary *sum, const cb_gate_tolerances *t,
                        const cb_bench_row *b, const cb_bench_row *c)
{
    int bs = b->solved, cs = c->solved;
    sum->compared++;
    if (bs != cs) {
        verdict(f, sum, bs, b, cs ? "now solved" : "no longer solved", bs, cs);
        return;
    }
    if (!b->exact || !c->exact)
        return;
    if (!stopped_on_own(b->status) || !stopped_on_own(c->status)) {
        sum->not_own_stop++;
        return;
    }
    compare_count(f, sum, b, "iterations", b->iterations, c->iterations, t->iterations);
    compare_count(f, sum, b, "block_products", (double)b->work.block_products,
                  (double)c->work.block_products, t->work);
    if (bs && c->error > t->error_factor * b->error && c->error > 1e-3 * b->tol)
        verdict(f, sum, 1, b, "error", b->error, c->error);
}

int cb_gate_compare(const cb_bench *base, const cb_bench *cur, FILE *f, cb_gate_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    if (f)
        fprintf(f, "%-11s %-34s %-22s %-7s %-14s %14s %14s\n", "verdict", "problem", "solver",
                "tol", "what", "baseline", "now");
    for (int i = 0; i < base->nrows; i++) {
        const cb_bench_row *b = &base->rows[i], *c = find_row(cur, b->problem, b->solver, b->tol);
        if (c)
            compare_row(f, sum, &base->tols, b, c);
        else if (cur->data_missing && strncmp(b->problem, "random-", 7) != 0)
            sum->missing_ok++;
        else
            verdict(f, sum, 1, b, "missing run", 1, 0);
    }
    if (f)
        fprintf(f, "%d runs compared, %d regressions, %d improvements%s\n", sum->compared,
                sum->regressions, sum->improvements,
                sum->missing_ok ? " (runs on absent Siconos data skipped)" : "");
    if (f && sum->not_own_stop)
        fprintf(f, "%d runs stopped from outside (time limit, crash, kill): status compared, "
                   "not their counters\n", sum->not_own_stop);
    return CB_OK;
}

/* The (baseline, current) time pairs of one current row: 0 pairs when the work differs (time
 * compares equal work only) or the run was stopped from outside, −1 when the baseline's median
 * time is below min_time (too short for the clock: left out, counted). */
static int row_pairs(const cb_bench *base, const cb_bench_row *c, int interleaved,
                     double min_time, cb_ab_pair *pairs)
{
    const cb_bench_row *b = interleaved ? c : find_row(base, c->problem, c->solver, c->tol);
    const cb_bench_row *fig = find_row(base, c->problem, c->solver, c->tol);
    double bt[CB_BENCH_MAX_REPS];
    if (!b || !fig || fig->status != c->status || fig->solved != c->solved ||
        fig->iterations != c->iterations ||
        !stopped_on_own(c->status)) /* a time limit's time is the limit's, not the solver's */
        return 0;
    int n = c->ntimes < b->ntimes ? c->ntimes : b->ntimes;
    for (int k = 0; k < n; k++) {
        pairs[k] = (cb_ab_pair){interleaved ? c->base_times[k] : b->times[k], c->times[k]};
        bt[k] = pairs[k].base;
    }
    return n > 0 && cb_median(bt, n) < min_time ? -1 : n;
}

/* One solver's runs as cb_ab_run views into pairs (rows × CB_BENCH_MAX_REPS). */
static int solver_runs(const cb_bench *base, const cb_bench *cur, int interleaved,
                       const char *solver, double min_time, cb_ab_pair *pairs, cb_ab_run *runs,
                       int *short_runs)
{
    int n = 0;
    *short_runs = 0;
    for (int i = 0; i < cur->nrows; i++) {
        const cb_bench_row *c = &cur->rows[i];
        if (strcmp(c->solver, solver) != 0)
            continue;
        cb_ab_pair *p = pairs + (size_t)n * CB_BENCH_MAX_REPS;
        int k = row_pairs(base, c, interleaved, min_time, p);
        *short_runs += k < 0;
        if (k > 0)
            runs[n++] = (cb_ab_run){k, p};
    }
    return n;
}

int cb_gate_times(const cb_bench *base, const cb_bench *cur, int interleaved,
                  const cb_ab_stats *st, FILE *f, cb_gate_summary *sum, cb_error *err)
{
    cb_ab_pair *pairs = cb_calloc((size_t)(cur->nrows ? cur->nrows : 1) * CB_BENCH_MAX_REPS,
                                  sizeof *pairs);
    cb_ab_run *runs = cb_calloc((size_t)(cur->nrows ? cur->nrows : 1), sizeof *runs);
    int rc = pairs && runs ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (f && rc == CB_OK)
        fprintf(f, "%-24s %5s %8s %20s  %-11s %s\n", "solver", "runs", "ratio", "95% interval",
                "verdict", "(runs under the clock's floor)");
    for (int i = 0; rc == CB_OK && i < cur->nrows; i++) {
        const char *sv = cur->rows[i].solver;
        int first = 1;
        for (int k = 0; k < i; k++)
            first &= strcmp(cur->rows[k].solver, sv) != 0;
        if (!first)
            continue;
        cb_ab_estimate e;
        int nshort, n = solver_runs(base, cur, interleaved, sv, st->min_time, pairs, runs,
                                    &nshort);
        rc = cb_ab_ratio(runs, n, st, &e, err);
        if (rc != CB_OK)
            break;
        sum->regressions += e.verdict == CB_AB_REGRESSION;
        sum->improvements += e.verdict == CB_AB_IMPROVEMENT;
        if (e.verdict == CB_AB_INSUFFICIENT) {
            sum->fewest = sum->insufficient++ ? (e.min_reps < sum->fewest ? e.min_reps
                                                                          : sum->fewest)
                                              : e.min_reps;
            sum->needed = e.needed;
        }
        if (f && e.verdict == CB_AB_INSUFFICIENT)
            fprintf(f, "%-24s %5d %8.3f %20s  not enough repetitions (%d < %d needed) to judge "
                       "time\n", sv, n, e.ratio, "-", e.min_reps, e.needed);
        else if (f && n > 0)
            fprintf(f, "%-24s %5d %8.3f    [%6.3f, %6.3f]  %-11s %d under %g ms\n", sv, n,
                    e.ratio, e.lo, e.hi, cb_ab_verdict_name(e.verdict), nshort,
                    1e3 * st->min_time);
        else if (f)
            fprintf(f, "%-24s %5d %8s %20s  no run with equal work in both above %g ms\n", sv, 0,
                    "-", "-", 1e3 * st->min_time);
    }
    free(pairs);
    free(runs);
    return rc;
}
