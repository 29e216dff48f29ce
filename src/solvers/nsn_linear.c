/* conebench — the linear solvers of `nsn`: (H + λ I) Δ = b assembled in compressed columns from
 * W's block pattern and factored by KLU (SuiteSparse: sparse LU without BLAS, so the bits do
 * not depend on the CPU or the BLAS kernel; AMD ordering, or on large contact graphs METIS
 * nested dissection of the contact blocks when it fills less), and a matrix-free restarted GMRES through the W
 * kernels (factored storage, or when the direct solver fails) with block-Jacobi
 * preconditioning. With linear=auto, the same analysis of the contact graph decides when no
 * factorisation is made at all (nsn_direct_new_auto: nsn's Krylov route). */
#include "nsn_internal.h"

#include <cholmod.h>
#include <klu.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "detmath.h"
#include "base.h"
#include "solvers_internal.h"

#define AT(M, d, i, j) ((M)[(i) + (size_t)(j) * (d)])
#define NSN_REFACTOR_RCOND 1e-12 /* klu_rcond below this: factor afresh (new pivots) */
#define NSN_ND_MIN_NC 2000 /* from this many contacts: METIS nested dissection is considered */

struct nsn_direct {
    const cb_problem *prob;
    int nc, d, n;
    int *bptr, *brow;    /* block-column pattern: rows brow[bptr[b]..bptr[b+1]) of column b */
    const double **wblk; /* the W block of each pattern entry (NULL: zero block) */
    double *dense_copy;  /* dense storage: the nonzero blocks, copied (owned) */
    int *Ap, *Ai;        /* CSC of the n×n matrix */
    double *Ax;
    klu_common common;
    klu_symbolic *sym;
    klu_numeric *num;
    nsn_dense *dense;    /* n ≤ NSN_DENSE_MAX: the dense backend instead of KLU (nsn_dense.c) */
    double flops;        /* CHOLMOD's flop count of the contact graph's factor × d³ (0: none) */
    int may_krylov;      /* linear=auto: no KLU analysis when flops says the Krylov route */
};

/* The W block (α, β) of a dense or BSR problem, or NULL when it is absent or all zero
 * (dense: a pointer into a copy made in dense_block). */
static const double *w_block(const cb_problem *prob, int a, int b, double *buf)
{
    int d = prob->d;
    if (prob->storage == CB_STORAGE_BSR) {
        for (int k = prob->bsr.row_ptr[a]; k < prob->bsr.row_ptr[a + 1]; k++)
            if (prob->bsr.col[k] == b)
                return prob->bsr.val + (size_t)k * d * d;
        return NULL;
    }
    size_t n = (size_t)prob->nc * d;
    int nonzero = 0;
    for (int j = 0; j < d; j++)
        for (int i = 0; i < d; i++) {
            buf[i + j * d] = prob->W[(size_t)(a * d + i) + (size_t)(b * d + j) * n];
            nonzero |= buf[i + j * d] != 0.0;
        }
    return nonzero ? buf : NULL;
}

/* Append (row a, block w) to block column b unless row a is there already (a repeated BSR
 * column: the first block counts, as in w_block); last[b] = the last row appended. With
 * fill = 0 only counts. */
static void bsr_append(nsn_direct *s, int *next, int *last, int a, int b, const double *w,
                       int fill)
{
    if (last[b] == a)
        return;
    last[b] = a;
    if (fill)
        s->brow[next[b]] = a, s->wblk[next[b]] = w;
    next[b]++;
}

/* block_pattern for BSR storage by a transposition of the block rows (O(nnz), rows ascending
 * in each column as in the dense scan): the same pattern and blocks. */
static int bsr_block_pattern(nsn_direct *s)
{
    const cb_problem *prob = s->prob;
    int nc = s->nc, d = s->d, rc = CB_ERR_NOMEM;
    int *next = cb_calloc(2 * (size_t)nc, sizeof *next), *last = next ? next + nc : NULL;
    s->bptr = cb_calloc((size_t)nc + 1, sizeof *s->bptr);
    for (int fill = 0; next && s->bptr && fill < 2; fill++) {
        for (int b = 0; b < nc; b++)
            next[b] = fill ? s->bptr[b] : 0, last[b] = -1;
        for (int a = 0; a < nc; a++) {
            int diag = 0;
            for (int k = prob->bsr.row_ptr[a]; k < prob->bsr.row_ptr[a + 1]; k++) {
                diag |= prob->bsr.col[k] == a;
                bsr_append(s, next, last, a, prob->bsr.col[k],
                           prob->bsr.val + (size_t)k * d * d, fill);
            }
            if (!diag)
                bsr_append(s, next, last, a, a, NULL, fill);
        }
        if (fill)
            break;
        for (int b = 0; b < nc; b++)
            s->bptr[b + 1] = s->bptr[b] + next[b];
        s->brow = cb_calloc((size_t)s->bptr[nc] + 1, sizeof *s->brow);
        s->wblk = cb_calloc((size_t)s->bptr[nc] + 1, sizeof *s->wblk);
        if (!s->brow || !s->wblk)
            break;
        rc = CB_OK;
    }
    free(next);
    return rc;
}

/* Block-column pattern (every diagonal block, and (α, β) where W_αβ ≠ 0) with the W blocks:
 * for dense storage the nonzero blocks are copied into s->dense_copy. */
static int block_pattern(nsn_direct *s)
{
    if (s->prob->storage == CB_STORAGE_BSR)
        return bsr_block_pattern(s);
    int nc = s->nc, d = s->d, cnt = 0;
    double buf[NSN_D2];
    s->bptr = cb_calloc((size_t)nc + 1, sizeof *s->bptr);
    for (int b = 0; s->bptr && b < nc; b++)
        for (int a = 0; a < nc; a++)
            cnt += a == b || w_block(s->prob, a, b, buf);
    s->brow = cnt ? cb_calloc((size_t)cnt, sizeof *s->brow) : NULL;
    s->wblk = cnt ? cb_calloc((size_t)cnt, sizeof *s->wblk) : NULL;
    double *copy = s->prob->storage == CB_STORAGE_DENSE && cnt
                       ? cb_calloc((size_t)cnt * d * d, sizeof *copy) : NULL;
    s->dense_copy = copy;
    if (!s->bptr || !s->brow || !s->wblk || (s->prob->storage == CB_STORAGE_DENSE && !copy))
        return CB_ERR_NOMEM;
    for (int b = 0, k = 0; b < nc; b++) {
        for (int a = 0; a < nc; a++) {
            const double *w = w_block(s->prob, a, b, buf);
            if (a != b && !w)
                continue;
            if (w && copy)
                w = memcpy(copy + (size_t)k * d * d, w, (size_t)d * d * sizeof *copy);
            s->brow[k] = a;
            s->wblk[k++] = w;
        }
        s->bptr[b + 1] = k;
    }
    return CB_OK;
}

/* Scalar CSC pattern from the block pattern: column j = β d + c holds rows α d + r. */
static int scalar_pattern(nsn_direct *s)
{
    int d = s->d, nnzb = s->bptr[s->nc];
    s->Ap = cb_calloc((size_t)s->n + 1, sizeof *s->Ap);
    s->Ai = cb_calloc((size_t)nnzb * d * d, sizeof *s->Ai);
    s->Ax = cb_calloc((size_t)nnzb * d * d, sizeof *s->Ax);
    if (!s->Ap || !s->Ai || !s->Ax)
        return CB_ERR_NOMEM;
    int k = 0;
    for (int b = 0; b < s->nc; b++)
        for (int c = 0; c < d; c++) {
            for (int e = s->bptr[b]; e < s->bptr[b + 1]; e++)
                for (int r = 0; r < d; r++)
                    s->Ai[k++] = s->brow[e] * d + r;
            s->Ap[b * d + c + 1] = k;
        }
    return CB_OK;
}

/* 1 when s and old have the same scalar pattern (old's analysis then holds for s). */
static int same_pattern(const nsn_direct *s, const nsn_direct *old)
{
    return old && old->sym && old->n == s->n && old->Ap[old->n] == s->Ap[s->n] &&
           !memcmp(old->Ap, s->Ap, ((size_t)s->n + 1) * sizeof *s->Ap) &&
           !memcmp(old->Ai, s->Ai, (size_t)s->Ap[s->n] * sizeof *s->Ai);
}

/* Block ordering of the contact graph (the upper triangle of the block pattern) by CHOLMOD:
 * AMD or METIS, whichever its symbolic analysis finds gives less fill in the Cholesky factor
 * of the symmetrised pattern. *nd = 1 and bperm (nc) set when METIS wins; 0: keep KLU's AMD.
 * s->flops = the winner's flop count × d³ (scalar flops of a Cholesky factor of that order). */
static int nd_block_order(nsn_direct *s, int *bperm, int *nd)
{
    cholmod_common cm;
    cholmod_start(&cm);
    cm.print = 0, cm.nmethods = 2, cm.postorder = 1;
    cm.method[0].ordering = CHOLMOD_AMD, cm.method[1].ordering = CHOLMOD_METIS;
    cholmod_sparse A = {(size_t)s->nc, (size_t)s->nc, (size_t)s->bptr[s->nc], s->bptr, s->brow,
                        NULL, NULL, NULL, 1, CHOLMOD_INT, CHOLMOD_PATTERN, CHOLMOD_DOUBLE, 1, 1};
    cholmod_factor *L = cholmod_analyze(&A, &cm);
    int rc = L ? CB_OK : CB_ERR_NOMEM;
    *nd = L && cm.method[cm.selected].ordering == CHOLMOD_METIS;
    s->flops = L ? cm.method[cm.selected].fl * s->d * s->d * s->d : 0.0;
    if (*nd)
        memcpy(bperm, L->Perm, (size_t)s->nc * sizeof *bperm);
    cholmod_free_factor(&L, &cm);
    cholmod_finish(&cm);
    return rc;
}

/* KLU's symbolic analysis of s: for nc ≥ NSN_ND_MIN_NC the contact blocks in nested-dissection
 * order when that has less fill (contact graphs with small separators: piles), else AMD; none
 * (NULL) when the flop count says the Krylov route (nsn_direct_krylov). */
static klu_symbolic *analyse(nsn_direct *s)
{
    int nd = 0, *bperm = s->nc >= NSN_ND_MIN_NC ? cb_calloc((size_t)s->nc, sizeof *bperm) : NULL;
    int *perm = bperm ? cb_calloc((size_t)s->n, sizeof *perm) : NULL;
    klu_symbolic *sym = NULL;
    int ordered = perm && nd_block_order(s, bperm, &nd) == CB_OK;
    if (ordered && nsn_direct_krylov(s)) {
        nd = 1;
    } else if (ordered && nd) {
        for (int b = 0; b < s->nc; b++)
            for (int c = 0; c < s->d; c++)
                perm[b * s->d + c] = bperm[b] * s->d + c;
        sym = klu_analyze_given(s->n, s->Ap, s->Ai, perm, perm, &s->common);
    }
    if (!nd)
        sym = klu_analyze(s->n, s->Ap, s->Ai, &s->common);
    free(bperm), free(perm);
    return sym;
}

/* The matrix of prob; its symbolic analysis taken from old (then cleared) when the pattern is
 * old's, else analysed (analyse; none when may_krylov and the analysis says the Krylov route). */
static int direct_new(const cb_problem *prob, nsn_direct *old, int may_krylov, nsn_direct **out,
                      cb_error *err)
{
    nsn_direct *s = cb_calloc(1, sizeof *s);
    *out = NULL;
    if (!s)
        return cb_fail(err, CB_ERR_NOMEM, "nsn: out of memory");
    s->prob = prob, s->may_krylov = may_krylov;
    s->nc = prob->nc, s->d = prob->d, s->n = prob->nc * prob->d;
    klu_defaults(&s->common);
    int rc = block_pattern(s) == CB_OK && scalar_pattern(s) == CB_OK ? CB_OK : CB_ERR_NOMEM;
    if (rc == CB_OK && same_pattern(s, old)) {
        s->sym = old->sym;
        old->sym = NULL;
    } else if (rc == CB_OK && !(s->sym = analyse(s)) && !nsn_direct_krylov(s)) {
        rc = CB_ERR_NOMEM;
    } else if (rc == CB_OK && s->sym) {
        cb_analysis_count();
    }
    if (rc != CB_OK) {
        nsn_direct_free(s);
        return cb_fail(err, CB_ERR_NOMEM, "nsn: out of memory for the Newton matrix (n = %d)",
                       prob->nc * prob->d);
    }
    *out = s;
    return CB_OK;
}

/* Block (α, β) of H + λ I into M (d×d): A_α W_αβ, plus I − J_α + λ I on the diagonal. */
static void system_block(const nsn_system *sys, double lambda, int a, int b, const double *w,
                         double *M)
{
    int d = sys->d;
    const double *A = sys->A + (size_t)a * d * d, *IJ = sys->IJ + (size_t)a * d * d;
    for (int j = 0; j < d; j++)
        for (int i = 0; i < d; i++) {
            double v = 0.0;
            for (int l = 0; w && l < d; l++)
                v += AT(A, d, i, l) * AT(w, d, l, j);
            AT(M, d, i, j) = a == b ? v + AT(IJ, d, i, j) + (i == j) * lambda : v;
        }
}

int nsn_direct_factor(nsn_direct *s, const nsn_system *sys, double lambda, cb_work *cnt)
{
    if (s->dense)
        return nsn_dense_factor(s->dense, sys, lambda, cnt);
    int d = s->d;
    double M[NSN_D2];
    for (int b = 0; b < s->nc; b++)
        for (int e = s->bptr[b]; e < s->bptr[b + 1]; e++) {
            system_block(sys, lambda, s->brow[e], b, s->wblk[e], M);
            cnt->block_products += s->wblk[e] ? d : 0;
            for (int c = 0; c < d; c++) /* column c of block (α, β) → CSC column β d + c */
                memcpy(s->Ax + s->Ap[b * d + c] + (size_t)(e - s->bptr[b]) * d, M + c * d,
                       (size_t)d * sizeof *M);
        }
    /* the last pivot order first (klu_refactor: no pivot search); a fresh factorisation when a pivot is zero or the ratio of
     * the smallest to the largest pivot falls below NSN_REFACTOR_RCOND */
    if (s->num && klu_refactor(s->Ap, s->Ai, s->Ax, s->sym, s->num, &s->common) &&
        s->common.status == KLU_OK && klu_rcond(s->sym, s->num, &s->common) &&
        s->common.rcond > NSN_REFACTOR_RCOND)
        return 0;
    klu_free_numeric(&s->num, &s->common);
    s->num = klu_factor(s->Ap, s->Ai, s->Ax, s->sym, &s->common);
    if (!s->num && s->common.status == KLU_OUT_OF_MEMORY)
        return CB_ERR_NOMEM;
    return !s->num || s->common.status != KLU_OK ? 1 : 0;
}

double nsn_direct_flops_per_entry(const nsn_direct *s)
{
    size_t nnz = s->bptr ? (size_t)s->bptr[s->nc] * s->d * s->d : 0;
    return s->sym && nnz > 0 ? s->sym->est_flops / (double)nnz : 0.0;
}

int nsn_direct_krylov(const nsn_direct *s)
{
    size_t nnz = s->bptr ? (size_t)s->bptr[s->nc] * s->d * s->d : 0;
    return s->may_krylov && nnz > 0 && s->flops > NSN_KRYLOV_FLOPS * (double)nnz;
}

int nsn_direct_new_auto(const cb_problem *prob, int may_krylov, nsn_direct **out, cb_error *err)
{
    if (prob->nc * prob->d > NSN_DENSE_MAX)
        return direct_new(prob, NULL, may_krylov, out, err);
    return nsn_direct_new(prob, out, err);
}

int nsn_direct_new(const cb_problem *prob, nsn_direct **out, cb_error *err)
{
    if (prob->nc * prob->d > NSN_DENSE_MAX)
        return direct_new(prob, NULL, 0, out, err);
    nsn_direct *s = cb_calloc(1, sizeof *s); /* small: the dense backend, no KLU */
    if (s)
        s->prob = prob, s->nc = prob->nc, s->d = prob->d, s->n = prob->nc * prob->d;
    if (!s || nsn_dense_new(prob, &s->dense) != CB_OK) {
        nsn_direct_free(s);
        return cb_fail(err, CB_ERR_NOMEM, "nsn: out of memory for the Newton matrix (n = %d)",
                       prob->nc * prob->d);
    }
    *out = s;
    return CB_OK;
}

int nsn_direct_update(nsn_direct **s, const cb_problem *prob, unsigned changed, cb_error *err)
{
    nsn_direct *old = *s, *fresh;
    if (old->dense) {
        old->prob = prob;
        nsn_dense_set_problem(old->dense, prob);
        return CB_OK;
    }
    klu_free_numeric(&old->num, &old->common); /* a fresh setup factors with a pivot search */
    old->prob = prob;
    if (!(changed & CB_CHANGED_W) || prob->storage == CB_STORAGE_BSR)
        return CB_OK; /* BSR: the blocks are read in place, the pattern is row_ptr/col */
    int rc = direct_new(prob, old, 0, &fresh, err);
    if (rc != CB_OK)
        return rc;
    nsn_direct_free(old);
    *s = fresh;
    return CB_OK;
}

int nsn_direct_solve(nsn_direct *s, double *b)
{
    if (s->dense)
        return nsn_dense_solve(s->dense, b);
    return s->num && klu_solve(s->sym, s->num, s->n, 1, b, &s->common) ? CB_OK : CB_ERR_INTERNAL;
}

void nsn_direct_free(nsn_direct *s)
{
    if (!s)
        return;
    klu_free_numeric(&s->num, &s->common);
    klu_free_symbolic(&s->sym, &s->common);
    nsn_dense_free(s->dense);
    free(s->dense_copy);
    free(s->bptr), free(s->brow), free(s->wblk), free(s->Ap), free(s->Ai), free(s->Ax);
    free(s);
}
