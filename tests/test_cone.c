/* conebench tests — cones (Acary & Bourrier §3): metadata, known projections, property tests on
 * millions of random and adversarial vectors per kind, an independent 1-D reference, non-finite
 * handling, extreme scales, and agreement with Siconos projectionOnCone / projectionOnRollingCone.
 *
 * Every metric is computed on copies rescaled by one exact power of two (P_K is positively
 * homogeneous), so scales 1e-300..1e300 never overflow the checks themselves. */
#include "test_support.h"

#include "conebench/cone.h"
#include "cone_kernels.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#if CB_HAVE_SICONOS
#include <projectionOnCone.h>
#include <projectionOnRollingCone.h>
#endif

#define EPS DBL_EPSILON
#define MAXD (1 + 2 * CB_MAX_BLOCKS)

/* ---------------------------------------------------------------------------------------- */
/* Test-local RNG (xoshiro256**, splitmix64 seeding): independent of the library's.          */

typedef struct {
    uint64_t s[4];
} trng;

static uint64_t rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static void trng_seed(trng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        r->s[i] = z ^ (z >> 31);
    }
}

static uint64_t trng_u64(trng *r)
{
    uint64_t *s = r->s, res = rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return res;
}

static double unif(trng *r)
{
    return (double)(trng_u64(r) >> 11) * 0x1p-53;
}

static int below(trng *r, int n)
{
    return (int)(trng_u64(r) % (uint64_t)n);
}

static double gauss(trng *r)
{
    double u1 = 1.0 - unif(r), u2 = unif(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* ---------------------------------------------------------------------------------------- */
/* Small vector helpers.                                                                     */

static double amax_of(const double *v, int d)
{
    double m = 0;
    for (int j = 0; j < d; j++)
        m = fmax(m, fabs(v[j]));
    return m;
}

/* 2-norm, overflow-safe. */
static double norm2(const double *v, int d)
{
    double m = amax_of(v, d), s = 0;
    if (m == 0 || !isfinite(m))
        return m;
    for (int j = 0; j < d; j++)
        s += (v[j] / m) * (v[j] / m);
    return m * sqrt(s);
}

/* Exponent e with 2^-e·m in [1/2, 1) (0 for m = 0). */
static int expo(double m)
{
    int e = 0;
    if (m > 0)
        frexp(m, &e);
    return e;
}

static void scale_copy(const double *v, int d, int e, double *out)
{
    for (int j = 0; j < d; j++)
        out[j] = ldexp(v[j], -e);
}

/* max_j |a_j − b_j|. */
static double maxdiff(const double *a, const double *b, int d)
{
    double m = 0;
    for (int j = 0; j < d; j++)
        m = fmax(m, fabs(a[j] - b[j]));
    return m;
}

static double block_norm(const cb_disk_cone *c, const double *v, int i, int off)
{
    return c->size[i] == 1 ? fabs(v[off]) : hypot(v[off], v[off + 1]);
}

/* Σ μ_i ‖v_i‖. */
static double wnorms(const cb_disk_cone *c, const double *v)
{
    double s = 0;
    for (int i = 0, o = 1; i < c->nblocks; o += c->size[i], i++)
        s += c->mu[i] * block_norm(c, v, i, o);
    return s;
}

/* max(−v_N, max_i (‖v_i‖ − μ_i v_N)) ⁺: how far v is from K. */
static double cone_violation(const cb_disk_cone *c, const double *v)
{
    double viol = fmax(0, -v[0]);
    for (int i = 0, o = 1; i < c->nblocks; o += c->size[i], i++)
        viol = fmax(viol, block_norm(c, v, i, o) - c->mu[i] * v[0]);
    return viol;
}

static int all_nan(const double *v, int d)
{
    for (int j = 0; j < d; j++)
        if (!isnan(v[j]))
            return 0;
    return 1;
}

static void set_friction(cb_friction *f, const double *mu, int m)
{
    f->mu = m > 0 ? mu[0] : 0;
    f->mu_r = m > 1 ? mu[1] : 0;
    f->mu_s = m > 2 ? mu[2] : 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Independent reference: r = argmin_{r ≥ 0} φ(r) = (r − r̄)² + Σ max(0, n_i − μ_i r)²,       */
/* evaluated in long double: φ'/2 is bracketed by bisection on the bit patterns of double r    */
/* (≤ 64 steps, any scale), then refined by one secant step inside the bracket; blocks are     */
/* radially clipped. It uses none of the closed form (no breakpoints, no case analysis, no     */
/* sorting) and carries more precision than the code under test (except under valgrind, which */
/* emulates long double as double).                                                            */

typedef long double ld;

static ld dphi(const cb_disk_cone *c, const ld *n, ld rb, ld r)
{
    ld g = r - rb;
    for (int i = 0; i < c->nblocks; i++) {
        ld e = n[i] - (ld)c->mu[i] * r;
        if (e > 0)
            g -= (ld)c->mu[i] * e;
    }
    return g;
}

static double from_bits(uint64_t b)
{
    double r;
    memcpy(&r, &b, sizeof r);
    return r;
}

static uint64_t to_bits(double r)
{
    uint64_t b;
    memcpy(&b, &r, sizeof b);
    return b;
}

static ld root_dphi(const cb_disk_cone *c, const ld *n, ld rb)
{
    if (dphi(c, n, rb, 0) >= 0)
        return 0;
    ld hi = rb > 0 ? rb : 0;
    for (int i = 0; i < c->nblocks; i++)
        hi += (ld)c->mu[i] * n[i];
    double h = (double)hi;
    for (int k = 0; k < 64 && dphi(c, n, rb, h) < 0; k++)
        h = 2 * h + DBL_MIN;
    uint64_t lo = 0, up = to_bits(h);
    while (up - lo > 1) {
        uint64_t mid = lo + (up - lo) / 2;
        if (dphi(c, n, rb, from_bits(mid)) >= 0)
            up = mid;
        else
            lo = mid;
    }
    ld rl = from_bits(lo), ru = from_bits(up), gl = dphi(c, n, rb, rl), gu = dphi(c, n, rb, ru);
    return gu > gl ? rl - gl * (ru - rl) / (gu - gl) : ru;
}

static void ref_project(const cb_disk_cone *c, const double *x, double *p)
{
    int d = cb_disk_cone_dim(c), e = expo(amax_of(x, d));
    double y[MAXD];
    ld n[CB_MAX_BLOCKS];
    scale_copy(x, d, e, y);
    for (int i = 0, o = 1; i < c->nblocks; o += c->size[i], i++)
        n[i] = c->size[i] == 1 ? fabsl(y[o]) : sqrtl((ld)y[o] * y[o] + (ld)y[o + 1] * y[o + 1]);
    ld r = root_dphi(c, n, y[0]);
    p[0] = ldexp((double)r, e);
    for (int i = 0, o = 1; i < c->nblocks; o += c->size[i], i++)
        for (int j = 0; j < c->size[i]; j++) {
            ld v = n[i] > (ld)c->mu[i] * r ? y[o + j] * ((ld)c->mu[i] * r / n[i]) : (ld)y[o + j];
            p[o + j] = ldexp((double)v, e);
        }
}

/* ---------------------------------------------------------------------------------------- */
/* Random and adversarial generators.                                                         */

static double pick_mu(trng *r, int allow_zero)
{
    for (;;) {
        double mu;
        switch (below(r, 8)) {
        case 0: mu = 0; break;
        case 1: mu = 1e-8; break;
        case 2: mu = 0.3; break;
        case 3: mu = 1; break;
        case 4: mu = 1e8; break;
        case 5: mu = pow(10, -4 + 8 * unif(r)); break;
        case 6: mu = 2 * unif(r); break;
        default: mu = pow(10, -8 + 16 * unif(r)); break;
        }
        if (mu > 0 || allow_zero)
            return mu;
    }
}

/* A random direction of dimension k (1 or 2) and length len. */
static void rand_dir(trng *r, int k, double len, double *v)
{
    if (k == 1) {
        v[0] = below(r, 2) ? len : -len;
        return;
    }
    double a = 6.283185307179586 * unif(r);
    v[0] = len * cos(a);
    v[1] = len * sin(a);
}

static double pick_delta(trng *r)
{
    static const double ds[] = {0, 1e-16, 2.3e-16, 1e-13, 1e-8, 1e-3};
    return below(r, 5) ? ds[below(r, 6)] : unif(r);
}

#define NCAT 10

/* Unit-scale vector of category cat (see the switch), dimension cb_disk_cone_dim(c). */
static void gen_unit(trng *r, const cb_disk_cone *c, int cat, double *x)
{
    int d = cb_disk_cone_dim(c), m = c->nblocks;
    double rn = fabs(gauss(r)), sum = 0, sum2 = 0;
    for (int j = 0; j < d; j++)
        x[j] = cat == 9 ? 2 * unif(r) - 1 : gauss(r);
    for (int i = 0, o = 1; i < m; o += c->size[i], i++) {
        double mu = c->mu[i], len = 0, dl = pick_delta(r);
        int role = below(r, 3);
        switch (cat) {
        case 1: /* zero blocks / zero normal part */
            if (below(r, 2))
                rand_dir(r, c->size[i], 0, x + o);
            if (i == 0 && below(r, 4) == 0)
                x[0] = 0;
            continue;
        case 2: len = unif(r) * mu * rn; break;                 /* inside */
        case 3: len = role ? mu * rn : unif(r) * mu * rn; break; /* boundary of K */
        case 4: len = (i == 0 && below(r, 2)) ? fabs(gauss(r)) : 0; break; /* apex / axes */
        case 5: case 6: len = below(r, 4) ? fabs(gauss(r)) : 0; break;      /* polar */
        case 7: /* near a breakpoint: saturated (role 0) or not around r* = rn */
            len = mu > 0 ? mu * rn * (role == 0 ? 1 + dl : 1 - dl) : (role == 0 ? fabs(gauss(r)) : 0);
            if (role == 0) {
                sum += mu * len;
                sum2 += mu * mu;
            }
            break;
        case 8: len = mu * rn * (below(r, 2) ? 1 : 1 + 1e-16); break; /* tied breakpoints */
        default: continue; /* 0, 9: as drawn */
        }
        rand_dir(r, c->size[i], len, x + o);
        if (cat == 5 || cat == 6)
            sum += mu * len;
    }
    if (cat == 2 || cat == 3)
        x[0] = below(r, 50) ? rn : 0;
    else if (cat == 4)
        x[0] = below(r, 3) ? gauss(r) : 0;
    else if (cat == 5)
        x[0] = -(sum + fabs(gauss(r)) * (below(r, 2) ? 1 : 1e-12) * (1 + sum));
    else if (cat == 6)
        x[0] = -sum;
    else if (cat == 7)
        x[0] = rn * (1 + sum2) - sum;
    else if (cat == 8)
        x[0] = rn * (below(r, 2) ? -unif(r) : unif(r));
    if (cat == 4 && below(r, 5) == 0)
        for (int j = 0; j < d; j++)
            x[j] = 0;
}

/* Scale factor: 1 (keeps exact constructions), exactly 1e±150, or log-uniform in 1e±150. */
static double pick_scale(trng *r)
{
    int k = below(r, 10);
    if (k < 2)
        return 1;
    if (k == 2)
        return below(r, 2) ? 1e150 : 1e-150;
    return pow(10, -150 + 300 * unif(r));
}

static void gen_vector(trng *r, const cb_disk_cone *c, double *x)
{
    int d = cb_disk_cone_dim(c), cat = below(r, NCAT);
    double s = pick_scale(r);
    gen_unit(r, c, cat, x);
    for (int j = 0; j < d; j++)
        x[j] *= s;
}

/* ---------------------------------------------------------------------------------------- */
/* Metadata and simple values.                                                                */

static void test_kinds(void **state)
{
    (void)state;
    static const char *names[] = {"coulomb2d", "coulomb3d", "rolling2d", "rolling3d", "rollspin3d"};
    static const int dims[] = {2, 3, 3, 5, 6}, nb[] = {1, 1, 2, 2, 3};
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        cb_kind parsed = CB_KIND_COUNT;
        assert_int_equal(cb_kind_dim((cb_kind)k), dims[k]);
        assert_int_equal(cb_kind_nblocks((cb_kind)k), nb[k]);
        assert_string_equal(cb_kind_name((cb_kind)k), names[k]);
        assert_int_equal(cb_kind_parse(names[k], &parsed), CB_OK);
        assert_int_equal(parsed, k);
        cb_friction f = {0.5, 0.1, 0.01};
        cb_disk_cone c;
        cb_disk_cone_of((cb_kind)k, &f, &c);
        assert_int_equal(c.nblocks, nb[k]);
        assert_int_equal(cb_disk_cone_dim(&c), dims[k]);
        assert_true(dims[k] <= CB_MAX_DIM);
        for (int i = 0; i < c.nblocks; i++)
            assert_true(c.mu[i] == (i == 0 ? 0.5 : i == 1 ? 0.1 : 0.01));
    }
    cb_kind out = CB_KIND_ROLLING3D;
    assert_int_equal(cb_kind_parse("rolling4d", &out), CB_ERR_INPUT);
    assert_int_equal(cb_kind_parse("", &out), CB_ERR_INPUT);
    assert_int_equal(cb_kind_parse(NULL, &out), CB_ERR_INPUT);
    assert_int_equal(out, CB_KIND_ROLLING3D);
    assert_int_equal(cb_kind_dim((cb_kind)7), 0);
    assert_int_equal(cb_kind_dim((cb_kind)-1), 0);
    assert_int_equal(cb_kind_nblocks((cb_kind)7), 0);
    assert_string_equal(cb_kind_name((cb_kind)7), "invalid");
    cb_disk_cone c;
    cb_disk_cone_of((cb_kind)9, NULL, &c);
    assert_int_equal(cb_disk_cone_dim(&c), 0);
    cb_disk_cone bad = {.nblocks = 2, .size = {2, 3}, .mu = {1, 1}};
    assert_int_equal(cb_disk_cone_dim(&bad), 0);
    bad.nblocks = CB_MAX_BLOCKS + 1;
    assert_int_equal(cb_disk_cone_dim(&bad), 0);
    cb_disk_cone half = {.nblocks = 0};
    assert_int_equal(cb_disk_cone_dim(&half), 1);
    assert_int_equal(cb_disk_cone_dim(NULL), 0);
}

static void expect_proj(cb_kind kind, cb_friction f, const double *x, const double *want,
                        cb_proj_case pc)
{
    int d = cb_kind_dim(kind);
    double out[CB_MAX_DIM], gen[CB_MAX_DIM];
    cb_disk_cone c;
    cb_disk_cone_of(kind, &f, &c);
    assert_int_equal(cb_project(kind, &f, x, out), pc);
    assert_int_equal(cb_project_disk_cone(&c, x, gen), pc);
    for (int j = 0; j < d; j++) {
        if (fabs(out[j] - want[j]) > 1e-15 * (1 + fabs(want[j])) || out[j] != gen[j])
            print_message("%s component %d: got %.17g (general %.17g), want %.17g\n",
                          cb_kind_name(kind), j, out[j], gen[j], want[j]);
        assert_true(fabs(out[j] - want[j]) <= 1e-15 * (1 + fabs(want[j])));
        assert_true(out[j] == gen[j]);
    }
}

static void test_known_values(void **state)
{
    (void)state;
    cb_friction f1 = {1, 0, 0}, fh = {0.5, 0, 0}, f0 = {0, 0, 0}, fr = {1, 1, 0};
    expect_proj(CB_KIND_COULOMB3D, f1, (double[]){0, 1, 0}, (double[]){0.5, 0.5, 0},
                CB_PROJ_BOUNDARY);
    expect_proj(CB_KIND_COULOMB3D, f1, (double[]){1, 0.5, 0.5}, (double[]){1, 0.5, 0.5},
                CB_PROJ_INSIDE);
    expect_proj(CB_KIND_COULOMB3D, f1, (double[]){-1, 0.5, 0}, (double[]){0, 0, 0}, CB_PROJ_ZERO);
    expect_proj(CB_KIND_COULOMB3D, f0, (double[]){1, 3, 4}, (double[]){1, 0, 0}, CB_PROJ_BOUNDARY);
    expect_proj(CB_KIND_COULOMB3D, f0, (double[]){-1, 3, 4}, (double[]){0, 0, 0}, CB_PROJ_ZERO);
    expect_proj(CB_KIND_COULOMB3D, f0, (double[]){2, 0, 0}, (double[]){2, 0, 0}, CB_PROJ_INSIDE);
    expect_proj(CB_KIND_COULOMB2D, fh, (double[]){1, 2}, (double[]){1.6, 0.8}, CB_PROJ_BOUNDARY);
    expect_proj(CB_KIND_COULOMB2D, fh, (double[]){1, -2}, (double[]){1.6, -0.8}, CB_PROJ_BOUNDARY);
    /* Prop. 5.2 case 3 (both saturated), case 4 (r_T only), case 5 (m_R only). */
    expect_proj(CB_KIND_ROLLING3D, fr, (double[]){0, 1, 0, 1, 0},
                (double[]){2.0 / 3, 2.0 / 3, 0, 2.0 / 3, 0}, CB_PROJ_BOUNDARY);
    expect_proj(CB_KIND_ROLLING3D, fr, (double[]){0, 1, 0, 0.1, 0},
                (double[]){0.5, 0.5, 0, 0.1, 0}, CB_PROJ_BOUNDARY);
    expect_proj(CB_KIND_ROLLING3D, fr, (double[]){0, 0, 0.1, 0, -1},
                (double[]){0.5, 0, 0.1, 0, -0.5}, CB_PROJ_BOUNDARY);
    /* Siconos' trial order tries "both saturated" first; here only r_T saturates. */
    cb_friction fs = {1, 0.1, 0};
    expect_proj(CB_KIND_ROLLING3D, fs, (double[]){0, 3, 4, 0.05, 0},
                (double[]){2.5, 1.5, 2, 0.05, 0}, CB_PROJ_BOUNDARY);
    expect_proj(CB_KIND_ROLLING2D, fr, (double[]){0, 1, -1}, (double[]){2.0 / 3, 2.0 / 3, -2.0 / 3},
                CB_PROJ_BOUNDARY);
    cb_friction fsp = {1, 1, 1};
    expect_proj(CB_KIND_ROLLSPIN3D, fsp, (double[]){0, 0, 0, 0, 0, 2},
                (double[]){1, 0, 0, 0, 0, 1}, CB_PROJ_BOUNDARY);
    expect_proj(CB_KIND_ROLLSPIN3D, fsp, (double[]){0, 1, 0, 0, 1, -1},
                (double[]){0.75, 0.75, 0, 0, 0.75, -0.75}, CB_PROJ_BOUNDARY);
    /* rollspin3d, μ_s = 0: spin forced to 0, other blocks untouched. */
    cb_friction fsp0 = {1, 1, 0};
    expect_proj(CB_KIND_ROLLSPIN3D, fsp0, (double[]){1, 0.5, 0, 0, 0.5, 3},
                (double[]){1, 0.5, 0, 0, 0.5, 0}, CB_PROJ_BOUNDARY);
    /* Unused coefficients are ignored, even when garbage. */
    cb_friction fg = {1, NAN, NAN};
    expect_proj(CB_KIND_COULOMB3D, fg, (double[]){0, 1, 0}, (double[]){0.5, 0.5, 0},
                CB_PROJ_BOUNDARY);
    /* The apex: inside (returned unchanged). */
    expect_proj(CB_KIND_ROLLING3D, fr, (double[]){0, 0, 0, 0, 0}, (double[]){0, 0, 0, 0, 0},
                CB_PROJ_INSIDE);
    /* The half-line cone (no blocks). */
    cb_disk_cone half = {.nblocks = 0};
    double v = -3, w;
    assert_int_equal(cb_project_disk_cone(&half, &v, &w), CB_PROJ_ZERO);
    assert_true(w == 0);
    v = 2;
    assert_int_equal(cb_project_disk_cone(&half, &v, &w), CB_PROJ_INSIDE);
    assert_true(w == 2);
}

/* ---------------------------------------------------------------------------------------- */
/* Property tests.                                                                            */

typedef struct {
    long n, cases[3];
    double fast_gen, idem, in_k, polar, orth, nonexp, ratio, ref1d;
} stats;

/* Print a failing case (the first few only). */
static void dump_case(const char *what, const cb_disk_cone *c, const double *x, const double *p)
{
    static int count = 0;
    if (count++ >= 40)
        return;
    int d = cb_disk_cone_dim(c);
    print_message("%s: mu =", what);
    for (int i = 0; i < c->nblocks; i++)
        print_message(" %.17g(%d)", c->mu[i], c->size[i]);
    print_message("\n  x =");
    for (int j = 0; j < d; j++)
        print_message(" %.17g", x[j]);
    print_message("\n  p =");
    for (int j = 0; j < d; j++)
        print_message(" %.17g", p[j]);
    print_message("\n");
}

static cb_proj_case proj_any(int kind, const cb_friction *f, const cb_disk_cone *c, const double *x,
                             double *out)
{
    return kind >= 0 ? cb_project((cb_kind)kind, f, x, out) : cb_project_disk_cone(c, x, out);
}

/* Case labels, fast path == general routine, idempotence. */
static void check_cases(int kind, const cb_friction *f, const cb_disk_cone *c, const double *x,
                        const double *p, cb_proj_case pc, stats *st)
{
    int d = cb_disk_cone_dim(c);
    double g[MAXD], pp[MAXD];
    assert_true(pc >= CB_PROJ_INSIDE && pc <= CB_PROJ_BOUNDARY);
    assert_int_equal(cb_project_disk_cone(c, x, g), pc);
    st->n++;
    st->cases[pc]++;
    st->fast_gen = fmax(st->fast_gen, cbt_vec_reldiff(p, g, (size_t)d, DBL_MIN));
    for (int j = 0; j < d; j++) {
        if (pc == CB_PROJ_INSIDE)
            assert_true(p[j] == x[j]);
        if (pc == CB_PROJ_ZERO)
            assert_true(p[j] == 0);
    }
    if (pc == CB_PROJ_BOUNDARY)
        assert_true(p[0] >= 0);
    proj_any(kind, f, c, p, pp); /* idempotence, relative to ‖P(x)‖∞ */
    double pm = amax_of(p, d);
    if (pm > 0)
        st->idem = fmax(st->idem, maxdiff(pp, p, d) / pm);
}

/* P(x) ∈ K; P_K°(x) = x − P(x) ∈ K° = −K*; ⟨P(x), x − P(x)⟩ = 0 (on copies scaled by 2^-e), with
 * the natural scale |x_N| + Σ μ_i ‖x_i‖ + ‖x‖ of the rounding errors. */
static void check_moreau(int kind, const cb_friction *f, const cb_disk_cone *c, const double *x,
                         const double *p, stats *st)
{
    int d = cb_disk_cone_dim(c), e = expo(amax_of(x, d));
    double xs[MAXD], ps[MAXD], nz[MAXD], dot = 0;
    scale_copy(x, d, e, xs);
    scale_copy(p, d, e, ps);
    for (int j = 0; j < d; j++) {
        nz[j] = ps[j] - xs[j];
        dot -= ps[j] * nz[j];
    }
    double wx = fabs(xs[0]) + wnorms(c, xs) + norm2(xs, d), viol = cone_violation(c, ps);
    st->in_k = fmax(st->in_k, viol / norm2(xs, d));
    if (viol > 1e-14 * norm2(xs, d))
        dump_case("P(x) not in K", c, x, p);
    st->polar = fmax(st->polar, fmax(0, wnorms(c, nz) - nz[0]) / wx);
    if (amax_of(p, d) > 0)
        st->orth = fmax(st->orth, fabs(dot) / (norm2(ps, d) * wx));
    if (kind >= 0) { /* the public membership tests agree, unscaled */
        double negz[CB_MAX_DIM];
        for (int j = 0; j < d; j++)
            negz[j] = p[j] - x[j];
        assert_true(cb_in_cone((cb_kind)kind, f, p, 64 * EPS * amax_of(x, d)));
        assert_true(cb_in_dual_cone((cb_kind)kind, f, negz, 64 * EPS * ldexp(wx, e)));
    }
}

/* ‖P(a) − P(b)‖ ≤ ‖a − b‖ (excess relative to ‖a‖ + ‖b‖; ratio for well-separated pairs). */
static void check_nonexp(int kind, const cb_friction *f, const cb_disk_cone *c, const double *a,
                         const double *pa, const double *b, stats *st)
{
    int d = cb_disk_cone_dim(c), e = expo(fmax(amax_of(a, d), amax_of(b, d)));
    double pb[MAXD], as[MAXD], bs[MAXD], pas[MAXD], pbs[MAXD], dab[MAXD], dp[MAXD];
    proj_any(kind, f, c, b, pb);
    scale_copy(a, d, e, as);
    scale_copy(b, d, e, bs);
    scale_copy(pa, d, e, pas);
    scale_copy(pb, d, e, pbs);
    for (int j = 0; j < d; j++) {
        dab[j] = as[j] - bs[j];
        dp[j] = pas[j] - pbs[j];
    }
    double nab = norm2(dab, d), np = norm2(dp, d), sz = norm2(as, d) + norm2(bs, d);
    if (sz > 0)
        st->nonexp = fmax(st->nonexp, (np - nab) / sz);
    if (nab > 1e-6 * sz)
        st->ratio = fmax(st->ratio, np / nab);
}

/* All properties of one vector x (cone c of kind, or a general cone when kind < 0), b = partner
 * for non-expansiveness. */
static void check_one(int kind, const cb_friction *f, const cb_disk_cone *c, const double *x,
                      const double *b, stats *st)
{
    int d = cb_disk_cone_dim(c);
    double p[MAXD], ref[MAXD], xm = amax_of(x, d);
    cb_proj_case pc = proj_any(kind, f, c, x, p);
    check_cases(kind, f, c, x, p, pc, st);
    check_moreau(kind, f, c, x, p, st);
    ref_project(c, x, ref); /* independent 1-D minimisation over r_N */
    if (xm > 0)
        st->ref1d = fmax(st->ref1d, maxdiff(p, ref, d) / xm);
    check_nonexp(kind, f, c, x, p, b, st);
}

/* b: a small or large perturbation of x, or an independent vector at a similar scale. */
static void gen_partner(trng *r, const cb_disk_cone *c, const double *x, double *b)
{
    int d = cb_disk_cone_dim(c), k = below(r, 3);
    double xm = amax_of(x, d);
    if (k == 2 || xm == 0) {
        gen_vector(r, c, b);
        if (xm > 0) {
            double bm = amax_of(b, d);
            for (int j = 0; j < d && bm > 0; j++)
                b[j] = ldexp(b[j], expo(xm) - expo(bm));
        }
        return;
    }
    double h = xm * pow(10, k == 0 ? -14 + 11 * unif(r) : -3 + 3 * unif(r));
    for (int j = 0; j < d; j++)
        b[j] = x[j] + (below(r, 3) ? h * gauss(r) : 0);
}

static void report(const char *what, const stats *st)
{
    print_message("%-10s %8ld vectors (inside %ld, zero %ld, boundary %ld): fast-vs-general %.2e, "
                  "idempotence %.2e, P∈K %.2e, polar %.2e, orthogonality %.2e, "
                  "non-expansive excess %.2e (max ratio %.17g), 1-D reference %.2e\n",
                  what, st->n, st->cases[0], st->cases[1], st->cases[2], st->fast_gen, st->idem,
                  st->in_k, st->polar, st->orth, st->nonexp, st->ratio, st->ref1d);
}

static void assert_stats(const stats *st)
{
    assert_true(st->fast_gen <= 1e-15);
    assert_true(st->idem <= 1e-13);
    assert_true(st->in_k <= 1e-14);
    assert_true(st->polar <= 1e-14);
    assert_true(st->orth <= 1e-14);
    assert_true(st->nonexp <= 1e-14);
    assert_true(st->ref1d <= 1e-13);
    for (int k = 0; k < 3; k++)
        assert_true(st->cases[k] > 0);
}

static void run_kind(cb_kind kind, uint64_t seed)
{
    trng r;
    trng_seed(&r, seed);
    stats st = {0};
    long n = cbt_scale(1000000, 100);
    int m = cb_kind_nblocks(kind), d = cb_kind_dim(kind);
    for (long s = 0; s < n; s++) {
        double mu[3], x[CB_MAX_DIM], b[CB_MAX_DIM];
        for (int i = 0; i < m; i++)
            mu[i] = pick_mu(&r, 1);
        cb_friction f;
        cb_disk_cone c;
        set_friction(&f, mu, m);
        cb_disk_cone_of(kind, &f, &c);
        gen_vector(&r, &c, x);
        gen_partner(&r, &c, x, b);
        check_one((int)kind, &f, &c, x, b, &st);
        /* aliasing: out = x gives the same answer */
        double y[CB_MAX_DIM], p[CB_MAX_DIM];
        memcpy(y, x, sizeof y);
        cb_project(kind, &f, x, p);
        cb_project(kind, &f, y, y);
        assert_memory_equal(y, p, (size_t)d * sizeof(double));
        /* the bits do not depend on the CPU: the SSE2 path gives cb_project's answer */
        assert_int_equal(cb_project_sse2(kind, &f, x, y), cb_project(kind, &f, x, p));
        assert_memory_equal(y, p, (size_t)d * sizeof(double));
    }
#if defined(__x86_64__) && defined(__GNUC__)
    print_message("%s: cb_project %s the AVX copy of the fast paths; every vector also through "
                  "the SSE2 path, bit-identical\n", cb_kind_name(kind),
                  __builtin_cpu_supports("avx") ? "ran" : "did not run (no AVX)");
#endif
    report(cb_kind_name(kind), &st);
    assert_stats(&st);
}

static void test_props_coulomb2d(void **state)
{
    (void)state;
    run_kind(CB_KIND_COULOMB2D, 101);
}

static void test_props_coulomb3d(void **state)
{
    (void)state;
    run_kind(CB_KIND_COULOMB3D, 102);
}

static void test_props_rolling2d(void **state)
{
    (void)state;
    run_kind(CB_KIND_ROLLING2D, 103);
}

static void test_props_rolling3d(void **state)
{
    (void)state;
    run_kind(CB_KIND_ROLLING3D, 104);
}

static void test_props_rollspin3d(void **state)
{
    (void)state;
    run_kind(CB_KIND_ROLLSPIN3D, 105);
}

/* Random general cones (0..8 blocks of size 1 or 2), general routine only. */
static void test_props_general(void **state)
{
    (void)state;
    trng r;
    trng_seed(&r, 106);
    stats st = {0};
    long n = cbt_scale(200000, 100);
    for (long s = 0; s < n; s++) {
        cb_disk_cone c = {.nblocks = below(&r, CB_MAX_BLOCKS + 1)};
        for (int i = 0; i < c.nblocks; i++) {
            c.size[i] = 1 + below(&r, 2);
            c.mu[i] = pick_mu(&r, 1);
        }
        double x[MAXD], b[MAXD], y[MAXD], p[MAXD];
        gen_vector(&r, &c, x);
        gen_partner(&r, &c, x, b);
        check_one(-1, NULL, &c, x, b, &st);
        int d = cb_disk_cone_dim(&c);
        memcpy(y, x, sizeof y);
        cb_project_disk_cone(&c, x, p);
        cb_project_disk_cone(&c, y, y);
        assert_memory_equal(y, p, (size_t)d * sizeof(double));
    }
    report("general", &st);
    assert_stats(&st);
}

/* ---------------------------------------------------------------------------------------- */
/* Non-finite input and invalid coefficients.                                                 */

static void expect_nonfinite(cb_kind kind, const cb_friction *f, const double *x)
{
    int d = cb_kind_dim(kind);
    double out[CB_MAX_DIM], gen[CB_MAX_DIM], y[CB_MAX_DIM];
    cb_disk_cone c;
    cb_disk_cone_of(kind, f, &c);
    memcpy(y, x, (size_t)d * sizeof *y);
    assert_int_equal(cb_project(kind, f, x, out), CB_PROJ_NONFINITE);
    assert_true(all_nan(out, d));
    assert_int_equal(cb_project_disk_cone(&c, x, gen), CB_PROJ_NONFINITE);
    assert_true(all_nan(gen, d));
    assert_int_equal(cb_project(kind, f, y, y), CB_PROJ_NONFINITE);
    assert_true(all_nan(y, d));
}

static void test_nonfinite(void **state)
{
    (void)state;
    trng r;
    trng_seed(&r, 107);
    const double bad[] = {NAN, INFINITY, -INFINITY, -NAN};
    const double badmu[] = {NAN, INFINITY, -1, -1e-300, 1.0000001e150, DBL_MAX, -INFINITY};
    long count = 0, n = cbt_scale(100000, 100);
    for (long s = 0; s < n; s++) {
        cb_kind kind = (cb_kind)below(&r, CB_KIND_COUNT);
        int d = cb_kind_dim(kind), m = cb_kind_nblocks(kind);
        double mu[3] = {pick_mu(&r, 1), pick_mu(&r, 1), pick_mu(&r, 1)}, x[CB_MAX_DIM];
        cb_friction f;
        set_friction(&f, mu, m);
        cb_disk_cone c;
        cb_disk_cone_of(kind, &f, &c);
        gen_vector(&r, &c, x);
        if (below(&r, 2)) {
            x[below(&r, d)] = bad[below(&r, 4)];
        } else {
            mu[below(&r, m)] = badmu[below(&r, 7)];
            set_friction(&f, mu, m);
        }
        expect_nonfinite(kind, &f, x);
        assert_false(cb_in_cone(kind, &f, x, 1));
        assert_false(cb_in_dual_cone(kind, &f, x, 1));
        count++;
    }
    /* every position, every kind, deterministic */
    for (int k = 0; k < CB_KIND_COUNT; k++)
        for (int j = 0; j < cb_kind_dim((cb_kind)k); j++)
            for (int b = 0; b < 4; b++) {
                double x[CB_MAX_DIM] = {1, 0, 0, 0, 0, 0};
                cb_friction f = {0.5, 0.1, 0.1};
                x[j] = bad[b];
                expect_nonfinite((cb_kind)k, &f, x);
            }
    /* NULL friction and a malformed general cone */
    double x[CB_MAX_DIM] = {1, 2, 3, 4, 5, 6}, out[CB_MAX_DIM];
    assert_int_equal(cb_project(CB_KIND_ROLLING3D, NULL, x, out), CB_PROJ_NONFINITE);
    assert_true(all_nan(out, 5));
    out[0] = 7;
    assert_int_equal(cb_project((cb_kind)17, NULL, x, out), CB_PROJ_NONFINITE);
    assert_true(out[0] == 7);
    cb_disk_cone badc = {.nblocks = 1, .size = {3}, .mu = {1}};
    assert_int_equal(cb_project_disk_cone(&badc, x, out), CB_PROJ_NONFINITE);
    /* the largest accepted coefficient */
    cb_friction fbig = {1e150, 0, 0};
    assert_int_equal(cb_project(CB_KIND_COULOMB3D, &fbig, (double[]){0, 1e300, 0}, out),
                     CB_PROJ_BOUNDARY);
    assert_true(isfinite(out[0]) && isfinite(out[1]) && out[2] == 0);
    assert_true(fabs(out[0] - 1e150) <= 1e-14 * 1e150 && fabs(out[1] - 1e300) <= 1e-14 * 1e300);
    print_message("non-finite: %ld random vectors + every position/kind: all CB_PROJ_NONFINITE with"
                  " NaN output\n",
                  count);
}

/* ---------------------------------------------------------------------------------------- */
/* Extreme scales: 1e±300, near DBL_MAX, subnormals; homogeneity P(2^k x) = 2^k P(x).          */

static void test_extreme_scales(void **state)
{
    (void)state;
    trng r;
    trng_seed(&r, 108);
    long n = cbt_scale(200000, 100);
    double worst_h = 0, worst_k = 0, worst_ref = 0;
    long overflow = 0;
    for (long s = 0; s < n; s++) {
        cb_kind kind = (cb_kind)below(&r, CB_KIND_COUNT);
        int d = cb_kind_dim(kind), m = cb_kind_nblocks(kind);
        double mu[3] = {pick_mu(&r, 1), pick_mu(&r, 1), pick_mu(&r, 1)};
        cb_friction f;
        set_friction(&f, mu, m);
        cb_disk_cone c;
        cb_disk_cone_of(kind, &f, &c);
        double u[CB_MAX_DIM], x[CB_MAX_DIM], p[CB_MAX_DIM], pu[CB_MAX_DIM], ref[CB_MAX_DIM];
        gen_unit(&r, &c, below(&r, NCAT), u);
        int e = below(&r, 3) == 0 ? 1020 : below(&r, 2) ? 990 : -1000 - below(&r, 60);
        if (below(&r, 2))
            e = below(&r, 2) ? 1020 - below(&r, 40) : -1070 + below(&r, 120);
        for (int j = 0; j < d; j++)
            x[j] = ldexp(u[j], e);
        if (!isfinite(amax_of(x, d)))
            continue;
        cb_proj_case pc = cb_project(kind, &f, x, p);
        ref_project(&c, x, ref);
        if (pc == CB_PROJ_NONFINITE) { /* only when the projection itself exceeds DBL_MAX */
            assert_true(all_nan(p, d) && !isfinite(amax_of(ref, d)));
            overflow++;
            continue;
        }
        for (int j = 0; j < d; j++)
            assert_true(isfinite(p[j]));
        cb_project(kind, &f, u, pu);
        /* compare 2^-e P(2^e u) with P(u) unless u lost bits (2^e u subnormal or overflowing) */
        double xs[CB_MAX_DIM], ps[CB_MAX_DIM];
        scale_copy(p, d, e, ps);
        scale_copy(x, d, e, xs);
        double um = amax_of(u, d);
        if (memcmp(xs, u, (size_t)d * sizeof *u) == 0 && um > 0 && amax_of(pu, d) * ldexp(1, e) > 1e-290)
            worst_h = fmax(worst_h, maxdiff(ps, pu, d) / um);
        if (um > 0) {
            /* below DBL_MIN results are quantised in steps of 2^-1074 (2^-1074-e after scaling),
             * and r_N's quantum is multiplied by μ in the blocks */
            double mumax = fmax(f.mu, fmax(f.mu_r, f.mu_s));
            double floor_ = 4 * ldexp(1.0, -1074 - e) * (1 + mumax), xsm = amax_of(xs, d);
            double rs[CB_MAX_DIM];
            scale_copy(ref, d, e, rs);
            worst_k = fmax(worst_k, fmax(0, cone_violation(&c, ps) - floor_) / xsm);
            worst_ref = fmax(worst_ref, fmax(0, maxdiff(ps, rs, d) - floor_) / xsm);
        }
    }
    print_message("extreme scales: %ld vectors at 2^-1070..2^1020: homogeneity %.2e, P∈K %.2e, "
                  "1-D reference %.2e; %ld projections beyond DBL_MAX reported as non-finite\n",
                  n, worst_h, worst_k, worst_ref, overflow);
    assert_true(worst_h <= 1e-15);
    assert_true(worst_k <= 1e-14);
    assert_true(worst_ref <= 1e-13);
}

/* Mixed magnitudes within one vector, up to DBL_MAX and down to 2^-1074. */
static void test_extreme_mixed(void **state)
{
    (void)state;
    long overflow = 0;
    cb_friction f = {0.3, 1e-8, 1e8};
    double mix[][6] = {{DBL_MAX, -DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX},
                       {-DBL_MAX, DBL_MAX, 0, 0, 0, 4.9e-324},
                       {4.9e-324, 4.9e-324, 4.9e-324, 4.9e-324, 4.9e-324, 4.9e-324},
                       {1e-310, -1e300, 1e-310, 5e-324, 1e300, -1e-300},
                       {1e300, 1e300, 1e300, 1e300, 1e300, 1e-300}};
    for (size_t i = 0; i < sizeof mix / sizeof mix[0]; i++) {
        double p[6], ref[6];
        cb_disk_cone c;
        cb_disk_cone_of(CB_KIND_ROLLSPIN3D, &f, &c);
        cb_proj_case pc = cb_project(CB_KIND_ROLLSPIN3D, &f, mix[i], p);
        ref_project(&c, mix[i], ref);
        if (pc == CB_PROJ_NONFINITE) {
            assert_true(all_nan(p, 6) && !isfinite(amax_of(ref, 6)));
            overflow++;
            continue;
        }
        for (int j = 0; j < 6; j++)
            assert_true(isfinite(p[j]));
        int e = expo(amax_of(mix[i], 6));
        double ps[6], rs[6];
        scale_copy(p, 6, e, ps);
        scale_copy(ref, 6, e, rs);
        assert_true(cbt_vec_reldiff(ps, rs, 6, 0.5) <= 1e-13);
        assert_true(cone_violation(&c, ps) <= 1e-14);
    }
    assert_int_equal(overflow, 1); /* the all-±DBL_MAX vector: r_N > DBL_MAX */
}

/* ---------------------------------------------------------------------------------------- */
/* Modified velocity and membership.                                                          */

static void test_modified_velocity_membership(void **state)
{
    (void)state;
    trng r;
    trng_seed(&r, 109);
    long n = cbt_scale(200000, 100);
    for (long s = 0; s < n; s++) {
        cb_kind kind = (cb_kind)below(&r, CB_KIND_COUNT);
        int d = cb_kind_dim(kind), m = cb_kind_nblocks(kind);
        double mu[3] = {pick_mu(&r, 1), pick_mu(&r, 1), pick_mu(&r, 1)}, y[CB_MAX_DIM],
               yh[CB_MAX_DIM], ya[CB_MAX_DIM];
        cb_friction f;
        set_friction(&f, mu, m);
        cb_disk_cone c;
        cb_disk_cone_of(kind, &f, &c);
        for (int j = 0; j < d; j++)
            y[j] = gauss(&r);
        cb_modified_velocity(kind, &f, y, yh);
        memcpy(ya, y, sizeof ya);
        cb_modified_velocity(kind, &f, ya, ya);
        assert_memory_equal(ya, yh, (size_t)d * sizeof(double));
        double g = wnorms(&c, y);
        assert_true(fabs(yh[0] - (y[0] + g)) <= 4 * EPS * (fabs(y[0]) + g));
        for (int j = 1; j < d; j++)
            assert_true(yh[j] == y[j]);
        /* eq. (34): ŷ ∈ K* ⟺ u_N ≥ 0 (away from the rounding band) */
        double band = 8 * EPS * (fabs(y[0]) + g);
        if (fabs(y[0]) > band)
            assert_int_equal(cb_in_dual_cone(kind, &f, yh, 0), y[0] > 0);
        /* membership of random points against the definition */
        double viol = cone_violation(&c, y);
        if (fabs(viol) > 1e-12)
            assert_int_equal(cb_in_cone(kind, &f, y, 0), viol <= 0);
        double slack = 1e-12 * (1 + norm2(y, d) + fabs(y[0]) * fmax(f.mu, fmax(f.mu_r, f.mu_s)));
        assert_int_equal(cb_in_cone(kind, &f, y, viol + slack), 1);
    }
    cb_friction f = {0.5, 0.25, 0};
    double y[5] = {1, 3, 4, 0, -4}, yh[5];
    cb_modified_velocity(CB_KIND_ROLLING3D, &f, y, yh);
    assert_true(yh[0] == 1 + 2.5 + 1);
    assert_true(cb_in_dual_cone(CB_KIND_ROLLING3D, &f, (double[]){3.5, 3, 4, 0, -4}, 0));
    assert_false(cb_in_dual_cone(CB_KIND_ROLLING3D, &f, (double[]){3.49, 3, 4, 0, -4}, 0));
    assert_true(cb_in_dual_cone(CB_KIND_ROLLING3D, &f, (double[]){3.49, 3, 4, 0, -4}, 0.011));
    assert_true(cb_in_cone(CB_KIND_ROLLING3D, &f, (double[]){10, 3, 4, 2.5, 0}, 0));
    assert_false(cb_in_cone(CB_KIND_ROLLING3D, &f, (double[]){10, 3, 4, 2.6, 0}, 0));
    assert_false(cb_in_cone(CB_KIND_COULOMB3D, &(cb_friction){0, 0, 0}, (double[]){-1, 0, 0}, 0));
    assert_true(cb_in_cone(CB_KIND_COULOMB3D, &(cb_friction){0, 0, 0}, (double[]){-1, 0, 0}, 1));
    assert_false(cb_in_cone(CB_KIND_COULOMB3D, &f, (double[]){1, 0, 0}, -1));
    assert_false(cb_in_cone((cb_kind)9, &f, y, 1));
    cb_friction fneg = {-0.5, 0, 0};
    cb_modified_velocity(CB_KIND_COULOMB2D, &fneg, y, yh);
    assert_true(all_nan(yh, 2));
}

/* ---------------------------------------------------------------------------------------- */
/* Siconos.                                                                                   */

#if CB_HAVE_SICONOS

typedef struct {
    long n, agree, status20, status20_bigmu, overflow, underflow, sic_wrong, wrong_bigmu, case_tie;
    double maxdiff, maxdiff20, maxdiff_wrong, sic_excess_dist, sic_viol, err_ours;
} sic_stats;

/* Some coefficient ≥ 1e7, i.e. μ² ≥ 1e14: 1 + μ² carries almost no information on the other terms. */
static int big_mu(const cb_disk_cone *c)
{
    for (int i = 0; i < c->nblocks; i++)
        if (c->mu[i] >= 1e7)
            return 1;
    return 0;
}

/* Siconos accepted a case but is more than 1e-12‖x‖ from the reference: count and describe it. */
static void sic_wrong(const cb_disk_cone *c, const double *x, const double *p, const double *s,
                      unsigned st, int d, double diff, double err_sic, double err_ours,
                      sic_stats *ss)
{
    double xs[MAXD], ps[MAXD], sv[MAXD], dp[MAXD], dsv[MAXD];
    int e = expo(amax_of(x, d));
    scale_copy(x, d, e, xs);
    scale_copy(p, d, e, ps);
    scale_copy(s, d, e, sv);
    for (int j = 0; j < d; j++) {
        dp[j] = xs[j] - ps[j];
        dsv[j] = xs[j] - sv[j];
    }
    double viol = cone_violation(c, sv) / norm2(xs, d);
    double excess = (norm2(dsv, d) - norm2(dp, d)) / norm2(xs, d);
    int tiny = amax_of(x, d) < 1e-140; /* Siconos' x² + y² loses bits below ~1e-154 */
    if (tiny)
        ss->underflow++;
    else
        ss->sic_wrong++;
    if (!tiny && big_mu(c))
        ss->wrong_bigmu++;
    int first = tiny ? ss->underflow <= 1
                     : big_mu(c) ? ss->wrong_bigmu <= 2 : ss->sic_wrong - ss->wrong_bigmu <= 2;
    if (first) {
        print_message("Siconos wrong%s (status %u): rel diff %.3e, Siconos vs reference %.3e, ours vs "
                      "reference %.3e, Siconos ∉K by %.3e, farther by %.3e\n",
                      tiny ? " (tiny scale)" : "", st, diff, err_sic, err_ours, viol, excess);
        dump_case("  ours", c, x, p);
        dump_case("  Siconos", c, x, s);
    }
    assert_true(err_sic > 1e-12);
    if (tiny)
        return;
    ss->maxdiff_wrong = fmax(ss->maxdiff_wrong, diff);
    ss->sic_viol = fmax(ss->sic_viol, viol);
    ss->sic_excess_dist = fmax(ss->sic_excess_dist, excess);
}

/* Compare our projection p of x with Siconos' s (status st). A disagreement above 1e-12‖x‖ is
 * decided by the long-double reference: P is 1-Lipschitz, so any backward-stable method is within
 * a few ε‖x‖ of it; ours must be, and Siconos is then "wrong" by its distance to the reference.
 * Distances ‖x − s‖ − ‖x − P(x)‖ are reported too (they are only second order in the error). */
static int sic_compare(const cb_disk_cone *c, const double *x, const double *p, const double *s,
                       unsigned st, int d, sic_stats *ss)
{
    double xm = amax_of(x, d), diff = xm > 0 ? maxdiff(p, s, d) / xm : maxdiff(p, s, d);
    ss->n++;
    if (diff <= 1e-12) {
        ss->agree++;
        ss->maxdiff = fmax(ss->maxdiff, diff);
        return 1;
    }
    double ref[MAXD];
    ref_project(c, x, ref);
    double err_ours = maxdiff(p, ref, d) / xm, err_sic = maxdiff(s, ref, d) / xm;
    ss->err_ours = fmax(ss->err_ours, err_ours);
    assert_true(err_ours <= 1e-14);
    if (!isfinite(amax_of(s, d))) { /* sqrt(x² + y²) overflowed inside Siconos */
        if (ss->overflow++ < 2)
            dump_case("Siconos output not finite", c, x, s);
        return 0;
    }
    if (st == 20) { /* no trial case accepted: Siconos leaves the vector unprojected */
        ss->status20++;
        if (big_mu(c))
            ss->status20_bigmu++;
        long other = ss->status20 - ss->status20_bigmu;
        if (big_mu(c) ? ss->status20_bigmu <= 2 : other <= 2)
            dump_case("Siconos status 20 (unprojected)", c, x, s);
        ss->maxdiff20 = fmax(ss->maxdiff20, diff);
        return 0;
    }
    sic_wrong(c, x, p, s, st, d, diff, err_sic, err_ours, ss);
    return 0;
}

static int case_of_siconos_rolling(unsigned st)
{
    return st == PROJRCONE_INSIDE ? CB_PROJ_INSIDE : st == PROJRCONE_DUAL ? CB_PROJ_ZERO
                                                                          : CB_PROJ_BOUNDARY;
}

/* mode 0: plain Gaussian vectors at scales 1e±100, μ ∈ {0.3, 1} or log-uniform in [1e-3, 1e3];
 * mode 1: the adversarial generator (all categories, μ ∈ {1e-8, 0.3, 1, 1e8, random}, 1e±150);
 * mode 2: as 1 with μ = 0 allowed. */
static void run_siconos(cb_kind kind, int mode, long n, uint64_t seed, sic_stats *ss)
{
    trng r;
    trng_seed(&r, seed);
    int d = cb_kind_dim(kind), m = cb_kind_nblocks(kind);
    for (long i = 0; i < n; i++) {
        double mu[3] = {0, 0, 0}, x[5], p[5], s[5];
        for (int k = 0; k < m; k++)
            mu[k] = mode ? pick_mu(&r, mode == 2)
                         : below(&r, 4) ? pow(10, -3 + 6 * unif(&r)) : below(&r, 2) ? 0.3 : 1;
        cb_friction f;
        set_friction(&f, mu, m);
        cb_disk_cone c;
        cb_disk_cone_of(kind, &f, &c);
        if (mode) {
            gen_vector(&r, &c, x);
        } else {
            double sc = pow(10, -100 + 200 * unif(&r));
            for (int j = 0; j < d; j++)
                x[j] = sc * gauss(&r);
        }
        cb_proj_case pc = cb_project(kind, &f, x, p);
        memcpy(s, x, sizeof s);
        unsigned st;
        int sc;
        if (kind == CB_KIND_ROLLING3D) {
            st = projectionOnRollingCone(s, f.mu, f.mu_r);
            sc = case_of_siconos_rolling(st);
        } else {
            st = projectionOnCone(s, f.mu);
            sc = st == PROJCONE_INSIDE ? CB_PROJ_INSIDE : st == PROJCONE_DUAL ? CB_PROJ_ZERO
                                                                               : CB_PROJ_BOUNDARY;
        }
        if (sic_compare(&c, x, p, s, st, d, ss) && sc != (int)pc && amax_of(x, d) > 0)
            ss->case_tie++;
    }
}

static void sic_report(const char *what, const sic_stats *ss)
{
    print_message("%s: %ld vectors, %ld agree to 1e-12‖x‖∞ (max %.2e; %ld of them with another case "
                  "label: x on a case boundary). Disagreements, ours always within %.1e‖x‖ of the "
                  "long-double reference: status 20 = left unprojected %ld (%ld with some μ ≥ 1e7; "
                  "max diff %.2e); non-finite output (x²+y² overflow) %ld; tiny-scale x²+y² "
                  "underflow %ld; wrong case / inaccurate %ld (%ld with some μ ≥ 1e7; max diff "
                  "%.2e, Siconos ∉K by %.2e, farther by %.2e, relative to ‖x‖)\n",
                  what, ss->n, ss->agree, ss->maxdiff, ss->case_tie, ss->err_ours, ss->status20,
                  ss->status20_bigmu, ss->maxdiff20, ss->overflow, ss->underflow, ss->sic_wrong,
                  ss->wrong_bigmu, ss->maxdiff_wrong, ss->sic_viol, ss->sic_excess_dist);
}

static void siconos_suite(cb_kind kind, const char *name, uint64_t seed)
{
    static const char *modes[] = {"plain Gaussian, μ ∈ [1e-3, 1e3]", "adversarial, μ > 0",
                                  "adversarial, μ = 0 allowed"};
    long n[] = {cbt_scale(1000000, 100), cbt_scale(1000000, 100), cbt_scale(100000, 100)};
    for (int mode = 0; mode < 3; mode++) {
        sic_stats ss = {0};
        char what[160];
        run_siconos(kind, mode, n[mode], seed + (uint64_t)mode, &ss);
        snprintf(what, sizeof what, "Siconos %s (%s)", name, modes[mode]);
        sic_report(what, &ss);
        /* every disagreement was classified above (and asserted to be Siconos' error) */
        assert_int_equal(ss.n, n[mode]);
        if (mode == 0) /* well-scaled data: Siconos must agree except where it is shown wrong */
            assert_int_equal(ss.agree + ss.status20 + ss.sic_wrong, ss.n);
    }
}

static void test_siconos_rolling3d(void **state)
{
    (void)state;
    siconos_suite(CB_KIND_ROLLING3D, "projectionOnRollingCone", 110);
}

static void test_siconos_coulomb3d(void **state)
{
    (void)state;
    siconos_suite(CB_KIND_COULOMB3D, "projectionOnCone", 120);
}
#else
CBT_SICONOS_ONLY_TEST(test_siconos_rolling3d)
CBT_SICONOS_ONLY_TEST(test_siconos_coulomb3d)
#endif


/* ---------------------------------------------------------------------------------------- */
/* The edges of the fast paths' window (added with the branch-free fast paths): coefficients  */
/* from 0 and subnormal up to 1e150, entries and blocks near 2^±100, 2^-400, 2^-480, zero     */
/* blocks with tiny or huge r_N; every property of check_one, including fast = general.       */

static double pick_wide_mu(trng *r)
{
    static const double mus[] = {0, 4.9e-324, 1e-310, 1e-300, 0x1p-401, 0x1p-400, 0x1p-399, 1e-100,
                                 1e-8, 0.5, 1, 1e8, 1e50, 0x1p199, 0x1p200, 0x1p201, 1e100, 1e150};
    int n = (int)(sizeof mus / sizeof mus[0]);
    return below(r, 4) ? mus[below(r, n)] : pow(10, -320 + 470 * unif(r));
}

/* A unit vector of gen_unit rescaled block by block: each block and r_N by 2^e with e drawn
 * around the window's edges (or zeroed), so that blocks of very different sizes meet. */
static void gen_wide(trng *r, const cb_disk_cone *c, double *x)
{
    static const int es[] = {0, 0, 0, 99, 100, 101, -399, -400, -401, -479, -480, -481, -600, -1000,
                             300, 500, 501};
    int ne = (int)(sizeof es / sizeof es[0]);
    gen_unit(r, c, below(r, NCAT), x);
    x[0] = below(r, 8) ? ldexp(x[0], es[below(r, ne)]) : 0;
    for (int i = 0, o = 1; i < c->nblocks; o += c->size[i], i++) {
        int e = es[below(r, ne)], z = below(r, 6) == 0;
        for (int j = 0; j < c->size[i]; j++)
            x[o + j] = z ? 0 : ldexp(x[o + j], e);
    }
}

/* Some checks of check_one work unscaled, and subnormal results lose bits: skip vectors whose
 * projection may leave the normal range: ‖x‖∞ ∉ [1e-290, 1e290], μ‖x‖∞ ∉ [1e-290, 1e300], or,
 * with μ_i > 1, ‖x‖∞/μ_i or ‖x_i‖/μ_i (≈ r_N when block i saturates) ≤ 1e-280. */
static int representable(const cb_disk_cone *c, const double *x)
{
    double xm = amax_of(x, cb_disk_cone_dim(c));
    if (!(xm >= 1e-290 && xm <= 1e290))
        return 0;
    for (int i = 0, o = 1; i < c->nblocks; o += c->size[i], i++) {
        double mu = c->mu[i], n = block_norm(c, x, i, o);
        if (mu > 0 && (xm * mu < 1e-290 || xm * mu >= 1e300))
            return 0;
        if (mu > 1 && (xm / mu <= 1e-280 || (n > 0 && n / mu <= 1e-280)))
            return 0;
    }
    return 1;
}

static void test_window_edges(void **state)
{
    (void)state;
    trng r;
    trng_seed(&r, 111);
    long n = cbt_scale(100000, 100);
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        stats st = {0};
        int m = cb_kind_nblocks((cb_kind)k), d = cb_kind_dim((cb_kind)k);
        for (long s = 0; s < n; s++) {
            double mu[3] = {pick_wide_mu(&r), pick_wide_mu(&r), pick_wide_mu(&r)}, x[CB_MAX_DIM];
            double b[CB_MAX_DIM], p[CB_MAX_DIM], y[CB_MAX_DIM];
            cb_friction f;
            cb_disk_cone c;
            set_friction(&f, mu, m);
            cb_disk_cone_of((cb_kind)k, &f, &c);
            gen_wide(&r, &c, x);
            if (!representable(&c, x))
                continue;
            if (cb_project((cb_kind)k, &f, x, p) == CB_PROJ_NONFINITE) {
                assert_true(all_nan(p, d)); /* only a projection beyond DBL_MAX */
                continue;
            }
            memcpy(b, x, sizeof b);
            for (int j = 0; j < d; j++)
                b[j] = ldexp(b[j], below(&r, 3) - 1);
            check_one(k, &f, &c, x, b, &st);
            memcpy(y, x, sizeof y);
            cb_project((cb_kind)k, &f, y, y);
            assert_memory_equal(y, p, (size_t)d * sizeof(double));
        }
        char what[32];
        snprintf(what, sizeof what, "edges %s", cb_kind_name((cb_kind)k));
        report(what, &st);
        assert_stats(&st);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* cb_project_batch: bit-identical to one cb_project call per vector and to the SSE2 path (on  */
/* AVX, coulomb3d and rolling3d run four contacts at a time: the "window" rounds keep every     */
/* vector at moderate scale and finite, so nearly every group of four takes that path).        */

static void test_batch(void **state)
{
    (void)state;
    trng r;
    trng_seed(&r, 112);
    enum { N = 4096 };
    static double x[N * CB_MAX_DIM], out[N * CB_MAX_DIM], one[N * CB_MAX_DIM];
    static cb_friction f[N];
    static cb_proj_case cases[N];
    for (int rep = 0; rep < cbt_scale(80, 8); rep++) {
        cb_kind kind = (cb_kind)(rep % CB_KIND_COUNT);
        int d = cb_kind_dim(kind), m = cb_kind_nblocks(kind), window = (rep / CB_KIND_COUNT) % 2;
        size_t n = (size_t)below(&r, N + 1);
        long bad = 0;
        for (size_t i = 0; i < n; i++) {
            double mu[3] = {pick_mu(&r, 1), pick_mu(&r, 1), pick_mu(&r, 1)};
            cb_disk_cone c;
            set_friction(&f[i], mu, m);
            cb_disk_cone_of(kind, &f[i], &c);
            if (window) { /* scale 1e±6: inside the fast paths' window */
                double s = pow(10, -6 + 12 * unif(&r));
                gen_unit(&r, &c, below(&r, NCAT), x + i * d);
                for (int j = 0; j < d; j++)
                    x[i * d + j] *= s;
            } else {
                gen_vector(&r, &c, x + i * d);
            }
            if (!window && below(&r, 50) == 0)
                x[i * d + below(&r, d)] = NAN;
            if (!window && below(&r, 50) == 0)
                f[i].mu = -1;
            bad += cb_project_sse2(kind, &f[i], x + i * d, one + i * d) == CB_PROJ_NONFINITE;
        }
        int alias = rep % 3 == 2;
        if (alias)
            memcpy(out, x, n * (size_t)d * sizeof *x);
        long got = cb_project_batch(kind, n, f, alias ? out : x, out, rep % 2 ? cases : NULL);
        assert_int_equal(got, bad);
        assert_memory_equal(out, one, n * (size_t)d * sizeof *out + (n == 0));
        for (size_t i = 0; rep % 2 && i < n; i++)
            assert_int_equal(cases[i], cb_project(kind, &f[i], x + i * d, one));
    }
    assert_int_equal(cb_project_batch((cb_kind)9, 1, f, x, out, NULL), -1);
    assert_int_equal(cb_project_batch(CB_KIND_ROLLING3D, 1, NULL, x, out, NULL), -1);
    assert_int_equal(cb_project_batch(CB_KIND_ROLLING3D, 1, f, NULL, out, NULL), -1);
    assert_int_equal(cb_project_batch(CB_KIND_ROLLING3D, 1, f, x, NULL, NULL), -1);
    assert_int_equal(cb_project_batch(CB_KIND_ROLLING3D, 0, NULL, NULL, NULL, NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_props_coulomb2d),
        cmocka_unit_test(test_props_coulomb3d),
        cmocka_unit_test(test_props_rolling2d),
        cmocka_unit_test(test_props_rolling3d),
        cmocka_unit_test(test_props_rollspin3d),
        cmocka_unit_test(test_props_general),
        cmocka_unit_test(test_nonfinite),
        cmocka_unit_test(test_extreme_scales),
        cmocka_unit_test(test_extreme_mixed),
        cmocka_unit_test(test_modified_velocity_membership),
        cmocka_unit_test(test_siconos_rolling3d),
        cmocka_unit_test(test_siconos_coulomb3d),
        cmocka_unit_test(test_window_edges),
        cmocka_unit_test(test_batch),
    };
    return cmocka_run_group_tests_name("cone", tests, NULL, NULL);
}
