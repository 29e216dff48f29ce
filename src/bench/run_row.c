/* conebench — the fields of a runs.csv row that the runner and the sequence runs fill alike
 * (run_row.h). */
#include "run_row.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "runner.h"

/* Options as "k=v;k=v". */
static void options_string(const cb_campaign_solver *cs, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < cs->options.n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s=%s", i ? ";" : "", cs->options.items[i].key,
                              cs->options.items[i].value);
}

/* The row fields known before running (a sequence run's: its sequence row). */
void cb_runner_row_init(const cb_campaign *c, const cb_run_ref *r, cb_result *row)
{
    memset(row, 0, sizeof *row);
    const cb_campaign_solver *cs = &c->solvers[r->solver];
    snprintf(row->run_id, sizeof row->run_id, "%s", r->id);
    snprintf(row->problem, sizeof row->problem, "%s",
             r->sequence >= 0 ? c->sequences[r->sequence].name : c->problems[r->problem].name);
    row->step = -1;
    row->steps_unsolved = -1;
    if (r->sequence >= 0) {
        snprintf(row->sequence, sizeof row->sequence, "%s", row->problem);
        snprintf(row->warm_start, sizeof row->warm_start, "%s",
                 cb_warm_name((cb_warm_mode)r->warm));
    }
    snprintf(row->solver, sizeof row->solver, "%s", cs->solver);
    snprintf(row->label, sizeof row->label, "%s", cs->label);
    options_string(cs, row->options, sizeof row->options);
    snprintf(row->machine, sizeof row->machine, "%s", cb_machine_id());
    row->tol = c->tols[r->tol];
    row->rep = r->rep;
    row->error = row->error_q = row->error_data = row->dist_ref = row->time_cpu_s = NAN;
    row->gap = CB_GAP_UNKNOWN;
}

/* The fields of row that a run on p (judged, or refused as unsupported) gives. */
void cb_runner_row_fill(cb_result *row, const cb_problem *p, const cb_info *info,
                        const cb_solution *sol)
{
    snprintf(row->sha256, sizeof row->sha256, "%s", p->prov.sha256);
    snprintf(row->kind, sizeof row->kind, "%s", cb_kind_name(p->kind));
    row->nc = p->nc;
    row->status = info->status;
    row->iterations = info->iterations;
    if (info->status != CB_STATUS_UNSUPPORTED) { /* never judged: error stays NaN */
        row->error = info->error;
        row->error_q = info->error_q;
        row->error_data = info->error_data;
        row->solved = info->solved;
        if (sol && sol->p && sol->y && cb_judge_gap(p, sol->p, sol->y, &row->gap, NULL) != CB_OK)
            row->gap = CB_GAP_UNKNOWN;
    }
    row->time_setup_s = info->time_setup;
    row->time_solve_s = info->time_solve;
    row->time_s = info->time_setup + info->time_solve;
    row->time_cpu_s = info->time_cpu;
    row->work = info->work;
}
