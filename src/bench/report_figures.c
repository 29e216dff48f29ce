/* conebench — report figures: Dolan–Moré performance profiles and convergence curves, drawn by
 * gnuplot (plots/profile.gp, plots/convergence.gp) with a caption saying what to look at. */
#include "report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "conebench/metrics.h"

#define PROFILE_MARGIN 1.25   /* the x-range ends at this factor past the last step of ρ */
#define PROFILE_MIN_XMAX 2.0  /* ... and not before τ = 2 (all ties: every step at τ = 1) */
#define MIN_TIME_S 1e-9       /* times are floored here before ratios (a 0 s cell) */
#define SHELL_EXIT_NOT_FOUND 127

/* What a profile measures: the caption's name and the file name part. */
static const struct {
    const char *what, *file;
} measures[3] = {{"time", "time"}, {"iterations", "iterations"}, {"work", "work"}};
enum { MEASURE_WORK = 2 };

/* s quoted for /bin/sh: '…' with each ' written '\''. */
static void sh_quote(char *buf, size_t len, const char *s)
{
    size_t k = 0;
    buf[k++] = '\'';
    for (; *s && k + 6 < len; s++) {
        if (*s == '\'') {
            memcpy(buf + k, "'\\''", 4);
            k += 4;
        } else
            buf[k++] = *s;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
}

/* The last non-empty line of the gnuplot log (what gnuplot said last), "" when none. */
static void log_tail(const char *path, char *line, size_t len)
{
    char buf[512];
    FILE *f = fopen(path, "r");
    line[0] = '\0';
    while (f && fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = '\0';
        const char *b = buf + strspn(buf, " \t");
        if (b[0])
            snprintf(line, len, "%s", b);
    }
    if (f)
        fclose(f);
}

/* Run gnuplot with variable definitions then `load` of a script from plots/. gnuplot's stderr
 * (warnings) goes to DIR/figures/gnuplot.log, shown only when gnuplot fails. */
static int gnuplot(const cb_report_ctx *x, const char *vars, const char *script, cb_error *err)
{
    char log[4096], cmd[8300], last[512];
    snprintf(log, sizeof log, "%s/figures/%s", x->s->dir, CB_REPORT_GNUPLOT_LOG);
    memcpy(cmd, "gnuplot 2>>", 11);
    sh_quote(cmd + 11, sizeof cmd - 11, log);
    FILE *g = popen(cmd, "w");
    if (!g)
        return cb_fail(err, CB_ERR_IO, "cannot run gnuplot: %s", strerror(errno));
    fprintf(g, "%s\nload '%s/%s'\n", vars, x->plots, script);
    int st = pclose(g);
    if (st == 0)
        return CB_OK;
    if (WIFEXITED(st) && WEXITSTATUS(st) == SHELL_EXIT_NOT_FOUND)
        return cb_fail(err, CB_ERR_IO, "cannot run gnuplot (install gnuplot-nox)");
    log_tail(log, last, sizeof last);
    return cb_fail(err, CB_ERR_IO, "gnuplot failed on %s/%s (status %d): %s (all of it in %s)",
                   x->plots, script, st, last, log);
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

/* Cost of a cell for measure m (+inf when not solved). */
static double cost_of(const cb_report_cell *c, int m)
{
    if (!c->present || !c->solved)
        return INFINITY;
    double v = m == 0 ? c->time : m == 1 ? c->iterations : c->work;
    return fmax(v, m == 0 ? MIN_TIME_S : 1.0);
}

static int cmp_dbl(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* The τ where some ρ_s steps (every finite ratio), from τ = 1, sorted and distinct, then the
 * right end of the x-range: PROFILE_MARGIN past the last step (at least PROFILE_MIN_XMAX).
 * taus holds n + 2; returns the count. */
static size_t breakpoints(const double *ratio, size_t n, double *taus)
{
    size_t k = 0, m = 0;
    taus[k++] = 1.0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(ratio[i]))
            taus[k++] = ratio[i];
    qsort(taus, k, sizeof *taus, cmp_dbl);
    for (size_t i = 0; i < k; i++)
        if (m == 0 || taus[i] != taus[m - 1])
            taus[m++] = taus[i];
    taus[m] = fmax(taus[m - 1] * PROFILE_MARGIN, PROFILE_MIN_XMAX);
    return m + 1;
}

/* The solvers a profile of measure m ranks (all, but for work only those that fill their work
 * counters) into cols; returns their number. */
static int profile_columns(const cb_report_table *t, int m, int *cols)
{
    int n = 0;
    for (int s = 0; s < t->ns; s++) {
        int filled = 0;
        for (int p = 0; p < t->np; p++)
            filled |= t->cells[p * t->ns + s].work_filled;
        if (m != MEASURE_WORK || filled)
            cols[n++] = s;
    }
    return n;
}

/* The profile's rows to f: "tau,<solver>…" then ρ at every τ of taus. */
static void write_profile(FILE *f, const cb_report_table *t, const int *cols, int nc,
                          const double *ratio, const double *taus, size_t nt)
{
    fprintf(f, "tau");
    for (int j = 0; j < nc; j++)
        fprintf(f, ",\"%s\"", t->solvs[cols[j]]);
    for (size_t i = 0; i < nt; i++) {
        fprintf(f, "\n%.17g", taus[i]);
        for (int j = 0; j < nc; j++)
            fprintf(f, ",%.6f", cb_perf_profile(ratio, t->ncommon, nc, j, taus[i]));
    }
    fprintf(f, "\n");
}

/* The caption: what to look at, the leader at τ = 1, the solvers left out of a work profile. */
static void profile_caption(const cb_report_table *t, const int *cols, int nc, const double *ratio,
                            int m, FILE *md)
{
    int best = 0;
    for (int j = 1; j < nc; j++)
        if (cb_perf_profile(ratio, t->ncommon, nc, j, 1.0) >
            cb_perf_profile(ratio, t->ncommon, nc, best, 1.0))
            best = j;
    fprintf(md, "\n*Look at the height at τ = 1: the share of problems on which a solver has the "
                "least %s (highest here: %s, %.2f). The curve that reaches its top at the smallest "
                "τ solves its problems within the least factor of the best; the height at the "
                "right edge is the share it solves at all.",
            measures[m].what, t->solvs[cols[best]],
            cb_perf_profile(ratio, t->ncommon, nc, best, 1.0));
    if (nc < t->ns) {
        fprintf(md, " Work counters not filled, not ranked by work:");
        for (int s = 0, j = 0, k = 0; s < t->ns; s++) {
            if (j < nc && cols[j] == s)
                j++;
            else
                fprintf(md, "%s %s", k++ ? "," : "", t->solvs[s]);
        }
        fprintf(md, ".");
    }
    fprintf(md, "*\n\n");
}

/* The profile's data and figure (gnuplot). */
static int profile_plot(const cb_report_ctx *x, const cb_report_table *t, int ti, int m, int nc,
                        double xmax, cb_error *err)
{
    char data[4096], out[4096], vars[8192], a[4200], b[4200], ttl[512];
    snprintf(data, sizeof data, "%s/figures/profile-%s-tol%d.csv", x->s->dir, measures[m].file, ti);
    snprintf(out, sizeof out, "%s/figures/profile-%s-tol%d", x->s->dir, measures[m].file, ti);
    int k = snprintf(ttl, sizeof ttl, "Performance profile (%s), tol %.0e, %d problem%s",
                     measures[m].what, t->tol, t->ncommon, t->ncommon == 1 ? "" : "s");
    if (t->ncommon < t->np)
        snprintf(ttl + k, sizeof ttl - (size_t)k, " (%d excluded: unsupported by a solver)",
                 t->np - t->ncommon);
    gp_str(a, sizeof a, data);
    gp_str(b, sizeof b, out);
    if (snprintf(vars, sizeof vars, "data=%s; out=%s; ttl='%s'; what='%s'; ncol=%d; xmax=%.17g",
                 a, b, ttl, measures[m].what, nc + 1, xmax) >= (int)sizeof vars)
        return cb_fail(err, CB_ERR_INPUT, "%s: path too long for gnuplot", out);
    return gnuplot(x, vars, "profile.gp", err);
}

/* Write the profile data (exact steps at every ratio), plot it, link and caption it in md. */
static int profile_figure(const cb_report_ctx *x, const cb_report_table *t, int ti, int m,
                          FILE *md, cb_error *err)
{
    size_t cells = (size_t)t->ncommon * t->ns;
    double *cost = malloc((cells + 1) * sizeof *cost), *ratio = malloc((cells + 1) * sizeof *ratio),
           *taus = malloc((cells + 3) * sizeof *taus);
    int *cols = malloc(((size_t)t->ns + 1) * sizeof *cols), nc = 0;
    char data[4096];
    int rc = cost && ratio && taus && cols ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    snprintf(data, sizeof data, "%s/figures/profile-%s-tol%d.csv", x->s->dir, measures[m].file, ti);
    if (rc == CB_OK && (nc = profile_columns(t, m, cols)) == 0)
        fprintf(md, "(no work profile: no solver fills its work counters)\n");
    FILE *f = rc == CB_OK && nc > 0 ? fopen(data, "w") : NULL;
    if (rc == CB_OK && nc > 0 && !f)
        rc = cb_fail_at(err, CB_ERR_IO, data, 0, "cannot write: %s", strerror(errno));
    if (f) {
        for (int k = 0; k < t->ncommon; k++) /* rows: the problems every solver supports */
            for (int j = 0; j < nc; j++)
                cost[k * nc + j] = cost_of(&t->cells[t->common[k] * t->ns + cols[j]], m);
        cb_perf_ratios(cost, t->ncommon, nc, ratio);
        size_t nt = breakpoints(ratio, (size_t)t->ncommon * nc, taus);
        write_profile(f, t, cols, nc, ratio, taus, nt);
        fclose(f);
        rc = profile_plot(x, t, ti, m, nc, taus[nt - 1], err);
        fprintf(md, "![profile %s](figures/profile-%s-tol%d.png)\n", measures[m].what,
                measures[m].file, ti);
        profile_caption(t, cols, nc, ratio, m, md);
    }
    free(cost);
    free(ratio);
    free(taus);
    free(cols);
    return rc;
}

/* Least positive error of a figure's traces, and whether some error is exactly 0. */
typedef struct {
    double least;
    int zeros;
    int rows;        /* trace rows in all */
} error_range;

/* Append a trace file's rows (skipping its header) to f as "iteration time error"; the errors'
 * range into *r. Returns the rows written. */
static int copy_trace(const cb_report_ctx *x, const char *run_id, FILE *f, error_range *r)
{
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s/traces/%s.csv", x->s->dir, run_id);
    FILE *in = fopen(path, "r");
    int rows = 0;
    while (in && fgets(line, sizeof line, in)) {
        int it;
        double tm, e;
        if (sscanf(line, "%d,%lf,%lf", &it, &tm, &e) == 3 && e >= 0) {
            fprintf(f, "%d %.9g %.17g\n", it, tm, e);
            r->least = e > 0 ? fmin(r->least, e) : r->least;
            r->zeros |= e == 0;
            rows++;
        }
    }
    if (in)
        fclose(in);
    return rows;
}

/* The figure's data: one block per solver run on problem p, their labels into titles, the
 * errors' range and the trace rows into *r. Returns the blocks. */
static int convergence_data(const cb_report_ctx *x, const cb_report_table *t, int p, FILE *f,
                            char *titles, size_t tlen, error_range *r)
{
    int nblk = 0, rows;
    size_t k = 0;
    for (int s = 0; s < t->ns; s++) {
        const cb_report_cell *c = &t->cells[p * t->ns + s];
        if (!c->present || cb_report_unsupported(c)) /* no run, no trace */
            continue;
        fprintf(f, "%s# %s\n", nblk ? "\n\n" : "", t->solvs[s]);
        if ((rows = copy_trace(x, c->run_id, f, r)) == 0)
            fprintf(f, "0 nan nan\n"); /* keep block numbering aligned with titles */
        r->rows += rows;
        k += (size_t)snprintf(titles + k, k < tlen ? tlen - k : 0, "%s\\\"%s\\\"", nblk ? " " : "",
                              t->solvs[s]);
        nblk++;
    }
    return nblk;
}

/* The caption of problem p's figure: the first solver across the tolerance line, the others. */
static void convergence_caption(const cb_report_table *t, int p, FILE *md)
{
    int w = cb_report_winner(t, p), k = 0;
    fprintf(md, "\n*Look at where each curve crosses the dashed tolerance line: further left is "
                "better (right panel: time). ");
    if (w >= 0)
        fprintf(md, "First to solve: %s (%.2g s, %.0f iterations).", t->solvs[w],
                t->cells[p * t->ns + w].time, t->cells[p * t->ns + w].iterations);
    else
        fprintf(md, "No solver reaches it.");
    for (int s = 0; s < t->ns; s++) {
        const cb_report_cell *c = &t->cells[p * t->ns + s];
        if (c->present && !c->solved && !cb_report_unsupported(c))
            fprintf(md, "%s %s (%s)", k++ ? "," : " Not solved:", t->solvs[s],
                    cb_status_name(c->status));
    }
    fprintf(md, "%s*\n\n", k ? "." : "");
}

/* One figure per problem: every solver's trace at this tolerance; errors of exactly 0 drawn at
 * a floor a decade under the least positive error (and the tolerance). *drawn = 0: no trace. */
static int convergence_figure(const cb_report_ctx *x, const cb_report_table *t, int p, int ti,
                              int *drawn, cb_error *err)
{
    char data[4096], out[4096], vars[16384], a[4200], b[4200], titles[8192] = "", ttl[600];
    error_range r = {t->tol, 0, 0};
    snprintf(data, sizeof data, "%s/figures/conv-tol%d-p%d.dat", x->s->dir, ti, p);
    snprintf(out, sizeof out, "%s/figures/conv-tol%d-p%d", x->s->dir, ti, p);
    FILE *f = fopen(data, "w");
    if (!f)
        return cb_fail_at(err, CB_ERR_IO, data, 0, "cannot write: %s", strerror(errno));
    int nblk = convergence_data(x, t, p, f, titles, sizeof titles, &r);
    fclose(f);
    if (nblk == 0 || r.rows == 0)
        return CB_OK;
    *drawn = 1;
    snprintf(ttl, sizeof ttl, "Convergence on %s (%s, nc = %d), tol %.0e", t->probs[p],
             t->kinds[p], t->ncs[p], t->tol);
    gp_str(a, sizeof a, data);
    gp_str(b, sizeof b, out);
    if (snprintf(vars, sizeof vars,
                 "data=%s; out=%s; ttl='%s'; tol=%.17g; nblk=%d; titles=\"%s\"; zfloor=%.17g; "
                 "zeros=%d", a, b, ttl, t->tol, nblk, titles,
                 pow(10.0, floor(log10(r.least)) - 1), r.zeros) >= (int)sizeof vars)
        return cb_fail(err, CB_ERR_INPUT, "%s: path too long for gnuplot", out);
    return gnuplot(x, vars, "convergence.gp", err);
}

int cb_report_figures(const cb_report_ctx *x, const cb_report_table *t, int ti, FILE *md,
                      cb_error *err)
{
    int rc = CB_OK;
    fprintf(md, "\n#### Performance profiles\n\n");
    if (t->ncommon == 0)
        fprintf(md, "(none: no problem is supported by every solver)\n");
    for (int m = 0; m < 3 && rc == CB_OK && t->ncommon > 0; m++)
        rc = profile_figure(x, t, ti, m, md, err);
    fprintf(md, "\n#### Convergence (one figure per problem)\n\nResidual against iteration + 1 "
                "(left: iteration 0 is drawn at 1 on the log axis) and against time (right); an "
                "error of exactly 0 is drawn on the dotted line at the bottom.\n\n");
    int n = t->np < x->s->max_convergence ? t->np : x->s->max_convergence;
    for (int p = 0; p < n && rc == CB_OK; p++) {
        int drawn = 0;
        rc = convergence_figure(x, t, p, ti, &drawn, err);
        if (drawn)
            fprintf(md, "![%s](figures/conv-tol%d-p%d.png)\n", t->probs[p], ti, p);
        else
            fprintf(md, "(%s: no trace recorded, no figure; `trace on` in the campaign draws "
                        "one)\n", t->probs[p]);
        convergence_caption(t, p, md);
    }
    if (n < t->np)
        fprintf(md, "\n(%d more problems not drawn; raise max_convergence.)\n", t->np - n);
    return rc;
}
