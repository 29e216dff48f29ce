/* conebench — run a function in a child process and collect the bytes it writes.
 *
 * For calls into libraries that may crash on bad data or cannot be interrupted: HDF5 reads
 * (cb_read_problem) and the Siconos solvers under a time limit (cb_solve_limited; the steps of a
 * simulation go to one persistent child, a cb_worker, below). The child
 * (fork, no exec) runs fn(arg, fd), writes its answer to fd and ends with _exit(fn's return
 * value): no atexit handler, stdio flush or leak report runs in the child, so fn frees what it
 * allocated and writes everything itself (cb_write_all). In the child the crash signals
 * (SEGV, BUS, FPE, ILL, ABRT) take their default action, whatever the parent installed, and
 * the child dies with the parent (PR_SET_PDEATHSIG).
 *
 * The parent collects what the child writes until the child closes the pipe, kills it with
 * SIGKILL at the deadline, reaps it and says how it ended. What the child wrote is untrusted:
 * the caller validates it (a crash may leave a truncated answer).
 *
 * Ownership: result->data is allocated by cb_child_run; cb_child_result_free releases it.
 */
#ifndef CONEBENCH_CHILD_H
#define CONEBENCH_CHILD_H

#include <stddef.h>

#include "conebench/common.h"

typedef enum {
    CB_CHILD_EXITED = 0,   /* code = its exit status */
    CB_CHILD_SIGNALED = 1, /* code = the signal that killed it (a crash) */
    CB_CHILD_TIMED_OUT = 2 /* killed by the parent at the deadline (code = SIGKILL) */
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

void cb_child_result_free(cb_child_result *r);

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
