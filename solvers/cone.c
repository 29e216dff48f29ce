/* conebench — product-disk friction cones: kinds, projection, modified velocity, membership.
 *
 * K = { p = (r_N, x_1..x_m) : ‖x_i‖ ≤ μ_i r_N },  K* = { y : y_N ≥ Σ μ_i ‖y_i‖ },  K° = −K*.
 *
 * Projection of p̄ = (r̄, x̄_1..x̄_m) (SPEC §2.2, Acary & Bourrier Prop. 5.2 generalised):
 *   (1) p̄ ∈ K → p̄;  (2) −p̄ ∈ K* → 0;  (3) otherwise r_N > 0 and, with n_i = ‖x̄_i‖ and the
 *   breakpoints t_i = n_i/μ_i (t_i = +∞ when μ_i = 0), the saturated set is S = {i : t_i > r_N},
 *   r_N = (r̄ + Σ_S μ_i n_i)/(1 + Σ_S μ_i²), x_i = (μ_i r_N/n_i) x̄_i on S and x̄_i elsewhere.
 *   φ'(r)/2 = r − r̄ − Σ μ_i max(0, n_i − μ_i r) is concave piecewise linear and increasing, so
 *   with the t_i sorted in decreasing order, S is the first prefix S_k whose root r_k satisfies
 *   μ_{k+1} r_k ≥ n_{k+1} (i.e. r_k ≥ t_{k+1}): one pass after an O(m log m) sort.
 *
 * Numerics: the vector is rescaled by an exact power of two when max|x_j| is outside
 * [2^-500, 2^500] (P_K is positively homogeneous), block norms avoid overflow and harmful
 * underflow (norm_2), and coefficients must be finite with 0 ≤ μ ≤ 1e150 (μ² must not
 * overflow); anything else is reported as
 * CB_PROJ_NONFINITE with a NaN output, and so is the rare projection of an input near DBL_MAX whose
 * r_N exceeds DBL_MAX. The per-kind fast paths perform exactly the same floating-point operations
 * in the same order as the general routine, so both agree to the last bit. When all breakpoints
 * are sorted the answer is backward stable, unlike a trial order that tests "both saturated"
 * first: with μ² ≫ 1 that test compares numbers equal to ~1e-16 and can accept a wrong set.
 */
#include "conebench/cone.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#define MU_MAX 1e150         /* largest accepted coefficient: μ² and μ‖x‖ stay finite */
#define SCALE_HI 0x1p500     /* rescale when max|x_j| is above ... */
#define SCALE_LO 0x1p-500    /* ... or below these */
#define NORM_HI 0x1p500      /* norm_2: plain sqrt(a² + b²) below ... */
#define NORM_LO 0x1p-480     /* ... and above these */
#define NO_SCALE INT_MIN     /* load_scaled: the input is not finite */
#define GEN_MAX_DIM (1 + 2 * CB_MAX_BLOCKS)

static const char *const kind_names[CB_KIND_COUNT] = {"coulomb2d", "coulomb3d", "rolling2d",
                                                      "rolling3d", "rollspin3d"};
static const int kind_dims[CB_KIND_COUNT] = {2, 3, 3, 5, 6};
static const int kind_blocks[CB_KIND_COUNT] = {1, 1, 2, 2, 3};
static const int kind_sizes[CB_KIND_COUNT][3] = {{1, 0, 0}, {2, 0, 0}, {1, 1, 0}, {2, 2, 0},
                                                 {2, 2, 1}};

static int kind_ok(cb_kind kind)
{
    return (int)kind >= 0 && (int)kind < CB_KIND_COUNT;
}

int cb_kind_dim(cb_kind kind)
{
    return kind_ok(kind) ? kind_dims[kind] : 0;
}

int cb_kind_nblocks(cb_kind kind)
{
    return kind_ok(kind) ? kind_blocks[kind] : 0;
}

const char *cb_kind_name(cb_kind kind)
{
    return kind_ok(kind) ? kind_names[kind] : "invalid";
}

int cb_kind_parse(const char *name, cb_kind *out)
{
    if (!name)
        return CB_ERR_INPUT;
    for (int k = 0; k < CB_KIND_COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0) {
            if (out)
                *out = (cb_kind)k;
            return CB_OK;
        }
    return CB_ERR_INPUT;
}

/* The blocks of `kind` with coefficients (μ, μ_r, μ_s); an invalid kind gives nblocks = −1 and a
 * NULL f gives NaN coefficients (so that a projection reports CB_PROJ_NONFINITE). */
void cb_disk_cone_of(cb_kind kind, const cb_friction *f, cb_disk_cone *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!kind_ok(kind)) {
        out->nblocks = -1;
        return;
    }
    double mu[3] = {NAN, NAN, NAN};
    if (f) {
        mu[0] = f->mu;
        mu[1] = f->mu_r;
        mu[2] = f->mu_s;
    }
    out->nblocks = kind_blocks[kind];
    for (int i = 0; i < out->nblocks; i++) {
        out->size[i] = kind_sizes[kind][i];
        out->mu[i] = mu[i];
    }
}

/* 1 + Σ size_i, or 0 for a malformed description (nblocks ∉ [0, 8] or a size ∉ {1, 2}). */
int cb_disk_cone_dim(const cb_disk_cone *c)
{
    if (!c || c->nblocks < 0 || c->nblocks > CB_MAX_BLOCKS)
        return 0;
    int d = 1;
    for (int i = 0; i < c->nblocks; i++) {
        if (c->size[i] != 1 && c->size[i] != 2)
            return 0;
        d += c->size[i];
    }
    return d;
}

/* ------------------------------------------------------------------------------------------ */
/* Shared numerical helpers (identical operations in the fast paths and the general routine).  */

/* Valid coefficient: 0 ≤ μ ≤ MU_MAX (false for NaN). */
static inline int mu_ok(double mu)
{
    return mu >= 0 && mu <= MU_MAX;
}

/* out = (NaN, ..., NaN): the answer for a non-finite input or an invalid coefficient. */
static void fill_nan(double *out, int d)
{
    if (out)
        for (int j = 0; j < d; j++)
            out[j] = NAN;
}

/* out = x (out may alias x). */
static inline void copy_vec(const double *x, int d, double *out)
{
    if (out != x)
        memmove(out, x, (size_t)d * sizeof *out);
}

/* y = 2^k x with k chosen so that max|y_j| ∈ [1/2, 1) when max|x_j| ∉ [2^-500, 2^500], else k = 0;
 * returns k, or NO_SCALE if some x_j is not finite. */
static inline int load_scaled(const double *x, int d, double *y)
{
    double amax = 0;
    for (int j = 0; j < d; j++) {
        double a = fabs(x[j]);
        if (!(a <= DBL_MAX))
            return NO_SCALE;
        amax = a > amax ? a : amax;
        y[j] = x[j];
    }
    if (amax > SCALE_HI || (amax < SCALE_LO && amax > 0)) {
        int e;
        frexp(amax, &e);
        for (int j = 0; j < d; j++)
            y[j] = ldexp(y[j], -e);
        return -e;
    }
    return 0;
}

/* out = 2^-k p (undoing load_scaled); returns 0 (and NaN-fills out) if the projection of an input
 * near DBL_MAX is not representable. */
static inline int store_scaled(const double *p, int d, int k, double *out)
{
    if (k == 0) {
        copy_vec(p, d, out);
        return 1;
    }
    int ok = 1;
    for (int j = 0; j < d; j++) {
        out[j] = ldexp(p[j], -k);
        ok = ok && isfinite(out[j]);
    }
    if (!ok)
        fill_nan(out, d);
    return ok;
}

/* ‖(a, b)‖: sqrt(a² + b²) when max(|a|, |b|) ∈ (2^-480, 2^500) or 0 — no overflow, and the
 * smaller square can only underflow when below 2^-62 of the larger, its loss then ≪ ε — else the
 * (much slower) hypot. */
static inline double norm_2(double a, double b)
{
    double m = fmax(fabs(a), fabs(b));
    if (m < NORM_HI && (m > NORM_LO || m == 0))
        return sqrt(a * a + b * b);
    return hypot(a, b);
}

/* Breakpoint t = n/μ, +∞ when μ = 0 (a frictionless block is always saturated). */
static inline double breakpoint(double n, double mu)
{
    return mu > 0 ? n / mu : INFINITY;
}

/* Radial factor of a saturated block: μ r_N / n (0 when n = 0, which needs μ = 0). */
static inline double clip_factor(double mu, double r, double n)
{
    return n > 0 ? mu * r / n : 0.0;
}

/* The prefix stops before a block with t = n/μ ≤ r (μ r ≥ n); never before a μ = 0 block. */
static inline int stops(double mu, double r, double n)
{
    return mu > 0 && mu * r >= n;
}

/* r_N of case (3) is > 0 in exact arithmetic; rounding near −p̄ ∈ ∂K* may give ≤ 0: clamp. */
static inline double clamp_rn(double r)
{
    return r > 0 ? r : 0.0;
}

/* ------------------------------------------------------------------------------------------ */
/* Fast paths, one per kind.                                                                    */

/* One disk block of size 1 or 2: P onto {‖x‖ ≤ μ r}: r = (r̄ + μ n)/(1 + μ²), x = (μ r/n) x̄. */
static cb_proj_case proj_one(int d, double mu, const double *x, double *out)
{
    double y[3];
    int k = load_scaled(x, d, y);
    if (k == NO_SCALE || !mu_ok(mu)) {
        fill_nan(out, d);
        return CB_PROJ_NONFINITE;
    }
    double n = d == 2 ? fabs(y[1]) : norm_2(y[1], y[2]);
    if (y[0] >= 0 && n <= mu * y[0]) {
        copy_vec(x, d, out);
        return CB_PROJ_INSIDE;
    }
    if (-y[0] >= 0 + mu * n) {
        memset(out, 0, (size_t)d * sizeof *out);
        return CB_PROJ_ZERO;
    }
    double A = y[0] + mu * n, B = 1 + mu * mu;
    double r = clamp_rn(A / B), s = clip_factor(mu, r, n);
    y[0] = r;
    y[1] *= s;
    if (d == 3)
        y[2] *= s;
    return store_scaled(y, d, k, out) ? CB_PROJ_BOUNDARY : CB_PROJ_NONFINITE;
}

/* Two blocks: sort (t_0, t_1) decreasingly (stable), saturate the first, then the second iff
 * μ_b r_1 < n_b. Returns r_N ≥ 0 and the saturation flags. */
static inline double solve2(double r0, const double *mu, const double *n, int *sat)
{
    int a = breakpoint(n[0], mu[0]) >= breakpoint(n[1], mu[1]) ? 0 : 1, b = 1 - a;
    double A = r0 + mu[a] * n[a], B = 1 + mu[a] * mu[a], r = A / B;
    sat[a] = 1;
    sat[b] = 0;
    if (!stops(mu[b], r, n[b])) {
        A += mu[b] * n[b];
        B += mu[b] * mu[b];
        r = A / B;
        sat[b] = 1;
    }
    return clamp_rn(r);
}

/* rolling2d (size-1 blocks) and rolling3d (size-2 blocks): Prop. 5.2 with sorted breakpoints. */
static cb_proj_case proj_two(int bs, double mu0, double mu1, const double *x, double *out)
{
    int d = 1 + 2 * bs;
    double y[5], mu[2] = {mu0, mu1}, n[2];
    int sat[2], k = load_scaled(x, d, y);
    if (k == NO_SCALE || !mu_ok(mu0) || !mu_ok(mu1)) {
        fill_nan(out, d);
        return CB_PROJ_NONFINITE;
    }
    n[0] = bs == 1 ? fabs(y[1]) : norm_2(y[1], y[2]);
    n[1] = bs == 1 ? fabs(y[2]) : norm_2(y[3], y[4]);
    if (y[0] >= 0 && n[0] <= mu0 * y[0] && n[1] <= mu1 * y[0]) {
        copy_vec(x, d, out);
        return CB_PROJ_INSIDE;
    }
    if (-y[0] >= 0 + mu0 * n[0] + mu1 * n[1]) {
        memset(out, 0, (size_t)d * sizeof *out);
        return CB_PROJ_ZERO;
    }
    double r = solve2(y[0], mu, n, sat);
    y[0] = r;
    for (int i = 0; i < 2; i++) {
        if (!sat[i])
            continue;
        double s = clip_factor(mu[i], r, n[i]);
        y[1 + bs * i] *= s;
        if (bs == 2)
            y[2 + bs * i] *= s;
    }
    return store_scaled(y, d, k, out) ? CB_PROJ_BOUNDARY : CB_PROJ_NONFINITE;
}

/* Three blocks: stable decreasing sort of 3 breakpoints (bubble network), then prefixes S_1..S_3. */
static inline double solve3(double r0, const double *mu, const double *n, int *sat)
{
    double t[3] = {breakpoint(n[0], mu[0]), breakpoint(n[1], mu[1]), breakpoint(n[2], mu[2])};
    int o[3] = {0, 1, 2}, w;
    if (t[o[0]] < t[o[1]])
        w = o[0], o[0] = o[1], o[1] = w;
    if (t[o[1]] < t[o[2]])
        w = o[1], o[1] = o[2], o[2] = w;
    if (t[o[0]] < t[o[1]])
        w = o[0], o[0] = o[1], o[1] = w;
    double A = r0 + mu[o[0]] * n[o[0]], B = 1 + mu[o[0]] * mu[o[0]], r = A / B;
    sat[o[0]] = 1;
    sat[o[1]] = sat[o[2]] = 0;
    if (!stops(mu[o[1]], r, n[o[1]])) {
        A += mu[o[1]] * n[o[1]];
        B += mu[o[1]] * mu[o[1]];
        r = A / B;
        sat[o[1]] = 1;
        if (!stops(mu[o[2]], r, n[o[2]])) {
            A += mu[o[2]] * n[o[2]];
            B += mu[o[2]] * mu[o[2]];
            r = A / B;
            sat[o[2]] = 1;
        }
    }
    return clamp_rn(r);
}

/* rollspin3d: blocks r_T (2), m_R (2), m_S (1). */
static cb_proj_case proj_rollspin3d(const cb_friction *f, const double *x, double *out)
{
    double y[6], mu[3] = {f->mu, f->mu_r, f->mu_s}, n[3];
    int sat[3], k = load_scaled(x, 6, y);
    if (k == NO_SCALE || !mu_ok(mu[0]) || !mu_ok(mu[1]) || !mu_ok(mu[2])) {
        fill_nan(out, 6);
        return CB_PROJ_NONFINITE;
    }
    n[0] = norm_2(y[1], y[2]);
    n[1] = norm_2(y[3], y[4]);
    n[2] = fabs(y[5]);
    if (y[0] >= 0 && n[0] <= mu[0] * y[0] && n[1] <= mu[1] * y[0] && n[2] <= mu[2] * y[0]) {
        copy_vec(x, 6, out);
        return CB_PROJ_INSIDE;
    }
    if (-y[0] >= 0 + mu[0] * n[0] + mu[1] * n[1] + mu[2] * n[2]) {
        memset(out, 0, 6 * sizeof *out);
        return CB_PROJ_ZERO;
    }
    double r = solve3(y[0], mu, n, sat);
    y[0] = r;
    if (sat[0]) {
        double s = clip_factor(mu[0], r, n[0]);
        y[1] *= s;
        y[2] *= s;
    }
    if (sat[1]) {
        double s = clip_factor(mu[1], r, n[1]);
        y[3] *= s;
        y[4] *= s;
    }
    if (sat[2])
        y[5] *= clip_factor(mu[2], r, n[2]);
    return store_scaled(y, 6, k, out) ? CB_PROJ_BOUNDARY : CB_PROJ_NONFINITE;
}

/* out = P_K(x) for the cone of `kind`: dispatch to the straight-line path of that kind. */
cb_proj_case cb_project(cb_kind kind, const cb_friction *f, const double *x, double *out)
{
    if (!kind_ok(kind) || !out)
        return CB_PROJ_NONFINITE;
    if (!f || !x) {
        fill_nan(out, kind_dims[kind]);
        return CB_PROJ_NONFINITE;
    }
    switch (kind) {
    case CB_KIND_COULOMB2D:
        return proj_one(2, f->mu, x, out);
    case CB_KIND_COULOMB3D:
        return proj_one(3, f->mu, x, out);
    case CB_KIND_ROLLING2D:
        return proj_two(1, f->mu, f->mu_r, x, out);
    case CB_KIND_ROLLING3D:
        return proj_two(2, f->mu, f->mu_r, x, out);
    case CB_KIND_ROLLSPIN3D:
        return proj_rollspin3d(f, x, out);
    }
    return CB_PROJ_NONFINITE;
}

/* ------------------------------------------------------------------------------------------ */
/* General product-disk cone.                                                                  */

/* ord = indices 0..m−1 sorted by decreasing t, stable (bottom-up merge sort, O(m log m)). */
static void sort_desc(int m, const double *t, int *ord)
{
    int buf[CB_MAX_BLOCKS], *src = ord, *dst = buf;
    for (int i = 0; i < m; i++)
        ord[i] = i;
    for (int w = 1; w < m; w *= 2) {
        for (int lo = 0; lo < m; lo += 2 * w) {
            int mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
            int i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                dst[o++] = t[src[i]] >= t[src[j]] ? src[i++] : src[j++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
        }
        int *tmp = src;
        src = dst;
        dst = tmp;
    }
    if (src != ord)
        memcpy(ord, src, (size_t)m * sizeof *ord);
}

/* Case (3) on the scaled vector y (in place): r_N = root of φ' on the first consistent prefix. */
static void solve_general(const cb_disk_cone *c, const int *off, const double *n, double *y)
{
    int m = c->nblocks, ord[CB_MAX_BLOCKS], sat[CB_MAX_BLOCKS] = {0};
    double t[CB_MAX_BLOCKS], A = y[0], B = 1, r = 0;
    for (int i = 0; i < m; i++)
        t[i] = breakpoint(n[i], c->mu[i]);
    sort_desc(m, t, ord);
    for (int k = 0; k < m; k++) {
        int i = ord[k];
        A += c->mu[i] * n[i];
        B += c->mu[i] * c->mu[i];
        r = A / B;
        sat[i] = 1;
        if (k + 1 < m && stops(c->mu[ord[k + 1]], r, n[ord[k + 1]]))
            break;
    }
    r = clamp_rn(r);
    y[0] = r;
    for (int i = 0; i < m; i++) {
        if (!sat[i])
            continue;
        double s = clip_factor(c->mu[i], r, n[i]);
        for (int j = 0; j < c->size[i]; j++)
            y[off[i] + j] *= s;
    }
}

/* Cases (1)–(2) tests and case (3) on the scaled vector y, in place. */
static cb_proj_case project_scaled(const cb_disk_cone *c, double *y)
{
    int m = c->nblocks, off[CB_MAX_BLOCKS], inside = y[0] >= 0;
    double n[CB_MAX_BLOCKS], polar = 0;
    for (int i = 0, o = 1; i < m; o += c->size[i], i++) {
        off[i] = o;
        n[i] = c->size[i] == 1 ? fabs(y[o]) : norm_2(y[o], y[o + 1]);
        inside = inside && n[i] <= c->mu[i] * y[0];
        polar += c->mu[i] * n[i];
    }
    if (inside)
        return CB_PROJ_INSIDE;
    if (-y[0] >= polar)
        return CB_PROJ_ZERO;
    solve_general(c, off, n, y);
    return CB_PROJ_BOUNDARY;
}

/* out = P_K(x) for a general product-disk cone: validate, rescale, cases (1)–(3), scale back. */
cb_proj_case cb_project_disk_cone(const cb_disk_cone *c, const double *x, double *out)
{
    int d = cb_disk_cone_dim(c);
    if (d == 0 || !out)
        return CB_PROJ_NONFINITE;
    double y[GEN_MAX_DIM];
    int k = x ? load_scaled(x, d, y) : NO_SCALE;
    for (int i = 0; i < c->nblocks && k != NO_SCALE; i++)
        if (!mu_ok(c->mu[i]))
            k = NO_SCALE;
    if (k == NO_SCALE) {
        fill_nan(out, d);
        return CB_PROJ_NONFINITE;
    }
    cb_proj_case pc = project_scaled(c, y);
    if (pc == CB_PROJ_INSIDE)
        copy_vec(x, d, out);
    else if (pc == CB_PROJ_ZERO)
        memset(out, 0, (size_t)d * sizeof *out);
    else if (!store_scaled(y, d, k, out))
        return CB_PROJ_NONFINITE;
    return pc;
}

/* ------------------------------------------------------------------------------------------ */
/* Modified velocity and membership.                                                           */

/* Σ μ_i ‖y_i‖ over the blocks of c (a zero coefficient contributes 0 even if ‖y_i‖ overflows). */
static double weighted_norms(const cb_disk_cone *c, const double *y)
{
    double s = 0;
    for (int i = 0, o = 1; i < c->nblocks; o += c->size[i], i++) {
        double n = c->size[i] == 1 ? fabs(y[o]) : norm_2(y[o], y[o + 1]);
        if (c->mu[i] != 0)
            s += c->mu[i] * n;
    }
    return s;
}

/* 1 if every coefficient of c is valid (0 ≤ μ ≤ 1e150), else 0. */
static int coefs_ok(const cb_disk_cone *c)
{
    for (int i = 0; i < c->nblocks; i++)
        if (!mu_ok(c->mu[i]))
            return 0;
    return 1;
}

/* ŷ = y + [Σ μ_i ‖y_i‖, 0, ..., 0]  (eq. 32); NaN output for an invalid coefficient. */
void cb_modified_velocity(cb_kind kind, const cb_friction *f, const double *y, double *yhat)
{
    int d = cb_kind_dim(kind);
    if (d == 0 || !yhat)
        return;
    cb_disk_cone c;
    cb_disk_cone_of(kind, f, &c);
    if (!y || !coefs_ok(&c)) {
        fill_nan(yhat, d);
        return;
    }
    double g = weighted_norms(&c, y);
    copy_vec(y, d, yhat);
    yhat[0] += g;
}

/* 1 iff x is finite, r_N ≥ −tol and ‖x_i‖ ≤ μ_i r_N + tol for every block. */
int cb_in_cone(cb_kind kind, const cb_friction *f, const double *x, double tol)
{
    int d = cb_kind_dim(kind);
    cb_disk_cone c;
    cb_disk_cone_of(kind, f, &c);
    if (d == 0 || !x || !coefs_ok(&c) || !(tol >= 0))
        return 0;
    for (int j = 0; j < d; j++)
        if (!isfinite(x[j]))
            return 0;
    if (!(x[0] >= -tol))
        return 0;
    for (int i = 0, o = 1; i < c.nblocks; o += c.size[i], i++) {
        double n = c.size[i] == 1 ? fabs(x[o]) : norm_2(x[o], x[o + 1]);
        double cap = c.mu[i] != 0 ? c.mu[i] * x[0] : 0.0;
        if (!(n <= cap + tol))
            return 0;
    }
    return 1;
}

/* 1 iff y is finite and y_N + tol ≥ Σ μ_i ‖y_i‖. */
int cb_in_dual_cone(cb_kind kind, const cb_friction *f, const double *y, double tol)
{
    int d = cb_kind_dim(kind);
    cb_disk_cone c;
    cb_disk_cone_of(kind, f, &c);
    if (d == 0 || !y || !coefs_ok(&c) || !(tol >= 0))
        return 0;
    for (int j = 0; j < d; j++)
        if (!isfinite(y[j]))
            return 0;
    return y[0] + tol >= weighted_norms(&c, y);
}
