/* conebench — the global form attached to a condensed problem (conebench/problem.h):
 * M v = H p + f, y = Hᵀ v + w, kept as triplets; checks, copies and frees. */
#include "conebench/problem.h"
#include "base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cb_triplets_free(cb_triplets *t)
{
    if (!t)
        return;
    free(t->i);
    free(t->j);
    free(t->x);
    memset(t, 0, sizeof *t);
}

int cb_triplets_check(const cb_triplets *t, const char *name, int nrow, int ncol, cb_error *err)
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

void cb_global_form_free(cb_global_form *g)
{
    if (!g)
        return;
    cb_triplets_free(&g->M);
    cb_triplets_free(&g->H);
    free(g->f);
    free(g->w);
    free(g);
}

/* The first non-finite entry of x (n entries) as an error naming `name`, else CB_OK. */
static int check_finite_vec(const double *x, size_t n, const char *name, cb_error *err)
{
    if (!x)
        return cb_fail(err, CB_ERR_INPUT, "%s: missing", name);
    for (size_t k = 0; k < n; k++)
        if (!isfinite(x[k]))
            return cb_fail(err, CB_ERR_INPUT, "%s: entry %zu is not finite", name, k);
    return CB_OK;
}

int cb_global_form_check(const cb_global_form *g, size_t n, cb_error *err)
{
    if (g->ndof < 1)
        return cb_fail(err, CB_ERR_INPUT, "ndof: must be ≥ 1 (got %d)", g->ndof);
    if (n > 0x7fffffff)
        return cb_fail(err, CB_ERR_INPUT, "nc: nc·d exceeds the int range");
    int rc = cb_triplets_check(&g->M, "M", g->ndof, g->ndof, err);
    if (rc == CB_OK)
        rc = cb_triplets_check(&g->H, "H", g->ndof, (int)n, err);
    if (rc == CB_OK)
        rc = check_finite_vec(g->f, (size_t)g->ndof, "f", err);
    if (rc == CB_OK)
        rc = check_finite_vec(g->w, n, "w", err);
    return rc;
}

/* dst = a copy of src's arrays (nnz entries each). */
static int triplets_copy(const cb_triplets *src, cb_triplets *dst)
{
    size_t k = (size_t)(src->nnz > 0 ? src->nnz : 1);
    *dst = *src;
    dst->i = cb_malloc_array(k, sizeof *dst->i);
    dst->j = cb_malloc_array(k, sizeof *dst->j);
    dst->x = cb_malloc_array(k, sizeof *dst->x);
    if (!dst->i || !dst->j || !dst->x)
        return CB_ERR_NOMEM;
    memcpy(dst->i, src->i, (size_t)src->nnz * sizeof *dst->i);
    memcpy(dst->j, src->j, (size_t)src->nnz * sizeof *dst->j);
    memcpy(dst->x, src->x, (size_t)src->nnz * sizeof *dst->x);
    return CB_OK;
}

int cb_global_form_copy(const cb_global_form *src, size_t n, cb_global_form **out,
                        cb_error *err)
{
    cb_global_form *g = cb_calloc(1, sizeof *g);
    int rc = g ? CB_OK : CB_ERR_NOMEM;
    if (rc == CB_OK) {
        g->ndof = src->ndof;
        g->f = cb_malloc_array((size_t)src->ndof, sizeof *g->f);
        g->w = cb_malloc_array(n > 0 ? n : 1, sizeof *g->w);
        rc = g->f && g->w ? CB_OK : CB_ERR_NOMEM;
    }
    if (rc == CB_OK)
        rc = triplets_copy(&src->M, &g->M);
    if (rc == CB_OK)
        rc = triplets_copy(&src->H, &g->H);
    if (rc != CB_OK) {
        cb_global_form_free(g);
        *out = NULL;
        return cb_fail(err, CB_ERR_NOMEM, "global form: out of memory (ndof = %d)", src->ndof);
    }
    memcpy(g->f, src->f, (size_t)src->ndof * sizeof *g->f);
    memcpy(g->w, src->w, n * sizeof *g->w);
    *out = g;
    return CB_OK;
}
