/* conebench — report: the verdict, summary tables and report.md (figures: report_figures.c). */
#include "campaign.h"
#include "report.h"
#include "runner.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conebench/io.h"
#include "runner.h"
#include "report_internal.h"
#include "base.h"
#include "fileio.h"
#include "markdown.h"

void cb_report_settings_default(cb_report_settings *s)
{
    memset(s, 0, sizeof *s);
    s->figures = 1;
    s->max_convergence = 40;
    s->summary = stdout;
}

/* "max_iter 2, crashed 1" from the failure counts of st, or "—" when none. */
static void failure_list(const cb_report_solver *st, char *why, size_t len)
{
    size_t k = 0;
    snprintf(why, len, "—");
    for (int s = 0; s < CB_STATUS_COUNT; s++)
        if (s != CB_STATUS_UNSUPPORTED && st->status_count[s] && k < len)
            k += (size_t)snprintf(why + k, len - k, "%s%s %d", k ? ", " : "",
                                  cb_status_name((cb_status)s), st->status_count[s]);
}

/* The solvers of t whose work counters are all zero, flagged under the table. */
static void unfilled_note(const cb_report_table *t, const cb_report_solver *st, FILE *md)
{
    int k = 0;
    for (int s = 0; s < t->ns; s++)
        if (st[s].runs > 0 && !st[s].work_filled)
            fprintf(md, "%s%s", k++ ? ", " : "\n**Work counters not filled: not ranked by work:** ",
                    t->solvs[s]);
    if (k)
        fprintf(md, " (block_products, projections, local_iters and error_evals are 0 on every "
                    "run; no work profile is drawn for %s).\n", k > 1 ? "them" : "it");
}

/* One solver's row of the per-solver table. */
static void solver_row(FILE *md, const char *solver, const cb_report_solver *st, const char *why)
{
    cb_md_cell(md, solver);
    cb_md_cellf(md, "%d", st->runs);
    cb_md_cellf(md, "%d", st->solved);
    cb_md_cellf(md, "%.0f %%", 100 * st->success);
    cb_md_cellf(md, "%.3f", 1e3 * st->sgm_time_s);
    cb_md_cellf(md, "%.1f", st->sgm_iter);
    cb_md_cellf(md, "%.2e", st->median_error);
    cb_md_cellf(md, "%d", st->unsupported);
    cb_md_cell(md, why);
    cb_md_end(md);
}

/* The per-solver table of one tolerance, in Markdown (f) and as plain text (summary). Runs,
 * success and means leave out unsupported (problem, solver) pairs; they have their own column. */
static int solver_table(const cb_report_ctx *x, const cb_report_table *t, FILE *md, FILE *txt)
{
    cb_report_solver *st = calloc((size_t)t->ns + 1, sizeof *st);
    if (!st)
        return CB_ERR_NOMEM;
    static const char *const head[9] = {"solver", "runs", "solved", "success", "sgm time [ms]",
                                        "sgm iterations", "median error", "unsupported",
                                        "failures"};
    cb_md_head(md, 9, head, "lrrrrrrrl");
    if (txt)
        fprintf(txt, "\ntol %.0e: %d problems (sgm = shifted geometric mean, failures charged the "
                     "limits)\n%-28s %5s %6s %8s %14s %10s %12s %11s\n",
                t->tol, t->np, "solver", "runs", "solved", "success", "sgm time [ms]", "sgm iter",
                "median err", "unsupported");
    for (int s = 0; s < t->ns; s++) {
        char why[256];
        cb_report_stats(&x->lim, t, s, &st[s]);
        failure_list(&st[s], why, sizeof why);
        solver_row(md, t->solvs[s], &st[s], why);
        if (txt)
            fprintf(txt, "%-28s %5d %6d %7.0f%% %14.3f %10.1f %12.2e %11d\n", t->solvs[s],
                    st[s].runs, st[s].solved, 100 * st[s].success, 1e3 * st[s].sgm_time_s,
                    st[s].sgm_iter, st[s].median_error, st[s].unsupported);
    }
    unfilled_note(t, st, md);
    if (t->ncommon < t->np) {
        fprintf(md, "\nPerformance profiles: over the %d of %d problems that every solver above "
                    "supports (%d excluded as unsupported by some solver).\n",
                t->ncommon, t->np, t->np - t->ncommon);
        if (txt)
            fprintf(txt, "profiles: %d of %d problems (%d unsupported by some solver, excluded)\n",
                    t->ncommon, t->np, t->np - t->ncommon);
    }
    free(st);
    return CB_OK;
}

/* " / 1.2e-10" (the cell's dist_ref), " / —" (none), "" (no cell of t has one). */
static const char *dist_text(const cb_report_table *t, const cb_report_cell *c)
{
    static char buf[32];
    if (!t->has_dist)
        return "";
    if (isnan(c->dist_ref))
        return " / —";
    snprintf(buf, sizeof buf, " / %.1e", c->dist_ref);
    return buf;
}

/* Problem p's row of the problems × solvers table. */
static void problem_row(const cb_report_table *t, int p, FILE *md)
{
    cb_md_cell(md, t->probs[p]);
    cb_md_cell(md, t->kinds[p]);
    cb_md_cellf(md, "%d", t->ncs[p]);
    for (int s = 0; s < t->ns; s++) {
        const cb_report_cell *c = &t->cells[p * t->ns + s];
        if (cb_report_unsupported(c))
            cb_md_cell(md, "n/a");
        else if (c->present)
            cb_md_cellf(md, "%s / %.0f / %.2g s%s", cb_status_name(c->status), c->iterations,
                        c->time, dist_text(t, c));
        else
            cb_md_cell(md, "—");
    }
    cb_md_end(md);
}

/* Problems × solvers: status and iterations of each cell. */
static int problem_table(const cb_report_table *t, FILE *md)
{
    const char **head = malloc(((size_t)t->ns + 3) * sizeof *head);
    char *align = malloc((size_t)t->ns + 4);
    if (!head || !align) {
        free(head);
        free(align);
        return CB_ERR_NOMEM;
    }
    head[0] = "problem", head[1] = "kind", head[2] = "nc";
    memcpy(align, "llr", 3);
    for (int s = 0; s < t->ns; s++)
        head[3 + s] = t->solvs[s], align[3 + s] = 'l';
    align[t->ns + 3] = '\0';
    fprintf(md, "\n<details><summary>Per problem (status / iterations / time%s; n/a: the solver "
                "does not take the problem)</summary>\n\n",
            t->has_dist ? " / dist_ref" : "");
    cb_md_head(md, t->ns + 3, head, align);
    for (int p = 0; p < t->np; p++)
        problem_row(t, p, md);
    fprintf(md, "\n</details>\n");
    free(head);
    free(align);
    return CB_OK;
}

/* Machine description, verbatim. */
static void machine_section(const cb_report_ctx *x, FILE *md)
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

/* The title and how the numbers were made. */
static void method_section(const cb_report_ctx *x, FILE *md)
{
    int nu = count_unsupported(&x->res);
    fprintf(md, "\n# conebench report: %s\n\n%d runs (and %d unsupported pairs) in `%s`. Every "
                "result was re-scored by the judge (man conebench, VERDICT): solved means p and "
                "y finite and error_data ≤ tol, error_data being Siconos' error with the point's "
                "size capped at 20 times a scale of the data (equal to error on every known "
                "solution); success rates and means count solved runs, failures are the others "
                "by stop reason. Time limit %g s per run, at most %d iterations; shifted "
                "geometric means use a shift of %g ms (time) and %g (iterations), with failures "
                "charged the limit. A (problem, solver) pair the solver does not take (status "
                "unsupported) is not a run: it is left out of runs, success and means, shown "
                "n/a, and profiles use only the problems every listed solver supports.\n",
            x->lim.campaign, x->res.nrows - nu, nu, x->s->dir, x->lim.time_limit,
            x->lim.max_iter, 1e3 * CB_REPORT_TIME_SHIFT_S, CB_REPORT_ITER_SHIFT);
    if (any_dist(&x->res))
        fprintf(md, "\ndist_ref = ‖p − p*‖ / max(1, ‖p*‖), the distance of a run's p to the "
                    "problem's reference solution p* (`conebench reference`), is the last figure "
                    "of the per-problem tables. It is left out (—) for problems without a "
                    "reference and for those whose W is singular: their solutions form a set, "
                    "p* is not unique, only the residual (error) says how good a run is.\n");
    if (x->lim.earlier[0])
        fprintf(md, "\n**Mixed settings:** these runs were resumed with `--force` after the "
                    "campaign or its limits changed: earlier rows were made under `%s` (the "
                    "limits above are the latest).\n", x->lim.earlier);
}

/* The verdict: three lines from the table of the tightest of the nt tolerances. */
static int verdict_section(const cb_report_ctx *x, const double *tols, int nt, FILE *md)
{
    cb_report_table t;
    int rc = cb_report_table_build(&x->res, tols[nt - 1], &t);
    if (rc == CB_OK)
        rc = cb_report_verdict(&x->lim, &t, nt, md);
    cb_report_table_free(&t);
    return rc;
}

/* In place of the verdict when runs are missing: a partial campaign's figures are not its
 * result (also on the summary); a note when the runs could not be counted. */
static void incomplete_section(const cb_report_ctx *x, const cb_results_tally *t, FILE *md)
{
    if (t->expected < 0) {
        fprintf(md, "\n*Completeness not checked: %s.*\n", t->why);
        return;
    }
    fprintf(md, "**incomplete: %ld of %ld runs.** No verdict: the campaign has not finished, and "
                "its missing runs would change every figure below. Continue it with `conebench "
                "run CAMPAIGN -o %s --resume`, then report again.\n", t->rows, t->expected,
            x->s->dir);
    if (x->s->summary)
        fprintf(x->s->summary, "incomplete: %ld of %ld runs: no verdict (see %s/report.md)\n",
                t->rows, t->expected, x->s->dir);
}

/* A warning (in report.md and on stderr) when the machine was loaded beyond its cores during
 * `run`: wall times are inflated; the budgets are CPU time. */
static void load_warning(const cb_report_ctx *x, FILE *md)
{
    double load;
    long cores;
    if (!cb_load_exceeded(x->s->dir, &load, &cores))
        return;
    fprintf(md, "\n**Loaded machine:** the 1-minute load reached %.2f on %ld cores during `run` "
                "(%s): wall times are inflated and less comparable; the time limits are budgets "
                "of CPU time (a run is stopped on the wall clock only at %g × its budget).\n", load, cores, CB_LOAD_FILE,
            CB_WALL_GUARD_FACTOR);
    fprintf(stderr, "conebench: %s: warning: the machine's load reached %.2f on %ld cores during "
                    "run; wall times are inflated\n", x->s->dir, load, cores);
}

/* The problem files a skip-unreadable campaign skipped (DIR/skipped.txt), each with the
 * reason its reading gave: the verdict is over the others only. */
static void skipped_section(const cb_report_ctx *x, FILE *md)
{
    char path[4200], *text = NULL;
    size_t len = 0;
    int n = 0;
    snprintf(path, sizeof path, "%s/%s", x->s->dir, CB_SKIPPED_FILE);
    if (cb_read_file(path, CB_RECORD_MAX, &text, &len, NULL) != CB_OK || !len) {
        free(text);
        return;
    }
    for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
        n++;
    static const char *const labels[] = {"file", "reason"};
    fprintf(md, "\n## Skipped files\n\n%d problem file%s did not read and %s skipped "
                "(`skip-unreadable`): no run of %s is in this report.\n\n", n, n > 1 ? "s" : "",
            n > 1 ? "were" : "was", n > 1 ? "them" : "it");
    cb_md_head(md, 2, labels, NULL);
    for (char *l = text, *nl; *l; l = nl ? nl + 1 : l + strlen(l)) {
        char *tab = strchr(l, '\t');
        if ((nl = strchr(l, '\n')))
            *nl = '\0';
        if (tab)
            *tab = '\0';
        cb_md_cell(md, l);
        cb_md_cell(md, tab ? tab + 1 : "");
        cb_md_end(md);
    }
    free(text);
}

/* The verdict (or why there is none), the method, then per tolerance the tables and figures,
 * then the machine. */
static int report_body(cb_report_ctx *x, const cb_results_tally *tally, FILE *md, cb_error *err)
{
    double tols[CB_REPORT_MAX_TOLS];
    int nt = cb_report_tols(&x->res, tols, CB_REPORT_MAX_TOLS);
    int rc = CB_OK;
    if (tally->rows < tally->expected)
        incomplete_section(x, tally, md);
    else if (nt > 0) /* none: a campaign of loop lines only */
        rc = verdict_section(x, tols, nt, md);
    if (rc == CB_OK && tally->expected < 0)
        incomplete_section(x, tally, md);
    if (rc == CB_OK && x->res.nrows > 0)
        method_section(x, md);
    else if (rc == CB_OK) /* loop lines only */
        fprintf(md, "\n# conebench report: %s\n", x->lim.campaign);
    if (rc == CB_OK)
        load_warning(x, md);
    if (rc == CB_OK)
        skipped_section(x, md);
    for (int ti = 0; ti < nt && rc == CB_OK; ti++) {
        cb_report_table t;
        if ((rc = cb_report_table_build(&x->res, tols[ti], &t)) != CB_OK)
            break;
        fprintf(md, "\n## Tolerance %.0e\n\n", tols[ti]);
        rc = solver_table(x, &t, md, x->s->summary);
        if (rc == CB_OK)
            rc = problem_table(&t, md);
        if (rc == CB_OK)
            rc = cb_report_time_per_contact(&t, md);
        if (rc == CB_OK && x->s->figures)
            rc = cb_report_figures(x, &t, ti, md, err);
        cb_report_table_free(&t);
    }
    if (rc == CB_OK && nt > 0)
        rc = cb_report_engines(x, tols[nt - 1], md, err);
    if (rc == CB_OK)
        rc = cb_report_loops(x, md, err);
    if (rc == CB_OK)
        rc = cb_report_sequences(x, tols, nt, md, err);
    if (rc == CB_ERR_NOMEM)
        return cb_fail(err, rc, "report: out of memory");
    machine_section(x, md);
    return rc;
}

int cb_report(const cb_report_settings *s, cb_error *err)
{
    cb_report_ctx x;
    memset(&x, 0, sizeof x);
    x.s = s;
    if (s->plots_dir)
        snprintf(x.plots, sizeof x.plots, "%s", s->plots_dir);
    else
        snprintf(x.plots, sizeof x.plots, "%s/plots", cb_home_dir());
    char path[4096];
    cb_outbuf md = {0};
    cb_results_tally tally;
    int lock = -1, rc = cb_results_dir_lock(s->dir, &lock, err); /* no run writes meanwhile */
    if (rc == CB_OK && s->figures) /* before any work (--no-figures: tables only) */
        rc = cb_gnuplot_check(err);
    if (rc == CB_OK && s->figures)
        rc = cb_gnuplot_batch_new(&x.batch, err);
    if (rc == CB_OK)
        rc = cb_report_load(s->dir, &x.res, &x.seq, &x.lim, err);
    if (rc == CB_OK) /* duplicated or foreign run ids refused; missing runs: no verdict */
        rc = cb_results_dir_count(s->dir, &x.res, &tally, err);
    snprintf(path, sizeof path, "%s/figures", s->dir);
    if (rc == CB_OK && mkdir(path, 0777) != 0 && errno != EEXIST)
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "cannot create: %s", strerror(errno));
    snprintf(path, sizeof path, "%s/figures/%s", s->dir, CB_REPORT_GNUPLOT_LOG);
    if (rc == CB_OK && s->figures)
        remove(path); /* this report's messages only */
    if (rc == CB_OK)
        rc = cb_outbuf_open(&md, err);
    if (rc == CB_OK)
        rc = report_body(&x, &tally, md.f, err);
    snprintf(path, sizeof path, "%s/figures/%s", s->dir, CB_REPORT_GNUPLOT_LOG);
    if (rc == CB_OK) /* every figure queued above */
        rc = cb_gnuplot_batch_run(x.batch, path, err);
    snprintf(path, sizeof path, "%s/report.md", s->dir);
    if (rc == CB_OK)
        rc = cb_outbuf_commit(&md, path, err);
    if (rc == CB_OK && s->html)
        rc = cb_report_html(s->dir, err);
    cb_outbuf_discard(&md);
    cb_gnuplot_batch_free(x.batch);
    cb_results_free(&x.res);
    cb_results_free(&x.seq);
    cb_results_dir_unlock(lock);
    return rc;
}
