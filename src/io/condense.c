/* conebench — global → local condensation.
 *
 * Global problem (Siconos convention, GlobalFrictionContactProblem.h):
 *     M v = H p + f,   y = Hᵀ v + w
 * hence y = Hᵀ M⁻¹ H p + (Hᵀ M⁻¹ f + w), i.e.
 *     W = Hᵀ M⁻¹ H,    q = Hᵀ M⁻¹ f + w,
 * the same as Siconos 4.4 globalFrictionContact_reformulation_FrictionContact (local q = Hᵀ M⁻¹ q
 * + b), used by globalRollingFrictionContact_reformulation_RollingFrictionContact.
 * M is split into the connected components of its sparsity graph (one rigid body or one
 * finite-element mesh each; a diagonal M gives 1×1 components), and each component is densified
 * (duplicate triplets summed) and must be positive definite. A symmetric block is factorised by
 * Cholesky. Real files are not always symmetric (the
 * Siconos GRFC3D Chute M has 24 entry pairs differing by up to 7.5%, and Siconos itself uses LU):
 * then the symmetric part must pass Cholesky (positive definiteness) and M is solved by LU
 * with partial pivoting, so that W matches Siconos. The output problem is dense and keeps a copy
 * of (M, H, f, w) as its global form.
 * The factorisations and products are conebench's fixed-order kernels (detmath.h), not LAPACK:
 * the condensed W is bitwise the same on every CPU and OpenBLAS kernel.
 */
#include "conebench/io.h"
#include "detmath.h"
#include "base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Releases every array g owns and zeroes it; g itself is not freed (it is usually on the
 * stack or embedded). */
void cb_global_problem_free(cb_global_problem *g)
{
    if (!g)
        return;
    cb_triplets_free(&g->M);
    cb_triplets_free(&g->H);
    free(g->f);
    free(g->w);
    free(g->mu);
    free(g->mu_r);
    free(g->mu_s);
    memset(g, 0, sizeof *g);
}

static int check_global(const cb_global_problem *g, int *n, cb_error *err)
{
    int d = cb_kind_dim(g->kind);
    if (d == 0)
        return cb_fail(err, CB_ERR_INPUT, "kind: invalid cone kind %d", (int)g->kind);
    if (g->nc < 0 || g->ndof < 1)
        return cb_fail(err, CB_ERR_INPUT, "nc, ndof: must be ≥ 0 and ≥ 1 (got nc = %d, ndof = %d)",
                       g->nc, g->ndof);
    if ((long long)g->nc * d > 0x7fffffffLL)
        return cb_fail(err, CB_ERR_INPUT, "nc: nc·d exceeds the int range");
    *n = g->nc * d;
    cb_global_form view = {g->ndof, g->M, g->H, g->f, g->w};
    int rc = cb_global_form_check(&view, (size_t)*n, err);
    if (rc == CB_OK && !g->mu)
        rc = cb_fail(err, CB_ERR_INPUT, "mu: missing");
    return rc;
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
    int *ipiv;         /* LU only */
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
    int info = cb_potrf(n, s, n);
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
        int info = cb_potrf(n, m, n);
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
    f->ipiv = cb_malloc_array((size_t)n, sizeof(int));
    if (!f->ipiv)
        return cb_fail(err, CB_ERR_NOMEM, "M: out of memory");
    int info = cb_getrf(n, m, n, f->ipiv);
    if (info != 0)
        return cb_fail(err, CB_ERR_INPUT, "M: singular (LU pivot %d is zero)", (int)info);
    return CB_OK;
}

/* B (n × nrhs) ← M⁻¹ B. */
static void factor_solve(const factor *f, double *b, int nrhs)
{
    if (f->ipiv)
        cb_getrs(f->n, nrhs, f->a, f->n, f->ipiv, b, f->n);
    else
        cb_potrs(f->n, nrhs, f->a, f->n, b, f->n);
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

/* Connected components of M's sparsity graph (union-find with path halving): comp[i] ∈ [0, nc). */
static int components(const cb_triplets *M, int n, int *comp, int *ncomp)
{
    int *parent = cb_malloc_array((size_t)n, sizeof(int));
    if (!parent)
        return CB_ERR_NOMEM;
    for (int i = 0; i < n; i++)
        parent[i] = i;
    for (int k = 0; k < M->nnz; k++) {
        int a = M->i[k], b = M->j[k];
        while (parent[a] != a)
            a = parent[a] = parent[parent[a]];
        while (parent[b] != b)
            b = parent[b] = parent[parent[b]];
        if (a != b)
            parent[a > b ? a : b] = a < b ? a : b;
    }
    *ncomp = 0;
    for (int i = 0; i < n; i++) { /* roots are the smallest index of their component */
        int r = i;
        while (parent[r] != r)
            r = parent[r];
        comp[i] = r == i ? (*ncomp)++ : comp[r];
    }
    free(parent);
    return CB_OK;
}

/* Entries of a triplet matrix bucketed by the component of their row: order[start[c]..start[c+1]). */
static int bucket(const cb_triplets *t, const int *comp, int ncomp, int **start, int **order)
{
    *start = cb_calloc((size_t)ncomp + 1, sizeof(int));
    *order = cb_malloc_array((size_t)t->nnz, sizeof(int));
    if (!*start || !*order)
        return CB_ERR_NOMEM;
    for (int k = 0; k < t->nnz; k++)
        (*start)[comp[t->i[k]] + 1]++;
    for (int c = 0; c < ncomp; c++)
        (*start)[c + 1] += (*start)[c];
    int *fill = cb_malloc_array((size_t)ncomp + 1, sizeof(int));
    if (!fill)
        return CB_ERR_NOMEM;
    memcpy(fill, *start, ((size_t)ncomp + 1) * sizeof(int));
    for (int k = 0; k < t->nnz; k++)
        (*order)[fill[comp[t->i[k]]]++] = k;
    free(fill);
    return CB_OK;
}

/* Shared state of a condensation: components of M and H's entries per component. */
typedef struct {
    const cb_global_problem *g;
    int n, ncomp;
    int *comp, *local;          /* component of each dof, its index inside the component */
    int *mstart, *morder;       /* M entries per component */
    int *hstart, *horder;       /* H entries per component (by row) */
    int *colmap;                /* global column → local column of the current component, or −1 */
    int *cols;                  /* local column → global column */
    cb_problem *out;
} condense_ctx;

/* W[C,C] += H_cᵀ M_c⁻¹ H_c and q[C] += H_cᵀ M_c⁻¹ f_c for component c with k dofs. */
static int condense_component(condense_ctx *x, int c, const int *dofs, int k, cb_error *err)
{
    const cb_global_problem *g = x->g;
    int m = 0, rc = CB_OK;
    for (int e = x->hstart[c]; e < x->hstart[c + 1]; e++) {
        int j = g->H.j[x->horder[e]];
        if (x->colmap[j] < 0) {
            x->colmap[j] = m;
            x->cols[m++] = j;
        }
    }
    double *mc = cb_calloc((size_t)k * k, sizeof(double)), *hc = cb_calloc((size_t)k * (m ? m : 1), sizeof(double));
    double *xc = cb_malloc_array((size_t)k * (m ? m : 1), sizeof(double)), *v = cb_malloc_array((size_t)k, sizeof(double));
    double *wc = cb_calloc((size_t)(m ? m : 1) * (m ? m : 1), sizeof(double));
    factor fac = {0, NULL, NULL};
    if (!mc || !hc || !xc || !v || !wc) {
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory for the condensation");
        goto cleanup;
    }
    for (int e = x->mstart[c]; e < x->mstart[c + 1]; e++) {
        int t = x->morder[e];
        mc[x->local[g->M.i[t]] + (size_t)x->local[g->M.j[t]] * k] += g->M.x[t];
    }
    for (int e = x->hstart[c]; e < x->hstart[c + 1]; e++) {
        int t = x->horder[e];
        hc[x->local[g->H.i[t]] + (size_t)x->colmap[g->H.j[t]] * k] += g->H.x[t];
    }
    for (int i = 0; i < k; i++)
        v[i] = g->f[dofs[i]];
    memcpy(xc, hc, (size_t)k * m * sizeof(double));
    if ((rc = factorize(mc, k, &fac, err)) != CB_OK)
        goto cleanup;
    factor_solve(&fac, xc, m);
    factor_solve(&fac, v, 1);
    if (m) {
        cb_gemm(1, 0, m, m, k, 1.0, hc, k, xc, k, 0.0, wc, m);
        size_t n = (size_t)x->n;
        for (int b = 0; b < m; b++) {
            double qb = 0;
            for (int i = 0; i < k; i++)
                qb += hc[i + (size_t)b * k] * v[i];
            x->out->q[x->cols[b]] += qb;
            for (int a = 0; a < m; a++)
                x->out->W[(size_t)x->cols[a] + (size_t)x->cols[b] * n] += wc[a + (size_t)b * m];
        }
    }
cleanup:
    for (int b = 0; b < m; b++)
        x->colmap[x->cols[b]] = -1;
    free(fac.ipiv);
    free(mc), free(hc), free(xc), free(v), free(wc);
    return rc;
}

/* Components, local indices and buckets of M and H entries. */
static int condense_setup(condense_ctx *x, cb_error *err)
{
    const cb_global_problem *g = x->g;
    x->comp = cb_malloc_array((size_t)g->ndof, sizeof(int));
    x->local = cb_malloc_array((size_t)g->ndof, sizeof(int));
    x->colmap = cb_malloc_array((size_t)x->n, sizeof(int));
    x->cols = cb_malloc_array((size_t)x->n, sizeof(int));
    if (!x->comp || !x->local || !x->colmap || !x->cols || components(&g->M, g->ndof, x->comp, &x->ncomp) ||
        bucket(&g->M, x->comp, x->ncomp, &x->mstart, &x->morder) ||
        bucket(&g->H, x->comp, x->ncomp, &x->hstart, &x->horder))
        return cb_fail(err, CB_ERR_NOMEM, "out of memory for the condensation");
    for (int j = 0; j < x->n; j++)
        x->colmap[j] = -1;
    return CB_OK;
}

/* W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w, one connected component of M at a time (rigid bodies give
 * 6×6 blocks; a diagonal M gives 1×1 ones), each factorised densely. */
int cb_condense_global(const cb_global_problem *g, cb_problem **out, cb_error *err)
{
    condense_ctx x;
    memset(&x, 0, sizeof x);
    x.g = g;
    int *dofs = NULL, *cstart = NULL;
    *out = NULL;
    int rc = check_global(g, &x.n, err);
    if (rc == CB_OK && g->nc == 0) /* no contacts: the empty local problem, solved at once */
        return cb_problem_alloc(g->kind, 0, CB_STORAGE_DENSE, 0, out, err);
    if (rc == CB_OK)
        rc = condense_setup(&x, err);
    if (rc == CB_OK)
        rc = cb_problem_alloc(g->kind, g->nc, CB_STORAGE_DENSE, 0, &x.out, err);
    dofs = rc == CB_OK ? cb_malloc_array((size_t)g->ndof, sizeof(int)) : NULL;
    cstart = rc == CB_OK ? cb_calloc((size_t)x.ncomp + 1, sizeof(int)) : NULL;
    if (rc == CB_OK && (!dofs || !cstart))
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory for the condensation");
    if (rc == CB_OK) {
        int *fill = cb_malloc_array((size_t)x.ncomp + 1, sizeof(int));
        if (!fill)
            rc = cb_fail(err, CB_ERR_NOMEM, "out of memory for the condensation");
        for (int i = 0; fill && i < g->ndof; i++) /* counting sort: dofs grouped by component */
            cstart[x.comp[i] + 1]++;
        for (int c = 0; fill && c < x.ncomp; c++)
            cstart[c + 1] += cstart[c];
        if (fill)
            memcpy(fill, cstart, ((size_t)x.ncomp + 1) * sizeof(int));
        for (int i = 0; fill && i < g->ndof; i++) {
            int slot = fill[x.comp[i]]++;
            dofs[slot] = i;
            x.local[i] = slot - cstart[x.comp[i]];
        }
        free(fill);
        memcpy(x.out->q, g->w, (size_t)x.n * sizeof(double));
    }
    for (int c = 0; rc == CB_OK && c < x.ncomp; c++)
        rc = condense_component(&x, c, dofs + cstart[c], cstart[c + 1] - cstart[c], err);
    if (rc == CB_OK) {
        copy_coeffs(g, x.out);
        rc = cb_problem_check(x.out, err);
    }
    if (rc == CB_OK) { /* the global form, for the solvers that work on it (ipm form=global) */
        cb_global_form view = {g->ndof, g->M, g->H, g->f, g->w};
        rc = cb_global_form_copy(&view, (size_t)x.n, &x.out->global, err);
    }
    if (rc == CB_OK)
        *out = x.out;
    else
        cb_problem_free(x.out);
    free(dofs), free(cstart), free(x.comp), free(x.local), free(x.colmap), free(x.cols);
    free(x.mstart), free(x.morder), free(x.hstart), free(x.horder);
    return rc;
}
