/* conebench — `ipm` on the global form of a problem (ipm_internal.h), without condensing it:
 * W = Hᵀ M⁻¹ H is never formed. The interior point's linear system (W + D̃) Δp = b, with D̃ the
 * block-diagonal Nesterov–Todd scaling plus δ I on the free components (identity rows on fixed
 * ones), is solved as the augmented system
 *     [ M    H' ] [ u  ]   [  0 ]
 *     [ H'ᵀ −D̃  ] [ Δp ] = [ −b ]      (u = −M⁻¹ H' Δp; H' = H without its fixed columns),
 * ndof + nc·d unknowns, as sparse as M, H and D̃ together, by KLU (LU with partial pivoting,
 * no BLAS: the same bits everywhere), its pattern analysed once and its values refactored every
 * iteration. Pivoting matters: near a solution D̃ spans many orders of magnitude, and
 * eliminating Δp first (the Woodbury identity, K = M + H D̃⁻¹ Hᵀ) loses the digits the
 * interior point needs; an iterative refinement against the exact operator follows each solve.
 * Products W p = Hᵀ M⁻¹ (H p) use a factorisation of M made once: CHOLMOD simplicial LDLᵀ when
 * M is symmetric (to a relative 1e-12 per entry pair), KLU when it is not (the Siconos GRFC3D
 * Chute M, conebench/io.h); then the direction holds the skew part of W, not only S. */
#include "ipm_internal.h"

#include <cholmod.h>
#include <klu.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "detmath.h"
#include "base.h"
#include "solvers_internal.h"

#define IPM_GLOBAL_SYM_RTOL 1e-12 /* M symmetric: every entry pair equal to this, relative */
#define IPM_GLOBAL_REFINE 4         /* iterative refinement steps of a solve, at most ... */
#define IPM_GLOBAL_REFINE_GAIN 0.5  /* ... while each divides the residual by 2 or more ... */
#define IPM_GLOBAL_REFINE_RTOL 1e-13 /* ... and it is above this · ‖b‖ */
#define IPM_GLOBAL_BATCH 64          /* columns of H per solve with M (mean diagonal) */

/* A square sparse matrix in compressed columns (full pattern, rows sorted) and its factor. */
typedef struct {
    int n, sym;       /* sym: CHOLMOD on the upper triangle, else KLU */
    int *Ap, *Ai;
    double *Ax;
    cholmod_common cm;
    cholmod_sparse A; /* a header over Ap, Ai, Ax */
    cholmod_factor *L;
    ipm_cholmod_ws ws;
    klu_common kc;
    klu_symbolic *ks;
    klu_numeric *kn;
} sfac;

struct ipm_global {
    const cb_global_form *g;
    const unsigned char *fixed;
    int nc, d, n, ndof;
    int *Hp, *Hi;     /* H (ndof × n) in compressed columns, duplicates summed */
    double *Hx;
    sfac M, A;        /* M (products), the augmented matrix (directions) */
    double *Ax0;      /* the augmented matrix's values without D̃ */
    int *dpos;        /* nc × d²: position of the augmented entry (ndof + αd + r, ndof + αd + c) */
    const double *D;  /* the last factorisation's D (the caller's array) and δ */
    double delta;
    double *tv, *tv2; /* ndof scratch */
    double *xa;       /* ndof + n: the augmented right-hand side and solution */
    double *b0, *r;   /* n scratch of the iterative refinement */
    double scale;
};

/* ---------------------------------------------------------------- sparse factorisations */

static int sfac_analyze(sfac *f)
{
    if (f->sym) {
        cholmod_start(&f->cm);
        f->cm.print = 0, f->cm.nmethods = 1, f->cm.method[0].ordering = CHOLMOD_AMD;
        f->cm.postorder = 1, f->cm.supernodal = CHOLMOD_SIMPLICIAL;
        f->A = (cholmod_sparse){(size_t)f->n, (size_t)f->n, (size_t)f->Ap[f->n], f->Ap, f->Ai,
                                NULL, f->Ax, NULL, 1, CHOLMOD_INT, CHOLMOD_REAL, CHOLMOD_DOUBLE,
                                1, 1};
        f->L = cholmod_analyze(&f->A, &f->cm);
        cb_analysis_count();
        return f->L ? CB_OK : CB_ERR_NOMEM;
    }
    klu_defaults(&f->kc);
    f->ks = klu_analyze(f->n, f->Ap, f->Ai, &f->kc);
    cb_analysis_count();
    return f->ks ? CB_OK : CB_ERR_NOMEM;
}

/* Numeric factorisation of the current values: 0, 1 (not positive definite / singular) or
 * CB_ERR_NOMEM. */
static int sfac_factor(sfac *f)
{
    if (f->sym) {
        int ok = cholmod_factorize(&f->A, f->L, &f->cm);
        if (f->cm.status == CHOLMOD_OUT_OF_MEMORY)
            return CB_ERR_NOMEM;
        return !ok || f->cm.status == CHOLMOD_NOT_POSDEF || f->L->minor < f->L->n ? 1 : 0;
    }
    klu_free_numeric(&f->kn, &f->kc);
    f->kn = klu_factor(f->Ap, f->Ai, f->Ax, f->ks, &f->kc);
    if (!f->kn && f->kc.status == KLU_OUT_OF_MEMORY)
        return CB_ERR_NOMEM;
    return !f->kn || f->kc.status != KLU_OK ? 1 : 0;
}

int ipm_cholmod_solve(cholmod_factor *L, double *b, size_t n, int nrhs, ipm_cholmod_ws *ws,
                      cholmod_common *cm)
{
    size_t nx = n * (size_t)nrhs;
    cholmod_dense B = {n, (size_t)nrhs, nx, n, b, NULL, CHOLMOD_REAL, CHOLMOD_DOUBLE};
    cholmod_dense *Y = ws->Y;
    /* CHOLMOD 3's simplicial solve allocates Y as k × n (k right-hand sides at a time) but leaves
     * it shaped by the columns it last solved, so its next call would free and allocate Y again:
     * the shape it was allocated with (nzmax = k n) is given back first. */
    if (Y && !L->is_super && Y->ncol == n && Y->nzmax % n == 0)
        Y->nrow = Y->d = Y->nzmax / n;
    if (!cholmod_solve2(CHOLMOD_A, L, &B, NULL, &ws->X, NULL, &ws->Y, &ws->E, cm))
        return cm->status == CHOLMOD_OUT_OF_MEMORY ? CB_ERR_NOMEM : CB_ERR_INTERNAL;
    memcpy(b, ws->X->x, nx * sizeof *b);
    return CB_OK;
}

void ipm_cholmod_ws_free(ipm_cholmod_ws *ws, cholmod_common *cm)
{
    cholmod_free_dense(&ws->X, cm), cholmod_free_dense(&ws->Y, cm);
    cholmod_free_dense(&ws->E, cm);
}

/* B (n × nrhs, column-major) ← A⁻¹ B with the last factorisation. */
static int sfac_solve_many(sfac *f, double *b, int nrhs)
{
    if (!f->sym)
        return f->kn && klu_solve(f->ks, f->kn, f->n, nrhs, b, &f->kc) ? CB_OK : CB_ERR_INTERNAL;
    return ipm_cholmod_solve(f->L, b, (size_t)f->n, nrhs, &f->ws, &f->cm);
}

/* b ← A⁻¹ b. */
static int sfac_solve(sfac *f, double *b) { return sfac_solve_many(f, b, 1); }

static void sfac_free(sfac *f)
{
    if (f->sym) {
        ipm_cholmod_ws_free(&f->ws, &f->cm);
        cholmod_free_factor(&f->L, &f->cm);
        cholmod_finish(&f->cm);
    } else {
        klu_free_numeric(&f->kn, &f->kc), klu_free_symbolic(&f->ks, &f->kc);
    }
    free(f->Ap), free(f->Ai), free(f->Ax);
}

/* ---------------------------------------------------------------- patterns */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Compressed columns (ncol columns, rows sorted, unique) of the keys col·nrow + row, sorted in
 * place; Ap (ncol + 1) and Ai allocated. */
static int keys_to_csc(uint64_t *key, size_t nk, int nrow, int ncol, int **Ap, int **Ai)
{
    qsort(key, nk, sizeof *key, cmp_u64);
    size_t u = 0;
    for (size_t k = 0; k < nk; k++)
        if (u == 0 || key[u - 1] != key[k])
            key[u++] = key[k];
    *Ap = cb_calloc((size_t)ncol + 1, sizeof **Ap);
    *Ai = cb_malloc_array(u ? u : 1, sizeof **Ai);
    if (!*Ap || !*Ai)
        return CB_ERR_NOMEM;
    for (size_t k = 0; k < u; k++) {
        (*Ap)[key[k] / (uint64_t)nrow + 1]++;
        (*Ai)[k] = (int)(key[k] % (uint64_t)nrow);
    }
    for (int j = 0; j < ncol; j++)
        (*Ap)[j + 1] += (*Ap)[j];
    return CB_OK;
}

/* Position of (i, j) in a compressed-column pattern (present by construction). */
static int csc_pos(const int *Ap, const int *Ai, int i, int j)
{
    int lo = Ap[j], hi = Ap[j + 1] - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (Ai[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Triplets t summed into the pattern (Ap, Ai) ⊇ t's as values x (zeroed first). */
static void triplets_scatter(const cb_triplets *t, const int *Ap, const int *Ai, double *x)
{
    memset(x, 0, (size_t)Ap[t->ncol] * sizeof *x);
    for (int k = 0; k < t->nnz; k++)
        x[csc_pos(Ap, Ai, t->i[k], t->j[k])] += t->x[k];
}

/* The compressed columns of triplets t, duplicates summed (*Ap, *Ai, *Ax allocated). */
static int triplets_csc(const cb_triplets *t, int **Ap, int **Ai, double **Ax)
{
    uint64_t *key = cb_malloc_array(t->nnz ? (size_t)t->nnz : 1, sizeof *key);
    if (!key)
        return CB_ERR_NOMEM;
    for (int k = 0; k < t->nnz; k++)
        key[k] = (uint64_t)t->j[k] * (uint64_t)t->nrow + (uint64_t)t->i[k];
    int rc = keys_to_csc(key, (size_t)t->nnz, t->nrow, t->ncol, Ap, Ai);
    free(key);
    *Ax = rc == CB_OK ? cb_malloc_array((*Ap)[t->ncol] ? (size_t)(*Ap)[t->ncol] : 1, sizeof **Ax)
                      : NULL;
    if (!*Ax)
        return CB_ERR_NOMEM;
    triplets_scatter(t, *Ap, *Ai, *Ax);
    return CB_OK;
}

/* Position of (i, j) in the pattern, −1 when absent. */
static int csc_find(const int *Ap, const int *Ai, int i, int j)
{
    int k = Ap[j] < Ap[j + 1] ? csc_pos(Ap, Ai, i, j) : -1;
    return k >= 0 && Ai[k] == i ? k : -1;
}

/* 1 when M equals its transpose to IPM_GLOBAL_SYM_RTOL per entry pair (an absent entry is 0). */
static int csc_symmetric(const sfac *f)
{
    for (int j = 0; j < f->n; j++)
        for (int k = f->Ap[j]; k < f->Ap[j + 1]; k++) {
            int t = csc_find(f->Ap, f->Ai, j, f->Ai[k]);
            double a = f->Ax[k], b = t >= 0 ? f->Ax[t] : 0.0;
            if (fabs(a - b) > IPM_GLOBAL_SYM_RTOL * fmax(fabs(a), fabs(b)))
                return 0;
        }
    return 1;
}

/* The augmented matrix's pattern (M, H' and H'ᵀ, the d×d blocks of D̃), its values without
 * D̃, and the positions of the D̃ blocks. */
static int aug_pattern(ipm_global *gl)
{
    int nd = gl->ndof, d = gl->d, na = nd + gl->n;
    size_t nk = (size_t)gl->M.Ap[nd] + 2 * (size_t)gl->Hp[gl->n] + (size_t)gl->n * d;
    uint64_t *key = cb_malloc_array(nk ? nk : 1, sizeof *key), N = (uint64_t)na, q = 0;
    if (!key)
        return CB_ERR_NOMEM;
    for (int j = 0; j < nd; j++)
        for (int k = gl->M.Ap[j]; k < gl->M.Ap[j + 1]; k++)
            key[q++] = (uint64_t)j * N + (uint64_t)gl->M.Ai[k];
    for (int j = 0; j < gl->n; j++)
        for (int k = gl->Hp[j]; !gl->fixed[j] && k < gl->Hp[j + 1]; k++) {
            key[q++] = (uint64_t)(nd + j) * N + (uint64_t)gl->Hi[k];
            key[q++] = (uint64_t)gl->Hi[k] * N + (uint64_t)(nd + j);
        }
    for (int j = 0; j < gl->n; j++)
        for (int r = 0; r < d; r++)
            key[q++] = (uint64_t)(nd + j) * N + (uint64_t)(nd + j / d * d + r);
    sfac *A = &gl->A;
    A->n = na, A->sym = 0;
    int rc = keys_to_csc(key, (size_t)q, na, na, &A->Ap, &A->Ai);
    free(key);
    size_t nz = rc == CB_OK ? (size_t)A->Ap[na] : 0;
    A->Ax = rc == CB_OK ? cb_malloc_array(nz, sizeof *A->Ax) : NULL;
    gl->Ax0 = rc == CB_OK ? cb_calloc(nz, sizeof *gl->Ax0) : NULL;
    gl->dpos = cb_malloc_array((size_t)gl->n * d, sizeof *gl->dpos);
    if (!A->Ax || !gl->Ax0 || !gl->dpos)
        return CB_ERR_NOMEM;
    for (int j = 0; j < nd; j++)
        for (int k = gl->M.Ap[j]; k < gl->M.Ap[j + 1]; k++)
            gl->Ax0[csc_pos(A->Ap, A->Ai, gl->M.Ai[k], j)] += gl->M.Ax[k];
    for (int j = 0; j < gl->n; j++)
        for (int k = gl->Hp[j]; !gl->fixed[j] && k < gl->Hp[j + 1]; k++) {
            gl->Ax0[csc_pos(A->Ap, A->Ai, gl->Hi[k], nd + j)] += gl->Hx[k];
            gl->Ax0[csc_pos(A->Ap, A->Ai, nd + j, gl->Hi[k])] += gl->Hx[k];
        }
    for (int j = 0; j < gl->n; j++) /* column j of its contact's block, row r */
        for (int r = 0; r < d; r++)
            gl->dpos[(size_t)j * d + r] = csc_pos(A->Ap, A->Ai, nd + j / d * d + r, nd + j);
    return CB_OK;
}

/* v (ndof) = H p. */
static void h_times(const ipm_global *gl, const double *p, double *v)
{
    memset(v, 0, (size_t)gl->ndof * sizeof *v);
    for (int j = 0; j < gl->n; j++)
        for (int k = gl->Hp[j]; p[j] != 0.0 && k < gl->Hp[j + 1]; k++)
            v[gl->Hi[k]] += gl->Hx[k] * p[j];
}

/* out (n) = Hᵀ v. */
static void ht_times(const ipm_global *gl, const double *v, double *out)
{
    for (int j = 0; j < gl->n; j++) {
        double s = 0.0;
        for (int k = gl->Hp[j]; k < gl->Hp[j + 1]; k++)
            s += gl->Hx[k] * v[gl->Hi[k]];
        out[j] = s;
    }
}

/* Mean W_ii = h_iᵀ M⁻¹ h_i over the free components (1 when not positive), solving with M
 * for IPM_GLOBAL_BATCH columns of H at a time. */
static int mean_diag(ipm_global *gl)
{
    size_t nd = (size_t)gl->ndof;
    double sum = 0.0, *X = cb_malloc_array(nd * IPM_GLOBAL_BATCH, sizeof *X);
    int cnt = 0, rc = X ? CB_OK : CB_ERR_NOMEM;
    for (int i0 = 0; rc == CB_OK && i0 < gl->n; i0 += IPM_GLOBAL_BATCH) {
        int nb = gl->n - i0 < IPM_GLOBAL_BATCH ? gl->n - i0 : IPM_GLOBAL_BATCH;
        memset(X, 0, nd * (size_t)nb * sizeof *X);
        for (int c = 0; c < nb; c++)
            for (int k = gl->Hp[i0 + c]; k < gl->Hp[i0 + c + 1]; k++)
                X[gl->Hi[k] + c * nd] += gl->Hx[k];
        rc = sfac_solve_many(&gl->M, X, nb);
        for (int c = 0; rc == CB_OK && c < nb; c++) {
            if (gl->fixed[i0 + c])
                continue;
            for (int k = gl->Hp[i0 + c]; k < gl->Hp[i0 + c + 1]; k++)
                sum += gl->Hx[k] * X[gl->Hi[k] + c * nd];
            cnt++;
        }
    }
    free(X);
    gl->scale = cnt && sum > 0 ? sum / cnt : 1.0;
    return rc;
}

int ipm_global_new(const cb_problem *prob, const unsigned char *fixed, ipm_global **out,
                   cb_error *err)
{
    *out = NULL;
    const cb_global_form *g = prob->global;
    if (!g)
        return cb_fail(err, CB_ERR_INPUT, "ipm: option form=global: the problem has no global "
                                          "form (only global files have one)");
    ipm_global *gl = cb_calloc(1, sizeof *gl);
    if (!gl)
        return cb_fail(err, CB_ERR_NOMEM, "ipm: out of memory");
    gl->g = g, gl->fixed = fixed, gl->nc = prob->nc, gl->d = prob->d;
    gl->n = (int)cb_problem_n(prob), gl->ndof = g->ndof, gl->M.n = g->ndof;
    gl->tv = cb_malloc_array((size_t)g->ndof, sizeof *gl->tv);
    gl->tv2 = cb_malloc_array((size_t)g->ndof, sizeof *gl->tv2);
    gl->b0 = cb_malloc_array((size_t)gl->n, sizeof *gl->b0);
    gl->r = cb_malloc_array((size_t)gl->n, sizeof *gl->r);
    gl->xa = cb_malloc_array((size_t)g->ndof + (size_t)gl->n, sizeof *gl->xa);
    int rc = gl->tv && gl->tv2 && gl->xa && gl->b0 && gl->r ? CB_OK : CB_ERR_NOMEM;
    if (rc == CB_OK)
        rc = triplets_csc(&g->H, &gl->Hp, &gl->Hi, &gl->Hx);
    if (rc == CB_OK)
        rc = triplets_csc(&g->M, &gl->M.Ap, &gl->M.Ai, &gl->M.Ax);
    if (rc == CB_OK) {
        gl->M.sym = csc_symmetric(&gl->M);
        rc = aug_pattern(gl);
    }
    if (rc == CB_OK)
        rc = sfac_analyze(&gl->M);
    if (rc == CB_OK && (rc = sfac_factor(&gl->M)) == 1)
        rc = cb_fail(err, CB_ERR_INPUT, "ipm: the global form's M is not %s",
                     gl->M.sym ? "positive definite" : "invertible");
    if (rc == CB_OK)
        rc = sfac_analyze(&gl->A);
    if (rc == CB_OK)
        rc = mean_diag(gl);
    if (rc != CB_OK) {
        ipm_global_free(gl);
        return rc == CB_ERR_INPUT ? rc
                                  : cb_fail(err, rc, "ipm: out of memory for the global form "
                                                     "(ndof = %d)", g->ndof);
    }
    *out = gl;
    return CB_OK;
}

int ipm_global_factor(ipm_global *gl, const double *D, double delta)
{
    int d = gl->d;
    gl->D = D, gl->delta = delta;
    memcpy(gl->A.Ax, gl->Ax0, (size_t)gl->A.Ap[gl->A.n] * sizeof *gl->Ax0);
    for (int j = 0; j < gl->n; j++) /* −D̃ on the free components, −1 on fixed rows */
        for (int r = 0; r < d; r++) {
            int i = j / d * d + r;
            double v = D[(size_t)(j / d) * d * d + r + (size_t)(j % d) * d] + (i == j ? delta : 0);
            gl->A.Ax[gl->dpos[(size_t)j * d + r]] =
                gl->fixed[i] || gl->fixed[j] ? -(double)(i == j) : -v;
        }
    return sfac_factor(&gl->A);
}

/* b ← (W + D̃)⁻¹ b with the last factorisation of the augmented matrix (one solve). */
static int augmented_solve(ipm_global *gl, double *b)
{
    memset(gl->xa, 0, (size_t)gl->ndof * sizeof *gl->xa);
    for (int i = 0; i < gl->n; i++)
        gl->xa[gl->ndof + i] = -b[i];
    int rc = sfac_solve(&gl->A, gl->xa);
    memcpy(b, gl->xa + gl->ndof, (size_t)gl->n * sizeof *b);
    return rc;
}

/* r = b − (W + D̃) x on the free components, 0 on the fixed ones; returns ‖r‖∞. */
static double refine_residual(ipm_global *gl, const double *b, const double *x, double *r,
                              int *rc)
{
    int d = gl->d;
    double rmax = 0.0;
    *rc = ipm_global_Wp(gl, x, r);
    for (int a = 0; a < gl->nc; a++)
        for (int i = 0; i < d; i++) {
            size_t o = (size_t)a * d + i;
            double t = r[o] + gl->delta * x[o];
            for (int k = 0; k < d; k++)
                t += gl->D[(size_t)a * d * d + i + (size_t)k * d] * x[(size_t)a * d + k];
            r[o] = gl->fixed[o] ? 0.0 : b[o] - t;
            rmax = fmax(rmax, fabs(r[o]));
        }
    return rmax;
}

/* b ← (W + D̃)⁻¹ b: the augmented solve, then iterative refinement against the exact operator
 * (W by solves with M) while it gains. */
int ipm_global_solve(ipm_global *gl, double *b, int refine)
{
    if (!refine)
        return augmented_solve(gl, b);
    size_t n = (size_t)gl->n;
    memcpy(gl->b0, b, n * sizeof *b);
    int rc = augmented_solve(gl, b);
    double prev = INFINITY;
    for (int it = 0; rc == CB_OK && it < IPM_GLOBAL_REFINE; it++) {
        double res = refine_residual(gl, gl->b0, b, gl->r, &rc);
        if (rc != CB_OK || !(res < IPM_GLOBAL_REFINE_GAIN * prev) ||
            res <= IPM_GLOBAL_REFINE_RTOL * cb_nrm2(gl->b0, n))
            break;
        prev = res;
        if ((rc = augmented_solve(gl, gl->r)) == CB_OK)
            for (size_t i = 0; i < n; i++)
                b[i] += gl->r[i];
    }
    return rc;
}

int ipm_global_Wp(ipm_global *gl, const double *p, double *out)
{
    h_times(gl, p, gl->tv);
    int rc = sfac_solve(&gl->M, gl->tv);
    ht_times(gl, gl->tv, out);
    return rc;
}

int ipm_global_y(ipm_global *gl, const double *p, double *y)
{
    h_times(gl, p, gl->tv);
    for (int i = 0; i < gl->ndof; i++)
        gl->tv[i] += gl->g->f[i];
    int rc = sfac_solve(&gl->M, gl->tv);
    ht_times(gl, gl->tv, y);
    for (int i = 0; i < gl->n; i++)
        y[i] += gl->g->w[i];
    return rc;
}

double ipm_global_scale(const ipm_global *gl) { return gl->scale; }

void ipm_global_free(ipm_global *gl)
{
    if (!gl)
        return;
    sfac_free(&gl->M), sfac_free(&gl->A);
    free(gl->Hp), free(gl->Hi), free(gl->Hx), free(gl->Ax0), free(gl->dpos);
    free(gl->xa), free(gl->tv), free(gl->tv2), free(gl->b0), free(gl->r);
    free(gl);
}
