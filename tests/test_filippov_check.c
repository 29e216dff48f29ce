/* conebench tests — Filippov cross-checks (filippov_check.h): at ≥ 1000 random rolling
 * states of the wheel (AS §6) and of a sphere, (1) one Moreau–Jean CCP step sticks iff the case
 * is I/II, and slips along the repelling direction otherwise; (2) the Fang–Negrut slide law started
 * near the state returns to rolling iff I/II. Agreement ≥ 99 % away from the boundary (AS eq. 69,
 * |F_f| = μN); every disagreement is printed. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "filippov_check.h"

#define FC_PI 3.14159265358979323846

/* Print one disagreement (all of them are listed). */
static void show(const char *what, long i, double x, double y, const cb_fc_result *r)
{
    print_message("  %s #%ld x=%.4f y=%.4f case %s ratio %.5f%s: ccp %s (|y_T| %.3g), "
                  "compliant %d returned\n", what, i, x, y, cb_fil_case_name(r->kase), r->ratio,
                  r->near_boundary ? " (near boundary)" : "", r->ccp_stick ? "stick" : "slip",
                  r->ccp_slip_speed, r->comp_returned);
}

/* Tally assertions shared by wheel and sphere. */
static void check_tally(const char *what, const cb_fc_tally *t)
{
    print_message("%s: %ld states (%ld case I/II), %ld away from the boundary; CCP agree %ld/%ld "
                  "(away %ld/%ld), compliant agree %ld/%ld (away %ld/%ld); max CCP slip-direction "
                  "error %.2e rad\n", what, t->n, t->n_rolls, t->n_away, t->agree_ccp, t->n,
                  t->agree_ccp_away, t->n_away, t->agree_comp, t->n, t->agree_comp_away,
                  t->n_away, t->max_ccp_dir_err);
    assert_true(t->n_away >= 0.9 * t->n);
    assert_true(t->n_rolls > 0.15 * t->n && t->n_rolls < 0.85 * t->n);
    assert_true(t->agree_ccp_away >= 0.99 * t->n_away);
    assert_true(t->agree_comp_away >= 0.99 * t->n_away);
    assert_true(t->max_ccp_dir_err < 1e-3);
}

static void test_wheel(void **state)
{
    (void)state;
    cb_fc_settings s;
    cb_fc_settings_default(&s);
    cb_rng rng;
    cb_rng_seed(&rng, 20190611);
    cb_fc_tally t = {0};
    long n = cbt_scale(1200, 10);
    for (long i = 0; i < n; i++) {
        cb_fil_wheel w;
        cb_fil_body b;
        cb_fc_result r;
        double x, y;
        cb_error err = {{0}};
        assert_int_equal(cb_fc_wheel_sample(&rng, 2, &w, &x, &y, &err), CB_OK);
        assert_int_equal(cb_fil_wheel_body(&w, &b, &err), CB_OK);
        int rc = cb_fc_check_body(&b, &s, &rng, &r, &err);
        if (rc != CB_OK)
            print_message("%s\n", err.text);
        assert_int_equal(rc, CB_OK);
        /* the analytic repelling boundary (eq. 69) is the ratio = 1 curve */
        if (!r.near_boundary)
            assert_int_equal(cb_fil_wheel_eq69(x, y, 0) < 0, r.rolls);
        if (!r.agree_ccp || !r.agree_comp)
            show("wheel", i, x, y, &r);
        cb_fc_tally_add(&t, &r);
    }
    check_tally("wheel", &t);
}

static void test_sphere(void **state)
{
    (void)state;
    cb_fc_settings s;
    cb_fc_settings_default(&s);
    cb_rng rng;
    cb_rng_seed(&rng, 7);
    cb_fc_tally t = {0};
    long n = cbt_scale(1200, 10);
    for (long i = 0; i < n; i++) {
        cb_fil_shape_state st;
        cb_fil_body b;
        cb_fc_result r;
        cb_error err = {{0}};
        assert_int_equal(cb_fc_sphere_sample(&rng, 1.5, &st, &err), CB_OK);
        assert_int_equal(cb_fil_shape_body(&st, &b, &err), CB_OK);
        int rc = cb_fc_check_body(&b, &s, &rng, &r, &err);
        if (rc != CB_OK)
            print_message("%s\n", err.text);
        assert_int_equal(rc, CB_OK);
        if (!r.agree_ccp || !r.agree_comp)
            show("sphere", i, r.ratio, 0, &r);
        cb_fc_tally_add(&t, &r);
    }
    check_tally("sphere", &t);
}

/* Exact rolling (u0 = 0) gives the same answers; bad settings and inputs are refused. */
static void test_exact_and_validation(void **state)
{
    (void)state;
    cb_fc_settings s;
    cb_fc_settings_default(&s);
    s.ccp_slip = 0;
    cb_rng rng;
    cb_rng_seed(&rng, 3);
    cb_fil_wheel w;
    cb_fil_body b;
    cb_fc_result r;
    cb_error err = {{0}};
    cb_fil_wheel_default(&w);
    w.Md = 0.5 * w.mu * w.m * w.g * w.rho; /* x = 0.5: case I/II */
    assert_int_equal(cb_fil_wheel_body(&w, &b, &err), CB_OK);
    assert_int_equal(cb_fc_check_body(&b, &s, &rng, &r, &err), CB_OK);
    assert_true(r.rolls && r.ccp_stick && r.comp_roll);
    w.Md = 2 * w.mu * w.m * w.g * w.rho; /* x = 2 > 1.5: case III/IV, slips along t1 */
    assert_int_equal(cb_fil_wheel_body(&w, &b, &err), CB_OK);
    assert_int_equal(cb_fc_check_body(&b, &s, &rng, &r, &err), CB_OK);
    assert_true(!r.rolls && !r.ccp_stick && r.comp_returned == 0);
    assert_true(r.ccp_dir_err < 1e-6 && r.comp_dir_err < 0.05);
    cb_fc_settings bad = s;
    bad.h = 0;
    assert_int_equal(cb_fc_check_body(&b, &bad, &rng, &r, &err), CB_ERR_INPUT);
    bad = s;
    bad.solver = "no-such-solver";
    assert_int_equal(cb_fc_check_body(&b, &bad, &rng, &r, &err), CB_ERR_INPUT);
    bad = s;
    bad.comp_ndir = 0;
    assert_int_equal(cb_fc_check_body(&b, &bad, &rng, &r, &err), CB_ERR_INPUT);
    b.friction.law = CB_FIL_STICTION;
    b.friction.mu_static = 0.5;
    assert_int_equal(cb_fc_check_body(&b, &s, &rng, &r, &err), CB_ERR_INPUT);
    assert_int_equal(cb_fc_check_body(NULL, &s, &rng, &r, &err), CB_ERR_INPUT);
    double x, y;
    assert_int_equal(cb_fc_wheel_sample(&rng, -1, &w, &x, &y, &err), CB_ERR_INPUT);
    cb_fil_shape_state st;
    assert_int_equal(cb_fc_sphere_sample(&rng, NAN, &st, &err), CB_ERR_INPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_and_validation),
        cmocka_unit_test(test_wheel),
        cmocka_unit_test(test_sphere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
