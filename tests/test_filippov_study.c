/* conebench tests — the Filippov studies (src/studies/filippov_study.h) return their numbers:
 * the map's tally against its own series and the closed-form cases of AS eq. 69-70 (every cell
 * away from the boundaries agrees; each phase portrait's state has the case it is named after),
 * the check's tallies against the wheel states it returns, recomputed row by row, and the
 * parameters → body reader (defaults kept, keys named in errors). */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filippov_study.h"

/* The map (quick): tally = series = closed form. */
static void test_map(void **state)
{
    (void)state;
    cb_fil_map m;
    cb_error err = {{0}};
    if (cb_fil_map_run(1, &m, &err) != CB_OK)
        fail_msg("map: %s", err.text);
    assert_int_equal(m.nseries, CB_FIL_MAP_SERIES);
    long rows = 0, counts[5] = {0}, sum = 0;
    char *line = m.series[0].text, *save = NULL;
    assert_string_equal(m.series[0].name, "filippov_regions.dat");
    for (char *l = strtok_r(line, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        double x, y;
        int k;
        if (l[0] == '#' || sscanf(l, "%lf %lf %d", &x, &y, &k) != 3)
            continue;
        rows++;
        counts[k < 0 ? 0 : k]++;
    }
    assert_int_equal(rows, (long)(m.grid + 1) * (m.grid + 1));
    assert_int_equal(m.stats.cells, rows);
    for (int k = 0; k < 5; k++) {
        assert_int_equal(m.stats.counts[k], counts[k]);
        sum += counts[k];
    }
    assert_int_equal(sum, rows);
    assert_true(m.stats.away > rows / 2);
    assert_int_equal(m.stats.agree, m.stats.away); /* eq. 69-70 (eq. 62 normalisation) */
    assert_true(m.stats.printed_disagree > 0);     /* eq. 69-70 as printed are a factor 2 off */
    for (int k = 0; k < CB_FIL_PHASE_CASES; k++) {
        const cb_fil_phase_state *p = &cb_fil_phase_states[k];
        assert_int_equal(m.phase[k].paper.dirs.kase, cb_fil_wheel_case_analytic(p->x, p->y, 0));
        assert_string_equal(cb_fil_case_name(m.phase[k].paper.dirs.kase), p->name);
        assert_true(m.series[4 + 3 * k].len > 0);
    }
    cb_fil_map_free(&m);
    cb_fil_map_free(NULL);
}

/* The check (quick): the tallies are the counts of the rows it returns; away from the boundary
 * the rows' cases are eq. 69-70's. */
static void test_agree(void **state)
{
    (void)state;
    cb_fil_agree a;
    cb_error err = {{0}};
    if (cb_fil_agree_run(1, &a, &err) != CB_OK)
        fail_msg("check: %s", err.text);
    long rows = 0, ccp = 0, comp = 0, away = 0, closed = 0;
    char *save = NULL;
    for (char *l = strtok_r(a.wheel_states.text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        double x, y;
        int k, c1, c2, near;
        if (l[0] == '#' || sscanf(l, "%lf %lf %d %d %d %d", &x, &y, &k, &c1, &c2, &near) != 6)
            continue;
        rows++, ccp += c1, comp += c2;
        if (!near) {
            away++;
            closed += k == (int)cb_fil_wheel_case_analytic(x, y, 0);
        }
    }
    assert_int_equal(rows, a.n);
    assert_int_equal(a.wheel.n, a.n);
    assert_int_equal(a.sphere.n, a.n);
    assert_int_equal(a.wheel.agree_ccp, ccp);
    assert_int_equal(a.wheel.agree_comp, comp);
    assert_int_equal(a.wheel.n_away, away);
    assert_int_equal(closed, away);
    assert_int_equal(a.pass, 1);
    cb_fil_agree_free(&a);
    cb_fil_agree_free(NULL);
}

/* Parameters → wheel and shape: given keys read, others default, errors name the key. */
static void test_params(void **state)
{
    (void)state;
    cb_kv items[] = {{"Md", "0.44145"}, {"w2", "1.7658"}, {"gamma", "2"}};
    cb_kv_view v = {items, 3, NULL, "p"};
    cb_fil_wheel w, d;
    cb_error err = {{0}};
    cb_fil_wheel_default(&d);
    assert_int_equal(cb_fil_wheel_of(&v, &w, &err), CB_OK);
    assert_true(w.Md == 0.44145 && w.w2 == 1.7658 && w.gamma == 2 && w.m == d.m && w.mu == d.mu);
    assert_int_equal(w.law, CB_FIL_STRIBECK);
    cb_kv bad[] = {{"zz", "1"}};
    v = (cb_kv_view){bad, 1, NULL, "p"};
    assert_int_equal(cb_fil_wheel_of(&v, &w, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "p zz: not a parameter of the wheel"));
    cb_kv shape[] = {{"shape", "disk"}, {"R", "0.3"}, {"balance", "1"}};
    cb_fil_shape_state s;
    v = (cb_kv_view){shape, 3, NULL, "p"};
    assert_int_equal(cb_fil_shape_of(&v, &s, &err), CB_OK);
    assert_true(s.shape == CB_FIL_DISK && s.radius == 0.3 && s.balance == 1);
    cb_kv flag[] = {{"balance", "yes"}};
    v = (cb_kv_view){flag, 1, NULL, "p"};
    assert_int_equal(cb_fil_shape_of(&v, &s, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "p balance: must be 0 or 1"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map),
        cmocka_unit_test(test_agree),
        cmocka_unit_test(test_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
