/* conebench tests — the generalised Jacobian of the product-disk projection against central
 * finite differences of cb_project, away from the kinks, for every case (inside, zero, every
 * saturated set of the boundary case) of every kind; and its defining properties (J = I inside,
 * 0 in the polar cone, J P = P on the boundary by homogeneity, J symmetric and 0 ≤ J ≤ I as the
 * derivative of a projection onto a convex set). */
#include "test_support.h"

#include <math.h>
#include <string.h>

#include "conebench/cone.h"
#include "rng.h"
#include "cone_kernels.h"

#define FD_H 1e-7
#define KINK_GAP 1e-4 /* relative distance from any breakpoint for a finite-difference check */

/* A random point: scale over three decades, direction Gaussian, coefficients in [0.05, 1.5]. */
static void draw(cb_rng *r, cb_kind kind, cb_friction *f, double *x)
{
    int d = cb_kind_dim(kind);
    double scale = pow(10.0, cb_rng_range(r, -1.5, 1.5));
    for (int k = 0; k < d; k++)
        x[k] = scale * cb_rng_normal(r);
    f->mu = cb_rng_range(r, 0.05, 1.5);
    f->mu_r = cb_rng_range(r, 0.05, 1.5);
    f->mu_s = cb_rng_range(r, 0.05, 1.5);
}

/* The saturated set as a bit mask (bit i: block i scaled), from the projection P of x. */
static int saturated(cb_kind kind, const cb_friction *f, const double *x, const double *P,
                     double *gap)
{
    cb_disk_cone c;
    cb_disk_cone_of(kind, f, &c);
    int mask = 0;
    *gap = INFINITY;
    for (int i = 0, off = 1; i < c.nblocks; off += c.size[i], i++) {
        double n = c.size[i] == 1 ? fabs(x[off]) : hypot(x[off], x[off + 1]);
        mask |= (c.mu[i] * P[0] < n) << i;
        *gap = fmin(*gap, fabs(n - c.mu[i] * P[0]) / (fabs(n) + fabs(P[0]) + 1e-300));
    }
    return mask;
}

/* Max |J − J_fd| over the entries, relative to 1 (J entries are O(1)). */
static double fd_error(cb_kind kind, const cb_friction *f, const double *x, const double *J)
{
    int d = cb_kind_dim(kind);
    double worst = 0, xp[CB_MAX_DIM], xm[CB_MAX_DIM], pp[CB_MAX_DIM], pm[CB_MAX_DIM];
    double h = FD_H * (1 + fabs(x[0]));
    for (int j = 0; j < d; j++) {
        memcpy(xp, x, (size_t)d * sizeof *x);
        memcpy(xm, x, (size_t)d * sizeof *x);
        xp[j] += h, xm[j] -= h;
        cb_project(kind, f, xp, pp);
        cb_project(kind, f, xm, pm);
        for (int i = 0; i < d; i++)
            worst = fmax(worst, fabs((pp[i] - pm[i]) / (2 * h) - J[i + j * d]));
    }
    return worst;
}

/* Symmetric, 0 ≤ J ≤ I (eigenvalues of the symmetric matrix in [0, 1]: checked as
 * 0 ≤ vᵀJv ≤ vᵀv on random v), and J P = P on the boundary. */
static void properties(cb_rng *r, cb_kind kind, const double *P, const double *J, int boundary)
{
    int d = cb_kind_dim(kind);
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++)
            assert_true(fabs(J[i + j * d] - J[j + i * d]) <= 1e-12);
    for (int t = 0; t < 8; t++) {
        double v[CB_MAX_DIM], q = 0, vv = 0;
        for (int i = 0; i < d; i++)
            v[i] = cb_rng_normal(r), vv += v[i] * v[i];
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++)
                q += v[i] * J[i + j * d] * v[j];
        assert_true(q >= -1e-12 * vv && q <= vv * (1 + 1e-12));
    }
    for (int i = 0; boundary && i < d; i++) {
        double s = 0;
        for (int j = 0; j < d; j++)
            s += J[i + j * d] * P[j];
        assert_true(fabs(s - P[i]) <= 1e-12 * (1 + fabs(P[i])));
    }
}

/* Every kind: 20000 points; each case and each saturated set seen is checked against finite
 * differences; every case of every kind must have been seen. */
static void test_fd_every_case(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 5);
    long n = cbt_scale(20000, 10);
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        cb_kind kind = (cb_kind)k;
        int d = cb_kind_dim(kind), m = cb_kind_nblocks(kind), seen[2 + (1 << 3)] = {0};
        double worst = 0;
        for (long t = 0; t < n; t++) {
            cb_friction f;
            double x[CB_MAX_DIM], P[CB_MAX_DIM], J[CB_MAX_DIM * CB_MAX_DIM], gap = INFINITY;
            draw(&r, kind, &f, x);
            cb_proj_case pc = cb_project_jacobian(kind, &f, x, P, J);
            int slot = pc == CB_PROJ_INSIDE ? 0 : pc == CB_PROJ_ZERO ? 1 : -1;
            if (pc == CB_PROJ_BOUNDARY)
                slot = 2 + saturated(kind, &f, x, P, &gap);
            assert_true(slot >= 0);
            properties(&r, kind, P, J, pc == CB_PROJ_BOUNDARY);
            /* away from the case borders: the projection with x perturbed keeps its case */
            double lo[CB_MAX_DIM], pl[CB_MAX_DIM];
            memcpy(lo, x, sizeof lo);
            lo[0] += 1e3 * FD_H * (1 + fabs(x[0]));
            if (gap < KINK_GAP || cb_project(kind, &f, lo, pl) != pc)
                continue;
            seen[slot]++;
            worst = fmax(worst, fd_error(kind, &f, x, J));
        }
        print_message("  %-10s d=%d worst |J - J_fd| %.2e; inside %d, zero %d, boundary sets:",
                      cb_kind_name(kind), d, worst, seen[0], seen[1]);
        for (int s = 1; s < (1 << m); s++)
            print_message(" {%d}:%d", s, seen[2 + s]);
        print_message("\n");
        assert_true(worst < 1e-6);
        assert_true(seen[0] > 0 && seen[1] > 0);
        for (int s = 1; s < (1 << m); s++) /* every nonempty saturated set */
            assert_true(seen[2 + s] > 0);
    }
}

/* Exact cases: J = I inside, J = 0 in the polar cone, NaN for a non-finite input. */
static void test_exact_cases(void **state)
{
    (void)state;
    cb_friction f = {0.5, 0.2, 0.1};
    double in[6] = {1, 0.1, 0.1, 0.05, 0.05, 0.01}, polar[6] = {-1, 0.1, 0.1, 0.05, 0.05, 0.01};
    double nan_in[6] = {NAN, 0, 0, 0, 0, 0}, P[6], J[36];
    assert_int_equal(cb_project_jacobian(CB_KIND_ROLLSPIN3D, &f, in, P, J), CB_PROJ_INSIDE);
    for (int i = 0; i < 36; i++)
        assert_true(J[i] == (i % 7 == 0 ? 1.0 : 0.0));
    assert_int_equal(cb_project_jacobian(CB_KIND_ROLLSPIN3D, &f, polar, P, J), CB_PROJ_ZERO);
    for (int i = 0; i < 36; i++)
        assert_true(J[i] == 0.0);
    assert_int_equal(cb_project_jacobian(CB_KIND_ROLLSPIN3D, &f, nan_in, P, J),
                     CB_PROJ_NONFINITE);
    assert_true(isnan(J[0]));
    memcpy(P, in, sizeof in); /* aliasing: P = x */
    assert_int_equal(cb_project_jacobian(CB_KIND_ROLLSPIN3D, &f, P, P, J), CB_PROJ_INSIDE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fd_every_case),
        cmocka_unit_test(test_exact_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
