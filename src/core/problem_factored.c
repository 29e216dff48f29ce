/* conebench — factored storage of W = G M⁻¹ Gᵀ: allocation, validation, kernels, assembly.
 * Layout in conebench/problem.h (cb_factored). */
#include "problem_internal.h"
#include "base.h"
#include "bsr_half.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- small kernels */

/* v = M_b⁻¹ f for one body: linear part f/m, angular part I⁻¹ τ (row-major I⁻¹). */
static inline void minv_apply(const double *m, const double *f, double *v)
{
    for (int k = 0; k < 3; k++)
        v[k] = m[0] * f[k];
    for (int r = 0; r < 3; r++)
        v[3 + r] = m[1 + 3 * r] * f[3] + m[2 + 3 * r] * f[4] + m[3 + 3 * r] * f[5];
}

/* f (6) += Gᵀ x for a d×6 row-major G. */
static inline void gt_add(int d, const double *G, const double *x, double *f)
{
    for (int r = 0; r < d; r++)
        for (int k = 0; k < 6; k++)
            f[k] += G[6 * r + k] * x[r];
}

/* y (d) += G v for a d×6 row-major G. */
static inline void g_add(int d, const double *G, const double *v, double *y)
{
    for (int r = 0; r < d; r++) {
        const double *g = G + 6 * r;
        y[r] += g[0] * v[0] + g[1] * v[1] + g[2] * v[2] + g[3] * v[3] + g[4] * v[4] +
                g[5] * v[5];
    }
}

static inline const double *gblock(const cb_problem *p, int e)
{
    return p->fac.G + (size_t)e * 6 * (size_t)p->d;
}

/* ---------------------------------------------------------------- allocation */

int cb_fac_check_sizes(int d, int nc, int nbody, cb_error *err)
{
    if (nbody < 1)
        return cb_fail(err, CB_ERR_INPUT, "nbody: must be ≥ 1, got %d", nbody);
    if (nc > INT_MAX / 2)
        return cb_fail(err, CB_ERR_INPUT, "nc: %d contacts exceed the factored index range", nc);
    size_t g;
    if (cb_mul_size((size_t)nc * 2, (size_t)(6 * d), &g) || cb_mul_size(g, sizeof(double), &g))
        return cb_fail(err, CB_ERR_INPUT, "nc: Jacobian blocks overflow");
    return CB_OK;
}

int cb_fac_alloc(cb_problem *p, int nbody)
{
    cb_factored *f = &p->fac;
    size_t nc = (size_t)p->nc, d = (size_t)p->d, nb = (size_t)nbody;
    f->nbody = nbody;
    f->minv = cb_calloc(nb, 10 * sizeof(double));
    f->body = cb_malloc_array(2 * nc, sizeof(int));
    f->G = cb_calloc(2 * nc, 6 * d * sizeof(double));
    f->adj_ptr = cb_calloc(nb + 1, sizeof(int));
    f->adj = cb_calloc(2 * nc, sizeof(int));
    f->diag = cb_calloc(nc, d * d * sizeof(double));
    if (!f->minv || !f->body || !f->G || !f->adj_ptr || !f->adj || !f->diag)
        return CB_ERR_NOMEM;
    for (size_t e = 0; e < 2 * nc; e++)
        f->body[e] = -1;
    return CB_OK;
}

void cb_fac_free(cb_factored *f)
{
    free(f->minv);
    free(f->body);
    free(f->G);
    free(f->adj_ptr);
    free(f->adj);
    free(f->diag);
    memset(f, 0, sizeof *f);
}

void cb_fac_copy(const cb_problem *src, cb_problem *dst)
{
    const cb_factored *a = &src->fac;
    cb_factored *b = &dst->fac;
    size_t nc = (size_t)src->nc, d = (size_t)src->d, nb = (size_t)a->nbody;
    memcpy(b->minv, a->minv, nb * 10 * sizeof(double));
    memcpy(b->body, a->body, 2 * nc * sizeof(int));
    memcpy(b->G, a->G, 2 * nc * 6 * d * sizeof(double));
    memcpy(b->adj_ptr, a->adj_ptr, (nb + 1) * sizeof(int));
    memcpy(b->adj, a->adj, 2 * nc * sizeof(int));
    memcpy(b->diag, a->diag, nc * d * d * sizeof(double));
}

/* ---------------------------------------------------------------- validation */

/* Body slots in [−1, nbody), at least one body per contact. */
static int check_bodies(const cb_problem *p, cb_error *err)
{
    const cb_factored *f = &p->fac;
    for (int a = 0; a < p->nc; a++) {
        for (int s = 0; s < 2; s++) {
            int b = f->body[2 * a + s];
            if (b < -1 || b >= f->nbody)
                return cb_fail(err, CB_ERR_INPUT,
                               "fac.body: contact %d slot %d: body %d out of range [-1, %d)", a,
                               s, b, f->nbody);
        }
        if (f->body[2 * a] < 0 && f->body[2 * a + 1] < 0)
            return cb_fail(err, CB_ERR_INPUT,
                           "fac.body: contact %d has no body (both slots are -1: W_aa = 0)", a);
    }
    return CB_OK;
}

/* Per body: finite, 1/m ≥ 0, I⁻¹ with a nonnegative diagonal and symmetric (1e-10 relative). */
static int check_minv(const cb_problem *p, cb_error *err)
{
    const cb_factored *f = &p->fac;
    for (int b = 0; b < f->nbody; b++) {
        const double *m = f->minv + 10 * (size_t)b, *I = m + 1;
        double big = 0;
        for (int k = 0; k < 10; k++) {
            if (!isfinite(m[k]))
                return cb_fail(err, CB_ERR_INPUT, "fac.minv: body %d entry %d is not finite", b,
                               k);
            big = k ? fmax(big, fabs(m[k])) : big;
        }
        if (m[0] < 0)
            return cb_fail(err, CB_ERR_INPUT, "fac.minv: body %d: 1/m = %g is negative", b, m[0]);
        for (int r = 0; r < 3; r++) {
            if (I[4 * r] < 0)
                return cb_fail(err, CB_ERR_INPUT,
                               "fac.minv: body %d: inverse inertia diagonal %d is negative", b, r);
            for (int c = r + 1; c < 3; c++)
                if (fabs(I[3 * r + c] - I[3 * c + r]) > 1e-10 * big)
                    return cb_fail(err, CB_ERR_INPUT,
                                   "fac.minv: body %d: inverse inertia is not symmetric", b);
        }
    }
    return CB_OK;
}

/* The caller-filled factors: body slots, inverse masses, finite G on the slots with a body. */
static int check_factors(const cb_problem *p, cb_error *err)
{
    int rc = check_bodies(p, err);
    if (rc == CB_OK)
        rc = check_minv(p, err);
    size_t g = 6 * (size_t)p->d;
    for (int e = 0; rc == CB_OK && e < 2 * p->nc; e++) {
        const double *G = gblock(p, e);
        for (size_t i = 0; p->fac.body[e] >= 0 && i < g; i++)
            if (!isfinite(G[i])) {
                rc = cb_fail(err, CB_ERR_INPUT,
                             "fac.G: contact %d slot %d: entry (%zu, %zu) is not finite", e / 2,
                             e % 2, i / 6, i % 6);
                break;
            }
    }
    return rc;
}

/* adj_ptr runs from 0 to the slot count; body b lists exactly its slots, increasing. */
static int check_adjacency(const cb_problem *p, cb_error *err)
{
    const cb_factored *f = &p->fac;
    long long slots = cb_fac_slots(p);
    if (f->adj_ptr[0] != 0 || f->adj_ptr[f->nbody] != slots)
        return cb_fail(err, CB_ERR_INPUT, "fac.adj_ptr: must run from 0 to %lld (call "
                       "cb_problem_factored_finish after setting fac.body)", slots);
    for (int b = 0; b < f->nbody; b++) {
        if (f->adj_ptr[b + 1] < f->adj_ptr[b])
            return cb_fail(err, CB_ERR_INPUT, "fac.adj_ptr: decreases at body %d", b);
        for (int k = f->adj_ptr[b]; k < f->adj_ptr[b + 1]; k++) {
            int e = f->adj[k];
            int sorted = k == f->adj_ptr[b] || e > f->adj[k - 1];
            if (e < 0 || e >= 2 * p->nc || f->body[e] != b || !sorted)
                return cb_fail(err, CB_ERR_INPUT,
                               "fac.adj: entry %d of body %d is not one of its slots in "
                               "increasing order", k, b);
        }
    }
    return CB_OK;
}

int cb_fac_check(const cb_problem *p, cb_error *err)
{
    const cb_factored *f = &p->fac;
    if (f->nbody < 1 || !f->minv || !f->body || !f->G || !f->adj_ptr || !f->adj || !f->diag)
        return cb_fail(err, CB_ERR_INPUT, "fac: missing arrays or nbody = %d < 1", f->nbody);
    int rc = check_factors(p, err);
    if (rc == CB_OK)
        rc = check_adjacency(p, err);
    size_t nd = (size_t)p->nc * (size_t)(p->d * p->d);
    for (size_t i = 0; rc == CB_OK && i < nd; i++)
        if (!isfinite(f->diag[i]))
            rc = cb_fail(err, CB_ERR_INPUT, "fac.diag: block %zu is not finite (overflow in "
                         "G M^-1 G^T?)", i / (size_t)(p->d * p->d));
    return rc;
}

/* ---------------------------------------------------------------- derived arrays */

/* out (d×d column-major) = W_αβ = Σ_{s,t: body(α,s) = body(β,t) ≥ 0} G_αs M⁻¹ G_βtᵀ. */
static void fac_block(const cb_problem *p, int a, int b, double *out)
{
    const cb_factored *f = &p->fac;
    int d = p->d;
    memset(out, 0, (size_t)(d * d) * sizeof *out);
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < 2; t++) {
            int k = f->body[2 * a + s];
            if (k < 0 || f->body[2 * b + t] != k)
                continue;
            const double *Ga = gblock(p, 2 * a + s), *Gb = gblock(p, 2 * b + t);
            const double *m = f->minv + 10 * (size_t)k;
            for (int c = 0; c < d; c++) {
                double u[6];
                minv_apply(m, Gb + 6 * c, u);
                g_add(d, Ga, u, out + (size_t)c * d);
            }
        }
}

int cb_problem_factored_finish(cb_problem *p, cb_error *err)
{
    if (!p || p->storage != CB_STORAGE_FACTORED)
        return cb_fail(err, CB_ERR_INPUT, "storage: not a factored problem");
    int rc = check_factors(p, err);
    if (rc != CB_OK)
        return rc;
    cb_factored *f = &p->fac;
    memset(f->adj_ptr, 0, ((size_t)f->nbody + 1) * sizeof(int));
    for (int e = 0; e < 2 * p->nc; e++) /* count, prefix sums, fill with adj_ptr[b] as cursor */
        if (f->body[e] >= 0)
            f->adj_ptr[f->body[e] + 1]++;
    for (int b = 0; b < f->nbody; b++)
        f->adj_ptr[b + 1] += f->adj_ptr[b];
    for (int e = 0; e < 2 * p->nc; e++)
        if (f->body[e] >= 0)
            f->adj[f->adj_ptr[f->body[e]]++] = e;
    for (int b = f->nbody; b > 0; b--) /* the cursors ended at the next body's start */
        f->adj_ptr[b] = f->adj_ptr[b - 1];
    f->adj_ptr[0] = 0;
    size_t dd = (size_t)(p->d * p->d);
    for (int a = 0; a < p->nc; a++)
        fac_block(p, a, a, f->diag + (size_t)a * dd);
    return CB_OK;
}

/* ---------------------------------------------------------------- products */

/* v = M⁻¹ Gᵀ x: force f_b = Σ G_αsᵀ x_α over the slots of body b, then v_b = M_b⁻¹ f_b. */
void cb_problem_factored_velocities(const cb_problem *p, const double *x, double *v)
{
    const cb_factored *f = &p->fac;
    int d = p->d;
    memset(v, 0, (size_t)f->nbody * 6 * sizeof(double));
    for (int e = 0; e < 2 * p->nc; e++)
        if (f->body[e] >= 0)
            gt_add(d, gblock(p, e), x + (size_t)(e / 2) * d, v + 6 * (size_t)f->body[e]);
    for (int b = 0; b < f->nbody; b++) {
        double t[6];
        memcpy(t, v + 6 * (size_t)b, sizeof t);
        minv_apply(f->minv + 10 * (size_t)b, t, v + 6 * (size_t)b);
    }
}

/* y_α = Σ_s G_αs v_body(α,s) with v = M⁻¹ Gᵀ x, one body at a time: v_b from the slots of b
 * (increasing, as cb_problem_factored_velocities sums them), then added to the rows of those
 * slots. Each y_α is a sum of at most two terms, so the order of the bodies does not change its
 * bits; no scratch beyond six numbers (the problem is only read). */
static void fac_Wp_serial(const cb_problem *p, const double *x, double *y)
{
    const cb_factored *f = &p->fac;
    int d = p->d;
    memset(y, 0, (size_t)p->nc * (size_t)d * sizeof(double)); /* nc·d (problem.c calls this file) */
    for (int b = 0; b < f->nbody; b++) {
        double force[6] = {0}, v[6];
        for (int i = f->adj_ptr[b]; i < f->adj_ptr[b + 1]; i++)
            gt_add(d, gblock(p, f->adj[i]), x + (size_t)(f->adj[i] / 2) * d, force);
        minv_apply(f->minv + 10 * (size_t)b, force, v);
        for (int i = f->adj_ptr[b]; i < f->adj_ptr[b + 1]; i++)
            g_add(d, gblock(p, f->adj[i]), v, y + (size_t)(f->adj[i] / 2) * d);
    }
}

/* The same y = G M⁻¹ Gᵀ x on `threads` threads: v = M⁻¹ Gᵀ x body by body (each v_b summed
 * over its slots in increasing order, as above), then y_α = (0 + G_α0 v) + G_α1 v contact by
 * contact. Each y_α is the same sum of the same two terms (addition commutes), so the bits are
 * fac_Wp_serial's; v is scratch (6·nbody): 0 when it cannot be had. */
static int fac_Wp_threads(const cb_problem *p, const double *x, double *y, int threads)
{
    const cb_factored *f = &p->fac;
    int d = p->d, nc = p->nc, nbody = f->nbody;
    double *v = cb_malloc_array((size_t)nbody, 6 * sizeof(double));
    if (!v)
        return 0;
    (void)threads; /* without OpenMP */
    CB_OMP(omp parallel num_threads(threads))
    {
        CB_OMP(omp for schedule(static))
        for (int b = 0; b < nbody; b++) {
            double force[6] = {0};
            for (int i = f->adj_ptr[b]; i < f->adj_ptr[b + 1]; i++)
                gt_add(d, gblock(p, f->adj[i]), x + (size_t)(f->adj[i] / 2) * d, force);
            minv_apply(f->minv + 10 * (size_t)b, force, v + 6 * (size_t)b);
        }
        CB_OMP(omp for schedule(static))
        for (int a = 0; a < nc; a++) {
            double *ya = y + (size_t)a * d;
            memset(ya, 0, (size_t)d * sizeof(double));
            for (int s = 0; s < 2; s++)
                if (f->body[2 * a + s] >= 0)
                    g_add(d, gblock(p, 2 * a + s), v + 6 * (size_t)f->body[2 * a + s], ya);
        }
    }
    free(v);
    return 1;
}

/* y = W p: on the run's threads when there is work enough, else one body at a time. */
void cb_fac_Wp(const cb_problem *p, const double *x, double *y)
{
    int threads = cb_threads();
    if (threads > 1 && p->nc >= CB_PAR_MIN_ROWS && fac_Wp_threads(p, x, y, threads))
        return;
    fac_Wp_serial(p, x, y);
}

/* out = Σ_s G_αs M_b⁻¹ Σ_{(β,t) at b} G_βtᵀ x_β, b = body(α,s). */
void cb_fac_row_Wp(const cb_problem *p, int alpha, const double *x, double *out)
{
    const cb_factored *f = &p->fac;
    int d = p->d;
    memset(out, 0, (size_t)d * sizeof(double));
    for (int s = 0; s < 2; s++) {
        int b = f->body[2 * alpha + s];
        if (b < 0)
            continue;
        double force[6] = {0, 0, 0, 0, 0, 0}, v[6];
        for (int k = f->adj_ptr[b]; k < f->adj_ptr[b + 1]; k++)
            gt_add(d, gblock(p, f->adj[k]), x + (size_t)(f->adj[k] / 2) * d, force);
        minv_apply(f->minv + 10 * (size_t)b, force, v);
        g_add(d, gblock(p, 2 * alpha + s), v, out);
    }
}

long long cb_fac_slots(const cb_problem *p)
{
    long long n = 0;
    for (int e = 0; e < 2 * p->nc; e++)
        n += p->fac.body[e] >= 0;
    return n;
}

size_t cb_fac_bytes(const cb_problem *p)
{
    size_t nc = (size_t)p->nc, d = (size_t)p->d, nb = (size_t)p->fac.nbody;
    return nb * 10 * sizeof(double) + 2 * nc * sizeof(int) + 2 * nc * 6 * d * sizeof(double) +
           (nb + 1) * sizeof(int) + 2 * nc * sizeof(int) + nc * d * d * sizeof(double) +
           nb * 6 * sizeof(double);
}

/* ---------------------------------------------------------------- assembly */

/* The contacts sharing a body with α (α included), increasing, into cols (NULL: count only):
 * a merge of the two bodies' slot lists. Returns the count. */
static int row_contacts(const cb_problem *p, int a, int *cols)
{
    const cb_factored *f = &p->fac;
    int b0 = f->body[2 * a], b1 = f->body[2 * a + 1];
    int lo1 = b0 >= 0 ? f->adj_ptr[b0] : 0, hi1 = b0 >= 0 ? f->adj_ptr[b0 + 1] : 0;
    int lo2 = b1 >= 0 && b1 != b0 ? f->adj_ptr[b1] : 0;
    int hi2 = b1 >= 0 && b1 != b0 ? f->adj_ptr[b1 + 1] : 0;
    /* adj holds 2·contact + slot: shift by one bit to get the contact */
    return cb_sorted_union(f->adj + lo1, hi1 - lo1, f->adj + lo2, hi2 - lo2, 1, cols);
}

long long cb_fac_bsr_count(const cb_problem *p)
{
    long long n = 0;
    for (int a = 0; a < p->nc; a++)
        n += row_contacts(p, a, NULL);
    return n;
}

void cb_fac_bsr_fill(const cb_problem *p, cb_problem *dst)
{
    cb_bsr *B = &dst->bsr;
    size_t dd = (size_t)(p->d * p->d);
    int pos = 0;
    for (int a = 0; a < p->nc; a++) {
        B->row_ptr[a] = pos;
        int n = row_contacts(p, a, B->col + pos);
        for (int k = 0; k < n; k++) /* the upper blocks; the lower ones mirror them below */
            if (B->col[pos + k] >= a)
                fac_block(p, a, B->col[pos + k], B->val + (size_t)(pos + k) * dd);
        pos += n;
    }
    B->row_ptr[p->nc] = pos;
    cb_bsr_symmetrize(B, p->d); /* the pattern is symmetric: pairs sharing a body */
}
