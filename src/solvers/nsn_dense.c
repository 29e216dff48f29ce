/* conebench — the dense backend of `nsn`'s direct solver (nsn_linear.c hands it the Newton
 * systems of small problems): H + λ I assembled as one n×n column-major matrix from dense or
 * BSR W and factored by Gaussian elimination with partial pivoting. Plain C in one fixed order
 * of operations (no BLAS/LAPACK: the bits do not depend on the CPU or the BLAS kernel,
 * detmath.h); no allocation after nsn_dense_new. */
#include "nsn_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

#define AT(M, d, i, j) ((M)[(i) + (size_t)(j) * (d)])

struct nsn_dense {
    const cb_problem *prob;
    int nc, d, n;
    double *M;  /* n×n, column-major: H + λ I, then its LU factors */
    double *dinv; /* 1 / U_kk */
    int *piv;   /* row k was swapped with row piv[k] at step k */
    int ok;     /* 1 once M holds the factors of a nonsingular matrix */
};

size_t nsn_dense_size(const cb_problem *prob)
{
    size_t n = (size_t)prob->nc * prob->d; /* the struct, M, dinv, then piv */
    return sizeof(nsn_dense) + (n * n + 2 * n) * sizeof(double);
}

nsn_dense *nsn_dense_init(void *mem, const cb_problem *prob)
{
    size_t n = (size_t)prob->nc * prob->d;
    nsn_dense *s = mem;
    memset(s, 0, sizeof *s);
    s->prob = prob, s->nc = prob->nc, s->d = prob->d, s->n = (int)n;
    s->M = (double *)(s + 1);
    s->dinv = s->M + n * n;
    s->piv = (int *)(s->dinv + n);
    return s;
}

int nsn_dense_new(const cb_problem *prob, nsn_dense **out)
{
    void *mem = cb_calloc(1, nsn_dense_size(prob)); /* one block */
    *out = mem ? nsn_dense_init(mem, prob) : NULL;
    return mem ? CB_OK : CB_ERR_NOMEM;
}

void nsn_dense_set_problem(nsn_dense *s, const cb_problem *prob)
{
    s->prob = prob;
    s->ok = 0;
}

/* M = A W, column by column (dense W): M_{αd+i, j} = Σ_l A_α(i, l) W_{αd+l, j}. */
static void product_dense(nsn_dense *s, const double *A_all)
{
    int d = s->d, n = s->n;
    size_t dd = (size_t)d * d;
    for (int j = 0; j < n; j++) {
        const double *wj = s->prob->W + (size_t)j * n;
        double *mj = s->M + (size_t)j * n;
        for (int a = 0; a < s->nc; a++) {
            const double *A = A_all + a * dd, *w = wj + a * d;
            double *m = mj + a * d;
            for (int i = 0; i < d; i++) {
                double v = 0.0;
                for (int l = 0; l < d; l++)
                    v += A[i + l * d] * w[l];
                m[i] = v;
            }
        }
    }
}

/* Block row α of A W into M from the stored BSR blocks W_αβ (the others stay zero). */
static void row_bsr(nsn_dense *s, const double *A, int a, cb_work *cnt)
{
    int d = s->d, n = s->n;
    const cb_bsr *b = &s->prob->bsr;
    for (int k = b->row_ptr[a]; k < b->row_ptr[a + 1]; k++) {
        const double *w = b->val + (size_t)k * d * d;
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++) {
                double v = 0.0;
                for (int l = 0; l < d; l++)
                    v += AT(A, d, i, l) * AT(w, d, l, j);
                s->M[(size_t)(a * d + i) + (size_t)(b->col[k] * d + j) * n] = v;
            }
        cnt->block_products += d;
    }
}

/* M = H + λ I = diag(I − J_α) + λ I + A W, block row by block row. */
static void assemble(nsn_dense *s, const nsn_system *sys, double lambda, cb_work *cnt)
{
    int d = s->d, n = s->n;
    size_t dd = (size_t)d * d;
    int bsr = s->prob->storage == CB_STORAGE_BSR;
    if (bsr) {
        memset(s->M, 0, (size_t)n * n * sizeof *s->M);
    } else {
        product_dense(s, sys->A);
        cnt->block_products += (long long)s->nc * s->nc * d;
    }
    for (int a = 0; a < s->nc; a++) {
        if (bsr)
            row_bsr(s, sys->A + a * dd, a, cnt);
        const double *IJ = sys->IJ + a * dd;
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++)
                s->M[(size_t)(a * d + i) + (size_t)(a * d + j) * n] +=
                    AT(IJ, d, i, j) + (i == j) * lambda;
    }
}

/* In-place LU with partial pivoting, P M = L U (unit L below the diagonal, the column scaled by
 * the pivot's reciprocal dinv_k = 1/U_kk); 1 when a pivot is zero or not finite (singular). */
int nsn_lu(double *M, int n, int *piv_row, double *dinv)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(AT(M, n, i, k)) > fabs(AT(M, n, p, k)))
                p = i;
        double piv = AT(M, n, p, k);
        if (piv == 0.0 || !isfinite(piv))
            return 1;
        piv_row[k] = p;
        if (p != k)
            for (int j = 0; j < n; j++) {
                double t = AT(M, n, k, j);
                AT(M, n, k, j) = AT(M, n, p, j);
                AT(M, n, p, j) = t;
            }
        double inv = dinv[k] = 1.0 / piv;
        for (int i = k + 1; i < n; i++)
            AT(M, n, i, k) *= inv;
        for (int j = k + 1; j < n; j++) {
            double u = AT(M, n, k, j);
            if (u != 0.0)
                for (int i = k + 1; i < n; i++)
                    AT(M, n, i, j) -= AT(M, n, i, k) * u;
        }
    }
    return 0;
}

int nsn_dense_factor(nsn_dense *s, const nsn_system *sys, double lambda, cb_work *cnt)
{
    assemble(s, sys, lambda, cnt);
    s->ok = nsn_lu(s->M, s->n, s->piv, s->dinv) == 0;
    return s->ok ? 0 : 1;
}

/* b ← U⁻¹ L⁻¹ P b with nsn_lu's factors. */
void nsn_lu_solve(const double *M, int n, const int *piv, const double *dinv, double *b)
{
    for (int k = 0; k < n; k++) {
        double t = b[k];
        b[k] = b[piv[k]];
        b[piv[k]] = t;
    }
    for (int j = 0; j < n; j++)
        for (int i = j + 1; i < n; i++)
            b[i] -= AT(M, n, i, j) * b[j];
    for (int j = n - 1; j >= 0; j--) {
        b[j] *= dinv[j];
        for (int i = 0; i < j; i++)
            b[i] -= AT(M, n, i, j) * b[j];
    }
}

/* b ← (H + λ I)⁻¹ b with the last factorisation. */
int nsn_dense_solve(const nsn_dense *s, double *b)
{
    if (!s->ok)
        return CB_ERR_INTERNAL;
    nsn_lu_solve(s->M, s->n, s->piv, s->dinv, b);
    return CB_OK;
}

void nsn_dense_free(nsn_dense *s)
{
    free(s);
}
