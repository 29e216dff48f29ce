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

int cb_gnuplot(const cb_gnuplot_job *j, cb_error *err)
{
    char *text = NULL, last[GP_LOG_LINE];
    cb_child_result res = {0};
    int rc = gp_script(j, &text, err);
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
