/* conebench — Siconos text problem files: reader for local problems
 * (frictionContact_printInFile / rollingFrictionContact_printInFile, plus conebench's d = 6
 * rollspin3d extension) and global ones (globalFrictionContact_printInFile /
 * globalRollingFrictionContact_printInFile, condensed), and the writer.
 *
 * Layout of a local file (whitespace-separated tokens; old files put one value per line):
 *   d nc  NumericsMatrix  q[nc·d]  μ[nc]  [μ_r[nc]]  [μ_s[nc]]  [isComplete flag]
 * NumericsMatrix: storage size0 size1, then
 *   storage 0: "size0 size1" again and size0·size1 values, column-major;
 *   storage 1: SBM_write_in_file — nbblocks, blocknumber0, blocknumber1, cumulative row and
 *              column block sizes, filled1, filled2, index1_data[filled1], index2_data[filled2],
 *              then per block its number and rows×cols values (column-major);
 *   storage 2: NSM_write_in_file — origin, a "CSparse Version ..." line, then either
 *              "triplet: m-by-n, nzmax: z nnz: k" and k lines "i j : x", or
 *              "m-by-n, nzmax: z nnz: k, 1-norm: x" and per column "col j : locations a to b"
 *              followed by lines "i : x". Values are printed with %g: read only.
 * The isComplete flag (one 0/1 token after μ) was written by Siconos before July 2010
 * (commit 0d8a265 "delete isComplete from the problem structure"); it is accepted and ignored.
 * A global file has d, nc, M (ndof × ndof), H (ndof × nc·d), q (ndof), b (nc·d), μ [, μ_r]
 * (GFC3D, GRFC3D). Nothing in d and nc says local or global, and ndof may equal nc·d: a file is
 * global when an H matrix header follows its first matrix (h_header_follows), local otherwise.
 */
#include "io_internal.h"
#include "base.h"
#include "fileio.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOKEN_MAX 128

/* ------------------------------------------------------------------------------------------ */
/* Tokeniser                                                                                    */

typedef struct {
    const char *path;
    const char *p, *end;
    long line;     /* line of p */
    long tok_line; /* line of the last token returned (1 before the first) */
    cb_error *err;
    size_t tok_len, prev_len; /* lengths of the last token returned and of the one before it */
    char *rel;                /* the text when its parsed pages may be released, else NULL */
    size_t rel_done;          /* bytes of rel released so far (cb_buffer_release) */
} lexer;

/* Release parsed text once CB_RELEASE_STEP bytes lie behind the lexer, keeping the last
 * LX_RELEASE_KEEP (the tokens a message or a re-read may still look at). */
#define LX_RELEASE_KEEP ((size_t)1 << 20)

/* In the bulk loops of a matrix body: give the parsed text's pages back (lexer.rel). */
static void lx_release(lexer *lx)
{
    size_t read = lx->rel ? (size_t)(lx->p - lx->rel) : 0;
    if (read < lx->tok_len)
        return;
    size_t at = read - lx->tok_len; /* where the last token begins */
    if (at > lx->rel_done + CB_RELEASE_STEP + LX_RELEASE_KEEP)
        cb_buffer_release(lx->rel, &lx->rel_done, at - LX_RELEASE_KEEP);
}

static int next_token(lexer *lx, const char **tok, size_t *len)
{
    while (lx->p < lx->end && isspace((unsigned char)*lx->p)) {
        if (*lx->p == '\n')
            lx->line++;
        lx->p++;
    }
    if (lx->p >= lx->end)
        return 0;
    *tok = lx->p;
    while (lx->p < lx->end && !isspace((unsigned char)*lx->p))
        lx->p++;
    *len = (size_t)(lx->p - *tok);
    lx->tok_line = lx->line;
    lx->prev_len = lx->tok_len;
    lx->tok_len = *len;
    return 1;
}

/* Skip the rest of the current line. */
static void skip_line(lexer *lx)
{
    while (lx->p < lx->end && *lx->p != '\n')
        lx->p++;
}

/* A printable, shortened copy of a token for messages. */
static void tok_show(const char *t, size_t n, char out[48])
{
    size_t k = 0;
    for (; k < n && k < 32; k++)
        out[k] = isprint((unsigned char)t[k]) ? t[k] : '?';
    if (n > 32) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k] = '\0';
}

static int lx_fail_line(lexer *lx, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int lx_fail_line(lexer *lx, long line, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cb_fail_at(lx->err, CB_ERR_INPUT, lx->path, line, "%s", msg);
}

#define LX_FAIL(lx, ...) lx_fail_line((lx), (lx)->tok_line, __VA_ARGS__)

/* "W", "q entry 4", "W entry (2, 3)". */
static void field_name(char *buf, size_t cap, const char *name, long i, long j)
{
    if (i < 0)
        snprintf(buf, cap, "%s", name);
    else if (j < 0)
        snprintf(buf, cap, "%s entry %ld", name, i);
    else
        snprintf(buf, cap, "%s entry (%ld, %ld)", name, i, j);
}

/* Fail unless `count` more tokens follow (checked before allocating for them). */
static int need_tokens(lexer *lx, size_t count, const char *field)
{
    lexer ahead = *lx;
    const char *t;
    size_t n, have = 0;
    while (have < count && next_token(&ahead, &t, &n))
        have++;
    if (have == count)
        return CB_OK;
    return lx_fail_line(lx, ahead.tok_line, "%s: file ends after %zu of %zu values", field, have,
                        count);
}

/* Parse a whole token as a decimal integer; *rest points after the digits. */
static int parse_ll(const char *t, size_t n, long long *v, const char **rest)
{
    char buf[TOKEN_MAX];
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, t, n);
    buf[n] = '\0';
    char *e;
    errno = 0;
    *v = strtoll(buf, &e, 10);
    if (e == buf || errno == ERANGE)
        return -1;
    *rest = t + (e - buf);
    return 0;
}

/* 1 if the token is an optionally signed run of digits. */
static int all_digits(const char *t, size_t n)
{
    size_t k = n > 0 && (t[0] == '-' || t[0] == '+');
    if (k == n)
        return 0;
    for (; k < n; k++)
        if (!isdigit((unsigned char)t[k]))
            return 0;
    return 1;
}

/* Read an integer token in [lo, hi]; `suffix` is an allowed trailing character ('\0': none). */
static int read_int_sfx(lexer *lx, const char *field, long long lo, long long hi, char suffix,
                        long long *out)
{
    const char *t, *rest;
    size_t n;
    char show[48];
    if (!next_token(lx, &t, &n))
        return LX_FAIL(lx, "%s: unexpected end of file (expected an integer)", field);
    tok_show(t, n, show);
    if (parse_ll(t, n, out, &rest) != 0)
        return all_digits(t, n) ? LX_FAIL(lx, "%s: integer '%s' out of range", field, show)
                                : LX_FAIL(lx, "%s: expected an integer, got '%s'", field, show);
    if (rest != t + n && !(suffix && rest + 1 == t + n && *rest == suffix))
        return LX_FAIL(lx, "%s: expected an integer, got '%s'", field, show);
    if (*out < lo || *out > hi)
        return LX_FAIL(lx, "%s: %lld is out of range [%lld, %lld]", field, *out, lo, hi);
    return CB_OK;
}

static int read_int(lexer *lx, const char *field, long long lo, long long hi, int *out)
{
    long long v;
    int rc = read_int_sfx(lx, field, lo, hi, '\0', &v);
    if (rc == CB_OK)
        *out = (int)v;
    return rc;
}

/* Read a finite double; the field is named (name, i, j) in messages (see field_name). */
static int read_double(lexer *lx, const char *name, long i, long j, double *out)
{
    const char *t;
    size_t n;
    char buf[TOKEN_MAX], field[96], show[48];
    if (!next_token(lx, &t, &n)) {
        field_name(field, sizeof field, name, i, j);
        return LX_FAIL(lx, "%s: unexpected end of file", field);
    }
    char *e = buf;
    if (n < sizeof buf) {
        memcpy(buf, t, n);
        buf[n] = '\0';
        *out = strtod(buf, &e);
    }
    if (n >= sizeof buf || e != buf + n) {
        field_name(field, sizeof field, name, i, j);
        tok_show(t, n, show);
        return LX_FAIL(lx, "%s: not a number ('%s')", field, show);
    }
    if (!isfinite(*out)) {
        field_name(field, sizeof field, name, i, j);
        tok_show(t, n, show);
        return LX_FAIL(lx, "%s: not finite ('%s')", field, show);
    }
    return CB_OK;
}

/* Expect the literal token `word`. */
static int expect_word(lexer *lx, const char *field, const char *word)
{
    const char *t;
    size_t n;
    char show[48];
    if (!next_token(lx, &t, &n))
        return LX_FAIL(lx, "%s: unexpected end of file (expected '%s')", field, word);
    if (n != strlen(word) || memcmp(t, word, n) != 0) {
        tok_show(t, n, show);
        return LX_FAIL(lx, "%s: expected '%s', got '%s'", field, word, show);
    }
    return CB_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* NumericsMatrix                                                                               */

typedef struct {
    int nbblocks, bn0, bn1, filled1, filled2;
    int *rs, *cs, *idx1, *idx2; /* cumulative sizes, row pointers, column block indices */
} sbm_layout;

static void sbm_clear(sbm_layout *s)
{
    free(s->rs);
    free(s->cs);
    free(s->idx1);
    free(s->idx2);
}

typedef struct {
    int storage;
    long line;       /* line of size0, for messages about the whole matrix */
    int m, n;        /* size0 × size1 */
    double *dense;   /* storage 0: m·n values, column-major */
    sbm_layout sbm;  /* storage 1: the block layout ... */
    double *sbm_val; /* ... and every block's values in file order (column-major blocks) */
    cb_triplets t;   /* storage 2, and storages 0 and 1 once converted (as_triplets) */
} nmatrix;

static void triplets_clear(cb_triplets *t)
{
    free(t->i);
    free(t->j);
    free(t->x);
    memset(t, 0, sizeof *t);
}

static void nmatrix_clear(nmatrix *a)
{
    free(a->dense);
    a->dense = NULL;
    sbm_clear(&a->sbm);
    memset(&a->sbm, 0, sizeof a->sbm);
    free(a->sbm_val);
    a->sbm_val = NULL;
    triplets_clear(&a->t);
}

static int triplets_alloc(cb_triplets *t, int m, int n, size_t cap, lexer *lx, const char *name)
{
    t->nrow = m;
    t->ncol = n;
    t->nnz = 0;
    if (cap > (size_t)INT_MAX)
        return LX_FAIL(lx, "%s: %zu entries exceed the supported range", name, cap);
    t->i = cb_malloc_array(cap, sizeof(int));
    t->j = cb_malloc_array(cap, sizeof(int));
    t->x = cb_malloc_array(cap, sizeof(double));
    if (!t->i || !t->j || !t->x)
        return cb_fail(lx->err, CB_ERR_NOMEM, "%s: out of memory for %zu entries", name, cap);
    return CB_OK;
}

static void triplets_push(cb_triplets *t, int i, int j, double x)
{
    t->i[t->nnz] = i;
    t->j[t->nnz] = j;
    t->x[t->nnz] = x;
    t->nnz++;
}

/* "storage size0 size1". */
static int read_matrix_header(lexer *lx, const char *name, nmatrix *a)
{
    char field[64];
    snprintf(field, sizeof field, "%s storage", name);
    int rc = read_int(lx, field, 0, 2, &a->storage);
    snprintf(field, sizeof field, "%s size0", name);
    if (rc == CB_OK) /* 0: the empty W of a problem without contacts */
        rc = read_int(lx, field, a->storage == 0 ? 0 : 1, INT_MAX, &a->m);
    a->line = lx->tok_line;
    snprintf(field, sizeof field, "%s size1", name);
    if (rc == CB_OK)
        rc = read_int(lx, field, a->storage == 0 ? 0 : 1, INT_MAX, &a->n);
    return rc;
}

static int read_dense_body(lexer *lx, const char *name, nmatrix *a)
{
    int m2, n2;
    char field[64];
    snprintf(field, sizeof field, "%s dense size0", name);
    int rc = read_int(lx, field, 0, INT_MAX, &m2);
    snprintf(field, sizeof field, "%s dense size1", name);
    if (rc == CB_OK)
        rc = read_int(lx, field, 0, INT_MAX, &n2);
    if (rc != CB_OK)
        return rc;
    if (m2 != a->m || n2 != a->n)
        return LX_FAIL(lx, "%s: dense sizes %d x %d differ from the header's %d x %d", name, m2,
                       n2, a->m, a->n);
    size_t count;
    if (cb_mul_size((size_t)a->m, (size_t)a->n, &count))
        return LX_FAIL(lx, "%s: %d x %d entries overflow", name, a->m, a->n);
    if ((rc = need_tokens(lx, count, name)) != CB_OK)
        return rc;
    a->dense = cb_malloc_array(count, sizeof(double));
    if (!a->dense)
        return cb_fail(lx->err, CB_ERR_NOMEM, "%s: out of memory for %zu values", name, count);
    for (size_t k = 0; k < count && rc == CB_OK; k++) {
        rc = read_double(lx, name, (long)(k % (size_t)a->m), (long)(k / (size_t)a->m),
                         &a->dense[k]);
        if (k % (size_t)a->m == 0)
            lx_release(lx);
    }
    return rc;
}

/* Cumulative block sizes: strictly increasing, positive, last = total. */
static int read_cumulative(lexer *lx, const char *field, int count, int total, int *out)
{
    int rc = CB_OK;
    for (int k = 0; k < count && rc == CB_OK; k++) {
        rc = read_int(lx, field, 1, INT_MAX, &out[k]);
        if (rc == CB_OK && k > 0 && out[k] <= out[k - 1])
            rc = LX_FAIL(lx, "%s: cumulative size %d at position %d does not exceed %d", field,
                         out[k], k, out[k - 1]);
        if (rc == CB_OK && out[k] > total)
            rc = LX_FAIL(lx, "%s: cumulative size %d exceeds the matrix size %d", field, out[k],
                         total);
    }
    if (rc == CB_OK && out[count - 1] != total)
        rc = LX_FAIL(lx, "%s: last cumulative size %d differs from the matrix size %d", field,
                     out[count - 1], total);
    return rc;
}

/* Row pointers (idx1) and column block indices (idx2) of an SBM. */
static int read_sbm_index(lexer *lx, const char *name, sbm_layout *s)
{
    char field[64];
    int rc = CB_OK;
    snprintf(field, sizeof field, "%s index1_data", name);
    for (int k = 0; k < s->filled1 && rc == CB_OK; k++) {
        rc = read_int(lx, field, 0, s->filled2, &s->idx1[k]);
        if (rc == CB_OK && k == 0 && s->idx1[0] != 0)
            rc = LX_FAIL(lx, "%s: first row pointer is %d, must be 0", field, s->idx1[0]);
        if (rc == CB_OK && k > 0 && s->idx1[k] < s->idx1[k - 1])
            rc = LX_FAIL(lx, "%s: row pointer decreases at block row %d", field, k);
    }
    if (rc == CB_OK && s->idx1[s->filled1 - 1] != s->filled2)
        rc = LX_FAIL(lx, "%s: last row pointer %d differs from filled2 = %d", field,
                     s->idx1[s->filled1 - 1], s->filled2);
    for (int k = 0; k < s->filled2 && rc == CB_OK; k++) {
        snprintf(field, sizeof field, "%s block %d column block index", name, k);
        rc = read_int(lx, field, 0, s->bn1 - 1, &s->idx2[k]);
    }
    return rc;
}

/* Structure of an SBM up to (excluding) the blocks. */
static int read_sbm_layout(lexer *lx, const char *name, const nmatrix *a, sbm_layout *s)
{
    char field[64];
    snprintf(field, sizeof field, "%s blocknumber0", name);
    int rc = read_int(lx, field, 1, a->m, &s->bn0);
    snprintf(field, sizeof field, "%s blocknumber1", name);
    if (rc == CB_OK)
        rc = read_int(lx, field, 1, a->n, &s->bn1);
    if (rc == CB_OK)
        rc = need_tokens(lx, (size_t)s->bn0 + (size_t)s->bn1, name);
    if (rc != CB_OK)
        return rc;
    s->rs = cb_malloc_array((size_t)s->bn0, sizeof(int));
    s->cs = cb_malloc_array((size_t)s->bn1, sizeof(int));
    if (!s->rs || !s->cs)
        return cb_fail(lx->err, CB_ERR_NOMEM, "%s: out of memory", name);
    snprintf(field, sizeof field, "%s row block sizes", name);
    rc = read_cumulative(lx, field, s->bn0, a->m, s->rs);
    snprintf(field, sizeof field, "%s column block sizes", name);
    if (rc == CB_OK)
        rc = read_cumulative(lx, field, s->bn1, a->n, s->cs);
    snprintf(field, sizeof field, "%s filled1", name);
    if (rc == CB_OK)
        rc = read_int(lx, field, 2, (long long)s->bn0 + 1, &s->filled1);
    snprintf(field, sizeof field, "%s filled2", name);
    if (rc == CB_OK)
        rc = read_int(lx, field, 0, INT_MAX, &s->filled2);
    if (rc == CB_OK && s->filled2 != s->nbblocks)
        rc = LX_FAIL(lx, "%s: filled2 = %d differs from nbblocks = %d", name, s->filled2,
                     s->nbblocks);
    if (rc == CB_OK)
        rc = need_tokens(lx, (size_t)s->filled1 + (size_t)s->filled2, name);
    if (rc != CB_OK)
        return rc;
    s->idx1 = cb_malloc_array((size_t)s->filled1, sizeof(int));
    s->idx2 = cb_malloc_array((size_t)s->filled2, sizeof(int));
    if (!s->idx1 || !s->idx2)
        return cb_fail(lx->err, CB_ERR_NOMEM, "%s: out of memory", name);
    return read_sbm_index(lx, name, s);
}

/* Number of values in all blocks (overflow-checked). */
static int sbm_value_count(lexer *lx, const char *name, const sbm_layout *s, size_t *total)
{
    *total = 0;
    for (int r = 0; r + 1 < s->filled1; r++)
        for (int k = s->idx1[r]; k < s->idx1[r + 1]; k++) {
            int c = s->idx2[k];
            size_t rows = (size_t)(s->rs[r] - (r ? s->rs[r - 1] : 0));
            size_t cols = (size_t)(s->cs[c] - (c ? s->cs[c - 1] : 0)), sz;
            if (cb_mul_size(rows, cols, &sz) || *total > SIZE_MAX - sz - 1)
                return LX_FAIL(lx, "%s: block sizes overflow", name);
            *total += sz;
        }
    return CB_OK;
}

/* Every block's values, in file order, into val. */
static int read_sbm_blocks(lexer *lx, const char *name, const sbm_layout *s, double *val)
{
    char field[64];
    int rc = CB_OK;
    size_t pos = 0;
    for (int r = 0; r + 1 < s->filled1 && rc == CB_OK; r++) {
        int rows = s->rs[r] - (r ? s->rs[r - 1] : 0);
        for (int k = s->idx1[r]; k < s->idx1[r + 1] && rc == CB_OK; k++) {
            int c = s->idx2[k], cols = s->cs[c] - (c ? s->cs[c - 1] : 0), num;
            snprintf(field, sizeof field, "%s block %d", name, k);
            rc = read_int(lx, field, 0, INT_MAX, &num);
            if (rc == CB_OK && num != k)
                rc = LX_FAIL(lx, "%s: block number %d, expected %d", field, num, k);
            for (long long q = 0; q < (long long)rows * cols && rc == CB_OK; q++)
                rc = read_double(lx, field, (long)(q % rows), (long)(q / rows), &val[pos++]);
            lx_release(lx);
        }
    }
    return rc;
}

/* Storage 1 as triplets (every stored entry, zeros included), for the general paths. */
static int sbm_to_triplets(lexer *lx, const char *name, nmatrix *a)
{
    const sbm_layout *s = &a->sbm;
    size_t total = 0, pos = 0;
    int rc = s->nbblocks ? sbm_value_count(lx, name, s, &total) : CB_OK;
    if (rc == CB_OK)
        rc = triplets_alloc(&a->t, a->m, a->n, total, lx, name);
    for (int r = 0; rc == CB_OK && r + 1 < s->filled1; r++) {
        int r0 = r ? s->rs[r - 1] : 0, rows = s->rs[r] - r0;
        for (int k = s->idx1[r]; k < s->idx1[r + 1]; k++) {
            int c = s->idx2[k], c0 = c ? s->cs[c - 1] : 0, cols = s->cs[c] - c0;
            for (long long q = 0; q < (long long)rows * cols; q++)
                triplets_push(&a->t, r0 + (int)(q % rows), c0 + (int)(q / rows),
                              a->sbm_val[pos++]);
        }
    }
    free(a->sbm_val);
    a->sbm_val = NULL;
    return rc;
}

/* Storage 1 (SBM_write_in_file): its layout and values, as stored (zeros included). */
static int read_sbm_body(lexer *lx, const char *name, nmatrix *a)
{
    sbm_layout *s = &a->sbm;
    char field[64];
    size_t total = 0;
    snprintf(field, sizeof field, "%s nbblocks", name);
    int rc = read_int(lx, field, 0, INT_MAX, &s->nbblocks);
    if (rc != CB_OK || s->nbblocks == 0)
        return rc;
    rc = read_sbm_layout(lx, name, a, s);
    if (rc == CB_OK)
        rc = sbm_value_count(lx, name, s, &total);
    if (rc == CB_OK)
        rc = need_tokens(lx, total + (size_t)s->nbblocks, name);
    if (rc != CB_OK)
        return rc;
    a->sbm_val = cb_malloc_array(total ? total : 1, sizeof(double));
    if (!a->sbm_val)
        return cb_fail(lx->err, CB_ERR_NOMEM, "%s: out of memory for %zu values", name, total);
    return read_sbm_blocks(lx, name, s, a->sbm_val);
}

/* "m-by-n," of a CSparse header; must match the NumericsMatrix header. */
static int read_csparse_dims(lexer *lx, const char *name, const nmatrix *a)
{
    const char *t, *rest, *rest2;
    size_t n;
    long long m1, n1;
    char show[48];
    if (!next_token(lx, &t, &n))
        return LX_FAIL(lx, "%s: unexpected end of file in the CSparse header", name);
    tok_show(t, n, show);
    if (parse_ll(t, n, &m1, &rest) || (size_t)(t + n - rest) < 4 || memcmp(rest, "-by-", 4) ||
        parse_ll(rest + 4, (size_t)(t + n - rest - 4), &n1, &rest2) ||
        !(rest2 == t + n || (rest2 + 1 == t + n && *rest2 == ',')))
        return LX_FAIL(lx, "%s: expected 'ROWS-by-COLS,' in the CSparse header, got '%s'", name,
                       show);
    if (m1 != a->m || n1 != a->n)
        return LX_FAIL(lx, "%s: CSparse size %lld x %lld differs from the header's %d x %d", name,
                       m1, n1, a->m, a->n);
    return CB_OK;
}

static int read_csparse_entry(lexer *lx, const char *name, nmatrix *a, long k, int col)
{
    char field[64];
    int i, j = col;
    double x;
    snprintf(field, sizeof field, "%s entry %ld row", name, k);
    int rc = read_int(lx, field, 0, a->m - 1, &i);
    snprintf(field, sizeof field, "%s entry %ld column", name, k);
    if (rc == CB_OK && col < 0)
        rc = read_int(lx, field, 0, a->n - 1, &j);
    if (rc == CB_OK)
        rc = expect_word(lx, name, ":");
    if (rc == CB_OK)
        rc = read_double(lx, name, k, -1, &x);
    if (rc == CB_OK)
        triplets_push(&a->t, i, j, x);
    return rc;
}

/* Compressed-column body: per column "col j : locations a to b" then b−a+1 "i : x". */
static int read_csc_columns(lexer *lx, const char *name, nmatrix *a, long long nz)
{
    char field[64];
    int rc = CB_OK;
    long long pos = 0;
    for (int c = 0; c < a->n && rc == CB_OK; c++) {
        long long jj, from, to;
        snprintf(field, sizeof field, "%s column %d", name, c);
        rc = expect_word(lx, field, "col");
        if (rc == CB_OK)
            rc = read_int_sfx(lx, field, c, c, '\0', &jj);
        if (rc == CB_OK)
            rc = expect_word(lx, field, ":");
        if (rc == CB_OK)
            rc = expect_word(lx, field, "locations");
        snprintf(field, sizeof field, "%s column %d first location", name, c);
        if (rc == CB_OK)
            rc = read_int_sfx(lx, field, pos, pos, '\0', &from);
        if (rc == CB_OK)
            rc = expect_word(lx, field, "to");
        snprintf(field, sizeof field, "%s column %d last location", name, c);
        if (rc == CB_OK)
            rc = read_int_sfx(lx, field, from - 1, nz - 1, '\0', &to);
        for (; rc == CB_OK && pos <= to; pos++)
            rc = read_csparse_entry(lx, name, a, (long)pos, c);
        lx_release(lx);
    }
    if (rc == CB_OK && pos != nz)
        rc = LX_FAIL(lx, "%s: columns hold %lld entries, header says nnz = %lld", name, pos, nz);
    return rc;
}

/* Storage 2 (NSM_write_in_file + CSparseMatrix_print_in_file) into triplets. */
static int read_csparse_body(lexer *lx, const char *name, nmatrix *a)
{
    char field[64];
    const char *t;
    size_t n;
    long long origin, nzmax, nz;
    snprintf(field, sizeof field, "%s CSparse origin", name);
    int rc = read_int_sfx(lx, field, 1, 4, '\0', &origin);
    if (rc == CB_OK)
        rc = expect_word(lx, name, "CSparse");
    if (rc != CB_OK)
        return rc;
    skip_line(lx);
    if (!next_token(lx, &t, &n))
        return LX_FAIL(lx, "%s: unexpected end of file in the CSparse header", name);
    int triplet = n == 8 && memcmp(t, "triplet:", 8) == 0;
    if (!triplet) {
        if (origin != 2)
            return LX_FAIL(lx, "%s: compressed CSparse origin %lld is not supported (only 2, CSC)",
                           name, origin);
        lx->p = t; /* re-read the token as the dimensions */
    }
    rc = read_csparse_dims(lx, name, a);
    snprintf(field, sizeof field, "%s nzmax", name);
    if (rc == CB_OK)
        rc = expect_word(lx, name, "nzmax:");
    if (rc == CB_OK)
        rc = read_int_sfx(lx, field, 0, INT_MAX, '\0', &nzmax);
    snprintf(field, sizeof field, "%s nnz", name);
    if (rc == CB_OK)
        rc = expect_word(lx, name, "nnz:");
    if (rc == CB_OK)
        rc = read_int_sfx(lx, field, 0, INT_MAX, triplet ? '\0' : ',', &nz);
    if (rc == CB_OK && !triplet)
        rc = expect_word(lx, name, "1-norm:");
    if (rc == CB_OK && !triplet && !next_token(lx, &t, &n))
        rc = LX_FAIL(lx, "%s: unexpected end of file in the CSparse header", name);
    if (rc == CB_OK) /* 4 tokens per triplet, 3 per CSC entry + 7 per column */
        rc = need_tokens(lx, triplet ? 4 * (size_t)nz : 3 * (size_t)nz + 7 * (size_t)a->n, name);
    if (rc == CB_OK)
        rc = triplets_alloc(&a->t, a->m, a->n, (size_t)nz, lx, name);
    for (long long k = 0; triplet && k < nz && rc == CB_OK; k++)
        rc = read_csparse_entry(lx, name, a, (long)k, -1);
    if (rc == CB_OK && !triplet)
        rc = read_csc_columns(lx, name, a, nz);
    return rc;
}

static int read_matrix_body(lexer *lx, const char *name, nmatrix *a)
{
    if (a->storage == 0)
        return read_dense_body(lx, name, a);
    if (a->storage == 1)
        return read_sbm_body(lx, name, a);
    return read_csparse_body(lx, name, a);
}

/* Dense storage into triplets (nonzeros only). */
static int dense_to_triplets(lexer *lx, const char *name, nmatrix *a)
{
    size_t count = (size_t)a->m * (size_t)a->n, nz = 0;
    for (size_t k = 0; k < count; k++)
        nz += a->dense[k] != 0.0;
    int rc = triplets_alloc(&a->t, a->m, a->n, nz, lx, name);
    for (size_t k = 0; k < count && rc == CB_OK; k++)
        if (a->dense[k] != 0.0)
            triplets_push(&a->t, (int)(k % (size_t)a->m), (int)(k / (size_t)a->m), a->dense[k]);
    free(a->dense);
    a->dense = NULL;
    return rc;
}

/* Any storage as triplets (a->t): dense nonzeros, every stored SBM entry, CSparse as read. */
static int as_triplets(lexer *lx, const char *name, nmatrix *a)
{
    if (a->storage == 0)
        return dense_to_triplets(lx, name, a);
    return a->storage == 1 ? sbm_to_triplets(lx, name, a) : CB_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Triplets → BSR (d×d blocks; duplicates summed; first occurrence copied so -0.0 survives)    */

typedef struct {
    int br, bc, jj, ii;
    size_t seq;
    double x;
} bsr_entry;

static int cmp_bsr_entry(const void *pa, const void *pb)
{
    const bsr_entry *a = pa, *b = pb;
    if (a->br != b->br)
        return a->br < b->br ? -1 : 1;
    if (a->bc != b->bc)
        return a->bc < b->bc ? -1 : 1;
    if (a->jj != b->jj)
        return a->jj < b->jj ? -1 : 1;
    if (a->ii != b->ii)
        return a->ii < b->ii ? -1 : 1;
    return a->seq < b->seq ? -1 : (a->seq > b->seq);
}

static void fill_bsr(const bsr_entry *e, size_t count, cb_problem *p)
{
    int d = p->d, k = -1;
    for (size_t q = 0; q < count; q++) {
        int new_block = q == 0 || e[q].br != e[q - 1].br || e[q].bc != e[q - 1].bc;
        if (new_block) {
            k++;
            p->bsr.col[k] = e[q].bc;
            p->bsr.row_ptr[e[q].br + 1]++;
        }
        double *v = p->bsr.val + (size_t)k * (size_t)(d * d) + e[q].ii + (size_t)e[q].jj * d;
        int dup = !new_block && e[q].jj == e[q - 1].jj && e[q].ii == e[q - 1].ii;
        *v = dup ? *v + e[q].x : e[q].x;
    }
    for (int a = 0; a < p->nc; a++)
        p->bsr.row_ptr[a + 1] += p->bsr.row_ptr[a];
}

static int triplets_to_bsr(const cb_triplets *t, cb_kind kind, int nc, cb_problem **out,
                           cb_error *err)
{
    int d = cb_kind_dim(kind), nnzb = 0, rc;
    bsr_entry *e = cb_malloc_array((size_t)t->nnz, sizeof *e);
    if (!e)
        return cb_fail(err, CB_ERR_NOMEM, "W: out of memory for %d entries", t->nnz);
    for (int q = 0; q < t->nnz; q++)
        e[q] = (bsr_entry){t->i[q] / d, t->j[q] / d, t->j[q] % d, t->i[q] % d, (size_t)q,
                           t->x[q]};
    qsort(e, (size_t)t->nnz, sizeof *e, cmp_bsr_entry);
    for (int q = 0; q < t->nnz; q++)
        nnzb += q == 0 || e[q].br != e[q - 1].br || e[q].bc != e[q - 1].bc;
    rc = cb_problem_alloc(kind, nc, CB_STORAGE_BSR, nnzb, out, err);
    if (rc == CB_OK)
        fill_bsr(e, (size_t)t->nnz, *out);
    free(e);
    return rc;
}

/* 1 when an SBM already is d×d BSR: nc block rows and columns of size d, each row's block
 * columns strictly increasing (no duplicate to sum). */
static int sbm_is_bsr(const sbm_layout *s, int nc, int d)
{
    if (s->nbblocks == 0 || s->bn0 != nc || s->bn1 != nc)
        return 0;
    for (int r = 0; r < nc; r++)
        if (s->rs[r] != (r + 1) * d || s->cs[r] != (r + 1) * d)
            return 0;
    for (int r = 0; r + 1 < s->filled1; r++)
        for (int k = s->idx1[r] + 1; k < s->idx1[r + 1]; k++)
            if (s->idx2[k] <= s->idx2[k - 1])
                return 0;
    return 1;
}

/* W in BSR without an intermediate copy: the SBM's values become the BSR values (both store
 * blocks column-major, in the same order), its row pointers and block columns the pattern. */
static int sbm_to_bsr(nmatrix *w, cb_kind kind, int nc, cb_problem **out, cb_error *err)
{
    const sbm_layout *s = &w->sbm;
    int rc = cb_problem_alloc(kind, nc, CB_STORAGE_BSR, s->nbblocks, out, err);
    if (rc != CB_OK)
        return rc;
    cb_bsr *b = &(*out)->bsr;
    for (int r = 0; r <= nc; r++)
        b->row_ptr[r] = r < s->filled1 ? s->idx1[r] : s->nbblocks;
    memcpy(b->col, s->idx2, (size_t)s->nbblocks * sizeof(int));
    free(b->val);
    b->val = w->sbm_val;
    w->sbm_val = NULL;
    return CB_OK;
}

/* W of a local file as the problem's storage: dense as read, BSR otherwise. */
static int local_storage(lexer *lx, nmatrix *w, cb_kind kind, int nc, cb_problem **out)
{
    int rc;
    if (w->storage == 0) {
        rc = cb_problem_alloc(kind, nc, CB_STORAGE_DENSE, 0, out, lx->err);
        if (rc == CB_OK) {
            free((*out)->W);
            (*out)->W = w->dense;
            w->dense = NULL;
        }
        return rc;
    }
    if (w->storage == 1 && sbm_is_bsr(&w->sbm, nc, cb_kind_dim(kind)))
        return sbm_to_bsr(w, kind, nc, out, lx->err);
    rc = as_triplets(lx, "W", w);
    if (rc == CB_OK)
        rc = triplets_to_bsr(&w->t, kind, nc, out, lx->err);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Problem-level reading                                                                        */

static int has_mu_r(cb_kind k)
{
    return k == CB_KIND_ROLLING2D || k == CB_KIND_ROLLING3D || k == CB_KIND_ROLLSPIN3D;
}

static int read_vector(lexer *lx, const char *name, size_t count, double *out)
{
    int rc = need_tokens(lx, count, name);
    for (size_t k = 0; k < count && rc == CB_OK; k++)
        rc = read_double(lx, name, (long)k, -1, &out[k]);
    return rc;
}

static int read_coeffs(lexer *lx, const char *name, int nc, double *out)
{
    int rc = read_vector(lx, name, (size_t)nc, out);
    for (int k = 0; k < nc && rc == CB_OK; k++)
        if (out[k] < 0)
            rc = lx_fail_line(lx, lx->tok_line, "%s entry %d: negative (%g)", name, k, out[k]);
    return rc;
}

/* μ, then μ_r and μ_s as the kind has them. */
static int read_all_coeffs(lexer *lx, cb_kind kind, int nc, double *mu, double *mu_r,
                           double *mu_s)
{
    int rc = read_coeffs(lx, "mu", nc, mu);
    if (rc == CB_OK && has_mu_r(kind))
        rc = read_coeffs(lx, "mu_r", nc, mu_r);
    if (rc == CB_OK && kind == CB_KIND_ROLLSPIN3D)
        rc = read_coeffs(lx, "mu_s", nc, mu_s);
    return rc;
}

/* 1 if exactly `count` more tokens follow and each is a finite number ≥ 0 (they could be μ_r). */
static int coeffs_follow(const lexer *lx, int count)
{
    lexer ahead = *lx;
    cb_error scratch;
    ahead.err = &scratch;
    double x;
    const char *t;
    size_t n;
    for (int k = 0; k < count; k++)
        if (read_double(&ahead, "mu_r", k, -1, &x) != CB_OK || x < 0)
            return 0;
    return !next_token(&ahead, &t, &n);
}

/* The last value (named `last`) ends the file. A number that runs into the end of the file may
 * have been cut (1.000000000000000555e-01 cut to 1.0 still parses): every writer ends its file
 * with a newline, so a last number without one is refused when it is shorter than the number
 * before it (a fixed-width writer's file cut inside it); a short hand-written file such as
 * "... 3 0.1" without the newline stays readable. */
static int check_cut(lexer *lx, const char *last)
{
    if (!isspace((unsigned char)lx->end[-1]) && lx->tok_len < lx->prev_len)
        return lx_fail_line(lx, lx->tok_line,
                            "%s: the file ends inside a number (its last value has no newline "
                            "after it and is shorter than the value before it): cut off?",
                            last);
    return CB_OK;
}

/* Nothing may follow but the pre-2010 isComplete flag (0 or 1) of Coulomb files. A coulomb3d
 * file followed by exactly nc more coefficients may be rolling2d (also d = 3): say so then. */
static int check_trailing(lexer *lx, cb_kind kind, int nc)
{
    const char *t;
    size_t n;
    char show[48];
    const char *last = kind == CB_KIND_ROLLSPIN3D ? "mu_s" : has_mu_r(kind) ? "mu_r" : "mu";
    lexer at = *lx;
    if (!next_token(lx, &t, &n))
        return check_cut(lx, last);
    int flag = n == 1 && (t[0] == '0' || t[0] == '1') && !has_mu_r(kind);
    if (flag && !next_token(lx, &t, &n))
        return CB_OK;
    tok_show(t, n, show);
    int rolling2d = kind == CB_KIND_COULOMB3D && coeffs_follow(&at, nc);
    return LX_FAIL(lx, "trailing data after %s ('%s')%s", last, show,
                   rolling2d ? " (a rolling2d file? read it with kind rolling2d)" : "");
}

static int resolve_kind(lexer *lx, int d, const cb_read_settings *s, cb_kind *kind)
{
    switch (d) {
    case 2: *kind = CB_KIND_COULOMB2D; break;
    case 3: *kind = CB_KIND_COULOMB3D; break;
    case 5: *kind = CB_KIND_ROLLING3D; break;
    case 6: *kind = CB_KIND_ROLLSPIN3D; break;
    default:
        return LX_FAIL(lx, "d: unsupported dimension %d (expected 2, 3, 5 or 6)", d);
    }
    if (s && s->force_kind) {
        if (cb_kind_dim(s->kind) != d)
            return LX_FAIL(lx, "d: the file has d = %d but kind %s needs d = %d", d,
                           cb_kind_name(s->kind), cb_kind_dim(s->kind));
        *kind = s->kind;
    }
    return CB_OK;
}

/* d and nc; *n = nc·d within int range. */
static int read_dims(lexer *lx, const cb_read_settings *s, cb_kind *kind, int *nc, int *n)
{
    const char *t;
    size_t len;
    int d;
    lexer ahead = *lx;
    if (!next_token(&ahead, &t, &len))
        return lx_fail_line(lx, 1, "d: the file is empty");
    int rc = read_int(lx, "d", 1, INT_MAX, &d);
    if (rc == CB_OK)
        rc = resolve_kind(lx, d, s, kind);
    if (rc == CB_OK)
        rc = read_int(lx, "nc", 0, INT_MAX, nc); /* 0: no contacts (solved at once) */
    if (rc == CB_OK && (long long)*nc * d > INT_MAX)
        rc = LX_FAIL(lx, "nc: nc·d = %lld exceeds the largest supported size %d",
                     (long long)*nc * d, INT_MAX);
    *n = rc == CB_OK ? *nc * d : 0;
    return rc;
}

/* The rest of a local file once W is read: the problem, q, coefficients. */
static int finish_local(lexer *lx, cb_kind kind, int nc, nmatrix *w, cb_problem **out)
{
    /* an empty sparse W costs no tokens: check q exists before allocating nc·d values */
    int rc = need_tokens(lx, (size_t)nc * (size_t)cb_kind_dim(kind), "q");
    if (rc != CB_OK)
        return rc;
    rc = local_storage(lx, w, kind, nc, out);
    if (rc != CB_OK)
        return rc;
    cb_problem *p = *out;
    rc = read_vector(lx, "q", cb_problem_n(p), p->q);
    if (rc == CB_OK)
        rc = read_all_coeffs(lx, kind, nc, p->mu, p->mu_r, p->mu_s);
    if (rc == CB_OK)
        rc = check_trailing(lx, kind, nc);
    return rc;
}

/* 1 when no token follows. */
static int at_end(const lexer *lx)
{
    lexer ahead = *lx;
    const char *t;
    size_t n;
    return !next_token(&ahead, &t, &n);
}

/* Do the tokens at lx declare the H matrix of a global file? Its header "storage size0 size1"
 * with size0 = ndof and size1 = ncols (any count ≥ 1 when ncols < 0; 0 only for a dense H, a
 * file without contacts), then what that storage writes next: the sizes again (dense),
 * nbblocks (sparse-block), the origin and "CSparse" (CSparse dump). A local file has q there:
 * Siconos prints it with %e, never as integers. */
static int h_header_follows(const lexer *lx, int ndof, int ncols)
{
    lexer ahead = *lx;
    cb_error scratch;
    ahead.err = &scratch;
    int s, m1, n1, a, b;
    if (read_int(&ahead, "H", 0, 2, &s) != CB_OK ||
        read_int(&ahead, "H", 1, INT_MAX, &m1) != CB_OK ||
        read_int(&ahead, "H", 0, INT_MAX, &n1) != CB_OK || m1 != ndof ||
        (ncols >= 0 && n1 != ncols) || (ncols < 0 && n1 < 1) ||
        (n1 == 0 && s != 0)) /* nc = 0: an ndof x 0 dense H (no contacts) */
        return 0;
    if (at_end(&ahead)) /* a global file cut inside its H header: read as global, refused */
        return 1;
    if (s == 0)
        return read_int(&ahead, "H", 1, INT_MAX, &a) == CB_OK &&
               (at_end(&ahead) || (read_int(&ahead, "H", 0, INT_MAX, &b) == CB_OK && a == m1 &&
                                   b == n1));
    if (s == 1)
        return read_int(&ahead, "H", 0, INT_MAX, &a) == CB_OK;
    return read_int(&ahead, "H", 1, 4, &a) == CB_OK &&
           (at_end(&ahead) || expect_word(&ahead, "H", "CSparse") == CB_OK);
}

static int read_global_rest(lexer *lx, cb_global_problem *g, nmatrix *mm, nmatrix *hh)
{
    size_t n = (size_t)g->nc * (size_t)cb_kind_dim(g->kind);
    int rc = read_matrix_header(lx, "H", hh);
    if (rc == CB_OK && (hh->m != mm->m || (size_t)hh->n != n))
        rc = lx_fail_line(lx, hh->line, "H: matrix is %d x %d, expected %d x %zu (ndof x nc·d)",
                          hh->m, hh->n, mm->m, n);
    if (rc == CB_OK)
        rc = read_matrix_body(lx, "H", hh);
    if (rc == CB_OK)
        rc = as_triplets(lx, "H", hh);
    if (rc != CB_OK)
        return rc;
    if ((rc = need_tokens(lx, (size_t)g->ndof, "q")) != CB_OK)
        return rc; /* before allocating ndof values */
    g->M = mm->t;
    g->H = hh->t;
    memset(&mm->t, 0, sizeof mm->t);
    memset(&hh->t, 0, sizeof hh->t);
    g->f = cb_calloc((size_t)g->ndof, sizeof(double));
    g->w = cb_calloc(n, sizeof(double));
    g->mu = cb_calloc((size_t)g->nc, sizeof(double));
    g->mu_r = cb_calloc((size_t)g->nc, sizeof(double));
    g->mu_s = cb_calloc((size_t)g->nc, sizeof(double));
    if (!g->f || !g->w || !g->mu || !g->mu_r || !g->mu_s)
        return cb_fail(lx->err, CB_ERR_NOMEM, "out of memory for a global problem");
    rc = read_vector(lx, "q", (size_t)g->ndof, g->f);
    if (rc == CB_OK)
        rc = read_vector(lx, "b", n, g->w);
    if (rc == CB_OK)
        rc = read_all_coeffs(lx, g->kind, g->nc, g->mu, g->mu_r, g->mu_s);
    if (rc == CB_OK)
        rc = check_trailing(lx, g->kind, g->nc);
    return rc;
}

/* A global file whose M (already read into mm) is followed by H, q, b, μ... */
static int read_global(lexer *lx, cb_kind kind, int nc, nmatrix *mm, cb_problem **out)
{
    cb_global_problem g = {0};
    nmatrix hh = {0};
    int rc = as_triplets(lx, "M", mm);
    g.kind = kind;
    g.nc = nc;
    g.ndof = mm->m;
    if (rc == CB_OK)
        rc = read_global_rest(lx, &g, mm, &hh);
    if (rc == CB_OK) {
        rc = cb_condense_global(&g, out, lx->err);
        if (rc != CB_OK) { /* name the file; keep the condensation's reason */
            char reason[CB_ERROR_LEN];
            snprintf(reason, sizeof reason, "%s", lx->err ? lx->err->text : "");
            rc = cb_fail_at(lx->err, rc, lx->path, mm->line, "%s", reason);
        }
    }
    nmatrix_clear(&hh);
    cb_global_problem_free(&g);
    return rc;
}

/* cb_read_siconos_text; rel: the same text when its parsed pages may be released, or NULL. */
static int read_siconos(const char *path, const char *text, size_t len, char *rel,
                        const cb_read_settings *s, cb_problem **out, cb_error *err)
{
    lexer lx = {path, text, text + len, 1, 1, err, 0, 0, rel, 0};
    nmatrix w = {0};
    cb_kind kind = CB_KIND_COULOMB3D;
    int nc = 0, n = 0;
    *out = NULL;
    int rc = cb_text_check(path, text, len, err);
    if (rc == CB_OK)
        rc = read_dims(&lx, s, &kind, &nc, &n);
    if (rc == CB_OK)
        rc = read_matrix_header(&lx, "W", &w);
    if (rc == CB_OK && w.m != w.n && (w.m != n || w.n != n))
        rc = lx_fail_line(&lx, w.line, "W: matrix is %d x %d, expected %d x %d (nc·d)", w.m,
                          w.n, n, n);
    if (rc == CB_OK)
        rc = read_matrix_body(&lx, w.m == n ? "W" : "M", &w);
    if (rc != CB_OK)
        goto cleanup;
    /* An nc·d × nc·d first matrix is W of a local file or M of a global one whose ndof happens
     * to be nc·d: what follows it decides (an H header or q), never the sizes. */
    if (h_header_follows(&lx, w.m, w.m == n || n == 0 ? n : -1))
        rc = read_global(&lx, kind, nc, &w, out);
    else if (w.m == n)
        rc = finish_local(&lx, kind, nc, &w, out);
    else
        rc = lx_fail_line(&lx, w.line,
                          "W: matrix is %d x %d but nc·d = %d (nc = %d, d = %d), and no H "
                          "matrix follows as in a global problem",
                          w.m, w.n, n, nc, cb_kind_dim(kind));
    if (rc == CB_OK)
        rc = cb_problem_check(*out, err);
cleanup:
    nmatrix_clear(&w);
    if (rc != CB_OK) {
        cb_problem_free(*out);
        *out = NULL;
    }
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Writer                                                                                       */

static void write_values(FILE *f, const double *x, size_t count)
{
    for (size_t k = 0; k < count; k++)
        fprintf(f, "%.17g ", x[k]);
    fputc('\n', f);
}

static void write_dense(FILE *f, const cb_problem *p)
{
    size_t n = cb_problem_n(p);
    fprintf(f, "0\n%zu\n%zu\n%zu\t%zu\n", n, n, n, n);
    for (size_t k = 0; k < n * n; k++) {
        fprintf(f, "%.17g ", p->W[k]);
        if ((k + 1) % n == 0)
            fputc('\n', f);
    }
}

/* Storage 1 as SBM_write_in_file: filled1 = index of the last non-empty block row + 2. */
static void write_sbm(FILE *f, const cb_problem *p)
{
    const cb_bsr *b = &p->bsr;
    size_t n = cb_problem_n(p), dd = (size_t)p->d * (size_t)p->d;
    fprintf(f, "1\n%zu\n%zu\n%d\n", n, n, b->nnzb);
    if (b->nnzb == 0)
        return;
    int last = p->nc - 1;
    while (last > 0 && b->row_ptr[last] == b->row_ptr[last + 1])
        last--;
    fprintf(f, "%d\n%d\n", p->nc, p->nc);
    for (int rep = 0; rep < 2; rep++) {
        for (int a = 1; a <= p->nc; a++)
            fprintf(f, "%lld\t", (long long)a * p->d);
        fputc('\n', f);
    }
    fprintf(f, "%d\n%d\n", last + 2, b->nnzb);
    for (int a = 0; a < last + 2; a++)
        fprintf(f, "%d\t", b->row_ptr[a]);
    fputc('\n', f);
    for (int k = 0; k < b->nnzb; k++)
        fprintf(f, "%d\t", b->col[k]);
    fputc('\n', f);
    for (int k = 0; k < b->nnzb; k++) {
        fprintf(f, "%d\n", k);
        for (size_t q = 0; q < dd; q++)
            fprintf(f, "%.17g\n", b->val[(size_t)k * dd + q]);
    }
}

/* Storage 2 as a CSparse triplet dump (read_csparse_body): the entries in t's order. */
static void write_csparse_triplets(FILE *f, const cb_triplets *t)
{
    fprintf(f, "2\n%d\n%d\n1\nCSparse triplet dump (conebench)\n", t->nrow, t->ncol);
    fprintf(f, "triplet: %d-by-%d, nzmax: %d nnz: %d\n", t->nrow, t->ncol, t->nnz, t->nnz);
    for (int k = 0; k < t->nnz; k++)
        fprintf(f, "    %d %d : %.17g\n", t->i[k], t->j[k], t->x[k]);
}

/* W (dense, or BSR: factored W assembled) and q of a local file; or M, H, f, w of a global one. */
static int write_operator(FILE *f, const cb_problem *prob, cb_error *err)
{
    const cb_global_form *g = prob->global;
    cb_problem *bsr = NULL;
    int rc = CB_OK;
    if (g) {
        write_csparse_triplets(f, &g->M);
        write_csparse_triplets(f, &g->H);
        write_values(f, g->f, (size_t)g->ndof);
        write_values(f, g->w, cb_problem_n(prob));
        return CB_OK;
    }
    if (prob->storage == CB_STORAGE_FACTORED && (rc = cb_problem_to_bsr(prob, &bsr, err)) != CB_OK)
        return rc;
    if (prob->storage == CB_STORAGE_DENSE)
        write_dense(f, prob);
    else
        write_sbm(f, bsr ? bsr : prob);
    cb_problem_free(bsr);
    write_values(f, prob->q, cb_problem_n(prob));
    return CB_OK;
}

int cb_write_problem_stream(FILE *f, const cb_problem *prob, cb_error *err)
{
    int rc = cb_problem_check(prob, err);
    if (rc != CB_OK)
        return rc;
    fprintf(f, "%d\n%d\n", prob->d, prob->nc);
    if ((rc = write_operator(f, prob, err)) != CB_OK)
        return rc;
    write_values(f, prob->mu, (size_t)prob->nc);
    if (has_mu_r(prob->kind))
        write_values(f, prob->mu_r, (size_t)prob->nc);
    if (prob->kind == CB_KIND_ROLLSPIN3D)
        write_values(f, prob->mu_s, (size_t)prob->nc);
    if (fflush(f) != 0 || ferror(f))
        return cb_fail(err, CB_ERR_IO, "write failed: %s", strerror(errno));
    return CB_OK;
}

int cb_read_siconos_text(const char *path, const char *text, size_t len,
                         const cb_read_settings *s, cb_problem **out, cb_error *err)
{
    return read_siconos(path, text, len, NULL, s, out, err);
}

int cb_read_siconos_consume(const char *path, char *text, size_t len, const cb_read_settings *s,
                            cb_problem **out, cb_error *err)
{
    return read_siconos(path, text, len, text, s, out, err);
}
