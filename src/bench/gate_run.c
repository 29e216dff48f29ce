/* conebench — a bench run: every (problem, solver, tol) of a campaign in child `solve`
 * processes, the baseline binary and the current one interleaved repetition by repetition. */
#include "gate.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "conebench/io.h"
#include "conebench/plugin.h"
#include "runner.h"
#include "gate_internal.h"
#include "base.h"
#include "fileio.h"
#include "solve_limited.h"

#define MAX_ARGS (16 + 2 * CB_CAMPAIGN_MAX_OPTIONS)
#define KILL_GRACE_S 2.0 /* killed at CB_WALL_GUARD_FACTOR × the CPU budget + this (wall) */

void cb_bench_settings_default(cb_bench_settings *s)
{
    memset(s, 0, sizeof *s);
    s->outdir = "results/bench-check";
    s->progress = 1;
}

/* The argv of `BIN solve FILE --solver S --tol T --max-iter N --time-limit L [--kind K]
 * [--option k=v]... --json` for run (pi, si, ti); strings live in buf. */
typedef struct {
    char *argv[MAX_ARGS];
    char buf[8192];
    size_t used;
} solve_cmd;

static char *cmd_str(solve_cmd *c, const char *fmt, const char *a, const char *b)
{
    char *s = c->buf + c->used;
    int n = snprintf(s, sizeof c->buf - c->used, fmt, a, b);
    c->used += n >= 0 && (size_t)n < sizeof c->buf - c->used ? (size_t)n + 1 : 0;
    return s;
}

static void build_cmd(const cb_campaign *c, int pi, int si, int ti, const char *bin, int repeat,
                      solve_cmd *cmd)
{
    const cb_campaign_problem *p = &c->problems[pi];
    const cb_campaign_solver *sv = &c->solvers[si];
    char num[64];
    int k = 0;
    cmd->used = 0;
    cmd->argv[k++] = (char *)bin;
    cmd->argv[k++] = "solve";
    cmd->argv[k++] = p->path;
    cmd->argv[k++] = "--solver";
    cmd->argv[k++] = sv->solver;
    snprintf(num, sizeof num, "%.17g", c->tols[ti]);
    cmd->argv[k++] = "--tol";
    cmd->argv[k++] = cmd_str(cmd, "%s%s", num, "");
    snprintf(num, sizeof num, "%d", c->max_iter);
    cmd->argv[k++] = "--max-iter";
    cmd->argv[k++] = cmd_str(cmd, "%s%s", num, "");
    snprintf(num, sizeof num, "%.17g", c->time_limit);
    cmd->argv[k++] = "--time-limit";
    cmd->argv[k++] = cmd_str(cmd, "%s%s", num, "");
    if (p->read.force_kind) {
        cmd->argv[k++] = "--kind";
        cmd->argv[k++] = (char *)cb_kind_name(p->read.kind);
    }
    for (int o = 0; o < sv->options.n; o++) {
        cmd->argv[k++] = "--option";
        cmd->argv[k++] = cmd_str(cmd, "%s=%s", sv->options.items[o].key,
                                 sv->options.items[o].value);
    }
    snprintf(num, sizeof num, "%d", repeat);
    cmd->argv[k++] = "--repeat";
    cmd->argv[k++] = cmd_str(cmd, "%s%s", num, "");
    cmd->argv[k++] = "--json";
    cmd->argv[k] = NULL;
}

#define PLUGIN_VAR "CONEBENCH_PLUGIN_PATH="

/* The environment of a command of the gate: this process's without make's job-server
 * variables (a `make` started under `make` builds on its own), CONEBENCH_PLUGIN_PATH gaining
 * every plugin this process loaded (--plugin, a campaign's plugin line), so that both binaries
 * of the gate know their solvers. envp[] borrows environ's strings and plugins (one
 * allocation: the pointers, then the text of CONEBENCH_PLUGIN_PATH); NULL when out of memory. */
static char **gate_env(void)
{
    static const char *const dropped[] = {"MAKEFLAGS=", "MFLAGS=", "MAKELEVEL=", PLUGIN_VAR};
    extern char **environ;
    const char *old = getenv("CONEBENCH_PLUGIN_PATH");
    size_t n = 0, k = 0, text = 8192, head = strlen(PLUGIN_VAR);
    while (environ[n])
        n++;
    char **envp = malloc((n + 2) * sizeof *envp + text);
    if (!envp)
        return NULL;
    char *list = (char *)(envp + n + 2);
    size_t at = (size_t)snprintf(list, text, "%s%s", PLUGIN_VAR, old ? old : "");
    for (int i = 0; i < cb_plugin_count() && at < text; i++)
        at += (size_t)snprintf(list + at, text - at, "%s%s", at > head ? ":" : "",
                               cb_plugin_path(i));
    size_t ndrop = at > head && at < text ? 4 : 3; /* too long: the variable as it was */
    for (size_t i = 0; i < n; i++) {
        size_t d = 0;
        while (d < ndrop && strncmp(environ[i], dropped[d], strlen(dropped[d])) != 0)
            d++;
        if (d == ndrop)
            envp[k++] = environ[i];
    }
    if (ndrop == 4)
        envp[k++] = list;
    envp[k] = NULL;
    return envp;
}

/* Run argv (exec, through the pool: stdin /dev/null, stdout and stderr collected) in the
 * gate's environment, killed after deadline_s (≤ 0: no limit). Returns as cb_child_run_spec. */
static int gate_exec(char *const argv[], double deadline_s, cb_child_result *res, cb_error *err)
{
    char **envp = gate_env();
    cb_child_spec spec = {.argv = argv, .envp = envp, .limits = {deadline_s, 0}};
    int rc = envp ? cb_child_run_spec(&spec, res, err)
                  : cb_fail(err, CB_ERR_NOMEM, "bench: out of memory");
    free(envp);
    return rc;
}

int cb_gate_command(char *const argv[], double deadline_s, char **out, int *status,
                    cb_error *err)
{
    cb_child_result res = {0};
    int rc = gate_exec(argv, deadline_s, &res, err);
    *status = rc == CB_OK && res.end == CB_CHILD_EXITED ? res.code : -1;
    if (out) {
        *out = res.data;
        res.data = NULL;
    }
    cb_child_result_free(&res);
    return rc;
}

/* The value after "key": in a flat JSON text (keys of `solve --json` are unique), copied into
 * out without quotes. */
static int json_value(const char *json, const char *key, char *out, size_t len)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *s = strstr(json, pat);
    if (!s)
        return CB_ERR_INPUT;
    s += strlen(pat);
    s += *s == '"';
    size_t n = strcspn(s, "\",}");
    if (n >= len)
        return CB_ERR_INPUT;
    memcpy(out, s, n);
    out[n] = '\0';
    return CB_OK;
}

/* Figures and CPU seconds of one `solve --json` answer. */
typedef struct {
    cb_status status;
    int solved;
    int iterations;
    cb_work work;
    double error, seconds;
    char message[256];   /* why there is no answer */
} solve_answer;

static int parse_answer(const char *out, solve_answer *a)
{
    char v[64];
    const char *json = strstr(out, "{\"problem\"");
    if (!json || json_value(json, "status", v, sizeof v) || cb_status_parse(v, &a->status))
        return CB_ERR_INPUT;
    if (json_value(json, "solved", v, sizeof v) || (strcmp(v, "true") && strcmp(v, "false")))
        return CB_ERR_INPUT;
    a->solved = v[0] == 't';
    const char *num_keys[] = {"iterations", "block_products", "projections", "local_iters",
                              "error"};
    double x[5];
    for (int k = 0; k < 5; k++) {
        if (json_value(json, num_keys[k], v, sizeof v))
            return CB_ERR_INPUT;
        x[k] = strcmp(v, "null") ? strtod(v, NULL) : NAN;
    }
    a->iterations = (int)x[0];
    a->work.block_products = (long long)x[1];
    a->work.projections = (long long)x[2];
    a->work.local_iters = (long long)x[3];
    a->error = x[4];
    if (json_value(json, "cpu_s", v, sizeof v) != CB_OK &&
        json_value(json, "time_s", v, sizeof v) != CB_OK) /* binaries before cpu_s */
        return CB_ERR_INPUT;
    a->seconds = strtod(v, NULL);
    return CB_OK;
}

/* Run one solve process and read its answer; a child without an answer gets the status of
 * how it ended (killed at the deadline: time_limit, signal: crashed, else bad_input). */
static int run_one(char **argv, double deadline, solve_answer *a, cb_error *err)
{
    cb_child_result res;
    memset(a, 0, sizeof *a);
    int rc = gate_exec(argv, deadline, &res, err);
    if (rc != CB_OK)
        return rc;
    if (parse_answer(res.data ? res.data : "", a) != CB_OK) {
        a->status = res.end == CB_CHILD_TIMED_OUT ? CB_STATUS_TIME_LIMIT
                    : res.end == CB_CHILD_SIGNALED ? CB_STATUS_CRASHED
                                                   : CB_STATUS_BAD_INPUT;
        a->error = NAN;
        snprintf(a->message, sizeof a->message, "%.*s", (int)strcspn(res.data ? res.data : "",
                 "\n"), res.data ? res.data : "");
    }
    cb_child_result_free(&res);
    return CB_OK;
}

/* The figures of an answer into a bench row. */
static void set_figures(cb_bench_row *r, const solve_answer *a)
{
    r->status = a->status;
    r->solved = a->solved;
    r->iterations = a->iterations;
    r->work = a->work;
    r->error = a->error;
}

/* State of a bench run. */
typedef struct {
    const cb_campaign *c;
    const cb_bench_settings *s;
    int reps, repeat;    /* rounds of processes; solves inside each process */
    long done, total;
    FILE *errlog;        /* outdir/errors.log: answers that were not answers */
} bench_ctx;

static void log_answer(bench_ctx *x, const cb_bench_row *r, const char *who, const solve_answer *a)
{
    if (a->message[0] && x->errlog)
        fprintf(x->errlog, "%s %s %g (%s): %s: %s\n", r->problem, r->solver, r->tol, who,
                cb_status_name(a->status), a->message);
}

/* Repetition k of one run: the two binaries in the order A B (k even) or B A (k odd). */
static int one_rep(bench_ctx *x, int pi, int si, int ti, int k, cb_bench_row *cur,
                   cb_bench_row *base)
{
    solve_cmd cmd;
    solve_answer ans[2]; /* 0: current, 1: baseline */
    cb_error err = {{0}};
    double deadline = CB_WALL_GUARD_FACTOR * x->c->time_limit + KILL_GRACE_S;
    int nbin = x->s->baseline_bin ? 2 : 1, rc = CB_OK;
    for (int t = 0; t < nbin && rc == CB_OK; t++) {
        int who = nbin == 2 ? (k % 2 == 0 ? 1 - t : t) : 0;
        build_cmd(x->c, pi, si, ti, who ? x->s->baseline_bin : x->s->current_bin, x->repeat,
                  &cmd);
        rc = run_one(cmd.argv, deadline, &ans[who], &err);
    }
    if (rc != CB_OK) {
        fprintf(stderr, "conebench: %s\n", err.text);
        return rc;
    }
    if (k == 0) {
        set_figures(cur, &ans[0]);
        log_answer(x, cur, "current", &ans[0]);
        if (nbin == 2) {
            set_figures(base, &ans[1]);
            log_answer(x, base, "baseline", &ans[1]);
        }
    }
    if (ans[0].seconds > 0 && (nbin == 1 || ans[1].seconds > 0)) {
        cur->times[cur->ntimes] = ans[0].seconds;
        cur->base_times[cur->ntimes++] = nbin == 2 ? ans[1].seconds : 0.0;
    }
    return CB_OK;
}

static void progress(bench_ctx *x, const cb_bench_row *r)
{
    if (!x->s->progress)
        return;
    x->done++;
    int tty = isatty(2);
    fprintf(stderr, "%sconebench: bench-check run %ld/%ld %-34.34s %-18.18s%s", tty ? "\r" : "",
            x->done, x->total, r->problem, r->solver, tty ? "" : "\n");
    if (tty && x->done == x->total)
        fprintf(stderr, "\n");
}

/* Every repetition of run (pi, si, ti) into a new row of cur (and of base). */
static int bench_one_run(bench_ctx *x, int pi, int si, int ti, cb_bench *cur, cb_bench *base)
{
    cb_bench_row rc_row, rb_row;
    memset(&rc_row, 0, sizeof rc_row);
    snprintf(rc_row.problem, sizeof rc_row.problem, "%s", x->c->problems[pi].name);
    snprintf(rc_row.solver, sizeof rc_row.solver, "%s", x->c->solvers[si].label);
    rc_row.tol = x->c->tols[ti];
    const cb_solver *sv = cb_solver_find(x->c->solvers[si].solver);
    rc_row.exact = !sv || cb_solver_stops_at_limit(sv);
    rb_row = rc_row;
    int rc = CB_OK;
    for (int k = 0; k < x->reps && rc == CB_OK; k++)
        rc = one_rep(x, pi, si, ti, k, &rc_row, &rb_row);
    progress(x, &rc_row);
    if (rc == CB_OK && (cb_bench_row_push(cur, &rc_row) != CB_OK ||
                        (base && cb_bench_row_push(base, &rb_row) != CB_OK)))
        rc = CB_ERR_NOMEM;
    return rc;
}

/* DIR/samples.csv: every repetition's CPU seconds, baseline and current. */
static int write_samples(const char *dir, const cb_bench *b, cb_error *err)
{
    char path[4200];
    cb_outbuf o;
    if (cb_outbuf_open(&o, err) != CB_OK)
        return CB_ERR_NOMEM;
    FILE *f = o.f;
    fprintf(f, "problem,solver,tol,rep,base_s,cur_s\n");
    for (int i = 0; i < b->nrows; i++)
        for (int k = 0; k < b->rows[i].ntimes; k++)
            fprintf(f, "%s,%s,%.17g,%d,%.9g,%.9g\n", b->rows[i].problem, b->rows[i].solver,
                    b->rows[i].tol, k, b->rows[i].base_times[k], b->rows[i].times[k]);
    snprintf(path, sizeof path, "%s/samples.csv", dir);
    return cb_outbuf_commit(&o, path, err);
}

/* DIR/gate.txt, the campaign record (campaign.conf, limits.txt) and machine.txt. */
static int write_record(const cb_campaign *c, const cb_bench_settings *s, int reps, cb_error *err)
{
    char path[4200], text[8192];
    int n = snprintf(text, sizeof text,
                     "time_unit cpu_s\nrepetitions %d\nrepeat %d\ncurrent_bin %s\n"
                     "baseline_bin %s\nbaseline_rev %s\n",
                     reps, s->repeat > 0 ? s->repeat : CB_BENCH_REPEAT, s->current_bin, s->baseline_bin ? s->baseline_bin : "none",
                     s->baseline_rev ? s->baseline_rev : "none");
    snprintf(path, sizeof path, "%s/gate.txt", s->outdir);
    int rc = cb_write_file_atomic(path, text, (size_t)n, err);
    cb_runner_settings rs;
    cb_runner_settings_default(&rs);
    rs.outdir = s->outdir;
    if (rc == CB_OK)
        rc = cb_results_dir_record(c, &rs, err);
    snprintf(path, sizeof path, "%s/machine.txt", s->outdir);
    return rc == CB_OK ? cb_write_machine_info(path, err) : rc;
}

static int make_dirs(const char *dir, cb_error *err)
{
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/problems", dir);
    if ((mkdir(dir, 0777) != 0 && errno != EEXIST) || (mkdir(sub, 0777) != 0 && errno != EEXIST))
        return cb_fail_at(err, CB_ERR_IO, dir, 0, "cannot create directory: %s",
                          strerror(errno));
    return CB_OK;
}

/* Generated problems are always made anew: a file left in the output folder by an earlier
 * bench run (another generator, another conebench) must not be measured as this campaign's. */
static void drop_generated(const cb_campaign *c)
{
    for (int i = 0; i < c->nproblems; i++)
        if (c->problems[i].generated || c->problems[i].scenario >= 0)
            unlink(c->problems[i].path);
}

/* Every (problem, solver, tol) in campaign order. */
static int bench_all(bench_ctx *x, cb_bench *cur, cb_bench *base, cb_error *err)
{
    const cb_campaign *c = x->c;
    int rc = CB_OK;
    drop_generated(c);
    for (int pi = 0; pi < c->nproblems && rc == CB_OK; pi++) {
        rc = cb_campaign_prepare_problem(c, pi, x->s->progress, err);
        for (int si = 0; si < c->nsolvers && rc == CB_OK; si++)
            for (int ti = 0; ti < c->ntols && rc == CB_OK; ti++)
                if (bench_one_run(x, pi, si, ti, cur, base) != CB_OK)
                    rc = cb_fail(err, CB_ERR_IO, "bench run of %s failed (see above)",
                                 c->problems[pi].name);
    }
    return rc;
}

int cb_bench_run(const cb_campaign *c, const cb_bench_settings *s, cb_bench *cur, cb_bench *base,
                 cb_error *err)
{
    char path[4200];
    bench_ctx x = {c, s, s->repetitions > 0 ? s->repetitions : c->repetitions,
                   s->repeat > 0 ? s->repeat : CB_BENCH_REPEAT, 0, 0, NULL};
    memset(cur, 0, sizeof *cur);
    cb_gate_tolerances_default(&cur->tols);
    cur->data_missing = c->data_missing;
    snprintf(cur->time_unit, sizeof cur->time_unit, "cpu_s");
    if (base) {
        *base = *cur;
        base->rows = NULL;
    }
    if (x.reps < 1 || x.reps > CB_BENCH_MAX_REPS)
        return cb_fail(err, CB_ERR_INPUT, "repetitions: must be in [1, %d], got %d",
                       CB_BENCH_MAX_REPS, x.reps);
    if (x.repeat > CB_BENCH_MAX_REPEAT)
        return cb_fail(err, CB_ERR_INPUT, "repeat: must be in [1, %d], got %d",
                       CB_BENCH_MAX_REPEAT, x.repeat);
    if (!s->current_bin)
        return cb_fail(err, CB_ERR_INPUT, "current binary: not given");
    x.total = (long)c->nproblems * c->nsolvers * c->ntols;
    int rc = make_dirs(s->outdir, err);
    snprintf(path, sizeof path, "%s/errors.log", s->outdir);
    if (rc == CB_OK && !(x.errlog = fopen(path, "w")))
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
    if (rc == CB_OK)
        rc = bench_all(&x, cur, base, err);
    snprintf(path, sizeof path, "%s/bench.csv", s->outdir);
    if (rc == CB_OK)
        rc = cb_bench_write(path, cur, err);
    if (rc == CB_OK)
        rc = write_samples(s->outdir, cur, err);
    if (rc == CB_OK)
        rc = write_record(c, s, x.reps, err);
    if (x.errlog)
        fclose(x.errlog);
    if (rc != CB_OK) {
        cb_bench_free(cur);
        cb_bench_free(base);
    }
    return rc;
}
