/* conebench — matrix-free restarted GMRES for the Newton system of `nsn`: (H + λ I) x = b with
 * products through the W kernels (any storage, factored included), right-preconditioned by the
 * inverse diagonal blocks (H_αα + λ I)⁻¹ = (I − J_α + A_α W_αα + λ I)⁻¹, modified Gram–Schmidt
 * and Givens rotations (Saad & Schultz 1986). Fixed-order arithmetic (detmath.h). */
#include "nsn_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "detmath.h"
#include "base.h"

#define AT(M, d, i, j) ((M)[(i) + (size_t)(j) * (d)])

typedef struct {
    const nsn_system *sys;
    const cb_settings *budget; /* stop when its time is up (NULL: never) */
    double lambda;
    int m;              /* restart length */
    size_t n;
    double *V;          /* (m+1) · n Krylov basis */
    double *H;          /* (m+1) · m Hessenberg, column-major */
    double *cs, *sn, *g;
    double *z, *w, *scratch;
    double *pinv;       /* nc · d² LU factors of the diagonal blocks */
    int *piv;           /* nc · d pivots (−1 in piv[α d]: identity, the block was singular) */
} gm_ctx;

/* LU of H_αα + λ I for every contact (identity where singular). */
static void factor_diagonal(gm_ctx *x, cb_work *cnt)
{
    const nsn_system *sys = x->sys;
    int d = sys->d;
    size_t dd = (size_t)d * d;
    double W[NSN_D2];
    for (int a = 0; a < sys->nc; a++) {
        double *M = x->pinv + a * dd;
        const double *A = sys->A + a * dd, *IJ = sys->IJ + a * dd;
        cb_problem_diag_block(sys->prob, a, W);
        cb_gemm(0, 0, d, d, d, 1.0, A, d, W, d, 0.0, M, d);
        for (size_t k = 0; k < dd; k++)
            M[k] += IJ[k] + (k % (size_t)(d + 1) == 0) * x->lambda;
        if (cb_getrf(d, M, d, x->piv + (size_t)a * d) != 0)
            x->piv[(size_t)a * d] = -1;
    }
    cnt->block_products += (long long)sys->nc * d;
}

/* out = P⁻¹ v (block by block). */
static void precondition(const gm_ctx *x, const double *v, double *out)
{
    int d = x->sys->d;
    size_t dd = (size_t)d * d;
    memcpy(out, v, x->n * sizeof *out);
    for (int a = 0; a < x->sys->nc; a++)
        if (x->piv[(size_t)a * d] >= 0)
            cb_getrs(d, 1, x->pinv + a * dd, d, x->piv + (size_t)a * d, out + (size_t)a * d, d);
}

/* Givens rotation zeroing b in (a, b): c, s with c a + s b = r, −s a + c b = 0. */
static void givens(double a, double b, double *c, double *s)
{
    double r = hypot(a, b);
    *c = r > 0 ? a / r : 1.0;
    *s = r > 0 ? b / r : 0.0;
}

/* Arnoldi step j: w = M P⁻¹ v_j orthogonalised against v_0..v_j; returns |g_{j+1}|. */
static double arnoldi(gm_ctx *x, int j, cb_work *cnt)
{
    size_t n = x->n;
    int m1 = x->m + 1;
    double *h = x->H + (size_t)j * m1, *vj1 = x->V + (size_t)(j + 1) * n;
    precondition(x, x->V + (size_t)j * n, x->z);
    nsn_system_apply(x->sys, x->lambda, x->z, x->w, x->scratch, cnt);
    for (int i = 0; i <= j; i++) { /* modified Gram–Schmidt */
        const double *vi = x->V + (size_t)i * n;
        h[i] = cb_dot(x->w, vi, n);
        for (size_t k = 0; k < n; k++)
            x->w[k] -= h[i] * vi[k];
    }
    h[j + 1] = cb_nrm2(x->w, n);
    for (size_t k = 0; k < n; k++)
        vj1[k] = h[j + 1] > 0 ? x->w[k] / h[j + 1] : 0.0;
    for (int i = 0; i < j; i++) { /* the earlier rotations, then a new one */
        double t = x->cs[i] * h[i] + x->sn[i] * h[i + 1];
        h[i + 1] = -x->sn[i] * h[i] + x->cs[i] * h[i + 1];
        h[i] = t;
    }
    givens(h[j], h[j + 1], &x->cs[j], &x->sn[j]);
    h[j] = x->cs[j] * h[j] + x->sn[j] * h[j + 1];
    h[j + 1] = 0.0;
    x->g[j + 1] = -x->sn[j] * x->g[j];
    x->g[j] = x->cs[j] * x->g[j];
    return fabs(x->g[j + 1]);
}

/* x += P⁻¹ V y with H y = g (upper triangular, k columns). */
static void update(gm_ctx *c, int k, double *x)
{
    int m1 = c->m + 1;
    double y[64];
    for (int i = k - 1; i >= 0; i--) {
        double s = c->g[i];
        for (int j = i + 1; j < k; j++)
            s -= c->H[i + (size_t)j * m1] * y[j];
        y[i] = c->H[i + (size_t)i * m1] != 0 ? s / c->H[i + (size_t)i * m1] : 0.0;
    }
    memset(c->w, 0, c->n * sizeof *c->w);
    for (int j = 0; j < k; j++)
        for (size_t i = 0; i < c->n; i++)
            c->w[i] += y[j] * c->V[(size_t)j * c->n + i];
    precondition(c, c->w, c->z);
    for (size_t i = 0; i < c->n; i++)
        x[i] += c->z[i];
}

static int gm_alloc(gm_ctx *x)
{
    size_t n = x->n, m = (size_t)x->m;
    x->V = cb_calloc((m + 1) * n, sizeof *x->V);
    x->H = cb_calloc((m + 1) * m, sizeof *x->H);
    x->cs = cb_calloc(m + 1, sizeof *x->cs), x->sn = cb_calloc(m + 1, sizeof *x->sn);
    x->g = cb_calloc(m + 1, sizeof *x->g);
    x->z = cb_calloc(n, sizeof *x->z), x->w = cb_calloc(n, sizeof *x->w);
    x->scratch = cb_calloc(n, sizeof *x->scratch);
    x->pinv = cb_calloc(n * (size_t)x->sys->d, sizeof *x->pinv);
    x->piv = cb_calloc(n, sizeof *x->piv);
    return x->V && x->H && x->cs && x->sn && x->g && x->z && x->w && x->scratch && x->pinv &&
           x->piv;
}

static void gm_free(gm_ctx *x)
{
    free(x->V), free(x->H), free(x->cs), free(x->sn), free(x->g);
    free(x->z), free(x->w), free(x->scratch), free(x->pinv), free(x->piv);
}

/* 1 when the run's budget is spent. */
static int time_up(const gm_ctx *c)
{
    return c->budget && cb_time_up(c->budget);
}

/* One cycle from the current x: r = b − M x, then up to m Arnoldi steps. */
static int cycle(gm_ctx *c, const double *b, double *x, double target, long *it, long max_iter,
                 cb_work *cnt)
{
    nsn_system_apply(c->sys, c->lambda, x, c->w, c->scratch, cnt);
    for (size_t i = 0; i < c->n; i++)
        c->V[i] = b[i] - c->w[i];
    double beta = cb_nrm2(c->V, c->n);
    if (beta <= target)
        return 1;
    for (size_t i = 0; i < c->n; i++)
        c->V[i] /= beta;
    memset(c->g, 0, (size_t)(c->m + 1) * sizeof *c->g);
    c->g[0] = beta;
    int k = 0, done = 0;
    while (k < c->m && *it < max_iter && !done && !time_up(c)) {
        done = arnoldi(c, k, cnt) <= target;
        k++, (*it)++;
    }
    update(c, k, x);
    return done;
}

long nsn_gmres(const nsn_system *sys, double lambda, const double *b, double *x, double rtol,
               int restart, long max_iter, const cb_settings *budget, cb_work *cnt)
{
    gm_ctx c;
    memset(&c, 0, sizeof c);
    c.sys = sys, c.budget = budget, c.lambda = lambda, c.n = sys->n;
    c.m = restart < 1 ? 1 : (restart > 64 ? 64 : restart);
    long it = 0;
    memset(x, 0, sys->n * sizeof *x);
    if (!gm_alloc(&c)) {
        gm_free(&c);
        return -1;
    }
    factor_diagonal(&c, cnt);
    double target = rtol * cb_nrm2(b, sys->n);
    while (it < max_iter && !time_up(&c) && !cycle(&c, b, x, target, &it, max_iter, cnt))
        ;
    gm_free(&c);
    return it;
}
