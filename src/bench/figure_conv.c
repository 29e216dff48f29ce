/* conebench — the convergence figure, shared by `report` (one per problem) and `plot` (one
 * problem, solvers run on the spot): traces to a gnuplot data file, a fixed colour and marker
 * per solver label, untraced stretches drawn dotted, runs without a trace named in the caption;
 * drawn by the gnuplot driver (gnuplot.c). */
#include "report_internal.h"
#include "base.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SLUG_MAX 80           /* characters of a problem's name kept in a file name */
#define CAPTION_GAPS 3        /* untraced stretches named per solver in a caption */
#define CURVE_LIST 2048       /* bytes of a per-curve list passed to gnuplot (titles, colours) */
#define GP_PATH_Q CB_GP_QUOTED(4400) /* a quoted path of up to 4400 bytes */
#define FNV_OFFSET 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

/* Fixed styles of the known solvers: well-separated colours, each its own marker (gnuplot
 * point types: 4/5 square, 6/7 circle, 8/9 triangle, 10/11 inverted triangle, 12/13 diamond,
 * 14/15 pentagon, 1 +, 2 ×, 3 *). */
static const cb_figure_style known[] = {
    {"nsgs", "#1f77b4", 7},          {"nsgs-proj", "#17becf", 6},
    {"psor", "#8c564b", 9},          {"pfp", "#ff7f0e", 5},
    {"eg", "#bcbd22", 11},           {"apgd", "#e377c2", 13},
    {"admm", "#9467bd", 4},          {"nsn", "#d62728", 15},
    {"ipm", "#2ca02c", 8},           {"siconos-nsgs", "#000000", 6},
    {"siconos-nsgs-light", "#7f7f7f", 12}, {"siconos-admm", "#6a3d9a", 10},
    {"siconos-prox", "#00a08a", 14}, {"siconos-nsn-ac", "#a6761d", 2},
};

/* Colours and markers for other labels, picked by a hash of the label: colours at least 60
 * apart (RGB, 0..255 a channel) from each other and from the known solvers' (test_figures). */
static const char *const hash_colours[] = {"#0b3d91", "#ffd92f", "#f4a582", "#ff00ff", "#7a0019",
                                           "#c51b7d", "#1a1aff", "#ff6f61", "#556b2f", "#b2df8a"};
static const int hash_points[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* FNV-1a 64-bit hash of s: h ← (h ⊕ byte)·prime. */
static uint64_t fnv1a(const char *s)
{
    uint64_t h = FNV_OFFSET;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * FNV_PRIME;
    return h;
}

void cb_figure_style_of(const char *label, cb_figure_style *out)
{
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (!strcmp(known[i].label, label)) {
            *out = known[i];
            return;
        }
    uint64_t h = fnv1a(label);
    size_t nc = sizeof hash_colours / sizeof *hash_colours;
    size_t np = sizeof hash_points / sizeof *hash_points;
    out->label = label;
    snprintf(out->colour, sizeof out->colour, "%s", hash_colours[h % nc]);
    out->point = hash_points[(h / nc) % np];
}

void cb_figure_slug(const char *name, char *slug, size_t len)
{
    size_t k = 0;
    for (const char *s = name; *s && k + 1 < len && k < SLUG_MAX; s++) {
        unsigned char c = (unsigned char)*s;
        int safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '-' || c == '_' || (c == '.' && k > 0);
        slug[k++] = safe ? (char)c : '-';
    }
    if (k == 0 && len > 1)
        slug[k++] = 'p';
    slug[k] = '\0';
}

int cb_trace_load(const char *path, cb_trace_point **pts, int *n, cb_error *err)
{
    char line[256];
    int cap = 0, rc = CB_OK;
    *pts = NULL;
    *n = 0;
    FILE *in = fopen(path, "r");
    while (rc == CB_OK && in && fgets(line, sizeof line, in)) {
        cb_trace_point p;
        if (sscanf(line, "%d,%lf,%lf", &p.iteration, &p.time_s, &p.error) != 3 || !(p.error >= 0))
            continue; /* the header, a malformed or negative row */
        cb_trace_point *g = *n < cap ? *pts : realloc(*pts, (size_t)(cap = cap ? 2 * cap : 64) *
                                                                sizeof *g);
        if (g)
            *pts = g, (*pts)[(*n)++] = p;
        else
            rc = cb_fail_at(err, CB_ERR_NOMEM, path, 0, "out of memory reading the trace");
    }
    if (in)
        fclose(in);
    if (rc != CB_OK)
        free(*pts), *pts = NULL, *n = 0;
    return rc;
}

/* 1 when point k of c comes after iterations without a point (k ≥ 1). */
static int gap_before(const cb_conv_curve *c, int k)
{
    return c->pts[k].iteration > c->pts[k - 1].iteration + 1;
}

/* A curve's rows as "iteration time error", a blank line (a break in the line) before every
 * point whose iteration is not the next after the previous one's; the errors' range into *r. */
static void write_curve(FILE *f, const cb_conv_curve *c, cb_conv_range *r)
{
    for (int k = 0; k < c->n; k++) {
        const cb_trace_point *p = &c->pts[k];
        if (k > 0 && gap_before(c, k))
            fprintf(f, "\n");
        fprintf(f, "%d %.9g %.17g\n", p->iteration, p->time_s, p->error);
        r->least = p->error > 0 ? fmin(r->least, p->error) : r->least;
        r->least_time = p->time_s > 0 ? fmin(r->least_time, p->time_s) : r->least_time;
        r->zeros |= p->error == 0;
        r->rows++;
    }
}

/* The untraced stretches of a curve: each as its two ends, separated by a blank line (one
 * "nan" row when there is none, to keep the block numbering). Returns the stretches. */
static int write_gaps(FILE *f, const cb_conv_curve *c)
{
    int gaps = 0;
    for (int k = 1; k < c->n; k++) {
        const cb_trace_point *a = &c->pts[k - 1], *b = &c->pts[k];
        if (gap_before(c, k))
            fprintf(f, "%s%d %.9g %.17g\n%d %.9g %.17g\n", gaps++ ? "\n" : "", a->iteration,
                    a->time_s, a->error, b->iteration, b->time_s, b->error);
    }
    if (!gaps)
        fprintf(f, "0 nan nan\n");
    return gaps;
}

/* The figure's data: blocks 0..m-1 the traced curves, blocks m..2m-1 their untraced stretches;
 * the drawn labels' styles into colours, points and titles. Returns m. */
static int conv_data(FILE *f, const cb_conv_curve *c, int n, cb_conv_range *r, char *colours,
                     char *points, char *titles, size_t len)
{
    int m = 0;
    size_t kc = 0, kp = 0, kt = 0;
    for (int i = 0; i < n; i++) {
        if (c[i].n == 0)
            continue;
        cb_figure_style st;
        cb_figure_style_of(c[i].label, &st);
        fprintf(f, "%s# %s\n", m ? "\n\n" : "", c[i].label);
        write_curve(f, &c[i], r);
        kc += (size_t)snprintf(colours + kc, kc < len ? len - kc : 0, "%s%s", m ? " " : "",
                               st.colour);
        kp += (size_t)snprintf(points + kp, kp < len ? len - kp : 0, "%s%d", m ? " " : "",
                               st.point);
        kt += (size_t)snprintf(titles + kt, kt < len ? len - kt : 0, "%s\"%s\"", m ? " " : "",
                               c[i].label);
        m++;
    }
    for (int i = 0; i < n; i++)
        if (c[i].n > 0) {
            fprintf(f, "\n\n# %s: untraced stretches\n", c[i].label);
            write_gaps(f, &c[i]);
        }
    return m;
}

/* The drawn curves' block numbers, most points first (markers of sparse curves end on top of
 * dense ones), into order; *gaps = 1 when some curve has an untraced stretch. */
static void draw_order(const cb_conv_curve *c, int n, char *order, size_t len, int *gaps)
{
    int idx[CB_CONV_MAX_CURVES], m = 0;
    size_t k = 0;
    for (int i = 0; i < n && m < CB_CONV_MAX_CURVES; i++) {
        if (c[i].n == 0)
            continue;
        for (int j = 1; j < c[i].n; j++)
            *gaps |= gap_before(&c[i], j);
        idx[m++] = i;
    }
    for (int a = 1; a < m; a++) /* stable insertion sort by decreasing point count */
        for (int b = a; b > 0 && c[idx[b]].n > c[idx[b - 1]].n; b--) {
            int t = idx[b];
            idx[b] = idx[b - 1], idx[b - 1] = t;
        }
    for (int a = 0; a < m; a++) { /* block number = rank among the drawn curves */
        int blk = 0;
        for (int i = 0; i < idx[a]; i++)
            blk += c[i].n > 0;
        k += (size_t)snprintf(order + k, k < len ? len - k : 0, "%s%d", a ? " " : "", blk);
    }
}

int cb_conv_draw(const cb_conv_spec *sp, const cb_conv_curve *c, int n, int *drawn,
                 cb_error *err)
{
    char vars[24000], a[GP_PATH_Q], b[GP_PATH_Q], ttl[1400], qtitles[CB_GP_QUOTED(CURVE_LIST)];
    char colours[CURVE_LIST] = "", points[CURVE_LIST] = "", titles[CURVE_LIST] = "",
         order[CURVE_LIST] = "";
    int gaps = 0;
    cb_conv_range r = {sp->tol, INFINITY, 0, 0};
    *drawn = 0;
    if (n > CB_CONV_MAX_CURVES)
        return cb_fail(err, CB_ERR_INPUT, "a figure draws at most %d solvers, not %d",
                       CB_CONV_MAX_CURVES, n);
    FILE *f = fopen(sp->data, "w");
    if (!f)
        return cb_fail_at(err, CB_ERR_IO, sp->data, 0, "cannot write: %s", strerror(errno));
    int m = conv_data(f, c, n, &r, colours, points, titles, sizeof points);
    draw_order(c, n, order, sizeof order, &gaps);
    if (fclose(f) != 0)
        return cb_fail_at(err, CB_ERR_IO, sp->data, 0, "cannot write: %s", strerror(errno));
    if (m == 0 || r.rows == 0)
        return CB_OK;
    *drawn = 1;
    int rc = cb_gp_str(a, sizeof a, sp->data, sp->data, err);
    if (rc == CB_OK)
        rc = cb_gp_str(b, sizeof b, sp->out, sp->out, err);
    if (rc == CB_OK)
        rc = cb_gp_str(ttl, sizeof ttl, sp->title, "the figure's title", err);
    if (rc == CB_OK)
        rc = cb_gp_str(qtitles, sizeof qtitles, titles, "the solvers' labels", err);
    if (rc != CB_OK)
        return rc;
    if (snprintf(vars, sizeof vars,
             "data=%s; out=%s; ttl=%s; tol=%.17g; nblk=%d; titles=%s; colours=\"%s\"; "
             "points=\"%s\"; order=\"%s\"; gaps=%d; zfloor=%.17g; zeros=%d; tfloor=%.17g; "
             "terms='%s'",
             a, b, ttl, sp->tol, m, qtitles, colours, points, order, gaps,
             pow(10.0, floor(log10(r.least)) - 1), r.zeros,
             isfinite(r.least_time) ? pow(10.0, floor(log10(r.least_time)) - 1) : 1e-6,
             sp->terms) >= (int)sizeof vars)
        return cb_fail(err, CB_ERR_INPUT, "%s: path too long for gnuplot", sp->out);
    cb_gnuplot_job job = {sp->plots, "convergence.gp", vars, sp->log, sp->out, sp->batch};
    return cb_gnuplot(&job, err);
}

/* The untraced stretches of curve c in the caption (the first CAPTION_GAPS); *k counts the
 * solvers named so far. */
static void caption_gaps(const cb_conv_curve *c, FILE *md, int *k)
{
    int g = 0;
    for (int j = 1; j < c->n; j++) {
        if (!gap_before(c, j))
            continue;
        const cb_trace_point *a = &c->pts[j - 1], *b = &c->pts[j];
        if (g == 0)
            fprintf(md, "%s %s", (*k)++ ? ";" : " Dotted: iterations not traced (no point "
                                                "measured in between):", c->label);
        if (g < CAPTION_GAPS)
            fprintf(md, "%s %d–%d", g ? "," : "", a->iteration + 1, b->iteration - 1);
        g++;
    }
    if (g > CAPTION_GAPS)
        fprintf(md, " and %d more", g - CAPTION_GAPS);
}

void cb_conv_caption(const cb_conv_curve *c, int n, FILE *md)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        caption_gaps(&c[i], md, &k);
    fprintf(md, "%s", k ? "." : "");
    k = 0;
    for (int i = 0; i < n; i++)
        if (c[i].n == 0)
            fprintf(md, "%s %s (%s)", k++ ? "," : " No trace, not drawn:", c[i].label,
                    cb_status_name(c[i].status));
    fprintf(md, "%s", k ? "." : "");
}
