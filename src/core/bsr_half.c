/* conebench — a BSR W's symmetry and the half product (bsr_half.h).
 *
 * The half product. The rows are cut into CB_HALF_STRIPS strips of about equal work, fixed by W
 * alone. A strip's rows are summed in row order: row a starts from what the strip's earlier rows
 * added to it (their blocks transposed), then adds its own diagonal and upper blocks; each upper
 * block (a, c) also adds W_acᵀ x_a to row c, in y when c is in the strip, else in the strip's
 * spill (rows after it). A second pass adds to each row the spills of the earlier strips, strip
 * by strip in order, then q. Every sum's order is set by W, never by the thread count.
 *
 * Why: a product of a large W reads it from memory, and on a machine whose bandwidth barely
 * grows with a second core (BENCHMARKS.md, "Threads") two threads wait on the same bytes. W is
 * symmetric, so half of them are enough. */
#include "bsr_half.h"
#include "base.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct cb_whalf {
    int nc, d;
    int *row_ptr, *col;                  /* the upper blocks row by row: nc + 1, nnz */
    double *val;                         /* nnz · d·d, column-major blocks */
    int strip[CB_HALF_STRIPS + 1];       /* strip s: rows [strip[s], strip[s + 1]) */
    int spill_end[CB_HALF_STRIPS];       /* strip s adds to rows [strip[s + 1], spill_end[s]) */
    size_t spill_at[CB_HALF_STRIPS + 1]; /* strip s's spill: entries [spill_at[s], spill_at[s + 1]) */
    double *spill;
};

int cb_bsr_find(const cb_bsr *B, int a, int b)
{
    int lo = B->row_ptr[a], hi = B->row_ptr[a + 1] - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (B->col[mid] == b)
            return mid;
        if (B->col[mid] < b)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* W_ab = W_baᵀ for b < a, copied entry by entry; W_aa ← (W_aa + W_aaᵀ)/2 (the same bits when it
 * is symmetric already). */
int cb_bsr_symmetrize(cb_bsr *B, int d)
{
    size_t dd = (size_t)d * d;
    for (int a = 0; a < B->nbrows; a++)
        for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1] && B->col[k] <= a; k++) {
            int t = B->col[k] < a ? cb_bsr_find(B, B->col[k], a) : k;
            if (t < 0)
                return CB_ERR_INTERNAL;
            const double *U = B->val + (size_t)t * dd;
            double *L = B->val + (size_t)k * dd;
            for (int j = 0; j < d; j++)
                for (int i = t == k ? j + 1 : 0; i < d; i++) {
                    double v = t == k ? 0.5 * (L[i + j * d] + L[j + i * d]) : U[j + i * d];
                    L[i + j * d] = v;
                    if (t == k)
                        L[j + i * d] = v;
                }
        }
    return CB_OK;
}

/* 1 when every stored off-diagonal block's mirror is stored and W_ab = W_baᵀ bit for bit;
 * *nupper: the blocks on and right of the diagonal. */
static int bitwise_symmetric(const cb_problem *p, long long *nupper)
{
    const cb_bsr *B = &p->bsr;
    int d = p->d;
    size_t dd = (size_t)d * d;
    long long lower = 0, diag = 0;
    for (int a = 0; a < p->nc; a++)
        for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
            int c = B->col[k], t = c < a ? cb_bsr_find(B, c, a) : -1;
            diag += c == a;
            if (c >= a)
                continue;
            if (t < 0)
                return 0;
            lower++;
            const double *L = B->val + (size_t)k * dd, *U = B->val + (size_t)t * dd;
            uint64_t differ = 0; /* the entries' bit patterns, so −0 ≠ +0 */
            for (int j = 0; j < d; j++)
                for (int i = 0; i < d; i++) {
                    uint64_t l, u;
                    memcpy(&l, &L[i + j * d], sizeof l);
                    memcpy(&u, &U[j + i * d], sizeof u);
                    differ |= l ^ u;
                }
            if (differ)
                return 0;
        }
    *nupper = (long long)B->row_ptr[p->nc] - lower;
    return *nupper - diag == lower; /* every upper block is some lower one's mirror */
}

/* Strip boundaries at about equal shares of the upper blocks; then each strip's spill rows. */
static void cut_strips(cb_whalf *h)
{
    long long total = h->row_ptr[h->nc];
    int a = 0;
    for (int s = 0; s < CB_HALF_STRIPS; s++) {
        while (a < h->nc && h->row_ptr[a] < total * s / CB_HALF_STRIPS)
            a++;
        h->strip[s] = a;
    }
    h->strip[CB_HALF_STRIPS] = h->nc;
    h->spill_at[0] = 0;
    for (int s = 0; s < CB_HALF_STRIPS; s++) {
        int r1 = h->strip[s + 1], end = r1;
        for (int k = h->row_ptr[h->strip[s]]; k < h->row_ptr[r1]; k++)
            end = h->col[k] + 1 > end ? h->col[k] + 1 : end;
        h->spill_end[s] = end;
        h->spill_at[s + 1] = h->spill_at[s] + (size_t)(end - r1) * (size_t)h->d;
    }
}

/* The upper blocks of p's BSR into h (allocated for them). */
static void copy_upper(const cb_problem *p, cb_whalf *h)
{
    const cb_bsr *B = &p->bsr;
    size_t dd = (size_t)p->d * p->d;
    int n = 0;
    for (int a = 0; a < p->nc; a++) {
        h->row_ptr[a] = n;
        for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++)
            if (B->col[k] >= a) {
                h->col[n] = B->col[k];
                memcpy(h->val + (size_t)n * dd, B->val + (size_t)k * dd, dd * sizeof(double));
                n++;
            }
    }
    h->row_ptr[p->nc] = n;
}

int cb_whalf_new(const cb_problem *p, size_t min_bytes, cb_whalf **out, cb_error *err)
{
    long long nupper = 0;
    *out = NULL;
    if (p->storage != CB_STORAGE_BSR ||
        (double)p->bsr.nnzb * p->d * p->d * sizeof(double) < (double)min_bytes ||
        !bitwise_symmetric(p, &nupper))
        return CB_OK;
    size_t dd = (size_t)p->d * p->d;
    cb_whalf *h = calloc(1, sizeof *h);
    int rc = CB_ERR_NOMEM;
    if (!h || !(h->row_ptr = cb_malloc_array((size_t)p->nc + 1, sizeof(int))) ||
        !(h->col = cb_malloc_array((size_t)nupper, sizeof(int))) ||
        !(h->val = cb_malloc_array((size_t)nupper * dd, sizeof(double))))
        goto done;
    h->nc = p->nc, h->d = p->d;
    copy_upper(p, h);
    cut_strips(h);
    if (!(h->spill = cb_malloc_array(h->spill_at[CB_HALF_STRIPS] + 1, sizeof(double))))
        goto done;
    *out = h, h = NULL, rc = CB_OK;
done:
    cb_whalf_free(h);
    return rc == CB_OK ? rc : cb_fail(err, rc, "W's half: out of memory (%lld blocks)", nupper);
}

void cb_whalf_free(cb_whalf *h)
{
    if (!h)
        return;
    free(h->row_ptr);
    free(h->col);
    free(h->val);
    free(h->spill);
    free(h);
}

size_t cb_whalf_bytes(const cb_whalf *h)
{
    if (!h)
        return 0;
    size_t n = (size_t)h->row_ptr[h->nc];
    return sizeof *h + ((size_t)h->nc + 1 + n) * sizeof(int) +
           (n * h->d * h->d + h->spill_at[CB_HALF_STRIPS] + 1) * sizeof(double);
}

/* t += B x for a d×d column-major block, column by column (the full product's block order). */
static inline __attribute__((always_inline)) void block_add(int d, const double *B,
                                                            const double *x, double *t)
{
#pragma GCC unroll 6
    for (int j = 0; j < d; j++)
#pragma GCC unroll 6
        for (int i = 0; i < d; i++)
            t[i] += B[i + j * d] * x[j];
}

/* t += Bᵀ x, each entry summed over B's column in order. */
static inline __attribute__((always_inline)) void block_add_t(int d, const double *B,
                                                              const double *x, double *t)
{
#pragma GCC unroll 6
    for (int i = 0; i < d; i++) {
        double s = t[i];
#pragma GCC unroll 6
        for (int j = 0; j < d; j++)
            s += B[j + i * d] * x[j];
        t[i] = s;
    }
}

/* Strip s of y = W x without the earlier strips' spills: row a = (what earlier rows of the strip
 * added) + W_aa x_a + Σ_{c>a} W_ac x_c, and W_acᵀ x_a added to row c (in y or in the spill). */
static inline __attribute__((always_inline)) void strip_rows(cb_whalf *h, int s, int d,
                                                             const double *x, double *y)
{
    int r0 = h->strip[s], r1 = h->strip[s + 1];
    double *spill = h->spill + h->spill_at[s];
    memset(y + (size_t)r0 * d, 0, (size_t)(r1 - r0) * d * sizeof(double));
    memset(spill, 0, (h->spill_at[s + 1] - h->spill_at[s]) * sizeof(double));
    for (int a = r0; a < r1; a++) {
        double t[CB_MAX_DIM];
        const double *xa = x + (size_t)a * d;
        memcpy(t, y + (size_t)a * d, (size_t)d * sizeof(double));
        for (int k = h->row_ptr[a]; k < h->row_ptr[a + 1]; k++) {
            int c = h->col[k];
            const double *B = h->val + (size_t)k * d * d;
            block_add(d, B, x + (size_t)c * d, t);
            if (c != a)
                block_add_t(d, B, xa, c < r1 ? y + (size_t)c * d : spill + (size_t)(c - r1) * d);
        }
        memcpy(y + (size_t)a * d, t, (size_t)d * sizeof(double));
    }
}

/* strip_rows with d known to the compiler for the kinds' sizes (the sums stay in registers). */
static void strip_any(cb_whalf *h, int s, const double *x, double *y)
{
    switch (h->d) {
    case 2: strip_rows(h, s, 2, x, y); break;
    case 3: strip_rows(h, s, 3, x, y); break;
    case 5: strip_rows(h, s, 5, x, y); break;
    default: strip_rows(h, s, h->d, x, y); break;
    }
}

/* Rows of strip s: y += the spill of each earlier strip, in strip order, then y += q. */
static void gather(const cb_whalf *h, int s, const double *q, double *y)
{
    size_t d = (size_t)h->d, i0 = (size_t)h->strip[s] * d, i1 = (size_t)h->strip[s + 1] * d;
    for (int t = 0; t < s; t++) {
        size_t z0 = (size_t)h->strip[t + 1] * d, z1 = (size_t)h->spill_end[t] * d;
        const double *z = h->spill + h->spill_at[t];
        for (size_t i = i0 > z0 ? i0 : z0; i < i1 && i < z1; i++)
            y[i] += z[i - z0];
    }
    for (size_t i = i0; q && i < i1; i++)
        y[i] += q[i];
}

/* y = W x (+ q): the strips, then the spills gathered (see the top of this file). */
void cb_whalf_y(cb_whalf *h, const double *x, const double *q, double *y)
{
    int threads = cb_threads_for(h->nc);
    threads = threads < CB_HALF_STRIPS ? threads : CB_HALF_STRIPS;
    if (threads == 1) { /* no OpenMP region: the same bits as any team */
        for (int s = 0; s < CB_HALF_STRIPS; s++)
            strip_any(h, s, x, y);
        for (int s = 0; s < CB_HALF_STRIPS; s++)
            gather(h, s, q, y);
        return;
    }
    CB_OMP(omp parallel num_threads(threads))
    {
        CB_OMP(omp for schedule(static))
        for (int s = 0; s < CB_HALF_STRIPS; s++)
            strip_any(h, s, x, y);
        CB_OMP(omp for schedule(static))
        for (int s = 0; s < CB_HALF_STRIPS; s++)
            gather(h, s, q, y);
    }
}
