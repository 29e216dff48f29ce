/* conebench — report figures: Dolan–Moré performance profiles and convergence curves, drawn by
 * gnuplot (plots/profile.gp, plots/convergence.gp) with a caption saying what to look at. */
#include "report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "base.h"

#define PROFILE_MARGIN 1.25   /* the x-range ends at this factor past the last step of ρ */
#define PROFILE_MIN_XMAX 2.0  /* ... and not before τ = 2 (all ties: every step at τ = 1) */
#define MIN_TIME_S 1e-9       /* times are floored here before ratios (a 0 s cell) */

/* What a profile measures: the caption's name, the file name part, what is counted (axis). */
static const struct {
    const char *what, *file, *counted;
} measures[3] = {{"time", "time", "time: seconds, median over repetitions"},
                 {"iterations", "iterations", "iterations: outer ones, sweeps for nsgs and psor"},
                 {"work", "work", "work: d×d block × vector products with W"}};
enum { MEASURE_WORK = 2 };


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
    if (m == MEASURE_WORK)
        return cb_report_work_columns(t, cols);
    for (int s = 0; s < t->ns; s++)
        cols[s] = s;
    return t->ns;
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
static int profile_plot(const cb_report_ctx *x, const cb_report_table *t, const int *cols,
                        const char *tag, int m, int nc, double xmax, cb_error *err)
{
    char data[4096], out[4096], vars[20480], a[CB_GP_QUOTED(4096)], b[CB_GP_QUOTED(4096)],
         ttl[512], q[CB_GP_QUOTED(512)],
         colours[2048] = "";
    snprintf(data, sizeof data, "%s/figures/profile-%s-%s.csv", x->s->dir, measures[m].file, tag);
    snprintf(out, sizeof out, "%s/figures/profile-%s-%s", x->s->dir, measures[m].file, tag);
    int k = snprintf(ttl, sizeof ttl, "Performance profile (%s), tol %.0e, %d %s",
                     measures[m].what, t->tol, t->ncommon, cb_report_problem_word(t, t->ncommon));
    if (t->ncommon < t->np)
        snprintf(ttl + k, sizeof ttl - (size_t)k, " (%d excluded: unsupported by a solver)",
                 t->np - t->ncommon);
    cb_report_colours(t, cols, nc, colours, sizeof colours);
    int rc = cb_gp_str(a, sizeof a, data, data, err);
    if (rc == CB_OK)
        rc = cb_gp_str(b, sizeof b, out, out, err);
    if (rc == CB_OK)
        rc = cb_gp_str(q, sizeof q, ttl, "the profile's title", err);
    if (rc != CB_OK)
        return rc;
    if (snprintf(vars, sizeof vars,
                 "data=%s; out=%s; ttl=%s; what='%s'; counted='%s'; ncol=%d; xmax=%.17g; "
                 "colours=\"%s\"",
                 a, b, q, measures[m].what, measures[m].counted, nc + 1, xmax,
                 colours) >= (int)sizeof vars)
        return cb_fail(err, CB_ERR_INPUT, "%s: path too long for gnuplot", out);
    return cb_report_gnuplot(x, vars, "profile.gp", out, err);
}

/* Write the profile data (exact steps at every ratio), plot it, link and caption it in md. */
static int profile_figure(const cb_report_ctx *x, const cb_report_table *t, const char *tag, int m,
                          FILE *md, cb_error *err)
{
    size_t cells = (size_t)t->ncommon * t->ns;
    double *cost = malloc((cells + 1) * sizeof *cost), *ratio = malloc((cells + 1) * sizeof *ratio),
           *taus = malloc((cells + 3) * sizeof *taus);
    int *cols = malloc(((size_t)t->ns + 1) * sizeof *cols), nc = 0;
    char data[4096];
    int rc = cost && ratio && taus && cols ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    snprintf(data, sizeof data, "%s/figures/profile-%s-%s.csv", x->s->dir, measures[m].file, tag);
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
        rc = profile_plot(x, t, cols, tag, m, nc, taus[nt - 1], err);
        fprintf(md, "![profile %s](figures/profile-%s-%s.png)\n", measures[m].what,
                measures[m].file, tag);
        profile_caption(t, cols, nc, ratio, m, md);
    }
    free(cost);
    free(ratio);
    free(taus);
    free(cols);
    return rc;
}

/* The caption of problem p's figure: the first solver across the tolerance line, the others,
 * the untraced stretches and the runs without a trace. */
static void convergence_caption(const cb_report_table *t, int p, const cb_conv_curve *c, int n,
                                FILE *md)
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
    fprintf(md, "%s", k ? "." : "");
    cb_conv_caption(c, n, md);
    fprintf(md, "*\n\n");
}

/* The file name (no extension) of problem p's figure at tolerance t->tol (%g: distinct
 * tolerances, distinct names): conv-tol<tol>-<slug>, with "~p<number>" after the slug when
 * another problem has the same slug ('~' is never in a slug: the names stay unique). */
static void convergence_name(const cb_report_table *t, int p, char *name, size_t len)
{
    char slug[128], other[128];
    cb_figure_slug(t->probs[p], slug, sizeof slug);
    int clash = 0;
    for (int q = 0; q < t->np && !clash; q++) {
        cb_figure_slug(t->probs[q], other, sizeof other);
        clash = q != p && !strcmp(slug, other);
    }
    if (clash)
        snprintf(name, len, "conv-tol%g-%s~p%d", t->tol, slug, p);
    else
        snprintf(name, len, "conv-tol%g-%s", t->tol, slug);
}

/* Problem p's curves (one per run, unsupported pairs left out): traces loaded into c (each
 * pts owned), their number into *n. */
static int convergence_curves(const cb_report_ctx *x, const cb_report_table *t, int p,
                              cb_conv_curve *c, int *n, cb_error *err)
{
    char path[4200];
    int rc = CB_OK;
    *n = 0;
    for (int s = 0; s < t->ns && rc == CB_OK; s++) {
        const cb_report_cell *cell = &t->cells[p * t->ns + s];
        if (!cell->present || cb_report_unsupported(cell)) /* no run, no trace */
            continue;
        cb_trace_point *pts = NULL;
        int np = 0;
        snprintf(path, sizeof path, "%s/traces/%s.csv", x->s->dir, cell->run_id);
        rc = cb_trace_load(path, &pts, &np, err);
        c[(*n)++] = (cb_conv_curve){t->solvs[s], cell->status, pts, np};
    }
    return rc;
}

/* One figure per problem: every solver's trace at this tolerance, linked and captioned in md. */
static int convergence_figure(const cb_report_ctx *x, const cb_report_table *t, int p, FILE *md,
                              cb_error *err)
{
    char name[256], data[4400], out[4400], log[4200], ttl[600];
    cb_conv_curve *c = cb_calloc((size_t)t->ns + 1, sizeof *c);
    if (!c)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    int n = 0, drawn = 0, rc = convergence_curves(x, t, p, c, &n, err);
    convergence_name(t, p, name, sizeof name);
    snprintf(data, sizeof data, "%s/figures/%s.dat", x->s->dir, name);
    snprintf(out, sizeof out, "%s/figures/%s", x->s->dir, name);
    snprintf(log, sizeof log, "%s/figures/%s", x->s->dir, CB_REPORT_GNUPLOT_LOG);
    snprintf(ttl, sizeof ttl, "Convergence on %s (%s, nc = %d), tol %g", t->probs[p],
             t->kinds[p], t->ncs[p], t->tol);
    cb_conv_spec sp = {x->plots, log, data, out, "pngcairo svg", ttl, t->tol, x->batch};
    if (rc == CB_OK)
        rc = cb_conv_draw(&sp, c, n, &drawn, err);
    if (drawn)
        fprintf(md, "![%s](figures/%s.png)\n", t->probs[p], name);
    else
        fprintf(md, "(%s: no trace recorded, no figure; `trace on` in the campaign draws one)\n",
                t->probs[p]);
    convergence_caption(t, p, c, n, md);
    for (int i = 0; i < n; i++)
        free((void *)c[i].pts);
    free(c);
    return rc;
}

/* Every profile of table t over its common problems (file names tagged tag). */
static int profiles(const cb_report_ctx *x, const cb_report_table *t, const char *tag, FILE *md,
                    cb_error *err)
{
    int rc = CB_OK;
    for (int m = 0; m < 3 && rc == CB_OK; m++)
        rc = profile_figure(x, t, tag, m, md, err);
    if (rc == CB_OK)
        rc = cb_report_data_profile(x, t, tag, md, err);
    if (rc == CB_OK)
        rc = cb_report_budget_profiles(x, t, tag, md, err);
    return rc;
}

/* 1 when solver label takes every problem of cone kind `kind` at tol in res (no row of that kind
 * refused as unsupported) and has some row of it. */
static int takes_kind(const cb_results *res, double tol, const char *kind, const char *label)
{
    int some = 0;
    for (int i = 0; i < res->nrows; i++) {
        const cb_result *r = &res->rows[i];
        if (r->tol != tol || strcmp(r->kind, kind) || strcmp(r->label, label))
            continue;
        if (r->status == CB_STATUS_UNSUPPORTED)
            return 0;
        some = 1;
    }
    return some;
}

/* The profiles of one cone kind: its problems and the solvers that take all of them, as a table
 * of its own (drawn with at least one problem and two solvers). */
static int kind_profile(const cb_report_ctx *x, const cb_report_table *t, int ti,
                        const char *kind, FILE *md, cb_error *err)
{
    cb_results view = {malloc(((size_t)x->res.nrows + 1) * sizeof *view.rows), 0, 0, 0};
    cb_report_table sub;
    char tag[64];
    if (!view.rows)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    for (int i = 0; i < x->res.nrows; i++) {
        const cb_result *r = &x->res.rows[i];
        if (r->tol == t->tol && !strcmp(r->kind, kind) && takes_kind(&x->res, t->tol, kind, r->label))
            view.rows[view.nrows++] = *r;
    }
    int rc = cb_report_table_build(&view, t->tol, &sub);
    if (rc == CB_OK && sub.ncommon > 0 && sub.ns >= 2) {
        snprintf(tag, sizeof tag, "tol%d-%s", ti, kind);
        fprintf(md, "\n##### Profiles on the %s problems (%d of them, %d solvers that take them "
                    "all)\n\n", kind, sub.ncommon, sub.ns);
        rc = profiles(x, &sub, tag, md, err);
    }
    if (rc == CB_OK && (sub.ncommon == 0 || sub.ns < 2))
        fprintf(md, "\n(%s problems: fewer than two solvers take them all, no profile)\n", kind);
    cb_report_table_free(&sub);
    free(view.rows);
    return rc == CB_ERR_NOMEM ? cb_fail(err, rc, "out of memory") : rc;
}

/* When some solver refuses some problem of a table holding several cone kinds: the profiles of
 * each kind (never over an empty set). */
static int kind_profiles(const cb_report_ctx *x, const cb_report_table *t, int ti, FILE *md,
                         cb_error *err)
{
    int rc = CB_OK, nkinds = 0;
    for (int p = 0; p < t->np; p++)
        nkinds += cb_report_index_of(t->kinds, p, t->kinds[p]) < 0;
    if (t->ncommon == t->np || nkinds < 2)
        return CB_OK;
    for (int p = 0; p < t->np && rc == CB_OK; p++)
        if (cb_report_index_of(t->kinds, p, t->kinds[p]) < 0) /* each kind once */
            rc = kind_profile(x, t, ti, t->kinds[p], md, err);
    return rc;
}

int cb_report_figures(const cb_report_ctx *x, const cb_report_table *t, int ti, FILE *md,
                      cb_error *err)
{
    char tag[32];
    int rc = CB_OK;
    snprintf(tag, sizeof tag, "tol%d", ti);
    fprintf(md, "\n#### Performance profiles\n\n");
    if (t->ncommon == 0)
        fprintf(md, "(none over all problems: no problem is supported by every solver)\n");
    if (t->ncommon > 0)
        rc = profiles(x, t, tag, md, err);
    if (rc == CB_OK)
        rc = kind_profiles(x, t, ti, md, err);
    fprintf(md, "\n#### Convergence (one figure per problem)\n\nThe trace's error against "
                "iteration + 1 (left: iteration 0 is drawn at 1 on the log axis) and against "
                "time (right: a time of 0 is drawn at the left edge); a marker at every traced "
                "point, a solver's colour and marker the same in every report; a line only "
                "between consecutive iterations (a dotted one across iterations not traced); an "
                "error of exactly 0 is drawn on the dash-dotted gray line at the bottom.\n\n");
    int n = t->np < x->s->max_convergence ? t->np : x->s->max_convergence;
    for (int p = 0; p < n && rc == CB_OK; p++)
        rc = convergence_figure(x, t, p, md, err);
    if (n < t->np)
        fprintf(md, "\n(%d more problems not drawn; raise max_convergence.)\n", t->np - n);
    return rc;
}
