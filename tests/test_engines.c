/* conebench tests — the game-engine adapters (bullet-*, dart-*; src/solvers/engines/) on one
 * contact with a known exact answer: W = diag(w_n, 1, 1), q = (−w_n r_n, q_t), μ. The exact
 * Coulomb answer (closed form): r_N = r_n; r_T = −q_t when ‖q_t‖ ≤ μ r_n (sticking), else
 * r_T = −μ r_n q_t/‖q_t‖ (sliding). The engines' box |r_Tk| ≤ μ r_N answers componentwise:
 * r_Tk = −clamp(q_tk, ±μ r_n), which is the exact answer when sticking or sliding along an axis
 * and the box's corner, ‖r_T‖ = √2 μ r_n, when sliding along the diagonal: the judge must say
 * not solved, with the closed-form error of that corner. bullet-lemke ignores limitDependency
 * (btLemkeSolver.h): its friction bound is μ itself. The same on rollspin3d for the rolling
 * and spin bounds (μ_r, μ_s). Each case skips, saying so, when the adapters are not built
 * (make BULLET=0 DART=0). */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/judge.h"
#include "judge_gap.h"

#define W_N 2.0     /* W_nn */
#define R_N 2.0     /* the normal reaction every case has: q_n = −W_N R_N */
#define MU 0.3
#define EXACT_TOL 1e-12

static const char *const engines[] = {"bullet-dantzig", "bullet-pgs", "bullet-lemke",
                                      "dart-dantzig", "dart-pgs"};
#define NENGINES ((int)(sizeof engines / sizeof *engines))

/* The judge's gap measures of p (judge_gap.h), y = W p + q recomputed. */
static cb_gap judged_gap(const cb_problem *prob, const double *p)
{
    double y[CB_MAX_DIM];
    cb_gap g;
    cb_error err;
    cb_problem_y(prob, p, y);
    assert_int_equal(cb_judge_gap(prob, p, y, &g, &err), CB_OK);
    return g;
}

/* The adapters built; skips the test, saying so, when none is. */
static int built(const cb_solver **out)
{
    int count = 0;
    for (int i = 0; i < NENGINES; i++) {
        out[i] = cb_solver_find(engines[i]);
        if (!out[i])
            print_message("skipped %s: not built (make BULLET=0 / DART=0)\n", engines[i]);
        count += out[i] != NULL;
    }
    if (count == 0) {
        print_message("skipped: built without the engine adapters (make BULLET=0 DART=0)\n");
        skip();
    }
    return count;
}

/* One coulomb3d contact: W = diag(W_N, 1, 1), q = (−W_N R_N, qt1, qt2), μ = MU. */
static cb_problem *one_contact(double qt1, double qt2)
{
    cb_problem *prob = NULL;
    cb_error err;
    assert_int_equal(cb_problem_alloc(CB_KIND_COULOMB3D, 1, CB_STORAGE_DENSE, 0, &prob, &err),
                     CB_OK);
    prob->W[0] = W_N;
    prob->W[4] = prob->W[8] = 1.0;
    prob->q[0] = -W_N * R_N;
    prob->q[1] = qt1;
    prob->q[2] = qt2;
    prob->mu[0] = MU;
    assert_int_equal(cb_problem_check(prob, &err), CB_OK);
    return prob;
}

/* The exact answer (the closed form above). */
static void exact(const cb_problem *prob, double *p)
{
    double qt = hypot(prob->q[1], prob->q[2]);
    double scale = qt <= MU * R_N ? 1.0 : MU * R_N / qt;
    p[0] = R_N;
    p[1] = -scale * prob->q[1];
    p[2] = -scale * prob->q[2];
}

/* The box's answer with friction bound b per component: r_Tk = −clamp(q_tk, ±b). */
static void box_answer(const cb_problem *prob, double bound, double *p)
{
    p[0] = R_N;
    for (int k = 1; k <= 2; k++)
        p[k] = -fmin(fmax(prob->q[k], -bound), bound);
}

/* max(‖r_T‖/(μ r_N) − 1, 0): how far outside the exact cone p is. */
static double cone_violation(const double *p)
{
    return fmax(hypot(p[1], p[2]) / (MU * p[0]) - 1.0, 0.0);
}

/* The judge's error of p from its definition (judge.h), in closed form for this W: the natural
 * map e = p − P_K(p − ŷ), ŷ = y + (μ‖y_T‖, 0, 0), normalised by max(‖q‖, ‖p‖, ‖y‖). */
static double judged_error(const cb_problem *prob, const double *p)
{
    double y[3] = {W_N * p[0] + prob->q[0], p[1] + prob->q[1], p[2] + prob->q[2]};
    double z[3] = {p[0] - y[0] - MU * hypot(y[1], y[2]), p[1] - y[1], p[2] - y[2]};
    double zt = hypot(z[1], z[2]), proj[3] = {z[0], z[1], z[2]};
    if (zt > MU * z[0]) { /* outside K */
        double n = zt <= -z[0] / MU ? 0.0 : (z[0] + MU * zt) / (1.0 + MU * MU);
        proj[0] = n;
        proj[1] = zt > 0 ? MU * n * z[1] / zt : 0.0;
        proj[2] = zt > 0 ? MU * n * z[2] / zt : 0.0;
    }
    double e = sqrt(pow(p[0] - proj[0], 2) + pow(p[1] - proj[1], 2) + pow(p[2] - proj[2], 2));
    double norm_q = sqrt(pow(prob->q[0], 2) + pow(prob->q[1], 2) + pow(prob->q[2], 2));
    double norm_p = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    double norm_y = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    return e / fmax(norm_q, fmax(norm_p, norm_y));
}

static void assert_close(const double *a, const double *b, const char *what)
{
    for (int i = 0; i < 3; i++)
        if (fabs(a[i] - b[i]) > EXACT_TOL) {
            print_message("%s: component %d: %.17g, want %.17g\n", what, i, a[i], b[i]);
            fail();
        }
}

/* Solve q_t's one-contact problem with every built adapter; check against the box's answer
 * (bound μ r_n; μ for bullet-lemke) and return nothing: the checks are the caller's flags. */
static void run_case(double qt1, double qt2, int box_is_exact)
{
    const cb_solver *sv[NENGINES];
    built(sv);
    cb_problem *prob = one_contact(qt1, qt2);
    cb_settings s;
    cb_settings_default(&s);
    double want_exact[3];
    exact(prob, want_exact);
    for (int i = 0; i < NENGINES; i++) {
        if (!sv[i])
            continue;
        cbt_run_result r = cbt_run(sv[i], prob, &s, NULL);
        assert_int_equal(r.rc, CB_OK);
        double want[3];
        int lemke = !strcmp(engines[i], "bullet-lemke");
        box_answer(prob, lemke ? MU : MU * R_N, want);
        assert_close(r.p, want, engines[i]);
        int exact_here = box_is_exact && !(lemke && hypot(qt1, qt2) > MU);
        if (exact_here)
            assert_close(r.p, want_exact, engines[i]);
        /* the judge: solved exactly when the box's answer is the exact one */
        assert_int_equal(r.info.solved, exact_here);
        if (!exact_here)
            assert_true(fabs(r.info.error_data - judged_error(prob, r.p)) <=
                        1e-12 * judged_error(prob, r.p));
        cbt_run_free(&r);
    }
    cb_problem_free(prob);
}

/* (a) sticking inside the cone: every adapter returns the exact answer, solved. */
static void test_sticking(void **state)
{
    (void)state;
    run_case(0.2, -0.1, 1);
}

/* (b) sliding along a tangent axis: the box's face is the cone's tangent plane there. */
static void test_sliding_axis(void **state)
{
    (void)state;
    run_case(1.5, 0.0, 1);
    run_case(0.0, -1.5, 1);
}

/* (c) sliding along the diagonal: the box's corner, ‖r_T‖ = √2 μ r_N, cone violation √2 − 1,
 * and the judge's error of that corner; nsn (the exact cone) finds the closed form. */
static void test_sliding_diagonal(void **state)
{
    (void)state;
    const cb_solver *sv[NENGINES];
    built(sv);
    run_case(1.5, 1.5, 0);
    cb_problem *prob = one_contact(1.5, 1.5);
    cb_settings s;
    cb_settings_default(&s);
    for (int i = 0; i < NENGINES; i++) {
        if (!sv[i] || !strcmp(engines[i], "bullet-lemke"))
            continue;
        cbt_run_result r = cbt_run(sv[i], prob, &s, NULL);
        assert_true(fabs(hypot(r.p[1], r.p[2]) - sqrt(2.0) * MU * r.p[0]) <= EXACT_TOL);
        assert_true(fabs(cone_violation(r.p) - (sqrt(2.0) - 1.0)) <= EXACT_TOL);
        /* the judge's measure says the same; on the diagonal the corner is along −u_T */
        cb_gap g = judged_gap(prob, r.p);
        assert_true(fabs(g.cone_violation - (sqrt(2.0) - 1.0)) <= EXACT_TOL);
        assert_int_equal(g.sliding, 1);
        assert_int_equal(g.positive_work, 0);
        assert_true(g.angle_max <= 1e-5); /* acos near 1: ~1e-8 rad of rounding */
        assert_true(r.info.error_data > 1e-2); /* far from solved: ~0.05 (closed form) */
        print_message("%s: diagonal sliding: |r_T|/(mu r_N) = %.15f, cone violation %.3e, "
                      "judged error %.3e (not solved)\n", engines[i],
                      hypot(r.p[1], r.p[2]) / (MU * r.p[0]), cone_violation(r.p),
                      r.info.error_data);
        cbt_run_free(&r);
    }
    double want[3];
    exact(prob, want);
    cbt_run_result r = cbt_run(cb_solver_find("nsn"), prob, &s, NULL);
    assert_true(r.info.solved);
    for (int i = 0; i < 3; i++)
        assert_true(fabs(r.p[i] - want[i]) <= 1e-7);
    assert_true(cone_violation(r.p) <= 1e-7);
    assert_true(judged_gap(prob, r.p).cone_violation <= 1e-7);
    cbt_run_free(&r);
    cb_problem_free(prob);
}

/* Anisotropy: q_T = (1.5, 0.5) slides with u_T = q_T + r_T. The box clamps each component:
 * r_T = (−μ r_N, −0.5) = (−0.6, −0.5), u_T = (0.9, 0), so r_T is atan(0.5/0.6) off −u_T (the
 * exact cone's r_T is along −u_T); inside the box's bound but outside the cone by
 * ‖(0.6, 0.5)‖/0.6 − 1. bullet-lemke (bound μ) is left out. */
static void test_anisotropy(void **state)
{
    (void)state;
    const cb_solver *sv[NENGINES];
    built(sv);
    cb_problem *prob = one_contact(1.5, 0.5);
    cb_settings s;
    cb_settings_default(&s);
    for (int i = 0; i < NENGINES; i++) {
        if (!sv[i] || !strcmp(engines[i], "bullet-lemke"))
            continue;
        cbt_run_result r = cbt_run(sv[i], prob, &s, NULL);
        assert_int_equal(r.rc, CB_OK);
        cb_gap g = judged_gap(prob, r.p);
        double want = atan2(0.5, 0.6) * 45.0 / atan(1.0);
        assert_int_equal(g.sliding, 1);
        assert_true(fabs(g.angle_max - want) <= 1e-9 && fabs(g.angle_mean - want) <= 1e-9);
        assert_true(fabs(g.cone_violation - (hypot(0.6, 0.5) / 0.6 - 1.0)) <= EXACT_TOL);
        print_message("%s: q_T = (1.5, 0.5): angle %.6f deg (closed form %.6f), violation %.6f\n",
                      engines[i], g.angle_max, want, g.cone_violation);
        cbt_run_free(&r);
    }
    cb_problem_free(prob);
}

/* rollspin3d (d = 6), W = diag(W_N, 1, ..., 1), r_N = R_N: each component bounded on its own by
 * the engines, μ for r_T, μ_r for m_R, μ_s for m_S (cone.h's layout). Loads along the axes of
 * every block: the box's answer is the exact product-disk cone's (solved); a rolling load along
 * the diagonal: ‖m_R‖ = √2 μ_r r_N, outside the rolling disk by √2 − 1, not solved (nsn: the
 * exact cone's answer, ‖m_R‖ = μ_r r_N). */
#define MU_R 0.1
#define MU_S 0.05
static cb_problem *rollspin(const double *qrest)
{
    cb_problem *prob = NULL;
    cb_error err;
    assert_int_equal(cb_problem_alloc(CB_KIND_ROLLSPIN3D, 1, CB_STORAGE_DENSE, 0, &prob, &err),
                     CB_OK);
    for (int k = 0; k < 6; k++)
        prob->W[k * 7] = k == 0 ? W_N : 1.0;
    prob->q[0] = -W_N * R_N;
    memcpy(prob->q + 1, qrest, 5 * sizeof(double));
    prob->mu[0] = MU;
    prob->mu_r[0] = MU_R;
    prob->mu_s[0] = MU_S;
    assert_int_equal(cb_problem_check(prob, &err), CB_OK);
    return prob;
}

static void test_rolling_and_spin(void **state)
{
    (void)state;
    const cb_solver *sv[NENGINES];
    built(sv);
    const double bound[6] = {0, MU * R_N, MU * R_N, MU_R * R_N, MU_R * R_N, MU_S * R_N};
    const double axes[5] = {1.0, 0.0, 0.5, 0.0, -0.3}, diag[5] = {0.0, 0.0, 0.5, 0.5, 0.0};
    cb_settings s;
    cb_settings_default(&s);
    for (int c = 0; c < 2; c++) {
        cb_problem *prob = rollspin(c == 0 ? axes : diag);
        for (int i = 0; i < NENGINES; i++) {
            if (!sv[i] || !strcmp(engines[i], "bullet-lemke")) /* its bounds: μ's alone */
                continue;
            cbt_run_result r = cbt_run(sv[i], prob, &s, NULL);
            assert_int_equal(r.rc, CB_OK);
            assert_true(fabs(r.p[0] - R_N) <= EXACT_TOL);
            for (int k = 1; k < 6; k++) /* the box: −clamp(q_k, ±bound_k) */
                assert_true(fabs(r.p[k] + fmin(fmax(prob->q[k], -bound[k]), bound[k])) <=
                            EXACT_TOL);
            assert_int_equal(r.info.solved, c == 0);
            if (c == 1)
                assert_true(fabs(hypot(r.p[3], r.p[4]) / (MU_R * r.p[0]) - sqrt(2.0)) <=
                            EXACT_TOL);
            cbt_run_free(&r);
        }
        cbt_run_result r = cbt_run(cb_solver_find("nsn"), prob, &s, NULL);
        assert_true(r.info.solved);
        assert_true(fabs(hypot(r.p[3], r.p[4]) - (c == 0 ? bound[3] : MU_R * R_N)) <= 1e-7);
        cbt_run_free(&r);
        cb_problem_free(prob);
    }
}

/* Pyramids (option facets = k): k/2 tangential rows d_i = (cos(iπ/m), sin(iπ/m)), m = k/2, each
 * |β_i| ≤ tan(π/k) μ r_N (engines_adapter.c): the regular k-gon with its edges tangent to the
 * circle ‖r_T‖ = μ r_N. Sliding fast (‖q_t‖ ≫ μ r_N) in the unit direction u at angle θ, the answer
 * is the polygon's support point in −u, r_T = −tan(π/k) μ r_N Σ_i sgn(d_i·u) d_i: its projection
 * −r_T·u equals the support value h(θ) = tan(π/k) μ r_N Σ_i |cos(θ − iπ/m)| (closed form, computed
 * here from its definition), and off the edge normals it is a vertex, ‖r_T‖ = μ r_N / cos(π/k)
 * (k = 4: √2 on the diagonal; k = 8: 1/cos(π/8) at the vertex θ = 22.5°). On an edge normal
 * (k = 8, θ = 0) it is the edge's midpoint, the exact answer. bullet-lemke's bound is tan(π/k) μ
 * without r_N (it ignores limitDependency), so its r_N in these formulas is 1; for k > 4 it
 * inverts A = Dᵀ W D, singular (rank 2 per contact's rows): it returns zeros (stalled) or a
 * wrong answer, never solved. */
#define SLIDE_Q 10.0 /* ‖q_t‖: sliding in every row of every pyramid below */

/* The support value h(θ)/(μ r_N) of the k-gon, from its definition as a sum of segments. */
static double support_value(int k, double theta)
{
    int m = k / 2;
    double sum = 0.0;
    for (int i = 0; i < m; i++)
        sum += fabs(cos(theta - i * M_PI / m));
    return tan(M_PI / k) * sum;
}

static void pyramid_case(int k, double deg, int vertex)
{
    const cb_solver *sv[NENGINES];
    built(sv);
    double th = deg * M_PI / 180.0, u[2] = {cos(th), sin(th)};
    cb_problem *prob = one_contact(SLIDE_Q * u[0], SLIDE_Q * u[1]);
    char facets[16];
    snprintf(facets, sizeof facets, "%d", k);
    cb_option opt[1] = {{"facets", facets}};
    cb_settings s;
    cb_settings_default(&s);
    s.options = opt;
    s.noptions = 1;
    for (int i = 0; i < NENGINES; i++) {
        if (!sv[i])
            continue;
        cbt_run_result r = cbt_run(sv[i], prob, &s, NULL);
        assert_int_equal(r.rc, CB_OK);
        if (k > 4 && !strcmp(engines[i], "bullet-lemke")) { /* it inverts A: singular */
            print_message("bullet-lemke facets=%d: status %s, p = (%g, %g, %g), solved %d (A = "
                          "D^T W D is singular)\n", k, cb_status_name(r.info.status), r.p[0],
                          r.p[1], r.p[2], r.info.solved);
            assert_false(r.info.solved); /* zeros (stalled) or a wrong answer: the judge sees it */
            cbt_run_free(&r);
            continue;
        }
        double bound = MU * (strcmp(engines[i], "bullet-lemke") ? R_N : 1.0);
        double proj = -(r.p[1] * u[0] + r.p[2] * u[1]) / bound, norm = hypot(r.p[1], r.p[2]) / bound;
        print_message("%s facets=%d theta=%g: |r_T|/(mu r_N) = %.15f, -r_T.u/(mu r_N) = %.15f "
                      "(support value %.15f), judged error %.3e, solved %d\n", engines[i], k, deg,
                      norm, proj, support_value(k, th), r.info.error_data, r.info.solved);
        assert_true(fabs(r.p[0] - R_N) <= EXACT_TOL);
        assert_true(fabs(proj - support_value(k, th)) <= 1e-12);
        assert_true(fabs(norm - (vertex ? 1.0 / cos(M_PI / k) : 1.0)) <= 1e-12);
        if (strcmp(engines[i], "bullet-lemke")) { /* the judge flags the vertex, passes the edge */
            assert_int_equal(r.info.solved, !vertex);
            assert_true(fabs(cone_violation(r.p) - (vertex ? 1.0 / cos(M_PI / k) - 1.0 : 0.0)) <=
                        1e-12);
            if (vertex)
                assert_true(fabs(r.info.error_data - judged_error(prob, r.p)) <=
                            1e-12 * judged_error(prob, r.p));
        }
        cbt_run_free(&r);
    }
    cb_problem_free(prob);
}

static void test_pyramids(void **state)
{
    (void)state;
    pyramid_case(4, 45.0, 1);  /* the box's corner: √2 */
    pyramid_case(4, 30.0, 1);  /* still the corner: the box answers at 45° to a 30° slide */
    pyramid_case(8, 22.5, 1);  /* the octagon's vertex: 1/cos(π/8) */
    pyramid_case(8, 30.0, 1);  /* the same vertex, projected: h(30°) */
    pyramid_case(8, 0.0, 0);   /* an edge normal: the exact answer */
    pyramid_case(16, 30.0, 1); /* sixteen facets: 1/cos(π/16) */
}

/* Options and limits: facets odd, below 4 or above 64 (or above 4 on a 2D kind) and a zero
 * sweep cap are refused, naming the option;
 * a problem above the dense-copy limit is refused by supports() (status unsupported). */
static void test_options_and_limits(void **state)
{
    (void)state;
    const cb_solver *sv[NENGINES];
    built(sv);
    cb_problem *prob = one_contact(0.2, 0.1);
    cb_error err;
    cb_problem *big = NULL, *prob2d = NULL;
    assert_int_equal(cb_problem_alloc(CB_KIND_COULOMB2D, 1, CB_STORAGE_DENSE, 0, &prob2d, &err),
                     CB_OK);
    prob2d->W[0] = prob2d->W[3] = 1.0;
    prob2d->q[0] = -1.0;
    prob2d->mu[0] = MU;
    assert_int_equal(cb_problem_check(prob2d, &err), CB_OK);
    assert_int_equal(cb_problem_alloc(CB_KIND_COULOMB3D, 1001, CB_STORAGE_BSR, 1001, &big, &err),
                     CB_OK);
    for (int a = 0; a < 1001; a++) {
        big->bsr.row_ptr[a + 1] = a + 1;
        big->bsr.col[a] = a;
        for (int k = 0; k < 3; k++)
            big->bsr.val[a * 9 + k * 4] = 1.0;
        big->q[a * 3] = -1.0;
        big->mu[a] = MU;
    }
    assert_int_equal(cb_problem_check(big, &err), CB_OK);
    for (int i = 0; i < NENGINES; i++) {
        if (!sv[i])
            continue;
        cb_settings s;
        cb_settings_default(&s);
        cb_option opt[1];
        s.options = opt;
        s.noptions = 1;
        cbt_run_result r;
        static const char *const bad[] = {"2", "5", "66", "0"}; /* odd, < 4, > 64 */
        for (int b = 0; b < 4; b++) {
            opt[0] = (cb_option){"facets", bad[b]};
            r = cbt_run(sv[i], prob, &s, NULL);
            assert_int_equal(r.rc, CB_ERR_INPUT);
            assert_non_null(strstr(r.err.text, "facets"));
            cbt_run_free(&r);
        }
        opt[0] = (cb_option){"facets", "8"}; /* 2D: one tangential row, no pyramid */
        r = cbt_run(sv[i], prob2d, &s, NULL);
        assert_int_equal(r.rc, CB_ERR_INPUT);
        assert_non_null(strstr(r.err.text, "2D kind"));
        cbt_run_free(&r);
        if (!strstr(engines[i], "dantzig")) {
            opt[0] = (cb_option){"iterations", "0"};
            r = cbt_run(sv[i], prob, &s, NULL);
            assert_int_equal(r.rc, CB_ERR_INPUT);
            assert_non_null(strstr(r.err.text, "iterations"));
            cbt_run_free(&r);
        }
        s.noptions = 0;
        r = cbt_run(sv[i], big, &s, NULL);
        assert_int_equal(r.rc, CB_ERR_INPUT);
        assert_int_equal(r.info.status, CB_STATUS_UNSUPPORTED);
        assert_non_null(strstr(r.err.text, "dense copy of W"));
        cbt_run_free(&r);
    }
    cb_problem_free(big);
    cb_problem_free(prob2d);
    cb_problem_free(prob);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sticking),
        cmocka_unit_test(test_sliding_axis),
        cmocka_unit_test(test_sliding_diagonal),
        cmocka_unit_test(test_anisotropy),
        cmocka_unit_test(test_rolling_and_spin),
        cmocka_unit_test(test_pyramids),
        cmocka_unit_test(test_options_and_limits),
    };
    return cmocka_run_group_tests_name("engines", tests, NULL, NULL);
}
