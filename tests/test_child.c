/* conebench tests — the child-process utility (src/core/child.h), cb_problem_pack and
 * cb_solve_limited.
 *
 * cb_child_run: the exit status and the bytes of a child that exits, the signal of one that
 * crashes (and what it wrote before), a child that never ends killed at its deadline, output
 * far larger than a pipe buffer. cb_pool: children at once, each reported with its own end
 * (exit with output, crash, killed at the wall or the CPU limit, SIGTERM with a grace, exec of a
 * missing program) and its own bytes (two streams of 1 MB written in small writes are not
 * mixed), no zombie left; a full pool, a timeout; exec with stdin, files and an environment.
 * cb_worker: a sequence of requests to one child, which is
 * replaced after a request it never answers or dies on. cb_problem_pack: dense, BSR and
 * factored problems round trip bit for bit; cut or damaged bytes are refused.
 * cb_solve_limited: which solvers stop themselves; a Siconos solve that cannot end (tol 1e-300,
 * max_iter 2³¹−1) under a 0.3 s CPU budget is killed (status time_limit, p = the warm start, y and the
 * errors of the warm start as the judge gives them); a Siconos solve that ends in the child
 * (its own or a server's) gives the same bits as in this process; a conebench solver runs in
 * this process. Nothing here depends on how fast the machine is: the killed child could not
 * end in any time, and the others end by themselves. */
#include "test_support.h"

#include "child.h"
#include "conebench/generate.h"
#include "conebench/judge.h"
#include "problem_pack.h"
#include "solve_limited.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_and_exit3(void *arg, int fd)
{
    (void)arg;
    return cb_write_all(fd, "abc", 3) == 0 ? 3 : 99;
}

static int write_and_crash(void *arg, int fd)
{
    cb_write_all(fd, "partial", 7);
    raise(*(const int *)arg ? SIGSEGV : SIGABRT);
    return 0;
}

static int never_ends(void *arg, int fd)
{
    (void)arg;
    (void)fd;
    for (;;)
        pause();
    return 0;
}

#define BIG_BYTES ((size_t)8 << 20) /* 8 MB: many pipe buffers */

static unsigned char pattern(size_t i) { return (unsigned char)((i * 2654435761u) >> 13); }

static int write_big(void *arg, int fd)
{
    (void)arg;
    unsigned char *b = malloc(BIG_BYTES);
    if (!b)
        return 1;
    for (size_t i = 0; i < BIG_BYTES; i++)
        b[i] = pattern(i);
    int rc = cb_write_all(fd, b, BIG_BYTES);
    free(b);
    return rc == 0 ? 0 : 1;
}

static void test_child_exit_and_bytes(void **state)
{
    (void)state;
    cb_child_result r;
    cb_error err = {{0}};
    assert_int_equal(cb_child_run(write_and_exit3, NULL, 0, &r, &err), CB_OK);
    assert_int_equal(r.end, CB_CHILD_EXITED);
    assert_int_equal(r.code, 3);
    assert_int_equal(r.len, 3);
    assert_string_equal(r.data, "abc");
    cb_child_result_free(&r);
    cb_child_result_free(&r);
    cb_child_result_free(NULL);
}

static void test_child_crash(void **state)
{
    (void)state;
    for (int segv = 0; segv < 2; segv++) {
        cb_child_result r;
        assert_int_equal(cb_child_run(write_and_crash, &segv, 0, &r, NULL), CB_OK);
        assert_int_equal(r.end, CB_CHILD_SIGNALED);
        assert_int_equal(r.code, segv ? SIGSEGV : SIGABRT);
        assert_string_equal(r.data, "partial");
        cb_child_result_free(&r);
    }
}

static void test_child_deadline(void **state)
{
    (void)state;
    cb_child_result r;
    assert_int_equal(cb_child_run(never_ends, NULL, 0.05, &r, NULL), CB_OK);
    assert_int_equal(r.end, CB_CHILD_TIMED_OUT);
    assert_int_equal(r.code, SIGKILL);
    assert_int_equal(r.len, 0);
    assert_true(r.elapsed >= 0.05); /* killed only once the deadline had passed */
    cb_child_result_free(&r);
}

static void test_child_large_output(void **state)
{
    (void)state;
    cb_child_result r;
    assert_int_equal(cb_child_run(write_big, NULL, 0, &r, NULL), CB_OK);
    assert_int_equal(r.end, CB_CHILD_EXITED);
    assert_int_equal(r.code, 0);
    assert_int_equal(r.len, BIG_BYTES);
    size_t bad = 0;
    for (size_t i = 0; i < BIG_BYTES; i++)
        bad += (unsigned char)r.data[i] != pattern(i);
    assert_int_equal(bad, 0);
    cb_child_result_free(&r);
}

/* ------------------------------------------------------------------ cb_pool */

#define POOL_STREAM_BYTES ((size_t)1 << 20) /* per child: many pipe buffers, many writes */
#define POOL_STREAM_WRITE 1000              /* bytes per write: interleaved between children */
#define POOL_LIMIT_S 0.2                    /* the wall and CPU limits of the killed children */
#define POOL_GUARD_S 600.0                  /* a wall limit no child that ends reaches */

/* Child k's stream: byte i of child k (a different sequence for each k). */
static unsigned char stream_byte(int k, size_t i) { return pattern(i * 7 + (size_t)k * 104729); }

/* Writes its stream in small writes, then exits with status 10 + k. */
static int write_stream(void *arg, int fd)
{
    int k = *(const int *)arg;
    unsigned char buf[POOL_STREAM_WRITE];
    for (size_t at = 0; at < POOL_STREAM_BYTES; at += POOL_STREAM_WRITE) {
        size_t n = POOL_STREAM_BYTES - at < POOL_STREAM_WRITE ? POOL_STREAM_BYTES - at
                                                               : POOL_STREAM_WRITE;
        for (size_t i = 0; i < n; i++)
            buf[i] = stream_byte(k, at + i);
        if (cb_write_all(fd, buf, n) != 0)
            return 1;
    }
    return 10 + k;
}

/* Spins on the CPU until killed (no wall limit of its own can stop it). */
static int spin(void *arg, int fd)
{
    (void)arg, (void)fd;
    volatile unsigned long x = 0;
    for (;;)
        x++;
    return 0;
}

/* What each child of test_pool_outcomes must report. */
typedef struct {
    cb_child_spec spec;
    cb_child_end end;
    int code;
    const char *data; /* its whole output, or NULL: not checked here */
    int stream;       /* ≥ 0: its output is stream `stream` */
} pool_case;

/* Bytes of r against stream k: the number that differ (and the length must match). */
static size_t stream_errors(const cb_child_result *r, int k)
{
    size_t bad = r->len != POOL_STREAM_BYTES;
    for (size_t i = 0; !bad && i < POOL_STREAM_BYTES; i++)
        bad += (unsigned char)r->data[i] != stream_byte(k, i);
    return bad;
}

/* Nine children at once, each ending its own way; each is reported with its own end, code and
 * bytes, whatever the order in which they end. */
static void test_pool_outcomes(void **state)
{
    (void)state;
    static int segv = 1, k0 = 0, k1 = 1;
    static char *missing[] = {"/nonexistent/conebench-no-such-program", NULL};
    static char *sh_both[] = {"/bin/sh", "-c", "printf out; printf err >&2; exit 5", NULL};
    static char *named[] = {"cb-named", "-c", "printf %s \"$0\"", NULL}; /* path: /bin/sh */
    static char *sh_term[] = {"/bin/sh", "-c", "trap 'exit 3' TERM; while :; do sleep 0.01; done",
                              NULL};
    pool_case cases[] = {
        {{.fn = write_stream, .arg = &k0}, CB_CHILD_EXITED, 10, NULL, 0},
        {{.fn = write_stream, .arg = &k1}, CB_CHILD_EXITED, 11, NULL, 1},
        {{.fn = write_and_crash, .arg = &segv}, CB_CHILD_SIGNALED, SIGSEGV, "partial", -1},
        {{.fn = never_ends, .limits = {POOL_LIMIT_S, 0}}, CB_CHILD_TIMED_OUT, SIGKILL, "", -1},
        {{.fn = spin, .limits = {POOL_GUARD_S, POOL_LIMIT_S}}, CB_CHILD_TIMED_OUT, SIGKILL, "",
         -1},
        {{.argv = missing}, CB_CHILD_EXITED, 127, "", -1},
        {{.argv = sh_both}, CB_CHILD_EXITED, 5, "outerr", -1},
        {{.argv = named, .path = "/bin/sh"}, CB_CHILD_EXITED, 0, "cb-named", -1},
        {{.argv = sh_term, .limits = {POOL_LIMIT_S, 0}, .term_grace_s = POOL_GUARD_S,
          .own_group = 1}, CB_CHILD_TIMED_OUT, SIGTERM, NULL, -1}}; /* sh may say why */
    enum { N = sizeof cases / sizeof *cases };
    int which[N], seen[N] = {0};
    cb_pool *pool = NULL;
    assert_int_equal(cb_pool_new(N, &pool, NULL), CB_OK);
    for (int i = 0; i < N; i++) {
        int id;
        assert_int_equal(cb_pool_start(pool, &cases[i].spec, &id, NULL), CB_OK);
        assert_true(id >= 0 && id < N);
        which[id] = i;
    }
    assert_int_equal(cb_pool_running(pool), N);
    for (int done = 0; done < N; done++) {
        cb_child_result r;
        int id = -1;
        while (id < 0)
            assert_int_equal(cb_pool_wait(pool, -1, &id, &r, NULL), CB_OK);
        const pool_case *c = &cases[which[id]];
        seen[which[id]]++;
        assert_int_equal(r.end, c->end);
        assert_int_equal(r.code, c->code);
        if (c->data)
            assert_string_equal(r.data, c->data);
        if (c->stream >= 0)
            assert_int_equal(stream_errors(&r, c->stream), 0);
        if (c->end == CB_CHILD_TIMED_OUT) /* signalled only once its limit had passed */
            assert_true(r.elapsed >= POOL_LIMIT_S);
        cb_child_result_free(&r);
    }
    for (int i = 0; i < N; i++)
        assert_int_equal(seen[i], 1);
    assert_int_equal(cb_pool_running(pool), 0);
    cb_pool_free(pool);
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1); /* no child of ours left, not even a zombie */
    assert_int_equal(errno, ECHILD);
}

/* A full pool and a spec with nothing to run are refused; waiting on an empty pool or past a
 * timeout hands back no child; children still running when the pool is freed are killed and
 * reaped. */
static void test_pool_limits_of_use(void **state)
{
    (void)state;
    cb_pool *pool = NULL;
    cb_child_spec hang = {.fn = never_ends}, nothing = {0};
    cb_child_result r;
    int id = 5;
    assert_int_equal(cb_pool_new(0, &pool, NULL), CB_ERR_INPUT);
    assert_null(pool);
    assert_int_equal(cb_pool_new(2, &pool, NULL), CB_OK);
    assert_int_equal(cb_pool_wait(pool, -1, &id, &r, NULL), CB_OK); /* empty: at once */
    assert_int_equal(id, -1);
    assert_int_equal(cb_pool_start(pool, &nothing, &id, NULL), CB_ERR_INPUT);
    assert_int_equal(cb_pool_start(pool, &hang, &id, NULL), CB_OK);
    assert_int_equal(cb_pool_start(pool, &hang, &id, NULL), CB_OK);
    assert_int_equal(cb_pool_start(pool, &hang, &id, NULL), CB_ERR_INPUT); /* full */
    assert_int_equal(id, -1);
    assert_int_equal(cb_pool_wait(pool, 0.05, &id, &r, NULL), CB_OK); /* none ends */
    assert_int_equal(id, -1);
    assert_null(r.data);
    assert_int_equal(cb_pool_running(pool), 2);
    cb_pool_free(pool);
    cb_pool_free(NULL);
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

/* A temporary file holding text (""), open for reading and writing; its name is removed. */
static int temp_file(const char *text)
{
    char path[] = "/tmp/cb_test_child_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    assert_int_equal(cb_write_all(fd, text, strlen(text)), 0);
    assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    return fd;
}

/* An exec'd child reads the caller's descriptor as stdin, writes stdout and stderr to the
 * caller's descriptors (nothing is collected), and has the environment given. */
static void test_pool_exec_files_env(void **state)
{
    (void)state;
    char text[64] = "";
    int in = temp_file("-in-"), out = temp_file("");
    char *argv[] = {"sh", "-c", "printf \"$CB_POOL_TEST\"; cat; printf e >&2", NULL};
    char *envp[] = {"CB_POOL_TEST=given", "PATH=/bin:/usr/bin", NULL};
    cb_child_spec spec = {.argv = argv, .envp = envp, .in_fd = in, .out_fd = out, .err_fd = out};
    cb_child_result r;
    assert_int_equal(cb_child_run_spec(&spec, &r, NULL), CB_OK);
    assert_int_equal(r.end, CB_CHILD_EXITED);
    assert_int_equal(r.code, 0);
    assert_int_equal(r.len, 0);
    cb_child_result_free(&r);
    ssize_t n = pread(out, text, sizeof text - 1, 0);
    close(in);
    close(out);
    assert_true(n >= 0);
    assert_string_equal(text, "given-in-e");
}

/* ------------------------------------------------------------------ cb_worker */

/* A worker that echoes its requests, hangs on "hang" and crashes on "crash". */
static int echo_serve(void *arg, int fd)
{
    (void)arg;
    for (;;) {
        char *req;
        size_t len;
        int r = cb_worker_recv(fd, &req, &len);
        if (r != 0)
            return r == 1 ? 0 : 1;
        if (len == 4 && memcmp(req, "hang", 4) == 0)
            for (;;)
                pause();
        if (len == 5 && memcmp(req, "crash", 5) == 0)
            raise(SIGSEGV);
        r = cb_worker_send(fd, req, len);
        free(req);
        if (r != 0)
            return 1;
    }
}

/* A request that is answered gets a deadline it can never reach on a loaded machine (30 s:
 * the test must not depend on the machine's speed); "hang" is never answered, so 0.2 s. */
static void worker_expect(cb_worker *w, const char *req, cb_child_end end, int code)
{
    cb_child_result r;
    double deadline = end == CB_CHILD_TIMED_OUT ? 0.2 : 30.0;
    assert_int_equal(cb_worker_call(w, req, strlen(req), deadline, &r, NULL), CB_OK);
    assert_int_equal(r.end, end);
    assert_int_equal(r.code, code);
    if (end == CB_CHILD_EXITED)
        assert_string_equal(r.data, req);
    cb_child_result_free(&r);
}

/* One child answers a sequence of requests; a request it never answers (deadline) or dies on
 * loses it, and the next request gets a new one. */
static void test_worker(void **state)
{
    (void)state;
    cb_worker *w = NULL;
    assert_int_equal(cb_worker_new(echo_serve, NULL, &w, NULL), CB_OK);
    worker_expect(w, "first", CB_CHILD_EXITED, 0);
    worker_expect(w, "", CB_CHILD_EXITED, 0);
    worker_expect(w, "hang", CB_CHILD_TIMED_OUT, SIGKILL);
    worker_expect(w, "second", CB_CHILD_EXITED, 0);
    worker_expect(w, "crash", CB_CHILD_SIGNALED, SIGSEGV);
    worker_expect(w, "third", CB_CHILD_EXITED, 0);
    cb_worker_free(w);
    cb_worker_free(NULL);
}

static cb_problem *random_problem(int nc)
{
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = CB_KIND_COULOMB3D;
    g.nc = nc;
    g.seed = 7;
    cb_problem *p = NULL;
    assert_int_equal(cb_generate_random(&g, &p, NULL, NULL, NULL), CB_OK);
    return p;
}


/* ------------------------------------------------------------------ cb_problem_pack */

/* A factored problem: 3 contacts on 2 bodies (contact 2 touches a fixed body in slot 1). */
static cb_problem *factored_problem(void)
{
    cb_problem *p = NULL;
    assert_int_equal(cb_problem_alloc_factored(CB_KIND_ROLLING3D, 3, 2, &p, NULL), CB_OK);
    for (int b = 0; b < 2; b++) {
        p->fac.minv[10 * b] = 1.0 / (b + 2);
        for (int i = 0; i < 3; i++)
            p->fac.minv[10 * b + 1 + 4 * i] = 0.5 + b;
    }
    const int body[6] = {0, 1, 1, 0, 0, -1};
    memcpy(p->fac.body, body, sizeof body);
    for (size_t k = 0; k < 2 * 3 * 6 * 5; k++)
        p->fac.G[k] = (double)((k * 37) % 11) / 7.0 - 0.6;
    for (size_t k = 0; k < 15; k++)
        p->q[k] = (double)k / 3.0 - 2.0;
    for (int a = 0; a < 3; a++)
        p->mu[a] = 0.5, p->mu_r[a] = 0.01 * (a + 1);
    assert_int_equal(cb_problem_factored_finish(p, NULL), CB_OK);
    return p;
}

static void assert_same_arrays(const cb_problem *a, const cb_problem *b)
{
    size_t n = cb_problem_n(a), nc = (size_t)a->nc, dd = (size_t)(a->d * a->d);
    assert_int_equal(b->kind, a->kind);
    assert_int_equal(b->nc, a->nc);
    assert_int_equal(b->storage, a->storage);
    if (a->storage == CB_STORAGE_DENSE)
        assert_memory_equal(b->W, a->W, n * n * sizeof(double));
    if (a->storage == CB_STORAGE_BSR) {
        assert_int_equal(b->bsr.nnzb, a->bsr.nnzb);
        assert_memory_equal(b->bsr.row_ptr, a->bsr.row_ptr, (nc + 1) * sizeof(int));
        assert_memory_equal(b->bsr.col, a->bsr.col, (size_t)a->bsr.nnzb * sizeof(int));
        assert_memory_equal(b->bsr.val, a->bsr.val, (size_t)a->bsr.nnzb * dd * sizeof(double));
    }
    if (a->storage == CB_STORAGE_FACTORED) {
        assert_int_equal(b->fac.nbody, a->fac.nbody);
        assert_memory_equal(b->fac.minv, a->fac.minv, (size_t)a->fac.nbody * 10 * sizeof(double));
        assert_memory_equal(b->fac.body, a->fac.body, 2 * nc * sizeof(int));
        assert_memory_equal(b->fac.G, a->fac.G, 2 * nc * 6 * (size_t)a->d * sizeof(double));
        assert_memory_equal(b->fac.diag, a->fac.diag, nc * dd * sizeof(double)); /* rebuilt */
    }
    assert_memory_equal(b->q, a->q, n * sizeof(double));
    assert_memory_equal(b->mu, a->mu, nc * sizeof(double));
    assert_memory_equal(b->mu_r, a->mu_r, nc * sizeof(double));
    assert_memory_equal(b->mu_s, a->mu_s, nc * sizeof(double));
}

/* Every storage comes back with the same bits; every cut of the bytes and a damaged header or
 * index is refused before anything is trusted. */
static void test_problem_pack_round_trip(void **state)
{
    (void)state;
    cb_problem *src[3] = {random_problem(4), NULL, factored_problem()};
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = CB_KIND_ROLLING3D, g.nc = 5, g.seed = 3, g.storage = CB_STORAGE_BSR;
    assert_int_equal(cb_generate_random(&g, &src[1], NULL, NULL, NULL), CB_OK);
    long cuts = 0;
    for (int k = 0; k < 3; k++) {
        char *buf = NULL;
        size_t len = 0, used = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_int_equal(cb_problem_pack(f, src[k], NULL), CB_OK);
        assert_int_equal(fclose(f), 0);
        cb_problem *back = NULL;
        cb_error err = {{0}};
        assert_int_equal(cb_problem_unpack(buf, len, &back, &used, &err), CB_OK);
        assert_int_equal(used, len);
        assert_same_arrays(src[k], back);
        cb_problem_free(back);
        for (size_t cut = 0; cut < len; cut++, cuts++) {
            back = (cb_problem *)&back;
            assert_int_equal(cb_problem_unpack(buf, cut, &back, &used, NULL), CB_ERR_INPUT);
            assert_null(back);
        }
        buf[8] = 9; /* kind 9 */
        assert_int_equal(cb_problem_unpack(buf, len, &back, &used, &err), CB_ERR_INPUT);
        assert_non_null(strstr(err.text, "packed problem: inconsistent header"));
        free(buf);
    }
    /* a BSR column index out of range: the problem check refuses it */
    src[1]->bsr.col[0] = 99;
    char *buf = NULL;
    size_t len = 0, used = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(cb_problem_pack(f, src[1], NULL), CB_OK);
    assert_int_equal(fclose(f), 0);
    cb_problem *back = NULL;
    assert_int_equal(cb_problem_unpack(buf, len, &back, &used, NULL), CB_ERR_INPUT);
    assert_null(back);
    free(buf);
    print_message("dense, BSR and factored problems packed and unpacked bit for bit; %ld cuts "
                  "refused\n", cuts);
    for (int k = 0; k < 3; k++)
        cb_problem_free(src[k]);
}

/* ------------------------------------------------------------------ cb_solve_limited */

static void test_which_solvers_stop_themselves(void **state)
{
    (void)state;
    int isolated = 0;
    for (int i = 0; i < cb_solver_count(); i++) {
        const cb_solver *s = cb_solver_at(i);
        int siconos = strncmp(s->name, "siconos-", 8) == 0;
        /* the game-engine adapters cannot be interrupted either (engines_adapter.c) */
        int engine = !strncmp(s->name, "bullet-", 7) || !strncmp(s->name, "dart-", 5);
        assert_int_equal(cb_solver_stops_at_limit(s), !siconos && !engine);
        isolated += siconos;
    }
    if (cb_solver_built_with_siconos()) /* nsgs, nsgs-light, admm and the other adapters */
        assert_true(isolated >= 3);
    else
        assert_int_equal(isolated, 0); /* make SICONOS=0 */
}

/* A Siconos solve that cannot end within any time (it would need 2³¹−1 sweeps to give up and
 * an exactly zero residual to succeed) is killed at its 0.3 s CPU budget (+ the grace): the
 * budget is larger than the child's start and Siconos' setup, so the solve does start. */
static void test_siconos_killed_at_limit(void **state)
{
    (void)state;
    CBT_REQUIRE_SICONOS();
    cb_problem *prob = random_problem(60);
    cb_solution sol;
    assert_int_equal(cb_solution_alloc(prob, &sol, NULL), CB_OK);
    for (size_t k = 0; k < sol.n; k++)
        sol.p[k] = k % 3 == 0 ? 0.125 : 0.0; /* a warm start that is not the solution */
    double *warm = malloc(sol.n * sizeof *warm), *y = malloc(sol.n * sizeof *y);
    assert_non_null(warm);
    assert_non_null(y);
    memcpy(warm, sol.p, sol.n * sizeof *warm);
    cb_settings s;
    cb_settings_default(&s);
    s.tol = 1e-300;
    s.max_iter = INT_MAX;
    s.time_limit = 0.3;
    cb_info info;
    cb_error err = {{0}};
    int killed = -1;
    const cb_solver *sv = cb_solver_find("siconos-nsgs");
    assert_int_equal(cb_solve_limited(sv, prob, &s, &sol, &info, NULL, &killed, &err), CB_OK);
    assert_int_equal(killed, 1);
    assert_int_equal(info.status, CB_STATUS_TIME_LIMIT);
    assert_int_equal(info.iterations, 0);
    assert_memory_equal(sol.p, warm, sol.n * sizeof *warm);
    cb_judgement j;
    assert_int_equal(cb_judge(prob, warm, s.tol, y, &j, NULL), CB_OK);
    assert_memory_equal(sol.y, y, sol.n * sizeof *y);
    assert_true(info.error == j.error && info.error_q == j.error_q);
    print_message("siconos-nsgs killed at 0.3 s + grace after %.3f s, warm start judged %.3e\n",
                  info.time_solve, info.error);
    cb_info_free(&info);
    cb_solution_free(&sol);
    free(warm);
    free(y);
    cb_problem_free(prob);
}

/* A Siconos solve that ends in the child returns the same bits as one in this process. */
static void test_siconos_answer_from_child(void **state)
{
    (void)state;
    CBT_REQUIRE_SICONOS();
    cb_problem *prob = random_problem(12);
    const cb_solver *sv = cb_solver_find("siconos-nsgs");
    cb_settings s;
    cb_settings_default(&s);
    s.tol = 1e-10;
    s.trace = 1;
    cb_solution a, b;
    cb_info ia, ib;
    int killed = -1;
    assert_int_equal(cb_solution_alloc(prob, &a, NULL), CB_OK);
    assert_int_equal(cb_solution_alloc(prob, &b, NULL), CB_OK);
    assert_int_equal(cb_solve(sv, prob, &s, &a, &ia, NULL), CB_OK);
    assert_int_equal(cb_solve_limited(sv, prob, &s, &b, &ib, NULL, &killed, NULL), CB_OK);
    assert_int_equal(killed, 0);
    assert_true(ia.solved);
    assert_int_equal(ib.status, ia.status);
    assert_int_equal(ib.iterations, ia.iterations);
    assert_true(ib.error == ia.error && ib.solver_error == ia.solver_error);
    assert_memory_equal(&ib.work, &ia.work, sizeof ia.work);
    assert_memory_equal(b.p, a.p, a.n * sizeof *a.p);
    assert_memory_equal(b.y, a.y, a.n * sizeof *a.y);
    assert_int_equal(ib.ntrace, ia.ntrace);
    for (int k = 0; k < ia.ntrace; k++)
        assert_true(ib.trace[k].iteration == ia.trace[k].iteration &&
                    ib.trace[k].error == ia.trace[k].error);
    print_message("siconos-nsgs in a child: %d sweeps, error %.3e, %d trace points, same bits\n",
                  ib.iterations, ib.error, ib.ntrace);
    /* bad settings come back as the same error */
    cb_info_free(&ib);
    s.tol = -1;
    cb_error err = {{0}};
    assert_int_equal(cb_solve_limited(sv, prob, &s, &b, &ib, NULL, NULL, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "tol: must be finite and > 0"));
    cb_info_free(&ia);
    cb_info_free(&ib);
    cb_solution_free(&a);
    cb_solution_free(&b);
    cb_problem_free(prob);
}

/* A simulation's solves share one child (a server): answers with the same bits as in this
 * process, before and after a solve that had to be killed (the child is then replaced). */
static void test_siconos_server(void **state)
{
    (void)state;
    CBT_REQUIRE_SICONOS();
    cb_problem *prob = random_problem(12);
    const cb_solver *sv = cb_solver_find("siconos-nsgs");
    cb_solve_server *server = NULL;
    assert_int_equal(cb_solve_server_new(&server, NULL), CB_OK);
    cb_settings s, never;
    cb_settings_default(&s);
    s.tol = 1e-10;
    never = s;
    never.tol = 1e-300, never.max_iter = INT_MAX, never.time_limit = 1e-3;
    cb_solution a, b;
    cb_info ia, ib;
    assert_int_equal(cb_solution_alloc(prob, &a, NULL), CB_OK);
    assert_int_equal(cb_solution_alloc(prob, &b, NULL), CB_OK);
    assert_int_equal(cb_solve(sv, prob, &s, &a, &ia, NULL), CB_OK);
    for (int round = 0; round < 3; round++) {
        int killed = -1;
        const cb_settings *use = round == 1 ? &never : &s;
        memset(b.p, 0, b.n * sizeof *b.p);
        assert_int_equal(cb_solve_limited(sv, prob, use, &b, &ib, server, &killed, NULL), CB_OK);
        assert_int_equal(killed, round == 1);
        assert_int_equal(ib.status, round == 1 ? CB_STATUS_TIME_LIMIT : ia.status);
        if (round != 1) {
            assert_int_equal(ib.iterations, ia.iterations);
            assert_memory_equal(b.p, a.p, a.n * sizeof *a.p);
        }
        cb_info_free(&ib);
    }
    cb_info_free(&ia);
    cb_solution_free(&a);
    cb_solution_free(&b);
    cb_solve_server_free(server);
    cb_solve_server_free(NULL);
    cb_problem_free(prob);
}

/* A conebench solver runs in this process: a solver whose solve records its process id. */
static pid_t g_solve_pid;
static int pid_setup(const cb_problem *prob, const cb_settings *s, void **work, cb_error *err)
{
    (void)prob, (void)s, (void)err;
    *work = NULL;
    return CB_OK;
}
static int pid_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                     cb_error *err)
{
    (void)work, (void)s, (void)sol, (void)err;
    g_solve_pid = getpid();
    info->status = CB_STATUS_MAX_ITER;
    info->iterations = 42;
    return CB_OK;
}
static void pid_cleanup(void *work) { (void)work; }

static void test_own_solver_in_process(void **state)
{
    (void)state;
    static const cb_solver pid_solver = {.name = "test-pid", .summary = "records its pid",
                                         .setup = pid_setup, .solve = pid_solve,
                                         .cleanup = pid_cleanup};
    cb_problem *prob = random_problem(2);
    cb_solution sol;
    cb_settings s;
    cb_info info;
    int killed = -1;
    cb_settings_default(&s);
    assert_int_equal(cb_solution_alloc(prob, &sol, NULL), CB_OK);
    assert_int_equal(cb_solve_limited(&pid_solver, prob, &s, &sol, &info, NULL, &killed, NULL),
                     CB_OK);
    assert_int_equal(g_solve_pid, getpid());
    assert_int_equal(killed, 0);
    assert_int_equal(info.iterations, 42);
    cb_info_free(&info);
    cb_solution_free(&sol);
    cb_problem_free(prob);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_child_exit_and_bytes),
        cmocka_unit_test(test_child_crash),
        cmocka_unit_test(test_child_deadline),
        cmocka_unit_test(test_child_large_output),
        cmocka_unit_test(test_pool_outcomes),
        cmocka_unit_test(test_pool_limits_of_use),
        cmocka_unit_test(test_pool_exec_files_env),
        cmocka_unit_test(test_worker),
        cmocka_unit_test(test_problem_pack_round_trip),
        cmocka_unit_test(test_which_solvers_stop_themselves),
        cmocka_unit_test(test_siconos_killed_at_limit),
        cmocka_unit_test(test_siconos_answer_from_child),
        cmocka_unit_test(test_siconos_server),
        cmocka_unit_test(test_own_solver_in_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
