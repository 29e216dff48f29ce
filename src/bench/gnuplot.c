/* conebench — the one gnuplot driver (gnuplot.h): gnuplot started through the worker pool
 * (src/core/child.h: exec, no shell), the script as its standard input (an anonymous memory
 * file), its messages to the log. */
#define _GNU_SOURCE /* memfd_create */
#include "gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base.h"
#include "child.h"

#define GP_LOG_LINE 512 /* bytes of gnuplot's last message kept for the error */
#define GP_EXEC_FAILED 127 /* the pool's exit status for a program it could not start */
#define GP_FAILED "cb-gnuplot-failed" /* a batch's line for a failed figure (gnuplot's stderr) */
#define GP_LOAD "%s\ncb_gp_script = %s\nload cb_gp_script\n" /* the definitions, the load */

/* Append n bytes of t to buf (len bytes, NUL kept): 0, or -1 when they do not fit. */
static int put(char *buf, size_t len, size_t *k, const char *t, size_t n)
{
    if (*k + n + 1 > len)
        return -1;
    memcpy(buf + *k, t, n);
    *k += n;
    buf[*k] = '\0';
    return 0;
}

int cb_gp_str(char *buf, size_t len, const char *s, const char *what, cb_error *err)
{
    size_t k = 0;
    int bad = len == 0 || put(buf, len, &k, "", 0);
    if (strchr(s, '\n') || strchr(s, '\r'))
        return cb_fail(err, CB_ERR_INPUT, "%s: a newline cannot be written in a gnuplot string",
                       what);
    if (!*s)
        bad |= put(buf, len, &k, "''", 2);
    for (const char *p = s; *p && !bad;) {
        size_t n = strcspn(p, "'");
        if (p != s)
            bad |= put(buf, len, &k, " . ", 3);
        if (n > 0)
            bad |= put(buf, len, &k, "'", 1) | put(buf, len, &k, p, n) | put(buf, len, &k, "'", 1);
        else
            bad |= put(buf, len, &k, "\"'\"", 3);
        p += n > 0 ? n : 1;
    }
    if (bad)
        return cb_fail(err, CB_ERR_INPUT, "%s: too long for a gnuplot string", what);
    return CB_OK;
}

/* The last non-empty line of the log (what gnuplot said last), "" when none. */
static void log_tail(const char *path, char *line, size_t len)
{
    char buf[GP_LOG_LINE];
    FILE *f = fopen(path, "r");
    line[0] = '\0';
    while (f && fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = '\0';
        const char *b = buf + strspn(buf, " \t");
        if (b[0])
            snprintf(line, len, "%s", b);
    }
    if (f)
        fclose(f);
}

/* The error of a gnuplot not found. */
static int not_found(cb_error *err)
{
    return cb_fail(err, CB_ERR_IO, "cannot run gnuplot: not found in PATH (%s)",
                   CB_GNUPLOT_INSTALL);
}

int cb_gnuplot_check(cb_error *err)
{
    const char *path = getenv("PATH");
    char dir[PATH_MAX], exe[PATH_MAX + 16];
    for (const char *p = path ? path : ""; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)(n < sizeof dir ? n : sizeof dir - 1), p);
        snprintf(exe, sizeof exe, "%s/%s", n ? dir : ".", CB_GNUPLOT_PROGRAM);
        if (access(exe, X_OK) == 0)
            return CB_OK;
        p += n + (p[n] == ':');
    }
    return not_found(err);
}

/* The script: the definitions, then `load` of plots/script (quoted, through a variable). */
static int gp_script(const cb_gnuplot_job *j, char **text, cb_error *err)
{
    const char *vars = j->vars ? j->vars : "";
    size_t np = strlen(j->plots) + strlen(j->script) + 2, qn = CB_GP_QUOTED(np);
    size_t nt = strlen(vars) + qn + sizeof GP_LOAD;
    char *path = malloc(np), *q = malloc(qn);
    int rc = path && q && (*text = malloc(nt)) ? CB_OK
                                               : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK) {
        snprintf(path, np, "%s/%s", j->plots, j->script);
        rc = cb_gp_str(q, qn, path, path, err);
    }
    if (rc == CB_OK)
        snprintf(*text, nt, GP_LOAD, vars, q);
    free(path);
    free(q);
    return rc;
}

/* The script text in an anonymous memory file, read from its start: its descriptor, or -1. */
static int gp_script_fd(const char *text)
{
    int fd = memfd_create("conebench-gnuplot", MFD_CLOEXEC);
    if (fd >= 0 && (cb_write_all(fd, text, strlen(text)) != 0 || lseek(fd, 0, SEEK_SET) != 0)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* Run gnuplot on text (stdout and stderr to the log); *res how it ended. CB_ERR_IO when it
 * cannot be started. */
static int gp_run(const cb_gnuplot_job *j, const char *text, cb_child_result *res,
                  cb_error *err)
{
    int logfd = open(j->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644), in = -1, rc;
    char *argv[] = {(char *)CB_GNUPLOT_PROGRAM, NULL};
    memset(res, 0, sizeof *res);
    if (logfd < 0)
        rc = cb_fail_at(err, CB_ERR_IO, j->log, 0, "cannot write: %s", strerror(errno));
    else if ((in = gp_script_fd(text)) < 0)
        rc = cb_fail(err, CB_ERR_IO, "cannot run gnuplot: script: %s", strerror(errno));
    else
        rc = cb_child_run_spec(&(cb_child_spec){.argv = argv, .in_fd = in, .out_fd = logfd,
                                                .err_fd = logfd},
                               res, err);
    if (in >= 0)
        close(in);
    if (logfd >= 0)
        close(logfd);
    return rc;
}

/* Remove the figure's files (out.png, out.svg): a failed gnuplot leaves none half written. */
static void gp_remove(const char *out)
{
    static const char *const ext[] = {".png", ".svg"};
    char path[PATH_MAX];
    for (size_t i = 0; out && i < sizeof ext / sizeof *ext; i++)
        if (snprintf(path, sizeof path, "%s%s", out, ext[i]) < (int)sizeof path)
            unlink(path);
}

static int batch_add(cb_gnuplot_batch *b, const cb_gnuplot_job *j, char *text, cb_error *err);

int cb_gnuplot(const cb_gnuplot_job *j, cb_error *err)
{
    char *text = NULL, last[GP_LOG_LINE];
    cb_child_result res = {0};
    int rc = gp_script(j, &text, err);
    if (rc == CB_OK && j->batch)
        return batch_add(j->batch, j, text, err); /* text now the batch's */
    if (rc == CB_OK)
        rc = gp_run(j, text, &res, err);
    int exited = res.end == CB_CHILD_EXITED;
    if (rc == CB_OK && exited && res.code == GP_EXEC_FAILED)
        rc = cb_gnuplot_check(err); /* the program could not be started: say why */
    if (rc == CB_OK && !(exited && res.code == 0)) {
        log_tail(j->log, last, sizeof last);
        rc = cb_fail(err, CB_ERR_IO, "gnuplot failed on %s/%s (%s %d) drawing %s: %s (all of "
                     "it in %s)", j->plots, j->script, exited ? "status" : "signal", res.code,
                     j->out ? j->out : "a figure", last, j->log);
    }
    if (rc != CB_OK)
        gp_remove(j->out);
    cb_child_result_free(&res);
    free(text);
    return rc;
}

/* ---- batches ---- */

struct cb_gnuplot_batch {
    char **text, **out, **script; /* each queued figure's text, output, plots/script (owned) */
    int n, cap;
    int first, code;              /* the first failed figure (-1: none), its process' status */
    char why[GP_LOG_LINE];        /* gnuplot's last message before it failed */
};

int cb_gnuplot_batch_new(cb_gnuplot_batch **out, cb_error *err)
{
    *out = calloc(1, sizeof **out);
    if (*out)
        (*out)->first = -1;
    return *out ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
}

int cb_gnuplot_batch_size(const cb_gnuplot_batch *b)
{
    return b ? b->n : 0;
}

/* Empty the queue. */
static void batch_clear(cb_gnuplot_batch *b)
{
    for (int i = 0; i < b->n; i++) {
        free(b->text[i]);
        free(b->out[i]);
        free(b->script[i]);
    }
    b->n = 0;
    b->first = -1;
}

void cb_gnuplot_batch_free(cb_gnuplot_batch *b)
{
    if (!b)
        return;
    batch_clear(b);
    free(b->text);
    free(b->out);
    free(b->script);
    free(b);
}

/* Queue job j's script text (taken over, freed on failure). */
static int batch_add(cb_gnuplot_batch *b, const cb_gnuplot_job *j, char *text, cb_error *err)
{
    char *out = cb_strdup(j->out ? j->out : ""), *script = malloc(strlen(j->plots) +
                                                                  strlen(j->script) + 2);
    if (out && script && b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 64;
        char **t = realloc(b->text, (size_t)cap * sizeof *t);
        b->text = t ? t : b->text;
        char **o = t ? realloc(b->out, (size_t)cap * sizeof *o) : NULL;
        b->out = o ? o : b->out;
        char **s = o ? realloc(b->script, (size_t)cap * sizeof *s) : NULL;
        b->script = s ? s : b->script;
        b->cap = s ? cap : b->cap;
    }
    if (!out || !script || b->n == b->cap) {
        free(out);
        free(script);
        free(text);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    sprintf(script, "%s/%s", j->plots, j->script);
    b->text[b->n] = text;
    b->script[b->n] = script;
    b->out[b->n++] = out;
    return CB_OK;
}

/* The script of process k of np: its figures (every np-th), each after a reset of the session
 * and followed by a line "GP_FAILED <figure>" on stderr when it failed. NULL: out of memory. */
static char *batch_text(const cb_gnuplot_batch *b, int k, int np)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    for (int i = k; i < b->n; i += np)
        fprintf(f, "reset session\nreset errors\n%s\nif (GPVAL_ERRNO != 0) { print '%s %d' }\n",
                b->text[i], GP_FAILED, i);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Start process k of np on its share of b, messages collected. */
static int batch_start(cb_pool *pool, const cb_gnuplot_batch *b, int k, int np, cb_error *err)
{
    char *argv[] = {(char *)CB_GNUPLOT_PROGRAM, NULL};
    char *text = batch_text(b, k, np);
    int in = text ? gp_script_fd(text) : -1, rc;
    if (!text)
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    else if (in < 0)
        rc = cb_fail(err, CB_ERR_IO, "cannot run gnuplot: script: %s", strerror(errno));
    else
        rc = cb_pool_start(pool, &(cb_child_spec){.argv = argv, .in_fd = in}, NULL, err);
    if (in >= 0)
        close(in);
    free(text);
    return rc;
}

/* The last non-empty line of data[0..end) into line. */
static void last_line(const char *data, const char *end, char *line, size_t len)
{
    line[0] = '\0';
    for (const char *l = data; l < end;) {
        const char *nl = memchr(l, '\n', (size_t)(end - l)), *e = nl ? nl : end;
        const char *s = l + strspn(l, " \t");
        if (s < e)
            snprintf(line, len, "%.*s", (int)(e - s), s);
        l = e + 1;
    }
}

/* A finished process: its messages appended to the log, its failed figures removed, the first
 * of them (and gnuplot's message before it) kept in b; CB_ERR_IO when gnuplot could not start
 * or crashed. */
static int batch_end(cb_gnuplot_batch *b, const cb_child_result *res, FILE *log, cb_error *err)
{
    int exited = res->end == CB_CHILD_EXITED;
    if (log && res->data)
        fwrite(res->data, 1, res->len, log);
    for (const char *p = res->data; p && (p = strstr(p, GP_FAILED " ")); p++) {
        int i = atoi(p + sizeof GP_FAILED);
        if (i < 0 || i >= b->n)
            continue;
        gp_remove(b->out[i]);
        if (b->first < 0 || i < b->first) {
            b->first = i;
            b->code = res->code;
            last_line(res->data, p, b->why, sizeof b->why);
        }
    }
    if (exited && res->code == GP_EXEC_FAILED)
        return cb_gnuplot_check(err);
    if (!exited)
        return cb_fail(err, CB_ERR_IO, "gnuplot ended by signal %d drawing a batch of figures",
                       res->code);
    return CB_OK;
}

int cb_gnuplot_batch_run(cb_gnuplot_batch *b, const char *log, cb_error *err)
{
    int np = b && b->n < CB_GNUPLOT_PROCS ? b->n : CB_GNUPLOT_PROCS, started = 0;
    if (!b || b->n == 0)
        return CB_OK;
    cb_pool *pool = NULL;
    FILE *lf = fopen(log, "a");
    int rc = lf ? cb_pool_new(np, &pool, err)
                : cb_fail_at(err, CB_ERR_IO, log, 0, "cannot write: %s", strerror(errno));
    for (int k = 0; k < np && rc == CB_OK; k++)
        if ((rc = batch_start(pool, b, k, np, err)) == CB_OK)
            started++;
    for (int done = 0; done < started && cb_pool_running(pool) > 0;) {
        int id = -1;
        cb_child_result res = {0};
        int wrc = cb_pool_wait(pool, -1, &id, &res, err);
        done += id >= 0;
        if (wrc == CB_OK && id >= 0)
            wrc = batch_end(b, &res, lf, err);
        rc = rc == CB_OK ? wrc : rc;
        cb_child_result_free(&res);
    }
    cb_pool_free(pool);
    if (lf)
        fclose(lf);
    if (rc == CB_OK && b->first >= 0)
        rc = cb_fail(err, CB_ERR_IO, "gnuplot failed on %s (status %d) drawing %s: %s (all of "
                     "it in %s)", b->script[b->first], b->code, b->out[b->first], b->why, log);
    batch_clear(b);
    return rc;
}
