/* conebench — report profiles over budgets: the Moré–Wild data profile (share of problems each
 * solver solves within a budget of W-products), its curve written as CSV next to its figure
 * (plots/data_profile.gp); the time per contact of each solver. */
#include "report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "markdown.h"

#define DATA_MARGIN 1.25 /* the budget axis runs from the least budget / this to the largest × it */
#define PER_CONTACT_MIN 3 /* solved runs a time-per-contact median needs */

int cb_report_gnuplot(const cb_report_ctx *x, const char *vars, const char *script,
                      const char *out, cb_error *err)
{
    char log[4096];
    snprintf(log, sizeof log, "%s/figures/%s", x->s->dir, CB_REPORT_GNUPLOT_LOG);
    cb_gnuplot_job job = {x->plots, script, vars, log, out, x->batch};
    return cb_gnuplot(&job, err);
}

int cb_report_work_columns(const cb_report_table *t, int *cols)
{
    int n = 0;
    for (int s = 0; s < t->ns; s++) {
        int filled = 0;
        for (int p = 0; p < t->np; p++)
            filled |= t->cells[p * t->ns + s].work_filled;
        if (filled)
            cols[n++] = s;
    }
    return n;
}

void cb_report_colours(const cb_report_table *t, const int *cols, int nc, char *buf, size_t len)
{
    size_t kc = 0;
    buf[0] = '\0';
    for (int j = 0; j < nc; j++) {
        cb_figure_style st;
        cb_figure_style_of(t->solvs[cols[j]], &st);
        kc += (size_t)snprintf(buf + kc, kc < len ? len - kc : 0, "%s%s", j ? " " : "",
                               st.colour);
    }
}

/* Budget of a cell: block products per contact, k = max(work, 1) / nc; +inf when not solved. */
static double budget_of(const cb_report_cell *c, int nc)
{
    if (!c->present || !c->solved)
        return INFINITY;
    return fmax(c->work, 1.0) / (nc > 0 ? nc : 1);
}

static int cmp_dbl(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* The distinct finite values of b[0..n) sorted into ks; returns their count. */
static size_t distinct_budgets(const double *b, size_t n, double *ks)
{
    size_t k = 0, m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(b[i]))
            ks[k++] = b[i];
    qsort(ks, k, sizeof *ks, cmp_dbl);
    for (size_t i = 0; i < k; i++)
        if (m == 0 || ks[i] != ks[m - 1])
            ks[m++] = ks[i];
    return m;
}

/* d_s(k) = |{p : budget_{p,s} ≤ k}| / np: the share of np problems solver j solves within k. */
static double data_share(const double *b, int np, int nc, int j, double k)
{
    int n = 0;
    for (int p = 0; p < np; p++)
        n += b[(size_t)p * nc + j] <= k;
    return np > 0 ? (double)n / np : 0.0;
}

/* The curve's rows: "k,<solver>…", a row at the left edge, one at every budget, one at the
 * right edge. */
static void write_data(FILE *f, const cb_report_table *t, const int *cols, int nc,
                       const double *b, const double *ks, size_t nk)
{
    double edge[2] = {ks[0] / DATA_MARGIN, ks[nk - 1] * DATA_MARGIN};
    fprintf(f, "k");
    for (int j = 0; j < nc; j++)
        fprintf(f, ",\"%s\"", t->solvs[cols[j]]);
    for (size_t i = 0; i < nk + 2; i++) {
        double k = i == 0 ? edge[0] : i == nk + 1 ? edge[1] : ks[i - 1];
        fprintf(f, "\n%.17g", k);
        for (int j = 0; j < nc; j++)
            fprintf(f, ",%.6f", data_share(b, t->ncommon, nc, j, k));
    }
    fprintf(f, "\n");
}

/* The figure of the data in data (gnuplot, queued). */
static int data_plot(const cb_report_ctx *x, const cb_report_table *t, const int *cols, int nc,
                     const char *data, const char *out, double xmin, double xmax, cb_error *err)
{
    char vars[12288], a[CB_GP_QUOTED(4096)], o[CB_GP_QUOTED(4096)], ttl[256],
         q[CB_GP_QUOTED(256)], colours[2048];
    snprintf(ttl, sizeof ttl, "Data profile (work), tol %.0e, %d %s", t->tol, t->ncommon,
             cb_report_problem_word(t, t->ncommon));
    cb_report_colours(t, cols, nc, colours, sizeof colours);
    int rc = cb_gp_str(a, sizeof a, data, data, err);
    if (rc == CB_OK)
        rc = cb_gp_str(o, sizeof o, out, out, err);
    if (rc == CB_OK)
        rc = cb_gp_str(q, sizeof q, ttl, "the profile's title", err);
    if (rc != CB_OK)
        return rc;
    if (snprintf(vars, sizeof vars,
                 "data=%s; out=%s; ttl=%s; ncol=%d; xmin=%.17g; xmax=%.17g; colours=\"%s\"; "
                 "xlab='budget k: d×d block × vector products with W per contact (log)'",
                 a, o, q, nc + 1, xmin, xmax, colours) >= (int)sizeof vars)
        return cb_fail(err, CB_ERR_INPUT, "%s: path too long for gnuplot", out);
    return cb_report_gnuplot(x, vars, "data_profile.gp", out, err);
}

/* The caption: what to read, the solver with the most problems at the median budget. */
static void data_caption(const cb_report_table *t, const int *cols, int nc, const double *b,
                         const double *ks, size_t nk, FILE *md)
{
    double mid = ks[nk / 2];
    int best = 0;
    for (int j = 1; j < nc; j++)
        if (data_share(b, t->ncommon, nc, j, mid) > data_share(b, t->ncommon, nc, best, mid))
            best = j;
    fprintf(md, "\n*Data profile (Moré–Wild): the share of the %d problems a solver solves "
                "within a budget of k block products per contact (its work counter divided by "
                "nc; a failed run never counts). Read a vertical line: at k = %.3g the most "
                "problems are solved by %s (%.2f). The curve's data: figures/data-work-tol*.csv "
                "(columns k and one share per solver).*\n\n",
            t->ncommon, mid, t->solvs[cols[best]], data_share(b, t->ncommon, nc, best, mid));
}

/* Budgets of the common problems into b (ncommon × nc); the sorted distinct ones into ks. */
static size_t data_budgets(const cb_report_table *t, const int *cols, int nc, double *b,
                           double *ks)
{
    for (int k = 0; k < t->ncommon; k++) {
        int p = t->common[k];
        for (int j = 0; j < nc; j++)
            b[(size_t)k * nc + j] = budget_of(&t->cells[p * t->ns + cols[j]], t->ncs[p]);
    }
    return distinct_budgets(b, (size_t)t->ncommon * nc, ks);
}

int cb_report_data_profile(const cb_report_ctx *x, const cb_report_table *t, const char *tag, FILE *md,
                           cb_error *err)
{
    size_t cells = (size_t)t->ncommon * t->ns + 1, nk = 0;
    double *b = malloc(cells * sizeof *b), *ks = malloc(cells * sizeof *ks);
    int *cols = malloc(((size_t)t->ns + 1) * sizeof *cols), nc = 0;
    char data[4096], out[4096];
    int rc = b && ks && cols ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    snprintf(data, sizeof data, "%s/figures/data-work-%s.csv", x->s->dir, tag);
    snprintf(out, sizeof out, "%s/figures/data-work-%s", x->s->dir, tag);
    if (rc == CB_OK && (nc = cb_report_work_columns(t, cols)) > 0)
        nk = data_budgets(t, cols, nc, b, ks);
    if (rc == CB_OK && nk == 0)
        fprintf(md, "\n(no data profile: no solver with work counters solved a problem)\n");
    FILE *f = rc == CB_OK && nk > 0 ? fopen(data, "w") : NULL;
    if (rc == CB_OK && nk > 0 && !f)
        rc = cb_fail_at(err, CB_ERR_IO, data, 0, "cannot write: %s", strerror(errno));
    if (f) {
        write_data(f, t, cols, nc, b, ks, nk);
        rc = fclose(f) == 0 ? CB_OK
                            : cb_fail_at(err, CB_ERR_IO, data, 0, "cannot write: %s", strerror(errno));
        if (rc == CB_OK)
            rc = data_plot(x, t, cols, nc, data, out, ks[0] / DATA_MARGIN,
                           ks[nk - 1] * DATA_MARGIN, err);
        fprintf(md, "![data profile work](figures/data-work-%s.png)\n", tag);
        data_caption(t, cols, nc, b, ks, nk, md);
    }
    free(b);
    free(ks);
    free(cols);
    return rc;
}

/* The median of v[0..n) (sorted in place); NaN when n = 0. */
static double median(double *v, int n)
{
    if (n == 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Solver s's time per contact, t_p / nc_p over its solved problems, into v; returns how many. */
static int per_contact(const cb_report_table *t, int s, double *v)
{
    int n = 0;
    for (int p = 0; p < t->np; p++) {
        const cb_report_cell *c = &t->cells[p * t->ns + s];
        if (c->present && c->solved && t->ncs[p] > 0)
            v[n++] = c->time / t->ncs[p];
    }
    return n;
}

int cb_report_time_per_contact(const cb_report_table *t, FILE *md)
{
    static const char *const head[] = {"solver", "solved runs", "median [µs]", "min [µs]",
                                       "max [µs]"};
    double *v = malloc(((size_t)t->np + 1) * sizeof *v);
    if (!v)
        return CB_ERR_NOMEM;
    fprintf(md, "\n#### Time per contact\n\nA solved run's time divided by its number of "
                "contacts nc, over the problems the solver solved (time: median over "
                "repetitions); — when it solved fewer than %d.\n\n", PER_CONTACT_MIN);
    cb_md_head(md, 5, head, "lrrrr");
    for (int s = 0; s < t->ns; s++) {
        int n = per_contact(t, s, v);
        double m = median(v, n);
        cb_md_cell(md, t->solvs[s]);
        cb_md_cellf(md, "%d", n);
        if (n >= PER_CONTACT_MIN) {
            cb_md_cellf(md, "%.3g", 1e6 * m);
            cb_md_cellf(md, "%.3g", 1e6 * v[0]);
            cb_md_cellf(md, "%.3g", 1e6 * v[n - 1]);
        } else
            for (int i = 0; i < 3; i++)
                cb_md_cell(md, "—");
        cb_md_end(md);
    }
    free(v);
    return CB_OK;
}
