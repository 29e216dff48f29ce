/* conebench — campaign runner: one child process per run, time limits, atomic row appends,
 * resume, shards, progress, interruption. A write that fails (the row, a trace, errors.log) ends
 * the campaign with CB_ERR_IO naming the file: the run is not recorded, --resume runs it again. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "runner.h"

#include <cblas.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "conebench/io.h"
#include "loop.h"
#include "reference.h"
#include "results.h"
#include "run_row.h"
#include "sequence_run.h"
#include "base.h"
#include "child.h"
#include "fileio.h"
#include "solve_limited.h"

#define MAX_JOBS 256
#define MSG_LEN 8192
#define STOP_CHECK_S 0.02 /* the longest wait for a child before the stop flag is read again */

/* A run in a child of the pool (the pool's id indexes these). */
typedef struct {
    cb_run_ref ref;
    double start; /* cb_now() at its start: the time of a run that gave no row */
} child;

typedef struct {
    const cb_campaign *c;
    const cb_runner_settings *s;
    int out_fd;           /* runs.csv, O_APPEND */
    long out_len;         /* its length: whole rows only (a failed append is cut back to it) */
    int lock_fd;          /* the results directory's lock (cb_results_dir_lock) */
    FILE *errlog;
    cb_runner_summary *sum;
    double t0, last_note;
    int tty;
    const cb_solver *(*find)(const char *name);
} run_ctx;

void cb_runner_settings_default(cb_runner_settings *s)
{
    memset(s, 0, sizeof *s);
    s->outdir = "results/default";
    s->jobs = 1;
    s->shard_count = 1;
    s->progress = 1;
    s->kill_after = 2.0;
}

static int make_dir(const char *path, cb_error *err)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return cb_fail_at(err, CB_ERR_IO, path, 0, "cannot create directory: %s",
                          strerror(errno));
    return CB_OK;
}

/* 0, or -1 with errno when a write fails. */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            errno = w < 0 ? errno : ENOSPC;
            return -1;
        }
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Send the judged row of a run that happened (or was refused as unsupported) as "R row". */
static void send_row(const run_ctx *x, const cb_run_ref *r, const cb_problem *p,
                     const cb_info *info, const cb_solution *sol, double dist_ref, int fd)
{
    cb_result row;
    char msg[MSG_LEN];
    cb_runner_row_init(x->c, r, &row);
    cb_runner_row_fill(&row, p, info, sol);
    if (info->status != CB_STATUS_UNSUPPORTED)
        row.dist_ref = dist_ref;
    msg[0] = 'R', msg[1] = ' ';
    int n = cb_result_format(&row, msg + 2, sizeof msg - 2);
    if (n > 0)
        write_all(fd, msg, (size_t)n + 2);
}

/* dist_ref of the run's final p: ‖p − p*‖ / max(1, ‖p*‖) when the problem has a reference
 * (reference.h: FILE.ref or the campaign's references folder) whose p* is unique, else NaN.
 * Why a reference was ignored goes to fd as "E ..." (errors.log). */
static double run_dist_ref(const run_ctx *x, const cb_run_ref *r, const cb_problem *p,
                           const double *sol_p, int fd)
{
    char note[1024], msg[MSG_LEN];
    double dist = cb_reference_dist(x->c->problems[r->problem].path, p->prov.sha256,
                                    x->c->references, p->nc, p->d, sol_p, note, sizeof note);
    if (note[0]) {
        int n = snprintf(msg, sizeof msg, "E %s\n", note);
        write_all(fd, msg, (size_t)n);
    }
    return dist;
}

/* Child side of one run (a child of the pool, child.h: default signal actions, dies with the
 * parent): read, solve (judged by cb_solve), send "P ...", then "R row" or "E msg" (both when
 * the solver does not support the problem: the row says unsupported, the message goes to
 * errors.log). Returns the exit status: 0 when a row was sent. */
static int child_main(const run_ctx *x, const cb_run_ref *r, int fd)
{
    const cb_campaign *c = x->c;
    cb_problem *p = NULL;
    cb_solution sol = {0};
    cb_info info = {0};
    cb_settings s;
    cb_error err = {{0}};
    char msg[MSG_LEN];
    const cb_solver *solver = x->find(c->solvers[r->solver].solver);
    int rc = solver ? cb_read_problem(c->problems[r->problem].path, &c->problems[r->problem].read, &p,
                                      &err)
                    : cb_fail(&err, CB_ERR_INPUT, "unknown solver '%s'",
                              c->solvers[r->solver].solver);
    if (rc == CB_OK) {
        int n = snprintf(msg, sizeof msg, "P %s %s %d\n", p->prov.sha256, cb_kind_name(p->kind),
                         p->nc);
        write_all(fd, msg, (size_t)n);
        cb_campaign_settings(c, r->solver, r->tol, &s);
        rc = cb_solution_alloc(p, &sol, &err);
    }
    int unsupported = 0, killed = 0; /* only cb_solve sets unsupported, from supports() */
    if (rc == CB_OK) {
        s.cpu_spent = cb_process_cpu_now(); /* reading the problem: in the run's budget */
        rc = cb_solve_limited(solver, p, &s, &sol, &info, NULL, &killed, &err);
        unsupported = rc != CB_OK && info.status == CB_STATUS_UNSUPPORTED;
    }
    int io_fault = 0; /* the trace could not be written: not the solver's doing, no row */
    if (rc == CB_OK && s.trace && !killed) { /* killed at the budget: no trace */
        char path[4096];
        snprintf(path, sizeof path, "%s/traces/%s.csv", x->s->outdir, r->id);
        rc = cb_trace_write(path, &info, &err);
        io_fault = rc != CB_OK;
    }
    if (rc == CB_OK && x->s->solutions && info.status != CB_STATUS_UNSUPPORTED) { /* killed: p0 */
        char path[4096];
        snprintf(path, sizeof path, "%s/solutions/%s.sol.gz", x->s->outdir, r->id);
        rc = cb_write_solution(path, p->nc, p->d, sol.p, sol.y, &err);
        io_fault = rc != CB_OK;
    }
    if (rc != CB_OK) {
        int n = snprintf(msg, sizeof msg, "%c %s\n", io_fault ? 'F' : 'E', err.text);
        write_all(fd, msg, (size_t)n);
    }
    double dist_ref = rc == CB_OK ? run_dist_ref(x, r, p, sol.p, fd) : NAN;
    if (rc == CB_OK && err.text[0] && !info.solved) /* why (external.h); */
        write_all(fd, msg, (size_t)snprintf(msg, sizeof msg, "E %s\n", err.text)); /* last: kept */
    if (rc == CB_OK || unsupported)
        send_row(x, r, p, &info, unsupported || killed ? NULL : &sol, dist_ref, fd);
    return rc == CB_OK || unsupported ? 0 : 2; /* (the child ends here: nothing to free) */
}

/* What a child of the pool runs: runs.csv is the parent's alone. */
typedef struct {
    const run_ctx *x;
    cb_run_ref r;
} run_job;

static int run_in_child(void *arg, int fd)
{
    const run_job *j = arg;
    close(j->x->out_fd);
    if (j->r.sequence < 0)
        return child_main(j->x, &j->r, fd);
    const cb_solver *sv = j->x->find(j->x->c->solvers[j->r.solver].solver);
    cb_sequence_job sj = {j->x->c, &j->r, sv, j->x->s->outdir, j->x->s->solutions};
    if (sv)
        return cb_sequence_child(&sj, fd);
    write_all(fd, "E unknown solver\n", 17);
    return 2;
}

/* Start run r in the pool. The child is killed (status time_limit) past its wall guard or
 * past its budget's CPU seconds plus kill_after (it stops itself at the budget: this catches
 * one that cannot). */
static int spawn(run_ctx *x, cb_pool *pool, child *kids, const cb_run_ref *r, cb_error *err)
{
    run_job job = {x, *r};
    cb_child_spec spec = {.fn = run_in_child, .arg = &job};
    double budget = cb_sequence_budget(x->c, r); /* a sequence: every step's */
    spec.limits.wall_s = CB_WALL_GUARD_FACTOR * budget + x->s->kill_after;
    spec.limits.cpu_s = budget + x->s->kill_after;
    int id = -1, rc = cb_pool_start(pool, &spec, &id, err);
    if (rc == CB_OK)
        kids[id] = (child){*r, cb_now()};
    return rc;
}

/* One line of errors.log: "run_id problem label: message". */
static void log_error(const run_ctx *x, const cb_result *row, const char *msg)
{
    if (x->errlog)
        fprintf(x->errlog, "%s %s %s: %.*s\n", row->run_id, row->problem, row->label,
                (int)strcspn(msg, "\n"), msg);
}

/* Turn a finished child's messages and end into a row. */
static void child_row(const run_ctx *x, const child *ch, const cb_child_result *res,
                      cb_result *row)
{
    char *rline = NULL, *eline = NULL, *pline = strstr(res->data, "P ") == res->data ? res->data
                                                                                       : NULL;
    int exited = res->end == CB_CHILD_EXITED;
    for (char *l = res->data; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (!strncmp(l, "R ", 2))
            rline = l + 2;
        if (!strncmp(l, "E ", 2))
            eline = l + 2;
    }
    if (rline && exited && res->code == 0) {
        rline[strcspn(rline, "\n")] = '\0';
        if (cb_result_parse(rline, row) == CB_OK) {
            if (eline) /* an unsupported run: its row and why */
                log_error(x, row, eline);
            return;
        }
    }
    cb_runner_row_init(x->c, &ch->ref, row);
    if (pline)
        sscanf(pline, "P %64s %15s %d", row->sha256, row->kind, &row->nc);
    row->time_s = cb_now() - ch->start; /* (a trace write fault "F" never gets here: finish) */
    row->status = res->end == CB_CHILD_TIMED_OUT ? CB_STATUS_TIME_LIMIT
                  : (eline && exited)             ? CB_STATUS_BAD_INPUT
                                                  : CB_STATUS_CRASHED;
    if (eline)
        log_error(x, row, eline);
    else if (row->status == CB_STATUS_CRASHED && x->errlog)
        fprintf(x->errlog, "%s %s %s: child %s %d\n", row->run_id, row->problem, row->label,
                exited ? "exited with" : "killed by signal", res->code);
}

static void progress(run_ctx *x, int final)
{
    const cb_runner_summary *s = x->sum;
    if (!x->s->progress)
        return;
    double now = cb_now(), el = now - x->t0;
    long pending = s->total - s->skipped, done = s->done;
    double eta = done > 0 ? el / (double)done * (double)(pending - done) : 0;
    if (x->tty) {
        fprintf(stderr, "\r[%ld/%ld] solved %ld, failed %ld, crashed %ld, ETA %.0f s   %s", done,
                pending, s->solved, s->failed, s->crashed, eta, final ? "\n" : "");
    } else if (final || now - x->last_note >= 10.0) {
        fprintf(stderr, "conebench: run %ld/%ld done, %ld failed, %.0f s elapsed, ETA %.0f s\n",
                done, pending, s->failed + s->crashed, el, eta);
        x->last_note = now;
    }
}

/* 1 once the caller's stop flag is set (SIGINT, SIGTERM). */
static int stopped(const run_ctx *x) { return x->s->stop && *x->s->stop; }

/* Append one row to runs.csv with one write (no torn rows between runs); when it fails, cut the
 * file back to its last whole row. */
static int append_row(run_ctx *x, const char *line, size_t n, const char *id, cb_error *err)
{
    char path[4200];
    if (write_all(x->out_fd, line, n) == 0) {
        x->out_len += (long)n;
        return CB_OK;
    }
    int e = errno;
    snprintf(path, sizeof path, "%s/runs.csv", x->s->outdir);
    int cut = ftruncate(x->out_fd, x->out_len) == 0;
    return cb_fail_at(err, CB_ERR_IO, path, 0, "cannot append the row of run %s: %s (%s; the run "
                      "is not recorded: --resume runs it again)", id, strerror(e),
                      cut ? "the file keeps its whole rows" : "its torn last line is dropped by "
                                                              "readers and by --resume");
}

/* The text of the first line of msg starting with tag ("F "), or NULL. */
static const char *tagged(const char *msg, const char *tag)
{
    for (const char *l = msg; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, tag, strlen(tag)))
            return l + strlen(tag);
    return NULL;
}

/* errors.log took every line so far; else the failure naming it. */
static int log_written(const run_ctx *x, cb_error *err)
{
    char path[4200];
    if (!x->errlog || (fflush(x->errlog) == 0 && !ferror(x->errlog)))
        return CB_OK;
    snprintf(path, sizeof path, "%s/errors.log", x->s->outdir);
    return cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
}

/* A child that ended: append its row. A trace the child could not write ("F") ends the
 * campaign: the run is not recorded. */
static int finish(run_ctx *x, const child *ch, const cb_child_result *res, cb_error *err)
{
    cb_result row;
    char line[4096];
    const char *fault = tagged(res->data, "F ");
    if (fault)
        return cb_fail(err, CB_ERR_IO, "%.*s (run %s not recorded: --resume runs it again)",
                       (int)strcspn(fault, "\n"), fault, ch->ref.id);
    child_row(x, ch, res, &row);
    char *rows = NULL; /* a sequence run: its step rows, appended with its row in one write */
    size_t nrows = 0;
    int n = cb_result_format(&row, line, sizeof line);
    int rc = n < 0 ? cb_fail(err, CB_ERR_INTERNAL, "result row too long for %s", row.run_id)
                   : log_written(x, err);
    if (rc == CB_OK && ch->ref.sequence >= 0 && res->end == CB_CHILD_EXITED && res->code == 0 &&
        cb_sequence_step_rows(res->data, &rows, &nrows) == CB_OK) {
        char *all = realloc(rows, nrows + (size_t)n + 1);
        rows = all ? all : rows;
        rc = all ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
        if (all)
            memcpy(all + nrows, line, (size_t)n + 1);
    }
    if (rc == CB_OK)
        rc = append_row(x, rows ? rows : line, rows ? nrows + (size_t)n : (size_t)n, row.run_id,
                        err);
    free(rows);
    if (rc != CB_OK)
        return rc;
    x->sum->done++;
    x->sum->solved += row.solved;
    x->sum->crashed += row.status == CB_STATUS_CRASHED;
    x->sum->unsupported += row.status == CB_STATUS_UNSUPPORTED;
    x->sum->failed += !row.solved && row.status != CB_STATUS_CRASHED &&
                      row.status != CB_STATUS_UNSUPPORTED;
    progress(x, 0);
    return CB_OK;
}

/* Wait (a little: the stop flag is read between two waits) for the next child to end and
 * record its run; a run that ends after an interruption is dropped. */
static int collect(run_ctx *x, cb_pool *pool, const child *kids, cb_error *err)
{
    cb_child_result res;
    int id = -1, rc = cb_pool_wait(pool, STOP_CHECK_S, &id, &res, err);
    if (rc == CB_OK && id >= 0 && !stopped(x))
        rc = finish(x, &kids[id], &res, err);
    cb_child_result_free(&res);
    return rc;
}

static int cmp_id(const void *a, const void *b) { return strcmp(a, b); }

/* The ids of the complete rows of runs.csv (sorted; each once) and the length of that valid
 * prefix. */
static int read_done(run_ctx *x, char (**done)[17], long *ndone, long *valid, cb_error *err)
{
    char path[4096];
    cb_results old = {0};
    snprintf(path, sizeof path, "%s/runs.csv", x->s->outdir);
    *done = NULL;
    *ndone = 0;
    int rc = cb_results_read(path, &old, err);
    if (rc == CB_OK) /* a run id twice: refused before anything runs */
        rc = cb_results_check_unique(path, &old, err);
    *valid = old.valid_bytes;
    *done = rc == CB_OK && old.nrows ? malloc((size_t)old.nrows * sizeof **done) : NULL;
    if (rc == CB_OK && old.nrows && !*done)
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    for (int i = 0; *done && i < old.nrows; i++)
        memcpy((*done)[i], old.rows[i].run_id, 17);
    *ndone = *done ? old.nrows : 0;
    if (*done)
        qsort(*done, (size_t)*ndone, 17, cmp_id);
    cb_results_free(&old);
    return rc;
}

/* Open runs.csv for appending after its valid prefix (cutting a torn tail); header if new. */
static int open_out(run_ctx *x, long valid, cb_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/runs.csv", x->s->outdir);
    x->out_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (x->out_fd < 0 || ftruncate(x->out_fd, valid) != 0)
        return cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
    const char *head = cb_results_header();
    x->out_len = valid ? valid : (long)strlen(head);
    if (valid == 0 && write_all(x->out_fd, head, strlen(head)) != 0) {
        int e = errno;
        if (ftruncate(x->out_fd, 0) != 0)
            e = errno;
        return cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write the header: %s", strerror(e));
    }
    return CB_OK;
}

/* Write generated problems that runs of this shard need and that do not exist yet. A scenario
 * step that produced no file (no contact at that step) is left to fail as bad_input. */
static int generate_needed(run_ctx *x, const long *pending, long npending, cb_error *err)
{
    int rc = CB_OK;
    for (long k = 0; k < npending && rc == CB_OK && !stopped(x); k++) {
        cb_run_ref r;
        cb_campaign_run(x->c, pending[k], &r);
        rc = r.sequence >= 0 ? cb_campaign_prepare_sequence(x->c, r.sequence, x->s->progress, err)
                             : cb_campaign_prepare_problem(x->c, r.problem, x->s->progress, err);
    }
    return rc;
}

/* The runs of this shard not done yet. */
static long pending_runs(run_ctx *x, char (*done)[17], long ndone, long **pending)
{
    long n = cb_campaign_nruns(x->c), k = 0;
    *pending = malloc((size_t)(n > 0 ? n : 1) * sizeof **pending);
    for (long i = 0; *pending && i < n; i++) {
        if (i % x->s->shard_count != x->s->shard_index)
            continue;
        x->sum->total++;
        cb_run_ref r;
        cb_campaign_run(x->c, i, &r);
        if (done && bsearch(r.id, done, (size_t)ndone, 17, cmp_id)) {
            x->sum->skipped++;
            continue;
        }
        (*pending)[k++] = i;
    }
    return *pending ? k : -1;
}

static int check_runner(const cb_runner_settings *s, cb_error *err)
{
    if (!s->outdir || !*s->outdir)
        return cb_fail(err, CB_ERR_INPUT, "-o: output directory missing");
    if (s->jobs < 1 || s->jobs > MAX_JOBS)
        return cb_fail(err, CB_ERR_INPUT, "--jobs: must be in [1, %d]", MAX_JOBS);
    if (s->shard_count < 1 || s->shard_index < 0 || s->shard_index >= s->shard_count)
        return cb_fail(err, CB_ERR_INPUT, "--shard: need 0 ≤ i < N, got %d/%d", s->shard_index,
                       s->shard_count);
    return CB_OK;
}

/* Keep up to `jobs` children running until every pending run is recorded. */
static int run_all(run_ctx *x, const long *pending, long npending, cb_error *err)
{
    cb_pool *pool = NULL;
    child *kids = cb_calloc((size_t)x->s->jobs, sizeof *kids);
    int rc = kids ? cb_pool_new(x->s->jobs, &pool, err)
                  : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    long next = 0;
    while (rc == CB_OK && !stopped(x) && (next < npending || cb_pool_running(pool) > 0)) {
        while (rc == CB_OK && !stopped(x) && cb_pool_running(pool) < x->s->jobs &&
               next < npending) {
            cb_run_ref r;
            cb_campaign_run(x->c, pending[next++], &r);
            rc = spawn(x, pool, kids, &r, err);
        }
        if (rc == CB_OK)
            rc = collect(x, pool, kids, err);
    }
    cb_pool_free(pool); /* error or interruption: no child left behind */
    free(kids);
    return rc;
}

/* Create DIR, DIR/traces, DIR/problems (and DIR/solutions when asked). */
static int make_dirs(const char *outdir, int solutions, cb_error *err)
{
    char path[4096];
    const char *subdirs[] = {"", "/traces", "/problems", "/solutions"};
    int rc = CB_OK;
    for (int i = 0; i < 3 + (solutions != 0) && rc == CB_OK; i++) {
        snprintf(path, sizeof path, "%s%s", outdir, subdirs[i]);
        rc = make_dir(path, err);
    }
    return rc;
}

/* DIR/session.txt: when this session of the campaign started (seconds since the epoch) and how
 * many rows runs.csv held then; `conebench status` takes the ETA from this session's rate. */
static int write_session(const char *outdir, long rows_before, cb_error *err)
{
    char path[4096], text[128];
    snprintf(path, sizeof path, "%s/session.txt", outdir);
    int n = snprintf(text, sizeof text, "started %lld\nrows_before %ld\n", (long long)time(NULL),
                     rows_before);
    return cb_write_file_atomic(path, text, (size_t)n, err);
}

/* Everything before the first run: the directory rules (nothing written when they refuse),
 * the runs still to do, generated problems (a fresh directory is left as it was, absent or
 * empty, when that fails),
 * then the record, machine.txt, runs.csv and errors.log. */
static int start(run_ctx *x, char (**done)[17], long *ndone, long **pending, long *npending,
                 cb_error *err)
{
    char path[4096];
    long valid = 0, stale = 0;
    struct stat st;
    int fresh = 0, existed = stat(x->s->outdir, &st) == 0, rc = check_runner(x->s, err);
    if (rc == CB_OK && existed) /* locked before anything of it is read */
        rc = cb_results_dir_lock(x->s->outdir, &x->lock_fd, err);
    if (rc == CB_OK)
        rc = cb_results_dir_check(x->c, x->s, &fresh, err);
    if (rc == CB_OK)
        rc = make_dirs(x->s->outdir, x->s->solutions, err);
    if (rc == CB_OK && x->lock_fd < 0)
        rc = cb_results_dir_lock(x->s->outdir, &x->lock_fd, err);
    if (rc == CB_OK && !fresh) /* what killed processes left: safe with the lock held */
        rc = cb_results_dir_clean(x->s->outdir, &stale, err);
    if (rc == CB_OK && stale && x->s->progress)
        fprintf(stderr, "conebench: removed %ld temporary file%s left by a killed run\n", stale,
                stale > 1 ? "s" : "");
    if (rc == CB_OK)
        rc = read_done(x, done, ndone, &valid, err);
    if (rc == CB_OK && (*npending = pending_runs(x, *done, *ndone, pending)) < 0)
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK)
        rc = generate_needed(x, *pending, *npending, err);
    if (rc != CB_OK && fresh && x->lock_fd >= 0 &&
        cb_remove_tree(x->s->outdir, 1) == 0 && !existed)
        rmdir(x->s->outdir);
    if (rc == CB_OK)
        rc = cb_results_dir_record(x->c, x->s, err);
    snprintf(path, sizeof path, "%s/machine.txt", x->s->outdir);
    if (rc == CB_OK)
        rc = cb_write_machine_info(path, err);
    if (rc == CB_OK)
        rc = cb_note_load(x->s->outdir, "start", err);
    if (rc == CB_OK)
        rc = open_out(x, valid, err);
    snprintf(path, sizeof path, "%s/errors.log", x->s->outdir);
    if (rc == CB_OK && !(x->errlog = fopen(path, "ae")))
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
    if (rc == CB_OK)
        rc = write_session(x->s->outdir, *ndone, err);
    return rc;
}

/* Runs at a time × the threads of each above the online cores: said on stderr (their times
 * would be inflated by sharing cores). */
static void warn_oversubscribed(const cb_campaign *c, const cb_runner_settings *s)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores > 0 && (long)s->jobs * c->threads > cores)
        fprintf(stderr, "conebench: warning: --jobs %d x threads %d = %ld threads on %ld online "
                "cores: runs share cores and their times are inflated\n", s->jobs, c->threads,
                (long)s->jobs * c->threads, cores);
}

int cb_run_campaign(const cb_campaign *c, const cb_runner_settings *s, cb_runner_summary *sum,
                    cb_error *err)
{
    char (*done)[17] = NULL;
    long ndone = 0, *pending = NULL, npending = 0;
    cb_runner_settings own = *s; /* a `solutions on` campaign keeps them as --solutions does */
    own.solutions = s->solutions || c->solutions;
    s = &own;
    run_ctx x = {c, s, -1, 0, -1, NULL, sum, cb_now(), 0, isatty(2),
                 s->find_solver ? s->find_solver : cb_solver_find};
    memset(sum, 0, sizeof *sum);
    int rc = start(&x, &done, &ndone, &pending, &npending, err);
    if (rc == CB_OK && !stopped(&x)) {
        openblas_set_num_threads(1); /* parallelism comes from --jobs (and `threads` lines) */
        warn_oversubscribed(c, s);
        setvbuf(x.errlog, NULL, _IOLBF, 0);
        rc = run_all(&x, pending, npending, err);
        progress(&x, 1);
    }
    if (rc == CB_OK && !stopped(&x) && s->shard_index == 0) /* loop lines (loop.h) */
        rc = cb_run_loops(c, s, err);
    if (rc == CB_OK)
        rc = cb_note_load(s->outdir, "end", err);
    sum->interrupted = rc == CB_OK && stopped(&x) ? (int)*s->stop : 0;
    sum->elapsed = cb_now() - x.t0;
    if (rc == CB_OK)
        rc = log_written(&x, err);
    if (x.errlog)
        fclose(x.errlog);
    if (x.out_fd >= 0)
        close(x.out_fd);
    cb_results_dir_unlock(x.lock_fd);
    free(done);
    free(pending);
    return rc;
}
