/* conebench tests — deterministic arithmetic (solvers/detmath.c): elementary functions against
 * long-double references, reductions against exact sums, dense factorisations against LAPACK
 * solutions and their residuals, and special values. The bitwise identity across CPUs, OpenBLAS
 * kernels and libm variants is checked by tests/repro.sh. */
#include "test_support.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "detmath.h"

/* Error of x in units in the last place of the reference ref. */
static double ulps(double x, long double ref)
{
    if (ref == 0)
        return x == 0 ? 0 : INFINITY;
    double r = (double)ref, u = nextafter(fabs(r), INFINITY) - fabs(r);
    return (double)(fabsl((long double)x - ref) / u);
}

typedef struct {
    const char *name;
    double lo, hi;            /* argument range (uniform) */
    double (*f)(double);
    long double (*ref)(long double);
    double max_ulps;
} fn_case;

static long double ref_sin(long double x) { return sinl(x); }
static long double ref_cos(long double x) { return cosl(x); }

/* Each function within max_ulps of the long-double reference over its range. */
static void test_elementary_accuracy(void **state)
{
    (void)state;
    const fn_case cases[] = {
        {"exp", -700, 700, cb_exp, expl, 2},        {"exp small", -1, 1, cb_exp, expl, 2},
        {"log", 1e-300, 1e300, cb_log, logl, 2},    {"log near 1", 0.5, 2, cb_log, logl, 2},
        {"log1p", -0.999, 10, cb_log1p, log1pl, 3}, {"log1p tiny", -1e-10, 1e-10, cb_log1p, log1pl, 3},
        {"sin", -7, 7, cb_sin, ref_sin, 2},         {"cos", -7, 7, cb_cos, ref_cos, 2},
        {"sin 2pi", 0, 2 * M_PI, cb_sin, ref_sin, 2}, {"cos big", -1e5, 1e5, cb_cos, ref_cos, 3},
    };
    cb_rng r;
    cb_rng_seed(&r, 7);
    long n = cbt_scale(200000, 20);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double worst = 0;
        for (long i = 0; i < n; i++) {
            double x = cb_rng_range(&r, cases[c].lo, cases[c].hi);
            if (!strcmp(cases[c].name, "log")) /* log-uniform over the whole range */
                x = ldexp(cb_rng_range(&r, 0.5, 1.0), (int)cb_rng_range(&r, -990, 990));
            long double ref = cases[c].ref((long double)x);
            if (fabsl(ref) < 1e-300L)
                continue;
            double e = ulps(cases[c].f(x), ref);
            worst = e > worst ? e : worst;
        }
        print_message("  %-10s worst %.2f ulp over %ld points\n", cases[c].name, worst, n);
        assert_true(worst <= cases[c].max_ulps);
    }
}

/* Exact values and the edges of the domains. */
static void test_special_values(void **state)
{
    (void)state;
    assert_true(cb_exp(0.0) == 1.0);
    assert_true(cb_exp(1000.0) == HUGE_VAL);
    assert_true(cb_exp(-1000.0) == 0.0);
    assert_true(isnan(cb_exp(NAN)));
    assert_true(cb_exp(-745.0) > 0.0); /* subnormal, not flushed */
    assert_true(cb_log(1.0) == 0.0);
    assert_true(cb_log(0.0) == -HUGE_VAL);
    assert_true(isnan(cb_log(-1.0)));
    assert_true(cb_log(HUGE_VAL) == HUGE_VAL);
    assert_true(fabs(cb_log(DBL_TRUE_MIN) - (-744.44007192138126)) < 1e-12);
    assert_true(cb_log1p(0.0) == 0.0 && cb_log1p(-1.0) == -HUGE_VAL);
    assert_true(cb_pow(2.0, 10.0) == 1024.0 || fabs(cb_pow(2.0, 10.0) - 1024.0) < 1e-12);
    assert_true(cb_pow(0.0, 2.0) == 0.0 && cb_pow(5.0, 0.0) == 1.0);
    double s, c;
    cb_sincos(0.0, &s, &c);
    assert_true(s == 0.0 && c == 1.0);
    cb_sincos(M_PI / 2, &s, &c);
    assert_true(fabs(s - 1.0) < 1e-16 && fabs(c) < 1e-16);
    cb_sincos(INFINITY, &s, &c);
    assert_true(isnan(s) && isnan(c));
}

/* Dot and 2-norm: exact on integers; the 2-norm survives over- and underflow. */
static void test_reductions(void **state)
{
    (void)state;
    double x[100], y[100];
    long double exact = 0;
    for (int i = 0; i < 100; i++) {
        x[i] = i - 50, y[i] = 3 * i + 1;
        exact += (long double)x[i] * y[i];
    }
    assert_true(cb_dot(x, y, 100) == (double)exact);
    double big[3] = {3e200, 4e200, 0}, tiny[2] = {3e-200, 4e-200}, z[2] = {0, 0};
    assert_true(fabs(cb_nrm2(big, 3) / 5e200 - 1) < 1e-15);
    assert_true(fabs(cb_nrm2(tiny, 2) / 5e-200 - 1) < 1e-15);
    assert_true(cb_nrm2(z, 2) == 0.0 && cb_nrm2(z, 0) == 0.0);
    double inf[2] = {INFINITY, 1}, nan[2] = {NAN, 1};
    assert_true(cb_nrm2(inf, 2) == INFINITY && isnan(cb_nrm2(nan, 2)));
}

/* A random SPD matrix B Bᵀ + n I (column-major) and a copy. */
static void spd(cb_rng *r, int n, double *A)
{
    double *B = malloc((size_t)n * n * sizeof *B);
    for (int i = 0; i < n * n; i++)
        B[i] = cb_rng_normal(r);
    cb_gemm(0, 1, n, n, n, 1.0, B, n, B, n, 0.0, A, n);
    for (int i = 0; i < n; i++)
        A[i + i * n] += n;
    free(B);
}

/* Cholesky and LU solves agree with LAPACK's to 1e-12 and leave residuals ≤ 1e-12. */
static void test_factorisations(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 3);
    for (int n = 1; n <= 40; n += 13) {
        size_t nn = (size_t)n * n;
        double *A = malloc(nn * sizeof *A), *F = malloc(nn * sizeof *F), *b = malloc(n * sizeof *b),
               *x = malloc(n * sizeof *x), *xl = malloc(n * sizeof *xl), *Ax = malloc(n * sizeof *Ax);
        int *ipiv = malloc(n * sizeof *ipiv);
        lapack_int *lp = malloc(n * sizeof *lp);
        for (int lu = 0; lu < 2; lu++) {
            spd(&r, n, A);
            if (lu) /* make it nonsymmetric */
                for (int i = 0; i < n; i++)
                    A[i + ((i + 1) % n) * n] += 0.5;
            for (int i = 0; i < n; i++)
                b[i] = cb_rng_normal(&r);
            memcpy(F, A, nn * sizeof *A);
            memcpy(x, b, n * sizeof *b);
            if (lu) {
                assert_int_equal(cb_getrf(n, F, n, ipiv), 0);
                cb_getrs(n, 1, F, n, ipiv, x, n);
            } else {
                assert_int_equal(cb_potrf(n, F, n), 0);
                cb_potrs(n, 1, F, n, x, n);
            }
            memcpy(F, A, nn * sizeof *A);
            memcpy(xl, b, n * sizeof *b);
            assert_int_equal(LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, F, n, lp, xl, n), 0);
            cb_gemm(0, 0, n, 1, n, 1.0, A, n, x, n, 0.0, Ax, n);
            assert_true(cbt_vec_reldiff(Ax, b, (size_t)n, 1.0) < 1e-12);
            assert_true(cbt_vec_reldiff(x, xl, (size_t)n, 1e-300) < 1e-12);
        }
        free(A), free(F), free(b), free(x), free(xl), free(Ax), free(ipiv), free(lp);
    }
    double notpd[4] = {1, 2, 2, 1}, sing[4] = {1, 2, 2, 4};
    int ip[2];
    assert_int_equal(cb_potrf(2, notpd, 2), 2); /* 1 − 4 < 0 at the second minor */
    assert_int_equal(cb_getrf(2, sing, 2, ip), 2);
}

/* gemm with every transposition against a long-double triple loop. */
static void test_gemm(void **state)
{
    (void)state;
    enum { M = 5, N = 4, K = 7 };
    double A[M * K], B[K * N], C[M * N];
    cb_rng r;
    cb_rng_seed(&r, 11);
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
            for (int i = 0; i < M * K; i++)
                A[i] = cb_rng_normal(&r);
            for (int i = 0; i < K * N; i++)
                B[i] = cb_rng_normal(&r);
            for (int i = 0; i < M * N; i++)
                C[i] = 1.0;
            int lda = ta ? K : M, ldb = tb ? N : K;
            cb_gemm(ta, tb, M, N, K, 2.0, A, lda, B, ldb, 0.5, C, M);
            for (int j = 0; j < N; j++)
                for (int i = 0; i < M; i++) {
                    long double s = 0;
                    for (int l = 0; l < K; l++)
                        s += (long double)(ta ? A[l + i * lda] : A[i + l * lda]) *
                             (tb ? B[j + l * ldb] : B[l + j * ldb]);
                    assert_true(fabsl(C[i + j * M] - (0.5L + 2 * s)) < 1e-13L);
                }
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elementary_accuracy), cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_reductions),          cmocka_unit_test(test_factorisations),
        cmocka_unit_test(test_gemm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
