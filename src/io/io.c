/* conebench — problem and solution files: format detection, problem writes, solution files
 * (formats: man conebench, FILES). The Siconos text format is in io_siconos.c, FCLIB HDF5 in
 * io_fclib.c, the global→local condensation in condense.c; file helpers in src/core/fileio.c. */
#include "io_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest problem or solution file read into memory. */
#define CB_MAX_FILE_BYTES ((size_t)1 << 31)

void cb_read_settings_default(cb_read_settings *s)
{
    s->force_kind = 0;
    s->kind = CB_KIND_COULOMB3D;
}

/* ------------------------------------------------------------------------------------------ */
/* Problems                                                                                     */

static const char hdf5_signature[8] = {'\211', 'H', 'D', 'F', '\r', '\n', '\032', '\n'};

/* HDF5 superblocks sit at offset 0, 512, 1024, 2048, ... */
static int is_hdf5(const char *data, size_t len)
{
    for (size_t off = 0; off + 8 <= len; off = off ? 2 * off : 512)
        if (memcmp(data + off, hdf5_signature, 8) == 0)
            return 1;
    return 0;
}

/* "dir/name.ext" → "name". */
static int set_name_from_path(cb_problem *p, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *name = cb_strdup(base);
    if (!name)
        return CB_ERR_NOMEM;
    char *dot = strrchr(name, '.');
    if (dot && dot != name)
        *dot = '\0';
    int rc = cb_problem_set_name(p, name);
    free(name);
    return rc;
}

int cb_read_problem(const char *path, const cb_read_settings *s, cb_problem **out, cb_error *err)
{
    cb_read_settings def;
    char *data = NULL, hex[65];
    size_t len = 0;
    *out = NULL;
    if (!s) {
        cb_read_settings_default(&def);
        s = &def;
    }
    int rc = cb_read_file(path, CB_MAX_FILE_BYTES, &data, &len, err);
    if (rc != CB_OK)
        return rc;
    cb_sha256_buffer(data, len, hex); /* exactly the bytes parsed */
    if (is_hdf5(data, len)) {
        free(data);
        data = NULL;
        rc = cb_read_fclib_isolated(path, s, out, err);
    } else {
        rc = cb_read_siconos_text(path, data, len, s, out, err);
    }
    if (rc == CB_OK && (set_name_from_path(*out, path) != CB_OK ||
                        cb_problem_set_provenance(*out, path, NULL, NULL, 0) != CB_OK))
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK)
        memcpy((*out)->prov.sha256, hex, sizeof hex);
    free(data);
    if (rc != CB_OK) {
        cb_problem_free(*out);
        *out = NULL;
    }
    return rc;
}

/* Render into memory with `render`, then write atomically. */
static int write_rendered(const char *path, int (*render)(FILE *, const void *, cb_error *),
                          const void *arg, cb_error *err)
{
    cb_outbuf o;
    int rc = cb_outbuf_open(&o, err);
    if (rc == CB_OK)
        rc = render(o.f, arg, err);
    if (rc == CB_OK)
        return cb_outbuf_commit(&o, path, err);
    cb_outbuf_discard(&o);
    return rc;
}

static int render_problem(FILE *f, const void *arg, cb_error *err)
{
    return cb_write_problem_stream(f, arg, err);
}

int cb_write_problem(const char *path, const cb_problem *prob, cb_error *err)
{
    return write_rendered(path, render_problem, prob, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Solutions: "nc d" then nc·d lines "p_i y_i"                                                   */

typedef struct {
    int nc, d;
    const double *p, *y;
} solution_view;

static int render_solution(FILE *f, const void *arg, cb_error *err)
{
    const solution_view *s = arg;
    size_t n = (size_t)s->nc * (size_t)s->d;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(s->p[i]) || (s->y && !isfinite(s->y[i])))
            return cb_fail(err, CB_ERR_INPUT, "%s: entry %zu is not finite",
                           isfinite(s->p[i]) ? "y" : "p", i);
    fprintf(f, "%d %d\n", s->nc, s->d);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%.17g %.17g\n", s->p[i], s->y ? s->y[i] : 0.0);
    return ferror(f) ? cb_fail(err, CB_ERR_IO, "write failed") : CB_OK;
}

int cb_write_solution(const char *path, int nc, int d, const double *p, const double *y,
                      cb_error *err)
{
    if (nc < 1 || d < 1 || d > CB_MAX_DIM || (long long)nc * d > 0x7fffffffLL)
        return cb_fail(err, CB_ERR_INPUT, "solution: invalid size nc = %d, d = %d", nc, d);
    if (!p)
        return cb_fail(err, CB_ERR_INPUT, "p: NULL");
    solution_view s = {nc, d, p, y};
    return write_rendered(path, render_solution, &s, err);
}

/* A small tokeniser over a NUL-terminated buffer, tracking lines. */
typedef struct {
    const char *path, *p, *end;
    long line, tok_line;
    cb_error *err;
} sol_lexer;

static int sol_token(sol_lexer *lx, char *buf, size_t cap)
{
    while (lx->p < lx->end && isspace((unsigned char)*lx->p))
        lx->line += *lx->p++ == '\n';
    if (lx->p >= lx->end)
        return 0;
    lx->tok_line = lx->line;
    size_t n = 0, full = 0;
    for (; lx->p < lx->end && !isspace((unsigned char)*lx->p); lx->p++, full++)
        if (n + 1 < cap)
            buf[n++] = *lx->p ? *lx->p : '?'; /* a NUL must not end the token early */
    if (full > n)
        buf[n - 1] = '?'; /* truncated: never parse a prefix as the value */
    buf[n] = '\0';
    return 1;
}

static int sol_int(sol_lexer *lx, const char *field, long lo, long hi, int *out)
{
    char buf[64], *e;
    if (!sol_token(lx, buf, sizeof buf))
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, lx->tok_line,
                          "%s: unexpected end of file", field);
    errno = 0;
    long long v = strtoll(buf, &e, 10);
    if (e == buf || *e || errno == ERANGE || v < lo || v > hi)
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, lx->tok_line,
                          "%s: expected an integer in [%ld, %ld], got '%s'", field, lo, hi, buf);
    *out = (int)v;
    return CB_OK;
}

static int sol_double(sol_lexer *lx, const char *field, size_t i, double *out)
{
    char buf[128], *e;
    if (!sol_token(lx, buf, sizeof buf))
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, lx->tok_line,
                          "%s entry %zu: unexpected end of file", field, i);
    *out = strtod(buf, &e);
    if (e == buf || *e)
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, lx->tok_line,
                          "%s entry %zu: not a number ('%s')", field, i, buf);
    if (!isfinite(*out))
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, lx->tok_line,
                          "%s entry %zu: not finite ('%s')", field, i, buf);
    return CB_OK;
}

/* Header "nc d"; the body must hold at least 2·nc·d tokens (checked before allocating). */
static int sol_header(sol_lexer *lx, size_t len, int *nc, int *d, size_t *n)
{
    if (len == 0)
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, 1, "nc: the file is empty");
    int rc = sol_int(lx, "nc", 1, 0x7fffffffL, nc);
    if (rc == CB_OK)
        rc = sol_int(lx, "d", 1, CB_MAX_DIM, d);
    if (rc != CB_OK)
        return rc;
    if ((long long)*nc * *d > 0x7fffffffLL)
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, lx->tok_line,
                          "nc: nc·d = %lld exceeds the largest supported size",
                          (long long)*nc * *d);
    *n = (size_t)*nc * (size_t)*d;
    if (2 * *n > len) /* every value needs at least one character and one separator */
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, lx->tok_line,
                          "nc: the file is too short for nc·d = %zu pairs (p, y)", *n);
    return CB_OK;
}

static int sol_body(sol_lexer *lx, size_t n, double *p, double *y)
{
    char buf[48];
    int rc = CB_OK;
    for (size_t i = 0; i < n && rc == CB_OK; i++) {
        rc = sol_double(lx, "p", i, &p[i]);
        if (rc == CB_OK)
            rc = sol_double(lx, "y", i, &y[i]);
    }
    if (rc == CB_OK && sol_token(lx, buf, sizeof buf))
        rc = cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, lx->tok_line,
                        "trailing data after the %zu pairs (p, y): '%s'", n, buf);
    return rc;
}

int cb_read_solution(const char *path, int *nc, int *d, double **p, double **y, cb_error *err)
{
    char *data = NULL;
    size_t len = 0, n = 0;
    int rnc = 0, rd = 0;
    *p = *y = NULL;
    int rc = cb_read_file(path, CB_MAX_FILE_BYTES, &data, &len, err);
    if (rc != CB_OK)
        return rc;
    sol_lexer lx = {path, data, data + len, 1, 1, err};
    rc = sol_header(&lx, len, &rnc, &rd, &n);
    if (rc == CB_OK) {
        *p = cb_malloc_array(n, sizeof(double));
        *y = cb_malloc_array(n, sizeof(double));
        if (!*p || !*y)
            rc = cb_fail(err, CB_ERR_NOMEM, "out of memory for %zu pairs", n);
    }
    if (rc == CB_OK)
        rc = sol_body(&lx, n, *p, *y);
    free(data);
    if (rc != CB_OK) {
        free(*p);
        free(*y);
        *p = *y = NULL;
        return rc;
    }
    *nc = rnc;
    *d = rd;
    return CB_OK;
}
