/* conebench tests — the performance gate: deterministic figures name the runs that changed,
 * a 30 % slowdown injected into a test-only solver is caught by the time check, and the
 * run-to-run noise of the same tree is not. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/gate.h"

/* test-slow: nsgs, then a busy wait of `slow` × its own solve time (same deterministic figures). */
static double slow = 0.0;
static const cb_solver *nsgs(void) { return cb_solver_find("nsgs"); }
static int slow_setup(const cb_problem *p, const cb_settings *s, void **w, cb_error *e)
{
    return nsgs()->setup(p, s, w, e);
}
static int slow_solve(void *w, const cb_settings *s, cb_solution *sol, cb_info *info, cb_error *e)
{
    double t0 = cb_now();
    int rc = nsgs()->solve(w, s, sol, info, e);
    double until = cb_now() + slow * (cb_now() - t0);
    while (cb_now() < until)
        ;
    return rc;
}
static void slow_cleanup(void *w) { nsgs()->cleanup(w); }
static const cb_solver slow_solver = {"test-slow", "nsgs plus a busy wait", NULL, NULL,
                                      slow_setup, slow_solve, slow_cleanup};
static const cb_solver *find(const char *name)
{
    return strcmp(name, "test-slow") ? cb_solver_find(name) : &slow_solver;
}

static cb_campaign *campaign(const char *dir)
{
    char path[512], gen[512];
    snprintf(path, sizeof path, "%s/ci.conf", dir);
    snprintf(gen, sizeof gen, "%s/problems", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("generate random kind=rolling3d nc=120 matrix=spd cond=100 density=0.05 seeds=1..3\n"
          "solver test-slow\nsolver nsgs local=proj label=nsgs-proj\n"
          "tol 1e-8\nmax-iter 2000\nrepetitions 7\n",
          f);
    fclose(f);
    char mk[600];
    snprintf(mk, sizeof mk, "mkdir -p %s", gen);
    assert_int_equal(system(mk), 0);
    cb_campaign *c = NULL;
    cb_error err = {{0}};
    if (cb_campaign_parse(path, gen, &c, &err) != CB_OK)
        fail_msg("%s", err.text);
    return c;
}

static void bench(const cb_campaign *c, const char *dir, cb_bench *b)
{
    cb_bench_settings s;
    cb_bench_settings_default(&s);
    s.outdir = dir;
    s.progress = 0;
    s.find_solver = find;
    cb_error err = {{0}};
    if (cb_bench_run(c, &s, b, &err) != CB_OK)
        fail_msg("%s", err.text);
}

/* Compare into a string. */
static char *compare(const cb_bench *base, const cb_bench *cur, cb_gate_summary *sum)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    cb_gate_compare(base, cur, f, sum);
    long n = ftell(f);
    char *text = calloc((size_t)n + 1, 1);
    assert_non_null(text);
    rewind(f);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return text;
}

/* The baseline file round-trips; halving every iterations value makes the gate fail and name
 * every run. */
static void test_halved_iterations(void **state)
{
    (void)state;
    const char *dir = cbt_tmpdir();
    cb_campaign *c = campaign(dir);
    cb_bench cur, base;
    bench(c, dir, &cur);
    char path[600];
    snprintf(path, sizeof path, "%s/bench.csv", dir);
    assert_int_equal(cb_bench_write(path, &cur, NULL), CB_OK);
    assert_int_equal(cb_bench_read(path, &base, NULL), CB_OK);
    assert_int_equal(base.nrows, cur.nrows);
    cb_gate_summary sum;
    free(compare(&base, &cur, &sum)); /* a bench against itself: nothing to report */
    assert_int_equal(sum.regressions, 0);
    assert_int_equal(sum.compared, cur.nrows);
    for (int i = 0; i < base.nrows; i++) {
        assert_true(base.rows[i].iterations >= 2);
        base.rows[i].iterations /= 2;
    }
    char *out = compare(&base, &cur, &sum);
    assert_true(sum.regressions >= base.nrows);
    for (int i = 0; i < base.nrows; i++) /* every run is named on a REGRESSION line */
        assert_non_null(strstr(out, base.rows[i].problem));
    assert_non_null(strstr(out, "REGRESSION"));
    assert_non_null(strstr(out, "iterations"));
    free(out);
    cb_bench_free(&cur);
    cb_bench_free(&base);
    cb_campaign_free(c);
}

/* Time check: +30 % on test-slow is a regression of that solver; three re-runs of the same tree
 * are not. */
static void test_time_check(void **state)
{
    (void)state;
    const char *dir = cbt_tmpdir();
    cb_campaign *c = campaign(dir);
    cb_bench base, cur;
    cb_gate_summary sum;
    slow = 0.0;
    bench(c, dir, &base);
    for (int k = 0; k < 3; k++) {
        bench(c, dir, &cur);
        char *out = compare(&base, &cur, &sum);
        if (sum.regressions)
            fail_msg("noise flagged as a regression on re-run %d:\n%s", k, out);
        free(out);
        cb_bench_free(&cur);
    }
    slow = 0.30;
    bench(c, dir, &cur);
    char *out = compare(&base, &cur, &sum);
    print_message("%s", out);
    assert_true(sum.regressions >= 1);
    const char *line = strstr(out, "\ntest-slow");
    assert_non_null(line);
    const char *eol = strchr(line + 1, '\n');
    assert_true(strstr(line, "REGRESSION") && strstr(line, "REGRESSION") < eol);
    free(out);
    cb_bench_free(&cur);
    cb_bench_free(&base);
    cb_campaign_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_halved_iterations),
                                       cmocka_unit_test(test_time_check)};
    return cmocka_run_group_tests_name("gate", tests, NULL, NULL);
}
