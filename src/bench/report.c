/* conebench — report: summary tables, performance profiles and convergence figures. */
#include "conebench/campaign.h"
#include "conebench/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conebench/io.h"
#include "conebench/metrics.h"
#include "conebench/results.h"

#define TIME_SHIFT 0.010 /* s, the shift of the geometric means of time */
#define ITER_SHIFT 10.0

typedef struct {
    int present, nreps, solved;
    cb_status status;      /* first repetition's */
    double time;           /* median over repetitions */
    double iterations, work, error, error_q;
    double dist_ref;       /* first repetition's, NaN: no reference or p* not unique */
    const char *run_id;
} cell;

typedef struct {
    double tol;
    int np, ns;
    const char **probs, **solvs; /* borrowed from the rows */
    const char **kinds;
    int *ncs;
    cell *cells;                 /* np × ns */
    int *common, ncommon;        /* problems no solver of the table refused as unsupported */
    int has_dist;                /* some cell has a dist_ref */
} table;

typedef struct {
    int runs, solved;            /* unsupported cells are not runs */
    int unsupported;
    double success, sgm_time, sgm_iter, med_error;
    int status_count[CB_STATUS_COUNT];
} solver_stats;

typedef struct {
    const cb_report_settings *s;
    cb_results res;
    double time_limit;
    int max_iter;
    char campaign[256];
    char earlier[256];   /* after a forced resume: the record the earlier rows were made under */
    char plots[4096];
} report_ctx;

void cb_report_settings_default(cb_report_settings *s)
{
    memset(s, 0, sizeof *s);
    s->figures = 1;
    s->max_convergence = 40;
    s->summary = stdout;
}

/* DIR/limits.txt written by the runner (defaults if absent). */
static void load_limits(report_ctx *x)
{
    char path[4096], key[64], val[256];
    x->time_limit = 10;
    x->max_iter = 10000;
    snprintf(x->campaign, sizeof x->campaign, "?");
    snprintf(path, sizeof path, "%s/limits.txt", x->s->dir);
    FILE *f = fopen(path, "r");
    while (f && fscanf(f, "%63s %255s", key, val) == 2) {
        if (!strcmp(key, "time_limit"))
            x->time_limit = atof(val);
        else if (!strcmp(key, "max_iter"))
            x->max_iter = atoi(val);
        else if (!strcmp(key, "campaign"))
            snprintf(x->campaign, sizeof x->campaign, "%s", val);
        else if (!strcmp(key, "earlier_limits"))
            snprintf(x->earlier, sizeof x->earlier, "%s", val);
    }
    if (f)
        fclose(f);
}

static int index_of(const char **list, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i], s))
            return i;
    return -1;
}

/* Distinct tolerances, largest first. */
static int distinct_tols(const cb_results *r, double *tols, int max)
{
    int n = 0;
    for (int i = 0; i < r->nrows; i++) {
        int seen = 0;
        for (int k = 0; k < n; k++)
            seen |= tols[k] == r->rows[i].tol;
        if (!seen && n < max)
            tols[n++] = r->rows[i].tol;
    }
    for (int i = 1; i < n; i++) /* insertion sort, descending */
        for (int k = i; k > 0 && tols[k] > tols[k - 1]; k--) {
            double t = tols[k];
            tols[k] = tols[k - 1];
            tols[k - 1] = t;
        }
    return n;
}

static void table_free(table *t)
{
    free(t->probs);
    free(t->solvs);
    free(t->kinds);
    free(t->ncs);
    free(t->cells);
    free(t->common);
    memset(t, 0, sizeof *t);
}

/* 1 for a cell whose solver does not take the problem (supports() refused it): not a failure. */
static int unsupported(const cell *c) { return c->present && c->status == CB_STATUS_UNSUPPORTED; }

/* t->common = the problems that every solver of the table supports (the profiles' problems). */
static int find_common(table *t)
{
    t->ncommon = 0;
    if (!(t->common = malloc(((size_t)t->np + 1) * sizeof *t->common)))
        return CB_ERR_NOMEM;
    for (int p = 0; p < t->np; p++) {
        int ok = 1;
        for (int s = 0; s < t->ns; s++)
            ok &= !unsupported(&t->cells[p * t->ns + s]);
        if (ok)
            t->common[t->ncommon++] = p;
    }
    return CB_OK;
}

/* First repetition's data into the cell; solved only if every repetition solved. */
static void add_to_cell(cell *c, const cb_result *r)
{
    if (!c->present) {
        c->present = 1;
        c->status = r->status;
        c->iterations = r->iterations;
        c->work = (double)r->work.block_products;
        c->error = r->error;
        c->error_q = r->error_q;
        c->dist_ref = r->dist_ref;
        c->run_id = r->run_id;
        c->solved = 1;
    }
    c->nreps++;
    c->solved &= r->status == CB_STATUS_SOLVED;
}

/* Rows of tolerance tol → cells (problem × solver) with the median time over repetitions. */
static int build_table(const cb_results *r, double tol, table *t)
{
    memset(t, 0, sizeof *t);
    t->tol = tol;
    size_t n = (size_t)r->nrows;
    int *cell_of = malloc(n * sizeof *cell_of);
    double *times = malloc(n * sizeof *times);
    t->probs = calloc(n, sizeof *t->probs);
    t->solvs = calloc(n, sizeof *t->solvs);
    t->kinds = calloc(n, sizeof *t->kinds);
    t->ncs = calloc(n, sizeof *t->ncs);
    int rc = cell_of && times && t->probs && t->solvs && t->kinds && t->ncs ? CB_OK : CB_ERR_NOMEM;
    for (size_t i = 0; rc == CB_OK && i < n; i++) {
        const cb_result *row = &r->rows[i];
        if (row->tol != tol)
            continue;
        if (index_of(t->probs, t->np, row->problem) < 0) {
            t->kinds[t->np] = row->kind;
            t->ncs[t->np] = row->nc;
            t->probs[t->np++] = row->problem;
        }
        if (index_of(t->solvs, t->ns, row->label) < 0)
            t->solvs[t->ns++] = row->label;
    }
    if (rc == CB_OK && !(t->cells = calloc((size_t)t->np * t->ns + 1, sizeof *t->cells)))
        rc = CB_ERR_NOMEM;
    for (size_t i = 0; rc == CB_OK && i < n; i++) {
        const cb_result *row = &r->rows[i];
        cell_of[i] = -1;
        if (row->tol != tol)
            continue;
        int p = index_of(t->probs, t->np, row->problem), so = index_of(t->solvs, t->ns, row->label);
        cell_of[i] = p * t->ns + so;
        add_to_cell(&t->cells[cell_of[i]], row);
        t->has_dist |= !isnan(row->dist_ref);
    }
    for (int c = 0; rc == CB_OK && c < t->np * t->ns; c++) {
        int k = 0;
        for (size_t i = 0; i < n; i++)
            if (cell_of[i] == c)
                times[k++] = r->rows[i].time_s;
        t->cells[c].time = cb_median(times, k);
    }
    if (rc == CB_OK)
        rc = find_common(t);
    free(cell_of);
    free(times);
    if (rc != CB_OK)
        table_free(t);
    return rc;
}

/* Success rate, shifted geometric means (failures charged the limits), median error; over the
 * runs only: unsupported cells are counted apart. */
static void stats_of(const report_ctx *x, const table *t, int s, solver_stats *st)
{
    memset(st, 0, sizeof *st);
    double *tm = malloc(((size_t)t->np + 1) * sizeof *tm), *it = malloc(((size_t)t->np + 1) * sizeof *it),
           *er = malloc(((size_t)t->np + 1) * sizeof *er);
    int k = 0, ke = 0;
    for (int p = 0; tm && it && er && p < t->np; p++) {
        const cell *c = &t->cells[p * t->ns + s];
        if (!c->present)
            continue;
        if (unsupported(c)) {
            st->unsupported++;
            continue;
        }
        st->runs++;
        st->solved += c->solved;
        st->status_count[c->status]++;
        tm[k] = c->solved ? c->time : x->time_limit;
        it[k++] = c->solved ? c->iterations : x->max_iter;
        if (isfinite(c->error))
            er[ke++] = c->error;
    }
    st->success = st->runs ? (double)st->solved / st->runs : NAN;
    st->sgm_time = cb_shifted_geomean(tm, k, TIME_SHIFT);
    st->sgm_iter = cb_shifted_geomean(it, k, ITER_SHIFT);
    st->med_error = cb_median(er, ke);
    free(tm);
    free(it);
    free(er);
}

/* Run gnuplot with variable definitions then `load` of a script from plots/. */
static int gnuplot(const report_ctx *x, const char *vars, const char *script, cb_error *err)
{
    FILE *g = popen("gnuplot", "w");
    if (!g)
        return cb_fail(err, CB_ERR_IO, "cannot run gnuplot (install gnuplot-nox)");
    fprintf(g, "%s\nload '%s/%s'\n", vars, x->plots, script);
    int st = pclose(g);
    if (st != 0)
        return cb_fail(err, CB_ERR_IO, "gnuplot failed on %s/%s (status %d)", x->plots, script,
                       st);
    return CB_OK;
}

/* A gnuplot string literal (single-quoted; quotes replaced). */
static void gp_str(char *buf, size_t len, const char *s)
{
    size_t k = 0;
    buf[k++] = '\'';
    for (; *s && k + 2 < len; s++)
        buf[k++] = *s == '\'' ? '"' : *s;
    buf[k++] = '\'';
    buf[k] = '\0';
}

static const struct {
    const char *what, *file;
} measures[3] = {{"time", "time"}, {"iterations", "iterations"}, {"work", "work"}};

/* Cost of a cell for measure m (+inf when not solved). */
static double cost_of(const cell *c, int m)
{
    if (!c->present || !c->solved)
        return INFINITY;
    double v = m == 0 ? c->time : m == 1 ? c->iterations : c->work;
    return fmax(v, m == 0 ? 1e-9 : 1.0);
}

static int cmp_dbl(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* τ values where some ρ_s steps, plus 1 and 1e4, sorted and distinct; returns the count. */
static size_t sorted_breakpoints(const double *ratio, size_t n, double *taus)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(ratio[i]) && ratio[i] <= 1e4)
            taus[k++] = ratio[i];
    qsort(taus, k, sizeof *taus, cmp_dbl);
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (m == 0 || taus[i] != taus[m - 1])
            taus[m++] = taus[i];
    if (m == 0 || taus[0] > 1.0) { /* start at τ = 1 */
        memmove(taus + 1, taus, m * sizeof *taus);
        taus[0] = 1.0;
        m++;
    }
    if (taus[m - 1] < 1e4)
        taus[m++] = 1e4;
    return m;
}

/* Write the profile data (exact steps at every ratio) and plot it. */
static int profile_figure(const report_ctx *x, const table *t, int ti, int m, cb_error *err)
{
    size_t cells = (size_t)t->ncommon * t->ns;
    double *cost = malloc((cells + 2) * sizeof *cost), *ratio = malloc((cells + 1) * sizeof *ratio);
    char data[4096], out[4096], vars[8192], a[4200], b[4200], ttl[512];
    int rc = cost && ratio ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    snprintf(data, sizeof data, "%s/figures/profile-%s-tol%d.csv", x->s->dir, measures[m].file, ti);
    snprintf(out, sizeof out, "%s/figures/profile-%s-tol%d", x->s->dir, measures[m].file, ti);
    FILE *f = rc == CB_OK ? fopen(data, "w") : NULL;
    if (rc == CB_OK && !f)
        rc = cb_fail_at(err, CB_ERR_IO, data, 0, "cannot write: %s", strerror(errno));
    if (rc == CB_OK) {
        for (int k = 0; k < t->ncommon; k++) /* rows: the problems every solver supports */
            for (int s = 0; s < t->ns; s++)
                cost[k * t->ns + s] = cost_of(&t->cells[t->common[k] * t->ns + s], m);
        cb_perf_ratios(cost, t->ncommon, t->ns, ratio);
        fprintf(f, "tau");
        for (int s = 0; s < t->ns; s++)
            fprintf(f, ",\"%s\"", t->solvs[s]);
        size_t nt = sorted_breakpoints(ratio, cells, cost); /* reuse cost as τ list */
        for (size_t i = 0; i < nt; i++) {
            fprintf(f, "\n%.17g", cost[i]);
            for (int s = 0; s < t->ns; s++)
                fprintf(f, ",%.6f", cb_perf_profile(ratio, t->ncommon, t->ns, s, cost[i]));
        }
        fprintf(f, "\n");
        fclose(f);
        int k = snprintf(ttl, sizeof ttl, "Performance profile (%s), tol %.0e, %d problem%s",
                         measures[m].what, t->tol, t->ncommon, t->ncommon == 1 ? "" : "s");
        if (t->ncommon < t->np)
            snprintf(ttl + k, sizeof ttl - (size_t)k, " (%d excluded: unsupported by a solver)",
                     t->np - t->ncommon);
        gp_str(a, sizeof a, data);
        gp_str(b, sizeof b, out);
        snprintf(vars, sizeof vars, "data=%s; out=%s; ttl='%s'; what='%s'; ncol=%d", a, b, ttl,
                 measures[m].what, t->ns + 1);
        rc = gnuplot(x, vars, "profile.gp", err);
    }
    free(cost);
    free(ratio);
    return rc;
}

/* Append a trace file's rows (skipping its header) to f as "iteration time error". */
static int copy_trace(const report_ctx *x, const char *run_id, FILE *f)
{
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s/traces/%s.csv", x->s->dir, run_id);
    FILE *in = fopen(path, "r");
    int rows = 0;
    while (in && fgets(line, sizeof line, in)) {
        int it;
        double tm, e;
        if (sscanf(line, "%d,%lf,%lf", &it, &tm, &e) == 3 && e > 0) {
            fprintf(f, "%d %.9g %.17g\n", it, tm, e);
            rows++;
        }
    }
    if (in)
        fclose(in);
    return rows;
}

/* One figure per problem: every solver's trace at this tolerance. Returns figures written. */
static int convergence_figure(const report_ctx *x, const table *t, int p, int ti, cb_error *err)
{
    char data[4096], out[4096], vars[16384], a[4200], b[4200], titles[8192] = "", ttl[600];
    snprintf(data, sizeof data, "%s/figures/conv-tol%d-p%d.dat", x->s->dir, ti, p);
    snprintf(out, sizeof out, "%s/figures/conv-tol%d-p%d", x->s->dir, ti, p);
    FILE *f = fopen(data, "w");
    if (!f)
        return cb_fail_at(err, CB_ERR_IO, data, 0, "cannot write: %s", strerror(errno));
    int nblk = 0;
    size_t k = 0;
    for (int s = 0; s < t->ns; s++) {
        const cell *c = &t->cells[p * t->ns + s];
        if (!c->present || unsupported(c)) /* no run, no trace */
            continue;
        fprintf(f, "%s# %s\n", nblk ? "\n\n" : "", t->solvs[s]);
        if (copy_trace(x, c->run_id, f) == 0)
            fprintf(f, "1 nan nan\n"); /* keep block numbering aligned with titles */
        k += (size_t)snprintf(titles + k, k < sizeof titles ? sizeof titles - k : 0, "%s\\\"%s\\\"",
                              nblk ? " " : "", t->solvs[s]);
        nblk++;
    }
    fclose(f);
    if (nblk == 0)
        return CB_OK;
    snprintf(ttl, sizeof ttl, "Convergence on %s (%s, nc = %d), tol %.0e", t->probs[p],
             t->kinds[p], t->ncs[p], t->tol);
    gp_str(a, sizeof a, data);
    gp_str(b, sizeof b, out);
    snprintf(vars, sizeof vars, "data=%s; out=%s; ttl='%s'; tol=%.17g; nblk=%d; titles=\"%s\"",
             a, b, ttl, t->tol, nblk, titles);
    return gnuplot(x, vars, "convergence.gp", err);
}

/* "max_iter 2, crashed 1" from the failure counts of st, or "—" when none. */
static void failure_list(const solver_stats *st, char *why, size_t len)
{
    static const cb_status fails[] = {CB_STATUS_MAX_ITER, CB_STATUS_TIME_LIMIT,
                                      CB_STATUS_DIVERGED, CB_STATUS_NOT_SOLVED,
                                      CB_STATUS_CRASHED, CB_STATUS_BAD_INPUT};
    size_t k = 0;
    snprintf(why, len, "—");
    for (size_t i = 0; i < sizeof fails / sizeof *fails; i++)
        if (st->status_count[fails[i]] && k < len)
            k += (size_t)snprintf(why + k, len - k, "%s%s %d", k ? ", " : "",
                                  cb_status_name(fails[i]), st->status_count[fails[i]]);
}

/* The per-solver table of one tolerance, in Markdown (f) and as plain text (summary). Runs,
 * success and means leave out unsupported (problem, solver) pairs; they have their own column. */
static void solver_table(const report_ctx *x, const table *t, FILE *md, FILE *txt)
{
    fprintf(md, "| solver | runs | solved | success | sgm time [ms] | sgm iterations | "
                "median error | unsupported | failures |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    if (txt)
        fprintf(txt, "\ntol %.0e: %d problems (sgm = shifted geometric mean, failures charged the "
                     "limits)\n%-28s %5s %6s %8s %14s %10s %12s %11s\n",
                t->tol, t->np, "solver", "runs", "solved", "success", "sgm time [ms]", "sgm iter",
                "median err", "unsupported");
    for (int s = 0; s < t->ns; s++) {
        solver_stats st;
        char why[256];
        stats_of(x, t, s, &st);
        failure_list(&st, why, sizeof why);
        fprintf(md, "| %s | %d | %d | %.0f %% | %.3f | %.1f | %.2e | %d | %s |\n", t->solvs[s],
                st.runs, st.solved, 100 * st.success, 1e3 * st.sgm_time, st.sgm_iter,
                st.med_error, st.unsupported, why);
        if (txt)
            fprintf(txt, "%-28s %5d %6d %7.0f%% %14.3f %10.1f %12.2e %11d\n", t->solvs[s],
                    st.runs, st.solved, 100 * st.success, 1e3 * st.sgm_time, st.sgm_iter,
                    st.med_error, st.unsupported);
    }
    if (t->ncommon < t->np) {
        fprintf(md, "\nPerformance profiles: over the %d of %d problems that every solver above "
                    "supports (%d excluded as unsupported by some solver).\n",
                t->ncommon, t->np, t->np - t->ncommon);
        if (txt)
            fprintf(txt, "profiles: %d of %d problems (%d unsupported by some solver, excluded)\n",
                    t->ncommon, t->np, t->np - t->ncommon);
    }
}

/* " / 1.2e-10" (the cell's dist_ref), " / —" (none), "" (no cell of t has one). */
static const char *dist_text(const table *t, const cell *c)
{
    static char buf[32];
    if (!t->has_dist)
        return "";
    if (isnan(c->dist_ref))
        return " / —";
    snprintf(buf, sizeof buf, " / %.1e", c->dist_ref);
    return buf;
}

/* Problems × solvers: status and iterations of each cell. */
static void problem_table(const table *t, FILE *md)
{
    fprintf(md, "\n<details><summary>Per problem (status / iterations / time%s; n/a: the solver "
                "does not take the problem)</summary>\n\n| problem | kind | nc |",
            t->has_dist ? " / dist_ref" : "");
    for (int s = 0; s < t->ns; s++)
        fprintf(md, " %s |", t->solvs[s]);
    fprintf(md, "\n|---|---|---:|");
    for (int s = 0; s < t->ns; s++)
        fprintf(md, "---|");
    for (int p = 0; p < t->np; p++) {
        fprintf(md, "\n| %s | %s | %d |", t->probs[p], t->kinds[p], t->ncs[p]);
        for (int s = 0; s < t->ns; s++) {
            const cell *c = &t->cells[p * t->ns + s];
            if (unsupported(c))
                fprintf(md, " n/a |");
            else if (c->present)
                fprintf(md, " %s / %.0f / %.2g s%s |", cb_status_name(c->status), c->iterations,
                        c->time, dist_text(t, c));
            else
                fprintf(md, " — |");
        }
    }
    fprintf(md, "\n\n</details>\n");
}

/* Figures of one tolerance and their Markdown links. */
static int tol_figures(const report_ctx *x, const table *t, int ti, FILE *md, cb_error *err)
{
    int rc = CB_OK;
    fprintf(md, "\n#### Performance profiles\n\n");
    if (t->ncommon == 0)
        fprintf(md, "(none: no problem is supported by every solver)\n");
    for (int m = 0; m < 3 && rc == CB_OK && t->ncommon > 0; m++) {
        rc = profile_figure(x, t, ti, m, err);
        fprintf(md, "![profile %s](figures/profile-%s-tol%d.png)\n", measures[m].what,
                measures[m].file, ti);
    }
    fprintf(md, "\n#### Convergence (one figure per problem)\n\n");
    int n = t->np < x->s->max_convergence ? t->np : x->s->max_convergence;
    for (int p = 0; p < n && rc == CB_OK; p++) {
        rc = convergence_figure(x, t, p, ti, err);
        fprintf(md, "![%s](figures/conv-tol%d-p%d.png)\n", t->probs[p], ti, p);
    }
    if (n < t->np)
        fprintf(md, "\n(%d more problems not drawn; raise max_convergence.)\n", t->np - n);
    return rc;
}

/* Machine description, verbatim. */
static void machine_section(const report_ctx *x, FILE *md)
{
    char path[4096], line[512];
    snprintf(path, sizeof path, "%s/machine.txt", x->s->dir);
    FILE *f = fopen(path, "r");
    fprintf(md, "\n## Machine\n\n```\n");
    while (f && fgets(line, sizeof line, f))
        fputs(line, md);
    fprintf(md, "```\n");
    if (f)
        fclose(f);
}

/* Rows of r with status unsupported (pairs that were not run). */
static int count_unsupported(const cb_results *r)
{
    int n = 0;
    for (int i = 0; i < r->nrows; i++)
        n += r->rows[i].status == CB_STATUS_UNSUPPORTED;
    return n;
}

/* 1 when some row has a dist_ref. */
static int any_dist(const cb_results *r)
{
    for (int i = 0; i < r->nrows; i++)
        if (!isnan(r->rows[i].dist_ref))
            return 1;
    return 0;
}

static int report_body(report_ctx *x, FILE *md, cb_error *err)
{
    double tols[16];
    int nt = distinct_tols(&x->res, tols, 16), rc = CB_OK, nu = count_unsupported(&x->res);
    fprintf(md, "# conebench report: %s\n\n%d runs (and %d unsupported pairs) in `%s`. Every "
                "result was re-scored by the judge (man conebench, DESCRIPTION): solved means "
                "finite, error ≤ tol "
                "and error_q ≤ 1. Time limit %g s per run, at most %d iterations; shifted "
                "geometric means use a shift of 10 ms (time) and 10 (iterations), with failures "
                "charged the limit. A (problem, solver) pair the solver does not take (status "
                "unsupported) is not a run: it is left out of runs, success and means, shown "
                "n/a, and profiles use only the problems every listed solver supports.\n",
            x->campaign, x->res.nrows - nu, nu, x->s->dir, x->time_limit, x->max_iter);
    if (any_dist(&x->res))
        fprintf(md, "\ndist_ref = ‖p − p*‖ / max(1, ‖p*‖), the distance of a run's p to the "
                    "problem's reference solution p* (`conebench reference`), is the last figure "
                    "of the per-problem tables. It is left out (—) for problems without a "
                    "reference and for those whose W is singular: their solutions form a set, "
                    "p* is not unique, only the residual (error) says how good a run is.\n");
    if (x->earlier[0])
        fprintf(md, "\n**Mixed settings:** these runs were resumed with `--force` after the "
                    "campaign or its limits changed: earlier rows were made under `%s` (the "
                    "limits above are the latest).\n", x->earlier);
    for (int ti = 0; ti < nt && rc == CB_OK; ti++) {
        table t;
        if ((rc = build_table(&x->res, tols[ti], &t)) != CB_OK)
            return cb_fail(err, rc, "report: out of memory");
        fprintf(md, "\n## Tolerance %.0e\n\n", tols[ti]);
        solver_table(x, &t, md, x->s->summary);
        problem_table(&t, md);
        if (x->s->figures)
            rc = tol_figures(x, &t, ti, md, err);
        table_free(&t);
    }
    machine_section(x, md);
    return rc;
}

/* The results directory exists (said so, rather than "no runs.csv in it"). */
static int check_dir(const char *dir, cb_error *err)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return cb_fail(err, CB_ERR_INPUT, "%s: %s", dir,
                       errno == ENOENT ? "no such directory" : strerror(errno));
    return S_ISDIR(st.st_mode) ? CB_OK : cb_fail(err, CB_ERR_INPUT, "%s: not a directory", dir);
}

int cb_report(const cb_report_settings *s, cb_error *err)
{
    report_ctx x;
    memset(&x, 0, sizeof x);
    x.s = s;
    if (s->plots_dir)
        snprintf(x.plots, sizeof x.plots, "%s", s->plots_dir);
    else
        snprintf(x.plots, sizeof x.plots, "%s/plots", cb_home_dir());
    char path[4096];
    cb_outbuf md = {0};
    snprintf(path, sizeof path, "%s/runs.csv", s->dir);
    int rc = check_dir(s->dir, err);
    if (rc == CB_OK)
        rc = cb_results_read(path, &x.res, err);
    if (rc == CB_OK && x.res.nrows == 0)
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 0, "no results (run a campaign first)");
    snprintf(path, sizeof path, "%s/figures", s->dir);
    if (rc == CB_OK && mkdir(path, 0777) != 0 && errno != EEXIST)
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "cannot create: %s", strerror(errno));
    if (rc == CB_OK)
        rc = cb_outbuf_open(&md, err);
    if (rc == CB_OK) {
        load_limits(&x);
        rc = report_body(&x, md.f, err);
    }
    snprintf(path, sizeof path, "%s/report.md", s->dir);
    if (rc == CB_OK)
        rc = cb_outbuf_commit(&md, path, err);
    cb_outbuf_discard(&md);
    cb_results_free(&x.res);
    return rc;
}
