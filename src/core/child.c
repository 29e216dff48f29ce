/* conebench — child processes (src/core/child.h): the one fork of the tree; a pool that runs
 * children at the same time, collects their bytes and enforces their limits; workers that answer
 * a sequence of requests. A worker's messages are framed: an 8-byte length (host order), then
 * the bytes. A child's end is seen on its pidfd (its process ended), or, where the kernel has
 * none, by looking every POOL_TICK_S. */
#define _GNU_SOURCE /* execvpe, environ, close_range, pidfd_open */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHILD_CHUNK ((size_t)1 << 16) /* bytes read from the child at a time */
#define FRAME_HEAD sizeof(uint64_t)   /* the length before each worker message */
#define POOL_MAX 1024                 /* children of one pool */
#define POOL_TICK_S 0.01              /* without a pidfd: how often a child's end is looked for */

typedef struct {
    char *data;
    size_t len, cap;
} grow_buf;

typedef enum { PUMP_DONE, PUMP_EOF, PUMP_KILLED, PUMP_NOMEM } pump_end;

/* When the parent kills the child: a wall deadline (monotonic clock, INFINITY: none) and a CPU
 * deadline on the child's CPU clock (INFINITY: none). */
typedef struct {
    double wall_end;
    clockid_t cpu_clock;
    double cpu_end;
} kill_at;

/* One running child of a pool. */
typedef struct {
    pid_t pid;          /* 0: a free slot */
    int fd, pidfd;      /* the output pipe (-1 after its end), the process's pidfd (-1: none) */
    int group;          /* its own process group: signals go to -pid */
    int sent;           /* the signal the parent sent at a limit (0: none yet) */
    int nomem;          /* its output could not be stored: killed */
    double t0, grace;   /* start (real clock); SIGTERM's grace before SIGKILL (≤ 0: none) */
    double kill_time;   /* after SIGTERM: when SIGKILL follows */
    kill_at k;
    grow_buf b;
} pool_slot;

struct cb_pool {
    int cap, running;
    pool_slot *slot;
    struct pollfd *pf; /* pf[2i]: slot i's pipe, pf[2i+1]: its pidfd */
};

struct cb_worker {
    cb_child_fn serve;
    void *arg;
    pid_t pid; /* 0: no child running */
    int fd;    /* the parent's end of the socket */
};

/* Write all of data (sock: send, without SIGPIPE when the other end is gone): 0, or -1. */
static int put_all(int fd, const void *data, size_t len, int sock)
{
    const char *p = data;
    while (len > 0) {
        ssize_t w = sock ? send(fd, p, len, MSG_NOSIGNAL) : write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int cb_write_all(int fd, const void *data, size_t len) { return put_all(fd, data, len, 0); }

int cb_child_killed_from_outside(const cb_child_result *r)
{
    return r->end == CB_CHILD_SIGNALED && (r->code == SIGKILL || r->code == SIGTERM ||
                                           r->code == SIGINT || r->code == SIGHUP);
}

void cb_child_result_free(cb_child_result *r)
{
    if (!r)
        return;
    free(r->data);
    r->data = NULL;
    r->len = 0;
}

/* The real monotonic clock (deadlines are real time, whatever clock cb_now is given). */
static double real_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The child's side before it runs anything: default signal actions, none blocked, die with
 * the parent (which may already be gone: then _exit). */
static void child_setup(pid_t parent, int own_group)
{
    static const int reset[] = {SIGSEGV, SIGBUS,  SIGFPE,  SIGILL, SIGABRT,
                                SIGINT,  SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT};
    sigset_t none;
    for (size_t i = 0; i < sizeof reset / sizeof *reset; i++)
        signal(reset[i], SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (own_group)
        setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
}

/* Exec side: stdin, stdout and stderr from the spec's descriptors (/dev/null, fd), nothing else
 * open, exec. Never returns (127: the program could not be started). */
static void child_exec(const cb_child_spec *sp, int fd)
{
    int in = sp->in_fd > 0 ? sp->in_fd : open("/dev/null", O_RDONLY);
    int o = sp->out_fd > 0 ? sp->out_fd : fd, e = sp->err_fd > 0 ? sp->err_fd : fd;
    in = fcntl(in, F_DUPFD, 3); /* copies above 2 first: no dup2 overwrites one not yet copied */
    o = fcntl(o, F_DUPFD, 3);
    e = fcntl(e, F_DUPFD, 3);
    if (in < 0 || o < 0 || e < 0 || dup2(in, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
        _exit(127);
    close_range(3, ~0U, 0);
    char *const *env = sp->envp ? sp->envp : environ;
    if (sp->path)
        execve(sp->path, sp->argv, env);
    else
        execvpe(sp->argv[0], sp->argv, env);
    _exit(127);
}

/* fork (the only one of conebench): the child runs the spec with child_fd (and closes
 * parent_fd); the parent closes child_fd. Returns the pid, or -1 (err set; both ends closed). */
static pid_t spawn(const cb_child_spec *sp, int parent_fd, int child_fd, cb_error *err)
{
    pid_t parent = getpid();
    fflush(NULL); /* no buffered bytes of the parent written twice */
    pid_t pid = fork();
    if (pid == 0) {
        close(parent_fd);
        child_setup(parent, sp->own_group);
        if (!sp->fn)
            child_exec(sp, child_fd);
        int status = sp->fn(sp->arg, child_fd);
        close(child_fd);
        _exit(status & 0xff);
    }
    int e = errno;
    close(child_fd);
    if (pid < 0) {
        close(parent_fd);
        cb_fail(err, CB_ERR_IO, "child process: fork: %s", strerror(e));
    }
    if (pid > 0 && sp->own_group)
        setpgid(pid, pid); /* also here: no race with a first kill */
    return pid;
}

/* Read what is available into b: 1 data, 0 end of file (or a read error), 2 nothing yet (a
 * non-blocking descriptor), -1 out of memory. */
static int read_some(int fd, grow_buf *b)
{
    if (b->cap - b->len < CHILD_CHUNK + 1) {
        size_t cap = b->cap ? 2 * b->cap : 2 * CHILD_CHUNK;
        char *d = cap > b->cap ? realloc(b->data, cap) : NULL;
        if (!d)
            return -1;
        b->data = d;
        b->cap = cap;
    }
    for (;;) {
        ssize_t r = read(fd, b->data + b->len, CHILD_CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && errno == EAGAIN)
            return 2;
        if (r <= 0)
            return 0;
        b->len += (size_t)r;
        return 1;
    }
}

/* Milliseconds until the deadline for poll (-1: none), 0 when it has passed. */
static int wait_ms(double deadline)
{
    if (isinf(deadline))
        return -1;
    double left = deadline - real_now();
    if (left <= 0)
        return 0;
    return left * 1e3 >= (double)INT_MAX ? INT_MAX : (int)ceil(left * 1e3);
}

/* CPU seconds the child has used on its clock (-1 when it cannot be read: the child ended). */
static double child_cpu(clockid_t clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Milliseconds poll may wait before one of k's deadlines can pass, 0 when one has. The child's
 * CPU clock cannot advance faster than the online cores times the wall clock, so it is read
 * again only when its budget could be spent. */
static int kill_wait_ms(const kill_at *k)
{
    int ms = wait_ms(k->wall_end);
    if (ms == 0 || isinf(k->cpu_end))
        return ms;
    double used = child_cpu(k->cpu_clock);
    if (used < 0)
        return ms;
    if (used >= k->cpu_end)
        return 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    double cpu_ms = ceil((k->cpu_end - used) / (double)(cores > 0 ? cores : 1) * 1e3);
    return ms < 0 || cpu_ms < ms ? (int)fmin(cpu_ms, (double)INT_MAX) : ms;
}

/* 1 when b holds a whole frame (length, then that many bytes). */
static int frame_complete(const grow_buf *b)
{
    uint64_t n;
    if (b->len < FRAME_HEAD)
        return 0;
    memcpy(&n, b->data, FRAME_HEAD);
    return b->len - FRAME_HEAD >= n;
}

/* Collect a worker's bytes until one whole frame, the end of its socket, a deadline of k (the
 * child is killed) or out of memory (killed too). */
static pump_end pump(int fd, pid_t pid, const kill_at *k, grow_buf *b)
{
    for (;;) {
        if (frame_complete(b))
            return PUMP_DONE;
        int ms = kill_wait_ms(k);
        if (ms == 0) {
            kill(pid, SIGKILL);
            return PUMP_KILLED;
        }
        struct pollfd pf = {fd, POLLIN, 0};
        if (poll(&pf, 1, ms) <= 0)
            continue; /* EINTR or the deadline: checked at the top */
        int r = read_some(fd, b);
        if (r < 0)
            kill(pid, SIGKILL);
        if (r <= 0)
            return r < 0 ? PUMP_NOMEM : PUMP_EOF;
    }
}

/* How a child ended, from its wait status ws and the signal the parent sent at a limit (0:
 * none). */
static void set_end(int ws, int sent, cb_child_result *out)
{
    out->end = sent ? CB_CHILD_TIMED_OUT : WIFEXITED(ws) ? CB_CHILD_EXITED : CB_CHILD_SIGNALED;
    out->code = sent ? sent : WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
}

/* Wait for a worker's child to end and say how it did (killed: at a limit). */
static void reap(pid_t pid, int killed, double t0, cb_child_result *out)
{
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    out->elapsed = real_now() - t0;
    set_end(ws, killed ? SIGKILL : 0, out);
}

/* Hand the bytes of b from offset `skip` to out (NUL-terminated), or fail for memory. */
static int take_bytes(grow_buf *b, size_t skip, cb_child_result *out, cb_error *err)
{
    if (!b->data && !(b->data = malloc(1)))
        return cb_fail(err, CB_ERR_NOMEM, "child process: out of memory");
    memmove(b->data, b->data + skip, b->len - skip);
    b->len -= skip;
    b->data[b->len] = '\0';
    out->data = b->data;
    out->len = b->len;
    return CB_OK;
}

/* The deadlines of lim from now (wall) and from the child's CPU clock now. */
static kill_at kill_at_from(pid_t pid, const cb_child_limits *lim, double t0)
{
    kill_at k = {lim && lim->wall_s > 0 ? t0 + lim->wall_s : INFINITY, 0, INFINITY};
    double used;
    if (lim && lim->cpu_s > 0 && clock_getcpuclockid(pid, &k.cpu_clock) == 0 &&
        (used = child_cpu(k.cpu_clock)) >= 0)
        k.cpu_end = used + lim->cpu_s;
    return k;
}

/* ------------------------------------------------------------------------------------------ */
/* The pool                                                                                     */

int cb_pool_new(int max_children, cb_pool **out, cb_error *err)
{
    *out = NULL;
    if (max_children < 1 || max_children > POOL_MAX)
        return cb_fail(err, CB_ERR_INPUT, "child pool: max_children %d not in [1, %d]",
                       max_children, POOL_MAX);
    cb_pool *p = calloc(1, sizeof *p);
    pool_slot *slot = calloc((size_t)max_children, sizeof *slot);
    struct pollfd *pf = calloc(2 * (size_t)max_children, sizeof *pf);
    if (!p || !slot || !pf) {
        free(p);
        free(slot);
        free(pf);
        return cb_fail(err, CB_ERR_NOMEM, "child pool: out of memory");
    }
    *p = (cb_pool){max_children, 0, slot, pf};
    *out = p;
    return CB_OK;
}

int cb_pool_running(const cb_pool *pool) { return pool ? pool->running : 0; }

/* Signal a child (its whole group when it leads one). */
static void slot_signal(const pool_slot *s, int sig) { kill(s->group ? -s->pid : s->pid, sig); }

/* Close what the parent holds of a child and free its slot (the process is already reaped). */
static void slot_release(cb_pool *p, pool_slot *s)
{
    if (s->fd >= 0)
        close(s->fd);
    if (s->pidfd >= 0)
        close(s->pidfd);
    free(s->b.data);
    memset(s, 0, sizeof *s);
    p->running--;
}

/* A pidfd for pid, or -1 (then the pool looks for the child's end every POOL_TICK_S). A kernel
 * (or valgrind) without pidfd_open is asked once. */
static int open_pidfd(pid_t pid)
{
    static atomic_int unsupported;
    if (atomic_load(&unsupported))
        return -1;
    int fd = pidfd_open(pid, 0);
    if (fd < 0 && errno == ENOSYS)
        atomic_store(&unsupported, 1);
    return fd;
}

int cb_pool_start(cb_pool *pool, const cb_child_spec *spec, int *id, cb_error *err)
{
    int i = 0, fds[2];
    if (id)
        *id = -1;
    if (!pool || !spec || (!spec->fn && (!spec->argv || !spec->argv[0])))
        return cb_fail(err, CB_ERR_INPUT, "child pool: %s",
                       pool ? "nothing to run (no fn, no argv)" : "no pool");
    while (i < pool->cap && pool->slot[i].pid)
        i++;
    if (i == pool->cap)
        return cb_fail(err, CB_ERR_INPUT, "child pool: full (%d children)", pool->cap);
    if (pipe2(fds, O_CLOEXEC) != 0)
        return cb_fail(err, CB_ERR_IO, "child process: pipe: %s", strerror(errno));
    pool_slot *s = &pool->slot[i];
    double t0 = real_now();
    pid_t pid = spawn(spec, fds[0], fds[1], err);
    if (pid < 0)
        return CB_ERR_IO;
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    *s = (pool_slot){pid, fds[0], open_pidfd(pid), spec->own_group != 0, 0, 0,
                     t0, spec->term_grace_s, INFINITY, kill_at_from(pid, &spec->limits, t0),
                     {0}};
    pool->running++;
    if (id)
        *id = i;
    return CB_OK;
}

/* Signal s at its limits: SIGTERM (with a grace) or SIGKILL when one passes, SIGKILL when the
 * grace ends. Returns the milliseconds poll may wait before the next of these (-1: none). */
static int slot_limits(pool_slot *s)
{
    if (s->sent == 0 && kill_wait_ms(&s->k) == 0) {
        s->sent = s->grace > 0 ? SIGTERM : SIGKILL;
        s->kill_time = real_now() + s->grace;
        slot_signal(s, s->sent);
    }
    if (s->sent == SIGTERM && wait_ms(s->kill_time) == 0) {
        s->sent = SIGKILL;
        slot_signal(s, SIGKILL);
    }
    return s->sent == 0 ? kill_wait_ms(&s->k) : s->sent == SIGTERM ? wait_ms(s->kill_time) : -1;
}

/* Read what s's pipe holds now (all of it when drain); at its end the pipe is closed. Out of
 * memory: the child is killed, its output dropped. */
static void slot_read(pool_slot *s, int drain)
{
    int r = 1;
    while (s->fd >= 0 && r == 1) {
        r = read_some(s->fd, &s->b);
        if (r == 0 || r < 0) {
            close(s->fd);
            s->fd = -1;
        }
        if (r < 0) {
            s->nomem = 1;
            kill(s->pid, SIGKILL);
        }
        r = drain ? r : 0;
    }
}

/* The smaller of two poll waits (-1: none). */
static int min_ms(int a, int b) { return a < 0 ? b : b < 0 ? a : a < b ? a : b; }

/* One poll over every child's pipe and pidfd, no longer than ms (-1: no limit) nor than the
 * next limit of a child; reads what came. Returns -1 when a signal interrupted it, else 0. */
static int pool_poll(cb_pool *p, int ms)
{
    struct pollfd *pf = p->pf;
    int tick = (int)(POOL_TICK_S * 1e3);
    for (int i = 0; i < p->cap; i++) {
        pool_slot *s = &p->slot[i];
        pf[2 * i] = (struct pollfd){s->pid ? s->fd : -1, POLLIN, 0};
        pf[2 * i + 1] = (struct pollfd){s->pid ? s->pidfd : -1, POLLIN, 0};
        if (s->pid)
            ms = min_ms(ms, min_ms(slot_limits(s), s->pidfd < 0 ? tick : -1));
    }
    int n = poll(pf, (nfds_t)(2 * p->cap), ms);
    for (int i = 0; n > 0 && i < p->cap; i++)
        if (p->slot[i].pid && pf[2 * i].revents)
            slot_read(&p->slot[i], 0);
    return n < 0 && errno == EINTR ? -1 : 0;
}

/* The id of a child whose process ended (reaped: *ws its status), or -1. */
static int pool_ended(cb_pool *p, int *ws)
{
    for (int i = 0; i < p->cap; i++) {
        pool_slot *s = &p->slot[i];
        if (!s->pid || (s->pidfd >= 0 && !p->pf[2 * i + 1].revents))
            continue;
        pid_t r;
        while ((r = waitpid(s->pid, ws, WNOHANG)) < 0 && errno == EINTR)
            ;
        if (r == s->pid || r < 0)
            return i;
    }
    return -1;
}

/* Child i's process ended with status ws: its last bytes, what is left of its group, *out. */
static int pool_finish(cb_pool *p, int i, int ws, cb_child_result *out, cb_error *err)
{
    pool_slot *s = &p->slot[i];
    int rc = CB_OK;
    slot_read(s, 1);
    if (s->group)
        slot_signal(s, SIGKILL);
    out->elapsed = real_now() - s->t0;
    set_end(ws, s->sent, out);
    if (s->nomem)
        rc = cb_fail(err, CB_ERR_NOMEM, "child process: out of memory for its output");
    if (rc == CB_OK)
        rc = take_bytes(&s->b, 0, out, err);
    if (rc == CB_OK)
        s->b.data = NULL; /* out owns it */
    slot_release(p, s);
    return rc;
}

int cb_pool_wait(cb_pool *pool, double timeout_s, int *id, cb_child_result *out, cb_error *err)
{
    memset(out, 0, sizeof *out);
    *id = -1;
    if (!pool || pool->running == 0)
        return CB_OK;
    double end = timeout_s < 0 ? INFINITY : real_now() + timeout_s;
    int ws = 0;
    for (int stop = 0; !stop;) {
        stop = pool_poll(pool, wait_ms(end)) < 0; /* a signal: the caller looks at it */
        *id = pool_ended(pool, &ws);
        stop = stop || *id >= 0 || wait_ms(end) == 0;
    }
    return *id >= 0 ? pool_finish(pool, *id, ws, out, err) : CB_OK;
}

void cb_pool_free(cb_pool *pool)
{
    if (!pool)
        return;
    for (int i = 0; i < pool->cap; i++) {
        pool_slot *s = &pool->slot[i];
        if (!s->pid)
            continue;
        slot_signal(s, SIGKILL);
        while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        slot_release(pool, s);
    }
    free(pool->slot);
    free(pool->pf);
    free(pool);
}

/* ------------------------------------------------------------------------------------------ */
/* One child: a pool of one                                                                     */

int cb_child_run_spec(const cb_child_spec *spec, cb_child_result *out, cb_error *err)
{
    cb_pool *pool = NULL;
    int id = -1;
    memset(out, 0, sizeof *out);
    int rc = cb_pool_new(1, &pool, err);
    if (rc == CB_OK)
        rc = cb_pool_start(pool, spec, NULL, err);
    while (rc == CB_OK && id < 0)
        rc = cb_pool_wait(pool, -1, &id, out, err);
    cb_pool_free(pool);
    return rc;
}

int cb_child_run(cb_child_fn fn, void *arg, double deadline_s, cb_child_result *out,
                 cb_error *err)
{
    cb_child_limits lim = {deadline_s, 0};
    return cb_child_run_limits(fn, arg, &lim, out, err);
}

int cb_child_run_limits(cb_child_fn fn, void *arg, const cb_child_limits *lim,
                        cb_child_result *out, cb_error *err)
{
    cb_child_spec spec = {.fn = fn, .arg = arg};
    if (lim)
        spec.limits = *lim;
    return cb_child_run_spec(&spec, out, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Workers                                                                                      */

int cb_worker_new(cb_child_fn serve, void *arg, cb_worker **out, cb_error *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return cb_fail(err, CB_ERR_NOMEM, "worker: out of memory");
    (*out)->serve = serve;
    (*out)->arg = arg;
    (*out)->fd = -1;
    return CB_OK;
}

static int worker_start(cb_worker *w, cb_error *err)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return cb_fail(err, CB_ERR_IO, "worker: socketpair: %s", strerror(errno));
    cb_child_spec spec = {.fn = w->serve, .arg = w->arg};
    pid_t pid = spawn(&spec, sv[0], sv[1], err);
    if (pid < 0)
        return CB_ERR_IO;
    w->pid = pid;
    w->fd = sv[0];
    return CB_OK;
}

/* The child is lost (killed, crashed, or beyond use): make sure it is gone, reap it. */
static void worker_lose(cb_worker *w, int killed, double t0, cb_child_result *out)
{
    kill(w->pid, SIGKILL); /* no effect on a child that already ended: its status stays */
    close(w->fd);
    reap(w->pid, killed, t0, out);
    w->pid = 0;
    w->fd = -1;
}

int cb_worker_call(cb_worker *w, const void *req, size_t len, double deadline_s,
                   cb_child_result *out, cb_error *err)
{
    cb_child_limits lim = {deadline_s, 0};
    return cb_worker_call_limits(w, req, len, &lim, out, err);
}

int cb_worker_call_limits(cb_worker *w, const void *req, size_t len, const cb_child_limits *lim,
                          cb_child_result *out, cb_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = w->pid ? CB_OK : worker_start(w, err);
    if (rc != CB_OK)
        return rc;
    double t0 = real_now();
    uint64_t n = len;
    grow_buf b = {0};
    pump_end end = PUMP_EOF;
    kill_at k = kill_at_from(w->pid, lim, t0);
    if (put_all(w->fd, &n, FRAME_HEAD, 1) == 0 && put_all(w->fd, req, len, 1) == 0)
        end = pump(w->fd, w->pid, &k, &b);
    if (end == PUMP_DONE) {
        out->elapsed = real_now() - t0;
        rc = take_bytes(&b, FRAME_HEAD, out, err); /* end EXITED, code 0: answered */
    } else {
        worker_lose(w, end == PUMP_KILLED, t0, out);
        if (end == PUMP_NOMEM)
            rc = cb_fail(err, CB_ERR_NOMEM, "worker: out of memory for its answer");
    }
    if (rc != CB_OK || end != PUMP_DONE)
        free(b.data);
    if (rc != CB_OK)
        out->data = NULL;
    return rc;
}

void cb_worker_free(cb_worker *w)
{
    if (!w)
        return;
    if (w->pid) { /* end of requests: the child's cb_worker_recv returns 1 and it exits */
        close(w->fd);
        while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    free(w);
}

/* Read exactly len bytes: 1, 0 at end of file before any byte, -1 on failure or a cut. */
static int read_exact(int fd, void *data, size_t len)
{
    char *p = data;
    size_t got = 0;
    while (got < len) {
        ssize_t r = read(fd, p + got, len - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return got == 0 && r == 0 ? 0 : -1;
        got += (size_t)r;
    }
    return 1;
}

int cb_worker_recv(int fd, char **data, size_t *len)
{
    uint64_t n;
    *data = NULL;
    *len = 0;
    int r = read_exact(fd, &n, FRAME_HEAD);
    if (r <= 0)
        return r == 0 ? 1 : -1;
    if (n >= SIZE_MAX || !(*data = malloc((size_t)n + 1)))
        return -1;
    if (n > 0 && read_exact(fd, *data, (size_t)n) != 1) {
        free(*data);
        *data = NULL;
        return -1;
    }
    *len = (size_t)n;
    return 0;
}

int cb_worker_send(int fd, const void *data, size_t len)
{
    uint64_t n = len;
    return cb_write_all(fd, &n, FRAME_HEAD) == 0 && cb_write_all(fd, data, len) == 0 ? 0 : -1;
}
