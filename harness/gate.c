/* conebench — performance-regression gate: in-process bench runs, bench files, comparison. */
#include "conebench/gate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conebench/io.h"
#include "conebench/metrics.h"
#include "conebench/results.h"

#define CALIB_REPS 7

void cb_gate_tolerances_default(cb_gate_tolerances *t)
{
    t->time = 0.15;
    t->iterations = 0.0;
    t->work = 0.0;
    t->error_factor = 100.0;
    t->min_time = 0.002;
}

void cb_bench_settings_default(cb_bench_settings *s)
{
    memset(s, 0, sizeof *s);
    s->outdir = "results/bench-check";
    s->progress = 1;
}

/* A fixed mix of what contact solvers do — small dense block products, square roots and
 * divisions over a 6 KB working set — written without any conebench code. */
double cb_calibration_kernel(void)
{
    enum { N = 128, D = 6, SWEEPS = 400 };
    static double a[N][D], m[D * D];
    for (int i = 0; i < N; i++)
        for (int k = 0; k < D; k++)
            a[i][k] = 1.0 + 0.01 * (i + k);
    for (int k = 0; k < D * D; k++)
        m[k] = (k % (D + 1) == 0) ? 0.9 : 0.01;
    double t0 = cb_cpu_now();
    for (int s = 0; s < SWEEPS; s++)
        for (int i = 0; i < N; i++) {
            double y[D] = {0}, n2 = 0;
            for (int j = 0; j < D; j++)
                for (int k = 0; k < D; k++)
                    y[k] += m[k + j * D] * a[i][j];
            for (int k = 1; k < D; k++)
                n2 += y[k] * y[k];
            double r = sqrt(n2) + 1e-300, sc = y[0] / r;
            for (int k = 0; k < D; k++)
                a[i][k] = 0.5 * a[i][k] + 0.5 * (k ? y[k] * fmin(1.0, sc) : y[0]);
        }
    volatile double sink = a[N - 1][D - 1];
    (void)sink;
    return cb_cpu_now() - t0;
}

/* Minimum CPU time of the kernel over CALIB_REPS runs. */
static double calibrate(void)
{
    double best = INFINITY;
    for (int i = 0; i < CALIB_REPS; i++)
        best = fmin(best, cb_calibration_kernel());
    return best;
}

/* Solve one (problem, solver, tol) `reps` times; first repetition's figures, and the minimum
 * thread CPU time of a whole cb_solve (setup, solve, judge): the least disturbed repetition of a
 * deterministic computation, unaffected by other processes taking the core. */
static int bench_one(const cb_problem *p, const cb_solver *sv, const cb_settings *s, int reps,
                     cb_bench_row *row, cb_error *err)
{
    double best = INFINITY;
    cb_solution sol = {0};
    cb_info info = {0};
    int rc = cb_solution_alloc(p, &sol, err);
    for (int r = 0; rc == CB_OK && r < reps && r < 64; r++) {
        memset(sol.p, 0, sol.n * sizeof(double));
        cb_info_free(&info);
        double t0 = cb_cpu_now();
        rc = cb_solve(sv, p, s, &sol, &info, err);
        best = fmin(best, cb_cpu_now() - t0);
        if (rc == CB_OK && r == 0) {
            row->status = info.status;
            row->iterations = info.iterations;
            row->work = info.work;
            row->error = info.error;
        }
    }
    if (rc == CB_OK)
        row->time_s = best;
    cb_info_free(&info);
    cb_solution_free(&sol);
    return rc;
}

/* Read (or generate) problem i of the campaign. */
static int load_problem(const cb_campaign *c, int i, cb_problem **p, cb_error *err)
{
    int rc = cb_campaign_prepare_problem(c, i, 0, err);
    return rc == CB_OK ? cb_read_problem(c->problems[i].path, &c->problems[i].read, p, err) : rc;
}

static int push_bench(cb_bench *b, const cb_bench_row *row)
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

/* Every solver and tolerance on one problem. */
static int bench_problem(const cb_campaign *c, const cb_bench_settings *s, int pi, cb_bench *out,
                         cb_error *err)
{
    cb_problem *p = NULL;
    int rc = load_problem(c, pi, &p, err);
    for (int si = 0; rc == CB_OK && si < c->nsolvers; si++) {
        const cb_campaign_solver *cs = &c->solvers[si];
        const cb_solver *sv = (s->find_solver ? s->find_solver : cb_solver_find)(cs->solver);
        if (!sv)
            return cb_fail(err, CB_ERR_INPUT, "unknown solver '%s'", cs->solver);
        for (int ti = 0; rc == CB_OK && ti < c->ntols; ti++) {
            cb_bench_row row;
            memset(&row, 0, sizeof row);
            snprintf(row.problem, sizeof row.problem, "%s", c->problems[pi].name);
            snprintf(row.solver, sizeof row.solver, "%s", cs->label);
            row.tol = c->tols[ti];
            cb_settings st;
            cb_settings_default(&st);
            st.tol = row.tol;
            st.max_iter = c->max_iter;
            st.time_limit = c->time_limit;
            st.options = cs->options;
            st.noptions = cs->noptions;
            rc = bench_one(p, sv, &st, c->repetitions, &row, err);
            if (rc == CB_OK && (rc = push_bench(out, &row)) != CB_OK)
                rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
        }
    }
    cb_problem_free(p);
    return rc;
}

int cb_bench_run(const cb_campaign *c, const cb_bench_settings *s, cb_bench *out, cb_error *err)
{
    memset(out, 0, sizeof *out);
    cb_gate_tolerances_default(&out->tols);
    out->data_missing = c->data_missing;
    double before = calibrate();
    int rc = CB_OK;
    for (int pi = 0; rc == CB_OK && pi < c->nproblems; pi++) {
        if (s->progress)
            fprintf(stderr, "%sconebench: bench-check problem %d/%d %-40s%s",
                    isatty(2) ? "\r" : "", pi + 1, c->nproblems, c->problems[pi].name,
                    isatty(2) ? "" : "\n");
        rc = bench_problem(c, s, pi, out, err);
    }
    if (s->progress && isatty(2))
        fprintf(stderr, "\n");
    double after = calibrate();
    out->calib_s = 0.5 * (before + after);
    for (int i = 0; i < out->nrows; i++)
        out->rows[i].norm_time = out->rows[i].time_s / out->calib_s;
    if (rc != CB_OK)
        cb_bench_free(out);
    return rc;
}

void cb_bench_free(cb_bench *b)
{
    if (!b)
        return;
    free(b->rows);
    b->rows = NULL;
    b->nrows = 0;
}

int cb_bench_write(const char *path, const cb_bench *b, cb_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    fprintf(f, "# conebench bench file (baseline format, see include/conebench/gate.h)\n"
               "# tolerances: time=%g iterations=%g work=%g error_factor=%g min_time=%g\n"
               "# calibration_s: %.9g\n# data_missing: %d\n"
               "problem,solver,tol,status,iterations,block_products,projections,local_iters,"
               "error,time_s,norm_time\n",
            b->tols.time, b->tols.iterations, b->tols.work, b->tols.error_factor,
            b->tols.min_time, b->calib_s, b->data_missing);
    for (int i = 0; i < b->nrows; i++) {
        const cb_bench_row *r = &b->rows[i];
        fprintf(f, "%s,%s,%.17g,%s,%d,%lld,%lld,%lld,%.17g,%.9g,%.9g\n", r->problem, r->solver,
                r->tol, cb_status_name(r->status), r->iterations, r->work.block_products,
                r->work.projections, r->work.local_iters, r->error, r->time_s, r->norm_time);
    }
    fclose(f);
    int rc = cb_write_file_atomic(path, buf, len, err);
    free(buf);
    return rc;
}

/* "# key: ..." lines of a bench file. */
static void bench_comment(const char *line, cb_bench *b)
{
    if (sscanf(line, "# tolerances: time=%lf iterations=%lf work=%lf error_factor=%lf "
                     "min_time=%lf",
               &b->tols.time, &b->tols.iterations, &b->tols.work, &b->tols.error_factor,
               &b->tols.min_time) == 5)
        return;
    if (sscanf(line, "# calibration_s: %lf", &b->calib_s) == 1)
        return;
    sscanf(line, "# data_missing: %d", &b->data_missing);
}

/* One CSV row of a bench file. */
static int bench_row_parse(char *line, cb_bench_row *r)
{
    char *f[11];
    int n = 0;
    for (char *s = line; n < 11; n++) {
        f[n] = s;
        s = strchr(s, ',');
        if (!s) {
            n++;
            break;
        }
        *s++ = '\0';
    }
    memset(r, 0, sizeof *r);
    if (n != 11 || strlen(f[0]) >= sizeof r->problem || strlen(f[1]) >= sizeof r->solver ||
        cb_status_parse(f[3], &r->status) != CB_OK)
        return CB_ERR_INPUT;
    strcpy(r->problem, f[0]);
    strcpy(r->solver, f[1]);
    char *end;
    int bad = 0;
    double v[11];
    for (int k = 2; k < 11; k++) {
        if (k == 3)
            continue;
        v[k] = strtod(f[k], &end);
        bad |= end == f[k] || (*end && *end != '\n');
    }
    r->tol = v[2];
    r->iterations = (int)v[4];
    r->work.block_products = (long long)v[5];
    r->work.projections = (long long)v[6];
    r->work.local_iters = (long long)v[7];
    r->error = v[8];
    r->time_s = v[9];
    r->norm_time = v[10];
    return bad ? CB_ERR_INPUT : CB_OK;
}

int cb_bench_read(const char *path, cb_bench *out, cb_error *err)
{
    memset(out, 0, sizeof *out);
    cb_gate_tolerances_default(&out->tols);
    FILE *f = fopen(path, "r");
    if (!f)
        return cb_fail_at(err, CB_ERR_INPUT, path, 0, "cannot read: %s", strerror(errno));
    char line[2048];
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
            rc = cb_fail_at(err, CB_ERR_INPUT, path, lineno, "malformed bench row");
        else if (push_bench(out, &r) != CB_OK)
            rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    fclose(f);
    if (rc != CB_OK)
        cb_bench_free(out);
    return rc;
}

int cb_bench_from_results(const char *dir, cb_bench *out, cb_error *err)
{
    char path[4096];
    cb_results res;
    memset(out, 0, sizeof *out);
    cb_gate_tolerances_default(&out->tols);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    int rc = cb_results_read(path, &res, err);
    for (int i = 0; rc == CB_OK && i < res.nrows; i++) {
        const cb_result *x = &res.rows[i];
        if (x->rep != 0)
            continue; /* repetitions: deterministic figures of the first, time below */
        cb_bench_row r;
        memset(&r, 0, sizeof r);
        snprintf(r.problem, sizeof r.problem, "%s", x->problem);
        snprintf(r.solver, sizeof r.solver, "%s", x->label);
        r.tol = x->tol;
        r.status = x->status;
        r.iterations = x->iterations;
        r.work = x->work;
        r.error = x->error;
        double t[64];
        int n = 0;
        for (int j = 0; j < res.nrows && n < 64; j++)
            if (!strcmp(res.rows[j].problem, x->problem) && !strcmp(res.rows[j].label, x->label) &&
                res.rows[j].tol == x->tol)
                t[n++] = res.rows[j].time_s;
        r.time_s = r.norm_time = cb_median(t, n);
        if (push_bench(out, &r) != CB_OK)
            rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    if (rc == CB_OK && res.nrows == 0)
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 0, "no results");
    cb_results_free(&res);
    if (rc != CB_OK)
        cb_bench_free(out);
    return rc;
}

static const cb_bench_row *find_row(const cb_bench *b, const cb_bench_row *r)
{
    for (int i = 0; i < b->nrows; i++)
        if (!strcmp(b->rows[i].problem, r->problem) && !strcmp(b->rows[i].solver, r->solver) &&
            b->rows[i].tol == r->tol)
            return &b->rows[i];
    return NULL;
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

/* Deterministic figures of one baseline row against the current one. */
static void compare_row(FILE *f, cb_gate_summary *sum, const cb_gate_tolerances *t,
                        const cb_bench_row *b, const cb_bench_row *c)
{
    int bs = b->status == CB_STATUS_SOLVED, cs = c->status == CB_STATUS_SOLVED;
    sum->compared++;
    if (bs != cs) {
        verdict(f, sum, bs, b, cs ? "status solved" : "status lost", bs, cs);
        return;
    }
    compare_count(f, sum, b, "iterations", b->iterations, c->iterations, t->iterations);
    compare_count(f, sum, b, "block_products", (double)b->work.block_products,
                  (double)c->work.block_products, t->work);
    if (bs && c->error > t->error_factor * b->error && c->error > 1e-3 * b->tol)
        verdict(f, sum, 1, b, "error", b->error, c->error);
}

/* Per-solver time: Σ norm_time over rows with the same status and iterations in both (equal
 * work, solved or not) and baseline time ≥ min_time. */
static void compare_times(FILE *f, cb_gate_summary *sum, const cb_bench *base, const cb_bench *cur)
{
    const cb_gate_tolerances *t = &base->tols;
    if (f)
        fprintf(f, "\ntime (normalised by the calibration kernel), per solver:\n"
                   "%-24s %6s %14s %14s %8s\n", "solver", "runs", "baseline", "now", "ratio");
    for (int i = 0; i < base->nrows; i++) {
        const char *sv = base->rows[i].solver;
        int first = 1;
        for (int k = 0; k < i; k++)
            first &= strcmp(base->rows[k].solver, sv) != 0;
        if (!first)
            continue;
        double sb = 0, sc = 0;
        int n = 0;
        for (int k = i; k < base->nrows; k++) {
            const cb_bench_row *b = &base->rows[k], *c = find_row(cur, b);
            if (strcmp(b->solver, sv) || !c || b->status != c->status ||
                b->iterations != c->iterations || b->time_s < t->min_time)
                continue; /* time compares equal work only */
            sb += b->norm_time;
            sc += c->norm_time;
            n++;
        }
        double ratio = n ? sc / sb : 1.0;
        if (f)
            fprintf(f, "%-24s %6d %14.6g %14.6g %8.3f%s\n", sv, n, sb, sc, ratio,
                    ratio > 1 + t->time ? "  REGRESSION" : ratio < 1 / (1 + t->time) ? "  improvement" : "");
        sum->regressions += ratio > 1 + t->time;
        sum->improvements += ratio < 1 / (1 + t->time);
    }
}

int cb_gate_compare(const cb_bench *base, const cb_bench *cur, FILE *f, cb_gate_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    if (f)
        fprintf(f, "%-11s %-34s %-22s %-7s %-14s %14s %14s\n", "verdict", "problem", "solver",
                "tol", "what", "baseline", "now");
    for (int i = 0; i < base->nrows; i++) {
        const cb_bench_row *b = &base->rows[i], *c = find_row(cur, b);
        if (c) {
            compare_row(f, sum, &base->tols, b, c);
        } else if (cur->data_missing && strncmp(b->problem, "random-", 7) != 0) {
            sum->missing_ok++;
        } else {
            verdict(f, sum, 1, b, "missing run", 1, 0);
        }
    }
    compare_times(f, sum, base, cur);
    if (f)
        fprintf(f, "\n%d runs compared, %d regressions, %d improvements%s\n", sum->compared,
                sum->regressions, sum->improvements,
                sum->missing_ok ? " (runs on absent Siconos data skipped)" : "");
    return CB_OK;
}
