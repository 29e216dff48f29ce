/* conebench — cb_solve with the budget enforced for solvers that cannot stop themselves (the
 * Siconos adapters; nsn and ipm on problems of CB_KERNEL_CHILD_MIN_N unknowns or more, whose
 * factorisations cannot be interrupted): the solve runs in a child process (src/core/child.h)
 * killed when its CPU time reaches what is left of the budget plus LIMIT_GRACE_S (the judge and
 * the answer), or at the wall guard plus LIMIT_GRACE_S. One call: a child of its own (cb_child_run: it inherits the
 * problem). A sequence of calls (a simulation): one persistent worker that receives each
 * request — settings, options, warm start, packed problem (cb_problem_pack) — and answers it.
 *
 * Request (host byte order): request_header, noptions × "key\0value\0", p (n doubles), the
 * packed problem. Answer: answer_header, the error message (errlen bytes), ntrace trace points,
 * p and y (n doubles each). The parent checks every size against the bytes received before it
 * copies anything. */
#include "conebench/solver.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "solvers_internal.h"
#include "problem_pack.h"
#include "solve_limited.h"

/* CPU (and wall) seconds the child gets beyond its budget for the judge and the answer. */
#define LIMIT_GRACE_S 0.25

static const char request_magic[8] = "cbsreq1", answer_magic[8] = "cbsans1";

typedef struct {
    char magic[8];
    double tol, time_limit, wall_limit, cpu_spent;
    int32_t max_iter, trace, noptions, solver; /* solver: index in the registry */
    int32_t threads;
    uint64_t n, options_bytes;
} request_header;

typedef struct {
    char magic[8];
    int32_t rc;
    uint32_t errlen;
    uint64_t n;   /* entries of p and y */
    cb_info info; /* trace pointer and capacity meaningless; ntrace points follow */
} answer_header;

typedef struct {
    const cb_solver *solver;
    const cb_problem *prob;
    const cb_settings *s;
    cb_solution *sol;
} solve_job;

struct cb_solve_server {
    cb_worker *worker;
};

/* ------------------------------------------------------------------ the child's side */

/* Solve and write the answer to f (everything cb_solve allocated is freed). */
static int solve_and_answer(FILE *f, const solve_job *j)
{
    answer_header h;
    cb_error e = {{0}};
    memset(&h, 0, sizeof h);
    memcpy(h.magic, answer_magic, sizeof h.magic);
    h.rc = cb_solve(j->solver, j->prob, j->s, j->sol, &h.info, &e);
    h.errlen = h.rc == CB_OK ? 0 : (uint32_t)strnlen(e.text, sizeof e.text);
    h.n = j->sol->n;
    cb_trace_point *trace = h.info.trace;
    size_t nt = h.info.ntrace > 0 ? (size_t)h.info.ntrace : 0;
    h.info.trace = NULL;
    h.info.trace_cap = 0;
    int bad = fwrite(&h, sizeof h, 1, f) != 1 || fwrite(e.text, 1, h.errlen, f) != h.errlen;
    for (size_t k = 0; k < nt && !bad; k++) { /* one by one: no padding bytes left unset */
        cb_trace_point t;
        memset(&t, 0, sizeof t);
        t.iteration = trace[k].iteration;
        t.time_s = trace[k].time_s;
        t.error = trace[k].error;
        bad = fwrite(&t, sizeof t, 1, f) != 1;
    }
    bad = bad || fwrite(j->sol->p, sizeof(double), h.n, f) != h.n ||
          fwrite(j->sol->y, sizeof(double), h.n, f) != h.n;
    free(trace);
    return bad ? -1 : 0;
}

/* A child of its own: it inherited the problem and the solution arrays. */
static int solve_in_child(void *arg, int fd)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return 1;
    int bad = solve_and_answer(f, arg);
    bad = fclose(f) != 0 || bad || cb_write_all(fd, buf, len) != 0;
    free(buf);
    return bad ? 1 : 0;
}

/* Settings from a request; the options' strings point into `bytes` (nbytes long); -1 if
 * malformed. */
static int read_settings(const char *bytes, size_t nbytes, const request_header *h,
                         cb_settings *s, cb_option *opts)
{
    const char *at = bytes, *end = bytes + nbytes;
    cb_settings_default(s);
    s->tol = h->tol;
    s->time_limit = h->time_limit;
    s->wall_limit = h->wall_limit;
    s->cpu_spent = h->cpu_spent;
    s->max_iter = h->max_iter;
    s->trace = h->trace;
    s->threads = h->threads;
    s->options = opts;
    s->noptions = h->noptions;
    for (int k = 0; k < 2 * h->noptions; k++) {
        const char *z = memchr(at, '\0', (size_t)(end - at));
        if (!z)
            return -1;
        if (k % 2 == 0)
            opts[k / 2].key = at;
        else
            opts[k / 2].value = at;
        at = z + 1;
    }
    return at == end ? 0 : -1;
}

/* Decode a request into the job (options, problem and solution allocated); -1 if malformed. */
static int decode_request(const char *req, size_t len, solve_job *j, cb_settings *s,
                          cb_option **opts, cb_problem **prob, cb_solution *sol)
{
    request_header h;
    size_t used = 0;
    if (len < sizeof h)
        return -1;
    memcpy(&h, req, sizeof h);
    size_t rest = len - sizeof h;
    if (memcmp(h.magic, request_magic, sizeof h.magic) != 0 || !cb_solver_at(h.solver) ||
        h.noptions < 0 || h.options_bytes > rest || (uint64_t)h.noptions > h.options_bytes / 2)
        return -1;
    rest -= h.options_bytes;
    *opts = calloc((size_t)h.noptions + 1, sizeof **opts);
    if (h.n > rest / sizeof(double) || !*opts ||
        read_settings(req + sizeof h, h.options_bytes, &h, s, *opts) != 0)
        return -1;
    const char *p = req + sizeof h + h.options_bytes, *packed = p + h.n * sizeof(double);
    if (cb_problem_unpack(packed, rest - h.n * sizeof(double), prob, &used, NULL) != CB_OK ||
        cb_problem_n(*prob) != h.n || cb_solution_alloc(*prob, sol, NULL) != CB_OK)
        return -1;
    memcpy(sol->p, p, h.n * sizeof(double));
    *j = (solve_job){cb_solver_at(h.solver), *prob, s, sol};
    return 0;
}

/* One request of a worker: decode, solve, answer into f; -1 for a malformed request. */
static int answer_request(FILE *f, const char *req, size_t len)
{
    solve_job j;
    cb_settings s;
    cb_option *opts = NULL;
    cb_problem *prob = NULL;
    cb_solution sol = {0};
    int rc = decode_request(req, len, &j, &s, &opts, &prob, &sol);
    if (rc == 0)
        rc = solve_and_answer(f, &j);
    cb_solution_free(&sol);
    cb_problem_free(prob);
    free(opts);
    return rc;
}

/* The worker: answer requests until the parent stops it. */
static int serve_solves(void *arg, int fd)
{
    (void)arg;
    for (;;) {
        char *req = NULL, *ans = NULL;
        size_t len = 0, alen = 0;
        int r = cb_worker_recv(fd, &req, &len);
        if (r != 0)
            return r == 1 ? 0 : 1;
        FILE *f = open_memstream(&ans, &alen);
        int bad = !f || answer_request(f, req, len) != 0;
        bad = (f && fclose(f) != 0) || bad || cb_worker_send(fd, ans, alen) != 0;
        free(req);
        free(ans);
        if (bad)
            return 1;
    }
}

/* ------------------------------------------------------------------ the parent's side */

/* The request for a worker into f. */
static int write_request(FILE *f, const solve_job *j, cb_error *err)
{
    request_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, request_magic, sizeof h.magic);
    h.tol = j->s->tol;
    h.time_limit = j->s->time_limit;
    h.wall_limit = j->s->wall_limit;
    h.cpu_spent = j->s->cpu_spent;
    h.max_iter = j->s->max_iter;
    h.trace = j->s->trace;
    h.threads = j->s->threads;
    h.noptions = j->s->noptions;
    h.n = j->sol->n;
    for (int k = 0; k < cb_solver_count(); k++)
        h.solver = cb_solver_at(k) == j->solver ? k : h.solver;
    for (int k = 0; k < j->s->noptions; k++)
        h.options_bytes += strlen(j->s->options[k].key) + strlen(j->s->options[k].value) + 2;
    int bad = fwrite(&h, sizeof h, 1, f) != 1;
    for (int k = 0; k < j->s->noptions && !bad; k++)
        bad = fwrite(j->s->options[k].key, strlen(j->s->options[k].key) + 1, 1, f) != 1 ||
              fwrite(j->s->options[k].value, strlen(j->s->options[k].value) + 1, 1, f) != 1;
    if (bad || fwrite(j->sol->p, sizeof(double), h.n, f) != h.n)
        return cb_fail(err, CB_ERR_NOMEM, "solve request: out of memory");
    return cb_problem_pack(f, j->prob, err);
}

/* Copy a complete, consistent answer into sol and info; -1 when it is not one. */
static int take_answer(const char *data, size_t len, const cb_solution *sol, cb_info *info,
                       cb_error *err)
{
    answer_header h;
    if (len < sizeof h)
        return -1;
    memcpy(&h, data, sizeof h);
    size_t nt = (size_t)(h.info.ntrace > 0 ? h.info.ntrace : 0), vec = sol->n * sizeof(double);
    if (memcmp(h.magic, answer_magic, sizeof h.magic) != 0 || h.n != sol->n ||
        h.info.ntrace < 0 || (unsigned)h.info.status >= CB_STATUS_COUNT ||
        h.errlen >= CB_ERROR_LEN || nt > (len - sizeof h) / sizeof(cb_trace_point) ||
        len - sizeof h != h.errlen + nt * sizeof(cb_trace_point) + 2 * vec)
        return -1;
    const char *at = data + sizeof h + h.errlen;
    cb_trace_point *trace = nt ? malloc(nt * sizeof *trace) : NULL;
    if (nt && !trace)
        return cb_fail(err, CB_ERR_NOMEM, "trace: out of memory");
    if (nt)
        memcpy(trace, at, nt * sizeof *trace);
    memcpy(sol->p, at + nt * sizeof *trace, vec);
    memcpy(sol->y, at + nt * sizeof *trace + vec, vec);
    *info = h.info;
    info->trace = trace;
    info->trace_cap = (int)nt;
    if (h.rc != CB_OK)
        cb_fail(err, h.rc, "%.*s", (int)h.errlen, data + sizeof h);
    return h.rc;
}

/* Child killed at the budget: p keeps the warm start, judged as it is. */
static int stopped_at_limit(const cb_problem *prob, const cb_settings *s, cb_solution *sol,
                            double elapsed, cb_info *info, cb_error *err)
{
    cb_judgement j;
    memset(info, 0, sizeof *info);
    info->status = CB_STATUS_TIME_LIMIT;
    info->time_solve = elapsed;
    info->time_cpu = NAN; /* more than the budget: the child was killed */
    double t0 = cb_now();
    int rc = cb_judge(prob, sol->p, s->tol, sol->y, &j, err);
    info->time_judge = cb_now() - t0;
    info->error = j.error;
    info->error_q = j.error_q;
    info->error_data = j.error_data;
    info->solved = j.solved;
    info->solver_error = NAN;
    return rc;
}

/* When the child is killed: at the CPU budget left after cpu_spent, or at the wall guard
 * (cb_wall_guard), each plus LIMIT_GRACE_S. */
static cb_child_limits child_limits(const cb_settings *s)
{
    double wall = cb_wall_guard(s);
    cb_child_limits lim = {wall > 0 ? wall + LIMIT_GRACE_S : 0,
                           fmax(s->time_limit - s->cpu_spent, 0.0) + LIMIT_GRACE_S};
    return lim;
}

/* Run the job in a child of its own or in the server's worker. */
static int run_child(solve_job *j, cb_solve_server *server, cb_child_result *r, cb_error *err)
{
    cb_child_limits lim = child_limits(j->s);
    if (!server)
        return cb_child_run_limits(solve_in_child, j, &lim, r, err);
    char *req = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&req, &len);
    int rc = f ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "solve request: out of memory");
    if (rc == CB_OK)
        rc = write_request(f, j, err);
    if (f && fclose(f) != 0 && rc == CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "solve request: out of memory");
    if (rc == CB_OK && !server->worker)
        rc = cb_worker_new(serve_solves, NULL, &server->worker, err);
    if (rc == CB_OK)
        rc = cb_worker_call_limits(server->worker, req, len, &lim, r, err);
    free(req);
    return rc;
}

/* Settings a request can carry (anything else goes to cb_solve, which says what is wrong). */
static int sendable(const cb_problem *prob, const cb_settings *s, const cb_solution *sol)
{
    if (!prob || !sol || !sol->p || !sol->y || sol->n != cb_problem_n(prob) || s->noptions < 0 ||
        (s->noptions > 0 && !s->options))
        return 0;
    for (int k = 0; k < s->noptions; k++)
        if (!s->options[k].key || !s->options[k].value)
            return 0;
    return 1;
}

int cb_solve_runs_here(const cb_solver *solver, const cb_problem *prob, const cb_settings *s,
                       const cb_solution *sol, const cb_solve_server *server)
{
    return !solver || !s || !(s->time_limit > 0) || s->cpu_spent >= s->time_limit ||
           !sendable(prob, s, sol) ||
           (cb_solver_stops_at_limit(solver) &&
            (server || !cb_solver_has_long_kernels(solver) ||
             cb_problem_n(prob) < CB_KERNEL_CHILD_MIN_N));
}

int cb_solve_limited(const cb_solver *solver, const cb_problem *prob, const cb_settings *s,
                     cb_solution *sol, cb_info *info, cb_solve_server *server, int *killed,
                     cb_error *err)
{
    if (killed)
        *killed = 0;
    if (cb_solve_runs_here(solver, prob, s, sol, server))
        return cb_solve(solver, prob, s, sol, info, err); /* in process (or it says what's wrong;
                                                           * or the budget is spent already) */
    solve_job job = {solver, prob, s, sol};
    cb_child_result r;
    int rc = run_child(&job, server, &r, err);
    if (rc != CB_OK)
        return rc;
    if (r.end == CB_CHILD_TIMED_OUT) {
        if (killed)
            *killed = 1;
        rc = stopped_at_limit(prob, s, sol, r.elapsed, info, err);
    } else if ((rc = take_answer(r.data, r.len, sol, info, err)) == -1) {
        memset(info, 0, sizeof *info); /* the child died: Siconos crashed */
        info->status = CB_STATUS_CRASHED;
        info->time_solve = r.elapsed;
        info->error = info->error_q = info->error_data = info->solver_error = NAN;
        rc = CB_OK;
    }
    cb_child_result_free(&r);
    return rc;
}

int cb_solve_server_new(cb_solve_server **out, cb_error *err)
{
    *out = calloc(1, sizeof **out);
    return *out ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "solve server: out of memory");
}

void cb_solve_server_free(cb_solve_server *server)
{
    if (!server)
        return;
    cb_worker_free(server->worker);
    free(server);
}
