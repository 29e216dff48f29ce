/* conebench — the normal-equations matrix of `ipm` (ipm_internal.h): N = S + D + δ I with
 * S = (W + Wᵀ)/2 kept as its upper triangle in compressed columns over W's symmetrised block
 * pattern (dense or BSR storage), D the per-contact blocks of the Nesterov–Todd scaling, and its
 * sparse Cholesky factorisation by CHOLMOD (SuiteSparse), analysed once (AMD ordering, or
 * METIS/NESDIS nested dissection: less fill on contact graphs with small separators; auto: AMD
 * or METIS by least fill from IPM_LARGE_NC contacts). Simplicial LDLᵀ: no BLAS, so the bits do
 * not depend on the CPU or the BLAS kernel; supernodal (BLAS) on request, or by CHOLMOD's rule
 * from IPM_LARGE_NC contacts (ipm.c, factor=auto). A normal matrix made by ipm_normal_new_global hands every
 * call to the global form's algebra (ipm_global.c). */
#include "ipm_internal.h"
#include "base.h"
#include "solvers_internal.h"

#include <cholmod.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A W block in place: entry (r, c) at ptr[r + c·ld]; ptr NULL for an absent block. */
typedef struct {
    const double *ptr;
    size_t ld;
} wref;

struct ipm_normal {
    ipm_global *gl;  /* the global form's algebra (ipm_global.c), or NULL: the local one */
    const cb_problem *prob;
    const unsigned char *fixed;
    int nc, d, n;
    double *Sx;      /* values of S (identity on fixed components), nnz */
    int *dpos;       /* nc·d·d: position of diagonal-block entry (r, c), r ≤ c, in Ax; −1 below */
    double scale;    /* mean free diagonal entry of S */
    cholmod_common cm;
    cholmod_sparse *A;
    cholmod_factor *L;
    cholmod_factor *Lsym; /* L as cholmod_analyze made it (symbolic): a renewal starts there */
    ipm_cholmod_ws ws;
};

/* Block (a, b) of W, or ptr NULL when absent. */
static wref w_block(const cb_problem *prob, int a, int b)
{
    int d = prob->d;
    if (prob->storage == CB_STORAGE_DENSE) {
        size_t n = cb_problem_n(prob);
        return (wref){prob->W + (size_t)a * d + (size_t)b * d * n, n};
    }
    int lo = prob->bsr.row_ptr[a], hi = prob->bsr.row_ptr[a + 1] - 1;
    while (lo <= hi) { /* columns increase inside a row */
        int mid = lo + (hi - lo) / 2, c = prob->bsr.col[mid];
        if (c == b)
            return (wref){prob->bsr.val + (size_t)mid * d * d, (size_t)d};
        if (c < b)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return (wref){NULL, 0};
}

/* 1 when block (a, b) of W holds a nonzero entry. */
static int block_nonzero(const cb_problem *prob, int a, int b)
{
    wref w = w_block(prob, a, b);
    for (int c = 0; w.ptr && c < prob->d; c++)
        for (int r = 0; r < prob->d; r++)
            if (w.ptr[r + c * w.ld] != 0.0)
                return 1;
    return 0;
}

/* Block pairs (lo, hi), lo ≤ hi, of the symmetrised pattern, sorted by hi then lo. */
typedef struct {
    int lo, hi;
} bpair;

static int bpair_cmp(const void *x, const void *y)
{
    const bpair *a = x, *b = y;
    return a->hi != b->hi ? (a->hi > b->hi) - (a->hi < b->hi) : (a->lo > b->lo) - (a->lo < b->lo);
}

/* Every diagonal pair and every (min, max) of a nonzero block of W, sorted and unique, into
 * *out (count in *np). */
static int block_pairs(const cb_problem *prob, bpair **out, int *np)
{
    int nc = prob->nc;
    size_t cap = (size_t)nc + (prob->storage == CB_STORAGE_BSR ? (size_t)prob->bsr.nnzb
                                                                : (size_t)nc * (nc - 1) / 2);
    bpair *v = cb_calloc(cap, sizeof *v);
    if (!v)
        return CB_ERR_NOMEM;
    size_t m = 0;
    for (int a = 0; a < nc; a++)
        v[m++] = (bpair){a, a};
    for (int a = 0; a < nc; a++) {
        if (prob->storage == CB_STORAGE_BSR) {
            for (int k = prob->bsr.row_ptr[a]; k < prob->bsr.row_ptr[a + 1]; k++) {
                int b = prob->bsr.col[k];
                if (b != a && block_nonzero(prob, a, b))
                    v[m++] = (bpair){a < b ? a : b, a < b ? b : a};
            }
        } else {
            for (int b = a + 1; b < nc; b++)
                if (block_nonzero(prob, a, b) || block_nonzero(prob, b, a))
                    v[m++] = (bpair){a, b};
        }
    }
    qsort(v, m, sizeof *v, bpair_cmp);
    size_t u = 0;
    for (size_t k = 0; k < m; k++)
        if (u == 0 || bpair_cmp(&v[u - 1], &v[k]) != 0)
            v[u++] = v[k];
    *out = v, *np = (int)u;
    return CB_OK;
}

/* S_ij = (W_ij + W_ji)/2 for the entry (r, c) of block (lo, hi); identity on fixed rows. */
static double s_entry(const ipm_normal *nm, wref ab, wref ba, int i, int j, int r, int c)
{
    if (nm->fixed[i] || nm->fixed[j])
        return i == j;
    double x = ab.ptr ? ab.ptr[r + c * ab.ld] : 0.0, y = ba.ptr ? ba.ptr[c + r * ba.ld] : 0.0;
    return 0.5 * (x + y);
}

/* Column j = hi·d + c of the upper triangle: the blocks (lo, hi) of pairs [k0, k1). */
static void fill_column(ipm_normal *nm, const bpair *pr, int k0, int k1, int c, size_t *pos)
{
    int d = nm->d, hi = pr[k0].hi, j = hi * d + c;
    int *Ap = nm->A->p, *Ai = nm->A->i;
    for (int k = k0; k < k1; k++) {
        int lo = pr[k].lo;
        wref ab = w_block(nm->prob, lo, hi), ba = w_block(nm->prob, hi, lo);
        for (int r = 0; r < (lo == hi ? c + 1 : d); r++) {
            int i = lo * d + r;
            if (lo == hi)
                nm->dpos[((size_t)hi * d + c) * d + r] = (int)*pos;
            Ai[*pos] = i;
            nm->Sx[(*pos)++] = s_entry(nm, ab, ba, i, j, r, c);
        }
    }
    Ap[j + 1] = (int)*pos;
}

/* The CSC upper triangle of S over the block pairs, and the positions of the diagonal blocks. */
static int build_pattern(ipm_normal *nm)
{
    bpair *pr = NULL;
    int np = 0, d = nm->d;
    if (block_pairs(nm->prob, &pr, &np) != CB_OK)
        return CB_ERR_NOMEM;
    size_t nnz = (size_t)(np - nm->nc) * d * d + (size_t)nm->nc * d * (d + 1) / 2;
    nm->A = cholmod_allocate_sparse(nm->n, nm->n, nnz, 1, 1, 1, CHOLMOD_REAL, &nm->cm);
    nm->Sx = cb_calloc(nnz, sizeof *nm->Sx);
    nm->dpos = cb_calloc((size_t)nm->nc * d * d, sizeof *nm->dpos);
    if (!nm->A || !nm->Sx || !nm->dpos) {
        free(pr);
        return CB_ERR_NOMEM;
    }
    for (size_t k = 0; k < (size_t)nm->nc * d * d; k++)
        nm->dpos[k] = -1;
    ((int *)nm->A->p)[0] = 0;
    size_t pos = 0;
    for (int k0 = 0, k1; k0 < np; k0 = k1) {
        for (k1 = k0; k1 < np && pr[k1].hi == pr[k0].hi; k1++)
            ;
        for (int c = 0; c < d; c++)
            fill_column(nm, pr, k0, k1, c, &pos);
    }
    free(pr);
    return CB_OK;
}

/* Mean of S_ii over the free components (1 when not positive). */
static double mean_diag(const ipm_normal *nm)
{
    double sum = 0.0;
    int cnt = 0;
    for (int a = 0; a < nm->nc; a++)
        for (int c = 0; c < nm->d; c++) {
            int i = a * nm->d + c;
            if (!nm->fixed[i])
                sum += nm->Sx[nm->dpos[((size_t)a * nm->d + c) * nm->d + c]], cnt++;
        }
    return cnt && sum > 0 ? sum / cnt : 1.0;
}

/* 1 when nm's pattern of S is donor's (donor's symbolic analysis then holds for nm). */
static int same_pattern(const ipm_normal *nm, const ipm_normal *donor)
{
    if (!donor || donor->gl || !donor->Lsym || donor->n != nm->n)
        return 0;
    const int *ap = nm->A->p, *bp = donor->A->p;
    return ap[nm->n] == bp[nm->n] && !memcmp(ap, bp, ((size_t)nm->n + 1) * sizeof *ap) &&
           !memcmp(nm->A->i, donor->A->i, (size_t)ap[nm->n] * sizeof *ap);
}

/* L from cholmod_analyze (counted), or a copy of donor's when the pattern is donor's; Lsym a
 * copy of it before any factorisation. */
static int analyse(ipm_normal *nm, const ipm_normal *donor)
{
    if (same_pattern(nm, donor)) {
        nm->L = cholmod_copy_factor(donor->Lsym, &nm->cm);
    } else {
        nm->L = cholmod_analyze(nm->A, &nm->cm);
        cb_analysis_count();
    }
    nm->Lsym = nm->L ? cholmod_copy_factor(nm->L, &nm->cm) : NULL;
    return nm->L && nm->Lsym ? CB_OK : CB_ERR_NOMEM;
}

int ipm_normal_new(const cb_problem *prob, const unsigned char *fixed, int supernodal,
                   int ordering, ipm_normal **out, cb_error *err)
{
    return ipm_normal_renew(prob, fixed, supernodal, ordering, NULL, out, err);
}

int ipm_normal_renew(const cb_problem *prob, const unsigned char *fixed, int supernodal,
                     int ordering, const ipm_normal *donor, ipm_normal **out, cb_error *err)
{
    static const int cholmod_ordering[] = {CHOLMOD_AMD, CHOLMOD_METIS, CHOLMOD_NESDIS,
                                           CHOLMOD_AMD};
    *out = NULL;
    if (prob->storage != CB_STORAGE_DENSE && prob->storage != CB_STORAGE_BSR)
        return cb_fail(err, CB_ERR_INPUT, "ipm: the normal matrix needs dense or bsr storage");
    ipm_normal *nm = cb_calloc(1, sizeof *nm);
    if (!nm)
        return cb_fail(err, CB_ERR_NOMEM, "ipm: out of memory");
    nm->prob = prob, nm->fixed = fixed;
    nm->nc = prob->nc, nm->d = prob->d, nm->n = prob->nc * prob->d;
    cholmod_start(&nm->cm);
    nm->cm.print = 0;
    nm->cm.nmethods = 1, nm->cm.method[0].ordering = cholmod_ordering[ordering];
    if (ordering == IPM_ORDER_AUTO && prob->nc >= IPM_LARGE_NC) /* the one of less fill */
        nm->cm.nmethods = 2, nm->cm.method[1].ordering = CHOLMOD_METIS;
    nm->cm.postorder = 1;
    nm->cm.supernodal = supernodal < 0 ? CHOLMOD_AUTO /* supernodal when the factor is dense */
                        : supernodal ? CHOLMOD_SUPERNODAL : CHOLMOD_SIMPLICIAL;
    int rc = build_pattern(nm);
    if (rc == CB_OK) {
        nm->scale = mean_diag(nm);
        memcpy(nm->A->x, nm->Sx, ((int *)nm->A->p)[nm->n] * sizeof *nm->Sx);
        rc = analyse(nm, donor);
    }
    if (rc != CB_OK) {
        ipm_normal_free(nm);
        return cb_fail(err, rc, "ipm: out of memory for the normal matrix (n = %d)",
                       prob->nc * prob->d);
    }
    *out = nm;
    return CB_OK;
}

int ipm_normal_new_global(const cb_problem *prob, const unsigned char *fixed, ipm_normal **out,
                          cb_error *err)
{
    *out = NULL;
    ipm_normal *nm = cb_calloc(1, sizeof *nm);
    if (!nm)
        return cb_fail(err, CB_ERR_NOMEM, "ipm: out of memory");
    nm->prob = prob, nm->fixed = fixed;
    nm->nc = prob->nc, nm->d = prob->d, nm->n = prob->nc * prob->d;
    int rc = ipm_global_new(prob, fixed, &nm->gl, err);
    if (rc != CB_OK) {
        free(nm);
        return rc;
    }
    nm->scale = ipm_global_scale(nm->gl);
    *out = nm;
    return CB_OK;
}

int ipm_normal_y(ipm_normal *nm, const double *p, double *y, cb_work *cnt)
{
    cnt->block_products += cb_problem_blocks_per_matvec(nm->prob);
    if (nm->gl)
        return ipm_global_y(nm->gl, p, y);
    cb_problem_y(nm->prob, p, y);
    return CB_OK;
}

int ipm_normal_Wp(ipm_normal *nm, const double *v, double *out, cb_work *cnt)
{
    cnt->block_products += cb_problem_blocks_per_matvec(nm->prob);
    if (nm->gl)
        return ipm_global_Wp(nm->gl, v, out);
    cb_problem_Wp(nm->prob, v, out);
    return CB_OK;
}

int ipm_normal_factor(ipm_normal *nm, const double *D, double delta, cb_work *cnt)
{
    if (nm->gl)
        return ipm_global_factor(nm->gl, D, delta);
    int d = nm->d;
    double *Ax = nm->A->x;
    (void)cnt;
    memcpy(Ax, nm->Sx, ((int *)nm->A->p)[nm->n] * sizeof *Ax);
    for (int a = 0; a < nm->nc; a++)
        for (int c = 0; c < d; c++)
            for (int r = 0; r <= c; r++) {
                int i = a * d + r, j = a * d + c;
                if (nm->fixed[i] || nm->fixed[j])
                    continue;
                Ax[nm->dpos[((size_t)a * d + c) * d + r]] +=
                    D[(size_t)a * d * d + r + (size_t)c * d] + (r == c ? delta : 0.0);
            }
    if (!cholmod_factorize(nm->A, nm->L, &nm->cm))
        return nm->cm.status == CHOLMOD_OUT_OF_MEMORY ? CB_ERR_NOMEM : 1;
    if (nm->cm.status == CHOLMOD_OUT_OF_MEMORY)
        return CB_ERR_NOMEM;
    return nm->cm.status == CHOLMOD_NOT_POSDEF || nm->L->minor < nm->L->n ? 1 : 0;
}

int ipm_normal_precond(ipm_normal *nm, double *b)
{
    return nm->gl ? ipm_global_solve(nm->gl, b, 0) : ipm_normal_solve(nm, b);
}

int ipm_normal_solve(ipm_normal *nm, double *b)
{
    if (nm->gl)
        return ipm_global_solve(nm->gl, b, 1);
    return ipm_cholmod_solve(nm->L, b, (size_t)nm->n, 1, &nm->ws, &nm->cm);
}

/* out = S p from the upper triangle: each off-diagonal entry acts twice (global form: W p, its
 * skew part included when M is not symmetric: the matrix the direction solves with). */
void ipm_normal_Sp(const ipm_normal *nm, const double *p, double *out, cb_work *cnt)
{
    if (nm->gl) {
        cnt->block_products += cb_problem_blocks_per_matvec(nm->prob);
        if (ipm_global_Wp(nm->gl, p, out) != CB_OK) /* M factored at setup: cannot fail */
            for (int i = 0; i < nm->n; i++)
                out[i] = NAN;
        return;
    }
    const int *Ap = nm->A->p, *Ai = nm->A->i;
    memset(out, 0, (size_t)nm->n * sizeof *out);
    for (int j = 0; j < nm->n; j++)
        for (int k = Ap[j]; k < Ap[j + 1]; k++) {
            int i = Ai[k];
            out[i] += nm->Sx[k] * p[j];
            if (i != j)
                out[j] += nm->Sx[k] * p[i];
        }
    cnt->block_products += cb_problem_blocks_per_matvec(nm->prob);
}

double ipm_normal_scale(const ipm_normal *nm) { return nm->scale; }

/* min_j D_jj of the last simplicial factorisation S + D + δI = L D Lᵀ (L_jj² when LLᵀ);
 * 0 when it stopped at a non-positive pivot or is supernodal. */
double ipm_normal_min_pivot(const ipm_normal *nm)
{
    const cholmod_factor *L = nm->L;
    if (nm->gl || !L || L->minor < L->n || L->is_super)
        return 0.0;
    const int *Lp = L->p;
    const double *Lx = L->x;
    double m = INFINITY;
    for (size_t j = 0; j < L->n; j++)
        m = fmin(m, L->is_ll ? Lx[Lp[j]] * Lx[Lp[j]] : Lx[Lp[j]]);
    return m;
}

void ipm_normal_free(ipm_normal *nm)
{
    if (!nm)
        return;
    if (nm->gl) {
        ipm_global_free(nm->gl);
        free(nm);
        return;
    }
    ipm_cholmod_ws_free(&nm->ws, &nm->cm);
    cholmod_free_factor(&nm->L, &nm->cm);
    cholmod_free_factor(&nm->Lsym, &nm->cm);
    cholmod_free_sparse(&nm->A, &nm->cm);
    cholmod_finish(&nm->cm);
    free(nm->Sx), free(nm->dpos);
    free(nm);
}
