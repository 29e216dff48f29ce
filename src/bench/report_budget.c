/* conebench — fixed-budget error profiles: the error each solver has reached within a budget of
 * iterations and of seconds, the median over the problems on which every drawn solver left a
 * trace (DIR/traces/), its curve as CSV next to its figure (plots/budget_error.gp). */
#include "report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

#define BUDGET_POINTS 60 /* budgets of a curve, evenly spaced on the log axis */

/* The traces of the problems every traced solver of t has a trace on. */
typedef struct {
    int *cols, nc;       /* solvers with a trace on some common problem */
    int *probs, np;      /* common problems where each of them has one */
    cb_trace_point **pts; /* ncommon × ns traces (owned), cell k × ns + s */
    int *n;
    size_t ncells;        /* entries of pts */
} budget_set;

static void set_free(budget_set *b)
{
    for (size_t i = 0; b->pts && i < b->ncells; i++)
        free(b->pts[i]);
    free(b->pts);
    free(b->n);
    free(b->cols);
    free(b->probs);
}

/* Load cell (p, s)'s trace into *pts, *n (0: none). */
static int cell_trace(const cb_report_ctx *x, const cb_report_table *t, int p, int s,
                      cb_trace_point **pts, int *n, cb_error *err)
{
    char path[4200];
    const cb_report_cell *c = &t->cells[p * t->ns + s];
    *pts = NULL, *n = 0;
    if (!c->present || cb_report_unsupported(c))
        return CB_OK;
    snprintf(path, sizeof path, "%s/traces/%s.csv", x->s->dir, c->run_id);
    return cb_trace_load(path, pts, n, err);
}

/* Every (common problem, solver) trace into b (ncommon × ns), then the solvers with some trace
 * and the problems where each of those has one. */
static int set_build(const cb_report_ctx *x, const cb_report_table *t, budget_set *b,
                     cb_error *err)
{
    size_t m = (size_t)t->ncommon * t->ns + 1;
    memset(b, 0, sizeof *b);
    b->pts = calloc(m, sizeof *b->pts), b->n = calloc(m, sizeof *b->n);
    b->ncells = b->pts ? m : 0;
    b->cols = calloc((size_t)t->ns + 1, sizeof *b->cols);
    b->probs = calloc((size_t)t->ncommon + 1, sizeof *b->probs);
    int rc = b->pts && b->n && b->cols && b->probs ? CB_OK
                                                   : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    for (int k = 0; k < t->ncommon && rc == CB_OK; k++)
        for (int s = 0; s < t->ns && rc == CB_OK; s++)
            rc = cell_trace(x, t, t->common[k], s, &b->pts[k * t->ns + s], &b->n[k * t->ns + s],
                            err);
    for (int s = 0; s < t->ns && rc == CB_OK; s++) {
        int any = 0;
        for (int k = 0; k < t->ncommon; k++)
            any |= b->n[k * t->ns + s] > 0;
        if (any)
            b->cols[b->nc++] = s;
    }
    for (int k = 0; k < t->ncommon && rc == CB_OK; k++) {
        int all = b->nc > 0;
        for (int j = 0; j < b->nc; j++)
            all &= b->n[k * t->ns + b->cols[j]] > 0;
        if (all)
            b->probs[b->np++] = k;
    }
    b->nc = b->np ? b->nc : 0;
    return rc;
}

/* A trace point's budget: iteration + 1 (m = 0) or its time in seconds (m = 1). */
static double used(const cb_trace_point *q, int m)
{
    return m == 0 ? q->iteration + 1.0 : q->time_s;
}

/* The least error of the n points q within budget B: min{e_i : used_i ≤ B}, +inf when none. */
static double least_within(const cb_trace_point *q, int n, int m, double B)
{
    double e = INFINITY;
    for (int i = 0; i < n && used(&q[i], m) <= B; i++)
        e = fmin(e, q[i].error);
    return e;
}

static int cmp_dbl(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* Median over the set's problems of solver j's least error within B (NaN when the median
 * problem has no point yet); v holds np values. */
static double median_within(const cb_report_table *t, const budget_set *b, int j, int m, double B,
                            double *v)
{
    for (int i = 0; i < b->np; i++) {
        int cell = b->probs[i] * t->ns + b->cols[j];
        v[i] = least_within(b->pts[cell], b->n[cell], m, B);
    }
    qsort(v, (size_t)b->np, sizeof *v, cmp_dbl);
    double med = b->np % 2 ? v[b->np / 2] : 0.5 * (v[b->np / 2 - 1] + v[b->np / 2]);
    return isfinite(med) ? med : NAN;
}

/* The budgets' range: the least positive and the largest budget of any point (*lo ≤ *hi). */
static void budget_range(const cb_report_table *t, const budget_set *b, int m, double *lo,
                         double *hi)
{
    *lo = INFINITY, *hi = 0;
    for (int i = 0; i < b->np; i++)
        for (int j = 0; j < b->nc; j++) {
            int cell = b->probs[i] * t->ns + b->cols[j];
            for (int k = 0; k < b->n[cell]; k++) {
                double u = used(&b->pts[cell][k], m);
                *lo = u > 0 ? fmin(*lo, u) : *lo;
                *hi = fmax(*hi, u);
            }
        }
    *lo = isfinite(*lo) ? *lo : 1.0;
    *hi = fmax(*hi, *lo);
}

/* The curve's CSV: "budget,<solver>…", then the median error at BUDGET_POINTS budgets from lo
 * to hi, evenly spaced in log (B_i = lo (hi/lo)^(i/(N-1))). */
static int write_budget(const char *path, const cb_report_table *t, const budget_set *b, int m,
                        cb_error *err)
{
    double lo, hi, *v = malloc(((size_t)b->np + 1) * sizeof *v);
    FILE *f = v ? fopen(path, "w") : NULL;
    if (!f) {
        free(v);
        return v ? cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write: %s", strerror(errno))
                 : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    budget_range(t, b, m, &lo, &hi);
    fprintf(f, "%s", m == 0 ? "iterations" : "time_s");
    for (int j = 0; j < b->nc; j++)
        fprintf(f, ",\"%s\"", t->solvs[b->cols[j]]);
    for (int i = 0; i < BUDGET_POINTS; i++) {
        double B = lo * pow(hi / lo, i / (BUDGET_POINTS - 1.0));
        fprintf(f, "\n%.17g", i == BUDGET_POINTS - 1 ? hi : B);
        for (int j = 0; j < b->nc; j++)
            fprintf(f, ",%.6e", median_within(t, b, j, m, i == BUDGET_POINTS - 1 ? hi : B, v));
    }
    fprintf(f, "\n");
    free(v);
    return fclose(f) == 0 ? CB_OK
                          : cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
}

/* The figure of budget kind m (0 iterations, 1 seconds): CSV, gnuplot (queued), link. */
static int budget_figure(const cb_report_ctx *x, const cb_report_table *t, const budget_set *b,
                         const char *tag, int m, FILE *md, cb_error *err)
{
    static const char *const name[2] = {"iterations", "time"};
    char data[4096], out[4096], a[CB_GP_QUOTED(4096)], o[CB_GP_QUOTED(4096)], ttl[256],
         q[CB_GP_QUOTED(256)], colours[2048], vars[12288];
    snprintf(data, sizeof data, "%s/figures/budget-%s-%s.csv", x->s->dir, name[m], tag);
    snprintf(out, sizeof out, "%s/figures/budget-%s-%s", x->s->dir, name[m], tag);
    snprintf(ttl, sizeof ttl, "Error within a budget of %s, tol %.0e: median over %d traced %s",
             name[m], t->tol, b->np, cb_report_problem_word(t, b->np));
    cb_report_colours(t, b->cols, b->nc, colours, sizeof colours);
    int rc = write_budget(data, t, b, m, err);
    if (rc == CB_OK && (rc = cb_gp_str(a, sizeof a, data, data, err)) == CB_OK &&
        (rc = cb_gp_str(o, sizeof o, out, out, err)) == CB_OK)
        rc = cb_gp_str(q, sizeof q, ttl, "the figure's title", err);
    if (rc == CB_OK &&
        snprintf(vars, sizeof vars, "data=%s; out=%s; ttl=%s; ncol=%d; tol=%.17g; colours=\"%s\"; "
                 "powers=%d; xlab='%s'", a, o, q, b->nc + 1, t->tol, colours, m,
                 m == 0 ? "budget: iterations + 1 (log)" : "budget: time [s] (log)") >=
            (int)sizeof vars)
        rc = cb_fail(err, CB_ERR_INPUT, "%s: path too long for gnuplot", out);
    if (rc == CB_OK)
        rc = cb_report_gnuplot(x, vars, "budget_error.gp", out, err);
    if (rc == CB_OK)
        fprintf(md, "![error within a budget of %s](figures/budget-%s-%s.png)\n", name[m],
                name[m], tag);
    return rc;
}

int cb_report_budget_profiles(const cb_report_ctx *x, const cb_report_table *t, const char *tag,
                              FILE *md, cb_error *err)
{
    budget_set b;
    int rc = set_build(x, t, &b, err);
    fprintf(md, "\n#### Error within a fixed budget\n\n");
    if (rc == CB_OK && b.np == 0)
        fprintf(md, "(none: no problem has a trace of every traced solver; `trace on` in the "
                    "campaign records them)\n");
    for (int m = 0; m < 2 && rc == CB_OK && b.np > 0; m++)
        rc = budget_figure(x, t, &b, tag, m, md, err);
    if (rc == CB_OK && b.np > 0)
        fprintf(md, "\n*The least error_data each solver has reached within a budget of "
                    "iterations (left figure) and of seconds (right figure; the trace's times), "
                    "the median over the %d of %d problems on which every drawn solver left a "
                    "trace; a curve starts where it has a point on more than half of them. Lower "
                    "at a budget is better; the dashed line is the tolerance. Data: "
                    "figures/budget-iterations-%s.csv, figures/budget-time-%s.csv.*\n\n",
                b.np, t->np, tag, tag);
    set_free(&b);
    return rc;
}
