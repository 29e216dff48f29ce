/* conebench — the sequences section of a report: per step sequence and tolerance, which
 * (solver, warm start) went through every step fastest, the totals of each run, and the cost
 * of each step drawn (plots/sequence.gp). Repetition 0 of each run. */
#include "report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"
#include "markdown.h"
#include "base.h"

#define SEQ_MAX_RUNS 64     /* runs one figure draws (as the convergence figures) */
#define SEQ_LIST 8192       /* the figure's word lists */
#define SEQ_NAMES_MAX 1000  /* sequences one report shows */
#define SEQ_MARKERS 25      /* markers per curve, about (the lines join every step) */

/* One sequence run: its sequence row and its step rows in step order. */
typedef struct {
    const cb_result *row;
    const cb_result **steps;
    int nsteps;
    char name[300];      /* "LABEL, MODE" */
} seq_run;

static int cmp_step(const void *a, const void *b)
{
    long u = (*(const cb_result *const *)a)->step, v = (*(const cb_result *const *)b)->step;
    return (u > v) - (u < v);
}

/* The runs (repetition 0) of sequence name at tol, their steps attached; *n of them. */
static int gather(const cb_results *seq, const char *name, double tol, seq_run *runs, int *n)
{
    *n = 0;
    for (int i = 0; i < seq->nrows && *n < SEQ_MAX_RUNS; i++) {
        const cb_result *r = &seq->rows[i];
        if (cb_result_is_step(r) || r->rep != 0 || r->tol != tol || strcmp(r->sequence, name))
            continue;
        seq_run *u = &runs[(*n)++];
        memset(u, 0, sizeof *u);
        u->row = r;
        snprintf(u->name, sizeof u->name, "%s, %s", r->label, r->warm_start);
        if (!(u->steps = malloc(((size_t)seq->nrows + 1) * sizeof *u->steps)))
            return CB_ERR_NOMEM;
        for (int k = 0; k < seq->nrows; k++)
            if (cb_result_is_step(&seq->rows[k]) && !strcmp(seq->rows[k].sequence_run, r->run_id))
                u->steps[u->nsteps++] = &seq->rows[k];
        qsort(u->steps, (size_t)u->nsteps, sizeof *u->steps, cmp_step);
    }
    return CB_OK;
}

static void release(seq_run *runs, int n)
{
    for (int i = 0; i < n; i++)
        free(runs[i].steps);
}

/* The verdict line: the fastest run (total CPU time) with every step solved. */
static void verdict_line(const seq_run *runs, int n, FILE *md)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (runs[i].row->solved && runs[i].row->status != CB_STATUS_UNSUPPORTED &&
            (best < 0 || runs[i].row->time_cpu_s < runs[best].row->time_cpu_s))
            best = i;
    if (best < 0) {
        fprintf(md, "**Fastest through the whole sequence with every step solved: none** (no "
                    "run solved every step).\n\n");
        return;
    }
    fprintf(md, "**Fastest through the whole sequence with every step solved: %s** (warm start "
                "%s): %.3f ms of CPU time over %d steps, %d iterations in all.\n\n",
            runs[best].row->label, runs[best].row->warm_start, 1e3 * runs[best].row->time_cpu_s,
            runs[best].nsteps, runs[best].row->iterations);
}

/* The totals of each run. */
static void totals_table(const seq_run *runs, int n, FILE *md)
{
    static const char *const head[9] = {"solver", "warm start", "steps", "unsolved",
                                        "iterations", "CPU time [ms]", "mean per step [ms]",
                                        "worst error_data", "status"};
    cb_md_head(md, 9, head, "llrrrrrrl");
    for (int i = 0; i < n; i++) {
        const cb_result *r = runs[i].row;
        int unsupported = r->status == CB_STATUS_UNSUPPORTED;
        cb_md_cell(md, r->label);
        cb_md_cell(md, r->warm_start);
        cb_md_cellf(md, "%d", runs[i].nsteps);
        if (r->steps_unsolved >= 0)
            cb_md_cellf(md, "%d", r->steps_unsolved);
        else
            cb_md_cell(md, unsupported ? "n/a" : "—");
        cb_md_cellf(md, "%d", r->iterations);
        cb_md_cellf(md, "%.3f", 1e3 * r->time_cpu_s);
        cb_md_cellf(md, "%.4f", runs[i].nsteps ? 1e3 * r->time_cpu_s / runs[i].nsteps : NAN);
        cb_md_cellf(md, "%.2e", r->error_data);
        cb_md_cell(md, cb_status_name(r->status));
        cb_md_end(md);
    }
    fprintf(md, "\nTotals over the steps: iterations and CPU time (of each step: setting the "
                "workspace up or updating it, then the solve: the step's budget) summed, the "
                "worst step's judged error; a run is solved when the judge calls every step solved; status is the "
                "first unsolved step's stop reason; unsolved — : the run was stopped before its end (killed "
                "past the sum of its steps' budgets, or crashed).\n");
}

/* The figure's data file (one block per run with steps) and its word lists. */
static int write_data(const char *path, const seq_run *runs, int n, char *titles,
                      char *colours, char *points, char *dashes, int *blocks, cb_error *err)
{
    static const int dash[CB_WARM_COUNT] = {1, 2, 3}; /* cold solid, previous dashed, mapped */
    FILE *f = fopen(path, "w");
    size_t kt = 0, kc = 0, kp = 0, kd = 0;
    if (!f)
        return cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
    *blocks = 0;
    for (int i = 0; i < n; i++) {
        if (runs[i].nsteps == 0)
            continue;
        cb_figure_style st;
        cb_figure_style_of(runs[i].row->label, &st);
        int m = !strcmp(runs[i].row->warm_start, "mapped")     ? 2
                : !strcmp(runs[i].row->warm_start, "previous") ? 1 : 0;
        fprintf(f, "%s# %s\n", *blocks ? "\n\n" : "", runs[i].name);
        double cum = 0;
        for (int k = 0; k < runs[i].nsteps; k++) {
            const cb_result *s = runs[i].steps[k];
            cum += s->time_cpu_s;
            fprintf(f, "%ld %d %.9g %.9g %d\n", s->step, s->iterations, s->time_cpu_s, cum,
                    s->solved);
        }
        kt += (size_t)snprintf(titles + kt, kt < SEQ_LIST ? SEQ_LIST - kt : 0, "%s\"%s\"",
                               *blocks ? " " : "", runs[i].name);
        kc += (size_t)snprintf(colours + kc, kc < SEQ_LIST ? SEQ_LIST - kc : 0, "%s%s",
                               *blocks ? " " : "", st.colour);
        kp += (size_t)snprintf(points + kp, kp < SEQ_LIST ? SEQ_LIST - kp : 0, "%s%d",
                               *blocks ? " " : "", st.point);
        kd += (size_t)snprintf(dashes + kd, kd < SEQ_LIST ? SEQ_LIST - kd : 0, "%s%d",
                               *blocks ? " " : "", dash[m]);
        (*blocks)++;
    }
    if (fclose(f) != 0)
        return cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
    return kt < SEQ_LIST ? CB_OK : cb_fail(err, CB_ERR_INPUT, "%s: labels too long", path);
}

/* The most steps of the runs. */
static int most_steps(const seq_run *runs, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        m = runs[i].nsteps > m ? runs[i].nsteps : m;
    return m;
}

/* The per-step figure of one sequence at one tolerance, linked and captioned in md. */
static int step_figure(const cb_report_ctx *x, const char *name, double tol, const seq_run *runs,
                       int n, FILE *md, cb_error *err)
{
    static char titles[SEQ_LIST], colours[SEQ_LIST], points[SEQ_LIST], dashes[SEQ_LIST];
    static char qt[CB_GP_QUOTED(SEQ_LIST)], vars[CB_GP_QUOTED(SEQ_LIST) + 30000];
    char slug[128], base[300], data[4400], out[4400], log[4200], ttl[700];
    char qd[CB_GP_QUOTED(4400)], qo[CB_GP_QUOTED(4400)], qttl[CB_GP_QUOTED(700)];
    int blocks = 0;
    cb_figure_slug(name, slug, sizeof slug);
    snprintf(base, sizeof base, "seq-tol%g-%s", tol, slug);
    snprintf(data, sizeof data, "%s/figures/%s.dat", x->s->dir, base);
    snprintf(out, sizeof out, "%s/figures/%s", x->s->dir, base);
    snprintf(log, sizeof log, "%s/figures/%s", x->s->dir, CB_REPORT_GNUPLOT_LOG);
    snprintf(ttl, sizeof ttl, "Sequence %s, tol %g: cost of each step", name, tol);
    int rc = write_data(data, runs, n, titles, colours, points, dashes, &blocks, err);
    if (rc != CB_OK || blocks == 0)
        return rc;
    if ((rc = cb_gp_str(qd, sizeof qd, data, data, err)) == CB_OK &&
        (rc = cb_gp_str(qo, sizeof qo, out, out, err)) == CB_OK &&
        (rc = cb_gp_str(qttl, sizeof qttl, ttl, "the figure's title", err)) == CB_OK)
        rc = cb_gp_str(qt, sizeof qt, titles, "the runs' names", err);
    if (rc != CB_OK)
        return rc;
    if (snprintf(vars, sizeof vars, "data=%s; out=%s; ttl=%s; n=%d; titles=%s; colours=\"%s\"; "
                 "points=\"%s\"; dashes=\"%s\"; pi=%d; terms='pngcairo svg'", qd, qo, qttl,
                 blocks, qt, colours, points, dashes, 1 + most_steps(runs, n) / SEQ_MARKERS) >=
        (int)sizeof vars)
        return cb_fail(err, CB_ERR_INPUT, "%s: too long for gnuplot", out);
    cb_gnuplot_job job = {x->plots, "sequence.gp", vars, log, out, x->batch};
    rc = cb_gnuplot(&job, err);
    if (rc == CB_OK)
        fprintf(md, "\n![%s: cost of each step](figures/%s.png)\n\n*Each step of %s at tol %g, "
                    "every (solver, warm start) run: iterations (left; + 1 on the log axis), "
                    "CPU time of the step (setup or update, and solve; middle) and the CPU time "
                    "summed up to it (right). Colour and marker: the solver (as in every figure); line: the "
                    "warm start (solid cold, dashed previous, dotted mapped); a black cross: a "
                    "step the judge did not call solved. Repetition 0.*\n",
                name, base, name, tol);
    return rc;
}

/* The distinct sequence names of seq (borrowed), in order of appearance. */
static int sequence_names(const cb_results *seq, const char **names)
{
    int n = 0;
    for (int i = 0; i < seq->nrows && n < SEQ_NAMES_MAX; i++) {
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = !strcmp(names[k], seq->rows[i].sequence);
        if (!seen)
            names[n++] = seq->rows[i].sequence;
    }
    return n;
}

/* One sequence at one tolerance: verdict, totals, figure. */
static int one_sequence(const cb_report_ctx *x, const char *name, double tol, FILE *md,
                        cb_error *err)
{
    seq_run *runs = cb_calloc(SEQ_MAX_RUNS, sizeof *runs);
    int n = 0, rc = runs ? gather(&x->seq, name, tol, runs, &n) : CB_ERR_NOMEM;
    if (rc == CB_OK && n > 0) {
        fprintf(md, "\n### Sequence %s, tolerance %.0e\n\n", name, tol);
        verdict_line(runs, n, md);
        totals_table(runs, n, md);
        if (x->s->figures)
            rc = step_figure(x, name, tol, runs, n, md, err);
    }
    if (runs)
        release(runs, n);
    free(runs);
    return rc == CB_ERR_NOMEM ? cb_fail(err, rc, "report: out of memory") : rc;
}

int cb_report_sequences(const cb_report_ctx *x, const double *tols, int nt, FILE *md,
                        cb_error *err)
{
    const char **names = cb_calloc(SEQ_NAMES_MAX, sizeof *names);
    if (!names)
        return cb_fail(err, CB_ERR_NOMEM, "report: out of memory");
    int n = sequence_names(&x->seq, names), rc = CB_OK;
    if (n > 0)
        fprintf(md, "\n## Step sequences\n\nEach sequence run solves the steps in order through "
                    "one workspace (set up once, updated while the pattern stays), each step "
                    "started per its warm start: cold (p = 0), previous (the previous step's "
                    "answer) or mapped (carried contact by contact by identity, new contacts at "
                    "0), and judged on its own. In the tables above a sequence is one problem "
                    "(its totals) and a warm-started solver is a solver of its own (LABEL "
                    "warm=MODE).\n");
    for (int i = 0; i < n && rc == CB_OK; i++)
        for (int t = 0; t < nt && rc == CB_OK; t++)
            rc = one_sequence(x, names[i], tols[t], md, err);
    free(names);
    return rc;
}
