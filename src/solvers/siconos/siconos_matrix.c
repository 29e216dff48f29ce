/* conebench — the Siconos 4.4 adapters: our problem as a Siconos FrictionContactProblem or
 * RollingFrictionContactProblem (see siconos_adapter.c, Memory, for the forms W takes), or for
 * a global row its global form as a GlobalFrictionContactProblem or
 * GlobalRollingFrictionContactProblem (M and H as triplet matrices). */
#include "siconos_internal.h"

#include <stdlib.h>
#include <string.h>

#include "SparseBlockMatrix.h"
#include "detmath.h"
#include "base.h"

static double *dup_array(const double *src, size_t count)
{
    double *dst = cb_malloc_array(count, sizeof(double));
    if (dst)
        memcpy(dst, src, count * sizeof(double));
    return dst;
}

static int build_dense(cb_sic_work *w, const cb_problem *prob)
{
    size_t nn;
    if (cb_mul_size((size_t)w->n, (size_t)w->n, &nn))
        return CB_ERR_NOMEM;
    double *copy = dup_array(prob->W, nn);
    if (!copy)
        return CB_ERR_NOMEM;
    w->M = NM_create_from_data(NM_DENSE, w->n, w->n, copy); /* takes ownership of copy */
    if (!w->M) {
        free(copy);
        return CB_ERR_NOMEM;
    }
    return CB_OK;
}

static int bsr_has_diag(const cb_bsr *b, int a)
{
    for (int k = b->row_ptr[a]; k < b->row_ptr[a + 1]; k++)
        if (b->col[k] == a)
            return 1;
    return 0;
}

/* Allocate the index arrays of an SBM with nb blocks for nc block rows of size d. */
static int sbm_alloc(SparseBlockStructuredMatrix *m, int nc, int d, size_t nb)
{
    m->nbblocks = (unsigned)nb;
    m->blocknumber0 = m->blocknumber1 = (unsigned)nc;
    m->filled1 = (size_t)nc + 1;
    m->filled2 = nb;
    m->blocksize0 = cb_malloc_array((size_t)nc, sizeof(unsigned));
    m->blocksize1 = cb_malloc_array((size_t)nc, sizeof(unsigned));
    m->index1_data = cb_malloc_array((size_t)nc + 1, sizeof(size_t));
    m->index2_data = cb_malloc_array(nb > 0 ? nb : 1, sizeof(size_t));
    m->block = cb_calloc(nb > 0 ? nb : 1, sizeof(double *));
    if (!m->blocksize0 || !m->blocksize1 || !m->index1_data || !m->index2_data || !m->block) {
        m->nbblocks = 0; /* SBM_clear must not walk a missing block array */
        return CB_ERR_NOMEM;
    }
    for (int a = 0; a < nc; a++)
        m->blocksize0[a] = m->blocksize1[a] = (unsigned)((a + 1) * d);
    return CB_OK;
}

/* Append one d×d block (values src, or zeros when src is NULL) at block column col. */
static int sbm_push(SparseBlockStructuredMatrix *m, size_t *k, int col, const double *src,
                    int d)
{
    size_t dd = (size_t)d * (size_t)d;
    double *blk = src ? dup_array(src, dd) : cb_calloc(dd, sizeof(double));
    if (!blk)
        return CB_ERR_NOMEM;
    m->block[*k] = blk;
    m->index2_data[*k] = (size_t)col;
    (*k)++;
    return CB_OK;
}

/* Fill rows in column order, inserting a zero diagonal block where a row lacks one. */
static int sbm_fill(SparseBlockStructuredMatrix *m, const cb_bsr *b, int d)
{
    size_t k = 0, dd = (size_t)d * (size_t)d;
    for (int a = 0; a < b->nbrows; a++) {
        m->index1_data[a] = k;
        int need_diag = !bsr_has_diag(b, a);
        for (int j = b->row_ptr[a]; j < b->row_ptr[a + 1]; j++) {
            if (need_diag && b->col[j] > a) {
                if (sbm_push(m, &k, a, NULL, d) != CB_OK)
                    return CB_ERR_NOMEM;
                need_diag = 0;
            }
            if (sbm_push(m, &k, b->col[j], b->val + (size_t)j * dd, d) != CB_OK)
                return CB_ERR_NOMEM;
        }
        if (need_diag && sbm_push(m, &k, a, NULL, d) != CB_OK)
            return CB_ERR_NOMEM;
    }
    m->index1_data[b->nbrows] = k;
    return CB_OK;
}

static int build_sbm(cb_sic_work *w, const cb_problem *prob)
{
    size_t nb = (size_t)prob->bsr.nnzb;
    for (int a = 0; a < prob->nc; a++)
        nb += !bsr_has_diag(&prob->bsr, a);
    SparseBlockStructuredMatrix *m = malloc(sizeof *m);
    if (!m)
        return CB_ERR_NOMEM;
    SBM_null(m);
    int rc = sbm_alloc(m, prob->nc, prob->d, nb);
    if (rc == CB_OK)
        rc = sbm_fill(m, &prob->bsr, prob->d);
    if (rc == CB_OK)
        w->M = NM_create_from_data(NM_SPARSE_BLOCK, w->n, w->n, m); /* takes ownership of m */
    if (rc == CB_OK && !w->M)
        rc = CB_ERR_NOMEM;
    if (rc != CB_OK) {
        SBM_clear(m); /* frees the blocks pushed so far and every index array */
        free(m);
    }
    return rc;
}

/* rolling3d BSR → NM_SPARSE (compressed columns, converted by Siconos from the SBM copy):
 * Siconos 4.4's 5×5 diagonal-block extraction from an SBM is assert(0) in the Debian build.
 * The compressed-column form and its transpose (used for row products) are built here, so the
 * conversion is charged to setup, not to the solve. */
static int build_csc(cb_sic_work *w, const cb_problem *prob)
{
    int rc = build_sbm(w, prob);
    if (rc != CB_OK)
        return rc;
    NumericsMatrix *sbm = w->M;
    w->M = NM_create(NM_SPARSE, w->n, w->n);
    if (!w->M) {
        NM_free(sbm);
        return CB_ERR_NOMEM;
    }
    NM_copy_to_sparse(sbm, w->M, 0.0);
    NM_free(sbm);
    NM_csc(w->M);
    NM_csc_trans(w->M);
    return CB_OK;
}

/* The NumericsMatrix of a dense or BSR W (kind and row flags pick the BSR form). */
static int build_matrix(cb_sic_work *w, const cb_problem *prob)
{
    if (prob->storage == CB_STORAGE_DENSE)
        return build_dense(w, prob);
    if (w->kind == CB_KIND_ROLLING3D && !(w->row->flags & CB_SIC_ROLLING_SBM))
        return build_csc(w, prob);
    return build_sbm(w, prob);
}

typedef struct {
    long long key; /* column · nrow + row */
    double x;
} sic_entry;

static int cmp_entry(const void *a, const void *b)
{
    long long x = ((const sic_entry *)a)->key, y = ((const sic_entry *)b)->key;
    return (x > y) - (x < y);
}

/* A Siconos sparse matrix of t (entries in column order, duplicates summed) into *out. */
static int build_triplet_matrix(const cb_triplets *t, NumericsMatrix **out)
{
    sic_entry *e = cb_malloc_array(t->nnz ? (size_t)t->nnz : 1, sizeof *e);
    NumericsMatrix *A = e ? NM_create(NM_SPARSE, t->nrow, t->ncol) : NULL;
    if (!A) {
        free(e);
        return CB_ERR_NOMEM;
    }
    for (int k = 0; k < t->nnz; k++)
        e[k] = (sic_entry){(long long)t->j[k] * t->nrow + t->i[k], t->x[k]};
    qsort(e, (size_t)t->nnz, sizeof *e, cmp_entry);
    int u = 0;
    for (int k = 0; k < t->nnz; k++) {
        if (u > 0 && e[u - 1].key == e[k].key)
            e[u - 1].x += e[k].x;
        else
            e[u++] = e[k];
    }
    NM_triplet_alloc(A, u ? u : 1);
    for (int k = 0; k < u; k++)
        NM_entry(A, (int)(e[k].key % t->nrow), (int)(e[k].key / t->nrow), e[k].x);
    free(e);
    *out = A;
    return CB_OK;
}

/* A global row's problem: M, H, f, w of prob->global (μ, μ_r already copied). */
static int build_global(cb_sic_work *w, const cb_problem *prob)
{
    const cb_global_form *g = prob->global;
    w->gf = dup_array(g->f, (size_t)g->ndof);
    w->gw = dup_array(g->w, (size_t)w->n);
    w->gv = cb_calloc((size_t)g->ndof, sizeof *w->gv);
    if (!w->gf || !w->gw || !w->gv || build_triplet_matrix(&g->M, &w->gM) != CB_OK ||
        build_triplet_matrix(&g->H, &w->gH) != CB_OK)
        return CB_ERR_NOMEM;
    if (w->kind == CB_KIND_ROLLING3D) {
        w->grfc = (GlobalRollingFrictionContactProblem){w->d, w->nc, w->gM, w->gH, w->gf,
                                                        w->gw, w->mu, w->mu_r};
        return CB_OK;
    }
    w->gfc = (GlobalFrictionContactProblem){w->d, w->nc, w->gM, w->gH, w->gf,
                                            cb_nrm2(w->gf, (size_t)g->ndof), w->gw,
                                            cb_nrm2(w->gw, (size_t)w->n), w->mu, NULL};
    return CB_OK;
}

/* Copies of q, μ, μ_r and W in the form the row needs; a factored W (a BSR W for a dense-only
 * row, a dense W for a sparse-only one) is converted into a temporary copy first. */
int cb_sic_build_problem(cb_sic_work *w, const cb_problem *prob)
{
    w->q = dup_array(prob->q, (size_t)w->n);
    w->mu = dup_array(prob->mu, (size_t)w->nc);
    w->mu_r = dup_array(prob->mu_r, (size_t)w->nc);
    if (!w->q || !w->mu || !w->mu_r)
        return CB_ERR_NOMEM;
    if (w->row->flags & CB_SIC_GLOBAL)
        return build_global(w, prob);
    int rc;
    int to_dense = (w->row->flags & CB_SIC_DENSE) && prob->storage != CB_STORAGE_DENSE;
    int to_bsr = prob->storage == CB_STORAGE_FACTORED ||
                 ((w->row->flags & CB_SIC_SPARSE) && prob->storage == CB_STORAGE_DENSE);
    if (to_dense || to_bsr) { /* assemble a copy first */
        cb_problem *copy = NULL;
        rc = to_dense ? cb_problem_to_dense(prob, &copy, NULL)
                      : cb_problem_to_bsr(prob, &copy, NULL);
        if (rc == CB_OK) {
            w->blocks_per_matvec = cb_problem_blocks_per_matvec(copy);
            rc = build_matrix(w, copy);
        }
        cb_problem_free(copy);
    } else {
        rc = build_matrix(w, prob);
    }
    if (rc != CB_OK)
        return rc;
    if (w->kind == CB_KIND_ROLLING3D || w->kind == CB_KIND_ROLLING2D) {
        w->rfc.dimension = w->d;
        w->rfc.numberOfContacts = w->nc;
        w->rfc.M = w->M;
        w->rfc.q = w->q;
        w->rfc.mu = w->mu;
        w->rfc.mu_r = w->mu_r;
    } else {
        w->fc.dimension = w->d;
        w->fc.numberOfContacts = w->nc;
        w->fc.M = w->M;
        w->fc.q = w->q;
        w->fc.mu = w->mu;
    }
    return CB_OK;
}

