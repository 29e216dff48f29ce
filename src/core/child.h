/* conebench — child processes: the one place where conebench starts a process (fork, and exec
 * of other programs).
 *
 * A pool (cb_pool) runs children at the same time, each under limits of its own, collects
 * what each writes and hands back, one after the other, how each ended. A child runs either a
 * function (fork, no exec: fn(arg, fd) writes its answer to fd and ends with _exit(fn's return
 * value), so no atexit handler, stdio flush or leak report runs in it; fn frees what it
 * allocated and writes everything itself, cb_write_all) or another program (exec of an argv,
 * no shell; stdin from /dev/null or a descriptor of the caller, stdout and stderr into the
 * collected output or into files the caller opened). cb_child_run is a pool of one child: for
 * calls into libraries that may crash on bad data or cannot be interrupted (HDF5 reads, the
 * Siconos solvers under a time limit). A worker (cb_worker, below) is one persistent child
 * answering a sequence of requests.
 *
 * In every child the crash signals (SEGV, BUS, FPE, ILL, ABRT), SIGINT, SIGTERM, SIGPIPE,
 * SIGCHLD and SIGQUIT take their default action, whatever the parent installed, no signal is
 * blocked, and the child dies with the parent (PR_SET_PDEATHSIG). The parent kills a child at
 * its limits, reaps it and says how it ended. What a child wrote is untrusted: the caller
 * validates it (a crash may leave a truncated answer).
 *
 * Ownership: result->data is allocated here; cb_child_result_free releases it.
 */
#ifndef CONEBENCH_CHILD_H
#define CONEBENCH_CHILD_H

#include <stddef.h>

#include "conebench/common.h"

typedef enum {
    CB_CHILD_EXITED = 0,   /* code = its exit status */
    CB_CHILD_SIGNALED = 1, /* code = the signal that killed it (a crash) */
    CB_CHILD_TIMED_OUT = 2 /* signalled by the parent at a limit (code = that signal: SIGKILL,
                            * or SIGTERM under a grace, cb_child_spec) */
} cb_child_end;

typedef struct {
    cb_child_end end;
    int code;
    char *data;     /* every byte the child wrote, NUL-terminated (owned) */
    size_t len;     /* bytes in data, without the NUL */
    double elapsed; /* wall seconds from fork to the end of the child */
} cb_child_result;

/* The child's work: write the answer to fd, return the exit status (0..255). */
typedef int (*cb_child_fn)(void *arg, int fd);

/* Run fn(arg, fd) in a child process. deadline_s > 0: kill the child after that many seconds of
 * wall time; ≤ 0: no deadline. Returns CB_OK when the child ran (however it ended, see
 * out->end), CB_ERR_IO when no child could be started (pipe/fork), CB_ERR_NOMEM when its output
 * could not be stored (the child is killed). *out is always initialised (data NULL on error). */
int cb_child_run(cb_child_fn fn, void *arg, double deadline_s, cb_child_result *out,
                 cb_error *err);

/* When the parent kills a child: after wall_s seconds of wall time, after cpu_s seconds of
 * the child's CPU time (its process CPU clock, every thread, counted from the call: the budget
 * of a solve; watched without busy polling); ≤ 0: no such limit. */
typedef struct {
    double wall_s, cpu_s;
} cb_child_limits;

/* cb_child_run under limits (NULL: none); a child killed at either is CB_CHILD_TIMED_OUT. */
int cb_child_run_limits(cb_child_fn fn, void *arg, const cb_child_limits *lim,
                        cb_child_result *out, cb_error *err);

/* What a child runs and under which rules. Zero-initialised fields are the defaults. */
typedef struct {
    cb_child_fn fn;       /* run fn(arg, fd) in the child (fork, no exec); or, when NULL, ... */
    void *arg;
    char *const *argv;    /* ... exec the program with argv (NULL-terminated); a program that
                           * cannot be started ends with exit status 127 */
    const char *path;     /* exec: the program's file (NULL: argv[0], searched in PATH) */
    char *const *envp;    /* exec: its environment (NULL: this process's) */
    int in_fd;            /* exec: > 0: its stdin reads that descriptor (e.g. a script written
                           * to a temporary file); 0: /dev/null */
    int out_fd, err_fd;   /* exec: > 0: its stdout / stderr go to that descriptor; 0: into the
                           * collected output (the result's data) */
    cb_child_limits limits; /* when the parent stops it (≤ 0: no such limit) */
    double term_grace_s;  /* > 0: at a limit SIGTERM first, SIGKILL that many seconds later;
                           * ≤ 0: SIGKILL at once */
    int own_group;        /* 1: the child leads a process group of its own; the limits' signals
                           * go to the whole group, and what is left of the group when the child
                           * ends is killed (no process left behind) */
} cb_child_spec;

/* Run one child (a pool of one) and wait for its end. Returns as cb_child_run. A child the
 * parent signalled at a limit is CB_CHILD_TIMED_OUT (code = the last signal sent: SIGKILL, or
 * SIGTERM when it ended within its grace), whatever it did after. */
int cb_child_run_spec(const cb_child_spec *spec, cb_child_result *out, cb_error *err);

/* A pool: at most max_children children at the same time. */
typedef struct cb_pool cb_pool;

/* max_children in [1, 1024]. */
int cb_pool_new(int max_children, cb_pool **out, cb_error *err);
/* Start a child by spec (copied: spec need not outlive the call, but argv, envp and what arg
 * points to must stay valid until the child is started, i.e. this call's return). *id (may be
 * NULL) = the child's id in [0, max_children): the caller's index for it until cb_pool_wait
 * hands it back, then free for another child. CB_ERR_INPUT when the pool is full or the spec
 * names nothing to run; CB_ERR_IO when no child could be started (pipe/fork). */
int cb_pool_start(cb_pool *pool, const cb_child_spec *spec, int *id, cb_error *err);
/* Wait up to timeout_s seconds (< 0: no limit) for the next child to end; the pool keeps
 * collecting every child's output and enforcing every child's limits meanwhile. A child has
 * ended when its process has: *id = its id, *out how it ended and what it wrote. *id = -1 (out
 * empty) when none ended in time, when a signal interrupted the wait, or when no child runs.
 * Returns CB_OK, or CB_ERR_NOMEM when the output of child *id could not be stored (it was
 * killed, it is reaped; out->data NULL). *out is always initialised. */
int cb_pool_wait(cb_pool *pool, double timeout_s, int *id, cb_child_result *out, cb_error *err);
/* The number of children started and not yet handed back by cb_pool_wait. */
int cb_pool_running(const cb_pool *pool);
/* Kill (SIGKILL, to the group of an own_group child) and reap every child still running, then
 * free the pool. NULL ok. */
void cb_pool_free(cb_pool *pool);

void cb_child_result_free(cb_child_result *r);
/* 1 when r's child was ended by a signal that comes from outside (SIGKILL, as the kernel's
 * out-of-memory killer sends; SIGTERM, SIGINT, SIGHUP), not by a crash of the code it ran. */
int cb_child_killed_from_outside(const cb_child_result *r);

/* Write len bytes to fd (retrying short writes and EINTR): 0, or -1 on failure. For the child's
 * answer, and for any file descriptor (io.c writes files with it). */
int cb_write_all(int fd, const void *data, size_t len);

/* A worker: a child that answers requests one after the other, so that a sequence of calls (the
 * steps of a simulation) pays for one fork, not one each. serve(arg, fd) runs in the child:
 * it reads each request with cb_worker_recv, answers it with cb_worker_send, and returns (its
 * exit status) when cb_worker_recv reports the end. Same child rules as cb_child_run. */
typedef struct cb_worker cb_worker;

/* Create a worker; its child starts at the first call (and again after one was lost). */
int cb_worker_new(cb_child_fn serve, void *arg, cb_worker **out, cb_error *err);
/* Send the request and wait for the answer. deadline_s > 0: kill the child when no answer has
 * come after that many seconds. Answered: out->end = CB_CHILD_EXITED, out->code = 0, the answer
 * in out->data. Otherwise the child is gone (end and code say how) and the next call starts a
 * new one. Returns as cb_child_run. */
int cb_worker_call(cb_worker *w, const void *req, size_t len, double deadline_s,
                   cb_child_result *out, cb_error *err);
/* cb_worker_call under limits (NULL: none), counted from the request. */
int cb_worker_call_limits(cb_worker *w, const void *req, size_t len, const cb_child_limits *lim,
                          cb_child_result *out, cb_error *err);
/* Stop the child (end of requests; killed if it does not end) and free the worker. NULL ok. */
void cb_worker_free(cb_worker *w);

/* In the child: the next request (*data allocated, caller frees): 0, 1 at the end of the
 * requests, -1 on failure. Send one answer: 0 or -1. */
int cb_worker_recv(int fd, char **data, size_t *len);
int cb_worker_send(int fd, const void *data, size_t len);

#endif
