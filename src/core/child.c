/* conebench — run a function in a child process, collect its bytes, enforce a deadline; workers
 * that answer a sequence of requests (src/core/child.h). A worker's messages are
 * framed: an 8-byte length (host order), then the bytes. */
#include "child.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHILD_CHUNK ((size_t)1 << 16) /* bytes read from the child at a time */
#define FRAME_HEAD sizeof(uint64_t)   /* the length before each worker message */

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

/* The child: default crash actions, die with the parent, run fn, _exit. Never returns. */
static void child_side(cb_child_fn fn, void *arg, int fd, pid_t parent)
{
    static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof crash_signals / sizeof *crash_signals; i++)
        signal(crash_signals[i], SIG_DFL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* the parent died before prctl */
        _exit(127);
    int status = fn(arg, fd);
    close(fd);
    _exit(status & 0xff);
}

/* fork: the child runs fn with child_fd (and closes parent_fd); the parent closes child_fd.
 * Returns the pid, or -1 (err set; both ends closed). */
static pid_t spawn(cb_child_fn fn, void *arg, int parent_fd, int child_fd, cb_error *err)
{
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        close(parent_fd);
        child_side(fn, arg, child_fd, parent);
    }
    int e = errno;
    close(child_fd);
    if (pid < 0) {
        close(parent_fd);
        cb_fail(err, CB_ERR_IO, "child process: fork: %s", strerror(e));
    }
    return pid;
}

/* Read what is available into b: 1 data, 0 end of file (or a read error), -1 out of memory. */
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

/* Collect the child's bytes until end of file (framed: until one whole frame), a deadline of k
 * (the child is killed) or out of memory (killed too). */
static pump_end pump(int fd, pid_t pid, const kill_at *k, int framed, grow_buf *b)
{
    for (;;) {
        if (framed && frame_complete(b))
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
            return r < 0 ? PUMP_NOMEM : framed ? PUMP_EOF : PUMP_DONE;
    }
}

/* Wait for the child to end and say how it did. */
static void reap(pid_t pid, int killed, double t0, cb_child_result *out)
{
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    out->elapsed = real_now() - t0;
    out->end = WIFEXITED(ws) ? CB_CHILD_EXITED : killed ? CB_CHILD_TIMED_OUT : CB_CHILD_SIGNALED;
    out->code = WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
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

int cb_child_run(cb_child_fn fn, void *arg, double deadline_s, cb_child_result *out,
                 cb_error *err)
{
    cb_child_limits lim = {deadline_s, 0};
    return cb_child_run_limits(fn, arg, &lim, out, err);
}

int cb_child_run_limits(cb_child_fn fn, void *arg, const cb_child_limits *lim,
                        cb_child_result *out, cb_error *err)
{
    memset(out, 0, sizeof *out);
    int fds[2], rc = CB_OK;
    if (pipe(fds) != 0)
        return cb_fail(err, CB_ERR_IO, "child process: pipe: %s", strerror(errno));
    double t0 = real_now();
    pid_t pid = spawn(fn, arg, fds[0], fds[1], err);
    if (pid < 0)
        return CB_ERR_IO;
    grow_buf b = {0};
    kill_at k = kill_at_from(pid, lim, t0);
    pump_end end = pump(fds[0], pid, &k, 0, &b);
    close(fds[0]);
    reap(pid, end == PUMP_KILLED, t0, out);
    if (end == PUMP_NOMEM)
        rc = cb_fail(err, CB_ERR_NOMEM, "child process: out of memory for its output");
    if (rc == CB_OK)
        rc = take_bytes(&b, 0, out, err);
    if (rc != CB_OK)
        free(b.data);
    return rc;
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
    pid_t pid = spawn(w->serve, w->arg, sv[0], sv[1], err);
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
        end = pump(w->fd, w->pid, &k, 1, &b);
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
