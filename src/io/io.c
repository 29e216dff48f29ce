/* conebench — problem and solution files: format detection, problem writes, solution files
 * (formats: man conebench, FILES). The Siconos text format is in io_siconos.c, FCLIB HDF5 in
 * io_fclib.c, the global→local condensation in condense.c; file helpers in src/core/fileio.c. */
#include "io_internal.h"
#include "base.h"
#include "fileio.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <fcntl.h>

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

/* 1 when path is a regular file of at most CB_MAX_FILE_BYTES holding plain HDF5 (not gzip; the
 * signature where is_hdf5 looks), checked with pread: the parent does not load an HDF5 file,
 * which the reader's child opens itself. 0 for anything else (cb_read_file decides then). */
static int plain_hdf5_file(const char *path)
{
    struct stat st;
    char head[sizeof hdf5_signature];
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), yes = 0;
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= (off_t)sizeof head &&
        (unsigned long long)st.st_size <= CB_MAX_FILE_BYTES &&
        pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head && !cb_is_gzip(head, sizeof head))
        for (size_t off = 0, len = (size_t)st.st_size; !yes && off + sizeof head <= len;
             off = off ? 2 * off : 512)
            yes = pread(fd, head, sizeof head, (off_t)off) == (ssize_t)sizeof head &&
                  memcmp(head, hdf5_signature, sizeof head) == 0;
    close(fd);
    return yes;
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

/* A file plain_hdf5_file does not take (text, gzip-compressed files, what cb_read_file refuses):
 * loaded and hashed as loaded, exactly the bytes parsed. */
static int read_loaded(const char *path, const cb_read_settings *s, cb_problem **out,
                       char hex[65], cb_error *err)
{
    char *data = NULL;
    size_t len = 0;
    int rc = cb_read_file(path, CB_MAX_FILE_BYTES, &data, &len, err);
    if (rc != CB_OK)
        return rc;
    cb_sha256_buffer(data, len, hex);
    if (is_hdf5(data, len)) {
        free(data);
        data = NULL;
        rc = cb_read_fclib_isolated(path, s, out, err);
    } else {
        rc = cb_read_siconos_consume(path, data, len, s, out, err); /* hashed above */
    }
    free(data);
    return rc;
}

int cb_read_problem(const char *path, const cb_read_settings *s, cb_problem **out, cb_error *err)
{
    cb_read_settings def;
    char hex[65];
    int rc;
    *out = NULL;
    if (!s) {
        cb_read_settings_default(&def);
        s = &def;
    }
    if (plain_hdf5_file(path)) { /* hashed from the file; read by the child */
        rc = cb_sha256_file(path, hex, err);
        if (rc == CB_OK)
            rc = cb_read_fclib_isolated(path, s, out, err);
    } else {
        rc = read_loaded(path, s, out, hex, err);
    }
    if (rc == CB_OK && (set_name_from_path(*out, path) != CB_OK ||
                        cb_problem_set_provenance(*out, path, NULL, NULL, 0) != CB_OK))
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK)
        memcpy((*out)->prov.sha256, hex, sizeof hex);
    if (rc != CB_OK) {
        cb_problem_free(*out);
        *out = NULL;
    }
    return rc;
}

/* Render into memory, then gzip-compressed to path (cb_outbuf: "FILE.gz"). */
static int write_rendered_gz(const char *path, int (*render)(FILE *, const void *, cb_error *),
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

/* Render with `render` straight into a temporary file beside path (no copy of the text in
 * memory), which becomes path once complete (cb_outfile: nothing at path before then); a path
 * ending in ".gz" is written gzip-compressed. */
static int write_rendered(const char *path, int (*render)(FILE *, const void *, cb_error *),
                          const void *arg, cb_error *err)
{
    if (cb_path_is_gz(path))
        return write_rendered_gz(path, render, arg, err);
    cb_outfile o;
    int rc = cb_outfile_begin(&o, path, err);
    if (rc != CB_OK)
        return rc;
    FILE *f = fopen(o.tmp, "w");
    if (!f)
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "write failed: %s", strerror(errno));
    if (rc == CB_OK)
        rc = render(f, arg, err);
    int bad = f && ferror(f), e = errno; /* a failed write (full disk): named by path */
    if (f && fclose(f) != 0 && !bad)
        bad = 1, e = errno;
    if (bad && (rc == CB_OK || rc == CB_ERR_IO))
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "write failed: %s", strerror(e ? e : EIO));
    if (rc == CB_OK)
        return cb_outfile_commit(&o, err);
    cb_outfile_discard(&o);
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

/* Siconos text or FCLIB HDF5, chosen by fmt or by path's extension. */
int cb_write_problem_as(const char *path, const cb_problem *prob, cb_format fmt, cb_error *err)
{
    if (fmt == CB_FORMAT_AUTO)
        fmt = cb_format_of_path(path);
    if (fmt == CB_FORMAT_FCLIB)
        return cb_write_fclib(path, prob, err);
    return cb_write_problem(path, prob, err);
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
    if (nc < 0 || d < 1 || d > CB_MAX_DIM || (long long)nc * d > 0x7fffffffLL)
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
    int rc = sol_int(lx, "nc", 0, 0x7fffffffL, nc); /* 0: no contacts */
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
    if (rc == CB_OK && (rc = cb_text_check(path, data, len, err)) != CB_OK)
        free(data);
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

/* ------------------------------------------------------------------------------------------ */
/* Reference solutions: one header line of key=value fields, then the pairs (p, y)              */

#define REF_MAGIC "conebench-reference"

const char *cb_uniqueness_name(cb_uniqueness u)
{
    return u == CB_UNIQUE_YES ? "yes" : u == CB_UNIQUE_NO ? "no" : "unknown";
}

/* 1 when s is 64 lowercase hex digits. */
static int is_sha256_hex(const char *s)
{
    size_t n = strspn(s, "0123456789abcdef");
    return n == 64 && s[64] == '\0';
}

/* 1 when s is a usable solver name: 1..63 printable characters, no blank. */
static int is_solver_token(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++)
        if (!isgraph((unsigned char)s[i]))
            return 0;
    return n > 0 && n < 64;
}

static int render_reference(FILE *f, const void *arg, cb_error *err)
{
    const cb_reference *r = arg;
    fprintf(f, "%s sha256=%s error=%.17g error_q=%.17g solver=%s unique=%s\n", REF_MAGIC,
            r->sha256, r->error, r->error_q, r->solver, cb_uniqueness_name(r->unique));
    solution_view s = {r->nc, r->d, r->p, r->y};
    return render_solution(f, &s, err);
}

int cb_write_reference(const char *path, const cb_reference *r, cb_error *err)
{
    if (!is_sha256_hex(r->sha256))
        return cb_fail(err, CB_ERR_INPUT, "reference: sha256 must be 64 lowercase hex digits");
    if (!is_solver_token(r->solver))
        return cb_fail(err, CB_ERR_INPUT, "reference: solver must be 1..63 non-blank characters");
    if (r->nc < 1 || r->d < 1 || r->d > CB_MAX_DIM || (long long)r->nc * r->d > 0x7fffffffLL ||
        !r->p)
        return cb_fail(err, CB_ERR_INPUT, "reference: invalid size nc = %d, d = %d", r->nc, r->d);
    if (!(r->error >= 0) || !(r->error_q >= 0)) /* NaN too */
        return cb_fail(err, CB_ERR_INPUT, "reference: error and error_q must be finite, >= 0");
    return write_rendered(path, render_reference, r, err);
}

/* The value of header field `key` (the next token, "key=value" on line 1) into val. */
static int ref_field(sol_lexer *lx, const char *key, char *val, size_t cap)
{
    char buf[128];
    size_t k = strlen(key);
    if (!sol_token(lx, buf, sizeof buf) || lx->tok_line != 1)
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, 1, "header: field %s= missing", key);
    if (strncmp(buf, key, k) != 0 || buf[k] != '=' || strlen(buf + k + 1) >= cap)
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, 1,
                          "header: expected %s=..., got '%s'", key, buf);
    strcpy(val, buf + k + 1);
    return CB_OK;
}

/* A header number: finite and >= 0. */
static int ref_number(sol_lexer *lx, const char *key, double *out)
{
    char val[64], *e;
    int rc = ref_field(lx, key, val, sizeof val);
    if (rc != CB_OK)
        return rc;
    *out = strtod(val, &e);
    if (e == val || *e || !isfinite(*out) || *out < 0)
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, 1,
                          "header: %s must be a finite number >= 0, got '%s'", key, val);
    return CB_OK;
}

/* Line 1: magic, sha256, error, error_q, solver, unique (in that order, nothing else). */
static int ref_header(sol_lexer *lx, cb_reference *r)
{
    char buf[128];
    int rc = CB_OK;
    if (!sol_token(lx, buf, sizeof buf) || lx->tok_line != 1 || strcmp(buf, REF_MAGIC) != 0)
        return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, 1,
                          "not a reference file (line 1 must begin with '" REF_MAGIC "')");
    rc = ref_field(lx, "sha256", r->sha256, sizeof r->sha256);
    if (rc == CB_OK && !is_sha256_hex(r->sha256))
        rc = cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, 1,
                        "header: sha256 must be 64 lowercase hex digits");
    if (rc == CB_OK)
        rc = ref_number(lx, "error", &r->error);
    if (rc == CB_OK)
        rc = ref_number(lx, "error_q", &r->error_q);
    if (rc == CB_OK)
        rc = ref_field(lx, "solver", r->solver, sizeof r->solver);
    if (rc == CB_OK)
        rc = ref_field(lx, "unique", buf, sizeof buf);
    if (rc == CB_OK) {
        r->unique = !strcmp(buf, "yes") ? CB_UNIQUE_YES
                    : !strcmp(buf, "no") ? CB_UNIQUE_NO : CB_UNIQUE_UNKNOWN;
        if (strcmp(buf, cb_uniqueness_name(r->unique)) != 0)
            rc = cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, 1,
                            "header: unique must be yes, no or unknown, got '%s'", buf);
    }
    const char *nl = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));
    for (const char *c = lx->p; rc == CB_OK && c < (nl ? nl : lx->end); c++)
        if (!isspace((unsigned char)*c))
            rc = cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, 1, "header: trailing data");
    return rc;
}

int cb_read_reference(const char *path, cb_reference *out, cb_error *err)
{
    char *data = NULL;
    size_t len = 0, n = 0;
    memset(out, 0, sizeof *out);
    int rc = cb_read_file(path, CB_MAX_FILE_BYTES, &data, &len, err);
    if (rc == CB_OK && (rc = cb_text_check(path, data, len, err)) != CB_OK)
        free(data);
    if (rc != CB_OK)
        return rc;
    sol_lexer lx = {path, data, data + len, 1, 1, err};
    rc = len ? ref_header(&lx, out)
             : cb_fail_at(err, CB_ERR_INPUT, path, 1, "the file is empty");
    if (rc == CB_OK)
        rc = sol_header(&lx, len, &out->nc, &out->d, &n);
    if (rc == CB_OK) {
        out->p = cb_malloc_array(n, sizeof(double));
        out->y = cb_malloc_array(n, sizeof(double));
        if (!out->p || !out->y)
            rc = cb_fail(err, CB_ERR_NOMEM, "out of memory for %zu pairs", n);
    }
    if (rc == CB_OK)
        rc = sol_body(&lx, n, out->p, out->y);
    free(data);
    if (rc != CB_OK)
        cb_reference_free(out);
    return rc;
}

void cb_reference_free(cb_reference *r)
{
    if (!r)
        return;
    free(r->p);
    free(r->y);
    r->p = r->y = NULL;
}

/* ‖p − p*‖₂ / max(1, ‖p*‖₂), summed in index order. */
double cb_reference_distance(const cb_reference *r, const double *p)
{
    size_t n = (size_t)r->nc * (size_t)r->d;
    double dd = 0.0, rr = 0.0;
    for (size_t i = 0; i < n; i++) {
        double e = p[i] - r->p[i];
        dd += e * e;
        rr += r->p[i] * r->p[i];
    }
    return sqrt(dd) / fmax(1.0, sqrt(rr));
}
