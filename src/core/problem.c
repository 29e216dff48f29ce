/* conebench — problem model: allocation, validation, W·p kernels, storage conversion. */
#include "conebench/problem.h"
#include "problem_internal.h"
#include "base.h"

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

const char *cb_storage_name(cb_storage s)
{
    return s == CB_STORAGE_BSR ? "bsr" : s == CB_STORAGE_FACTORED ? "factored" : "dense";
}

size_t cb_problem_n(const cb_problem *prob) { return (size_t)prob->nc * (size_t)prob->d; }

static int alloc_arrays(cb_problem *p, int nnzb, cb_error *err)
{
    size_t n = cb_problem_n(p), nn, bb, vals;
    if (cb_mul_size(n, n, &nn) || cb_mul_size((size_t)p->d, (size_t)p->d, &bb) ||
        cb_mul_size(bb, (size_t)(nnzb > 0 ? nnzb : 0), &vals))
        return cb_fail(err, CB_ERR_INPUT, "nc: problem size overflows");
    p->q = cb_calloc(n, sizeof(double));
    p->mu = cb_calloc((size_t)p->nc, sizeof(double));
    p->mu_r = cb_calloc((size_t)p->nc, sizeof(double));
    p->mu_s = cb_calloc((size_t)p->nc, sizeof(double));
    if (p->storage == CB_STORAGE_DENSE) {
        p->W = cb_calloc(nn, sizeof(double));
    } else if (p->storage == CB_STORAGE_BSR) {
        p->bsr.nbrows = p->nc;
        p->bsr.nnzb = nnzb;
        p->bsr.row_ptr = cb_calloc((size_t)p->nc + 1, sizeof(int));
        p->bsr.col = cb_calloc((size_t)nnzb, sizeof(int));
        p->bsr.val = cb_calloc(vals, sizeof(double));
    }
    int dense_ok = p->storage != CB_STORAGE_DENSE || p->W;
    int bsr_ok = p->storage != CB_STORAGE_BSR || (p->bsr.row_ptr && p->bsr.col && p->bsr.val);
    if (!p->q || !p->mu || !p->mu_r || !p->mu_s || !dense_ok || !bsr_ok)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory for a problem with nc = %d", p->nc);
    return CB_OK;
}

/* Validate kind and nc (all storages). */
static int check_kind_nc(cb_kind kind, int nc, cb_error *err)
{
    int d = cb_kind_dim(kind);
    if (d == 0)
        return cb_fail(err, CB_ERR_INPUT, "kind: invalid cone kind %d", (int)kind);
    if (nc < 0) /* nc = 0: a valid problem without contacts, solved by the empty p */
        return cb_fail(err, CB_ERR_INPUT, "nc: must be ≥ 0, got %d", nc);
    if ((long long)nc * d > 0x7fffffffLL)
        return cb_fail(err, CB_ERR_INPUT, "nc: nc·d = %lld exceeds the int range",
                       (long long)nc * d);
    return CB_OK;
}

/* Allocate the problem, q, μ's and the W arrays of its storage (nbody: factored only). */
static int alloc_problem(cb_kind kind, int nc, cb_storage storage, int nnzb, int nbody,
                         cb_problem **out, cb_error *err)
{
    cb_problem *p = calloc(1, sizeof *p);
    if (!p)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    p->kind = kind;
    p->nc = nc;
    p->d = cb_kind_dim(kind);
    p->storage = storage;
    int rc = alloc_arrays(p, nnzb, err);
    if (rc == CB_OK && storage == CB_STORAGE_FACTORED && cb_fac_alloc(p, nbody) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory for a factored problem with nc = %d, "
                     "nbody = %d", nc, nbody);
    if (rc != CB_OK) {
        cb_problem_free(p);
        return rc;
    }
    *out = p;
    return CB_OK;
}

int cb_problem_alloc(cb_kind kind, int nc, cb_storage storage, int nnzb, cb_problem **out,
                     cb_error *err)
{
    *out = NULL;
    int rc = check_kind_nc(kind, nc, err);
    if (rc != CB_OK)
        return rc;
    if (storage == CB_STORAGE_FACTORED)
        return cb_fail(err, CB_ERR_INPUT,
                       "storage: factored W needs its bodies (cb_problem_alloc_factored)");
    if (storage != CB_STORAGE_DENSE && storage != CB_STORAGE_BSR)
        return cb_fail(err, CB_ERR_INPUT, "storage: invalid value %d", (int)storage);
    if (storage == CB_STORAGE_BSR && nnzb < 0)
        return cb_fail(err, CB_ERR_INPUT, "nnzb: must be ≥ 0, got %d", nnzb);
    return alloc_problem(kind, nc, storage, nnzb, 0, out, err);
}

int cb_problem_alloc_factored(cb_kind kind, int nc, int nbody, cb_problem **out, cb_error *err)
{
    *out = NULL;
    int rc = check_kind_nc(kind, nc, err);
    if (rc == CB_OK)
        rc = cb_fac_check_sizes(cb_kind_dim(kind), nc, nbody, err);
    if (rc != CB_OK)
        return rc;
    return alloc_problem(kind, nc, CB_STORAGE_FACTORED, 0, nbody, out, err);
}

void cb_problem_free(cb_problem *p)
{
    if (!p)
        return;
    free(p->name);
    free(p->W);
    free(p->bsr.row_ptr);
    free(p->bsr.col);
    free(p->bsr.val);
    cb_fac_free(&p->fac);
    free(p->q);
    free(p->mu);
    free(p->mu_r);
    free(p->mu_s);
    cb_global_form_free(p->global);
    free(p->prov.source);
    free(p->prov.generator);
    free(p->prov.params);
    free(p);
}

static int check_bsr(const cb_problem *p, cb_error *err)
{
    const cb_bsr *b = &p->bsr;
    if (b->nbrows != p->nc)
        return cb_fail(err, CB_ERR_INPUT, "W: BSR has %d block rows, expected nc = %d", b->nbrows,
                       p->nc);
    if (b->row_ptr[0] != 0 || b->row_ptr[p->nc] != b->nnzb)
        return cb_fail(err, CB_ERR_INPUT, "W: BSR row pointers must run from 0 to nnzb = %d",
                       b->nnzb);
    for (int a = 0; a < p->nc; a++) {
        if (b->row_ptr[a + 1] < b->row_ptr[a])
            return cb_fail(err, CB_ERR_INPUT, "W: BSR row pointer decreases at block row %d", a);
        for (int k = b->row_ptr[a]; k < b->row_ptr[a + 1]; k++) {
            if (b->col[k] < 0 || b->col[k] >= p->nc)
                return cb_fail(err, CB_ERR_INPUT, "W: BSR block column %d out of range [0, %d)",
                               b->col[k], p->nc);
            if (k > b->row_ptr[a] && b->col[k] <= b->col[k - 1])
                return cb_fail(err, CB_ERR_INPUT,
                               "W: BSR block columns not strictly increasing in block row %d", a);
        }
    }
    return CB_OK;
}

static int check_finite(const double *x, size_t n, const char *field, cb_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return cb_fail(err, CB_ERR_INPUT, "%s: entry %zu is not finite", field, i);
    return CB_OK;
}

static int check_coeffs(const double *m, int nc, const char *field, cb_error *err)
{
    for (int i = 0; i < nc; i++)
        if (!isfinite(m[i]) || m[i] < 0)
            return cb_fail(err, CB_ERR_INPUT, "%s: entry %d is %g, must be finite and ≥ 0", field,
                           i, m[i]);
    return CB_OK;
}

int cb_problem_check(const cb_problem *p, cb_error *err)
{
    if (!p)
        return cb_fail(err, CB_ERR_INPUT, "problem: NULL");
    if (cb_kind_dim(p->kind) == 0 || p->d != cb_kind_dim(p->kind))
        return cb_fail(err, CB_ERR_INPUT, "kind: invalid kind or d = %d", p->d);
    if (p->nc < 0)
        return cb_fail(err, CB_ERR_INPUT, "nc: must be ≥ 0, got %d", p->nc);
    size_t n = cb_problem_n(p);
    int rc = CB_OK;
    if (p->storage == CB_STORAGE_DENSE)
        rc = p->W ? check_finite(p->W, n * n, "W", err)
                  : cb_fail(err, CB_ERR_INPUT, "W: missing");
    else if (p->storage == CB_STORAGE_BSR)
        rc = check_bsr(p, err) ? CB_ERR_INPUT
                               : check_finite(p->bsr.val,
                                              (size_t)p->bsr.nnzb * (size_t)(p->d * p->d), "W",
                                              err);
    else if (p->storage == CB_STORAGE_FACTORED)
        rc = cb_fac_check(p, err);
    else
        rc = cb_fail(err, CB_ERR_INPUT, "storage: invalid");
    if (rc == CB_OK)
        rc = check_finite(p->q, n, "q", err);
    if (rc == CB_OK)
        rc = check_coeffs(p->mu, p->nc, "mu", err);
    if (rc == CB_OK)
        rc = check_coeffs(p->mu_r, p->nc, "mu_r", err);
    if (rc == CB_OK)
        rc = check_coeffs(p->mu_s, p->nc, "mu_s", err);
    if (rc == CB_OK && p->global)
        rc = cb_global_form_check(p->global, n, err);
    return rc;
}

/* y_a += B x for one d×d column-major block B. */
static inline void block_gemv_add(int d, const double *B, const double *x, double *y)
{
    for (int j = 0; j < d; j++) {
        double xj = x[j];
        const double *c = B + (size_t)j * d;
        for (int i = 0; i < d; i++)
            y[i] += c[i] * xj;
    }
}

/* y = A x for an m×ncol column-major A (leading dimension ld), every y_i summed in column
 * order: y_i = (((A_i0 x_0) + A_i1 x_1) + …), the order block_gemv_add gives a BSR row.
 * Dense and BSR storage of one problem thus produce bit-identical W p (a missing BSR block
 * adds exact zeros), hence identical iterations in every solver. Four columns per pass keep
 * y in registers; the rows are independent, so the compiler may vectorise across them. */
static void gemv_colorder(int m, int ncol, const double *restrict A, size_t ld,
                          const double *restrict x, double *restrict y)
{
    memset(y, 0, (size_t)m * sizeof(double));
    int k = 0;
    for (; k + 4 <= ncol; k += 4) {
        const double *c0 = A + (size_t)k * ld, *c1 = c0 + ld, *c2 = c1 + ld, *c3 = c2 + ld;
        double x0 = x[k], x1 = x[k + 1], x2 = x[k + 2], x3 = x[k + 3];
        int i = 0;
#if defined(__SSE2__)
        __m128d v0 = _mm_set1_pd(x0), v1 = _mm_set1_pd(x1), v2 = _mm_set1_pd(x2),
                v3 = _mm_set1_pd(x3);
        for (; i + 2 <= m; i += 2) {
            __m128d t = _mm_loadu_pd(y + i);
            t = _mm_add_pd(t, _mm_mul_pd(_mm_loadu_pd(c0 + i), v0));
            t = _mm_add_pd(t, _mm_mul_pd(_mm_loadu_pd(c1 + i), v1));
            t = _mm_add_pd(t, _mm_mul_pd(_mm_loadu_pd(c2 + i), v2));
            t = _mm_add_pd(t, _mm_mul_pd(_mm_loadu_pd(c3 + i), v3));
            _mm_storeu_pd(y + i, t);
        }
#endif
        for (; i < m; i++) {
            double t = y[i];
            t += c0[i] * x0;
            t += c1[i] * x1;
            t += c2[i] * x2;
            t += c3[i] * x3;
            y[i] = t;
        }
    }
    for (; k < ncol; k++) {
        const double *c = A + (size_t)k * ld;
        double xk = x[k];
        for (int i = 0; i < m; i++)
            y[i] += c[i] * xk;
    }
}

/* Block row a of y = W x (BSR): from 0, each stored block in turn in block_gemv_add's order,
 * summed in a local vector (inlined with a constant d and unrolled: registers, not stores). */
static inline __attribute__((always_inline)) void bsr_row(const cb_bsr *b, int a, int d,
                                                          const double *x, double *y)
{
    double t[CB_MAX_DIM] = {0};
    for (int k = b->row_ptr[a]; k < b->row_ptr[a + 1]; k++) {
        const double *B = b->val + (size_t)k * d * d, *xb = x + (size_t)b->col[k] * d;
#pragma GCC unroll 6
        for (int j = 0; j < d; j++)
#pragma GCC unroll 6
            for (int i = 0; i < d; i++)
                t[i] += B[i + j * d] * xb[j];
    }
    memcpy(y + (size_t)a * d, t, (size_t)d * sizeof *t);
}

typedef struct {
    const cb_problem *p;
    const double *x;
    double *y;
    const double *q; /* y = W x + q, or NULL: y = W x */
} wp_ctx;

/* Rows [r0, r1) of y = W x (dense: scalar rows; BSR: block rows), in the one column order, then
 * + q when there is one (the same bits as adding q afterwards). */
static void wp_rows(void *ctx, int r0, int r1)
{
    const wp_ctx *c = ctx;
    const cb_problem *p = c->p;
    int d = p->d;
    size_t e0 = (size_t)r0, e1 = (size_t)r1; /* entries of y */
    if (p->storage == CB_STORAGE_DENSE) {
        size_t n = cb_problem_n(p);
        gemv_colorder(r1 - r0, (int)n, p->W + r0, n, c->x, c->y + r0);
    } else {
        for (int a = r0; a < r1; a++)
            switch (d) { /* the kinds' sizes with d known: the sums stay in registers */
            case 2: bsr_row(&p->bsr, a, 2, c->x, c->y); break;
            case 3: bsr_row(&p->bsr, a, 3, c->x, c->y); break;
            case 5: bsr_row(&p->bsr, a, 5, c->x, c->y); break;
            default: bsr_row(&p->bsr, a, d, c->x, c->y); break;
            }
        e0 *= (size_t)d, e1 *= (size_t)d;
    }
    for (size_t i = e0; c->q && i < e1; i++)
        c->y[i] += c->q[i];
}

/* y = W x (+ q). Rows are shared out among the run's threads in contiguous ranges (BSR: of
 * about equal block counts); each row is summed by one thread in the one column order, so the
 * bits do not depend on the count. */
static void wp_plus(const cb_problem *p, const double *x, const double *q, double *y)
{
    if (p->storage == CB_STORAGE_FACTORED) {
        cb_fac_Wp(p, x, y);
        for (size_t i = 0, n = cb_problem_n(p); q && i < n; i++)
            y[i] += q[i];
        return;
    }
    wp_ctx c = {p, x, y, q};
    if (p->storage == CB_STORAGE_DENSE)
        cb_parallel_rows((int)cb_problem_n(p), wp_rows, &c);
    else
        cb_parallel_rows_by(p->nc, p->bsr.row_ptr, wp_rows, &c);
}

/* y_α = Σ_β W_αβ x_β + q_α for α in [a0, a1). */
int cb_problem_y_rows(const cb_problem *p, const double *x, double *y, int a0, int a1)
{
    wp_ctx c = {p, x, y, p->q};
    if (p->storage == CB_STORAGE_FACTORED)
        return 0;
    if (p->storage == CB_STORAGE_DENSE)
        wp_rows(&c, a0 * p->d, a1 * p->d);
    else
        wp_rows(&c, a0, a1);
    return 1;
}

/* y = W p. */
void cb_problem_Wp(const cb_problem *p, const double *x, double *y)
{
    wp_plus(p, x, NULL, y);
}

/* y = W p + q. */
void cb_problem_y(const cb_problem *p, const double *x, double *y)
{
    wp_plus(p, x, p->q, y);
}

/* out = Σ_β W_αβ p_β (one block row). */
void cb_problem_row_Wp(const cb_problem *p, int alpha, const double *x, double *out)
{
    int n = (int)cb_problem_n(p), d = p->d;
    if (p->storage == CB_STORAGE_DENSE) {
        gemv_colorder(d, n, p->W + (size_t)alpha * d, (size_t)n, x, out);
        return;
    }
    if (p->storage == CB_STORAGE_FACTORED) {
        cb_fac_row_Wp(p, alpha, x, out);
        return;
    }
    memset(out, 0, (size_t)d * sizeof(double));
    const cb_bsr *b = &p->bsr;
    for (int k = b->row_ptr[alpha]; k < b->row_ptr[alpha + 1]; k++)
        block_gemv_add(d, b->val + (size_t)k * d * d, x + (size_t)b->col[k] * d, out);
}

/* out = W_αα (column-major). */
void cb_problem_diag_block(const cb_problem *p, int alpha, double *out)
{
    int d = p->d;
    size_t n = cb_problem_n(p);
    if (p->storage == CB_STORAGE_FACTORED) {
        memcpy(out, p->fac.diag + (size_t)alpha * d * d, (size_t)d * d * sizeof(double));
        return;
    }
    memset(out, 0, (size_t)d * d * sizeof(double));
    if (p->storage == CB_STORAGE_DENSE) {
        size_t off = (size_t)alpha * d;
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++)
                out[i + j * d] = p->W[(off + i) + (off + j) * n];
        return;
    }
    const cb_bsr *b = &p->bsr;
    for (int k = b->row_ptr[alpha]; k < b->row_ptr[alpha + 1]; k++)
        if (b->col[k] == alpha)
            memcpy(out, b->val + (size_t)k * d * d, (size_t)d * d * sizeof(double));
}

/* ‖W_αα‖∞ = max_i Σ_j |(W_αα)_ij| */
double cb_problem_diag_norm(const cb_problem *prob, int alpha)
{
    int d = prob->d;
    size_t ld = (size_t)d, off = (size_t)alpha * d; /* read in place: no copy of the block */
    const double *blk = NULL;
    double nrm = 0.0;
    if (prob->storage == CB_STORAGE_DENSE) {
        ld = cb_problem_n(prob);
        blk = prob->W + off + off * ld;
    } else if (prob->storage == CB_STORAGE_FACTORED) {
        blk = prob->fac.diag + off * d;
    } else {
        const cb_bsr *b = &prob->bsr; /* the last stored diagonal block, as cb_problem_diag_block */
        for (int k = b->row_ptr[alpha]; k < b->row_ptr[alpha + 1]; k++)
            if (b->col[k] == alpha)
                blk = b->val + (size_t)k * d * d;
    }
    for (int i = 0; blk && i < d; i++) {
        double r = 0.0;
        for (int j = 0; j < d; j++)
            r += fabs(blk[i + j * ld]);
        nrm = fmax(nrm, r);
    }
    return nrm;
}

long long cb_problem_blocks_per_matvec(const cb_problem *p)
{
    if (p->storage == CB_STORAGE_FACTORED)
        return 2 * cb_fac_slots(p);
    return p->storage == CB_STORAGE_DENSE ? (long long)p->nc * p->nc : (long long)p->bsr.nnzb;
}

size_t cb_problem_W_bytes(const cb_problem *p)
{
    size_t n = cb_problem_n(p), nb = (size_t)p->bsr.nnzb;
    if (p->storage == CB_STORAGE_DENSE)
        return n * n * sizeof(double);
    if (p->storage == CB_STORAGE_FACTORED)
        return cb_fac_bytes(p);
    return nb * (size_t)(p->d * p->d) * sizeof(double) + nb * sizeof(int) +
           ((size_t)p->nc + 1) * sizeof(int);
}

void cb_problem_friction(const cb_problem *p, int alpha, cb_friction *f)
{
    f->mu = p->mu[alpha];
    f->mu_r = p->mu_r[alpha];
    f->mu_s = p->mu_s[alpha];
}

int cb_problem_set_name(cb_problem *p, const char *name)
{
    char *c = cb_strdup(name);
    if (name && !c)
        return CB_ERR_NOMEM;
    free(p->name);
    p->name = c;
    return CB_OK;
}

int cb_problem_set_provenance(cb_problem *p, const char *source, const char *generator,
                              const char *params, uint64_t seed)
{
    char *s = cb_strdup(source), *g = cb_strdup(generator), *pa = cb_strdup(params);
    if ((source && !s) || (generator && !g) || (params && !pa)) {
        free(s);
        free(g);
        free(pa);
        return CB_ERR_NOMEM;
    }
    free(p->prov.source);
    free(p->prov.generator);
    free(p->prov.params);
    p->prov.source = s;
    p->prov.generator = g;
    p->prov.params = pa;
    p->prov.seed = seed;
    return CB_OK;
}

/* Copy q, μ's, the global form, name and provenance from src to dst (same kind and nc). */
static int copy_common(const cb_problem *src, cb_problem *dst)
{
    size_t n = cb_problem_n(src);
    memcpy(dst->q, src->q, n * sizeof(double));
    memcpy(dst->mu, src->mu, (size_t)src->nc * sizeof(double));
    memcpy(dst->mu_r, src->mu_r, (size_t)src->nc * sizeof(double));
    memcpy(dst->mu_s, src->mu_s, (size_t)src->nc * sizeof(double));
    memcpy(dst->prov.sha256, src->prov.sha256, sizeof dst->prov.sha256);
    if (cb_problem_set_name(dst, src->name) != CB_OK)
        return CB_ERR_NOMEM;
    if (src->global && cb_global_form_copy(src->global, n, &dst->global, NULL) != CB_OK)
        return CB_ERR_NOMEM;
    return cb_problem_set_provenance(dst, src->prov.source, src->prov.generator, src->prov.params,
                                     src->prov.seed);
}

int cb_problem_copy(const cb_problem *src, cb_problem **out, cb_error *err)
{
    int rc = src->storage == CB_STORAGE_FACTORED
                 ? cb_problem_alloc_factored(src->kind, src->nc, src->fac.nbody, out, err)
                 : cb_problem_alloc(src->kind, src->nc, src->storage, src->bsr.nnzb, out, err);
    if (rc != CB_OK)
        return rc;
    cb_problem *dst = *out;
    size_t n = cb_problem_n(src);
    if (src->storage == CB_STORAGE_FACTORED) {
        cb_fac_copy(src, dst);
    } else if (src->storage == CB_STORAGE_DENSE) {
        memcpy(dst->W, src->W, n * n * sizeof(double));
    } else {
        memcpy(dst->bsr.row_ptr, src->bsr.row_ptr, ((size_t)src->nc + 1) * sizeof(int));
        memcpy(dst->bsr.col, src->bsr.col, (size_t)src->bsr.nnzb * sizeof(int));
        memcpy(dst->bsr.val, src->bsr.val,
               (size_t)src->bsr.nnzb * (size_t)(src->d * src->d) * sizeof(double));
    }
    if (copy_common(src, dst) != CB_OK) {
        cb_problem_free(dst);
        *out = NULL;
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    return CB_OK;
}

/* 1 if dense block (a, b) of W has a nonzero entry. */
static int dense_block_nonzero(const cb_problem *p, int a, int b)
{
    size_t n = cb_problem_n(p), d = (size_t)p->d;
    for (size_t j = 0; j < d; j++)
        for (size_t i = 0; i < d; i++)
            if (p->W[(a * d + i) + (b * d + j) * n] != 0.0)
                return 1;
    return 0;
}

/* Assemble a factored problem into BSR: a block for every pair of contacts sharing a body. */
static int factored_to_bsr(const cb_problem *src, cb_problem **out, cb_error *err)
{
    long long nnzb = cb_fac_bsr_count(src);
    if (nnzb > 0x7fffffffLL)
        return cb_fail(err, CB_ERR_INPUT, "W: %lld coupled pairs, too many blocks for BSR",
                       nnzb);
    int rc = cb_problem_alloc(src->kind, src->nc, CB_STORAGE_BSR, (int)nnzb, out, err);
    if (rc != CB_OK)
        return rc;
    cb_fac_bsr_fill(src, *out);
    if (copy_common(src, *out) != CB_OK) {
        cb_problem_free(*out);
        *out = NULL;
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    return CB_OK;
}

int cb_problem_to_bsr(const cb_problem *src, cb_problem **out, cb_error *err)
{
    if (src->storage == CB_STORAGE_BSR)
        return cb_problem_copy(src, out, err);
    if (src->storage == CB_STORAGE_FACTORED)
        return factored_to_bsr(src, out, err);
    long long nnzb = 0;
    for (int a = 0; a < src->nc; a++)
        for (int b = 0; b < src->nc; b++)
            nnzb += (a == b || dense_block_nonzero(src, a, b));
    if (nnzb > 0x7fffffffLL)
        return cb_fail(err, CB_ERR_INPUT, "W: too many blocks for BSR");
    int rc = cb_problem_alloc(src->kind, src->nc, CB_STORAGE_BSR, (int)nnzb, out, err);
    if (rc != CB_OK)
        return rc;
    cb_problem *dst = *out;
    size_t n = cb_problem_n(src), d = (size_t)src->d;
    int k = 0;
    for (int a = 0; a < src->nc; a++) {
        dst->bsr.row_ptr[a] = k;
        for (int b = 0; b < src->nc; b++) {
            if (a != b && !dense_block_nonzero(src, a, b))
                continue;
            dst->bsr.col[k] = b;
            double *B = dst->bsr.val + (size_t)k * d * d;
            for (size_t j = 0; j < d; j++)
                for (size_t i = 0; i < d; i++)
                    B[i + j * d] = src->W[(a * d + i) + (b * d + j) * n];
            k++;
        }
    }
    dst->bsr.row_ptr[src->nc] = k;
    if (copy_common(src, dst) != CB_OK) {
        cb_problem_free(dst);
        *out = NULL;
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    return CB_OK;
}

int cb_problem_to_dense(const cb_problem *src, cb_problem **out, cb_error *err)
{
    if (src->storage == CB_STORAGE_DENSE)
        return cb_problem_copy(src, out, err);
    if (src->storage == CB_STORAGE_FACTORED) { /* through the assembled BSR */
        cb_problem *bsr = NULL;
        int rc = factored_to_bsr(src, &bsr, err);
        if (rc == CB_OK)
            rc = cb_problem_to_dense(bsr, out, err);
        cb_problem_free(bsr);
        return rc;
    }
    int rc = cb_problem_alloc(src->kind, src->nc, CB_STORAGE_DENSE, 0, out, err);
    if (rc != CB_OK)
        return rc;
    cb_problem *dst = *out;
    size_t n = cb_problem_n(src), d = (size_t)src->d;
    for (int a = 0; a < src->nc; a++)
        for (int k = src->bsr.row_ptr[a]; k < src->bsr.row_ptr[a + 1]; k++) {
            const double *B = src->bsr.val + (size_t)k * d * d;
            size_t b = (size_t)src->bsr.col[k];
            for (size_t j = 0; j < d; j++)
                for (size_t i = 0; i < d; i++)
                    dst->W[(a * d + i) + (b * d + j) * n] = B[i + j * d];
        }
    if (copy_common(src, dst) != CB_OK) {
        cb_problem_free(dst);
        *out = NULL;
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    return CB_OK;
}
