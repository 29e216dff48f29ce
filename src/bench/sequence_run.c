/* conebench — one sequence run of a campaign: every step through one workspace, warm-started
 * per the run's mode, each step judged (sequence_run.h). */
#include "sequence_run.h"

#include "run_row.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/io.h"
#include "base.h"
#include "child.h"
#include "fileio.h"

#define MSG_LEN 8192 /* one message line */

/* The state carried from one step to the next. */
typedef struct {
    const cb_sequence_job *j;
    cb_settings s;
    cb_sequence *seq;
    cb_workspace *ws;
    cb_problem *prev;    /* the last step's problem (its pattern), owned */
    cb_contact_ids prev_ids;
    double *prev_p;      /* the last step's answer, owned */
    cb_result total;     /* the sequence row, summed step by step */
    int setups;
    int fd;
    int io_fault;        /* a solution file could not be written ("F" sent) */
} seq_state;

/* "TAG text" on the pipe (one line). */
static void send_line(int fd, char tag, const char *text)
{
    char msg[MSG_LEN];
    int n = snprintf(msg, sizeof msg, "%c %.*s\n", tag, (int)strcspn(text, "\n"), text);
    cb_write_all(fd, msg, (size_t)(n < (int)sizeof msg ? n : (int)sizeof msg - 1));
}

/* A row as "R row". */
static void send_row(int fd, const cb_result *row)
{
    char msg[MSG_LEN];
    msg[0] = 'R', msg[1] = ' ';
    int n = cb_result_format(row, msg + 2, sizeof msg - 2);
    if (n > 0)
        cb_write_all(fd, msg, (size_t)n + 2);
}

/* The workspace for step p: the last one updated with p's data when the pattern is the same
 * (cb_update_problem sets it up again otherwise), a new one for the first step. */
static int bring_workspace(seq_state *st, const cb_problem *p, cb_error *err)
{
    int again = 1;
    int rc = st->ws ? cb_update_problem(&st->ws, p, &again, err)
                    : cb_setup(&st->ws, st->j->solver, p, &st->s, err);
    st->setups += again;
    return rc;
}

/* The start of step p (n values, zeros unless the mode carries the last answer). */
static void warm_start(const seq_state *st, const cb_problem *p, const cb_contact_ids *ids,
                       double *start)
{
    size_t n = cb_problem_n(p);
    memset(start, 0, n * sizeof *start);
    if (!st->prev_p)
        return;
    if (st->j->r->warm == CB_WARM_PREVIOUS && cb_problem_n(st->prev) == n)
        memcpy(start, st->prev_p, n * sizeof *start);
    else if (st->j->r->warm == CB_WARM_MAPPED)
        cb_contact_ids_map(&st->prev_ids, st->prev_p, ids, start, p->d);
}

/* A step file's display name: its base name without the extension. */
static void step_name(const char *path, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    snprintf(buf, len, "%s", b ? b + 1 : path);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
}

/* The worst of two errors: NaN (not judged) is the worst. */
static double worst(double a, double b) { return isnan(a) || isnan(b) ? NAN : fmax(a, b); }

/* Step k's row from its judged run, and its share of the sequence row. */
static void step_row(seq_state *st, int k, const cb_problem *p, const cb_info *info,
                     const cb_solution *sol, cb_result *row)
{
    const cb_sequence_step *sp = &st->seq->steps[k];
    char key[64], hex[65];
    cb_runner_row_init(st->j->c, st->j->r, row);
    cb_runner_row_fill(row, p, info, sol);
    snprintf(key, sizeof key, "%s|step|%ld", st->j->r->id, sp->step);
    cb_sha256_buffer(key, strlen(key), hex);
    snprintf(row->run_id, sizeof row->run_id, "%.16s", hex);
    snprintf(row->sequence_run, sizeof row->sequence_run, "%s", st->j->r->id);
    step_name(sp->path, row->problem, sizeof row->problem);
    row->step = sp->step;
    cb_result *t = &st->total;
    if (k == 0)
        snprintf(t->kind, sizeof t->kind, "%s", row->kind);
    t->nc = p->nc > t->nc ? p->nc : t->nc;
    t->iterations += row->iterations;
    t->time_s += row->time_s;
    t->time_cpu_s = k ? t->time_cpu_s + row->time_cpu_s : row->time_cpu_s;
    t->time_setup_s += row->time_setup_s;
    t->time_solve_s += row->time_solve_s;
    t->work.block_products += row->work.block_products;
    t->work.projections += row->work.projections;
    t->work.local_iters += row->work.local_iters;
    t->work.error_evals += row->work.error_evals;
    t->error = k ? worst(t->error, row->error) : row->error;
    t->error_q = k ? worst(t->error_q, row->error_q) : row->error_q;
    t->error_data = k ? worst(t->error_data, row->error_data) : row->error_data;
    if (!row->solved && t->steps_unsolved++ == 0)
        t->status = row->status; /* the first unsolved step's stop reason */
    else if (t->steps_unsolved == 0)
        t->status = row->status;
}

/* Keep step p's answer and identities for the next step's start and pattern. */
static void keep_step(seq_state *st, cb_problem *p, cb_contact_ids *ids, cb_solution *sol)
{
    cb_problem_free(st->prev);
    cb_contact_ids_free(&st->prev_ids);
    free(st->prev_p);
    st->prev = p;
    st->prev_ids = *ids;
    st->prev_p = sol->p;
    memset(ids, 0, sizeof *ids);
    sol->p = NULL;
}

/* solutions/<step run id>.sol.gz of a judged step. */
static int write_step_solution(seq_state *st, const cb_result *row, const cb_problem *p,
                               const cb_solution *sol, cb_error *err)
{
    char path[4200];
    if (!st->j->solutions)
        return CB_OK;
    snprintf(path, sizeof path, "%s/solutions/%s.sol.gz", st->j->outdir, row->run_id);
    int rc = cb_write_solution(path, p->nc, p->d, sol->p, sol->y, err);
    st->io_fault = rc != CB_OK;
    if (rc != CB_OK)
        send_line(st->fd, 'F', err->text);
    return rc;
}

/* Read, bring the workspace, warm-start, solve and record step k. *unsupported = 1 when the
 * solver does not take the step (its supports() said so). */
static int run_step(seq_state *st, int k, int *unsupported, cb_error *err)
{
    cb_problem *p = NULL;
    cb_contact_ids ids = {0};
    cb_solution sol = {0};
    cb_info info = {0};
    cb_result row;
    const cb_solver *sv = st->j->solver;
    int rc = cb_sequence_read_step(st->seq, k, &st->j->c->sequences[st->j->r->sequence].read, &p,
                                   &ids, err);
    if (rc == CB_OK && sv->supports && sv->supports(p, err) != CB_OK) {
        *unsupported = 1;
        snprintf(st->total.kind, sizeof st->total.kind, "%s", cb_kind_name(p->kind));
        st->total.nc = p->nc;
        rc = CB_ERR_INPUT;
    }
    if (rc == CB_OK)
        rc = cb_solution_alloc(p, &sol, err);
    if (rc == CB_OK)
        rc = bring_workspace(st, p, err);
    if (rc == CB_OK) {
        warm_start(st, p, &ids, sol.p);
        rc = cb_warm_start(st->ws, sol.p, sol.n, err);
    }
    if (rc == CB_OK)
        rc = cb_solve_ws(st->ws, &sol, &info, err);
    if (rc == CB_OK) {
        step_row(st, k, p, &info, &sol, &row);
        rc = write_step_solution(st, &row, p, &sol, err);
    }
    if (rc == CB_OK) {
        send_row(st->fd, &row);
        keep_step(st, p, &ids, &sol);
        p = NULL;
    }
    cb_problem_free(p);
    cb_contact_ids_free(&ids);
    cb_solution_free(&sol);
    cb_info_free(&info);
    return rc;
}

int cb_sequence_child(const cb_sequence_job *j, int fd)
{
    seq_state st = {.j = j, .fd = fd};
    cb_error err = {{0}};
    int unsupported = 0;
    const cb_campaign_sequence *q = &j->c->sequences[j->r->sequence];
    cb_campaign_settings(j->c, j->r->solver, j->r->tol, &st.s);
    st.s.trace = 0; /* sequence runs write no traces */
    cb_runner_row_init(j->c, j->r, &st.total);
    st.total.steps_unsolved = 0;
    st.total.status = CB_STATUS_CONVERGED;
    int rc = cb_sequence_open(q->dir, &st.seq, &err);
    for (int k = 0; rc == CB_OK && k < st.seq->nsteps; k++)
        rc = run_step(&st, k, &unsupported, &err);
    if (rc == CB_OK) {
        st.total.solved = st.total.steps_unsolved == 0;
        send_row(fd, &st.total);
    } else if (unsupported) { /* not a failure: the pair is n/a, as for one problem */
        st.total.status = CB_STATUS_UNSUPPORTED;
        st.total.steps_unsolved = -1;
        send_line(fd, 'E', err.text);
        send_row(fd, &st.total);
    } else if (!st.io_fault) {
        send_line(fd, 'E', err.text);
    }
    cb_cleanup(st.ws);
    cb_problem_free(st.prev);
    cb_contact_ids_free(&st.prev_ids);
    free(st.prev_p);
    cb_sequence_free(st.seq);
    return rc == CB_OK || unsupported ? 0 : 2;
}

int cb_sequence_step_rows(const char *data, char **rows, size_t *len)
{
    const char *last = NULL;
    size_t n = 0;
    for (const char *l = data; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, "R ", 2))
            last = l;
    *rows = malloc(data ? strlen(data) + 1 : 1);
    if (!*rows)
        return CB_ERR_NOMEM;
    for (const char *l = data; l && *l && l != last;
         l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        size_t k = strcspn(l, "\n");
        if (strncmp(l, "R ", 2) || l[k] != '\n')
            continue;
        memcpy(*rows + n, l + 2, k - 1);
        n += k - 1;
    }
    (*rows)[n] = '\0';
    *len = n;
    return CB_OK;
}

double cb_sequence_budget(const cb_campaign *c, const cb_run_ref *r)
{
    int n = r->sequence >= 0 ? c->sequences[r->sequence].nsteps : 1;
    return c->time_limit * (n > 0 ? n : 1);
}
