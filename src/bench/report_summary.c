/* conebench — the report as data (`report --json`) and the three-line verdict of report.md. */
#include "report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

#define VERDICT_MAX_NAMES 5  /* unsolved problems named in the verdict before "and N more" */

void cb_report_summary_free(cb_report_summary *s)
{
    if (!s)
        return;
    for (int i = 0; s->tols && i < s->ntols; i++) {
        free(s->tols[i].solvers);
        free(s->tols[i].problems);
    }
    free(s->tols);
    cb_results_free(&s->res);
    memset(s, 0, sizeof *s);
}

/* The solvers' statistics and the problems' winners of table t into out. */
static int summarize_tol(const cb_report_limits *lim, const cb_report_table *t, cb_report_tol *out)
{
    out->tol = t->tol;
    out->nsolvers = t->ns;
    out->nproblems = t->np;
    out->profile_problems = t->ncommon;
    out->solvers = calloc((size_t)t->ns + 1, sizeof *out->solvers);
    out->problems = calloc((size_t)t->np + 1, sizeof *out->problems);
    if (!out->solvers || !out->problems)
        return CB_ERR_NOMEM;
    for (int s = 0; s < t->ns; s++)
        cb_report_stats(lim, t, s, &out->solvers[s]);
    for (int p = 0; p < t->np; p++) {
        cb_report_problem *q = &out->problems[p];
        q->problem = t->probs[p];
        q->kind = t->kinds[p];
        q->nc = t->ncs[p];
        q->winner = cb_report_winner(t, p);
        q->winner_time_s = q->winner < 0 ? NAN : t->cells[p * t->ns + q->winner].time;
    }
    return CB_OK;
}

int cb_report_summary_read(const char *dir, cb_report_summary *out, cb_error *err)
{
    cb_report_limits lim;
    double tols[CB_REPORT_MAX_TOLS];
    memset(out, 0, sizeof *out);
    int rc = cb_report_load(dir, &out->res, NULL, &lim, err), nt = 0;
    if (rc == CB_OK) {
        nt = cb_report_tols(&out->res, tols, CB_REPORT_MAX_TOLS);
        snprintf(out->campaign, sizeof out->campaign, "%s", lim.campaign);
        out->time_limit_s = lim.time_limit;
        out->max_iter = lim.max_iter;
        for (int i = 0; i < out->res.nrows; i++)
            out->unsupported += out->res.rows[i].status == CB_STATUS_UNSUPPORTED;
        out->runs = out->res.nrows - out->unsupported;
        if (!(out->tols = calloc((size_t)nt + 1, sizeof *out->tols)))
            rc = cb_fail(err, CB_ERR_NOMEM, "report: out of memory");
    }
    for (int i = 0; rc == CB_OK && i < nt; i++) {
        cb_report_table t;
        rc = cb_report_table_build(&out->res, tols[i], &t);
        if (rc == CB_OK) {
            out->ntols = i + 1;
            rc = summarize_tol(&lim, &t, &out->tols[i]);
        }
        cb_report_table_free(&t);
        if (rc != CB_OK)
            cb_fail(err, rc, "report: out of memory");
    }
    if (rc != CB_OK)
        cb_report_summary_free(out);
    return rc;
}

/* Line 1: the solvers with the most problems solved (flags in top[]); returns that count. */
static int verdict_most(const cb_report_table *t, const cb_report_solver *st, int ntols, int *top,
                        FILE *md)
{
    int most = 0, k = 0;
    for (int s = 0; s < t->ns; s++)
        most = st[s].solved > most ? st[s].solved : most;
    fprintf(md, "- Most solved at tol %.0e", t->tol);
    if (ntols > 1)
        fprintf(md, " (the tightest of %d tolerances)", ntols);
    fprintf(md, ": ");
    for (int s = 0; s < t->ns; s++) {
        top[s] = most > 0 && st[s].solved == most;
        if (top[s])
            fprintf(md, "%s%s", k++ ? ", " : "", t->solvs[s]);
    }
    if (most == 0)
        fprintf(md, "none (no solver solves any of the %d problems).\n", t->np);
    else
        fprintf(md, " (%d of %d problems%s).\n", most, t->np, k > 1 ? " each" : "");
    return most;
}

/* Line 2: of the top solvers, the least shifted geometric mean of time over the problems every
 * one of them solves. */
static int verdict_fastest(const cb_report_table *t, const int *top, int most, FILE *md)
{
    int np = 0, ntop = 0, best = -1;
    double *tm = malloc(((size_t)t->np + 1) * sizeof *tm), *sgm = calloc((size_t)t->ns + 1,
                                                                            sizeof *sgm);
    int *common = malloc(((size_t)t->np + 1) * sizeof *common);
    int rc = tm && sgm && common ? CB_OK : CB_ERR_NOMEM;
    for (int p = 0; rc == CB_OK && p < t->np; p++) {
        int all = 1;
        for (int s = 0; s < t->ns; s++)
            all &= !top[s] || t->cells[p * t->ns + s].solved;
        if (all)
            common[np++] = p;
    }
    for (int s = 0; rc == CB_OK && s < t->ns; s++) {
        if (!top[s])
            continue;
        ntop++;
        for (int k = 0; k < np; k++)
            tm[k] = t->cells[common[k] * t->ns + s].time;
        sgm[s] = cb_shifted_geomean(tm, np, CB_REPORT_TIME_SHIFT_S);
        best = best < 0 || sgm[s] < sgm[best] ? s : best;
    }
    if (rc == CB_OK && most == 0)
        fprintf(md, "- Fastest of those: none (nothing is solved).\n");
    else if (rc == CB_OK)
        fprintf(md, "- Fastest of those: %s%s, shifted geometric mean of time %.2f ms (shift %g "
                    "ms) over the %d problems %s.\n",
                t->solvs[best], ntop > 1 ? "" : " (the only one)", 1e3 * sgm[best],
                1e3 * CB_REPORT_TIME_SHIFT_S, np, ntop > 1 ? "all of them solve" : "it solves");
    free(tm);
    free(sgm);
    free(common);
    return rc;
}

/* Line 3: the problems no solver solves. */
static void verdict_unsolved(const cb_report_table *t, FILE *md)
{
    int n = 0;
    for (int p = 0; p < t->np; p++)
        n += cb_report_winner(t, p) < 0;
    if (n == 0) {
        fprintf(md, "- Solved by no solver: none; every problem is solved by some solver.\n");
        return;
    }
    fprintf(md, "- Solved by no solver: %d of %d problems: ", n, t->np);
    for (int p = 0, k = 0; p < t->np && k < VERDICT_MAX_NAMES; p++)
        if (cb_report_winner(t, p) < 0)
            fprintf(md, "%s%s", k++ ? ", " : "", t->probs[p]);
    if (n > VERDICT_MAX_NAMES)
        fprintf(md, " and %d more", n - VERDICT_MAX_NAMES);
    fprintf(md, ".\n");
}

int cb_report_verdict(const cb_report_limits *lim, const cb_report_table *t, int ntols, FILE *md)
{
    cb_report_solver *st = calloc((size_t)t->ns + 1, sizeof *st);
    int *top = calloc((size_t)t->ns + 1, sizeof *top);
    int rc = st && top ? CB_OK : CB_ERR_NOMEM;
    for (int s = 0; rc == CB_OK && s < t->ns; s++)
        cb_report_stats(lim, t, s, &st[s]);
    if (rc == CB_OK)
        rc = verdict_fastest(t, top, verdict_most(t, st, ntols, top, md), md);
    if (rc == CB_OK)
        verdict_unsolved(t, md);
    free(st);
    free(top);
    return rc;
}
