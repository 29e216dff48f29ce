/* conebench tests — the performance gate, without a clock: the time statistics on synthetic
 * samples of known ratio (verdicts, interval coverage, determinism, input checks), the exact
 * comparison of deterministic figures (Siconos rows by status only), bench files, and a bench
 * run with two binaries whose figures must agree bit for bit. No assertion depends on how
 * fast this machine is; the real trials under load are in BENCHMARKS.md. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "gate.h"
#include "metrics.h"
#include "rng.h"

#define NRUNS 6
#define NREPS 40 /* at most */

/* Synthetic samples: run i takes t_i ∈ [1, 100] ms; every time gets an independent lognormal
 * noise factor exp(σ N(0,1)) and, with probability 1/10, a disturbance ×(1 + U(0, 1)) (a
 * context switch); current = true_ratio × baseline before noise. nreps repetitions a run. */
static void synth(cb_rng *r, double true_ratio, double sigma, int nreps,
                  cb_ab_pair pairs[NRUNS][NREPS], cb_ab_run *runs)
{
    for (int i = 0; i < NRUNS; i++) {
        double t = 1e-3 * pow(100.0, (double)i / (NRUNS - 1));
        for (int k = 0; k < nreps; k++) {
            double nb = exp(sigma * cb_rng_normal(r)), nc = exp(sigma * cb_rng_normal(r));
            nb *= cb_rng_uniform(r) < 0.1 ? 1 + cb_rng_uniform(r) : 1;
            nc *= cb_rng_uniform(r) < 0.1 ? 1 + cb_rng_uniform(r) : 1;
            pairs[i][k] = (cb_ab_pair){t * nb, t * true_ratio * nc};
        }
        runs[i] = (cb_ab_run){nreps, pairs[i]};
    }
}

static cb_ab_estimate estimate(const cb_ab_run *runs, int n)
{
    cb_ab_stats st;
    cb_ab_stats_default(&st);
    cb_ab_estimate e;
    assert_int_equal(cb_ab_ratio(runs, n, &st, &e, NULL), CB_OK);
    return e;
}

/* Identical samples: ratio 1 with a zero-width interval; no runs: no verdict. */
static void test_identical(void **state)
{
    (void)state;
    cb_ab_pair p[NRUNS][NREPS];
    cb_ab_run runs[NRUNS];
    cb_rng r;
    cb_rng_seed(&r, 1);
    synth(&r, 1.0, 0.05, 10, p, runs);
    for (int i = 0; i < NRUNS; i++)
        for (int k = 0; k < 10; k++)
            p[i][k].cur = p[i][k].base;
    cb_ab_estimate e = estimate(runs, NRUNS);
    assert_true(e.ratio == 1.0 && e.lo == 1.0 && e.hi == 1.0);
    assert_int_equal(e.verdict, CB_AB_SAME);
    assert_int_equal(estimate(runs, 0).verdict, CB_AB_NONE);
}

/* Verdicts at 2 % noise per time (10 repetitions): 1.0 and 1.03 are never regressions, 1.10
 * and 1.30 always, 0.7 always an improvement — over 50 synthetic data sets each. */
static void test_verdicts(void **state)
{
    (void)state;
    const double ratios[] = {1.0, 1.03, 1.10, 1.30, 0.70};
    const cb_ab_verdict want[] = {CB_AB_SAME, CB_AB_SAME, CB_AB_REGRESSION, CB_AB_REGRESSION,
                                  CB_AB_IMPROVEMENT};
    cb_ab_pair p[NRUNS][NREPS];
    cb_ab_run runs[NRUNS];
    cb_rng r;
    cb_rng_seed(&r, 2);
    for (int c = 0; c < 5; c++) {
        int hits = 0;
        for (int t = 0; t < 50; t++) {
            synth(&r, ratios[c], 0.02, 10, p, runs);
            hits += estimate(runs, NRUNS).verdict == want[c];
        }
        print_message("  true ratio %.2f: verdict %s in %d of 50\n", ratios[c],
                      cb_ab_verdict_name(want[c]), hits);
        assert_int_equal(hits, 50);
    }
}

/* Median relative width of the interval over n data sets of ratio 1.2 at noise sigma, and how
 * often the interval covers 1.2. */
static double width_and_coverage(cb_rng *r, double sigma, int nreps, int n, int *covered)
{
    cb_ab_pair p[NRUNS][NREPS];
    cb_ab_run runs[NRUNS];
    double width[200];
    *covered = 0;
    for (int t = 0; t < n; t++) {
        synth(r, 1.2, sigma, nreps, p, runs);
        cb_ab_estimate e = estimate(runs, NRUNS);
        *covered += e.lo <= 1.2 && 1.2 <= e.hi;
        width[t] = (e.hi - e.lo) / 1.2;
    }
    return cb_median(width, n);
}

/* At 5 % noise the 95 % interval covers the true ratio in at least 88 % of the data sets (the
 * percentile bootstrap is a little optimistic on few repetitions; far below 95 % would mean a
 * wrong interval), and four times the repetitions make it at most 0.65 times as wide (1/2 in
 * theory). */
static void test_coverage(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 3);
    int n = (int)cbt_scale(200, 4), c10, c40;
    double w10 = width_and_coverage(&r, 0.05, 10, n, &c10);
    double w40 = width_and_coverage(&r, 0.05, 40, n, &c40);
    print_message("  10 reps: coverage %d of %d, median width %.3f; 40 reps: %d, %.3f\n", c10, n,
                  w10, c40, w40);
    assert_true(c10 >= (int)(0.88 * n) && c40 >= (int)(0.88 * n));
    assert_true(w40 < 0.65 * w10);
}

/* Same samples and seed: the same bits; times must be finite and > 0. */
static void test_determinism_and_input(void **state)
{
    (void)state;
    cb_ab_pair p[NRUNS][NREPS];
    cb_ab_run runs[NRUNS];
    cb_rng r;
    cb_rng_seed(&r, 4);
    synth(&r, 1.1, 0.1, 10, p, runs);
    cb_ab_estimate a = estimate(runs, NRUNS), b = estimate(runs, NRUNS);
    assert_memory_equal(&a, &b, sizeof a);
    cb_ab_stats st;
    cb_ab_stats_default(&st);
    cb_error err = {{0}};
    cb_ab_estimate e;
    const double bad[] = {0.0, -1.0, NAN, INFINITY};
    for (int i = 0; i < 4; i++) {
        p[2][3].cur = bad[i];
        assert_int_equal(cb_ab_ratio(runs, NRUNS, &st, &e, &err), CB_ERR_INPUT);
        assert_non_null(strstr(err.text, "run 2 repetition 3"));
    }
}

static cb_bench_row row(const char *problem, const char *solver, int exact, cb_status st, int it,
                        long long bp)
{
    cb_bench_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.problem, sizeof r.problem, "%s", problem);
    snprintf(r.solver, sizeof r.solver, "%s", solver);
    r.tol = 1e-6;
    r.exact = exact;
    r.status = st;
    r.solved = st == CB_STATUS_CONVERGED;
    r.iterations = it;
    r.work.block_products = bp;
    r.error = 1e-7;
    return r;
}

/* Exact rows: any change of iterations or block products is a verdict; Siconos rows: only the
 * status; a missing random run is a regression. Bench files round-trip. */
static void test_compare_and_files(void **state)
{
    (void)state;
    cb_bench base = {0}, cur = {0}, back = {0};
    cb_gate_tolerances_default(&base.tols);
    cb_bench_row b[] = {row("p1", "nsgs", 1, CB_STATUS_CONVERGED, 100, 5000),
                        row("p1", "siconos-nsgs", 0, CB_STATUS_CONVERGED, 80, 0),
                        row("p2", "nsgs", 1, CB_STATUS_CONVERGED, 50, 900),
                        row("p2", "siconos-nsgs", 0, CB_STATUS_CONVERGED, 70, 0),
                        row("random-x", "nsgs", 1, CB_STATUS_CONVERGED, 10, 10)};
    cb_bench_row c[] = {row("p1", "nsgs", 1, CB_STATUS_CONVERGED, 100, 5001),
                        row("p1", "siconos-nsgs", 0, CB_STATUS_CONVERGED, 95, 0),
                        row("p2", "nsgs", 1, CB_STATUS_CONVERGED, 49, 880),
                        row("p2", "siconos-nsgs", 0, CB_STATUS_MAX_ITER, 10000, 0)};
    for (int i = 0; i < 5; i++)
        assert_int_equal(cb_bench_row_push(&base, &b[i]), CB_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(cb_bench_row_push(&cur, &c[i]), CB_OK);
    cb_gate_summary sum;
    cb_gate_compare(&base, &cur, NULL, &sum);
    assert_int_equal(sum.compared, 4);
    assert_int_equal(sum.regressions, 3);  /* p1 block products +1, p2 siconos lost, missing */
    assert_int_equal(sum.improvements, 2); /* p2 nsgs iterations and block products */
    char path[600];
    snprintf(path, sizeof path, "%s/bench.csv", cbt_tmpdir());
    assert_int_equal(cb_bench_write(path, &base, NULL), CB_OK);
    assert_int_equal(cb_bench_read(path, &back, NULL), CB_OK);
    assert_int_equal(back.nrows, 5);
    cb_gate_compare(&base, &back, NULL, &sum);
    assert_int_equal(sum.regressions + sum.improvements, 0);
    assert_int_equal(back.rows[1].exact, 0);
    cb_bench_free(&base);
    cb_bench_free(&cur);
    cb_bench_free(&back);
}

/* cb_gate_times: only rows with equal work that stopped on their own enter (pfp's only row hit
 * its time limit: no verdict for pfp); interleaved rows use their own base_times. */
static void test_times_equal_work(void **state)
{
    (void)state;
    cb_bench base = {0}, cur = {0};
    cb_bench_row b = row("p1", "nsgs", 1, CB_STATUS_CONVERGED, 100, 5000), c = b;
    cb_bench_row b2 = row("p2", "nsgs", 1, CB_STATUS_CONVERGED, 100, 5000), c2 = b2;
    cb_bench_row b3 = row("p3", "pfp", 1, CB_STATUS_TIME_LIMIT, 700, 100), c3 = b3;
    c2.iterations = 90; /* different work: left out of the time ratio */
    for (int k = 0; k < 8; k++) {
        c.base_times[k] = 1.0, c.times[k] = 2.0;    /* twice slower, equal work */
        c2.base_times[k] = 1.0, c2.times[k] = 0.1;  /* much faster, but not equal work */
        c3.base_times[k] = 1.0, c3.times[k] = 3.0;  /* stopped by its time limit: left out */
    }
    c.ntimes = c2.ntimes = c3.ntimes = 8;
    cb_bench_row_push(&base, &b), cb_bench_row_push(&base, &b2), cb_bench_row_push(&base, &b3);
    cb_bench_row_push(&cur, &c), cb_bench_row_push(&cur, &c2), cb_bench_row_push(&cur, &c3);
    cb_ab_stats st;
    cb_ab_stats_default(&st);
    cb_gate_summary sum = {0};
    assert_int_equal(cb_gate_times(&base, &cur, 1, &st, NULL, &sum, NULL), CB_OK);
    assert_int_equal(sum.regressions, 1);
    assert_int_equal(sum.improvements, 0);
    cb_bench_free(&base);
    cb_bench_free(&cur);
}

/* The repetitions the percentile interval needs, by hand: P(Binomial(n, 1/n) ≥ ⌈n/2⌉) is
 * 1 (n = 1), 3/4 (n = 2), 7/27 (n = 3), 2906/6^6 (n = 6: k = 3..6, 20·125 + 15·25 + 6·5 + 1)
 * and 8359/7^7 (n = 7: k = 4..7, 35·216 + 21·36 + 7·6 + 1); the first at most 2.5 % is n = 7. */
static void test_min_repetitions(void **state)
{
    (void)state;
    assert_float_equal(cb_ab_extreme_median_prob(1), 1.0, 1e-15);
    assert_float_equal(cb_ab_extreme_median_prob(2), 0.75, 1e-15);
    assert_float_equal(cb_ab_extreme_median_prob(3), 7.0 / 27.0, 1e-15);
    assert_float_equal(cb_ab_extreme_median_prob(6), 2906.0 / 46656.0, 1e-15);
    assert_float_equal(cb_ab_extreme_median_prob(7), 8359.0 / 823543.0, 1e-15);
    assert_int_equal(cb_ab_min_repetitions(), 7);
}

/* One or two repetitions a run (a run of 7 beside them changes nothing): no interval, verdict
 * INSUFFICIENT, whatever the ratio (a tenfold one included); the point estimate is still the
 * median ratio. Seven distinct ratios 1.1^k: an interval strictly inside [1, 1.1^6]. */
static void test_insufficient(void **state)
{
    (void)state;
    cb_ab_pair one[1] = {{1.0, 10.0}}, two[2] = {{1.0, 10.0}, {1.0, 12.0}}, seven[7];
    for (int k = 0; k < 7; k++)
        seven[k] = (cb_ab_pair){1.0, pow(1.1, k)};
    cb_ab_run r1[1] = {{1, one}}, r2[2] = {{7, seven}, {2, two}}, r7[1] = {{7, seven}};
    cb_ab_estimate e = estimate(r1, 1);
    assert_int_equal(e.verdict, CB_AB_INSUFFICIENT);
    assert_true(isnan(e.lo) && isnan(e.hi));
    assert_float_equal(e.ratio, 10.0, 1e-12);
    assert_int_equal(e.min_reps, 1);
    assert_int_equal(e.needed, 7);
    e = estimate(r2, 2);
    assert_int_equal(e.verdict, CB_AB_INSUFFICIENT);
    assert_int_equal(e.min_reps, 2);
    e = estimate(r7, 1);
    assert_int_not_equal(e.verdict, CB_AB_INSUFFICIENT);
    assert_float_equal(e.ratio, pow(1.1, 3), 1e-12);
    assert_true(e.lo > 1.0 && e.hi < pow(1.1, 6) * (1 - 1e-12) && e.lo <= e.ratio &&
                e.ratio <= e.hi);
    assert_string_equal(cb_ab_verdict_name(CB_AB_INSUFFICIENT), "not enough repetitions");
}

/* Counters of runs stopped from outside are not compared: a time-limited run's iterations
 * 1138 -> 1030 is no improvement, a crashed one's no regression; a time-limited run that now
 * converges is a status verdict (improvement). */
static void test_forced_stops(void **state)
{
    (void)state;
    cb_bench base = {0}, cur = {0};
    cb_gate_tolerances_default(&base.tols);
    cb_bench_row b[] = {row("p1", "nsgs", 1, CB_STATUS_TIME_LIMIT, 1138, 9000),
                        row("p2", "nsgs", 1, CB_STATUS_MAX_ITER, 500, 100),
                        row("p3", "nsgs", 1, CB_STATUS_TIME_LIMIT, 700, 100),
                        row("p4", "nsgs", 1, CB_STATUS_MAX_ITER, 500, 100)};
    cb_bench_row c[] = {row("p1", "nsgs", 1, CB_STATUS_TIME_LIMIT, 1030, 8000),
                        row("p2", "nsgs", 1, CB_STATUS_CRASHED, 900, 300),
                        row("p3", "nsgs", 1, CB_STATUS_CONVERGED, 300, 50),
                        row("p4", "nsgs", 1, CB_STATUS_MAX_ITER, 500, 90)};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(cb_bench_row_push(&base, &b[i]), CB_OK);
        assert_int_equal(cb_bench_row_push(&cur, &c[i]), CB_OK);
    }
    cb_gate_summary sum;
    cb_gate_compare(&base, &cur, NULL, &sum);
    assert_int_equal(sum.compared, 4);
    assert_int_equal(sum.not_own_stop, 2);  /* p1, p2 */
    assert_int_equal(sum.regressions, 0);
    assert_int_equal(sum.improvements, 2);  /* p3 now solved, p4 block products */
    cb_bench_free(&base);
    cb_bench_free(&cur);
}

/* A bench run with the same binary as "baseline" and "current": every figure of the two
 * agrees exactly, every run has its repetitions, every time is > 0, and the output directory
 * holds what gate.h promises. */
static void test_bench_run_two_binaries(void **state)
{
    (void)state;
    const char *bin = getenv("CONEBENCH_BIN");
    if (!bin) {
        print_message("skipped: CONEBENCH_BIN not set (make test sets it)\n");
        skip();
    }
    char conf[600], gen[600], absbin[4096];
    const char *dir = cbt_tmpdir();
    assert_non_null(realpath(bin, absbin));
    snprintf(conf, sizeof conf, "%s/tiny.conf", dir);
    snprintf(gen, sizeof gen, "%s/out/problems", dir);
    FILE *f = fopen(conf, "w");
    assert_non_null(f);
    fputs("name tiny\ngenerate random kind=rolling3d nc=20 seeds=1..2\n"
          "generate random kind=coulomb2d nc=10 seeds=1\nsolver nsgs\nsolver apgd\n"
          "tol 1e-6\nmax-iter 2000\ntime-limit 30\nrepetitions 3\n", f);
    fclose(f);
    cb_campaign *c = NULL;
    cb_error err = {{0}};
    if (cb_campaign_parse(conf, gen, &c, &err) != CB_OK)
        fail_msg("%s", err.text);
    cb_bench_settings s;
    cb_bench_settings_default(&s);
    char out[600];
    snprintf(out, sizeof out, "%s/out", dir);
    s.outdir = out;
    s.current_bin = s.baseline_bin = absbin;
    s.progress = 0;
    cb_bench cur, base;
    if (cb_bench_run(c, &s, &cur, &base, &err) != CB_OK)
        fail_msg("%s", err.text);
    assert_int_equal(cur.nrows, 6);
    cb_gate_summary sum;
    cb_gate_compare(&base, &cur, NULL, &sum);
    assert_int_equal(sum.compared, 6);
    assert_int_equal(sum.regressions + sum.improvements, 0);
    for (int i = 0; i < cur.nrows; i++) {
        assert_true(cur.rows[i].solved);
        assert_int_equal(cur.rows[i].ntimes, 3);
        for (int k = 0; k < 3; k++)
            assert_true(cur.rows[i].times[k] > 0 && cur.rows[i].base_times[k] > 0);
    }
    const char *files[] = {"bench.csv", "samples.csv", "gate.txt", "campaign.conf", "limits.txt"};
    for (int i = 0; i < 5; i++) {
        char p[700];
        snprintf(p, sizeof p, "%s/%s", out, files[i]);
        assert_true(access(p, R_OK) == 0);
    }
    cb_bench back;
    assert_int_equal(cb_bench_from_dir(out, &back, NULL), CB_OK);
    assert_string_equal(back.time_unit, "cpu_s");
    assert_int_equal(back.rows[0].ntimes, 3);
    cb_bench_free(&back);
    cb_bench_free(&cur);
    cb_bench_free(&base);
    cb_campaign_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical),         cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_coverage),          cmocka_unit_test(test_determinism_and_input),
        cmocka_unit_test(test_compare_and_files), cmocka_unit_test(test_times_equal_work),
        cmocka_unit_test(test_bench_run_two_binaries), cmocka_unit_test(test_min_repetitions),
        cmocka_unit_test(test_insufficient),      cmocka_unit_test(test_forced_stops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
