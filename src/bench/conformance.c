/* conebench — the conformance suite (conformance.h): each check of the solver contract in a
 * child process, on generated problems whose solution is known. */
#include "conformance.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "child.h"
#include "conebench/generate.h"
#include "solve_limited.h"

#define UNREACHABLE_TOL 1e-300 /* a tolerance no iterate meets: the solver runs to its caps */
#define KNOWN_TOL 1e-8         /* the known-solution problems are solved to this */
#define SHORT_MAX_ITER 2       /* the max_iter check's cap */
#define RUN_MAX_ITER 200       /* iterations of the deterministic, counters and trace runs */
#define CHECK_SECONDS 60.0     /* a check's child is killed after this (plus the known solves) */

typedef struct {
    const cb_solver *sv;
    const cb_conformance_settings *s;
    cb_problem *probs[CB_KIND_COUNT]; /* the known-solution problem of each kind */
    double *pstar[CB_KIND_COUNT];
    int base; /* the first kind the solver supports (its problem is used by most checks) */
    char refusal[200]; /* what supports() said of the last kind it refused */
} conf_ctx;

typedef int (*check_fn)(const conf_ctx *x, char *d, size_t n);

void cb_conformance_settings_default(cb_conformance_settings *s)
{
    s->time_limit = 0.5;
    s->slack = 1.5;
    s->known_limit = 20;
    s->nc = 20;
    s->options = NULL;
    s->noptions = 0;
}

/* Settings with no options. */
static cb_settings settings(const conf_ctx *x, double tol, int max_iter, double limit, int trace)
{
    cb_settings st;
    cb_settings_default(&st);
    st.options = x->s->options;
    st.noptions = x->s->noptions;
    st.tol = tol;
    st.max_iter = max_iter;
    st.time_limit = limit;
    st.trace = trace;
    return st;
}

/* One harness run (cb_solve_limited) from warm (NULL: zeros); sol allocated for the caller. */
static int harness(const conf_ctx *x, const cb_problem *prob, const cb_settings *st,
                   const double *warm, cb_solution *sol, cb_info *info, cb_error *err)
{
    int rc = cb_solution_alloc(prob, sol, err);
    memset(info, 0, sizeof *info);
    if (rc == CB_OK && warm)
        memcpy(sol->p, warm, sol->n * sizeof *sol->p);
    return rc == CB_OK ? cb_solve_limited(x->sv, prob, st, sol, info, NULL, NULL, err) : rc;
}

/* A run of the base problem and what it gave. */
typedef struct {
    int rc;
    cb_solution sol;
    cb_info info;
    cb_error err;
} conf_run;

/* Run the base problem with these settings from warm (NULL: zeros). */
static void base_run(const conf_ctx *x, const cb_settings *st, const double *warm, conf_run *r)
{
    memset(r, 0, sizeof *r);
    r->rc = harness(x, x->probs[x->base], st, warm, &r->sol, &r->info, &r->err);
}

static void conf_run_free(conf_run *r)
{
    cb_solution_free(&r->sol);
    cb_info_free(&r->info);
}

static int check_options(const conf_ctx *x, char *d, size_t n)
{
    cb_option o[CB_CONF_MAX_OPTIONS + 1];
    cb_settings st = settings(x, KNOWN_TOL, RUN_MAX_ITER, x->s->known_limit, 0);
    conf_run r;
    if (st.noptions > 0) /* memcpy from NULL is undefined even for 0 bytes */
        memcpy(o, st.options, (size_t)st.noptions * sizeof *o);
    o[st.noptions] = (cb_option){"conformance-no-such-option", "1"};
    st.options = o;
    st.noptions++;
    base_run(x, &st, NULL, &r);
    int ok = r.rc == CB_ERR_INPUT && r.info.status == CB_STATUS_BAD_INPUT;
    snprintf(d, n, ok ? "refused: %s" : "accepted an unknown option (status %s)",
             ok ? r.err.text : cb_status_name(r.info.status));
    conf_run_free(&r);
    return ok;
}

static int check_max_iter(const conf_ctx *x, char *d, size_t n)
{
    cb_settings st = settings(x, UNREACHABLE_TOL, SHORT_MAX_ITER, x->s->known_limit, 0);
    conf_run r;
    base_run(x, &st, NULL, &r);
    int ok = r.rc == CB_OK && r.info.iterations <= SHORT_MAX_ITER &&
             r.info.status != CB_STATUS_TIME_LIMIT;
    snprintf(d, n, "max_iter %d: %d iterations, status %s", SHORT_MAX_ITER, r.info.iterations,
             cb_status_name(r.info.status));
    conf_run_free(&r);
    return ok;
}

/* CPU seconds (user + system) of this process and of its waited-for children. */
static double cpu_with_children(void)
{
    struct rusage a, b;
    if (getrusage(RUSAGE_SELF, &a) != 0 || getrusage(RUSAGE_CHILDREN, &b) != 0)
        return 0.0;
    return (double)(a.ru_utime.tv_sec + a.ru_stime.tv_sec + b.ru_utime.tv_sec +
                    b.ru_stime.tv_sec) +
           1e-6 * (double)(a.ru_utime.tv_usec + a.ru_stime.tv_usec + b.ru_utime.tv_usec +
                           b.ru_stime.tv_usec);
}

/* The budget is CPU time: the run's CPU (this process and its children) must stay within the
 * limit + slack; wall time only guards against a hang (CONF_HANG_FACTOR × that), so a loaded
 * machine does not fail a solver that holds its budget. */
#define CONF_HANG_FACTOR 10.0
static int check_time_limit(const conf_ctx *x, char *d, size_t n)
{
    cb_settings st = settings(x, UNREACHABLE_TOL, 1000000000, x->s->time_limit, 0);
    conf_run r;
    double t0 = cb_now(), c0 = cpu_with_children();
    base_run(x, &st, NULL, &r);
    double wall = cb_now() - t0, cpu = cpu_with_children() - c0;
    double most = x->s->time_limit + x->s->slack;
    int ok = r.rc == CB_OK && cpu <= most && wall <= CONF_HANG_FACTOR * most;
    snprintf(d, n, "limit %.2g s (+%.2g s slack): back after %.3f s CPU (%.3f s wall), status %s",
             x->s->time_limit, x->s->slack, cpu, wall, cb_status_name(r.info.status));
    conf_run_free(&r);
    return ok;
}

/* The solver's own setup + solve on prob from warm (no cb_solve: it refuses non-finite input):
 * passes when it refuses, or says diverged within 1 iteration. */
static int direct_nan(const conf_ctx *x, const cb_problem *prob, const double *warm,
                      const char *what, char *d, size_t n)
{
    cb_settings st = settings(x, KNOWN_TOL, RUN_MAX_ITER, x->s->known_limit, 0);
    cb_solution sol = {0};
    cb_info info;
    cb_error e = {{0}};
    void *work = NULL;
    memset(&info, 0, sizeof info);
    int rc = cb_solution_alloc(prob, &sol, &e), ok = 0;
    if (rc == CB_OK) {
        memcpy(sol.p, warm, sol.n * sizeof *sol.p);
        rc = x->sv->setup(prob, &st, &work, &e);
    }
    if (rc == CB_OK) {
        rc = x->sv->solve(work, &st, &sol, &info, &e);
        x->sv->cleanup(work);
    }
    if (rc == CB_ERR_INPUT) {
        ok = 1;
        snprintf(d, n, "NaN in %s refused: %s", what, e.text);
    } else {
        ok = rc == CB_OK && info.status == CB_STATUS_DIVERGED && info.iterations <= 1;
        snprintf(d, n, "NaN in %s: status %s after %d iterations", what,
                 rc == CB_OK ? cb_status_name(info.status) : e.text, info.iterations);
    }
    cb_solution_free(&sol);
    cb_info_free(&info);
    return ok;
}

static int check_nan_q(const conf_ctx *x, char *d, size_t n)
{
    cb_problem *bad = NULL;
    size_t m = cb_problem_n(x->probs[x->base]);
    double *zero = calloc(m, sizeof *zero);
    int ok = 0;
    if (zero && cb_problem_copy(x->probs[x->base], &bad, NULL) == CB_OK) {
        bad->q[m / 2] = NAN;
        ok = direct_nan(x, bad, zero, "q", d, n);
    } else {
        snprintf(d, n, "out of memory");
    }
    cb_problem_free(bad);
    free(zero);
    return ok;
}

static int check_nan_start(const conf_ctx *x, char *d, size_t n)
{
    size_t m = cb_problem_n(x->probs[x->base]);
    double *warm = calloc(m, sizeof *warm);
    if (!warm) {
        snprintf(d, n, "out of memory");
        return 0;
    }
    warm[0] = NAN;
    int ok = direct_nan(x, x->probs[x->base], warm, "the warm start", d, n);
    free(warm);
    return ok;
}

static int check_warm_start(const conf_ctx *x, char *d, size_t n)
{
    cb_settings st = settings(x, KNOWN_TOL, RUN_MAX_ITER, x->s->known_limit, 0);
    conf_run r;
    base_run(x, &st, x->pstar[x->base], &r);
    int ok = r.rc == CB_OK && r.info.solved && r.info.iterations <= 1;
    snprintf(d, n, "from the known solution: status %s after %d iterations",
             cb_status_name(r.info.status), r.info.iterations);
    conf_run_free(&r);
    return ok;
}

/* Two identical runs: p, y bits, iterations and counters equal. */
static int check_deterministic(const conf_ctx *x, char *d, size_t n)
{
    cb_settings st = settings(x, KNOWN_TOL, RUN_MAX_ITER, x->s->known_limit, 0);
    conf_run a, b;
    base_run(x, &st, NULL, &a);
    base_run(x, &st, NULL, &b);
    int ran = a.rc == CB_OK && b.rc == CB_OK;
    int same = ran && !memcmp(a.sol.p, b.sol.p, a.sol.n * sizeof *a.sol.p) &&
               !memcmp(a.sol.y, b.sol.y, a.sol.n * sizeof *a.sol.y);
    int ok = same && a.info.iterations == b.info.iterations &&
             !memcmp(&a.info.work, &b.info.work, sizeof a.info.work);
    snprintf(d, n, !ran ? "the runs failed"
                   : ok ? "two runs: identical p, y, %d iterations and counters"
                   : same ? "two runs: same p and y, different iterations or counters (%d)"
                          : "two runs: different p or y (%d iterations)",
             a.info.iterations);
    conf_run_free(&a);
    conf_run_free(&b);
    return ok;
}

static int check_counters(const conf_ctx *x, char *d, size_t n)
{
    cb_settings st = settings(x, KNOWN_TOL, RUN_MAX_ITER, x->s->known_limit, 0);
    conf_run r;
    base_run(x, &st, NULL, &r);
    const cb_work *w = &r.info.work;
    int ok = r.rc == CB_OK && (r.info.iterations == 0 || w->block_products || w->projections ||
                               w->local_iters || w->error_evals);
    snprintf(d, n, "%d iterations: %lld block products, %lld projections, %lld local "
             "iterations, %lld error evaluations", r.info.iterations, w->block_products,
             w->projections, w->local_iters, w->error_evals);
    conf_run_free(&r);
    return ok;
}

static int check_trace(const conf_ctx *x, char *d, size_t n)
{
    cb_settings st = settings(x, KNOWN_TOL, RUN_MAX_ITER, x->s->known_limit, 1);
    conf_run r;
    base_run(x, &st, NULL, &r);
    const cb_trace_point *t = r.info.trace;
    int bad = -1;
    for (int i = 1; r.rc == CB_OK && bad < 0 && i < r.info.ntrace; i++)
        if (t[i].iteration < t[i - 1].iteration || !(t[i].time_s >= t[i - 1].time_s))
            bad = i;
    int ok = r.rc == CB_OK && r.info.ntrace >= 1 && bad < 0;
    if (bad >= 0)
        snprintf(d, n, "point %d: iteration %d at %.3g s after iteration %d at %.3g s", bad,
                 t[bad].iteration, t[bad].time_s, t[bad - 1].iteration, t[bad - 1].time_s);
    else
        snprintf(d, n, "%d points, non-decreasing in iteration and time", r.info.ntrace);
    conf_run_free(&r);
    return ok;
}

/* Every kind the solver supports: its known-solution problem solved (judged) to KNOWN_TOL. */
static int check_known(const conf_ctx *x, char *d, size_t n)
{
    size_t k = 0;
    int ok = 1, nsup = 0;
    d[0] = '\0';
    for (int kind = 0; kind < CB_KIND_COUNT; kind++) {
        cb_settings st = settings(x, KNOWN_TOL, 1000000, x->s->known_limit, 0);
        cb_solution sol = {0};
        cb_info info;
        int rc = harness(x, x->probs[kind], &st, NULL, &sol, &info, NULL);
        if (info.status != CB_STATUS_UNSUPPORTED) {
            nsup++;
            ok = ok && rc == CB_OK && info.solved;
            if (k < n)
                k += (size_t)snprintf(d + k, n - k, "%s%s %s", k ? ", " : "",
                                      cb_kind_name((cb_kind)kind), cb_status_name(info.status));
        }
        cb_solution_free(&sol);
        cb_info_free(&info);
    }
    return ok && nsup > 0;
}

static const struct {
    const char *name;
    check_fn fn;
} checks[CB_CONF_NCHECKS] = {
    {"options", check_options},     {"max_iter", check_max_iter},
    {"time_limit", check_time_limit}, {"nan_q", check_nan_q},
    {"nan_start", check_nan_start}, {"warm_start", check_warm_start},
    {"deterministic", check_deterministic}, {"counters", check_counters},
    {"trace", check_trace},         {"known", check_known}};

typedef struct {
    const conf_ctx *x;
    int k;
} child_arg;

/* In the child: run check k, write 'P' or 'F' and the detail. */
static int child_check(void *arg, int fd)
{
    const child_arg *a = arg;
    char out[sizeof ((cb_conformance_check *)0)->detail + 1];
    int null = open("/dev/null", O_WRONLY); /* what a solver prints is not the check's answer */
    if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
        close(null);
    }
    out[0] = checks[a->k].fn(a->x, out + 1, sizeof out - 1) ? 'P' : 'F';
    return cb_write_all(fd, out, strlen(out)) == 0 ? 0 : 1;
}

/* Run check k in a child; a crash or a hang fails it. */
static int run_check(const conf_ctx *x, int k, cb_conformance_check *c, cb_error *err)
{
    child_arg a = {x, k};
    cb_child_result r;
    double deadline = CHECK_SECONDS + (k == CB_CONF_NCHECKS - 1 ? CB_KIND_COUNT : 2) *
                                          x->s->known_limit;
    int rc = cb_child_run(child_check, &a, deadline, &r, err);
    c->name = checks[k].name;
    c->passed = 0;
    c->cannot = NULL;
    if (rc != CB_OK)
        return rc;
    if (r.end == CB_CHILD_EXITED && r.code == 0 && r.len > 0) {
        c->passed = r.data[0] == 'P';
        snprintf(c->detail, sizeof c->detail, "%s", r.data + 1);
    } else if (r.end == CB_CHILD_TIMED_OUT) {
        snprintf(c->detail, sizeof c->detail, "did not return within %.0f s", deadline);
    } else {
        snprintf(c->detail, sizeof c->detail, "crashed (%s %d)",
                 r.end == CB_CHILD_SIGNALED ? "signal" : "exit status", r.code);
    }
    cb_child_result_free(&r);
    return CB_OK;
}

/* The known-solution problem of kind k (seed 1, nc contacts, multibody W); each contact draws
 * its own coefficients, or (same_mu) every contact has the middle of their ranges. Whether the
 * solver takes it: CB_OK, or its refusal in x->refusal. */
static int make_problem(conf_ctx *x, int k, int same_mu, int *taken, cb_error *err)
{
    cb_random_settings g;
    cb_error e = {{0}};
    cb_random_settings_default(&g);
    g.kind = (cb_kind)k;
    g.nc = x->s->nc;
    if (same_mu) {
        g.mu_min = g.mu_max = 0.5 * (g.mu_min + g.mu_max);
        g.mur_min = g.mur_max = 0.5 * (g.mur_min + g.mur_max);
        g.mus_min = g.mus_max = 0.5 * (g.mus_min + g.mus_max);
    }
    cb_problem_free(x->probs[k]);
    free(x->pstar[k]);
    x->probs[k] = NULL, x->pstar[k] = NULL;
    int rc = cb_generate_random(&g, &x->probs[k], &x->pstar[k], NULL, err);
    *taken = rc == CB_OK && (!x->sv->supports || x->sv->supports(x->probs[k], &e) == CB_OK);
    if (rc == CB_OK && !*taken && (!x->refusal[0] || !strstr(e.text, "cone kind")))
        snprintf(x->refusal, sizeof x->refusal, "%.*s", (int)sizeof x->refusal - 1, e.text);
    return rc;
}

/* Every kind's problem: with coefficients drawn per contact, or one μ for all contacts when the
 * solver takes only that (Siconos's 2D solvers). */
static int make_problems(conf_ctx *x, cb_error *err)
{
    int rc = CB_OK, taken = 0;
    x->base = -1;
    for (int k = 0; rc == CB_OK && k < CB_KIND_COUNT; k++) {
        rc = make_problem(x, k, 0, &taken, err);
        if (rc == CB_OK && !taken)
            rc = make_problem(x, k, 1, &taken, err);
        if (rc == CB_OK && taken && x->base < 0)
            x->base = k;
    }
    return rc;
}

/* The options given are the solver's (its setup takes them on the base problem): else
 * CB_ERR_INPUT naming the solver and the option. */
static int check_given_options(const conf_ctx *x, cb_error *err)
{
    cb_settings st = settings(x, KNOWN_TOL, RUN_MAX_ITER, x->s->known_limit, 0);
    cb_error e = {{0}};
    void *work = NULL;
    if (x->base < 0 || x->s->noptions == 0)
        return CB_OK;
    int rc = x->sv->setup(x->probs[x->base], &st, &work, &e);
    if (rc == CB_OK)
        x->sv->cleanup(work);
    return rc == CB_ERR_INPUT ? cb_fail(err, rc, "conformance: %s: %s", x->sv->name, e.text) : CB_OK;
}

int cb_conformance_run(const cb_solver *solver, const cb_conformance_settings *s,
                       cb_conformance_check out[CB_CONF_NCHECKS], cb_error *err)
{
    conf_ctx x = {solver, s, {0}, {0}, -1, ""};
    int rc = make_problems(&x, err);
    if (rc == CB_OK)
        rc = check_given_options(&x, err);
    for (int k = 0; rc == CB_OK && k < CB_CONF_NCHECKS; k++) {
        if (x.base < 0) { /* nothing to run it on */
            out[k] = (cb_conformance_check){checks[k].name, 0, "", NULL};
            snprintf(out[k].detail, sizeof out[k].detail, "takes none of the generated "
                     "problems (local, %d contacts): %.150s", s->nc, x.refusal);
            continue;
        }
        rc = run_check(&x, k, &out[k], err);
        if (rc == CB_OK && !out[k].passed && cb_solver_model_gap(solver) &&
            (checks[k].fn == check_warm_start || checks[k].fn == check_known))
            out[k].cannot = cb_solver_model_gap(solver);
    }
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        cb_problem_free(x.probs[k]);
        free(x.pstar[k]);
    }
    return rc;
}
