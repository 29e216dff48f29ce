/* conebench — the external solver: write the problem and settings to a temporary directory, run
 * the user's command under the time limit, read back its solution and trace (external.h holds
 * the file contract). The judge (cb_solve) scores the result like every other solver's. */
#define _GNU_SOURCE /* nftw, mkdtemp */
#include "external.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conebench/io.h"
#include "base.h"
#include "campaign.h"
#include "child.h"
#include "fileio.h"
#include "fclib_check.h"

#define EXT_PATH_LEN 4096
#define EXT_KILL_GRACE_S 1.0     /* SIGTERM at the limit, SIGKILL this much later */
#define EXT_TAIL_LINES 3         /* last stderr lines quoted in a failure's reason */
#define EXT_TAIL_BYTES 480       /* of at most this many bytes */
#define EXT_MAX_FILE_BYTES ((size_t)1 << 31)
#define EXT_TOKEN_SHOWN 24       /* characters of a bad token shown in a message */
#define EXT_FCLIB_FILE "problem.hdf5" /* the problem file with format=fclib */
/* A path with only these characters goes unquoted to the shell. */
#define EXT_SHELL_SAFE CB_SOLVER_NAME_CHARS "/,:@%="

static const cb_option_spec ext_options[] = {
    {"cmd", "", "the command (/bin/sh -c); {problem} {solution} {settings} {trace} {work} {dir} "
                "become paths; required"},
    {"name", "external", "the label of its runs in results (campaign: the default label)"},
    {"format", "siconos", "the problem file: siconos (text) or fclib (HDF5)"},
    {"keep", "0", "1: keep the temporary directory (its path is said on stderr)"},
    {NULL, NULL, NULL}};

/* The files of the temporary directory. */
enum { F_PROBLEM, F_SOLUTION, F_SETTINGS, F_TRACE, F_WORK, F_WARM, F_STDOUT, F_STDERR, F_COUNT };
static const char *const file_names[F_COUNT] = {
    "problem.dat", "solution.txt", "settings.json", "trace.csv", "work.txt", "warm_start.txt",
    "stdout.txt", "stderr.txt"};
#define F_DIR F_COUNT /* {dir} */

static const struct {
    const char *text;
    int file;
} placeholders[] = {{"{problem}", F_PROBLEM}, {"{solution}", F_SOLUTION},
                    {"{settings}", F_SETTINGS}, {"{trace}", F_TRACE}, {"{work}", F_WORK},
                    {"{dir}", F_DIR}};

typedef struct {
    const cb_problem *prob;
    char *cmd;     /* owned copy of option cmd */
    int keep;
    int fclib;     /* format=fclib: the problem goes to problem.hdf5 (cb_write_fclib) */
    char dir[EXT_PATH_LEN];                /* the temporary directory ("" before it exists) */
    char path[F_COUNT][EXT_PATH_LEN + 32]; /* its files */
} ext_work;

/* Every local kind, any storage (factored W is written as its assembled BSR). */
static int ext_supports(const cb_problem *prob, cb_error *err)
{
    return cb_kind_dim(prob->kind) > 0 ? CB_OK
                                       : cb_fail(err, CB_ERR_INPUT, "external: unknown cone kind");
}

static void ext_cleanup(void *work)
{
    ext_work *w = work;
    if (w)
        free(w->cmd);
    free(w);
}

/* The name option: a plain word (the label of the runs). */
static int name_ok(const char *name, cb_error *err)
{
    if (*name && strlen(name) <= CB_SOLVER_NAME_MAX &&
        name[strspn(name, CB_SOLVER_NAME_CHARS)] == '\0')
        return CB_OK;
    return cb_fail(err, CB_ERR_INPUT, "option name: 1 to %d characters of [A-Za-z0-9._+-], "
                   "got '%s'", CB_SOLVER_NAME_MAX, name);
}

/* Options: cmd given, name a plain word, format siconos or fclib, keep. */
static int ext_check_options(const cb_settings *s, long *keep, cb_error *err)
{
    const char *cmd = cb_option_get(s, ext_options, "cmd");
    const char *name = cb_option_get(s, ext_options, "name");
    const char *format = cb_option_get(s, ext_options, "format");
    int rc = cb_options_check(s, ext_options, "external", err);
    if (rc == CB_OK && (!cmd || !*cmd))
        rc = cb_fail(err, CB_ERR_INPUT, "option cmd: required: the command to run, e.g. "
                     "cmd=\"python3 my.py {problem} {solution}\"");
    if (rc == CB_OK)
        rc = name_ok(name, err);
    if (rc == CB_OK && strcmp(format, "siconos") != 0 && strcmp(format, "fclib") != 0)
        rc = cb_fail(err, CB_ERR_INPUT, "option format: siconos or fclib, got '%s'", format);
    if (rc == CB_OK)
        rc = cb_option_int(s, ext_options, "keep", 0, 1, keep, err);
    return rc;
}

/* The work of one solver: cmd (copied), keep, fclib. */
static int ext_alloc(const cb_problem *prob, const char *cmd, int keep, int fclib, void **out,
                     cb_error *err)
{
    ext_work *w = calloc(1, sizeof *w);
    if (w)
        w->cmd = strdup(cmd);
    if (!w || !w->cmd) {
        ext_cleanup(w);
        return cb_fail(err, CB_ERR_NOMEM, "external: out of memory");
    }
    w->prob = prob;
    w->keep = keep;
    w->fclib = fclib;
    *out = w;
    return CB_OK;
}

static int ext_setup(const cb_problem *prob, const cb_settings *s, void **out, cb_error *err)
{
    long keep = 0;
    int rc = ext_check_options(s, &keep, err);
    int fclib = rc == CB_OK && !strcmp(cb_option_get(s, ext_options, "format"), "fclib");
    if (rc == CB_OK && fclib) /* what FCLIB cannot hold is refused before anything runs */
        rc = cb_fclib_check(EXT_FCLIB_FILE, prob, 0, err);
    if (rc != CB_OK)
        return rc;
    return ext_alloc(prob, cb_option_get(s, ext_options, "cmd"), (int)keep, fclib, out, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Inputs: the directory, the problem, the settings, the warm start                            */

/* settings.json: what the command needs besides the problem. The warm start is named by its
 * file name in the same directory (no path to escape). */
static int write_settings(const ext_work *w, const cb_settings *s, int warm, cb_error *err)
{
    cb_outbuf o;
    if (cb_outbuf_open(&o, err) != CB_OK)
        return CB_ERR_NOMEM;
    fprintf(o.f, "{\n  \"tol\": %.17g,\n  \"max_iter\": %d,\n  \"time_limit\": ", s->tol,
            s->max_iter);
    if (s->time_limit > 0)
        fprintf(o.f, "%.17g,\n", s->time_limit);
    else
        fputs("null,\n", o.f);
    if (warm)
        fprintf(o.f, "  \"warm_start\": \"%s\",\n", file_names[F_WARM]);
    else
        fputs("  \"warm_start\": null,\n", o.f);
    fprintf(o.f, "  \"kind\": \"%s\",\n  \"nc\": %d,\n  \"d\": %d,\n",
            cb_kind_name(w->prob->kind), w->prob->nc, w->prob->d);
    fprintf(o.f, "  \"format\": \"%s\"\n}\n", w->fclib ? "fclib" : "siconos");
    return cb_outbuf_commit(&o, w->path[F_SETTINGS], err);
}

/* warm_start.txt: the n entries of p, one a line. */
static int write_warm(const char *path, const double *p, size_t n, cb_error *err)
{
    cb_outbuf o;
    if (cb_outbuf_open(&o, err) != CB_OK)
        return CB_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        fprintf(o.f, "%.17g\n", p[i]);
    return cb_outbuf_commit(&o, path, err);
}

/* A fresh directory and the names of its files. */
static int make_dir(ext_work *w, cb_error *err)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = w->dir;
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (strlen(tmp) > EXT_PATH_LEN - 64)
        return cb_fail(err, CB_ERR_IO, "external: TMPDIR is too long");
    snprintf(dir, EXT_PATH_LEN, "%s/conebench-external-XXXXXX", tmp);
    if (!mkdtemp(dir)) {
        int e = errno;
        dir[0] = '\0';
        return cb_fail(err, CB_ERR_IO, "external: cannot create a directory in %s: %s", tmp,
                       strerror(e));
    }
    for (int f = 0; f < F_COUNT; f++)
        snprintf(w->path[f], sizeof w->path[f], "%s/%s", dir,
                 f == F_PROBLEM && w->fclib ? EXT_FCLIB_FILE : file_names[f]);
    return CB_OK;
}

static int write_inputs(ext_work *w, const cb_settings *s, const cb_solution *sol,
                        cb_error *err)
{
    int warm = 0;
    for (size_t i = 0; i < sol->n && !warm; i++)
        warm = sol->p[i] != 0;
    int rc = make_dir(w, err);
    if (rc == CB_OK)
        rc = cb_write_problem_as(w->path[F_PROBLEM], w->prob,
                                 w->fclib ? CB_FORMAT_FCLIB : CB_FORMAT_SICONOS, err);
    if (rc == CB_OK && warm)
        rc = write_warm(w->path[F_WARM], sol->p, sol->n, err);
    if (rc == CB_OK)
        rc = write_settings(w, s, warm, err);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* The command                                                                                  */

/* s as one shell word: as is when every character is safe, else single-quoted. */
static void put_shell_word(FILE *f, const char *s)
{
    if (s[strspn(s, EXT_SHELL_SAFE)] == '\0') {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

/* The command line: w->cmd with every placeholder replaced by its path (malloc'd; NULL when out
 * of memory). Other braces stay as they are. */
static char *expand_cmd(const ext_work *w)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    for (const char *c = w->cmd; *c;) {
        size_t k = 0, nph = sizeof placeholders / sizeof *placeholders;
        while (k < nph && strncmp(c, placeholders[k].text, strlen(placeholders[k].text)) != 0)
            k++;
        if (k < nph) {
            int file = placeholders[k].file;
            put_shell_word(f, file == F_DIR ? w->dir : w->path[file]);
            c += strlen(placeholders[k].text);
        } else {
            fputc(*c++, f);
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Run the command line: /bin/sh -c line, a child of the pool (child.h) in a process group of
 * its own, stdin /dev/null, stdout and stderr to the files; past limit seconds (≤ 0: none) the
 * group gets SIGTERM, then SIGKILL EXT_KILL_GRACE_S later (res->end CB_CHILD_TIMED_OUT); the
 * group is killed when the command ends (no process left behind). */
static int run_command(const ext_work *w, char *line, double limit, cb_child_result *res,
                       cb_error *err)
{
    int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
    int out = open(w->path[F_STDOUT], flags, 0666), errfd = open(w->path[F_STDERR], flags, 0666);
    char sh[] = "sh", dash_c[] = "-c", *argv[] = {sh, dash_c, line, NULL};
    cb_child_spec spec = {.argv = argv, .path = "/bin/sh", .out_fd = out, .err_fd = errfd,
                          .limits = {limit, 0}, .term_grace_s = EXT_KILL_GRACE_S,
                          .own_group = 1};
    int rc = out >= 0 && errfd >= 0 ? CB_OK
                                    : cb_fail(err, CB_ERR_IO, "external: %s: %s", w->dir,
                                              strerror(errno));
    if (rc == CB_OK)
        rc = cb_child_run_spec(&spec, res, err);
    if (out >= 0)
        close(out);
    if (errfd >= 0)
        close(errfd);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Outputs: exit status, solution, trace                                                        */

/* out = the last EXT_TAIL_LINES lines of the file (at most EXT_TAIL_BYTES bytes) on one line,
 * " | " between them, unprintable bytes as '?'; "" when there are none. */
static void file_tail(const char *path, char *out, size_t cap)
{
    char buf[EXT_TAIL_BYTES + 1];
    size_t n = 0, k = 0;
    FILE *f = fopen(path, "rb");
    if (f && fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size > 0 && fseek(f, size > EXT_TAIL_BYTES ? size - EXT_TAIL_BYTES : 0, SEEK_SET) == 0)
            n = fread(buf, 1, EXT_TAIL_BYTES, f);
    }
    if (f)
        fclose(f);
    while (n > 0 && isspace((unsigned char)buf[n - 1]))
        n--;
    buf[n] = '\0';
    char *start = buf + n;
    int lines = 0;
    while (start > buf && !(start[-1] == '\n' && ++lines == EXT_TAIL_LINES))
        start--;
    for (out[0] = '\0'; *start && k + 4 < cap; start++) {
        if (*start == '\n')
            k += (size_t)snprintf(out + k, cap - k, " | ");
        else
            out[k++] = isprint((unsigned char)*start) ? *start : '?';
    }
    out[k < cap ? k : cap - 1] = '\0';
}

/* 1 (and the reason in err) when the command did not exit with status 0. */
static int command_failed(const ext_work *w, const cb_child_result *res, cb_error *err)
{
    char tail[EXT_TAIL_BYTES + 64];
    if (res->end == CB_CHILD_EXITED && res->code == 0)
        return 0;
    file_tail(w->path[F_STDERR], tail, sizeof tail);
    cb_fail(err, CB_ERR_INPUT, "the command %s %d%s%s",
            res->end == CB_CHILD_EXITED ? "exited with status" : "killed by signal", res->code,
            tail[0] ? "; stderr: " : "", tail);
    return 1;
}

/* A bad token, printable and short, for a message. */
static void token_text(const char *c, char *out, size_t cap)
{
    size_t k = 0;
    for (; *c && !isspace((unsigned char)*c) && k + 1 < cap; c++)
        out[k++] = isprint((unsigned char)*c) ? *c : '?';
    out[k] = '\0';
}

/* p[0..n) from the solution file: exactly n numbers separated by white space. Messages name the
 * file by its name in the directory (which is removed afterwards). */
static int read_p(const char *path, size_t n, double *p, cb_error *err)
{
    char *data = NULL, shown[EXT_TOKEN_SHOWN + 1];
    const char *name = file_names[F_SOLUTION];
    size_t len = 0, k = 0;
    long line = 1;
    if (access(path, F_OK) != 0)
        return cb_fail(err, CB_ERR_INPUT, "%s: the command wrote no solution (exit status 0)",
                       name);
    int rc = cb_read_file(path, EXT_MAX_FILE_BYTES, &data, &len, err);
    if (rc == CB_OK)
        rc = cb_text_check(path, data, len, err); /* a NUL would end the text early */
    for (char *c = data; rc == CB_OK && *c;) {
        if (isspace((unsigned char)*c)) {
            line += *c++ == '\n';
            continue;
        }
        char *end;
        double v = strtod(c, &end);
        token_text(c, shown, sizeof shown);
        if (end == c || (*end && !isspace((unsigned char)*end)))
            rc = cb_fail_at(err, CB_ERR_INPUT, name, line, "entry %zu: not a number ('%s')",
                            k + 1, shown);
        else if (k == n)
            rc = cb_fail_at(err, CB_ERR_INPUT, name, line, "more than nc·d = %zu numbers", n);
        else
            p[k++] = v;
        c = end;
    }
    if (rc == CB_OK && k < n)
        rc = cb_fail_at(err, CB_ERR_INPUT, name, line, "%zu numbers, the problem needs nc·d = %zu",
                        k, n);
    free(data);
    return rc;
}

/* One trace line "iteration,time_s,error" (blanks around the fields allowed). */
static int trace_line(const char *l, int *it, double *t, double *e)
{
    int used = 0;
    if (sscanf(l, " %d , %lf , %lf %n", it, t, e, &used) != 3 || l[used] != '\0' || *it < 0)
        return 0;
    return 1;
}

/* The trace file, when the command wrote one: info->iterations = its last iteration, its
 * points into info->trace when s->trace, info->solver_error = its last error. */
static int read_trace(const char *path, const cb_settings *s, cb_info *info, cb_error *err)
{
    char *data = NULL;
    size_t len = 0;
    if (access(path, F_OK) != 0)
        return CB_OK;
    int rc = cb_read_file(path, EXT_MAX_FILE_BYTES, &data, &len, err);
    if (rc == CB_OK)
        rc = cb_text_check(path, data, len, err); /* a NUL would end the text early */
    long line = 0;
    for (char *l = data, *next; rc == CB_OK && l && *l; l = next) {
        int it;
        double t, e;
        next = l + strcspn(l, "\n");
        if (*next)
            *next++ = '\0';
        line++;
        l[strcspn(l, "\r")] = '\0';
        if (l[strspn(l, " \t")] == '\0' || (line == 1 && isalpha((unsigned char)*l)))
            continue; /* a blank line, the header */
        if (!trace_line(l, &it, &t, &e))
            rc = cb_fail_at(err, CB_ERR_INPUT, file_names[F_TRACE], line,
                            "expected iteration,time_s,error");
        else if (it < info->iterations)
            rc = cb_fail_at(err, CB_ERR_INPUT, file_names[F_TRACE], line,
                            "iteration %d after %d: iterations must not decrease", it,
                            info->iterations);
        else if ((rc = cb_info_trace(info, s, it, 0, e)) == CB_OK) {
            info->iterations = it;
            info->solver_error = e;
            if (s->trace)
                info->trace[info->ntrace - 1].time_s = t;
        }
    }
    free(data);
    return rc;
}

/* work.txt, when the command wrote one: the four work counters (cb_work: block products,
 * projections, local iterations, error evaluations), non-negative integers. */
static int read_work(const char *path, cb_work *work, cb_error *err)
{
    char *data = NULL;
    size_t len = 0;
    long long v[4];
    int used = 0;
    if (access(path, F_OK) != 0)
        return CB_OK;
    int rc = cb_read_file(path, EXT_MAX_FILE_BYTES, &data, &len, err);
    if (rc == CB_OK)
        rc = cb_text_check(path, data, len, err); /* a NUL would end the text early */
    if (rc == CB_OK && (sscanf(data, "%lld %lld %lld %lld %n", &v[0], &v[1], &v[2], &v[3],
                               &used) != 4 || data[used] != '\0' ||
                        (v[0] | v[1] | v[2] | v[3]) < 0))
        rc = cb_fail_at(err, CB_ERR_INPUT, file_names[F_WORK], 1, "want 4 counters >= 0 "
                        "(block products, projections, local iterations, error evaluations)");
    if (rc == CB_OK)
        *work = (cb_work){v[0], v[1], v[2], v[3]};
    free(data);
    return rc;
}

/* The command's answer into sol->p and info (status, iterations, trace); a broken contract
 * leaves p as it was, status stalled and the reason in err (returning CB_OK). */
static int read_outputs(const ext_work *w, const cb_settings *s, cb_solution *sol, cb_info *info,
                        cb_error *err)
{
    cb_error why = {{0}};
    double *p = cb_malloc_array(sol->n, sizeof *p);
    if (!p)
        return cb_fail(err, CB_ERR_NOMEM, "external: out of memory");
    int rc = read_p(w->path[F_SOLUTION], sol->n, p, &why);
    if (rc == CB_OK)
        rc = read_trace(w->path[F_TRACE], s, info, &why);
    if (rc == CB_OK)
        rc = read_work(w->path[F_WORK], &info->work, &why);
    if (rc == CB_ERR_NOMEM) {
        free(p);
        return cb_fail(err, rc, "external: out of memory");
    }
    if (rc != CB_OK) {
        info->ntrace = info->iterations = 0;
        cb_fail(err, CB_ERR_INPUT, "%s", why.text);
    } else {
        memcpy(sol->p, p, sol->n * sizeof *p);
        info->status = info->iterations >= s->max_iter ? CB_STATUS_MAX_ITER : CB_STATUS_CONVERGED;
    }
    for (size_t i = 0; rc == CB_OK && i < sol->n; i++)
        if (!isfinite(p[i])) {
            info->status = CB_STATUS_DIVERGED;
            cb_fail(err, CB_ERR_INPUT, "%s: entry %zu is not finite (%g)",
                    file_names[F_SOLUTION], i + 1, p[i]);
            break;
        }
    free(p);
    return CB_OK;
}

static void finish_dir(const ext_work *w)
{
    if (!w->dir[0])
        return;
    if (w->keep)
        fprintf(stderr, "conebench: external: kept %s\n", w->dir);
    else
        cb_remove_tree(w->dir, 0);
}

/* CPU seconds (user and system) of the waited-for children of this process so far. */
static double children_cpu(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return 0.0;
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* Write, run, read back. A failed command is a run (CB_OK) with its reason in err.
 * info->time_cpu = the CPU seconds of the command and what it waited for (solver.h). */
static int ext_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                     cb_error *err)
{
    ext_work *w = work;
    char *line = NULL;
    cb_child_result res = {0};
    cb_error_clear(err);
    w->dir[0] = '\0';
    info->status = CB_STATUS_STALLED;
    info->solver_error = NAN;
    if (!cb_all_finite(sol->p, sol->n)) { /* the contract: diverged at once */
        info->status = CB_STATUS_DIVERGED;
        return CB_OK;
    }
    int rc = write_inputs(w, s, sol, err);
    if (rc == CB_OK && !(line = expand_cmd(w)))
        rc = cb_fail(err, CB_ERR_NOMEM, "external: out of memory");
    double cpu0 = children_cpu();
    if (rc == CB_OK)
        rc = run_command(w, line, s->time_limit, &res, err);
    info->time_cpu = children_cpu() - cpu0;
    if (rc == CB_OK && res.end == CB_CHILD_TIMED_OUT)
        info->status = CB_STATUS_TIME_LIMIT;
    else if (rc == CB_OK && !command_failed(w, &res, err))
        rc = read_outputs(w, s, sol, info, err);
    cb_child_result_free(&res);
    free(line);
    finish_dir(w);
    return rc;
}

const cb_solver cb_solver_external = {
    "external", "a user's command in any language (files in, solution out; man conebench)",
    ext_options, ext_supports, ext_setup, ext_solve, ext_cleanup, NULL};

/* ------------------------------------------------------------------------------------------ */
/* The python solver: a Python function solve(problem, settings) -> p, run by the external     */
/* machinery through the package's driver (python/conebench/_driver.py)                        */

#define PY_DEFAULT "/usr/bin/python3" /* Debian's (python3-numpy); $CONEBENCH_PYTHON overrides */
#define PY_CHECK_LIMIT_S 60.0         /* wall seconds the load check may take */
#define PY_WORD_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

static const cb_option_spec py_options[] = {
    {"module", "", "the Python module holding the function (imported by name, or loaded from "
                   "path); required"},
    {"function", "solve", "the function: p = function(problem, settings)"},
    {"path", "", "the module's file (.py), when it is not importable by name"},
    {"args", "", "KEY:VALUE pairs separated by commas: the function's settings.options"},
    {"name", "python", "the label of its runs in results (campaign: the default label)"},
    {"keep", "0", "1: keep the temporary directory (its path is said on stderr)"},
    {NULL, NULL, NULL}};

/* 1 when s is a dotted Python name (words of [A-Za-z0-9_] not starting with a digit). */
static int dotted_name(const char *s, int dots)
{
    for (const char *w = s;; w++) {
        size_t k = strspn(w, PY_WORD_CHARS);
        if (k == 0 || isdigit((unsigned char)*w))
            return 0;
        w += k;
        if (*w == '\0')
            return 1;
        if (*w != '.' || !dots)
            return 0;
    }
}

/* The folder holding the package conebench: beside the executable's home (a source tree:
 * HOME/python; installed: PREFIX/lib/python3/dist-packages); "" when neither holds it (then
 * Python's own path must). */
static void package_dir(char *out, size_t cap)
{
    const char *tails[] = {"/python", "/../../lib/python3/dist-packages"};
    char init[EXT_PATH_LEN + 64];
    out[0] = '\0';
    for (int t = 0; t < 2 && !out[0]; t++) {
        snprintf(init, sizeof init, "%s%s/conebench/__init__.py", cb_home_dir(), tails[t]);
        if (access(init, R_OK) == 0)
            snprintf(out, cap, "%s%s", cb_home_dir(), tails[t]);
    }
}

/* The shell line running the driver: on {dir}, or with --check (only load the function and
 * read args): DRIVER (--check | {dir}) MODULE FUNCTION PATH ARGS ('' when empty). */
static char *py_line(const char *module, const char *function, const char *path,
                     const char *args, int check)
{
    char pkg[EXT_PATH_LEN], *buf = NULL;
    size_t len = 0;
    const char *py = getenv("CONEBENCH_PYTHON");
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    package_dir(pkg, sizeof pkg);
    if (pkg[0]) {
        fputs("PYTHONPATH=", f);
        put_shell_word(f, pkg);
        fputs("${PYTHONPATH:+:$PYTHONPATH} ", f);
    }
    fputs("exec ", f);
    put_shell_word(f, py && *py ? py : PY_DEFAULT);
    fprintf(f, " -m conebench._driver %s %s %s ", check ? "--check" : "{dir}", module, function);
    const char *words[] = {path, args};
    for (int k = 0; k < 2; k++) {
        if (k)
            fputc(' ', f);
        if (*words[k])
            put_shell_word(f, words[k]);
        else
            fputs("''", f); /* an empty word */
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Does the driver load the function? CB_ERR_INPUT with its message when not. A line found good
 * is remembered (a campaign's checked line is not run again in its runs, forked after). */
static int py_check(const char *line, cb_error *err)
{
    static char *good; /* the last line found good */
    if (good && !strcmp(good, line))
        return CB_OK;
    char sh[] = "sh", dash_c[] = "-c", *argv[] = {sh, dash_c, (char *)line, NULL};
    cb_child_spec spec = {.argv = argv, .path = "/bin/sh", .limits = {PY_CHECK_LIMIT_S, 0},
                          .own_group = 1};
    cb_child_result res = {0};
    int rc = cb_child_run_spec(&spec, &res, err);
    if (rc == CB_OK && !(res.end == CB_CHILD_EXITED && res.code == 0)) {
        size_t n = res.data ? res.len : 0; /* its last line: the reason, or Python's exception */
        while (n > 0 && isspace((unsigned char)res.data[n - 1]))
            n--;
        size_t start = n;
        while (start > 0 && res.data[start - 1] != '\n')
            start--;
        int shown = n - start < EXT_TAIL_BYTES ? (int)(n - start) : EXT_TAIL_BYTES;
        rc = n ? cb_fail(err, CB_ERR_INPUT, "%.*s", shown, res.data + start)
               : cb_fail(err, CB_ERR_INPUT, "python: the driver failed (is CONEBENCH_PYTHON "
                         "or /usr/bin/python3 there, with numpy?)");
    }
    if (rc == CB_OK) {
        free(good);
        good = strdup(line);
    }
    cb_child_result_free(&res);
    return rc;
}

/* Options: module a dotted name, function a name, path a readable file (made absolute), args
 * without braces (the driver checks its pairs). */
static int py_options_ok(const cb_settings *s, char *path, long *keep, cb_error *err)
{
    const char *module = cb_option_get(s, py_options, "module");
    const char *function = cb_option_get(s, py_options, "function");
    const char *given = cb_option_get(s, py_options, "path");
    const char *name = cb_option_get(s, py_options, "name");
    const char *args = cb_option_get(s, py_options, "args");
    int rc = cb_options_check(s, py_options, "python", err);
    path[0] = '\0';
    if (rc == CB_OK && !dotted_name(module, 1))
        rc = cb_fail(err, CB_ERR_INPUT, "option module: required: a Python module name, got "
                     "'%s'", module);
    if (rc == CB_OK && !dotted_name(function, 0))
        rc = cb_fail(err, CB_ERR_INPUT, "option function: a Python name, got '%s'", function);
    if (rc == CB_OK && *given && (strchr(given, '{') || !realpath(given, path)))
        rc = cb_fail(err, CB_ERR_INPUT, "option path: %s: %s", given,
                     strchr(given, '{') ? "braces are not allowed" : strerror(errno));
    if (rc == CB_OK && strchr(args, '{'))
        rc = cb_fail(err, CB_ERR_INPUT, "option args: braces are not allowed");
    if (rc == CB_OK)
        rc = name_ok(name, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, py_options, "keep", 0, 1, keep, err);
    return rc;
}

/* Validate the options, load the function once (py_check), then the external solver's work
 * on the driver's line. */
static int py_setup(const cb_problem *prob, const cb_settings *s, void **out, cb_error *err)
{
    char path[PATH_MAX];
    long keep = 0;
    char *line = NULL, *check = NULL;
    int rc = py_options_ok(s, path, &keep, err);
    if (rc == CB_OK) {
        const char *module = cb_option_get(s, py_options, "module");
        const char *function = cb_option_get(s, py_options, "function");
        const char *args = cb_option_get(s, py_options, "args");
        line = py_line(module, function, path, args, 0);
        check = py_line(module, function, path, args, 1);
        rc = line && check ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "python: out of memory");
    }
    if (rc == CB_OK)
        rc = py_check(check, err);
    if (rc == CB_OK)
        rc = ext_alloc(prob, line, (int)keep, 0, out, err);
    free(line);
    free(check);
    return rc;
}

const cb_solver cb_solver_python = {
    "python", "a Python function solve(problem, settings) -> p (man conebench, PYTHON SOLVERS)",
    py_options, ext_supports, py_setup, ext_solve, ext_cleanup, NULL};
