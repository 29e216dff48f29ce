/* conebench — the direct linear step of `admm` (option linear=direct): (W + ρI) x = b by a
 * sparse LU (KLU, SuiteSparse: no BLAS, so the bits do not depend on the CPU), factored once
 * and again only when ρ changes; each ADMM iteration then costs one pair of triangular solves
 * instead of BiCGSTAB's two W products a step.
 *
 * W's block rows (BSR; dense and factored W are converted to BSR first) are read as compressed
 * rows of W, which are the compressed columns of Wᵀ: KLU factors A = Wᵀ + ρI and klu_tsolve
 * solves Aᵀ x = (W + ρI) x = b. A row without its diagonal entry gets one (value ρ). */
#include "admm_internal.h"

#include <klu.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

struct cb_admm_direct {
    cb_problem *copy; /* the BSR copy of a dense or factored W (owned), else NULL */
    int n;
    int *Ap, *Ai;     /* compressed rows of W + ρI (= columns of Wᵀ + ρI) */
    double *Ax;
    int *dpos;        /* n: the index in Ax of each diagonal entry */
    double *dW;       /* n: W_ii (0 where absent) */
    double rho;       /* ρ of the current factors (0: none) */
    klu_common common;
    klu_symbolic *sym;
    klu_numeric *num;
};

void cb_admm_direct_free(cb_admm_direct *s)
{
    if (!s)
        return;
    klu_free_numeric(&s->num, &s->common);
    klu_free_symbolic(&s->sym, &s->common);
    cb_problem_free(s->copy);
    free(s->Ap);
    free(s->Ai);
    free(s->Ax);
    free(s->dpos);
    free(s->dW);
    free(s);
}

/* Entries of scalar row i = a d + r of W's BSR (every stored block gives d), plus one when
 * block row a has no diagonal block. */
static int row_count(const cb_bsr *b, int d, int a)
{
    int cnt = 0, diag = 0;
    for (int k = b->row_ptr[a]; k < b->row_ptr[a + 1]; k++) {
        cnt += d;
        diag |= b->col[k] == a;
    }
    return cnt + !diag;
}

/* Fill the compressed rows of W (diagonal entries recorded in dpos/dW; ρ added by refactor). */
static void fill_rows(cb_admm_direct *s, const cb_bsr *b, int nc, int d)
{
    int e = 0;
    for (int a = 0; a < nc; a++)
        for (int r = 0; r < d; r++) {
            int i = a * d + r;
            s->Ap[i] = e;
            s->dpos[i] = -1;
            for (int k = b->row_ptr[a]; k < b->row_ptr[a + 1]; k++)
                for (int c = 0; c < d; c++) {
                    int j = b->col[k] * d + c;
                    s->Ai[e] = j;
                    s->Ax[e] = b->val[(size_t)k * d * d + r + (size_t)c * d];
                    if (j == i)
                        s->dpos[i] = e;
                    e++;
                }
            if (s->dpos[i] < 0) {
                s->Ai[e] = i;
                s->Ax[e] = 0.0;
                s->dpos[i] = e++;
            }
            s->dW[i] = s->Ax[s->dpos[i]];
        }
    s->Ap[s->n] = e;
}

/* The pattern of W + ρI and its KLU analysis. */
int cb_admm_direct_new(const cb_problem *prob, cb_admm_direct **out, cb_error *err)
{
    cb_admm_direct *s = cb_calloc(1, sizeof *s);
    int rc = s ? CB_OK : CB_ERR_NOMEM;
    *out = NULL;
    if (rc == CB_OK && prob->storage != CB_STORAGE_BSR)
        rc = cb_problem_to_bsr(prob, &s->copy, err);
    const cb_problem *P = s && s->copy ? s->copy : prob;
    int nc = P->nc, d = P->d, nnz = 0;
    if (rc == CB_OK) {
        s->n = nc * d;
        for (int a = 0; a < nc; a++)
            nnz += d * row_count(&P->bsr, d, a);
        s->Ap = cb_calloc((size_t)s->n + 1, sizeof *s->Ap);
        s->Ai = cb_calloc((size_t)nnz, sizeof *s->Ai);
        s->Ax = cb_calloc((size_t)nnz, sizeof *s->Ax);
        s->dpos = cb_calloc((size_t)s->n, sizeof *s->dpos);
        s->dW = cb_calloc((size_t)s->n, sizeof *s->dW);
        if (!s->Ap || !s->Ai || !s->Ax || !s->dpos || !s->dW)
            rc = CB_ERR_NOMEM;
    }
    if (rc == CB_OK) {
        fill_rows(s, &P->bsr, nc, d);
        klu_defaults(&s->common);
        s->sym = klu_analyze(s->n, s->Ap, s->Ai, &s->common);
        if (!s->sym)
            rc = s->common.status == KLU_OUT_OF_MEMORY ? CB_ERR_NOMEM : CB_ERR_INTERNAL;
    }
    if (rc != CB_OK) {
        cb_admm_direct_free(s);
        return rc == CB_ERR_NOMEM ? cb_fail(err, CB_ERR_NOMEM, "admm: out of memory for "
                                            "W + rho I (n = %zu)", cb_problem_n(prob))
                                  : rc == CB_ERR_INTERNAL ? cb_fail(err, rc, "admm: KLU "
                                    "analysis of W + rho I failed (status %d)",
                                    s ? s->common.status : 0) : rc;
    }
    *out = s;
    return CB_OK;
}

/* Factors of W + ρI (refactored with the old pivot order when only ρ changed; afresh when
 * that fails). */
static int factor(cb_admm_direct *s, double rho)
{
    for (int i = 0; i < s->n; i++)
        s->Ax[s->dpos[i]] = s->dW[i] + rho;
    if (s->num && klu_refactor(s->Ap, s->Ai, s->Ax, s->sym, s->num, &s->common) &&
        s->common.status == KLU_OK) {
        s->rho = rho;
        return CB_OK;
    }
    klu_free_numeric(&s->num, &s->common);
    s->num = klu_factor(s->Ap, s->Ai, s->Ax, s->sym, &s->common);
    s->rho = s->num ? rho : 0.0;
    return s->num ? CB_OK : CB_ERR_INTERNAL;
}

int cb_admm_direct_solve(cb_admm_direct *s, double rho, double *b)
{
    if (s->rho != rho && factor(s, rho) != CB_OK)
        return CB_ERR_INTERNAL;
    return klu_tsolve(s->sym, s->num, s->n, 1, b, &s->common) ? CB_OK : CB_ERR_INTERNAL;
}
