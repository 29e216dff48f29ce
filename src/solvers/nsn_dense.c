/* conebench — the dense backend of `nsn`'s direct solver (nsn_linear.c hands it the Newton
 * systems of small problems): H + λ I assembled as one n×n column-major matrix from dense or
 * BSR W and factored by Gaussian elimination with partial pivoting. Plain C in one fixed order
 * of operations (no BLAS/LAPACK: the bits do not depend on the CPU or the BLAS kernel,
 * detmath.h); no allocation after nsn_dense_new. */
#include "nsn_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/* m = B w for one d×d column-major block B: m_i = (((0 + B_i0 w_0) + B_i1 w_1) + …). Inlined
 * with a constant d and unrolled, B and the sums stay in registers. */
static inline __attribute__((always_inline)) void block_times(int d, const double *B,
                                                              const double *w, double *m)
{
CB_UNROLL(6)
    for (int i = 0; i < d; i++) {
        double v = 0.0;
CB_UNROLL(6)
        for (int l = 0; l < d; l++)
            v += B[i + l * d] * w[l];
        m[i] = v;
    }
}

/* M = A W, column by column (dense W): M_{αd+i, j} = Σ_l A_α(i, l) W_{αd+l, j}. */
static inline __attribute__((always_inline)) void product_dense_d(nsn_dense *s, int d,
                                                                  const double *A_all)
{
    int n = s->n;
    size_t dd = (size_t)d * d;
    for (int j = 0; j < n; j++) {
        const double *wj = s->prob->W + (size_t)j * n;
        double *mj = s->M + (size_t)j * n;
        for (int a = 0; a < s->nc; a++)
            block_times(d, A_all + a * dd, wj + a * d, mj + a * d);
    }
}

/* Block row α of A W into M from the stored BSR blocks W_αβ (the others stay zero). */
static inline __attribute__((always_inline)) void row_bsr_d(nsn_dense *s, int d, const double *A,
                                                            int a)
{
    int n = s->n;
    const cb_bsr *b = &s->prob->bsr;
    for (int k = b->row_ptr[a]; k < b->row_ptr[a + 1]; k++) {
        const double *w = b->val + (size_t)k * d * d;
        double *m = s->M + (size_t)a * d + (size_t)b->col[k] * d * n;
CB_UNROLL(6)
        for (int j = 0; j < d; j++)
            block_times(d, A, w + j * d, m + (size_t)j * n);
    }
}

/* A W into M (the BSR blocks' rows; dense: every column), d known to the compiler for the
 * kinds' sizes. */
static void product(nsn_dense *s, const double *A_all)
{
    size_t dd = (size_t)s->d * s->d;
    if (s->prob->storage != CB_STORAGE_BSR) {
        switch (s->d) {
        case 2: product_dense_d(s, 2, A_all); break;
        case 3: product_dense_d(s, 3, A_all); break;
        case 5: product_dense_d(s, 5, A_all); break;
        default: product_dense_d(s, s->d, A_all); break;
        }
        return;
    }
    memset(s->M, 0, (size_t)s->n * s->n * sizeof *s->M);
    for (int a = 0; a < s->nc; a++)
        switch (s->d) {
        case 2: row_bsr_d(s, 2, A_all + a * dd, a); break;
        case 3: row_bsr_d(s, 3, A_all + a * dd, a); break;
        case 5: row_bsr_d(s, 5, A_all + a * dd, a); break;
        default: row_bsr_d(s, s->d, A_all + a * dd, a); break;
        }
}

/* M = H + λ I = diag(I − J_α) + λ I + A W, block row by block row. */
static void assemble(nsn_dense *s, const nsn_system *sys, double lambda, cb_work *cnt)
{
    int d = s->d, n = s->n;
    size_t dd = (size_t)d * d;
    product(s, sys->A);
    cnt->block_products += (long long)cb_problem_blocks_per_matvec(s->prob) * d;
    for (int a = 0; a < s->nc; a++) {
        const double *IJ = sys->IJ + a * dd;
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++)
                s->M[(size_t)(a * d + i) + (size_t)(a * d + j) * n] +=
                    AT(IJ, d, i, j) + (i == j) * lambda;
    }
}

/* y[0..m) −= u x[0..m), entry by entry (SSE2 pairs where there is SSE2: each entry the one
 * rounded product and difference of the scalar loop, so the same bits on every CPU). */
static inline void sub_scaled(double *restrict y, const double *restrict x, double u, int m)
{
    int i = 0;
#if defined(__SSE2__)
    __m128d vu = _mm_set1_pd(u);
    for (; i + 4 <= m; i += 4) {
        __m128d a = _mm_sub_pd(_mm_loadu_pd(y + i), _mm_mul_pd(_mm_loadu_pd(x + i), vu));
        __m128d b = _mm_sub_pd(_mm_loadu_pd(y + i + 2), _mm_mul_pd(_mm_loadu_pd(x + i + 2), vu));
        _mm_storeu_pd(y + i, a);
        _mm_storeu_pd(y + i + 2, b);
    }
    for (; i + 2 <= m; i += 2)
        _mm_storeu_pd(y + i, _mm_sub_pd(_mm_loadu_pd(y + i), _mm_mul_pd(_mm_loadu_pd(x + i), vu)));
#endif
    for (; i < m; i++)
        y[i] -= x[i] * u;
}

/* yu −= u x and yv −= v x over m entries (sub_scaled on two columns, x read once). */
static inline void sub_scaled2(double *restrict yu, double *restrict yv, const double *restrict x,
                               double u, double v, int m)
{
    int i = 0;
#if defined(__SSE2__)
    __m128d vu = _mm_set1_pd(u), vv = _mm_set1_pd(v);
    for (; i + 2 <= m; i += 2) {
        __m128d xi = _mm_loadu_pd(x + i);
        _mm_storeu_pd(yu + i, _mm_sub_pd(_mm_loadu_pd(yu + i), _mm_mul_pd(xi, vu)));
        _mm_storeu_pd(yv + i, _mm_sub_pd(_mm_loadu_pd(yv + i), _mm_mul_pd(xi, vv)));
    }
#endif
    for (; i < m; i++) {
        yu[i] -= x[i] * u;
        yv[i] -= x[i] * v;
    }
}

/* In-place LU with partial pivoting, P M = L U (unit L below the diagonal, the column scaled by
 * the pivot's reciprocal dinv_k = 1/U_kk); 1 when a pivot is zero or not finite (singular).
 * Column j > k is updated as M_ij −= M_ik u_j (u_j = M_kj ≠ 0), entry by entry. */
int nsn_lu(double *M, int n, int *piv_row, double *dinv)
{
    for (int k = 0; k < n; k++) {
        double *ck = M + (size_t)k * n;
        int p = k;
        double big = fabs(ck[k]);
        for (int i = k + 1; i < n; i++)
            if (fabs(ck[i]) > big)
                p = i, big = fabs(ck[i]);
        double piv = ck[p];
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
            ck[i] *= inv;
        int j = k + 1, m = n - k - 1;
        for (; j + 2 <= n; j += 2) { /* two columns a pass: x read once */
            double u = AT(M, n, k, j), v = AT(M, n, k, j + 1);
            double *yu = M + (size_t)j * n + k + 1, *yv = yu + n;
            if (u != 0.0 && v != 0.0)
                sub_scaled2(yu, yv, ck + k + 1, u, v, m);
            else if (u != 0.0)
                sub_scaled(yu, ck + k + 1, u, m);
            else if (v != 0.0)
                sub_scaled(yv, ck + k + 1, v, m);
        }
        if (j < n && AT(M, n, k, j) != 0.0)
            sub_scaled(M + (size_t)j * n + k + 1, ck + k + 1, AT(M, n, k, j), m);
    }
    return 0;
}

int nsn_dense_factor(nsn_dense *s, const nsn_system *sys, double lambda, cb_work *cnt)
{
    assemble(s, sys, lambda, cnt);
    s->ok = nsn_lu(s->M, s->n, s->piv, s->dinv) == 0;
    return s->ok ? 0 : 1;
}

/* b ← U⁻¹ L⁻¹ P b with nsn_lu's factors (column by column, as sub_scaled orders it). */
void nsn_lu_solve(const double *M, int n, const int *piv, const double *dinv, double *b)
{
    for (int k = 0; k < n; k++) {
        double t = b[k];
        b[k] = b[piv[k]];
        b[piv[k]] = t;
    }
    for (int j = 0; j < n; j++)
        sub_scaled(b + j + 1, M + (size_t)j * n + j + 1, b[j], n - j - 1);
    for (int j = n - 1; j >= 0; j--) {
        b[j] *= dinv[j];
        sub_scaled(b, M + (size_t)j * n, b[j], j);
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
