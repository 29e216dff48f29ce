/* conebench tests — the gap measures (src/core/judge_gap.h) on hand-computed points: the box's
 * corner on the diagonal (‖r_T‖ = √2 μ r_N: violation √2 − 1), a rolling and a spin block over
 * their disks, friction without a normal force (large: over the floor τ ‖p‖∞ of r_N), the slack
 * of rounding, the angle between
 * r_T and −u_T and the count of contacts whose friction does positive work. The measures take
 * p and y as given (they do not recompute y), so each case writes both by hand. */
#include "test_support.h"

#include <math.h>
#include <string.h>

#include "judge_gap.h"

#define MU 0.3
#define TOL 1e-14

/* A dense problem of nc contacts of kind, q = (−1, 0, ...) per contact (‖q‖∞ = 1), μ = MU,
 * μ_r = 0.1, μ_s = 0.05, W = I (the measures read only q and the μ's). */
static cb_problem *problem(cb_kind kind, int nc)
{
    cb_problem *prob = NULL;
    cb_error err;
    assert_int_equal(cb_problem_alloc(kind, nc, CB_STORAGE_DENSE, 0, &prob, &err), CB_OK);
    size_t n = (size_t)nc * prob->d;
    for (size_t i = 0; i < n; i++)
        prob->W[i * n + i] = 1.0;
    for (int a = 0; a < nc; a++) {
        prob->q[a * prob->d] = -1.0;
        prob->mu[a] = MU;
        prob->mu_r[a] = kind >= CB_KIND_ROLLING2D ? 0.1 : 0.0;
        prob->mu_s[a] = kind == CB_KIND_ROLLSPIN3D ? 0.05 : 0.0;
    }
    assert_int_equal(cb_problem_check(prob, &err), CB_OK);
    return prob;
}

static cb_gap gap_of(const cb_problem *prob, const double *p, const double *y)
{
    cb_gap g;
    cb_error err;
    assert_int_equal(cb_judge_gap(prob, p, y, &g, &err), CB_OK);
    return g;
}

/* coulomb3d: the box corner r_T = (μ r_N, μ r_N) (violation √2 − 1), a point inside (0), one on
 * the cone within rounding (0), the apex (0), friction at r_N = 0 (‖r_T‖ / (μ τ ‖p‖∞) =
 * 0.1 / (0.3 · 1e-6 · 0.1)), r_N < 0 with r_T = 0 (0: the normal's sign is the judge's
 * business), a frictionless contact (μ = 0) with r_T = 0.5 r_N (0.5: the excess over r_N). */
static void test_violation(void **state)
{
    (void)state;
    cb_problem *prob = problem(CB_KIND_COULOMB3D, 1);
    double y[3] = {0, 0, 0};
    double corner[3] = {2.0, MU * 2.0, MU * 2.0};
    cb_gap g = gap_of(prob, corner, y);
    assert_true(fabs(g.cone_violation - (sqrt(2.0) - 1.0)) <= TOL);
    assert_true(isnan(g.rolling_violation) && isnan(g.spin_violation));
    double inside[3] = {2.0, 0.3, 0.1};
    assert_true(gap_of(prob, inside, y).cone_violation == 0.0);
    double edge[3] = {2.0, nextafter(0.6, 1.0), 0.0}; /* above μ r_N by one ulp */
    assert_true(gap_of(prob, edge, y).cone_violation == 0.0);
    double apex[3] = {0, 0, 0};
    assert_true(gap_of(prob, apex, y).cone_violation == 0.0);
    double no_normal[3] = {0.0, 0.1, 0.0};
    assert_true(fabs(gap_of(prob, no_normal, y).cone_violation - 0.1 / (MU * 1e-7)) <=
                1e-9 * (0.1 / (MU * 1e-7)));
    double negative[3] = {-1.0, 0.0, 0.0};
    assert_true(gap_of(prob, negative, y).cone_violation == 0.0);
    prob->mu[0] = 0.0;
    double frictionless[3] = {2.0, 0.0, 1.0};
    assert_true(fabs(gap_of(prob, frictionless, y).cone_violation - 0.5) <= TOL);
    prob->mu[0] = MU;
    double nan_p[3] = {NAN, 0, 0};
    g = gap_of(prob, nan_p, y);
    assert_true(isnan(g.cone_violation) && isnan(g.angle_max) && g.sliding == -1);
    cb_problem_free(prob);
}

/* rollspin3d: r_T inside, m_R = (μ_r, μ_r) r_N (√2 − 1), m_S = 2 μ_s r_N (1); the max over two
 * contacts; rolling2d: its one-component m_R at 3 μ_r r_N (2), no spin block (NaN). */
static void test_rolling_and_spin(void **state)
{
    (void)state;
    cb_problem *prob = problem(CB_KIND_ROLLSPIN3D, 2);
    double p[12] = {1.0, 0.1, 0.0, 0.1, 0.1, 0.1, /* second contact: everything inside */
                    2.0, 0.0, 0.0, 0.05, 0.0, 0.0};
    double y[12] = {0};
    cb_gap g = gap_of(prob, p, y);
    assert_true(g.cone_violation == 0.0);
    assert_true(fabs(g.rolling_violation - (sqrt(2.0) - 1.0)) <= TOL);
    assert_true(fabs(g.spin_violation - 1.0) <= TOL);
    cb_problem_free(prob);
    prob = problem(CB_KIND_ROLLING2D, 1);
    double p2[3] = {1.0, -0.3, -0.3}, y2[3] = {0};
    g = gap_of(prob, p2, y2);
    assert_true(g.cone_violation == 0.0);
    assert_true(fabs(g.rolling_violation - 2.0) <= TOL);
    assert_true(isnan(g.spin_violation));
    cb_problem_free(prob);
}

/* The slip: contact 0 slides along (1, 1) with r_T = (μ r_N, 0): θ = 135°, r_T·u_T > 0;
 * contact 1 slides along (0, −1) with r_T = (0, μ r_N): θ = 0; contact 2 sticks (u_T = 0);
 * contact 3 separates (r_N = 0). Two sliding, max 135, mean 67.5, one doing positive work. */
static void test_slip_angle_and_work(void **state)
{
    (void)state;
    cb_problem *prob = problem(CB_KIND_COULOMB3D, 4);
    double p[12] = {1.0, MU, 0.0, 1.0, 0.0, MU, 1.0, 0.1, 0.0, 0.0, 0.0, 0.0};
    double y[12] = {0.0, 1.0, 1.0, 0.0, 0.0, -2.0, 0.0, 0.0, 0.0, 1.0, 3.0, 0.0};
    cb_gap g = gap_of(prob, p, y);
    assert_int_equal(g.sliding, 2);
    assert_int_equal(g.positive_work, 1);
    assert_true(fabs(g.angle_max - 135.0) <= 1e-12);
    assert_true(fabs(g.angle_mean - 67.5) <= 1e-12);
    assert_true(g.cone_violation == 0.0);
    /* no sliding contact: the angles are NaN, nothing counted */
    y[2] = y[5] = y[1] = 0.0;
    g = gap_of(prob, p, y);
    assert_int_equal(g.sliding, 0);
    assert_true(isnan(g.angle_max) && isnan(g.angle_mean));
    cb_problem_free(prob);
    /* coulomb2d: r_T along u_T (friction pushing the slip): 180°, positive work */
    prob = problem(CB_KIND_COULOMB2D, 1);
    double p2[2] = {1.0, 0.2}, y2[2] = {0.0, 0.5};
    g = gap_of(prob, p2, y2);
    assert_int_equal(g.sliding, 1);
    assert_int_equal(g.positive_work, 1);
    assert_true(fabs(g.angle_max - 180.0) <= 1e-12);
    cb_problem_free(prob);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_violation),
        cmocka_unit_test(test_rolling_and_spin),
        cmocka_unit_test(test_slip_angle_and_work),
    };
    return cmocka_run_group_tests_name("judge_gap", tests, NULL, NULL);
}
