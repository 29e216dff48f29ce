/* conebench — the one gnuplot driver (gnuplot.h): posix_spawnp, the script on a socket as
 * standard input (written without SIGPIPE when gnuplot is gone), messages to the log. */
#include "gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"

#define GP_LOG_LINE 512 /* bytes of gnuplot's last message kept for the error */

extern char **environ;

int cb_gp_str(char *buf, size_t len, const char *s, const char *what, cb_error *err)
{
    size_t k = 0;
    if (strchr(s, '\n') || strchr(s, '\r'))
        return cb_fail(err, CB_ERR_INPUT, "%s: a newline cannot be written in a gnuplot string",
                       what);
    for (buf[k++] = '\''; *s && k + 3 < len; s++)
        if ((buf[k++] = *s) == '\'')
            buf[k++] = '\'';
    if (*s || k + 2 > len)
        return cb_fail(err, CB_ERR_INPUT, "%s: too long for a gnuplot string", what);
    buf[k++] = '\'';
    buf[k] = '\0';
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

/* Start gnuplot: stdin the socket end `in`, stderr the log `logfd`. 0 or an errno. */
static int gp_spawn(int in, int logfd, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    char *argv[] = {(char *)CB_GNUPLOT_PROGRAM, NULL};
    int e = posix_spawn_file_actions_init(&fa);
    if (e)
        return e;
    e = posix_spawn_file_actions_adddup2(&fa, in, STDIN_FILENO);
    if (!e)
        e = posix_spawn_file_actions_adddup2(&fa, logfd, STDERR_FILENO);
    if (!e)
        e = posix_spawnp(pid, CB_GNUPLOT_PROGRAM, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return e;
}

/* The script: the definitions, then `load` of the quoted plots/script. */
static int gp_script(const cb_gnuplot_job *j, char **text, cb_error *err)
{
    const char *vars = j->vars ? j->vars : "";
    size_t np = strlen(j->plots) + strlen(j->script) + 2, qn = 2 * np + 3;
    size_t nt = strlen(vars) + qn + sizeof "\nload \n";
    char *path = malloc(np), *q = malloc(qn);
    int rc = path && q && (*text = malloc(nt)) ? CB_OK
                                               : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK) {
        snprintf(path, np, "%s/%s", j->plots, j->script);
        rc = cb_gp_str(q, qn, path, path, err);
    }
    if (rc == CB_OK)
        snprintf(*text, nt, "%s\nload %s\n", vars, q);
    free(path);
    free(q);
    return rc;
}

/* Run gnuplot on text; *status its wait status. CB_ERR_IO when it cannot be started. */
static int gp_run(const cb_gnuplot_job *j, const char *text, int *status, cb_error *err)
{
    int sv[2] = {-1, -1}, logfd = open(j->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    pid_t pid = -1;
    int rc = CB_OK, e = 0;
    if (logfd < 0)
        rc = cb_fail_at(err, CB_ERR_IO, j->log, 0, "cannot write: %s", strerror(errno));
    else if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        rc = cb_fail(err, CB_ERR_IO, "cannot run gnuplot: %s", strerror(errno));
    else if ((e = gp_spawn(sv[1], logfd, &pid)) != 0)
        rc = e == ENOENT ? not_found(err)
                         : cb_fail(err, CB_ERR_IO, "cannot run gnuplot: %s", strerror(e));
    if (sv[1] >= 0)
        close(sv[1]);
    for (size_t off = 0, n = strlen(text); rc == CB_OK && off < n;) {
        ssize_t w = send(sv[0], text + off, n - off, MSG_NOSIGNAL);
        if (w < 0 && errno != EINTR)
            break; /* gnuplot is gone: its status says why */
        off += w > 0 ? (size_t)w : 0;
    }
    if (sv[0] >= 0)
        close(sv[0]);
    while (rc == CB_OK && waitpid(pid, status, 0) < 0)
        if (errno != EINTR)
            rc = cb_fail(err, CB_ERR_IO, "gnuplot: %s", strerror(errno));
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
    int status = 0, rc = gp_script(j, &text, err);
    if (rc == CB_OK)
        rc = gp_run(j, text, &status, err);
    if (rc == CB_OK && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        log_tail(j->log, last, sizeof last);
        rc = cb_fail(err, CB_ERR_IO, "gnuplot failed on %s/%s (%s %d) drawing %s: %s (all of "
                     "it in %s)", j->plots, j->script, WIFEXITED(status) ? "status" : "signal",
                     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                     j->out ? j->out : "a figure", last, j->log);
    }
    if (rc != CB_OK)
        gp_remove(j->out);
    free(text);
    return rc;
}
