/* conebench tests — the "random" generator (problems/generate.c): known solutions judged
 * ≤ 1e-13, cone membership and complementarity checked independently, mode coverage,
 * determinism, dense/BSR agreement, spectra of the SPD and multibody matrices, bad settings. */
#include "test_support.h"

#include "conebench/generate.h"
#include "conebench/judge.h"
#include "modes.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cb_kind all_kinds[CB_KIND_COUNT] = {CB_KIND_COULOMB2D, CB_KIND_COULOMB3D,
                                                 CB_KIND_ROLLING2D, CB_KIND_ROLLING3D,
                                                 CB_KIND_ROLLSPIN3D};

/* Independent block layout of each kind (Acary & Bourrier §3), not taken from cone.c. */
typedef struct {
    int d, nblocks, size[3];
} layout;

static layout layout_of(cb_kind k)
{
    switch (k) {
    case CB_KIND_COULOMB2D: return (layout){2, 1, {1, 0, 0}};
    case CB_KIND_COULOMB3D: return (layout){3, 1, {2, 0, 0}};
    case CB_KIND_ROLLING2D: return (layout){3, 2, {1, 1, 0}};
    case CB_KIND_ROLLING3D: return (layout){5, 2, {2, 2, 0}};
    default: return (layout){6, 3, {2, 2, 1}};
    }
}

static double coef(const cb_problem *p, int a, int i)
{
    return i == 0 ? p->mu[a] : (i == 1 ? p->mu_r[a] : p->mu_s[a]);
}

static double bnorm(const double *x, int size) { return size == 1 ? fabs(x[0]) : hypot(x[0], x[1]); }

static double vmax_abs(const double *x, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs(x[i]));
    return m;
}

static cb_random_settings base(cb_kind kind, int nc, cb_gen_matrix m, cb_storage st, uint64_t seed)
{
    cb_random_settings s;
    cb_random_settings_default(&s);
    s.kind = kind;
    s.nc = nc;
    s.matrix = m;
    s.storage = st;
    s.seed = seed;
    return s;
}

static cb_problem *gen(const cb_random_settings *s, double **p, double **y)
{
    cb_problem *prob = NULL;
    cb_error err = {{0}};
    int rc = cb_generate_random(s, &prob, p, y, &err);
    if (rc != CB_OK)
        print_message("generate failed: %s\n", err.text);
    assert_int_equal(rc, CB_OK);
    assert_non_null(prob);
    assert_int_equal(cb_problem_check(prob, &err), CB_OK);
    return prob;
}

/* p ∈ K, ŷ ∈ K*, |⟨ŷ, p⟩| small — contact by contact, with this file's own formulas. */
static void check_moreau(const cb_problem *prob, const double *p, const double *y)
{
    layout L = layout_of(prob->kind);
    size_t n = cb_problem_n(prob);
    double sp = fmax(vmax_abs(p, n), 1e-300), sy = fmax(vmax_abs(y, n), 1e-300);
    for (int a = 0; a < prob->nc; a++) {
        const double *pa = p + (size_t)a * L.d, *ya = y + (size_t)a * L.d;
        double g = 0, dot = 0;
        for (int i = 0, off = 1; i < L.nblocks; off += L.size[i], i++) {
            assert_true(bnorm(pa + off, L.size[i]) <= coef(prob, a, i) * pa[0] + 1e-13 * sp);
            g += coef(prob, a, i) * bnorm(ya + off, L.size[i]);
        }
        assert_true(pa[0] >= 0);
        assert_true(ya[0] + g >= g - 1e-13 * sy); /* ŷ_N ≥ Σ μ_i ‖y_i‖ */
        dot = (ya[0] + g) * pa[0];
        for (int k = 1; k < L.d; k++)
            dot += ya[k] * pa[k];
        assert_true(fabs(dot) <= 1e-12 * sp * sy * L.d);
    }
}

/* Mode set of every contact of (p, y); none may be undefined. Returns a bit set over the modes
 * (bit m for mode value m; values < 64). */
static uint64_t modes_seen(const cb_problem *prob, const double *p, const double *y)
{
    size_t n = cb_problem_n(prob);
    cb_mode_settings ms;
    cb_mode_settings_default(&ms);
    ms.scale_p = vmax_abs(p, n);
    ms.scale_y = vmax_abs(y, n);
    uint64_t seen = 0;
    for (int a = 0; a < prob->nc; a++) {
        cb_friction f;
        cb_problem_friction(prob, a, &f);
        size_t off = (size_t)a * prob->d;
        int m = cb_contact_mode(prob->kind, &f, p + off, y + off, &ms);
        assert_false(m & CB_MODE_UNDEFINED);
        seen |= 1ULL << m;
    }
    return seen;
}

/* Every mode of the disjunctive form: take-off, stick, each non-empty moving subset. */
static void check_all_modes(cb_kind kind, uint64_t seen)
{
    static const int bits[3] = {CB_MODE_SLIDE, CB_MODE_ROLL, CB_MODE_SPIN};
    layout L = layout_of(kind);
    assert_true(seen & (1ULL << CB_MODE_TAKEOFF));
    assert_true(seen & (1ULL << CB_MODE_STICK));
    for (int mask = 1; mask < (1 << L.nblocks); mask++) {
        int m = 0;
        for (int i = 0; i < L.nblocks; i++)
            m |= (mask & (1 << i)) ? bits[i] : 0;
        if (!(seen & (1ULL << m)))
            print_message("kind %s: mode %d missing\n", cb_kind_name(kind), m);
        assert_true(seen & (1ULL << m));
    }
}

/* Generate, judge at p*, check everything; returns the judged error. */
static double check_one(const cb_random_settings *s)
{
    double *p = NULL, *ystar = NULL;
    cb_problem *prob = gen(s, &p, &ystar);
    size_t n = cb_problem_n(prob);
    double *y = calloc(n, sizeof(double));
    assert_non_null(y);
    cb_judgement j;
    cb_error err = {{0}};
    assert_int_equal(cb_judge(prob, p, 1e-13, y, &j, &err), CB_OK);
    if (!(j.error <= 1e-13))
        print_message("%s: error %.3g\n", prob->name, j.error);
    assert_true(j.error <= 1e-13);
    assert_true(j.solved);
    assert_true(cbt_vec_reldiff(y, ystar, n, 1e-300) <= 1e-13);
    for (int a = 0; a < s->nc; a++) {
        assert_true(prob->mu[a] >= s->mu_min && prob->mu[a] <= s->mu_max);
        int nb = layout_of(s->kind).nblocks;
        assert_true(nb >= 2 ? (prob->mu_r[a] >= s->mur_min && prob->mu_r[a] <= s->mur_max)
                            : prob->mu_r[a] == 0);
        assert_true(nb >= 3 ? (prob->mu_s[a] >= s->mus_min && prob->mu_s[a] <= s->mus_max)
                            : prob->mu_s[a] == 0);
    }
    check_moreau(prob, p, ystar);
    check_moreau(prob, p, y);
    uint64_t seen = modes_seen(prob, p, y);
    if (s->nc >= 50)
        check_all_modes(s->kind, seen);
    double e = j.error;
    cb_problem_free(prob);
    free(p);
    free(ystar);
    free(y);
    return e;
}

static void test_known_solutions_bsr(void **state)
{
    (void)state;
    static const int sizes[] = {1, 7, 100, 2000};
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        double worst = 0;
        for (int m = 0; m < 2; m++)
            for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
                for (uint64_t seed = 1; seed <= (uint64_t)cbt_scale(3, 3); seed++) {
                    int nc = (int)(sizes[i] >= 2000 ? cbt_scale(sizes[i], 10) : sizes[i]);
                    cb_random_settings s =
                        base(all_kinds[k], nc, (cb_gen_matrix)m, CB_STORAGE_BSR, seed);
                    s.semidefinite = (int)(m == CB_GEN_SPD && seed == 2);
                    worst = fmax(worst, check_one(&s));
                }
        print_message("%-10s bsr:   max judged error at p* = %.3g\n", cb_kind_name(all_kinds[k]),
                      worst);
    }
}

static void test_known_solutions_dense(void **state)
{
    (void)state;
    static const int sizes[] = {1, 7, 60, 300};
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        double worst = 0;
        for (int m = 0; m < 2; m++)
            for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
                int nc = (int)(sizes[i] >= 300 ? cbt_scale(sizes[i], 3) : sizes[i]);
                cb_random_settings s =
                    base(all_kinds[k], nc, (cb_gen_matrix)m, CB_STORAGE_DENSE, 10 + i);
                worst = fmax(worst, check_one(&s));
            }
        print_message("%-10s dense: max judged error at p* = %.3g\n", cb_kind_name(all_kinds[k]),
                      worst);
    }
}

/* Extreme coefficient ranges (μ = 0 blocks, huge μ) and extreme condition numbers. */
static void test_known_solutions_extreme(void **state)
{
    (void)state;
    for (int k = 0; k < CB_KIND_COUNT; k++)
        for (int m = 0; m < 2; m++) {
            cb_random_settings s = base(all_kinds[k], 80, (cb_gen_matrix)m, CB_STORAGE_BSR, 5);
            s.mu_min = s.mur_min = s.mus_min = 0;
            s.mu_max = s.mur_max = s.mus_max = 0;
            assert_true(check_one(&s) <= 1e-13);
            s.mu_min = 2, s.mu_max = 50;
            s.mur_min = s.mus_min = 1e-8, s.mur_max = s.mus_max = 1e-6;
            if (m == CB_GEN_SPD) /* the spd-only settings (refused with multibody) */
                s.cond = 1e10, s.density = 1;
            assert_true(check_one(&s) <= 1e-13);
        }
}

static int same_problem(const cb_problem *a, const cb_problem *b)
{
    size_t n = cb_problem_n(a), dd = (size_t)a->d * a->d;
    if (a->nc != b->nc || a->kind != b->kind || a->storage != b->storage)
        return 0;
    if (memcmp(a->q, b->q, n * sizeof(double)) || memcmp(a->mu, b->mu, a->nc * sizeof(double)) ||
        memcmp(a->mu_r, b->mu_r, a->nc * sizeof(double)) ||
        memcmp(a->mu_s, b->mu_s, a->nc * sizeof(double)))
        return 0;
    if (a->storage == CB_STORAGE_DENSE)
        return memcmp(a->W, b->W, n * n * sizeof(double)) == 0;
    return a->bsr.nnzb == b->bsr.nnzb &&
           !memcmp(a->bsr.row_ptr, b->bsr.row_ptr, (a->nc + 1) * sizeof(int)) &&
           !memcmp(a->bsr.col, b->bsr.col, a->bsr.nnzb * sizeof(int)) &&
           !memcmp(a->bsr.val, b->bsr.val, a->bsr.nnzb * dd * sizeof(double));
}

static void test_deterministic(void **state)
{
    (void)state;
    for (int k = 0; k < CB_KIND_COUNT; k++)
        for (int m = 0; m < 2; m++)
            for (int st = 0; st < 2; st++) {
                cb_random_settings s = base(all_kinds[k], 70, (cb_gen_matrix)m, (cb_storage)st, 7);
                double *p1, *p2, *y1, *y2;
                cb_problem *a = gen(&s, &p1, &y1), *b = gen(&s, &p2, &y2);
                size_t n = cb_problem_n(a);
                assert_true(same_problem(a, b));
                assert_memory_equal(p1, p2, n * sizeof(double));
                assert_memory_equal(y1, y2, n * sizeof(double));
                assert_string_equal(a->prov.params, b->prov.params);
                s.seed = 8;
                cb_problem *c = gen(&s, NULL, NULL);
                assert_false(same_problem(a, c));
                assert_true(memcmp(a->q, c->q, n * sizeof(double)) != 0);
                cb_problem_free(a), cb_problem_free(b), cb_problem_free(c);
                free(p1), free(p2), free(y1), free(y2);
            }
}

static void test_dense_matches_bsr(void **state)
{
    (void)state;
    for (int k = 0; k < CB_KIND_COUNT; k++)
        for (int m = 0; m < 2; m++) {
            cb_random_settings s = base(all_kinds[k], 45, (cb_gen_matrix)m, CB_STORAGE_BSR, 3);
            double *pb, *pd, *yb, *yd;
            cb_problem *b = gen(&s, &pb, &yb), *dense = NULL, *conv = NULL;
            s.storage = CB_STORAGE_DENSE;
            dense = gen(&s, &pd, &yd);
            size_t n = cb_problem_n(b);
            assert_int_equal(cb_problem_to_dense(b, &conv, NULL), CB_OK);
            assert_memory_equal(conv->W, dense->W, n * n * sizeof(double));
            assert_memory_equal(b->mu, dense->mu, s.nc * sizeof(double));
            assert_memory_equal(b->mu_r, dense->mu_r, s.nc * sizeof(double));
            assert_memory_equal(b->mu_s, dense->mu_s, s.nc * sizeof(double));
            assert_memory_equal(pb, pd, n * sizeof(double));
            assert_memory_equal(yb, yd, n * sizeof(double));
            assert_true(cbt_vec_reldiff(b->q, dense->q, n, 1e-300) <= 1e-14);
            cb_problem_free(b), cb_problem_free(dense), cb_problem_free(conv);
            free(pb), free(pd), free(yb), free(yd);
        }
}

/* Eigenvalues (ascending) of the dense symmetric W of prob; also checks exact symmetry. */
static double *eigenvalues(const cb_problem *prob)
{
    cb_problem *dense = NULL;
    assert_int_equal(cb_problem_to_dense(prob, &dense, NULL), CB_OK);
    int n = (int)cb_problem_n(dense);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            assert_true(dense->W[i + (size_t)j * n] == dense->W[j + (size_t)i * n]);
    double *w = calloc((size_t)n, sizeof(double));
    assert_non_null(w);
    assert_int_equal(LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'U', n, dense->W, n, w), 0);
    cb_problem_free(dense);
    return w;
}

/* Measured condition λ_max / λ_min of a generated SPD matrix. */
static double measured_cond(cb_kind kind, int nc, double cond, double density, uint64_t seed)
{
    cb_random_settings s = base(kind, nc, CB_GEN_SPD, CB_STORAGE_BSR, seed);
    s.cond = cond;
    s.density = density;
    cb_problem *prob = gen(&s, NULL, NULL);
    int n = (int)cb_problem_n(prob);
    double *w = eigenvalues(prob), c = w[n - 1] / w[0];
    assert_true(w[0] > 0);
    free(w);
    cb_problem_free(prob);
    return c;
}

static void test_spd_condition(void **state)
{
    (void)state;
    static const double conds[] = {1, 10, 1e3, 1e6, 1e9};
    for (size_t i = 0; i < sizeof conds / sizeof *conds; i++) {
        /* exact-spectrum path (dense orthogonal groups) */
        double c1 = measured_cond(CB_KIND_ROLLING3D, 40, conds[i], 1.0, 1 + i);
        double c2 = measured_cond(CB_KIND_COULOMB3D, 60, conds[i], 0.2, 2 + i);
        print_message("SPD cond %.0e: measured %.6e (dense groups), %.6e (density 0.2)\n",
                      conds[i], c1, c2);
        assert_true(cbt_reldiff(c1, conds[i], 0) <= 0.02);
        assert_true(cbt_reldiff(c2, conds[i], 0) <= 0.02);
    }
    /* sparse path (group too large): guaranteed cond ≤ cond(W) ≤ 2 cond */
    int nc = cbt_quick() ? 130 : 150;
    for (size_t i = 0; i < 3; i++) {
        double c3 = measured_cond(CB_KIND_ROLLING3D, nc, conds[i + 1], 1.0, 9);
        print_message("SPD cond %.0e: measured %.6e (sparse Gershgorin path)\n", conds[i + 1],
                      c3);
        assert_true(c3 >= conds[i + 1] * (1 - 1e-9) && c3 <= 2 * conds[i + 1] * (1 + 1e-9));
    }
}

static void test_spd_semidefinite(void **state)
{
    (void)state;
    static const int sizes[] = {30, 140}; /* exact path, sparse path (rolling3d, density 1) */
    for (size_t i = 0; i < 2; i++) {
        cb_random_settings s = base(CB_KIND_ROLLING3D, sizes[i], CB_GEN_SPD, CB_STORAGE_BSR, 4);
        s.semidefinite = 1;
        s.density = 1;
        cb_problem *prob = gen(&s, NULL, NULL);
        int n = (int)cb_problem_n(prob), zeros = 0;
        double *w = eigenvalues(prob), top = w[n - 1], small = INFINITY;
        for (int k = 0; k < n; k++) {
            assert_true(w[k] >= -1e-12 * top);
            if (fabs(w[k]) <= 1e-12 * top)
                zeros++;
            else
                small = fmin(small, w[k]);
        }
        print_message("semidefinite n=%d: λ_min = %.3g, %d zero eigenvalues, cond of the rest "
                      "%.4g\n", n, w[0], zeros, top / small);
        assert_true(zeros >= 1 && zeros < n);
        assert_true(top / small >= s.cond * 0.98 && top / small <= 2.0 * s.cond * 1.02);
        free(w);
        cb_problem_free(prob);
    }
}

/* Fraction of coupled off-diagonal block pairs ≈ density. */
static void test_spd_density(void **state)
{
    (void)state;
    static const struct {
        cb_kind kind;
        int nc;
        double density;
    } cases[] = {{CB_KIND_COULOMB3D, 200, 0.1}, {CB_KIND_ROLLSPIN3D, 400, 0.5},
                 {CB_KIND_ROLLING3D, 1000, 0.05}, {CB_KIND_COULOMB2D, 300, 1.0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cb_random_settings s = base(cases[i].kind, cases[i].nc, CB_GEN_SPD, CB_STORAGE_BSR, 1);
        s.density = cases[i].density;
        cb_problem *prob = gen(&s, NULL, NULL);
        double frac = (double)(prob->bsr.nnzb - s.nc) / ((double)s.nc * (s.nc - 1));
        print_message("density %.2f: coupled fraction %.4f\n", s.density, frac);
        assert_true(fabs(frac - s.density) <= 0.1 * s.density + 0.005);
        cb_problem_free(prob);
    }
}

/* W = Hᵀ M⁻¹ H is positive semidefinite, and rank W = rank H ≤ dof·bodies (dof 6, 3 for the
 * planar kinds; the default count is ⌈2nc/3⌉); with 5 bodies every kind's n exceeds 30, so W is
 * singular, and p* is still exact. */
static void test_multibody_psd(void **state)
{
    (void)state;
    static const int counts[] = {0, 5, 100}; /* default (40), few, many bodies */
    for (int k = 0; k < CB_KIND_COUNT; k++)
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
            cb_random_settings s = base(all_kinds[k], 60, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 11);
            s.bodies = counts[c];
            cb_problem *prob = gen(&s, NULL, NULL);
            int n = (int)cb_problem_n(prob), pos = 0, nb = s.bodies ? s.bodies : 40;
            int dof = all_kinds[k] == CB_KIND_COULOMB2D || all_kinds[k] == CB_KIND_ROLLING2D ? 3
                                                                                           : 6;
            double *w = eigenvalues(prob), top = w[n - 1], small = top;
            assert_true(top > 0);
            for (int i = 0; i < n; i++) {
                assert_true(w[i] >= -1e-12 * top);
                pos += w[i] > 1e-10 * top;
                small = w[i] > 1e-10 * top ? fmin(small, w[i]) : small;
            }
            print_message("multibody %-10s bodies=%3d: λ ∈ [%.2g, %.3g], rank %d of %d, "
                          "cond on the range %.3g\n", cb_kind_name(all_kinds[k]), s.bodies, w[0],
                          top, pos, n, top / small);
            assert_true(pos >= 1 && pos <= dof * nb && pos <= n);
            if (counts[c] == 5)
                assert_true(check_one(&s) <= 1e-13);
            free(w);
            cb_problem_free(prob);
        }
}

/* Sparsity: one body ⇒ every contact touches it ⇒ W fully coupled; many bodies ⇒ sparse. */
static void test_multibody_pattern(void **state)
{
    (void)state;
    cb_random_settings s = base(CB_KIND_ROLLING3D, 50, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 2);
    s.bodies = 1;
    cb_problem *prob = gen(&s, NULL, NULL);
    assert_int_equal(prob->bsr.nnzb, 50 * 50);
    cb_problem_free(prob);
    s.nc = 5000;
    s.bodies = 0;
    prob = gen(&s, NULL, NULL);
    print_message("multibody nc=5000: %.2f blocks per row\n", (double)prob->bsr.nnzb / s.nc);
    assert_true(prob->bsr.nnzb < 20 * s.nc);
    for (int a = 0; a < s.nc; a++) { /* diagonal block present in every row */
        int found = 0;
        for (int k = prob->bsr.row_ptr[a]; k < prob->bsr.row_ptr[a + 1]; k++)
            found |= prob->bsr.col[k] == a;
        assert_true(found);
    }
    cb_problem_free(prob);
}

static void test_large_timing(void **state)
{
    (void)state;
    int nc = (int)cbt_scale(10000, 10);
    cb_random_settings s = base(CB_KIND_ROLLING3D, nc, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 1);
    double t0 = cb_now(), *p = NULL;
    cb_problem *prob = gen(&s, &p, NULL);
    double t = cb_now() - t0;
    cb_judgement j;
    assert_int_equal(cb_judge(prob, p, 1e-13, NULL, &j, NULL), CB_OK);
    print_message("rolling3d multibody nc=%d: generated in %.3f s, nnzb %d, error %.3g\n", nc, t,
                  prob->bsr.nnzb, j.error);
    assert_true(j.error <= 1e-13); /* the time is printed, not asserted (BENCHMARKS.md) */
    cb_problem_free(prob);
    free(p);
}

static void test_provenance(void **state)
{
    (void)state;
    cb_random_settings s = base(CB_KIND_ROLLSPIN3D, 12, CB_GEN_SPD, CB_STORAGE_DENSE, 123456789);
    s.cond = 250;
    s.density = 0.3;
    cb_problem *prob = gen(&s, NULL, NULL);
    assert_string_equal(prob->prov.generator, "random");
    assert_true(prob->prov.seed == 123456789ULL);
    assert_null(prob->prov.source);
    const char *want[] = {"kind=rollspin3d", "nc=12", "matrix=spd", "cond=250", "density=0.3",
                          "seed=123456789"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        if (!strstr(prob->prov.params, want[i]))
            print_message("params '%s' lacks '%s'\n", prob->prov.params, want[i]);
        assert_non_null(strstr(prob->prov.params, want[i]));
    }
    assert_non_null(prob->name);
    cb_problem_free(prob);
}

/* ---- invalid settings: each mutation must give CB_ERR_INPUT naming its field */

typedef struct {
    const char *field;
    void (*mutate)(cb_random_settings *);
} bad_case;

static void m_nc0(cb_random_settings *s) { s->nc = 0; }
static void m_ncneg(cb_random_settings *s) { s->nc = -5; }
static void m_nchuge(cb_random_settings *s) { s->nc = 2000000000; }
static void m_kind(cb_random_settings *s) { s->kind = (cb_kind)99; }
static void m_kindneg(cb_random_settings *s) { s->kind = (cb_kind)-1; }
static void m_matrix(cb_random_settings *s) { s->matrix = (cb_gen_matrix)5; }
static void m_storage(cb_random_settings *s) { s->storage = (cb_storage)7; }
static void m_cond_low(cb_random_settings *s) { s->cond = 0.5; }
static void m_cond_nan(cb_random_settings *s) { s->cond = NAN; }
static void m_cond_inf(cb_random_settings *s) { s->cond = INFINITY; }
static void m_dens0(cb_random_settings *s) { s->density = 0; }
static void m_dens_big(cb_random_settings *s) { s->density = 1.5; }
static void m_dens_nan(cb_random_settings *s) { s->density = NAN; }
static void m_mu_neg(cb_random_settings *s) { s->mu_min = -0.1; }
static void m_mu_order(cb_random_settings *s) { s->mu_min = 0.9, s->mu_max = 0.2; }
static void m_mur_nan(cb_random_settings *s) { s->mur_max = NAN; }
static void m_mus_neg(cb_random_settings *s) { s->mus_min = -1, s->mus_max = -0.5; }
static void m_mus_inf(cb_random_settings *s) { s->mus_max = INFINITY; }
static void m_bodies(cb_random_settings *s) { s->bodies = -3; }
static void m_bodies_big(cb_random_settings *s) { s->bodies = 1000000; }
static void m_bodies_spd(cb_random_settings *s) { s->matrix = CB_GEN_SPD, s->bodies = 3; }
static void m_semidef_mb(cb_random_settings *s) { s->semidefinite = 1; }
static void m_cond_mb(cb_random_settings *s) { s->cond = 10; }
static void m_dens_mb(cb_random_settings *s) { s->density = 0.5; }
static void m_dense_big(cb_random_settings *s) { s->storage = CB_STORAGE_DENSE, s->nc = 100000; }
static void m_spd_huge(cb_random_settings *s)
{
    s->matrix = CB_GEN_SPD, s->nc = 1000000, s->density = 1;
}

static void test_invalid_settings(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"nc", m_nc0},          {"nc", m_ncneg},         {"nc", m_nchuge},
        {"kind", m_kind},       {"kind", m_kindneg},     {"matrix", m_matrix},
        {"storage", m_storage}, {"cond", m_cond_low},    {"cond", m_cond_nan},
        {"cond", m_cond_inf},   {"density", m_dens0},    {"density", m_dens_big},
        {"density", m_dens_nan}, {"mu_min", m_mu_neg},   {"mu_min", m_mu_order},
        {"mur_max", m_mur_nan}, {"mus_min", m_mus_neg},  {"mus_max", m_mus_inf},
        {"bodies", m_bodies},   {"bodies", m_bodies_big}, {"storage", m_dense_big},
        {"density", m_spd_huge}, {"bodies", m_bodies_spd}, {"semidefinite", m_semidef_mb},
        {"cond", m_cond_mb},    {"density", m_dens_mb}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cb_random_settings s;
        cb_random_settings_default(&s);
        cases[i].mutate(&s);
        cb_problem *prob = (cb_problem *)&s; /* must be reset to NULL */
        double *p = (double *)&s, *y = (double *)&s;
        cb_error err = {{0}};
        assert_int_equal(cb_generate_random(&s, &prob, &p, &y, &err), CB_ERR_INPUT);
        assert_null(prob);
        assert_null(p);
        assert_null(y);
        if (!strstr(err.text, cases[i].field))
            print_message("case %zu: '%s' does not name %s\n", i, err.text, cases[i].field);
        assert_non_null(strstr(err.text, cases[i].field));
    }
    cb_problem *prob = NULL;
    cb_error err = {{0}};
    assert_int_equal(cb_generate_random(NULL, &prob, NULL, NULL, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "settings"));
    cb_random_settings s;
    cb_random_settings_default(&s);
    assert_int_equal(cb_generate_random(&s, NULL, NULL, NULL, NULL), CB_ERR_INPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invalid_settings),   cmocka_unit_test(test_provenance),
        cmocka_unit_test(test_known_solutions_bsr), cmocka_unit_test(test_known_solutions_dense),
        cmocka_unit_test(test_known_solutions_extreme), cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_dense_matches_bsr),  cmocka_unit_test(test_spd_condition),
        cmocka_unit_test(test_spd_semidefinite),   cmocka_unit_test(test_spd_density),
        cmocka_unit_test(test_multibody_psd),      cmocka_unit_test(test_multibody_pattern),
        cmocka_unit_test(test_large_timing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
