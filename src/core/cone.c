/* conebench — product-disk friction cones: kinds, projection, modified velocity, membership.
 *
 * K = { p = (r_N, x_1..x_m) : ‖x_i‖ ≤ μ_i r_N },  K* = { y : y_N ≥ Σ μ_i ‖y_i‖ },  K° = −K*.
 *
 * Projection of p̄ = (r̄, x̄_1..x̄_m) (Acary & Bourrier Prop. 5.2 generalised):
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
 * overflow); anything else is reported as CB_PROJ_NONFINITE with a NaN output, and so is the rare
 * projection of an input near DBL_MAX whose r_N exceeds DBL_MAX. When all breakpoints are sorted
 * the answer is backward stable, unlike a trial order that tests "both saturated" first: with
 * μ² ≫ 1 that test compares numbers equal to ~1e-16 and can accept a wrong set.
 *
 * cb_project runs a branch-free fast path per kind (see "Fast paths" below) on the common range
 * of inputs and the general routine on the rest; both give the same case label and agree to a few
 * ulps (the same r_N to the bit whenever they pick the same saturated set).
 */
#include "conebench/cone.h"
#include "cone_kernels.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* The fast paths use SSE2 (always there on x86-64) unless built with -DCB_CONE_NO_SIMD. */
#if defined(__SSE2__) && !defined(CB_CONE_NO_SIMD)
#define FAST_SIMD 1
#include <emmintrin.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#else
#define FAST_SIMD 0
#endif

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
/* Shared numerical helpers.                                                                   */

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

/* max(a, b), one maxsd (fmax is a libm call at -O2); b when a is NaN, a when b is NaN. */
static inline double max2(double a, double b)
{
    return a > b ? a : b;
}

/* ‖(a, b)‖: sqrt(a² + b²) when max(|a|, |b|) ∈ (2^-480, 2^500) or 0 — no overflow, and the
 * smaller square can only underflow when below 2^-62 of the larger, its loss then ≪ ε — else the
 * (much slower) hypot. */
static inline double norm_2(double a, double b)
{
    double m = max2(fabs(a), fabs(b));
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

/* Saturated set of case (3): sat[i] = 1 on the first consistent prefix of the blocks sorted by
 * decreasing t_i (the prefix root r_k = A_k/B_k stops before the next block when μ r_k ≥ n). */
static void saturated_set(const cb_disk_cone *c, const double *n, double r0, int *sat)
{
    int m = c->nblocks, ord[CB_MAX_BLOCKS];
    double t[CB_MAX_BLOCKS], A = r0, B = 1;
    for (int i = 0; i < m; i++) {
        t[i] = breakpoint(n[i], c->mu[i]);
        sat[i] = 0;
    }
    sort_desc(m, t, ord);
    for (int k = 0; k < m; k++) {
        int i = ord[k];
        A += c->mu[i] * n[i];
        B += c->mu[i] * c->mu[i];
        sat[i] = 1;
        if (k + 1 < m && stops(c->mu[ord[k + 1]], A / B, n[ord[k + 1]]))
            break;
    }
}

/* Case (3) on the scaled vector y (in place): r_N = (r̄ + Σ_S μ_i n_i)/(1 + Σ_S μ_i²), summed in
 * block order (so the sum depends on S only, as in the fast paths), then radial clipping on S. */
static void solve_general(const cb_disk_cone *c, const int *off, const double *n, double *y)
{
    int m = c->nblocks, sat[CB_MAX_BLOCKS];
    saturated_set(c, n, y[0], sat);
    double A = y[0], B = 1;
    for (int i = 0; i < m; i++) {
        A += sat[i] ? c->mu[i] * n[i] : 0;
        B += sat[i] ? c->mu[i] * c->mu[i] : 0;
    }
    double r = clamp_rn(A / B);
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
/* Fast paths, one per kind. They are straight-line and branch-free: on a mix of inside, polar and
 * boundary points the case is unpredictable, and a mispredicted branch (resolved only after a
 * square root) costs more than computing every answer. One predictable test first checks a
 * window in which they need none of the general routine's safeguards: finite input, μ_i ∈
 * [0, 2^200], for every block r̄² + ‖x̄_i‖² ≤ 2^200 (r̄² + |x̄_i| for size 1) and a largest entry
 * 0 or > 2^-400 (so that nothing overflows or underflows harmfully, norm_2 is sqrt(a² + b²), and
 * the general routine would not rescale: a vector whose blocks are all 0 is projected exactly
 * either way). Anything else goes to project_careful (the general routine).
 *
 * In the window they compute the same block norms and the same case tests as the general
 * routine, so the case label is identical. For case (3) they use, instead of sorting the
 * breakpoints, r_N = max_S r_S over the candidate sets S (r_S = (r̄ + Σ_S μ_i n_i)/(1 + Σ_S μ_i²),
 * summed in block order as in solve_general): every L_S(r) = r − r̄ − Σ_S μ_i (n_i − μ_i r) is
 * ≥ φ'(r)/2 and increasing, so r_S ≤ r_N, with equality for the saturated set. The root that the
 * general routine picks is therefore the largest candidate, and a different choice can only come
 * from two candidates within a few ulps of each other. Roots are compared, never the products of
 * a trial test (with μ² ≫ 1 those carry no information). Then x_i = k_i x̄_i with
 * k_i = min(1, μ_i r_N/n_i) (exactly 1 in the inside case), r_N = r̄ when inside, 0 when polar.
 *
 * Square roots and quotients share the divider, which bounds the throughput together with the
 * instruction count: paired operations are one SSE2 sqrtpd/divpd, which costs about as much as a
 * scalar one, and with SSE2 the two blocks of rolling2d/rolling3d are the two lanes of a register.
 * The scalar code below (used without SSE2, or with -DCB_CONE_NO_SIMD) computes the same
 * operations in the same order: both give the same bits. */

#define FAST_HI 0x1p200   /* window: μ_i and r̄² + ‖x̄_i‖² (r̄² + |x̄_i| for size 1) ≤ ... */
#define FAST_LO 0x1p-400  /* ... and each block's largest entry 0 or > ... */

/* The per-kind paths are written once for two sizes; make sure each is specialised (a call
 * with a run-time size keeps every size test and spills the state). */
#if defined(__GNUC__)
#define FAST_INLINE inline __attribute__((always_inline))
#define FAST_NOINLINE __attribute__((noinline))
#else
#define FAST_INLINE inline
#define FAST_NOINLINE
#endif

/* Branch-free primitives. Compilers turn `a < b ? a : b` on doubles into an unpredictable
 * branch when it lets them skip work, so min/max are the SSE2 instructions where available;
 * each computes exactly the same IEEE operation either way. */
#if FAST_SIMD
/* a < b ? a : b (minsd). */
static inline double bf_min(double a, double b)
{
    return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(a), _mm_set_sd(b)));
}

/* a > b ? a : b (maxsd). */
static inline double bf_max(double a, double b)
{
    return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(a), _mm_set_sd(b)));
}

/* (√a, √b) in one sqrtpd. */
static inline void bf_sqrt2(double a, double b, double *ra, double *rb)
{
    __m128d v = _mm_sqrt_pd(_mm_set_pd(b, a));
    *ra = _mm_cvtsd_f64(v);
    *rb = _mm_cvtsd_f64(_mm_unpackhi_pd(v, v));
}

/* (a/b, c/d) in one divpd. */
static inline void bf_div2(double a, double b, double c, double d, double *ab, double *cd)
{
    __m128d v = _mm_div_pd(_mm_set_pd(c, a), _mm_set_pd(d, b));
    *ab = _mm_cvtsd_f64(v);
    *cd = _mm_cvtsd_f64(_mm_unpackhi_pd(v, v));
}
#else
static inline double bf_min(double a, double b)
{
    return a < b ? a : b;
}

static inline double bf_max(double a, double b)
{
    return a > b ? a : b;
}

static inline void bf_sqrt2(double a, double b, double *ra, double *rb)
{
    *ra = sqrt(a);
    *rb = sqrt(b);
}

static inline void bf_div2(double a, double b, double c, double d, double *ab, double *cd)
{
    *ab = a / b;
    *cd = c / d;
}
#endif

/* c v for a flag c ∈ {0, 1} and a finite v: v or ±0, without a branch. */
static inline double flag_times(int c, double v)
{
    return (double)c * v;
}

/* Clip factor k = min(1, v) on S (also 0 for v < 0), exactly 1 off S (sat = 0). */
static inline double clip_k(int sat, double v)
{
    return bf_min(1, bf_max(v, (double)(sat ^ 1)));
}

/* Case label, inside first as in the general routine: 0, 1 or 2, by arithmetic. */
static inline cb_proj_case case_of(int inside, int zero)
{
    return (cb_proj_case)((inside ^ 1) * (2 - zero));
}

/* The general routine on the disk cone of `kind` (rescaling, hypot, non-finite reports); kept
 * out of line so that the fast paths need no stack frame. */
static FAST_NOINLINE cb_proj_case project_careful(cb_kind kind, const cb_friction *f,
                                                  const double *x, double *out)
{
    cb_disk_cone c;
    cb_disk_cone_of(kind, f, &c);
    return cb_project_disk_cone(&c, x, out);
}

/* The window for a block: hi = r̄² + a² + b² (or r̄² + |a|) ≤ 2^200 (false for NaN) and
 * lo = max(|a|, |b|) = 0 or > 2^-400 (so norm_2 is sqrt(a² + b²)). */
static inline int fast_window(double hi, double lo)
{
    return (hi <= FAST_HI) & ((lo > FAST_LO) | (lo <= 0));
}

/* The window for a coefficient: 0 ≤ μ ≤ 2^200 (false for NaN). */
static inline int fast_mu(double mu)
{
    return (mu >= 0) & (mu <= FAST_HI);
}

#if FAST_SIMD
/* Lanes (block 0, block 1) of an SSE2 register. */
typedef __m128d lanes;

_Static_assert(offsetof(cb_friction, mu_r) == offsetof(cb_friction, mu) + sizeof(double),
               "fast_two loads (mu, mu_r) as one pair");

/* (v_1, v_0). */
static inline lanes l_swap(lanes v)
{
    return _mm_shuffle_pd(v, v, 1);
}

/* (v_0, v_0) and (v_1, v_1). */
static inline lanes l_bcast0(lanes v)
{
    return _mm_unpacklo_pd(v, v);
}

static inline lanes l_bcast1(lanes v)
{
    return _mm_unpackhi_pd(v, v);
}

/* Case label from the lane-0 masks of the inside and polar tests: bits (inside, polar) = 00,
 * 10, 01, 11 → 2 (boundary), 0, 1, 0 (inside first, as in the general routine). */
static inline cb_proj_case case_label(lanes in, lanes zm)
{
    return (cb_proj_case)((0x12 >> (2 * _mm_movemask_pd(_mm_unpacklo_pd(in, zm)))) & 3);
}

/* Window test on lanes: hi ≤ 2^200 (false for NaN) and lo = ±0 or lo > lo_min (lo_min ≥ 0). */
static inline lanes l_window(lanes hi, lanes lo, lanes lo_min)
{
    return _mm_and_pd(_mm_cmple_pd(hi, _mm_set1_pd(FAST_HI)),
                      _mm_or_pd(_mm_cmpgt_pd(lo, lo_min), _mm_cmpeq_pd(lo, _mm_setzero_pd())));
}

/* One block of size d − 1 (coulomb2d, coulomb3d), in lane 0: (r_N, k) = (A, μ A)/(B, B n) with
 * A = r̄ + μ n, B = 1 + μ² off the inside case (A = r̄, B = 1, k = 1 inside) in one divpd. */
static FAST_INLINE cb_proj_case fast_one(int d, const cb_friction *f, const double *x, double *out)
{
    const lanes zero = _mm_setzero_pd(), one = _mm_set1_pd(1), sign = _mm_set1_pd(-0.0);
    lanes rv = _mm_load_sd(x), mu = _mm_load_sd(&f->mu);
    lanes v = d == 3 ? _mm_loadu_pd(x + 1) : _mm_load_sd(x + 1), a = _mm_andnot_pd(sign, v);
    lanes m = d == 3 ? _mm_max_sd(a, l_swap(a)) : a, vv = _mm_mul_pd(v, v);
    lanes q = d == 3 ? _mm_add_sd(vv, l_bcast1(vv)) : m; /* a_0² + a_1² (NaN if any is) */
    lanes hi = _mm_unpacklo_pd(_mm_add_sd(_mm_mul_sd(rv, rv), q), mu);
    lanes lo = _mm_unpacklo_pd(m, mu); /* lane 1: μ = 0 or μ > 0 */
    if (_mm_movemask_pd(l_window(hi, lo, _mm_set_pd(0, FAST_LO))) != 3)
        return project_careful(d == 3 ? CB_KIND_COULOMB3D : CB_KIND_COULOMB2D, f, x, out);
    lanes n = d == 3 ? _mm_sqrt_sd(q, q) : m, p = _mm_mul_sd(mu, n);
    lanes in = _mm_and_pd(_mm_cmple_sd(n, _mm_mul_sd(mu, rv)), _mm_cmple_sd(zero, rv));
    lanes zm = _mm_cmple_sd(p, _mm_xor_pd(rv, sign)); /* polar: then A ≤ 0, r_N⁺ = 0, k = 0 */
    lanes A = _mm_add_sd(rv, _mm_andnot_pd(in, p));
    lanes B = _mm_add_sd(one, _mm_andnot_pd(in, _mm_mul_sd(mu, mu)));
    lanes mm = _mm_max_sd(n, _mm_set1_pd(FAST_LO));
    lanes D = _mm_div_pd(_mm_mul_pd(l_bcast0(A), _mm_unpacklo_pd(one, mu)),
                         _mm_mul_pd(l_bcast0(B), _mm_unpacklo_pd(one, mm))); /* (r_N, μ r_N/n) */
    D = _mm_max_pd(D, _mm_and_pd(l_bcast0(in), _mm_set_pd(1, 0)));
    D = _mm_min_pd(D, _mm_set_pd(1, INFINITY)); /* (r_N⁺, k) */
    _mm_store_sd(out, D);
    if (d == 3)
        _mm_storeu_pd(out + 1, _mm_mul_pd(v, l_bcast1(D)));
    else
        _mm_store_sd(out + 1, _mm_mul_sd(v, l_bcast1(D)));
    return case_label(in, zm);
}

/* Two blocks (rolling2d: size bs = 1, rolling3d: 2), one per lane: r_N = the largest of the
 * candidate roots r̄, r_{0}, r_{1}, r_{01} ((r_{0}, r_{1}) in one divpd, r_{01} in one divsd),
 * clipped by a cap (r̄ inside, 0 polar, +∞ otherwise), and k_i = r_N (μ_i/m_i) with (μ_i/m_i) in
 * a third divpd that does not wait for r_N. */
static FAST_INLINE cb_proj_case fast_two(int bs, const cb_friction *f, const double *x, double *out)
{
    const lanes zero = _mm_setzero_pd(), one = _mm_set1_pd(1), sign = _mm_set1_pd(-0.0);
    lanes rv = _mm_set1_pd(x[0]), mu = _mm_loadu_pd(&f->mu); /* (μ, μ_r) */
    lanes v1 = _mm_loadu_pd(x + 1), v2 = bs == 2 ? _mm_loadu_pd(x + 3) : v1; /* no read past x */
    lanes u = _mm_unpacklo_pd(v1, v2), w = _mm_unpackhi_pd(v1, v2); /* (a_0, b_0), (a_1, b_1) */
    lanes m = bs == 2 ? _mm_max_pd(_mm_andnot_pd(sign, u), _mm_andnot_pd(sign, w))
                      : _mm_andnot_pd(sign, v1);
    lanes q = bs == 2 ? _mm_add_pd(_mm_mul_pd(u, u), _mm_mul_pd(w, w)) : m; /* NaN if any is */
    lanes hi = _mm_max_pd(mu, _mm_add_pd(_mm_mul_pd(rv, rv), q)); /* NaN if r̄² + q is */
    lanes ok = _mm_and_pd(l_window(hi, m, _mm_set1_pd(FAST_LO)), _mm_cmpge_pd(mu, zero));
    if (_mm_movemask_pd(ok) != 3)
        return project_careful(bs == 2 ? CB_KIND_ROLLING3D : CB_KIND_ROLLING2D, f, x, out);
    lanes n = bs == 2 ? _mm_sqrt_pd(q) : m, p = _mm_mul_pd(mu, n), q2 = _mm_mul_pd(mu, mu);
    lanes ps = l_swap(p), in = _mm_cmple_pd(n, _mm_mul_pd(mu, rv));
    in = _mm_and_pd(_mm_and_pd(in, l_swap(in)), _mm_cmpge_pd(rv, zero)); /* inside (both lanes) */
    lanes zm = _mm_cmpge_pd(_mm_xor_pd(rv, sign), _mm_add_pd(p, ps)); /* polar (both lanes) */
    lanes A = _mm_add_pd(rv, p), B = _mm_add_pd(one, q2);             /* sets {0}, {1} */
    lanes R1 = _mm_div_pd(A, B), R2 = _mm_div_sd(_mm_add_sd(A, ps), _mm_add_sd(B, l_swap(q2)));
    lanes z = _mm_div_pd(mu, _mm_max_pd(n, _mm_set1_pd(FAST_LO))); /* n ∈ {0} ∪ (2^-400, 2^101] */
    lanes cap = _mm_or_pd(_mm_and_pd(in, rv),
                          _mm_andnot_pd(in, _mm_andnot_pd(zm, _mm_set1_pd(INFINITY))));
    lanes r = _mm_max_pd(_mm_max_pd(R1, l_swap(R1)), _mm_max_pd(rv, zero)); /* r_{01} comes last */
    r = _mm_min_pd(_mm_max_pd(l_bcast0(R2), r), cap);         /* r_N⁺ (both lanes), r̄, or 0 */
    lanes k = _mm_min_pd(one, _mm_max_pd(_mm_mul_pd(r, z), _mm_and_pd(in, one))); /* 1 inside */
    _mm_store_sd(out, r);
    if (bs == 2) {
        _mm_storeu_pd(out + 1, _mm_mul_pd(v1, l_bcast0(k)));
        _mm_storeu_pd(out + 3, _mm_mul_pd(v2, l_bcast1(k)));
    } else {
        _mm_storeu_pd(out + 1, _mm_mul_pd(v1, k));
    }
    return case_label(in, zm);
}
#else
/* One block of size d − 1 (coulomb2d, coulomb3d): (r_N, k) = (A, μ A)/(B, B n) as above. */
static FAST_INLINE cb_proj_case fast_one(int d, const cb_friction *f, const double *x, double *out)
{
    double r0 = x[0], a0 = x[1], a1 = d == 3 ? x[2] : 0, mu = f->mu, r, v;
    double m = d == 3 ? bf_max(fabs(a0), fabs(a1)) : fabs(a0), q = a0 * a0 + a1 * a1;
    if (!(fast_window(r0 * r0 + (d == 3 ? q : m), m) & fast_mu(mu)))
        return project_careful(d == 3 ? CB_KIND_COULOMB3D : CB_KIND_COULOMB2D, f, x, out);
    double n = d == 3 ? sqrt(q) : m;
    int inside = (r0 >= 0) & (n <= mu * r0), zero = -r0 >= 0 + mu * n, sat = inside ^ 1;
    double A = r0 + flag_times(sat, mu * n), B = 1 + flag_times(sat, mu * mu);
    bf_div2(A, B, mu * A, B * bf_max(n, FAST_LO), &r, &v);
    double k = clip_k(sat, v); /* polar: A ≤ 0, r_N⁺ = 0, k = 0 */
    out[0] = bf_max(r, 0);
    out[1] = a0 * k;
    if (d == 3)
        out[2] = a1 * k;
    return case_of(inside, zero);
}

/* Two blocks (rolling2d: size bs = 1, rolling3d: 2): r_N = max(r̄, r_{0}, r_{1}, r_{01}),
 * k_i = r_N (μ_i/m_i). */
static FAST_INLINE cb_proj_case fast_two(int bs, const cb_friction *f, const double *x, double *out)
{
    double r0 = x[0], a0 = x[1], a1 = bs == 2 ? x[2] : 0, b0 = x[1 + bs], b1 = bs == 2 ? x[4] : 0;
    double mu0 = f->mu, mu1 = f->mu_r, ma = fabs(a0), mb = fabs(b0); /* NaN stays NaN */
    double qa = bs == 2 ? a0 * a0 + a1 * a1 : ma, qb = bs == 2 ? b0 * b0 + b1 * b1 : mb;
    ma = bs == 2 ? bf_max(ma, fabs(a1)) : ma;
    mb = bs == 2 ? bf_max(mb, fabs(b1)) : mb;
    if (!(fast_window(r0 * r0 + qa, ma) & fast_window(r0 * r0 + qb, mb) & fast_mu(mu0) &
          fast_mu(mu1)))
        return project_careful(bs == 2 ? CB_KIND_ROLLING3D : CB_KIND_ROLLING2D, f, x, out);
    double n0 = bs == 2 ? sqrt(qa) : ma, n1 = bs == 2 ? sqrt(qb) : mb;
    double p0 = mu0 * n0, p1 = mu1 * n1, q0 = mu0 * mu0, q1 = mu1 * mu1;
    int inside = (r0 >= 0) & (n0 <= mu0 * r0) & (n1 <= mu1 * r0), zero = -r0 >= p0 + p1;
    double r01 = ((r0 + p0) + p1) / ((1 + q0) + q1), z0, z1;
    bf_div2(mu0, bf_max(n0, FAST_LO), mu1, bf_max(n1, FAST_LO), &z0, &z1); /* μ_i/m_i */
    double r = bf_max(bf_max((r0 + p0) / (1 + q0), (r0 + p1) / (1 + q1)), bf_max(r01, r0));
    r = flag_times(inside, r0) + flag_times(inside ^ 1, flag_times(zero ^ 1, bf_max(r, 0)));
    double k0 = clip_k(inside ^ 1, r * z0);
    double k1 = clip_k(inside ^ 1, r * z1);
    out[0] = r;
    out[1] = a0 * k0;
    out[1 + bs] = b0 * k1;
    if (bs == 2) {
        out[2] = a1 * k0;
        out[4] = b1 * k1;
    }
    return case_of(inside, zero);
}
#endif

/* rollspin3d: blocks r_T (2), m_R (2), m_S (1): r_N = the largest of r̄ and the seven candidate
 * roots r_S, k_i = min(1, μ_i r_N/n_i) with the general routine's quotient (not on the bench's
 * path, so six divider instructions instead of a shared reciprocal's rounding). */
static FAST_INLINE cb_proj_case fast_rollspin3d(const cb_friction *f, const double *x, double *out)
{
    double r0 = x[0], mu0 = f->mu, mu1 = f->mu_r, mu2 = f->mu_s, rr = r0 * r0;
    double ma = bf_max(fabs(x[1]), fabs(x[2])), mb = bf_max(fabs(x[3]), fabs(x[4]));
    double n2 = fabs(x[5]), qa = x[1] * x[1] + x[2] * x[2], qb = x[3] * x[3] + x[4] * x[4], n0, n1;
    if (!(fast_window(rr + qa, ma) & fast_window(rr + qb, mb) & fast_window(rr + n2, n2) &
          fast_mu(mu0) & fast_mu(mu1) & fast_mu(mu2)))
        return project_careful(CB_KIND_ROLLSPIN3D, f, x, out);
    bf_sqrt2(qa, qb, &n0, &n1);
    double p0 = mu0 * n0, p1 = mu1 * n1, p2 = mu2 * n2;
    double q0 = mu0 * mu0, q1 = mu1 * mu1, q2 = mu2 * mu2;
    int inside = (r0 >= 0) & (n0 <= mu0 * r0) & (n1 <= mu1 * r0) & (n2 <= mu2 * r0);
    int zero = -r0 >= p0 + p1 + p2, sat = inside ^ 1; /* off the inside case S ≠ ∅ */
    double A0 = r0 + p0, B0 = 1 + q0, A1 = r0 + p1, B1 = 1 + q1, A01 = A0 + p1, B01 = B0 + q1;
    double t[7], k0, k1;
    bf_div2(A0, B0, A1, B1, &t[0], &t[1]);                     /* {0}, {1} */
    bf_div2(A01, B01, r0 + p2, 1 + q2, &t[2], &t[3]);          /* {0,1}, {2} */
    bf_div2(A0 + p2, B0 + q2, A1 + p2, B1 + q2, &t[4], &t[5]); /* {0,2}, {1,2} */
    t[6] = (A01 + p2) / (B01 + q2);                            /* {0,1,2} */
    double r = bf_max(bf_max(bf_max(t[0], t[1]), bf_max(t[2], t[3])),
                      bf_max(bf_max(t[4], t[5]), bf_max(t[6], r0)));
    r = flag_times(inside, r0) + flag_times(sat, flag_times(zero ^ 1, bf_max(r, 0)));
    bf_div2(mu0 * r, bf_max(n0, FAST_LO), mu1 * r, bf_max(n1, FAST_LO), &k0, &k1);
    double k2 = clip_k(sat, mu2 * r / bf_max(n2, FAST_LO));
    double y1 = x[1], y2 = x[2], y3 = x[3], y4 = x[4], y5 = x[5];
    k0 = clip_k(sat, k0);
    k1 = clip_k(sat, k1);
    out[0] = r;
    out[1] = y1 * k0;
    out[2] = y2 * k0;
    out[3] = y3 * k1;
    out[4] = y4 * k1;
    out[5] = y5 * k2;
    return case_of(inside, zero);
}

/* The fast path of `kind` (a constant after inlining: no dispatch left). */
static FAST_INLINE cb_proj_case fast_kind(cb_kind kind, const cb_friction *f, const double *x,
                                          double *out)
{
    switch (kind) {
    case CB_KIND_COULOMB2D:
        return fast_one(2, f, x, out);
    case CB_KIND_COULOMB3D:
        return fast_one(3, f, x, out);
    case CB_KIND_ROLLING2D:
        return fast_two(1, f, x, out);
    case CB_KIND_ROLLING3D:
        return fast_two(2, f, x, out);
    case CB_KIND_ROLLSPIN3D:
        return fast_rollspin3d(f, x, out);
    }
    return CB_PROJ_NONFINITE;
}

/* On x86-64 with GCC or Clang the fast paths are compiled a second time for AVX and chosen at run
 * time when the CPU and OS support it: the same SSE2 intrinsics, VEX-encoded (three-operand forms,
 * fewer register copies). AVX alone has no fused multiply-add, so every operation and its
 * rounding is the SSE2 path's: the bits do not depend on the CPU (test_cone compares the two). */
#if FAST_SIMD && defined(__x86_64__) && defined(__GNUC__)
#define FAST_AVX 1
#define AVX_PATH __attribute__((target("avx"), noinline))
#else
#define FAST_AVX 0
#endif

/* 1 when the AVX copies of the fast paths may run (a predictable test of a cached CPU flag). */
static inline int use_avx(void)
{
#if FAST_AVX
    return __builtin_cpu_supports("avx");
#else
    return 0;
#endif
}

#if FAST_AVX
/* The fast path of each kind, VEX-encoded; one function per kind so that none pays for another's
 * stack frame. */
static AVX_PATH cb_proj_case avx_coulomb2d(const cb_friction *f, const double *x, double *out)
{
    return fast_one(2, f, x, out);
}

static AVX_PATH cb_proj_case avx_coulomb3d(const cb_friction *f, const double *x, double *out)
{
    return fast_one(3, f, x, out);
}

static AVX_PATH cb_proj_case avx_rolling2d(const cb_friction *f, const double *x, double *out)
{
    return fast_two(1, f, x, out);
}

static AVX_PATH cb_proj_case avx_rolling3d(const cb_friction *f, const double *x, double *out)
{
    return fast_two(2, f, x, out);
}

static AVX_PATH cb_proj_case avx_rollspin3d(const cb_friction *f, const double *x, double *out)
{
    return fast_rollspin3d(f, x, out);
}

/* fast_kind on the AVX copies (a tail call after inlining). */
static FAST_INLINE cb_proj_case fast_kind_avx(cb_kind kind, const cb_friction *f, const double *x,
                                              double *out)
{
    switch (kind) {
    case CB_KIND_COULOMB2D:
        return avx_coulomb2d(f, x, out);
    case CB_KIND_COULOMB3D:
        return avx_coulomb3d(f, x, out);
    case CB_KIND_ROLLING2D:
        return avx_rolling2d(f, x, out);
    case CB_KIND_ROLLING3D:
        return avx_rolling3d(f, x, out);
    case CB_KIND_ROLLSPIN3D:
        return avx_rollspin3d(f, x, out);
    }
    return CB_PROJ_NONFINITE;
}
#else
#define fast_kind_avx fast_kind
#endif

/* 1 if cb_project's arguments are valid; else 0, with out NaN-filled when it can be. */
static inline int project_args_ok(cb_kind kind, const cb_friction *f, const double *x, double *out)
{
    if (!kind_ok(kind) || !out)
        return 0;
    if (!f || !x) {
        fill_nan(out, kind_dims[kind]);
        return 0;
    }
    return 1;
}

/* out = P_K(x) for the cone of `kind` on the SSE2 path (the same bits as cb_project). */
cb_proj_case cb_project_sse2(cb_kind kind, const cb_friction *f, const double *x, double *out)
{
    if (!project_args_ok(kind, f, x, out))
        return CB_PROJ_NONFINITE;
    return fast_kind(kind, f, x, out);
}

/* out = P_K(x) for the cone of `kind`: dispatch to the straight-line path of that kind. */
cb_proj_case cb_project(cb_kind kind, const cb_friction *f, const double *x, double *out)
{
    if (!project_args_ok(kind, f, x, out))
        return CB_PROJ_NONFINITE;
    if (use_avx())
        return fast_kind_avx(kind, f, x, out);
    return fast_kind(kind, f, x, out);
}

/* n projections of one kind (a constant after inlining); returns the count of non-finite ones. */
static FAST_INLINE long batch_kind(cb_kind kind, size_t n, const cb_friction *f, const double *x,
                                   double *out, cb_proj_case *cases)
{
    size_t d = (size_t)kind_dims[kind];
    long bad = 0;
    for (size_t i = 0; i < n; i++) {
        cb_proj_case c = fast_kind(kind, f + i, x + i * d, out + i * d);
        bad += c == CB_PROJ_NONFINITE;
        if (cases)
            cases[i] = c;
    }
    return bad;
}

/* batch_kind with the kind a constant: one specialised loop per kind. */
static FAST_INLINE long batch_any(cb_kind kind, size_t n, const cb_friction *f, const double *x,
                                  double *out, cb_proj_case *cases)
{
    switch (kind) {
    case CB_KIND_COULOMB2D:
        return batch_kind(CB_KIND_COULOMB2D, n, f, x, out, cases);
    case CB_KIND_COULOMB3D:
        return batch_kind(CB_KIND_COULOMB3D, n, f, x, out, cases);
    case CB_KIND_ROLLING2D:
        return batch_kind(CB_KIND_ROLLING2D, n, f, x, out, cases);
    case CB_KIND_ROLLING3D:
        return batch_kind(CB_KIND_ROLLING3D, n, f, x, out, cases);
    case CB_KIND_ROLLSPIN3D:
        return batch_kind(CB_KIND_ROLLSPIN3D, n, f, x, out, cases);
    }
    return -1;
}

#if FAST_AVX
/* Four contacts at once (cb_project_batch on coulomb3d and rolling3d): the lanes of a 256-bit
 * register hold contacts (0, 2, 1, 3) of a group, and each lane runs, in the same order, the
 * IEEE operations that fast_one / fast_two run for its contact (each of their SSE2 operations
 * is per lane or commutative), so the bits are cb_project's. A group with a contact outside the
 * fast window is projected one contact at a time. AVX alone: no FMA contraction. */
#define QUAD_INLINE static inline __attribute__((target("avx"), always_inline))

typedef __m256d quad;

/* first_j = p_j[0], second_j = p_j[1] for the four pointers, lanes in the order (0, 2, 1, 3). */
QUAD_INLINE void q_load2(const double *p0, const double *p1, const double *p2, const double *p3,
                         quad *first, quad *second)
{
    quad lo = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p0)), _mm_loadu_pd(p1), 1);
    quad hi = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p2)), _mm_loadu_pd(p3), 1);
    *first = _mm256_unpacklo_pd(lo, hi);
    *second = _mm256_unpackhi_pd(lo, hi);
}

/* p + j s for j = 0..3 of q_load2 (p_j[0] = first_j, p_j[1] = second_j): its inverse. */
QUAD_INLINE void q_store2(double *p, size_t s, quad first, quad second)
{
    quad lo = _mm256_unpacklo_pd(first, second), hi = _mm256_unpackhi_pd(first, second);
    _mm_storeu_pd(p, _mm256_castpd256_pd128(lo));
    _mm_storeu_pd(p + s, _mm256_extractf128_pd(lo, 1));
    _mm_storeu_pd(p + 2 * s, _mm256_castpd256_pd128(hi));
    _mm_storeu_pd(p + 3 * s, _mm256_extractf128_pd(hi, 1));
}

/* (μ_j, μ_r,j) of f[0..3]. */
QUAD_INLINE void q_load_mu(const cb_friction *f, quad *mu0, quad *mu1)
{
    q_load2(&f[0].mu, &f[1].mu, &f[2].mu, &f[3].mu, mu0, mu1);
}

/* Lane mask of l_window: hi ≤ 2^200 (false for NaN) and lo = ±0 or lo > lo_min. */
QUAD_INLINE quad q_window(quad hi, quad lo, quad lo_min)
{
    return _mm256_and_pd(_mm256_cmp_pd(hi, _mm256_set1_pd(FAST_HI), _CMP_LE_OS),
                         _mm256_or_pd(_mm256_cmp_pd(lo, lo_min, _CMP_GT_OS),
                                      _mm256_cmp_pd(lo, _mm256_setzero_pd(), _CMP_EQ_OQ)));
}

/* labels[j] = case_label of contact j from the lane masks of the inside and polar tests. */
QUAD_INLINE void q_labels(quad in, quad zm, cb_proj_case *labels)
{
    int mi = _mm256_movemask_pd(in), mz = _mm256_movemask_pd(zm);
    static const int contact[4] = {0, 2, 1, 3};
    for (int l = 0; l < 4; l++) {
        int bits = ((mi >> l) & 1) | (((mz >> l) & 1) << 1); /* (inside, polar) */
        labels[contact[l]] = (cb_proj_case)((0x12 >> (2 * bits)) & 3);
    }
}

/* fast_one(3, ...) on four consecutive contacts; 0 (nothing written) if one is outside the
 * window: (r_N, k) = (A/B, (A μ)/(B m)), A = r̄ + μ n, B = 1 + μ² off the inside case. */
QUAD_INLINE int q_coulomb3d(const cb_friction *f, const double *x, double *out, cb_proj_case *lab)
{
    const quad zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1), sign = _mm256_set1_pd(-0.0);
    quad rv, a0, a1, mu, mu_r;
    q_load2(x, x + 3, x + 6, x + 9, &rv, &a0);
    q_load2(x + 1, x + 4, x + 7, x + 10, &a0, &a1);
    q_load_mu(f, &mu, &mu_r);
    quad m = _mm256_max_pd(_mm256_andnot_pd(sign, a0), _mm256_andnot_pd(sign, a1));
    quad q = _mm256_add_pd(_mm256_mul_pd(a0, a0), _mm256_mul_pd(a1, a1));
    quad ok = _mm256_and_pd(q_window(_mm256_add_pd(_mm256_mul_pd(rv, rv), q), m,
                                     _mm256_set1_pd(FAST_LO)),
                            q_window(mu, mu, zero));
    if (_mm256_movemask_pd(ok) != 15)
        return 0;
    quad n = _mm256_sqrt_pd(q), p = _mm256_mul_pd(mu, n);
    quad in = _mm256_and_pd(_mm256_cmp_pd(n, _mm256_mul_pd(mu, rv), _CMP_LE_OS),
                            _mm256_cmp_pd(zero, rv, _CMP_LE_OS));
    quad zm = _mm256_cmp_pd(p, _mm256_xor_pd(rv, sign), _CMP_LE_OS);
    quad A = _mm256_add_pd(rv, _mm256_andnot_pd(in, p));
    quad B = _mm256_add_pd(one, _mm256_andnot_pd(in, _mm256_mul_pd(mu, mu)));
    quad mm = _mm256_max_pd(n, _mm256_set1_pd(FAST_LO));
    quad r = _mm256_div_pd(_mm256_mul_pd(A, one), _mm256_mul_pd(B, one));
    quad k = _mm256_div_pd(_mm256_mul_pd(A, mu), _mm256_mul_pd(B, mm));
    r = _mm256_min_pd(_mm256_max_pd(r, zero), _mm256_set1_pd(INFINITY));
    k = _mm256_min_pd(_mm256_max_pd(k, _mm256_and_pd(in, one)), one);
    q_store2(out, 3, r, _mm256_mul_pd(a0, k));
    q_store2(out + 1, 3, _mm256_mul_pd(a0, k), _mm256_mul_pd(a1, k));
    q_labels(in, zm, lab);
    return 1;
}

/* max|a|, |b| of a 2-vector block and its squared norm, in fast_two's operation order. */
QUAD_INLINE void q_block(quad a, quad b, quad *m, quad *q)
{
    const quad sign = _mm256_set1_pd(-0.0);
    *m = _mm256_max_pd(_mm256_andnot_pd(sign, a), _mm256_andnot_pd(sign, b));
    *q = _mm256_add_pd(_mm256_mul_pd(a, a), _mm256_mul_pd(b, b));
}

/* fast_two's window for one block: max(μ, r̄² + q) ≤ 2^200, m = 0 or > 2^-400, μ ≥ 0. */
QUAD_INLINE quad q_window_block(quad rr, quad mu, quad m, quad q)
{
    quad hi = _mm256_max_pd(mu, _mm256_add_pd(rr, q));
    return _mm256_and_pd(q_window(hi, m, _mm256_set1_pd(FAST_LO)),
                         _mm256_cmp_pd(mu, _mm256_setzero_pd(), _CMP_GE_OS));
}

/* r_N of fast_two from its candidate roots: min(max(r_{01}, max(max(R, R'), max(r̄, 0))), cap)
 * (R, R' = r_{0}, r_{1} in the block's own lane order). */
QUAD_INLINE quad q_root(quad R, quad Rs, quad R2, quad base, quad cap)
{
    return _mm256_min_pd(_mm256_max_pd(R2, _mm256_max_pd(_mm256_max_pd(R, Rs), base)), cap);
}

/* fast_two(2, ...) on four consecutive contacts; 0 (nothing written) if one is outside the
 * window: r_N = the largest of r̄, r_{0}, r_{1}, r_{01} capped, k_i = min(1, r_N (μ_i/m_i)). */
QUAD_INLINE int q_rolling3d(const cb_friction *f, const double *x, double *out, cb_proj_case *lab)
{
    const quad zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1), sign = _mm256_set1_pd(-0.0);
    quad rv, a0, a1, b0, b1, mu0, mu1, ma, mb, qa, qb;
    q_load2(x, x + 5, x + 10, x + 15, &rv, &a0);
    q_load2(x + 2, x + 7, x + 12, x + 17, &a1, &b0);
    q_load2(x + 3, x + 8, x + 13, x + 18, &b0, &b1);
    q_load_mu(f, &mu0, &mu1);
    q_block(a0, a1, &ma, &qa);
    q_block(b0, b1, &mb, &qb);
    quad rr = _mm256_mul_pd(rv, rv);
    quad ok = _mm256_and_pd(q_window_block(rr, mu0, ma, qa), q_window_block(rr, mu1, mb, qb));
    if (_mm256_movemask_pd(ok) != 15)
        return 0;
    quad n0 = _mm256_sqrt_pd(qa), n1 = _mm256_sqrt_pd(qb);
    quad p0 = _mm256_mul_pd(mu0, n0), p1 = _mm256_mul_pd(mu1, n1);
    quad s0 = _mm256_mul_pd(mu0, mu0), s1 = _mm256_mul_pd(mu1, mu1);
    quad in = _mm256_and_pd(_mm256_cmp_pd(n0, _mm256_mul_pd(mu0, rv), _CMP_LE_OS),
                            _mm256_cmp_pd(n1, _mm256_mul_pd(mu1, rv), _CMP_LE_OS));
    in = _mm256_and_pd(in, _mm256_cmp_pd(rv, zero, _CMP_GE_OS));
    quad zm = _mm256_cmp_pd(_mm256_xor_pd(rv, sign), _mm256_add_pd(p0, p1), _CMP_GE_OS);
    quad A0 = _mm256_add_pd(rv, p0), B0 = _mm256_add_pd(one, s0);
    quad R0 = _mm256_div_pd(A0, B0);
    quad R1 = _mm256_div_pd(_mm256_add_pd(rv, p1), _mm256_add_pd(one, s1));
    quad R2 = _mm256_div_pd(_mm256_add_pd(A0, p1), _mm256_add_pd(B0, s1));
    quad z0 = _mm256_div_pd(mu0, _mm256_max_pd(n0, _mm256_set1_pd(FAST_LO)));
    quad z1 = _mm256_div_pd(mu1, _mm256_max_pd(n1, _mm256_set1_pd(FAST_LO)));
    quad cap = _mm256_or_pd(_mm256_and_pd(in, rv),
                            _mm256_andnot_pd(in, _mm256_andnot_pd(zm, _mm256_set1_pd(INFINITY))));
    quad base = _mm256_max_pd(rv, zero), one_in = _mm256_and_pd(in, one);
    quad r0 = q_root(R0, R1, R2, base, cap), r1 = q_root(R1, R0, R2, base, cap);
    quad k0 = _mm256_min_pd(one, _mm256_max_pd(_mm256_mul_pd(r0, z0), one_in));
    quad k1 = _mm256_min_pd(one, _mm256_max_pd(_mm256_mul_pd(r1, z1), one_in));
    quad y1 = _mm256_mul_pd(a0, k0), y3 = _mm256_mul_pd(b0, k1);
    q_store2(out, 5, r0, y1);
    q_store2(out + 2, 5, _mm256_mul_pd(a1, k0), y3);
    q_store2(out + 3, 5, y3, _mm256_mul_pd(b1, k1));
    q_labels(in, zm, lab);
    return 1;
}

/* batch_kind on coulomb3d (d = 3) or rolling3d (d = 5), four contacts at a time. */
QUAD_INLINE long batch_quad(cb_kind kind, size_t n, const cb_friction *f, const double *x,
                            double *out, cb_proj_case *cases)
{
    size_t d = (size_t)kind_dims[kind], i = 0;
    long bad = 0;
    for (; i + 4 <= n; i += 4) {
        cb_proj_case lab[4];
        int done = kind == CB_KIND_ROLLING3D ? q_rolling3d(f + i, x + i * d, out + i * d, lab)
                                             : q_coulomb3d(f + i, x + i * d, out + i * d, lab);
        if (!done)
            bad += batch_kind(kind, 4, f + i, x + i * d, out + i * d, cases ? cases + i : NULL);
        else if (cases)
            memcpy(cases + i, lab, sizeof lab);
    }
    if (i == n) /* nothing left (n = 0 allows NULL arrays: no offset on them) */
        return bad;
    return bad + batch_kind(kind, n - i, f + i, x + i * d, out + i * d, cases ? cases + i : NULL);
}

/* batch_any, VEX-encoded, coulomb3d and rolling3d four contacts at a time. */
static AVX_PATH long batch_any_avx(cb_kind kind, size_t n, const cb_friction *f, const double *x,
                                   double *out, cb_proj_case *cases)
{
    if (kind == CB_KIND_ROLLING3D)
        return batch_quad(CB_KIND_ROLLING3D, n, f, x, out, cases);
    if (kind == CB_KIND_COULOMB3D)
        return batch_quad(CB_KIND_COULOMB3D, n, f, x, out, cases);
    return batch_any(kind, n, f, x, out, cases);
}
#else
#define batch_any_avx batch_any
#endif

/* out_i = P_K(x_i) for n consecutive vectors. */
long cb_project_batch(cb_kind kind, size_t n, const cb_friction *f, const double *x, double *out,
                      cb_proj_case *cases)
{
    if (!kind_ok(kind) || (n > 0 && (!f || !x || !out)))
        return -1;
    if (use_avx())
        return batch_any_avx(kind, n, f, x, out, cases);
    return batch_any(kind, n, f, x, out, cases);
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
