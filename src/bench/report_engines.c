/* conebench — the game-engine section of a report: when engine solvers (bullet-*, dart-*) are
 * in the campaign, every solver's exact-cone error (error_data) and cone violation (runs.csv's
 * gap columns, judge_gap.h) per set of problems: the data files, and the random problems of
 * each μ (a generate line's mu=, in the problem's name); a table, and a figure against μ
 * (plots/engines.gp). Rows of the tightest tolerance, every repetition. */
#include "report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "markdown.h"
#include "metrics.h"
#include "base.h"

#define ENG_MAX_SOLVERS 64  /* solvers the section shows (as the convergence figures) */
#define ENG_MAX_SETS 32     /* problem sets: the data files, then one per μ */
#define ENG_DATA_SET (-1.0) /* the μ key of the data files' set */
#define ENG_ZERO_FLOOR 1e-17 /* where a violation of exactly 0 is drawn (log axis) */
#define ENG_MU_TAG "-mu"    /* generated names: random-KIND-ncN-MATRIX-muX-sS (campaign.c) */

static const char *const engine_prefix[] = {"bullet-", "dart-"};

static int is_engine(const char *solver)
{
    for (size_t i = 0; i < sizeof engine_prefix / sizeof *engine_prefix; i++)
        if (!strncmp(solver, engine_prefix[i], strlen(engine_prefix[i])))
            return 1;
    return 0;
}

/* The μ of a generated problem's name (mu= of its generate line), ENG_DATA_SET otherwise. */
static double mu_of(const char *problem)
{
    const char *at = strncmp(problem, "random-", 7) ? NULL : strstr(problem, ENG_MU_TAG);
    char *end = NULL;
    double mu = at ? strtod(at + strlen(ENG_MU_TAG), &end) : ENG_DATA_SET;
    return at && end && !strncmp(end, "-s", 2) && mu >= 0 ? mu : ENG_DATA_SET;
}

/* The section's solvers (labels, in row order) and sets (data first, then μ increasing). */
typedef struct {
    const char *labels[ENG_MAX_SOLVERS];
    double sets[ENG_MAX_SETS];
    int nl, ns;
} eng_axes;

static int cmp_dbl(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

static void axes_of(const cb_results *r, double tol, eng_axes *ax)
{
    memset(ax, 0, sizeof *ax);
    for (int i = 0; i < r->nrows; i++) {
        const cb_result *w = &r->rows[i];
        if (w->tol != tol || w->sequence[0])
            continue;
        if (ax->nl < ENG_MAX_SOLVERS && cb_report_index_of(ax->labels, ax->nl, w->label) < 0)
            ax->labels[ax->nl++] = w->label;
        double mu = mu_of(w->problem);
        int known = 0;
        for (int k = 0; k < ax->ns; k++)
            known |= ax->sets[k] == mu;
        if (!known && ax->ns < ENG_MAX_SETS)
            ax->sets[ax->ns++] = mu;
    }
    qsort(ax->sets, (size_t)ax->ns, sizeof *ax->sets, cmp_dbl); /* ENG_DATA_SET (−1) first */
}

/* The runs of label on set mu that have a measure: counts, medians and maxima. */
typedef struct {
    int runs, solved;
    double err_med, err_max, viol_med, viol_max, angle_max;
    int positive;
} eng_cell;

/* max of x[0..n) (NaN when n = 0). */
static double max_of(const double *x, int n)
{
    double m = NAN;
    for (int i = 0; i < n; i++)
        m = i ? fmax(m, x[i]) : x[i];
    return m;
}

static void cell_of(const cb_results *r, double tol, const char *label, double mu, double *err,
                    double *viol, eng_cell *c)
{
    memset(c, 0, sizeof *c);
    c->angle_max = NAN;
    for (int i = 0; i < r->nrows; i++) {
        const cb_result *w = &r->rows[i];
        if (w->tol != tol || w->sequence[0] || strcmp(w->label, label) ||
            mu_of(w->problem) != mu || isnan(w->gap.cone_violation))
            continue;
        err[c->runs] = w->error_data;
        viol[c->runs++] = w->gap.cone_violation;
        c->solved += w->solved;
        c->positive += w->gap.positive_work > 0 ? w->gap.positive_work : 0;
        if (!isnan(w->gap.angle_max))
            c->angle_max = isnan(c->angle_max) ? w->gap.angle_max : fmax(c->angle_max,
                                                                         w->gap.angle_max);
    }
    c->err_med = cb_median(err, c->runs);
    c->err_max = max_of(err, c->runs);
    c->viol_med = cb_median(viol, c->runs);
    c->viol_max = max_of(viol, c->runs);
}

static void set_name(double mu, char *buf, size_t len)
{
    if (mu == ENG_DATA_SET)
        snprintf(buf, len, "data files");
    else
        snprintf(buf, len, "random, μ = %g", mu);
}

/* The table: one line per (set, solver) with runs. */
static void engines_table(const cb_results *r, double tol, const eng_axes *ax, double *err,
                          double *viol, FILE *md)
{
    static const char *const head[9] = {
        "problems", "solver", "runs", "solved", "error_data median", "error_data max",
        "cone violation median", "cone violation max", "angle max [deg]"};
    cb_md_head(md, 9, head, "llrrrrrrr");
    for (int k = 0; k < ax->ns; k++)
        for (int s = 0; s < ax->nl; s++) {
            eng_cell c;
            char name[64];
            cell_of(r, tol, ax->labels[s], ax->sets[k], err, viol, &c);
            if (c.runs == 0)
                continue;
            set_name(ax->sets[k], name, sizeof name);
            cb_md_cell(md, name);
            cb_md_cell(md, ax->labels[s]);
            cb_md_cellf(md, "%d", c.runs);
            cb_md_cellf(md, "%d", c.solved);
            cb_md_cellf(md, "%.3e", c.err_med);
            cb_md_cellf(md, "%.3e", c.err_max);
            cb_md_cellf(md, "%.3e", c.viol_med);
            cb_md_cellf(md, "%.3e", c.viol_max);
            if (isnan(c.angle_max))
                cb_md_cell(md, "—");
            else
                cb_md_cellf(md, "%.1f", c.angle_max);
            cb_md_end(md);
        }
}

/* The figure's data: one block per solver (mu, error_data median, violation median, error_data
 * max, violation max; a 0 drawn at ENG_ZERO_FLOOR), two blank lines between blocks; colours and
 * titles as gnuplot word lists. *blocks: blocks written. */
static int figure_data(const char *path, const cb_results *r, double tol, const eng_axes *ax,
                       double *err, double *viol, char *titles, char *colours, size_t len,
                       int *blocks, cb_error *e)
{
    FILE *f = fopen(path, "w");
    size_t kt = 0, kc = 0;
    if (!f)
        return cb_fail_at(e, CB_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
    *blocks = 0;
    titles[0] = colours[0] = '\0';
    for (int s = 0; s < ax->nl; s++) {
        int rows = 0;
        for (int k = 0; k < ax->ns; k++) {
            eng_cell c;
            if (ax->sets[k] == ENG_DATA_SET)
                continue;
            cell_of(r, tol, ax->labels[s], ax->sets[k], err, viol, &c);
            if (c.runs == 0)
                continue;
            fprintf(f, "%s%.17g,%.17g,%.17g,%.17g,%.17g\n", rows++ ? "" : (*blocks ? "\n\n" : ""),
                    ax->sets[k], fmax(c.err_med, ENG_ZERO_FLOOR), fmax(c.viol_med, ENG_ZERO_FLOOR),
                    fmax(c.err_max, ENG_ZERO_FLOOR), fmax(c.viol_max, ENG_ZERO_FLOOR));
        }
        if (rows == 0)
            continue;
        cb_figure_style st;
        cb_figure_style_of(ax->labels[s], &st);
        kt += (size_t)snprintf(titles + kt, kt < len ? len - kt : 0, "%s%s", *blocks ? " " : "",
                               ax->labels[s]);
        kc += (size_t)snprintf(colours + kc, kc < len ? len - kc : 0, "%s%s", *blocks ? " " : "",
                               st.colour);
        (*blocks)++;
    }
    int bad = fclose(f) != 0;
    if (kt >= len || kc >= len)
        return cb_fail(e, CB_ERR_INPUT, "%s: too many solver labels for one figure", path);
    return bad ? cb_fail_at(e, CB_ERR_IO, path, 0, "cannot write") : CB_OK;
}

#define ENG_WORDS 4096 /* the figure's word lists */

/* The figure against μ (plots/engines.gp), its link and caption. */
static int engines_figure(const cb_report_ctx *x, double tol, const eng_axes *ax, double *err,
                          double *viol, FILE *md, cb_error *e)
{
    char data[4096], out[4096], a[CB_GP_QUOTED(4096)], b[CB_GP_QUOTED(4096)],
         titles[ENG_WORDS], colours[ENG_WORDS], q[CB_GP_QUOTED(ENG_WORDS)], vars[40000];
    int blocks = 0;
    snprintf(data, sizeof data, "%s/figures/engines.csv", x->s->dir);
    snprintf(out, sizeof out, "%s/figures/engines", x->s->dir);
    int rc = figure_data(data, &x->res, tol, ax, err, viol, titles, colours, sizeof titles,
                         &blocks, e);
    if (rc != CB_OK || blocks == 0)
        return rc;
    rc = cb_gp_str(a, sizeof a, data, data, e);
    if (rc == CB_OK)
        rc = cb_gp_str(b, sizeof b, out, out, e);
    if (rc == CB_OK)
        rc = cb_gp_str(q, sizeof q, titles, "the solver labels", e);
    if (rc == CB_OK &&
        snprintf(vars, sizeof vars, "data=%s; out=%s; n=%d; titles=%s; colours=\"%s\"; "
                 "ttl='Game-engine solvers on the exact cone, random problems, tol %.0e'; "
                 "floor=%g", a, b, blocks, q, colours, tol, ENG_ZERO_FLOOR) >= (int)sizeof vars)
        rc = cb_fail(e, CB_ERR_INPUT, "%s: path too long for gnuplot", out);
    if (rc == CB_OK)
        rc = cb_report_gnuplot(x, vars, "engines.gp", out, e);
    if (rc == CB_OK)
        fprintf(md, "\n![engines against mu](figures/engines.png)\n\n*Figure: the random "
                    "problems of each μ (one μ for every contact). (a) the judged exact-cone "
                    "error error_data, (b) the cone violation max over contacts of "
                    "max(‖r_T‖/(μ r_N) − 1, 0); solid: the median over the problems, dashed: "
                    "the largest. A value of 0 is drawn at %g; solvers with the same values (the "
                    "two PGS at the box's corner, √2 − 1) draw over one another.*\n",
                ENG_ZERO_FLOOR);
    return rc;
}

/* The section's heading and what its figures are. */
static void intro(FILE *md, double tol)
{
    fprintf(md, "\n## Game-engine solvers on the exact cone (tol %.0e)\n\n"
                "The engine solvers (bullet-*, dart-*) solve the engines' own model: each "
                "friction component bounded on its own by ±μ r_N (a box). Judged on the "
                "exact cone like every solver: error_data is the verdict's error; the cone "
                "violation is how far the final point is outside the exact cone "
                "(man conebench, VERDICT, Gap measures: max over contacts of ‖r_T‖/(μ r_N) "
                "− 1, √2 − 1 at the box's corner); the angle is the largest between the "
                "friction force and the opposite of the sliding velocity over sliding "
                "contacts (0 for the exact cone's law). Median and largest over the runs "
                "of each set of problems.\n\n", tol);
}

/* Rows of tolerance tol that have the gap measures (a runs.csv of the earlier layout: none). */
static int measured_rows(const cb_results *r, double tol)
{
    int n = 0;
    for (int i = 0; i < r->nrows; i++)
        n += r->rows[i].tol == tol && !isnan(r->rows[i].gap.cone_violation);
    return n;
}

int cb_report_engines(const cb_report_ctx *x, double tol, FILE *md, cb_error *e)
{
    int engines = 0;
    for (int i = 0; i < x->res.nrows && !engines; i++)
        engines = is_engine(x->res.rows[i].solver);
    if (!engines)
        return CB_OK;
    eng_axes ax;
    axes_of(&x->res, tol, &ax);
    double *err = malloc(((size_t)x->res.nrows + 1) * sizeof *err),
           *viol = malloc(((size_t)x->res.nrows + 1) * sizeof *viol);
    int rc = err && viol ? CB_OK : cb_fail(e, CB_ERR_NOMEM, "out of memory"), measured = 0;
    if (rc == CB_OK) {
        intro(md, tol);
        measured = measured_rows(&x->res, tol);
        if (measured)
            engines_table(&x->res, tol, &ax, err, viol, md);
        else
            fprintf(md, "*No run has the gap measures: runs.csv was written before they "
                        "existed (31 columns). Run the campaign again for them.*\n");
    }
    if (rc == CB_OK && measured && x->s->figures)
        rc = engines_figure(x, tol, &ax, err, viol, md, e);
    free(err);
    free(viol);
    return rc;
}
