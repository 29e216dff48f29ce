/* conebench — the "random" generator: W from random rigid bodies (Hᵀ M⁻¹ H) or a
 * random symmetric (semi)definite matrix of chosen condition number, and a KNOWN solution built
 * contact by contact by Moreau decomposition (p* ∈ K, ŷ* ∈ K*, ⟨ŷ*, p*⟩ = 0), q = y* − W p*.
 *
 * Everything is drawn from one cb_rng stream seeded with settings->seed, in an order that does
 * not depend on the output storage: dense and BSR outputs of a seed hold the same W, μ, p*, y*.
 * W is always assembled in BSR first and converted when dense storage is asked for.
 */
#include "conebench/generate.h"
#include "bsr_half.h"
#include "rng.h"
#include "detmath.h"
#include "base.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN_COND 1e3            /* default cond (spd) */
#define GEN_DENSITY 0.1         /* default density (spd) */
#define GROUND (-1)             /* body index of the fixed ground */
#define MAX_DENSE_N 16384       /* largest n = nc·d written as a dense W (2 GiB of doubles) */
#define MAX_SPD_VALUES 1.0e9    /* largest expected number of stored W entries (CB_GEN_SPD) */
#define GROUP_DIM_MAX 600       /* CB_GEN_SPD: largest group size·d for the exact-spectrum path */
#define SPD_DELTA (1.0 / 3.0)   /* CB_GEN_SPD sparse path: Gershgorin bound ‖E‖₂ ≤ δ */
#define GROUND_FRACTION 0.2     /* CB_GEN_MULTIBODY: share of contacts with the ground */
#define MAX_MODES 16

void cb_random_settings_default(cb_random_settings *s)
{
    memset(s, 0, sizeof *s);
    s->kind = CB_KIND_ROLLING3D;
    s->nc = 100;
    s->seed = 1;
    s->matrix = CB_GEN_MULTIBODY;
    s->cond = GEN_COND;
    s->semidefinite = 0;
    s->density = GEN_DENSITY;
    s->bodies = 0;
    s->mu_min = 0.1;
    s->mu_max = 1.0;
    s->mur_min = 0.01;
    s->mur_max = 0.1;
    s->mus_min = 0.005;
    s->mus_max = 0.05;
    s->storage = CB_STORAGE_BSR;
}

/* ------------------------------------------------------------------ validation */

static int check_range(double lo, double hi, const char *name, cb_error *err)
{
    if (!isfinite(lo) || !isfinite(hi) || lo < 0 || lo > hi)
        return cb_fail(err, CB_ERR_INPUT,
                       "%s_min/%s_max: need finite 0 ≤ min ≤ max, got [%g, %g]", name, name, lo,
                       hi);
    return CB_OK;
}

/* Sizes that would overflow or exhaust memory are refused here, before anything is allocated. */
static int check_sizes(const cb_random_settings *s, cb_error *err)
{
    long long n = (long long)s->nc * cb_kind_dim(s->kind);
    if (n > INT_MAX)
        return cb_fail(err, CB_ERR_INPUT, "nc: nc·d = %lld exceeds the int range", n);
    if (s->storage == CB_STORAGE_DENSE && n > MAX_DENSE_N)
        return cb_fail(err, CB_ERR_INPUT, "storage: dense W with n = %lld rows exceeds %d; use bsr",
                       n, MAX_DENSE_N);
    if (s->bodies > (long long)CB_GEN_BODIES_PER_CONTACT * s->nc)
        return cb_fail(err, CB_ERR_INPUT, "bodies: must be ≤ %d·nc = %lld, got %d",
                       CB_GEN_BODIES_PER_CONTACT, (long long)CB_GEN_BODIES_PER_CONTACT * s->nc,
                       s->bodies);
    double blocks = (double)s->nc + s->density * (double)s->nc * (double)(s->nc - 1);
    double values = blocks * (double)(cb_kind_dim(s->kind) * cb_kind_dim(s->kind));
    if (s->matrix == CB_GEN_SPD && (blocks > INT_MAX || values > MAX_SPD_VALUES))
        return cb_fail(err, CB_ERR_INPUT,
                       "density: nc = %d with density %g needs ~%.3g W entries (max %.3g)", s->nc,
                       s->density, values, MAX_SPD_VALUES);
    return CB_OK;
}

static int validate(const cb_random_settings *s, cb_error *err)
{
    if (!s)
        return cb_fail(err, CB_ERR_INPUT, "settings: NULL");
    if ((unsigned)s->kind >= CB_KIND_COUNT)
        return cb_fail(err, CB_ERR_INPUT, "kind: invalid cone kind %d", (int)s->kind);
    if (s->nc < 1)
        return cb_fail(err, CB_ERR_INPUT, "nc: must be ≥ 1, got %d", s->nc);
    if (s->matrix != CB_GEN_MULTIBODY && s->matrix != CB_GEN_SPD)
        return cb_fail(err, CB_ERR_INPUT, "matrix: invalid value %d", (int)s->matrix);
    if (s->storage == CB_STORAGE_FACTORED)
        return cb_fail(err, CB_ERR_INPUT, "storage: the random generator writes dense or bsr W "
                       "(factored W comes from cb_assemble)");
    if (s->storage != CB_STORAGE_DENSE && s->storage != CB_STORAGE_BSR)
        return cb_fail(err, CB_ERR_INPUT, "storage: invalid value %d", (int)s->storage);
    if (!isfinite(s->cond) || !(s->cond >= 1))
        return cb_fail(err, CB_ERR_INPUT, "cond: must be finite and ≥ 1, got %g", s->cond);
    if (!(s->density > 0 && s->density <= 1))
        return cb_fail(err, CB_ERR_INPUT, "density: must be in (0, 1], got %g", s->density);
    if (s->bodies < 0)
        return cb_fail(err, CB_ERR_INPUT, "bodies: must be ≥ 0, got %d", s->bodies);
    if (s->matrix == CB_GEN_SPD && s->bodies > 0)
        return cb_fail(err, CB_ERR_INPUT, "bodies: applies to matrix multibody only, got %d with "
                       "spd", s->bodies);
    if (s->matrix == CB_GEN_MULTIBODY && s->semidefinite)
        return cb_fail(err, CB_ERR_INPUT, "semidefinite: applies to matrix spd only (a multibody "
                       "W is as singular as its bodies make it)");
    if (s->matrix == CB_GEN_MULTIBODY && (s->cond != GEN_COND || s->density != GEN_DENSITY))
        return cb_fail(err, CB_ERR_INPUT, "%s: applies to matrix spd only, got %g with multibody",
                       s->cond != GEN_COND ? "cond" : "density",
                       s->cond != GEN_COND ? s->cond : s->density);
    int rc = check_range(s->mu_min, s->mu_max, "mu", err);
    if (rc == CB_OK)
        rc = check_range(s->mur_min, s->mur_max, "mur", err);
    if (rc == CB_OK)
        rc = check_range(s->mus_min, s->mus_max, "mus", err);
    return rc == CB_OK ? check_sizes(s, err) : rc;
}

/* ------------------------------------------------------------------ small helpers */

/* Fisher–Yates shuffle of x[0..n). */
static void shuffle_int(cb_rng *r, int *x, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)cb_rng_below(r, (uint64_t)i + 1), t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

static void shuffle_double(cb_rng *r, double *x, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)cb_rng_below(r, (uint64_t)i + 1);
        double t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Log-uniform draw in [lo, hi]: exp(U(log lo, log hi)). */
static double log_uniform(cb_rng *r, double lo, double hi)
{
    return cb_exp(cb_rng_range(r, cb_log(lo), cb_log(hi)));
}

/* Spectrum: n − z values s_k = cond^(−k/(n−z−1)) (log-spaced in [1/cond, 1]), z zeros when
 * semidefinite (z = max(1, n/100), < n), in random order. */
static void fill_spectrum(cb_rng *r, int n, double cond, int semidefinite, double *lam)
{
    int z = semidefinite ? (n / 100 > 1 ? n / 100 : 1) : 0;
    if (z >= n)
        z = n - 1;
    int m = n - z;
    for (int k = 0; k < m; k++)
        lam[k] = m > 1 ? cb_pow(cond, -(double)k / (double)(m - 1)) : 1.0;
    for (int k = m; k < n; k++)
        lam[k] = 0.0;
    shuffle_double(r, lam, n);
}

/* ------------------------------------------------------------------ multibody W = Hᵀ M⁻¹ H */

typedef struct {
    int d, ndof, nb, nc;
    double *minv;   /* nb · ndof², column-major M_k⁻¹ */
    double *radius; /* nb */
    int *body;      /* 2·nc: the two bodies of each contact, GROUND for the fixed one */
    double *J;      /* 2·nc · d·ndof: Jacobian of contact a w.r.t. body slot s (d×ndof) */
    double *MJ;     /* 2·nc · ndof·d: M⁻¹ Jᵀ */
    int *bptr;      /* nb + 1: body → contacts (CSR) */
    int *blist;     /* contacts of each body */
    int *mark;      /* nc: de-duplication stamps */
    int *buf;       /* neighbour buffer */
    int bufcap;
} mb_model;

static void mb_free(mb_model *m)
{
    free(m->minv);
    free(m->radius);
    free(m->body);
    free(m->J);
    free(m->MJ);
    free(m->bptr);
    free(m->blist);
    free(m->mark);
    free(m->buf);
}

static int mb_alloc(mb_model *m)
{
    size_t dd = (size_t)m->d * (size_t)m->ndof, slots = 2 * (size_t)m->nc;
    m->minv = cb_calloc((size_t)m->nb, (size_t)(m->ndof * m->ndof) * sizeof(double));
    m->radius = cb_calloc((size_t)m->nb, sizeof(double));
    m->body = cb_calloc(slots, sizeof(int));
    m->J = cb_calloc(slots, dd * sizeof(double));
    m->MJ = cb_calloc(slots, dd * sizeof(double));
    m->bptr = cb_calloc((size_t)m->nb + 1, sizeof(int));
    m->blist = cb_calloc(slots, sizeof(int));
    m->mark = cb_calloc((size_t)m->nc, sizeof(int));
    int ok = m->minv && m->radius && m->body && m->J && m->MJ && m->bptr && m->blist && m->mark;
    return ok ? CB_OK : CB_ERR_NOMEM;
}

/* Random rotation Q (3×3 column-major) from a uniformly random unit quaternion. */
static void random_rotation(cb_rng *r, double Q[9])
{
    double w = cb_rng_normal(r), x = cb_rng_normal(r), y = cb_rng_normal(r),
           z = cb_rng_normal(r);
    double s = sqrt(w * w + x * x + y * y + z * z);
    if (s < 1e-12)
        w = s = 1.0;
    w /= s, x /= s, y /= s, z /= s;
    double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z),     2 * (x * z - w * y),
                   2 * (x * y - w * z),     1 - 2 * (x * x + z * z), 2 * (y * z + w * x),
                   2 * (x * z + w * y),     2 * (y * z - w * x),     1 - 2 * (x * x + y * y)};
    memcpy(Q, R, sizeof R);
}

/* Body k: radius R log-uniform in [0.5, 2], unit density; 3D: m = 4πR³/3, principal inertia
 * 0.4 m R²·U(0.7, 1.3) (triangle inequality holds) in a random orientation, M⁻¹ = diag(I/m, Q
 * diag(1/I_i) Qᵀ); 2D: m = πR², I = 0.5 m R²·U(0.7, 1.3), M⁻¹ = diag(1/m, 1/m, 1/I). */
static void mb_make_body(mb_model *m, cb_rng *r, int k)
{
    int nd = m->ndof;
    double R = log_uniform(r, 0.5, 2.0), *Mi = m->minv + (size_t)k * nd * nd;
    m->radius[k] = R;
    if (nd == 3) {
        double mass = CB_PI * R * R, inertia = 0.5 * mass * R * R * cb_rng_range(r, 0.7, 1.3);
        Mi[0] = Mi[4] = 1.0 / mass;
        Mi[8] = 1.0 / inertia;
        return;
    }
    double mass = 4.0 / 3.0 * CB_PI * R * R * R, inv[3], Q[9];
    for (int i = 0; i < 3; i++) {
        inv[i] = 1.0 / (0.4 * mass * R * R * cb_rng_range(r, 0.7, 1.3));
        Mi[i + i * nd] = 1.0 / mass;
    }
    random_rotation(r, Q);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int l = 0; l < 3; l++)
                s += Q[i + 3 * l] * inv[l] * Q[j + 3 * l];
            Mi[(3 + i) + (3 + j) * nd] = s;
        }
}

/* Orthonormal frame (n, t1, t2): n uniform on the sphere, t1 ⊥ n at a random angle. */
static void frame3d(cb_rng *r, double n[3], double t1[3], double t2[3])
{
    double s = 0;
    while (s < 1e-6) {
        for (int i = 0; i < 3; i++)
            n[i] = cb_rng_normal(r);
        s = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    }
    for (int i = 0; i < 3; i++)
        n[i] /= s;
    double a[3] = {0, 0, 0}, u[3], v[3];
    a[fabs(n[0]) < 0.5 ? 0 : (fabs(n[1]) < 0.5 ? 1 : 2)] = 1.0;
    u[0] = a[1] * n[2] - a[2] * n[1], u[1] = a[2] * n[0] - a[0] * n[2];
    u[2] = a[0] * n[1] - a[1] * n[0];
    s = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int i = 0; i < 3; i++)
        u[i] /= s;
    v[0] = n[1] * u[2] - n[2] * u[1], v[1] = n[2] * u[0] - n[0] * u[2];
    v[2] = n[0] * u[1] - n[1] * u[0];
    double th = cb_rng_range(r, 0, 2 * CB_PI), c, sn;
    cb_sincos(th, &sn, &c);
    for (int i = 0; i < 3; i++) {
        t1[i] = c * u[i] + sn * v[i];
        t2[i] = -sn * u[i] + c * v[i];
    }
}

/* Row `row` of J (d×6): σ [e; r × e] (linear rows) or σ [0; e] (angular rows). */
static void jac_row3d(double *J, int d, int row, double sg, const double *e, const double *rv,
                      int angular)
{
    double c[3] = {rv[1] * e[2] - rv[2] * e[1], rv[2] * e[0] - rv[0] * e[2],
                   rv[0] * e[1] - rv[1] * e[0]};
    for (int i = 0; i < 3; i++) {
        J[row + i * d] = angular ? 0.0 : sg * e[i];
        J[row + (3 + i) * d] = angular ? sg * e[i] : sg * c[i];
    }
}

/* 3D contact Jacobian w.r.t. one body (lever rv, sign σ): u_N, u_T = σ(v + ω × r)·(n, t1, t2);
 * ω_R = σ ω·(t1, t2); ω_S = σ ω·n (rows as many as d). */
static void jac3d(double *J, int d, double sg, const double *n, const double *t1,
                  const double *t2, const double *rv)
{
    const double *lin[3] = {n, t1, t2}, *ang[3] = {t1, t2, n};
    for (int row = 0; row < d; row++)
        jac_row3d(J, d, row, sg, row < 3 ? lin[row] : ang[row - 3], rv, row >= 3);
}

/* 2D contact Jacobian (dof vx, vy, ω): u_N = σ(v·n + ω r×n), u_T = σ(v·t + ω r×t), ω_R = σ ω. */
static void jac2d(double *J, int d, double sg, const double *n, const double *t,
                  const double *rv)
{
    const double *e[2] = {n, t};
    for (int row = 0; row < 2; row++) {
        J[row] = sg * e[row][0];
        J[row + d] = sg * e[row][1];
        J[row + 2 * d] = sg * (rv[0] * e[row][1] - rv[1] * e[row][0]);
    }
    if (d == 3) {
        J[2] = J[2 + d] = 0.0;
        J[2 + 2 * d] = sg;
    }
}

/* Lever from the centre of a body of radius R to the contact: R (side·n + 0.2 ξ), ξ ~ N(0, I)
 * (a non-spherical shape: the normal force has a moment). */
static void lever(cb_rng *r, int dim, double R, double side, const double *n, double *rv)
{
    for (int i = 0; i < dim; i++)
        rv[i] = R * (side * n[i] + 0.2 * cb_rng_normal(r));
}

/* Contact a: bodies (A, B) or (GROUND, B); frame with n from A to B; J and M⁻¹Jᵀ per slot. */
static void mb_make_contact(mb_model *m, cb_rng *r, int a)
{
    int B = (int)cb_rng_below(r, (uint64_t)m->nb), A = GROUND;
    if (m->nb > 1 && cb_rng_uniform(r) >= GROUND_FRACTION) {
        A = (int)cb_rng_below(r, (uint64_t)m->nb - 1);
        A += A >= B;
    }
    m->body[2 * a] = A;
    m->body[2 * a + 1] = B;
    double n[3], t1[3], t2[3], rv[3];
    int dim = m->ndof == 6 ? 3 : 2;
    if (dim == 3) {
        frame3d(r, n, t1, t2);
    } else {
        double th = cb_rng_range(r, 0, 2 * CB_PI);
        cb_sincos(th, &n[1], &n[0]);
        t1[0] = -n[1], t1[1] = n[0];
    }
    size_t dd = (size_t)m->d * m->ndof;
    for (int s = 0; s < 2; s++) {
        int k = m->body[2 * a + s];
        double *J = m->J + (2 * (size_t)a + s) * dd, sg = s ? 1.0 : -1.0;
        if (k == GROUND)
            continue;
        lever(r, dim, m->radius[k], s ? -1.0 : 1.0, n, rv);
        if (dim == 3)
            jac3d(J, m->d, sg, n, t1, t2, rv);
        else
            jac2d(J, m->d, sg, n, t1, rv);
        cb_gemm(0, 1, m->ndof, m->d, m->ndof, 1.0, m->minv + (size_t)k * m->ndof * m->ndof,
                m->ndof, J, m->d, 0.0, m->MJ + (2 * (size_t)a + s) * dd, m->ndof);
    }
}

/* Body → contacts lists (CSR) and the neighbour buffer (capacity: twice the largest degree). */
static int mb_index(mb_model *m)
{
    for (int s = 0; s < 2 * m->nc; s++)
        if (m->body[s] != GROUND)
            m->bptr[m->body[s] + 1]++;
    int maxdeg = 1;
    for (int k = 0; k < m->nb; k++) {
        maxdeg = m->bptr[k + 1] > maxdeg ? m->bptr[k + 1] : maxdeg;
        m->bptr[k + 1] += m->bptr[k];
    }
    int *fill = cb_calloc((size_t)m->nb, sizeof(int));
    m->bufcap = 2 * maxdeg;
    m->buf = cb_calloc((size_t)m->bufcap, sizeof(int));
    if (!fill || !m->buf) {
        free(fill);
        return CB_ERR_NOMEM;
    }
    for (int s = 0; s < 2 * m->nc; s++) {
        int k = m->body[s];
        if (k != GROUND)
            m->blist[m->bptr[k] + fill[k]++] = s / 2;
    }
    free(fill);
    return CB_OK;
}

/* Contacts sharing a non-fixed body with contact a (a included), sorted, into m->buf. */
static int mb_neighbours(mb_model *m, int a)
{
    int cnt = 0;
    for (int s = 0; s < 2; s++) {
        int k = m->body[2 * a + s];
        if (k == GROUND)
            continue;
        for (int i = m->bptr[k]; i < m->bptr[k + 1]; i++) {
            int b = m->blist[i];
            if (m->mark[b] != a + 1) {
                m->mark[b] = a + 1;
                m->buf[cnt++] = b;
            }
        }
    }
    qsort(m->buf, (size_t)cnt, sizeof(int), cmp_int);
    return cnt;
}

/* B ← (B + Bᵀ)/2 for a d×d block (exact symmetry of the diagonal blocks of W). */
static void symmetrize(int d, double *B)
{
    for (int j = 0; j < d; j++)
        for (int i = j + 1; i < d; i++) {
            double v = 0.5 * (B[i + j * d] + B[j + i * d]);
            B[i + j * d] = B[j + i * d] = v;
        }
}

/* W_ab = Σ over shared bodies k of J_ak M_k⁻¹ J_bkᵀ (d×d into out, zeroed first). */
static void mb_block(const mb_model *m, int a, int b, double *out)
{
    size_t dd = (size_t)m->d * m->ndof;
    memset(out, 0, (size_t)m->d * m->d * sizeof(double));
    for (int sa = 0; sa < 2; sa++)
        for (int sb = 0; sb < 2; sb++) {
            int k = m->body[2 * a + sa];
            if (k == GROUND || k != m->body[2 * b + sb])
                continue;
            cb_gemm(0, 0, m->d, m->d, m->ndof, 1.0, m->J + (2 * (size_t)a + sa) * dd, m->d,
                    m->MJ + (2 * (size_t)b + sb) * dd, m->ndof, 1.0, out, m->d);
        }
    if (a == b)
        symmetrize(m->d, out);
}

/* Assemble the BSR W: pattern from the neighbour lists, upper blocks computed, lower mirrored. */
static int mb_assemble(mb_model *m, cb_kind kind, cb_problem **out, cb_error *err)
{
    long long nnzb = 0;
    for (int a = 0; a < m->nc; a++)
        nnzb += mb_neighbours(m, a);
    if (nnzb > INT_MAX)
        return cb_fail(err, CB_ERR_INPUT, "bodies: %lld coupled contact pairs exceed int range",
                       nnzb);
    memset(m->mark, 0, (size_t)m->nc * sizeof(int));
    int rc = cb_problem_alloc(kind, m->nc, CB_STORAGE_BSR, (int)nnzb, out, err);
    if (rc != CB_OK)
        return rc;
    cb_bsr *B = &(*out)->bsr;
    size_t dd = (size_t)m->d * m->d;
    for (int a = 0, k = 0; a < m->nc; a++) {
        int cnt = mb_neighbours(m, a);
        B->row_ptr[a] = k;
        for (int i = 0; i < cnt; i++, k++) {
            B->col[k] = m->buf[i];
            if (m->buf[i] >= a)
                mb_block(m, a, m->buf[i], B->val + (size_t)k * dd);
        }
        B->row_ptr[a + 1] = k;
    }
    if (cb_bsr_symmetrize(&(*out)->bsr, (*out)->d) != CB_OK)
        return cb_fail(err, CB_ERR_INTERNAL, "multibody: W pattern is not symmetric");
    return CB_OK;
}

/* W = Hᵀ M⁻¹ H for random bodies (default count ⌈2nc/3⌉: ~3 contacts per body) and contacts. */
static int multibody_matrix(const cb_random_settings *s, cb_rng *r, cb_problem **out,
                            cb_error *err)
{
    int d = cb_kind_dim(s->kind), three = s->kind != CB_KIND_COULOMB2D &&
                                          s->kind != CB_KIND_ROLLING2D;
    mb_model m = {.d = d, .ndof = three ? 6 : 3, .nc = s->nc};
    m.nb = s->bodies > 0 ? s->bodies : (int)((2LL * s->nc + 2) / 3);
    int rc = mb_alloc(&m);
    if (rc != CB_OK) {
        rc = cb_fail(err, CB_ERR_NOMEM, "multibody: out of memory for %d bodies", m.nb);
        goto cleanup;
    }
    for (int k = 0; k < m.nb; k++)
        mb_make_body(&m, r, k);
    for (int a = 0; a < m.nc; a++)
        mb_make_contact(&m, r, a);
    rc = mb_index(&m);
    if (rc != CB_OK) {
        rc = cb_fail(err, CB_ERR_NOMEM, "multibody: out of memory");
        goto cleanup;
    }
    rc = mb_assemble(&m, s->kind, out, err);
cleanup:
    mb_free(&m);
    return rc;
}

/* ------------------------------------------------------------------ SPD W, exact spectrum */

/* W ← H W H for the reflector H = I − τ v vᵀ (τ = 2/vᵀv, v zero before index k), W symmetric:
 * with t = τ W v and c = τ vᵀt, H W H = W − v wᵀ − w vᵀ, w = t − (c/2) v (exactly symmetric). */
static void reflect_both(int n, int k, const double *v, double *W, double *t)
{
    double vv = cb_dot(v + k, v + k, (size_t)(n - k)), tau = vv > 0 ? 2.0 / vv : 0.0, c = 0.0;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = k; j < n; j++)
            s += W[i + (size_t)j * n] * v[j];
        t[i] = tau * s;
    }
    for (int j = k; j < n; j++)
        c += v[j] * t[j];
    c *= tau;
    for (int i = k; i < n; i++)
        t[i] -= 0.5 * c * v[i];
    for (int j = 0; j < n; j++)
        for (int i = j < k ? k : 0; i < n; i++) /* v_i = v_j = 0 leaves W_ij alone */
            W[i + (size_t)j * n] -= v[i] * t[j] + t[i] * v[j];
}

/* W_g = Q diag(λ) Qᵀ (ng×ng into Wg) with Q = H_0 ⋯ H_{ng−2}, H_k the Householder reflector
 * that maps a Gaussian x ∈ R^{ng−k} (entries k..ng−1) onto the axis e_k: v = x + sign(x_k)‖x‖e_k
 * (Stewart 1980: Q is Haar-distributed up to column signs, which Q diag(λ) Qᵀ does not see).
 * Plain loops: the bits do not depend on BLAS. */
static int group_matrix(cb_rng *r, int ng, const double *lam, double *Wg)
{
    double *v = cb_calloc((size_t)ng, sizeof(double)), *t = cb_calloc((size_t)ng, sizeof(double));
    if (!v || !t) {
        free(v);
        free(t);
        return CB_ERR_NOMEM;
    }
    memset(Wg, 0, (size_t)ng * ng * sizeof(double));
    for (int j = 0; j < ng; j++)
        Wg[j + (size_t)j * ng] = lam[j];
    for (int k = ng - 2; k >= 0; k--) {
        for (int i = 0; i < ng; i++)
            v[i] = i < k ? 0.0 : cb_rng_normal(r);
        double nx = cb_nrm2(v + k, (size_t)(ng - k));
        v[k] += v[k] < 0 ? -nx : nx;
        reflect_both(ng, k, v, Wg, t);
    }
    free(v);
    free(t);
    return CB_OK;
}

/* Scatter a group's dense matrix into the BSR blocks of its (sorted) members. */
static void group_scatter(cb_problem *prob, const int *mem, int g, const double *Wg)
{
    int d = prob->d, ng = g * d;
    for (int i = 0; i < g; i++)
        for (int j = 0; j < g; j++) {
            double *blk = prob->bsr.val + (size_t)(prob->bsr.row_ptr[mem[i]] + j) * d * d;
            for (int c = 0; c < d; c++)
                for (int rr = 0; rr < d; rr++)
                    blk[rr + c * d] = Wg[(i * d + rr) + (size_t)(j * d + c) * ng];
        }
}

/* BSR pattern of the groups: contact perm[k] is in group k / g; each group is a dense clique. */
static int group_pattern(const int *perm, int nc, int g, cb_kind kind, cb_problem **out,
                         cb_error *err)
{
    long long nnzb = 0;
    for (int k0 = 0; k0 < nc; k0 += g) {
        long long sz = nc - k0 < g ? nc - k0 : g;
        nnzb += sz * sz;
    }
    if (nnzb > INT_MAX)
        return cb_fail(err, CB_ERR_INPUT, "density: too many blocks (%lld)", nnzb);
    int rc = cb_problem_alloc(kind, nc, CB_STORAGE_BSR, (int)nnzb, out, err);
    if (rc != CB_OK)
        return rc;
    cb_bsr *B = &(*out)->bsr;
    for (int k0 = 0; k0 < nc; k0 += g) {
        int sz = nc - k0 < g ? nc - k0 : g;
        for (int i = 0; i < sz; i++)
            B->row_ptr[perm[k0 + i] + 1] = sz;
    }
    for (int a = 0; a < nc; a++)
        B->row_ptr[a + 1] += B->row_ptr[a];
    for (int k0 = 0; k0 < nc; k0 += g) {
        int sz = nc - k0 < g ? nc - k0 : g;
        for (int i = 0; i < sz; i++)
            for (int j = 0; j < sz; j++)
                B->col[B->row_ptr[perm[k0 + i]] + j] = perm[k0 + j];
    }
    return CB_OK;
}

/* Exact spectrum: contacts in random groups of g (coupled-pair fraction (g−1)/(nc−1) ≈ density),
 * W = P blockdiag(Q_g Λ_g Q_gᵀ) Pᵀ; spec(W) = the log-spaced list λ exactly (up to rounding). */
static int spd_groups(const cb_random_settings *s, cb_rng *r, int g, cb_problem **out,
                      cb_error *err)
{
    int nc = s->nc, d = cb_kind_dim(s->kind), n = nc * d, rc;
    int *perm = cb_calloc((size_t)nc, sizeof(int));
    double *lam = cb_calloc((size_t)n, sizeof(double));
    double *Wg = cb_calloc((size_t)g * d * g * d, sizeof(double));
    if (!perm || !lam || !Wg) {
        rc = cb_fail(err, CB_ERR_NOMEM, "spd: out of memory");
        goto cleanup;
    }
    for (int a = 0; a < nc; a++)
        perm[a] = a;
    shuffle_int(r, perm, nc);
    for (int k0 = 0; k0 < nc; k0 += g)
        qsort(perm + k0, (size_t)(nc - k0 < g ? nc - k0 : g), sizeof(int), cmp_int);
    fill_spectrum(r, n, s->cond, s->semidefinite, lam);
    rc = group_pattern(perm, nc, g, s->kind, out, err);
    for (int k0 = 0; rc == CB_OK && k0 < nc; k0 += g) {
        int sz = nc - k0 < g ? nc - k0 : g;
        rc = group_matrix(r, sz * d, lam + (size_t)k0 * d, Wg);
        if (rc != CB_OK)
            rc = cb_fail(err, rc, "spd: out of memory");
        else
            group_scatter(*out, perm + k0, sz, Wg);
    }
cleanup:
    free(perm);
    free(lam);
    free(Wg);
    return rc;
}

/* ------------------------------------------------------------------ SPD W, sparse with bound */

/* Next coupled column after b in an upper row (geometric skipping: each pair kept w.p. ρ). */
static long long next_col(cb_rng *r, long long b, double density)
{
    if (density >= 1.0)
        return b + 1;
    double u = 1.0 - cb_rng_uniform(r); /* (0, 1] */
    double skip = floor(cb_log(u) / cb_log1p(-density));
    return skip < 1e15 ? b + 1 + (long long)skip : (long long)1e15;
}

/* Random symmetric block pattern: diagonal blocks plus each pair (a < b) w.p. density. Two passes
 * over the same pattern stream (count, then fill in sorted order). */
static int sparse_pattern(const cb_random_settings *s, cb_rng *r, cb_problem **out, cb_error *err)
{
    int nc = s->nc;
    cb_rng start = *r, pr;
    int *cnt = cb_calloc((size_t)nc + 1, sizeof(int));
    if (!cnt)
        return cb_fail(err, CB_ERR_NOMEM, "spd: out of memory");
    long long nnzb = nc;
    pr = start;
    for (int a = 0; a < nc; a++)
        for (long long b = next_col(&pr, a, s->density); b < nc; b = next_col(&pr, b, s->density))
            cnt[a]++, cnt[b]++, nnzb += 2;
    int rc = nnzb > INT_MAX ? cb_fail(err, CB_ERR_INPUT, "density: too many blocks (%lld)", nnzb)
                            : cb_problem_alloc(s->kind, nc, CB_STORAGE_BSR, (int)nnzb, out, err);
    if (rc == CB_OK) {
        cb_bsr *B = &(*out)->bsr;
        for (int a = 0; a < nc; a++)
            B->row_ptr[a + 1] = B->row_ptr[a] + cnt[a] + 1;
        memcpy(cnt, B->row_ptr, (size_t)nc * sizeof(int)); /* cnt = fill positions */
        pr = start;
        for (int a = 0; a < nc; a++) {
            B->col[cnt[a]++] = a;
            for (long long b = next_col(&pr, a, s->density); b < nc;
                 b = next_col(&pr, b, s->density))
                B->col[cnt[a]++] = (int)b, B->col[cnt[b]++] = a;
        }
    }
    *r = pr;
    free(cnt);
    return rc;
}

/* E: random N(0,1) entries on the pattern (upper blocks, lower mirrored), zero scalar diagonal;
 * rs_i = Σ_j |E_ij| (scalar row sums). */
static int sparse_fill_E(cb_problem *prob, cb_rng *r, double *rs)
{
    cb_bsr *B = &prob->bsr;
    int d = prob->d;
    for (int a = 0; a < prob->nc; a++)
        for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
            double *blk = B->val + (size_t)k * d * d;
            if (B->col[k] < a)
                continue;
            for (int c = 0; c < d; c++)
                for (int i = 0; i < d; i++)
                    blk[i + c * d] = (B->col[k] == a && i >= c) ? 0.0 : cb_rng_normal(r);
            if (B->col[k] == a)
                for (int c = 0; c < d; c++)
                    for (int i = c + 1; i < d; i++)
                        blk[i + c * d] = blk[c + i * d];
        }
    if (cb_bsr_symmetrize(&prob->bsr, prob->d) != CB_OK)
        return CB_ERR_INTERNAL;
    for (int a = 0; a < prob->nc; a++)
        for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++)
            for (int c = 0; c < d; c++)
                for (int i = 0; i < d; i++)
                    rs[(size_t)a * d + i] += fabs(B->val[(size_t)k * d * d + i + c * d]);
    return CB_OK;
}

/* W_ij = √(D_i D_j)·δ E_ij / max(rs_i, rs_j), W_ii = D_i: W = D^½ (I + E') D^½ with E'
 * symmetric, zero diagonal and every absolute row sum ≤ δ, so ‖E'‖₂ ≤ δ (Gershgorin) and
 * GUARANTEED: spec(W) ⊂ [(1−δ) min D, (1+δ) max D] and, W_ii = D_i being Rayleigh quotients,
 * λ_max ≥ max D, λ_min ≤ min D. With D log-spaced in [1/cond, 1]: cond ≤ cond(W) ≤
 * cond·(1+δ)/(1−δ) = 2·cond for δ = 1/3. Semidefinite: D has exact zeros ⇒ W singular, PSD. */
static void sparse_scale(cb_problem *prob, const double *D, const double *rs)
{
    cb_bsr *B = &prob->bsr;
    int d = prob->d;
    for (int a = 0; a < prob->nc; a++)
        for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++)
            for (int c = 0; c < d; c++)
                for (int i = 0; i < d; i++) {
                    size_t gi = (size_t)a * d + i, gj = (size_t)B->col[k] * d + c;
                    double *w = B->val + (size_t)k * d * d + i + c * d;
                    double m = fmax(rs[gi], rs[gj]);
                    *w = gi == gj ? D[gi] : (m > 0 ? sqrt(D[gi] * D[gj]) * SPD_DELTA * *w / m : 0);
                }
}

/* Sparse SPD path (large groups): random block pattern with the asked density, W = D^½(I+E')D^½. */
static int spd_sparse(const cb_random_settings *s, cb_rng *r, cb_problem **out, cb_error *err)
{
    int n = s->nc * cb_kind_dim(s->kind);
    double *D = cb_calloc((size_t)n, sizeof(double)), *rs = cb_calloc((size_t)n, sizeof(double));
    int rc = CB_OK;
    if (!D || !rs) {
        rc = cb_fail(err, CB_ERR_NOMEM, "spd: out of memory");
        goto cleanup;
    }
    fill_spectrum(r, n, s->cond, s->semidefinite, D);
    rc = sparse_pattern(s, r, out, err);
    if (rc == CB_OK && sparse_fill_E(*out, r, rs) != CB_OK)
        rc = cb_fail(err, CB_ERR_INTERNAL, "spd: W pattern is not symmetric");
    if (rc == CB_OK)
        sparse_scale(*out, D, rs);
cleanup:
    free(D);
    free(rs);
    return rc;
}

/* Group size g = round(1 + density·(nc − 1)); exact path when g·d ≤ GROUP_DIM_MAX. */
static int spd_matrix(const cb_random_settings *s, cb_rng *r, cb_problem **out, cb_error *err)
{
    long g = lround(1.0 + s->density * (double)(s->nc - 1));
    g = g < 1 ? 1 : (g > s->nc ? s->nc : g);
    if (g * cb_kind_dim(s->kind) <= GROUP_DIM_MAX)
        return spd_groups(s, r, (int)g, out, err);
    return spd_sparse(s, r, out, err);
}

/* ------------------------------------------------------------------ the known solution */

typedef struct {
    int takeoff;   /* p = 0 */
    int apex;      /* take-off with y = 0 (degenerate) */
    int grazing;   /* take-off with u_N = 0 and moving blocks: ŷ on ∂K* (degenerate) */
    int moving;    /* bit i: block i slides/rolls/spins (saturated, opposed to its velocity) */
    int saturated; /* bit i: block i on its disk boundary without moving (degenerate) */
} mode_spec;

/* Modes of a kind with m blocks: take-off (regular, apex, grazing), every moving subset (0 =
 * stick), stick with every block saturated, and block 0 moving with the others saturated. */
static int mode_table(int m, mode_spec *t)
{
    int cnt = 0, all = (1 << m) - 1;
    t[cnt++] = (mode_spec){.takeoff = 1};
    t[cnt++] = (mode_spec){.takeoff = 1, .apex = 1};
    t[cnt++] = (mode_spec){.takeoff = 1, .grazing = 1};
    for (int mask = 0; mask <= all; mask++)
        t[cnt++] = (mode_spec){.moving = mask};
    t[cnt++] = (mode_spec){.saturated = all};
    if (m >= 2)
        t[cnt++] = (mode_spec){.moving = 1, .saturated = all & ~1};
    return cnt;
}

/* Random unit vector of size 1 (±1) or 2 (angle uniform). */
static void unit_dir(cb_rng *r, int size, double *u)
{
    if (size == 1) {
        u[0] = cb_rng_uniform(r) < 0.5 ? -1.0 : 1.0;
        return;
    }
    double th = cb_rng_range(r, 0, 2 * CB_PI);
    cb_sincos(th, &u[1], &u[0]);
}

/* Take-off: p = 0, y_N > 0 (0 when grazing) and random block velocities (none at the apex);
 * ŷ_N = y_N + Σ μ_i‖y_i‖ ≥ Σ μ_i‖y_i‖, so ŷ ∈ K* and ⟨ŷ, p⟩ = 0. */
static void takeoff_contact(const mode_spec *ms, const cb_disk_cone *c, cb_rng *r, double vs,
                            double *y)
{
    if (ms->apex)
        return;
    y[0] = ms->grazing ? 0.0 : vs * cb_rng_range(r, 0.2, 1.0);
    for (int i = 0, off = 1; i < c->nblocks; off += c->size[i], i++) {
        double u[2];
        unit_dir(r, c->size[i], u);
        double mag = vs * cb_rng_range(r, 0.2, 1.0);
        for (int k = 0; k < c->size[i]; k++)
            y[off + k] = mag * u[k];
    }
}

/* Closed contact: r_N ∈ [0.5, 2], y_N = 0; moving block: y_i = s u, x_i = −μ_i r_N u; saturated:
 * x_i = μ_i r_N u, y_i = 0; else x_i = μ_i r_N ρ u, ρ ∈ [0, 0.9), y_i = 0. Then ŷ_N = Σ μ_i s_i
 * and ⟨ŷ, p⟩ = r_N Σ μ_i s_i − Σ μ_i r_N s_i = 0. */
static void contact_solution(const mode_spec *ms, const cb_disk_cone *c, cb_rng *r, double vs,
                             double *p, double *y)
{
    double rn = cb_rng_range(r, 0.5, 2.0);
    p[0] = rn;
    y[0] = 0.0;
    for (int i = 0, off = 1; i < c->nblocks; off += c->size[i], i++) {
        double u[2], rad = c->mu[i] * rn, vel = 0.0;
        unit_dir(r, c->size[i], u);
        if (ms->moving & (1 << i)) {
            vel = vs * cb_rng_range(r, 0.2, 1.0);
            rad = -rad;
        } else if (!(ms->saturated & (1 << i))) {
            rad *= cb_rng_range(r, 0.0, 0.9);
        }
        for (int k = 0; k < c->size[i]; k++) {
            p[off + k] = rad * u[k];
            y[off + k] = vel * u[k];
        }
    }
}

/* Velocity scale: mean of the diagonal of W (the response to a unit force), 1 if degenerate. */
static double velocity_scale(const cb_problem *prob)
{
    double s = 0, blk[CB_MAX_DIM * CB_MAX_DIM];
    for (int a = 0; a < prob->nc; a++) {
        cb_problem_diag_block(prob, a, blk);
        for (int i = 0; i < prob->d; i++)
            s += blk[i + i * prob->d];
    }
    s /= (double)prob->nc * prob->d;
    return isfinite(s) && s > 0 ? s : 1.0;
}

/* μ ~ U[mu_min, mu_max] for every kind, μ_r for rolling kinds, μ_s for rollspin3d (else 0). */
static void draw_friction(const cb_random_settings *s, cb_rng *r, cb_problem *prob)
{
    int m = cb_kind_nblocks(s->kind);
    for (int a = 0; a < prob->nc; a++) {
        prob->mu[a] = cb_rng_range(r, s->mu_min, s->mu_max);
        prob->mu_r[a] = m >= 2 ? cb_rng_range(r, s->mur_min, s->mur_max) : 0.0;
        prob->mu_s[a] = m >= 3 ? cb_rng_range(r, s->mus_min, s->mus_max) : 0.0;
    }
}

/* Modes: contact a < #modes gets mode a (every mode appears once nc ≥ #modes), the others a
 * random one; then shuffled. Builds p*, y* contact by contact. */
static int make_solution(cb_rng *r, const cb_problem *prob, double *p, double *y)
{
    mode_spec table[MAX_MODES];
    int nm = mode_table(cb_kind_nblocks(prob->kind), table), d = prob->d;
    int *assign = cb_calloc((size_t)prob->nc, sizeof(int));
    if (!assign)
        return CB_ERR_NOMEM;
    for (int a = 0; a < prob->nc; a++)
        assign[a] = a < nm ? a : (int)cb_rng_below(r, (uint64_t)nm);
    shuffle_int(r, assign, prob->nc);
    double vs = velocity_scale(prob);
    for (int a = 0; a < prob->nc; a++) {
        cb_friction f;
        cb_disk_cone c;
        cb_problem_friction(prob, a, &f);
        cb_disk_cone_of(prob->kind, &f, &c);
        const mode_spec *ms = &table[assign[a]];
        if (ms->takeoff)
            takeoff_contact(ms, &c, r, vs, y + (size_t)a * d);
        else
            contact_solution(ms, &c, r, vs, p + (size_t)a * d, y + (size_t)a * d);
    }
    free(assign);
    return CB_OK;
}

/* q = y* − W p*, with the same W·p kernel the judge uses on this storage. */
static int make_q(cb_problem *prob, const double *p, const double *y)
{
    size_t n = cb_problem_n(prob);
    double *w = cb_calloc(n, sizeof(double));
    if (!w)
        return CB_ERR_NOMEM;
    cb_problem_Wp(prob, p, w);
    for (size_t i = 0; i < n; i++)
        prob->q[i] = y[i] - w[i];
    free(w);
    return CB_OK;
}

/* ------------------------------------------------------------------ provenance */

/* Shortest of %.15g/%.16g/%.17g that reads back exactly. */
static void fmt_num(char *buf, size_t len, double x)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return;
    }
}

static int set_provenance(const cb_random_settings *s, cb_problem *prob)
{
    char cond[32], dens[32], m0[32], m1[32], r0[32], r1[32], s0[32], s1[32], params[512],
        name[128];
    fmt_num(cond, sizeof cond, s->cond);
    fmt_num(dens, sizeof dens, s->density);
    fmt_num(m0, sizeof m0, s->mu_min), fmt_num(m1, sizeof m1, s->mu_max);
    fmt_num(r0, sizeof r0, s->mur_min), fmt_num(r1, sizeof r1, s->mur_max);
    fmt_num(s0, sizeof s0, s->mus_min), fmt_num(s1, sizeof s1, s->mus_max);
    const char *mat = s->matrix == CB_GEN_SPD ? "spd" : "multibody";
    snprintf(params, sizeof params,
             "kind=%s nc=%d matrix=%s cond=%s density=%s semidefinite=%d bodies=%d mu=%s:%s "
             "mur=%s:%s mus=%s:%s storage=%s seed=%llu",
             cb_kind_name(s->kind), s->nc, mat, cond, dens, s->semidefinite ? 1 : 0, s->bodies,
             m0, m1, r0, r1, s0, s1, cb_storage_name(s->storage), (unsigned long long)s->seed);
    snprintf(name, sizeof name, "random-%s-%s-nc%d-s%llu", cb_kind_name(s->kind), mat, s->nc,
             (unsigned long long)s->seed);
    if (cb_problem_set_name(prob, name) != CB_OK)
        return CB_ERR_NOMEM;
    return cb_problem_set_provenance(prob, NULL, "random", params, s->seed);
}

/* ------------------------------------------------------------------ driver */

/* Convert *bsr to the requested storage (frees the BSR copy when converted). */
static int to_storage(cb_storage st, cb_problem **prob, cb_error *err)
{
    if (st == CB_STORAGE_BSR)
        return CB_OK;
    cb_problem *dense = NULL;
    int rc = cb_problem_to_dense(*prob, &dense, err);
    if (rc == CB_OK) {
        cb_problem_free(*prob);
        *prob = dense;
    }
    return rc;
}

int cb_generate_random(const cb_random_settings *s, cb_problem **out, double **p_star,
                       double **y_star, cb_error *err)
{
    cb_problem *prob = NULL;
    double *p = NULL, *y = NULL;
    if (!out)
        return cb_fail(err, CB_ERR_INPUT, "out: NULL");
    *out = NULL;
    if (p_star)
        *p_star = NULL;
    if (y_star)
        *y_star = NULL;
    int rc = validate(s, err);
    if (rc != CB_OK)
        return rc;
    cb_rng rng;
    cb_rng_seed(&rng, s->seed);
    rc = s->matrix == CB_GEN_SPD ? spd_matrix(s, &rng, &prob, err)
                                 : multibody_matrix(s, &rng, &prob, err);
    if (rc != CB_OK)
        goto cleanup;
    size_t n = cb_problem_n(prob);
    p = cb_calloc(n, sizeof(double));
    y = cb_calloc(n, sizeof(double));
    draw_friction(s, &rng, prob);
    if (!p || !y || make_solution(&rng, prob, p, y) != CB_OK) {
        rc = cb_fail(err, CB_ERR_NOMEM, "random: out of memory");
        goto cleanup;
    }
    rc = to_storage(s->storage, &prob, err);
    if (rc == CB_OK && (make_q(prob, p, y) != CB_OK || set_provenance(s, prob) != CB_OK))
        rc = cb_fail(err, CB_ERR_NOMEM, "random: out of memory");
    if (rc != CB_OK)
        goto cleanup;
    *out = prob;
    prob = NULL;
    if (p_star)
        *p_star = p, p = NULL;
    if (y_star)
        *y_star = y, y = NULL;
cleanup:
    cb_problem_free(prob);
    free(p);
    free(y);
    return rc;
}
