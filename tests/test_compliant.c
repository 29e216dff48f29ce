/* conebench tests — the compliant Fang & Negrut model and its alternatives: brick (§4.1),
 * sphere on an incline (§4.3), spinning sphere (§4.4), Table 7 spin parameters, disk switch to
 * rolling (§4.2), the legacy model's chatter (Fig. 8), convergence to the rigid stop distance,
 * regime spot checks against App. D, parameter routing and validation. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scenario_registry.h"
#include "compliant.h"
#include "kv.h"

/* Prepare scenario for model with "k=v" parameters (NULL-terminated) through the library. */
static int prepare(const char *scen, const char *model, const char *const *kv, cb_scenario *s,
                   cb_compliant_settings *cs, cb_error *err)
{
    cb_kv_list l = {0};
    for (int k = 0; kv && kv[k]; k++)
        assert_int_equal(cb_kv_parse(&l, kv[k], err), CB_OK);
    int rc = cb_compliant_prepare(scen, model, l.items, l.n, s, cs, err);
    cb_kv_list_free(&l);
    return rc;
}

/* Set up and run scenario with "k=v" parameters (NULL-terminated). */
static void run(const char *scen, const char *model, const char *const *kv,
                cb_compliant_result *res)
{
    cb_scenario s;
    cb_compliant_settings cs;
    cb_error err;
    cb_error_clear(&err);
    int rc = prepare(scen, model, kv, &s, &cs, &err);
    if (rc != CB_OK)
        print_message("setup %s: %s\n", scen, err.text);
    assert_int_equal(rc, CB_OK);
    rc = cb_compliant_run(&s, &cs, NULL, NULL, res, &err);
    if (rc != CB_OK)
        print_message("run %s: %s\n", scen, err.text);
    assert_int_equal(rc, CB_OK);
    cb_scenario_free(&s);
}

static void test_brick(void **state)
{
    (void)state;
    cb_compliant_result r;
    char a[64];
    snprintf(a, sizeof a, "alpha=%.17g", atan(0.25));
    const char *const ks[] = {a, "t_end=2", NULL};
    run("brick-incline", "compliant", ks, &r);
    assert_true(r.travel < 1e-4); /* stick at α = atan μ_s */
    assert_int_equal(r.slide_end, CB_MODE_STATIC);
    snprintf(a, sizeof a, "alpha=%.17g", atan(0.2));
    const char *const kk[] = {a, NULL};
    run("brick-incline", "compliant", kk, &r);
    assert_true(r.travel < 1e-4);
    const char *const k25[] = {"alpha=0.25", NULL};
    run("brick-incline", "compliant", k25, &r);
    assert_true(r.travel > 1e-2);
    assert_true(cbt_reldiff(r.accel, 0.525, 1e-12) < 0.01);
    assert_true(cbt_reldiff(r.Ef_kinetic, 1.899, 1e-12) < 0.01);
}

static void test_incline_kinetic_loads(void **state)
{
    (void)state;
    cb_compliant_result r;
    run("sphere-incline", "compliant", NULL, &r);
    assert_true(cbt_reldiff(r.Ef_kinetic, 8.027, 1e-12) < 0.01);
    assert_true(cbt_reldiff(r.TE_kinetic, 0.963, 1e-12) < 0.01);
    assert_int_equal(r.summary.regime, CB_REGIME_RWS);
    assert_true(r.t_slide_static > 0.03 && r.t_slide_static < 0.07); /* end of Phase I */
}

static void test_spin(void **state)
{
    (void)state;
    cb_compliant_result r;
    run("sphere-spin", "compliant", NULL, &r);
    assert_true(cbt_reldiff(r.T_spin_kinetic, 0.0118, 1e-12) < 0.02);
    assert_true(r.summary.stopped);
    /* Table 7 (upright ellipsoid): K = 125, K_psi = 7.95e-3, S = 5.82e-3, T = 4.63e-5 */
    const char *const ku[] = {"pose=upright", "t_end=0.5", NULL};
    run("ellipsoid-spin", "compliant", ku, &r);
    assert_true(cbt_reldiff(r.spin_curv, 125, 1e-12) < 0.02);
    assert_true(cbt_reldiff(r.K_psi, 7.95e-3, 1e-12) < 0.02);
    assert_true(cbt_reldiff(r.S_psi_s, 5.82e-3, 1e-12) < 0.02);
    assert_true(cbt_reldiff(r.T_spin_E_max, 4.63e-5, 1e-12) < 0.02);
    cb_hertz_spin hz;
    cb_hertz_spin_params(6.568, 29.0, 2e11, 0.3, 5e6, 0.25, &hz); /* flat column */
    assert_true(cbt_reldiff(hz.K_psi, 2.11e-2, 1e-12) < 0.02);
    assert_true(cbt_reldiff(hz.T_max, 7.53e-5, 1e-12) < 0.02);
}

static void test_disk_and_legacy(void **state)
{
    (void)state;
    cb_compliant_result r, l;
    const char *const k[] = {"v0=0.5", NULL};
    run("disk-rolling", "compliant", k, &r);
    assert_true(r.t_slide_static > 0.09 && r.t_slide_static < 0.12);
    assert_true(cbt_reldiff(r.K_R, 1600, 1e-12) < 1e-9);
    assert_true(r.summary.stopped);
    const char *const kl[] = {"v0=0.5", "t_end=1.2", NULL};
    run("disk-rolling", "compliant-legacy", kl, &l);
    assert_false(l.summary.stopped); /* chatter: never comes to rest */
}

static void test_stiffness_limit(void **state)
{
    (void)state;
    cb_compliant_result r;
    const char *const k[] = {"K_E=1e8", NULL};
    run("sphere-plane", "compliant", k, &r);
    assert_true(r.summary.stopped);
    assert_true(cbt_reldiff(r.summary.x_stop, 5.5746687, 1e-12) < 1e-3); /* closed form */
}

static void test_regimes(void **state)
{
    (void)state;
    static const struct {
        const char *alpha, *eta;
        cb_regime want;
    } cells[] = {{"alpha=3", "eta_r=0.3", CB_REGIME_S},
                 {"alpha=20", "eta_r=0.3", CB_REGIME_PR},
                 {"alpha=29", "eta_r=0.45", CB_REGIME_RWS}};
    int n = cbt_quick() ? 1 : 3;
    for (int k = 0; k < n; k++) {
        const char *const kv[] = {cells[k].alpha, cells[k].eta, "kd_factor=1", "dr_factor=1",
                                  NULL};
        cb_compliant_result r;
        run("sphere-incline", "compliant", kv, &r);
        assert_int_equal(r.summary.regime, cells[k].want);
    }
}

/* Regime of sphere-incline cell (α°, η_r) with Fig. 10's damping; dt and v0 as given. */
static cb_regime incline_cell(double alpha, double eta, const char *dt, const char *v0,
                              double *v_end)
{
    char a[48], e[48];
    snprintf(a, sizeof a, "alpha=%.10g", alpha);
    snprintf(e, sizeof e, "eta_r=%.10g", eta);
    const char *const kv[] = {a, e, "kd_factor=1", "dr_factor=1", dt, v0, NULL};
    cb_compliant_result r;
    run("sphere-incline", "compliant", kv, &r);
    if (v_end)
        *v_end = r.summary.v_slope;
    return r.summary.regime;
}

/* App. D regime with the S/PR line at atan(2 η_r mub); distance (deg) to the nearest line. */
static cb_regime app_d(double alpha, double eta, double mub, double *dist)
{
    double aS = atan(2 * eta * mub) * 180 / M_PI, aPR = atan(0.875 - eta) * 180 / M_PI;
    *dist = fmin(fabs(alpha - aS), fabs(alpha - aPR));
    return alpha <= aS ? CB_REGIME_S : (alpha <= aPR ? CB_REGIME_PR : CB_REGIME_RWS);
}

/* The μ_s/μ_k hysteresis of the model (compliant.c, cap_mode): in the band atan(2η_r μ_k) <
 * α < atan(2η_r μ_s) the sphere launched up the slope ends in PR, not App. D's S, for any Δt and
 * from rest too; below the band it stops. A coarse Fig. 10 grid agrees with App. D whose S/PR
 * line is atan(2η_r μ_k) (μ_s = 0.25, μ_k = 0.2) on ≥ 98 % of the cells > 0.5° from a line. */
static void test_regime_hysteresis(void **state)
{
    (void)state;
    double v1 = 0, v2 = 0;
    assert_int_equal(incline_cell(7.5, 0.3, "dt=1e-4", "v0=0.5", &v1), CB_REGIME_PR);
    assert_int_equal(incline_cell(7.5, 0.3, "dt=1e-5", "v0=0.5", &v2), CB_REGIME_PR);
    assert_true(cbt_reldiff(v1, v2, 1e-12) < 1e-3); /* converged in Δt, not an artefact */
    assert_int_equal(incline_cell(7.5, 0.3, "dt=1e-4", "v0=0", NULL), CB_REGIME_PR);
    assert_int_equal(incline_cell(6.5, 0.3, "dt=1e-4", "v0=0.5", NULL), CB_REGIME_S);
    if (cbt_quick())
        return;
    int n = 0, agree = 0;
    for (int j = 0; j < 15; j++) /* reproduce --quick grid: Δα = 0.5°, Δη_r = 0.02 */
        for (int i = 0; i < 59; i++) {
            double a = 1.0 + 0.5 * i, e = 0.2 + 0.02 * j;
            double d;
            cb_regime want = app_d(a, e, 0.2, &d);
            if (d <= 0.5)
                continue;
            n++;
            agree += incline_cell(a, e, "dt=1e-4", "v0=0.5", NULL) == want;
        }
    print_message("regime map (coarse, S/PR at atan(2 eta_r mu_k)): %d/%d agree\n", agree, n);
    assert_true(n > 600 && agree >= 0.98 * n);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    cb_scenario s;
    cb_compliant_settings cs;
    cb_error err;
    const char *const bad[] = {"K_E=-1", NULL}, *const unknown[] = {"nope=1", NULL},
                      *const word[] = {"normal=x", NULL}, *const num[] = {"K_D=abc", NULL},
                      *const mat[] = {"material=wood", NULL};
    assert_int_equal(prepare("brick-incline", "compliant", bad, &s, &cs, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "K_E"));
    assert_int_equal(prepare("brick-incline", "compliant", unknown, &s, &cs, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param nope: not a parameter of scenario brick-incline nor of "
                                  "the compliant model");
    assert_int_equal(prepare("brick-incline", "compliant", word, &s, &cs, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param normal: 'x' is not given, hooke or hertz");
    assert_int_equal(prepare("brick-incline", "compliant", num, &s, &cs, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param K_D: 'abc' is not a finite number");
    assert_int_equal(prepare("sphere-spin", "compliant", mat, &s, &cs, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param material: 'wood' is not steel1, steel2 or glass");
    assert_int_equal(prepare("brick-incline", "rigid", NULL, &s, &cs, &err), CB_ERR_INPUT);
    assert_int_equal(prepare("no-such", "compliant", NULL, &s, &cs, &err), CB_ERR_INPUT);
    const cb_kv nokey[] = {{NULL, "1"}};
    assert_int_equal(cb_compliant_prepare("brick-incline", "compliant", nokey, 1, &s, &cs, &err),
                     CB_ERR_INPUT);
    assert_string_equal(err.text, "param 0: missing key or value");
    const char *const mus[] = {"mu_s=0.1", NULL}; /* below mu_k = 0.2 */
    assert_int_equal(prepare("brick-incline", "compliant", mus, &s, &cs, &err), CB_OK);
    cb_compliant_result r;
    assert_int_equal(cb_compliant_run(&s, &cs, NULL, NULL, &r, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "mu_s"));
    cb_scenario_free(&s);
}

/* The presets are the papers' numbers (Fang & Negrut Table 2, §4.4, §4.5, Table 6, Table 7,
 * §4.6, Table 5), and the user's parameters are routed after them: model keys to the model,
 * shared ones (mu_k → mu, t_end) to the scenario too, the last one given wins. */
static void test_presets_and_routing(void **state)
{
    (void)state;
    cb_scenario s;
    cb_compliant_settings cs;
    cb_error err = {{0}};
    assert_int_equal(prepare("brick-incline", "compliant", NULL, &s, &cs, &err), CB_OK);
    assert_true(cs.K_D == 632.0 && cs.variant == CB_COMPLIANT_FANG);
    cb_scenario_free(&s);
    assert_int_equal(prepare("sphere-spin", "compliant-edem", NULL, &s, &cs, &err), CB_OK);
    assert_true(s.t_end == 8.0 && cs.variant == CB_COMPLIANT_EDEM);
    assert_non_null(strstr(s.params, "t_end=8"));
    cb_scenario_free(&s);
    assert_int_equal(prepare("ellipsoid", "compliant", NULL, &s, &cs, &err), CB_OK);
    assert_true(cs.normal == CB_NORMAL_HOOKE && cs.k_n == 1e7 && cs.K_D == 1414.21);
    assert_true(cs.c_n == 3960.0); /* not a paper value (presets.c says so) */
    cb_scenario_free(&s);
    assert_int_equal(prepare("ellipsoid-spin", "compliant", NULL, &s, &cs, &err), CB_OK);
    assert_true(cs.spin_hertz == 1 && cs.K_E == 5e6);
    cb_scenario_free(&s);
    assert_int_equal(prepare("three-spheres", "compliant", NULL, &s, &cs, &err), CB_OK);
    assert_true(cs.normal == CB_NORMAL_HERTZ && cs.E == 2e6 && cs.E_ground == 2e6);
    cb_scenario_free(&s);
    assert_int_equal(prepare("disk-rolling", "compliant-legacy", NULL, &s, &cs, &err), CB_OK);
    assert_true(cs.roll_identical == 1 && cs.variant == CB_COMPLIANT_LEGACY);
    cb_scenario_free(&s);
    assert_int_equal(prepare("sphere-plane", "compliant", NULL, &s, &cs, &err), CB_OK);
    assert_true(isnan(cs.mu_s));
    cb_scenario_free(&s);
    /* Table 5 glass sphere: R = 0.02, ρ = 2.5e3 → m = ρ 4/3 π R³; E = 5e10, ν = 0.2 */
    const char *const kv[] = {"material=glass", "mu_k=0.3", "K_E=2e5", "K_E=3e5", "t_end=2",
                              NULL};
    assert_int_equal(prepare("sphere-spin", "compliant", kv, &s, &cs, &err), CB_OK);
    assert_true(cs.E == 5e10 && cs.nu == 0.2 && cs.spin_hertz == 1);
    assert_true(cs.mu_k == 0.3 && s.contact.friction.mu == 0.3);
    assert_true(cs.K_E == 3e5 && cs.t_end == 2.0 && s.t_end == 2.0);
    assert_true(cbt_reldiff(s.bodies[1].mass, 2.5e3 * 4.0 / 3.0 * M_PI * 8e-6, 0) < 1e-15);
    assert_true(s.bodies[1].shape.radius == 0.02);
    cb_scenario_free(&s);
    const char *const deg[] = {"alpha_deg=20", NULL}; /* sphere-incline takes degrees */
    assert_int_equal(prepare("sphere-incline", "compliant", deg, &s, &cs, &err), CB_OK);
    assert_non_null(strstr(s.params, "alpha=20"));
    cb_scenario_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brick),           cmocka_unit_test(test_incline_kinetic_loads),
        cmocka_unit_test(test_spin),            cmocka_unit_test(test_disk_and_legacy),
        cmocka_unit_test(test_stiffness_limit), cmocka_unit_test(test_regimes),
        cmocka_unit_test(test_regime_hysteresis), cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_presets_and_routing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
