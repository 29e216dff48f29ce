/* conebench — global → local condensation (SPEC §3).
 *
 * Global problem (Siconos convention, GlobalFrictionContactProblem.h):
 *     M v = H p + f,   y = Hᵀ v + w
 * hence y = Hᵀ M⁻¹ H p + (Hᵀ M⁻¹ f + w), i.e.
 *     W = Hᵀ M⁻¹ H,    q = Hᵀ M⁻¹ f + w,
 * the same as Siconos 4.4 globalFrictionContact_reformulation_FrictionContact (local q = Hᵀ M⁻¹ q
 * + b), used by globalRollingFrictionContact_reformulation_RollingFrictionContact.
 * M is densified (duplicate triplets summed) and must be positive definite. A symmetric M is
 * factorised by Cholesky (LAPACKE dpotrf/dpotrs). Real files are not always symmetric (the
 * Siconos GRFC3D Chute M has 24 entry pairs differing by up to 7.5%, and Siconos itself uses LU):
 * then the symmetric part must pass Cholesky (positive definiteness) and M is solved by LU
 * (dgetrf/dgetrs), so that W matches Siconos. The output problem is dense.
 */
#include "conebench/io.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void triplets_free(cb_triplets *t)
{
    free(t->i);
    free(t->j);
    free(t->x);
    memset(t, 0, sizeof *t);
}

/* Releases every array g owns and zeroes it; g itself is not freed (it is usually on the
 * stack or embedded). */
void cb_global_problem_free(cb_global_problem *g)
{
    if (!g)
        return;
    triplets_free(&g->M);
    triplets_free(&g->H);
    free(g->f);
    free(g->w);
    free(g->mu);
    free(g->mu_r);
    free(g->mu_s);
    memset(g, 0, sizeof *g);
}

static int check_triplets(const cb_triplets *t, const char *name, int nrow, int ncol,
                          cb_error *err)
{
    if (t->nrow != nrow || t->ncol != ncol)
        return cb_fail(err, CB_ERR_INPUT, "%s: is %d x %d, expected %d x %d", name, t->nrow,
                       t->ncol, nrow, ncol);
    if (t->nnz < 0 || (t->nnz > 0 && (!t->i || !t->j || !t->x)))
        return cb_fail(err, CB_ERR_INPUT, "%s: invalid triplet arrays", name);
    for (int k = 0; k < t->nnz; k++) {
        if (t->i[k] < 0 || t->i[k] >= nrow || t->j[k] < 0 || t->j[k] >= ncol)
            return cb_fail(err, CB_ERR_INPUT, "%s: entry %d at (%d, %d) is out of range", name, k,
                           t->i[k], t->j[k]);
        if (!isfinite(t->x[k]))
            return cb_fail(err, CB_ERR_INPUT, "%s: entry %d at (%d, %d) is not finite", name, k,
                           t->i[k], t->j[k]);
    }
    return CB_OK;
}

static int check_vector(const double *x, size_t n, const char *name, cb_error *err)
{
    if (!x)
        return cb_fail(err, CB_ERR_INPUT, "%s: missing", name);
    for (size_t k = 0; k < n; k++)
        if (!isfinite(x[k]))
            return cb_fail(err, CB_ERR_INPUT, "%s: entry %zu is not finite", name, k);
    return CB_OK;
}

static int check_global(const cb_global_problem *g, int *n, cb_error *err)
{
    int d = cb_kind_dim(g->kind);
    if (d == 0)
        return cb_fail(err, CB_ERR_INPUT, "kind: invalid cone kind %d", (int)g->kind);
    if (g->nc < 1 || g->ndof < 1)
        return cb_fail(err, CB_ERR_INPUT, "nc, ndof: must be ≥ 1 (got nc = %d, ndof = %d)",
                       g->nc, g->ndof);
    if ((long long)g->nc * d > 0x7fffffffLL)
        return cb_fail(err, CB_ERR_INPUT, "nc: nc·d exceeds the int range");
    *n = g->nc * d;
    int rc = check_triplets(&g->M, "M", g->ndof, g->ndof, err);
    if (rc == CB_OK)
        rc = check_triplets(&g->H, "H", g->ndof, *n, err);
    if (rc == CB_OK)
        rc = check_vector(g->f, (size_t)g->ndof, "f", err);
    if (rc == CB_OK)
        rc = check_vector(g->w, (size_t)*n, "w", err);
    if (rc == CB_OK && !g->mu)
        rc = cb_fail(err, CB_ERR_INPUT, "mu: missing");
    return rc;
}

/* Dense column-major (nrow × ncol) sum of triplets. */
static int densify(const cb_triplets *t, const char *name, double **out, cb_error *err)
{
    size_t count;
    if (cb_mul_size((size_t)t->nrow, (size_t)t->ncol, &count))
        return cb_fail(err, CB_ERR_INPUT, "%s: %d x %d is too large", name, t->nrow, t->ncol);
    double *a = cb_calloc(count, sizeof(double));
    if (!a)
        return cb_fail(err, CB_ERR_NOMEM, "%s: out of memory for a dense %d x %d matrix", name,
                       t->nrow, t->ncol);
    for (int k = 0; k < t->nnz; k++)
        a[(size_t)t->i[k] + (size_t)t->j[k] * (size_t)t->nrow] += t->x[k];
    *out = a;
    return CB_OK;
}

/* 1 if M is symmetric to a relative 1e-12 per entry pair. */
static int is_symmetric(const double *m, int n)
{
    for (int j = 0; j < n; j++)
        for (int i = j + 1; i < n; i++) {
            double a = m[i + (size_t)j * n], b = m[j + (size_t)i * n];
            if (fabs(a - b) > 1e-12 * fmax(fabs(a), fabs(b)))
                return 0;
        }
    return 1;
}

/* A factorisation of M: Cholesky (lower) when M is symmetric, else LU with partial pivoting. */
typedef struct {
    int n;
    double *a;         /* factors, n × n column-major (M is overwritten) */
    lapack_int *ipiv;  /* LU only */
} factor;

/* A nonsymmetric M must still be positive definite: its symmetric part must pass Cholesky. */
static int check_sym_part_pd(const double *m, int n, cb_error *err)
{
    double *s = cb_malloc_array((size_t)n * (size_t)n, sizeof(double));
    if (!s)
        return cb_fail(err, CB_ERR_NOMEM, "M: out of memory");
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            s[i + (size_t)j * n] = 0.5 * (m[i + (size_t)j * n] + m[j + (size_t)i * n]);
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, s, n);
    free(s);
    if (info != 0)
        return cb_fail(err, CB_ERR_INPUT,
                       "M: not positive definite (Cholesky of its symmetric part fails at leading "
                       "minor %d)",
                       (int)info);
    return CB_OK;
}

static int factorize(double *m, int n, factor *f, cb_error *err)
{
    f->n = n;
    f->a = m;
    f->ipiv = NULL;
    if (is_symmetric(m, n)) {
        lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, m, n);
        if (info != 0)
            return cb_fail(err, CB_ERR_INPUT,
                           "M: not symmetric positive definite (Cholesky fails at leading minor "
                           "%d)",
                           (int)info);
        return CB_OK;
    }
    int rc = check_sym_part_pd(m, n, err);
    if (rc != CB_OK)
        return rc;
    f->ipiv = cb_malloc_array((size_t)n, sizeof(lapack_int));
    if (!f->ipiv)
        return cb_fail(err, CB_ERR_NOMEM, "M: out of memory");
    lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, m, n, f->ipiv);
    if (info != 0)
        return cb_fail(err, CB_ERR_INPUT, "M: singular (LU pivot %d is zero)", (int)info);
    return CB_OK;
}

/* B (n × nrhs) ← M⁻¹ B. */
static int factor_solve(const factor *f, double *b, int nrhs, cb_error *err)
{
    lapack_int info = f->ipiv ? LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', f->n, nrhs, f->a, f->n,
                                               f->ipiv, b, f->n)
                              : LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', f->n, nrhs, f->a, f->n, b,
                                               f->n);
    if (info != 0)
        return cb_fail(err, CB_ERR_INTERNAL, "M: LAPACKE solve returned %d", (int)info);
    return CB_OK;
}

static void copy_coeffs(const cb_global_problem *g, cb_problem *p)
{
    size_t bytes = (size_t)g->nc * sizeof(double);
    memcpy(p->mu, g->mu, bytes);
    if (g->mu_r && cb_kind_nblocks(g->kind) >= 2)
        memcpy(p->mu_r, g->mu_r, bytes);
    if (g->mu_s && g->kind == CB_KIND_ROLLSPIN3D)
        memcpy(p->mu_s, g->mu_s, bytes);
}

int cb_condense_global(const cb_global_problem *g, cb_problem **out, cb_error *err)
{
    double *m = NULL, *h = NULL, *x = NULL, *v = NULL;
    factor fac = {0, NULL, NULL};
    int n = 0;
    *out = NULL;
    int rc = check_global(g, &n, err);
    if (rc != CB_OK)
        return rc;
    int ndof = g->ndof;
    if ((rc = densify(&g->M, "M", &m, err)) != CB_OK ||
        (rc = densify(&g->H, "H", &h, err)) != CB_OK)
        goto cleanup;
    x = cb_malloc_array((size_t)ndof * (size_t)n, sizeof(double));
    v = cb_malloc_array((size_t)ndof, sizeof(double));
    if (!x || !v) {
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory for the condensation");
        goto cleanup;
    }
    memcpy(x, h, (size_t)ndof * (size_t)n * sizeof(double));
    memcpy(v, g->f, (size_t)ndof * sizeof(double));
    if ((rc = factorize(m, ndof, &fac, err)) != CB_OK ||
        (rc = factor_solve(&fac, x, n, err)) != CB_OK || /* X = M⁻¹ H */
        (rc = factor_solve(&fac, v, 1, err)) != CB_OK)   /* v = M⁻¹ f */
        goto cleanup;
    if ((rc = cb_problem_alloc(g->kind, g->nc, CB_STORAGE_DENSE, 0, out, err)) != CB_OK)
        goto cleanup;
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, n, n, ndof, 1.0, h, ndof, x, ndof, 0.0,
                (*out)->W, n); /* W = Hᵀ X */
    memcpy((*out)->q, g->w, (size_t)n * sizeof(double));
    cblas_dgemv(CblasColMajor, CblasTrans, ndof, n, 1.0, h, ndof, v, 1, 1.0, (*out)->q, 1);
    copy_coeffs(g, *out);
    rc = cb_problem_check(*out, err);
cleanup:
    free(fac.ipiv);
    free(m);
    free(h);
    free(x);
    free(v);
    if (rc != CB_OK) {
        cb_problem_free(*out);
        *out = NULL;
    }
    return rc;
}
