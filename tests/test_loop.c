/* conebench tests — loop campaign lines (src/bench/loop.h, campaign.h): loops.csv rows read back
 * as written (NaN, extreme and negative numbers, every field); rows of the older 31-column layout
 * read with d_stop, d_stop_closed and heading_deg NaN; a malformed row or header is
 * "FILE:LINE" bad input and an absent file no rows; loop lines parse into their scenario,
 * parameters and tag, and a campaign with more than CB_CAMPAIGN_MAX_LOOP_RUNS trajectories is
 * refused on the line that crosses the bound. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"
#include "loop.h"

/* Two numbers are the same, NaN included. */
static int same(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

/* Row k of the round trip: numbers that stress %.17g (NaN, tiny, huge, negative). */
static void make_row(int k, cb_loop_row *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->id, sizeof r->id, "%016x", 0xabc0 + k);
    snprintf(r->loop, sizeof r->loop, "sphere-pile-n_%d-t_end_0.2", k);
    snprintf(r->scenario, sizeof r->scenario, "sphere-pile");
    snprintf(r->solver, sizeof r->solver, k ? "nsgs" : "nsn+nsgs");
    snprintf(r->label, sizeof r->label, k ? "nsgs local=proj" : "reference");
    snprintf(r->status, sizeof r->status, k == 2 ? "time_limit" : "ok");
    r->tol = k ? 1e-4 / k : 1e-12, r->rep = k, r->reference = k == 0;
    r->steps = 1000 + k, r->unsolved = k, r->time_limited = 2 * k, r->iterations = 1LL << 40;
    r->max_nc = 7 * k;
    double v[16] = {0.2, 1.5e-300, 3.0, 1e300, -0.5, 0.1 / 3, NAN, NAN, 4.14118246687054, NAN,
                    1.989, 2.017, 44.59, k ? 2.5e-3 : NAN, 1e-6 * k, -0.0};
    double *f[16] = {&r->t_end, &r->cpu_s, &r->solve_s, &r->max_error, &r->energy0,
                     &r->energy_end, &r->x_stop, &r->t_stop, &r->x_stop_closed, &r->x_stop_err,
                     &r->height_over_phi, &r->mean_radius_over_phi, &r->pile_angle_deg,
                     &r->drift_pos, &r->drift_pos_rel, &r->drift_energy};
    for (int i = 0; i < 16; i++)
        *f[i] = v[i];
    r->indistinguishable = k == 1;
    r->d_stop = k ? 1.2591893081397958 : NAN;
    r->d_stop_closed = k ? 1.5927624872578998 : -0.0;
    r->heading_deg = k == 2 ? 2.8156000246462856e-12 : 11.565051159204332;
}

/* The stop columns d_stop, d_stop_closed, heading_deg are the same (NaN included). */
static int same_stop(const cb_loop_row *a, const cb_loop_row *b)
{
    return same(a->d_stop, b->d_stop) && same(a->d_stop_closed, b->d_stop_closed) &&
           same(a->heading_deg, b->heading_deg);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_rows_round_trip(void **state)
{
    (void)state;
    const char *dir = cbt_tmpdir();
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, CB_LOOP_FILE);
    cb_loop_row in[3], *out = NULL;
    int n = -1;
    cb_error err = {{0}};
    assert_int_equal(cb_loop_rows_read(dir, &out, &n, &err), CB_OK); /* absent: no rows */
    assert_int_equal(n, 0);
    FILE *f = fopen(path, "w");
    fputs(cb_loop_header(), f);
    for (int k = 0; k < 3; k++) {
        make_row(k, &in[k]);
        cb_loop_row_format(&in[k], f);
    }
    fclose(f);
    assert_int_equal(cb_loop_rows_read(dir, &out, &n, &err), CB_OK);
    assert_int_equal(n, 3);
    for (int k = 0; k < 3; k++) {
        const cb_loop_row *a = &in[k], *b = &out[k];
        assert_string_equal(a->id, b->id);
        assert_string_equal(a->loop, b->loop);
        assert_string_equal(a->solver, b->solver);
        assert_string_equal(a->label, b->label);
        assert_string_equal(a->status, b->status);
        assert_true(a->tol == b->tol && a->rep == b->rep && a->reference == b->reference);
        assert_true(a->steps == b->steps && a->unsolved == b->unsolved &&
                    a->time_limited == b->time_limited && a->iterations == b->iterations &&
                    a->max_nc == b->max_nc && a->indistinguishable == b->indistinguishable);
        assert_true(same(a->t_end, b->t_end) && same(a->cpu_s, b->cpu_s) &&
                    same(a->solve_s, b->solve_s) && same(a->max_error, b->max_error) &&
                    same(a->energy0, b->energy0) && same(a->energy_end, b->energy_end));
        assert_true(same(a->x_stop, b->x_stop) && same(a->t_stop, b->t_stop) &&
                    same(a->x_stop_closed, b->x_stop_closed) &&
                    same(a->x_stop_err, b->x_stop_err) &&
                    same(a->height_over_phi, b->height_over_phi) &&
                    same(a->mean_radius_over_phi, b->mean_radius_over_phi) &&
                    same(a->pile_angle_deg, b->pile_angle_deg));
        assert_true(same(a->drift_pos, b->drift_pos) && same(a->drift_pos_rel, b->drift_pos_rel) &&
                    same(a->drift_energy, b->drift_energy));
        assert_true(same_stop(a, b));
    }
    free(out);
}

/* A loops.csv of the 31-column layout (the header and rows without their last three columns):
 * read, every older field as written, the stop columns NaN; a 34-column row under the old header
 * is malformed. */
static void test_rows_old_layout(void **state)
{
    (void)state;
    const char *dir = cbt_tmpdir();
    char path[600], *text = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/%s", dir, CB_LOOP_FILE);
    FILE *f = open_memstream(&text, &len);
    cb_loop_row in[2], *out = NULL, nan_stop;
    fputs(cb_loop_header(), f);
    for (int k = 0; k < 2; k++) {
        make_row(k + 1, &in[k]);
        cb_loop_row_format(&in[k], f);
    }
    fclose(f);
    FILE *o = fopen(path, "w");
    assert_non_null(o);
    for (char *line = text, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
        char *cut = nl; /* drop the last three fields of the line */
        for (int c = 0; c < 3; c++)
            while (*--cut != ',') {}
        fprintf(o, "%.*s\n", (int)(cut - line), line);
    }
    fclose(o);
    int n = -1;
    cb_error err = {{0}};
    assert_int_equal(cb_loop_rows_read(dir, &out, &n, &err), CB_OK);
    assert_int_equal(n, 2);
    nan_stop.d_stop = nan_stop.d_stop_closed = nan_stop.heading_deg = NAN;
    for (int k = 0; k < 2; k++) {
        assert_string_equal(in[k].label, out[k].label);
        assert_true(in[k].indistinguishable == out[k].indistinguishable &&
                    same(in[k].drift_energy, out[k].drift_energy) &&
                    same(in[k].x_stop_closed, out[k].x_stop_closed));
        assert_true(same_stop(&out[k], &nan_stop));
    }
    free(out);
    FILE *m = fopen(path, "a"); /* a row of the new layout under the old header */
    assert_non_null(m);
    cb_loop_row_format(&in[0], m);
    fclose(m);
    assert_int_equal(cb_loop_rows_read(dir, &out, &n, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, ":4: malformed row (31 fields expected)"));
    free(text);
}

/* A row with a field missing (line 3) and a foreign header (line 1) are bad input, named. */
static void test_rows_malformed(void **state)
{
    (void)state;
    const char *dir = cbt_tmpdir();
    char path[600], *text = NULL, want[700];
    size_t len = 0;
    snprintf(path, sizeof path, "%s/%s", dir, CB_LOOP_FILE);
    FILE *f = open_memstream(&text, &len);
    cb_loop_row r;
    fputs(cb_loop_header(), f);
    make_row(1, &r);
    cb_loop_row_format(&r, f);
    make_row(2, &r);
    cb_loop_row_format(&r, f);
    fclose(f);
    *strrchr(text, ',') = '\0'; /* drop the last field of row 2 (and the newline) */
    write_text(path, text);
    cb_loop_row *out = NULL;
    int n = -1;
    cb_error err = {{0}};
    assert_int_equal(cb_loop_rows_read(dir, &out, &n, &err), CB_ERR_INPUT);
    assert_null(out);
    assert_int_equal(n, 0);
    snprintf(want, sizeof want, "%s:3: malformed row", path);
    assert_non_null(strstr(err.text, want));
    write_text(path, "id,loop\n");
    assert_int_equal(cb_loop_rows_read(dir, &out, &n, &err), CB_ERR_INPUT);
    snprintf(want, sizeof want, "%s:1: not a loops.csv header", path);
    assert_non_null(strstr(err.text, want));
    free(text);
}

/* Loop lines: scenario, parameters and tag; a repeated line and the trajectory bound refused on
 * their lines (2 lines × (1 solver × 8 tols × 1000 repetitions + 1) > 10000). */
static void test_loop_lines(void **state)
{
    (void)state;
    const char *dir = cbt_tmpdir();
    char path[600];
    snprintf(path, sizeof path, "%s/l.conf", dir);
    write_text(path, "solver nsgs\nloop sphere-plane config=c t_end=6\n"
                     "loop sphere-pile n=6 \"seed=2\"\ntol 1e-4 1e-8\n");
    cb_campaign *c = NULL;
    cb_error err = {{0}};
    assert_int_equal(cb_campaign_parse(path, dir, &c, &err), CB_OK);
    assert_int_equal(c->nloops, 2);
    assert_int_equal(c->nproblems, 0);
    assert_string_equal(c->loops[0].name, "sphere-plane");
    assert_string_equal(c->loops[0].tag, "sphere-plane-config_c-t_end_6");
    assert_int_equal(c->loops[0].params.n, 2);
    assert_string_equal(c->loops[0].params.items[1].key, "t_end");
    assert_string_equal(c->loops[0].params.items[1].value, "6");
    assert_int_equal(c->loops[1].line, 3);
    assert_string_equal(c->loops[1].tag, "sphere-pile-n_6-seed_2");
    cb_campaign_free(c);
    write_text(path, "solver nsgs\ntol 1 2e-1 3e-1 4e-1 5e-1 6e-1 7e-1 8e-1\nrepetitions 1000\n"
                     "loop sphere-plane\nloop sphere-plane config=b\n");
    assert_int_equal(cb_campaign_parse(path, dir, &c, &err), CB_ERR_INPUT);
    assert_null(c);
    assert_non_null(strstr(err.text, "l.conf:5: loop: the campaign now has 16002 loop"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_rows_round_trip),
                                       cmocka_unit_test(test_rows_malformed),
                                       cmocka_unit_test(test_loop_lines),
                                       cmocka_unit_test(test_rows_old_layout)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
