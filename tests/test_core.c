/* conebench tests — problem kernels, the judge (against Siconos 4.4), contact modes, and the
 * solver framework (options, status, judge override). */
#include "test_support.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "conebench/io.h"
#include "conebench/judge.h"
#include "modes.h"
#include "conebench/problem.h"
#include "rng.h"
#include "conebench/solver.h"
#include "base.h"
#include "kv.h"

#if CB_HAVE_SICONOS
#include <RollingFrictionContactProblem.h>
#include <rolling_fc3d_compute_error.h>
#endif

/* A dense random problem: W with some zero off-diagonal blocks, q, μ's, all from seed. */
static cb_problem *random_dense(cb_kind kind, int nc, uint64_t seed)
{
    cb_problem *p = NULL;
    assert_int_equal(cb_problem_alloc(kind, nc, CB_STORAGE_DENSE, 0, &p, NULL), CB_OK);
    cb_rng r;
    cb_rng_seed(&r, seed);
    size_t n = cb_problem_n(p);
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++) {
            int coupled = (i / p->d == j / p->d) || ((i / p->d + j / p->d) % 3 == 0);
            p->W[i + j * n] = coupled ? cb_rng_normal(&r) : 0.0;
        }
    for (size_t i = 0; i < n; i++)
        p->q[i] = cb_rng_normal(&r);
    for (int a = 0; a < nc; a++) {
        p->mu[a] = cb_rng_range(&r, 0.05, 1.0);
        p->mu_r[a] = kind >= CB_KIND_ROLLING2D ? cb_rng_range(&r, 0.01, 0.2) : 0.0;
        p->mu_s[a] = kind == CB_KIND_ROLLSPIN3D ? cb_rng_range(&r, 0.01, 0.1) : 0.0;
    }
    return p;
}

static double *random_vec(size_t n, uint64_t seed, double scale)
{
    double *x = malloc(n * sizeof *x);
    assert_non_null(x);
    cb_rng r;
    cb_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++)
        x[i] = scale * cb_rng_normal(&r);
    return x;
}

/* W p for dense and BSR storage agree with a naive triple loop and with each other bit for bit
 * (every kind's d); row products and diagonal blocks agree with the full product; the rows of
 * W p + q had in ranges (cb_problem_y_rows, split anywhere) are cb_problem_y's bits. */
static void test_matvec_dense_bsr(void **state)
{
    (void)state;
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        cb_problem *dn = random_dense((cb_kind)k, 9, 100 + k), *bs = NULL;
        assert_int_equal(cb_problem_to_bsr(dn, &bs, NULL), CB_OK);
        assert_true(bs->bsr.nnzb < 81 && bs->bsr.nnzb >= 9); /* zero blocks were dropped */
        size_t n = cb_problem_n(dn);
        double *x = random_vec(n, 7, 1.0), *y1 = calloc(n, 8), *y2 = calloc(n, 8), *y3 = calloc(n, 8);
        for (size_t i = 0; i < n; i++) {
            y3[i] = dn->q[i];
            for (size_t j = 0; j < n; j++)
                y3[i] += dn->W[i + j * n] * x[j];
        }
        cb_problem_y(dn, x, y1);
        cb_problem_y(bs, x, y2);
        assert_true(cbt_vec_reldiff(y1, y3, n, 1e-300) < 1e-14);
        assert_true(cbt_vec_reldiff(y2, y3, n, 1e-300) < 1e-14);
        assert_memory_equal(y1, y2, n * sizeof *y1); /* one order of sums: the same bits */
        for (int cut = 0; cut <= dn->nc; cut += 4) {
            memset(y3 + n / 2, 0, (n - n / 2) * sizeof *y3); /* overwritten below: no leftovers */
            assert_true(cb_problem_y_rows(dn, x, y3, 0, cut) && cb_problem_y_rows(dn, x, y3, cut, dn->nc));
            assert_memory_equal(y3, y1, n * sizeof *y1);
            memset(y3, 0, n * sizeof *y3);
            assert_true(cb_problem_y_rows(bs, x, y3, cut, dn->nc) && cb_problem_y_rows(bs, x, y3, 0, cut));
            assert_memory_equal(y3, y2, n * sizeof *y2);
        }
        for (int a = 0; a < dn->nc; a++) {
            double r1[CB_MAX_DIM], r2[CB_MAX_DIM], D1[36], D2[36];
            cb_problem_row_Wp(dn, a, x, r1);
            cb_problem_row_Wp(bs, a, x, r2);
            for (int i = 0; i < dn->d; i++) {
                assert_true(fabs(r1[i] + dn->q[a * dn->d + i] - y3[a * dn->d + i]) < 1e-12);
                assert_true(fabs(r2[i] - r1[i]) < 1e-12);
            }
            cb_problem_diag_block(dn, a, D1);
            cb_problem_diag_block(bs, a, D2);
            assert_memory_equal(D1, D2, sizeof(double) * dn->d * dn->d);
        }
        cb_problem *back = NULL;
        assert_int_equal(cb_problem_to_dense(bs, &back, NULL), CB_OK);
        assert_memory_equal(back->W, dn->W, n * n * sizeof(double));
        cb_problem_free(back);
        free(x), free(y1), free(y2), free(y3);
        cb_problem_free(dn);
        cb_problem_free(bs);
    }
}

/* Validation names the field. */
static void test_problem_check(void **state)
{
    (void)state;
    cb_problem *p = random_dense(CB_KIND_ROLLING3D, 3, 1);
    cb_error err = {{0}};
    assert_int_equal(cb_problem_check(p, &err), CB_OK);
    p->mu_r[1] = -0.1;
    assert_int_equal(cb_problem_check(p, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "mu_r"));
    p->mu_r[1] = 0.1;
    p->q[4] = NAN;
    assert_int_equal(cb_problem_check(p, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "q"));
    cb_problem_free(p);
    cb_problem *q = NULL;
    assert_int_equal(cb_problem_alloc(CB_KIND_ROLLING3D, -1, CB_STORAGE_DENSE, 0, &q, &err),
                     CB_ERR_INPUT); /* nc = 0 is a valid problem without contacts */
    assert_null(q);
    assert_non_null(strstr(err.text, "nc"));
    assert_int_equal(cb_problem_alloc(CB_KIND_ROLLING3D, 1 << 30, CB_STORAGE_DENSE, 0, &q, &err),
                     CB_ERR_INPUT); /* nc·d overflows int */
    assert_null(q);
}

/* The judge's `error` equals Siconos 4.4's on random (p, W, q), every normalisation branch. */
static void test_judge_vs_siconos(void **state)
{
    (void)state;
    CBT_REQUIRE_SICONOS();
    const cb_kind kinds[2] = {CB_KIND_ROLLING3D, CB_KIND_COULOMB3D};
    const double scales[4] = {1e-3, 1.0, 1e3, 1e-20}; /* 1e-20: max() < DBL_EPSILON branch */
    int count = 0;
    for (int k = 0; k < 2; k++)
        for (int trial = 0; trial < 40; trial++) {
            cb_problem *p = random_dense(kinds[k], 1 + trial % 7, 1000 + trial);
            size_t n = cb_problem_n(p);
            double s = scales[trial % 4];
            for (size_t i = 0; i < n; i++)
                p->q[i] *= s;
            double *x = random_vec(n, 2000 + trial, s);
            cb_judgement j;
            assert_int_equal(cb_judge(p, x, 1e-8, NULL, &j, NULL), CB_OK);
            double se = cbt_siconos_error(p, x, 1e-8);
            assert_true(cbt_reldiff(j.error, se, 1e-300) < 1e-10);
            assert_true(j.finite);
            count++;
            free(x);
            cb_problem_free(p);
        }
    print_message("judge == Siconos on %d random problems (rolling3d, coulomb3d)\n", count);
}

/* error_q = ‖e‖/‖q‖; `solved` needs error_data ≤ tol (≥ error); NaN ⇒ not finite. */
static void test_judge_rules(void **state)
{
    (void)state;
    cb_problem *p = random_dense(CB_KIND_ROLLING3D, 2, 5);
    size_t n = cb_problem_n(p);
    double *x = random_vec(n, 3, 1.0);
    cb_judgement j;
    assert_int_equal(cb_judge(p, x, 1e-8, NULL, &j, NULL), CB_OK);
    assert_true(fabs(j.error_q - j.abs_error / j.norm_q) <= 1e-15 * j.error_q);
    assert_true(fabs(j.error - j.abs_error / fmax(j.norm_q, fmax(j.norm_p, j.norm_y))) <=
                1e-15 * j.error);
    assert_false(j.solved);
    assert_int_equal(cb_judge(p, x, 1e10, NULL, &j, NULL), CB_OK);
    assert_true(j.solved && j.error_data >= j.error);
    /* a huge p: error small by the max() normalisation, but error_q and error_data expose it */
    for (size_t i = 0; i < n; i++)
        x[i] *= 1e150;
    assert_int_equal(cb_judge(p, x, 1.0, NULL, &j, NULL), CB_OK);
    assert_true(j.error <= 1.0 + 1e-12 && j.error_q > 1.0 && j.error_data > 1.0);
    assert_false(j.solved);
    /* an iterate running off to infinity on an infeasible problem (W = 0, q_N < 0): p − ŷ rounds
     * to p, so the computed natural map is exactly 0, yet it must not count as solved */
    memset(p->W, 0, n * n * sizeof(double));
    memset(p->q, 0, n * sizeof(double));
    p->q[0] = -1.0;
    memset(x, 0, n * sizeof(double));
    x[0] = 1e22;
    assert_int_equal(cb_judge(p, x, 1e-8, NULL, &j, NULL), CB_OK);
    assert_true(j.abs_error == 0.0 && j.finite && !j.resolvable);
    assert_false(j.solved);
    x[0] = 1e300; /* finite entries whose norm still fits, and one that overflows ‖p‖ */
    x[5] = 1e300;
    assert_int_equal(cb_judge(p, x, 1e-8, NULL, &j, NULL), CB_OK);
    assert_false(j.solved);
    x[0] = x[5] = DBL_MAX;
    assert_int_equal(cb_judge(p, x, 1e-8, NULL, &j, NULL), CB_OK);
    assert_false(j.finite);
    x[3] = NAN;
    assert_int_equal(cb_judge(p, x, 1.0, NULL, &j, NULL), CB_OK);
    assert_false(j.finite);
    assert_false(j.solved);
    /* p = 0 on a problem with q ∈ K* (take-off everywhere) is an exact solution */
    memset(x, 0, n * sizeof *x);
    for (int a = 0; a < p->nc; a++) {
        p->q[a * 5] = 1.0;
        for (int i = 1; i < 5; i++)
            p->q[a * 5 + i] = 0.1;
    }
    assert_int_equal(cb_judge(p, x, 1e-15, NULL, &j, NULL), CB_OK);
    assert_true(j.solved && j.abs_error == 0.0);
    free(x);
    cb_problem_free(p);
}

/* Drift along K ∩ null(W), in closed form: one coulomb3d contact, W = diag(0, 1, 1) (e_N spans
 * null(W) and lies in K), q = (1, 0, 0): p* = 0. At p = t e_N, y = q and ŷ = q, so
 * e = t e_N − P_K((t − 1) e_N) = e_N: ‖e‖ = 1 whatever t. Siconos' error 1/max(‖q‖, ‖p‖, ‖y‖)
 * = 1/t falls below any tol as t grows (and error_q = 1 passed the former error_q ≤ 1 guard);
 * error_data = 1/(κ max(‖q‖, ‖q‖/w̄)) = 1/κ (w̄ = ‖W_11‖∞ = 1) stays, and the point is not
 * solved. Below the cap (t ≤ κ) error_data equals error. */
static void test_judge_drift(void **state)
{
    (void)state;
    cb_problem *p = NULL;
    assert_int_equal(cb_problem_alloc(CB_KIND_COULOMB3D, 1, CB_STORAGE_DENSE, 0, &p, NULL), CB_OK);
    memset(p->W, 0, 9 * sizeof(double));
    p->W[4] = p->W[8] = 1.0;
    p->q[0] = 1.0, p->q[1] = p->q[2] = 0.0;
    p->mu[0] = 0.5;
    const double ts[] = {1e8, 1e3, 10.0, 2.0};
    for (int k = 0; k < 4; k++) {
        double x[3] = {ts[k], 0.0, 0.0};
        cb_judgement j;
        assert_int_equal(cb_judge(p, x, 1e-6, NULL, &j, NULL), CB_OK);
        assert_true(j.finite && j.resolvable && j.abs_error == 1.0 && j.error_q == 1.0);
        assert_true(j.error == 1.0 / ts[k]);
        double expect = ts[k] > CB_JUDGE_KAPPA ? 1.0 / CB_JUDGE_KAPPA : 1.0 / ts[k];
        assert_true(j.error_data == expect);
        assert_false(j.solved);
    }
    double zero[3] = {0.0, 0.0, 0.0};
    cb_judgement j;
    assert_int_equal(cb_judge(p, zero, 1e-15, NULL, &j, NULL), CB_OK);
    assert_true(j.solved && j.error_data == 0.0);
    cb_problem_free(p);
}

/* The natural-map residual is positively homogeneous of degree 1 in (p, q) at fixed W, so
 * judging (λ p, λ q) gives λ‖e‖ with the same error and error_q — also for λ = 2^600, where the
 * squares of the residuals overflow (the judge then rescales instead of reporting inf). */
static void test_judge_homogeneous(void **state)
{
    (void)state;
    for (int trial = 0; trial < 20; trial++) {
        cb_kind kind = trial % 2 ? CB_KIND_ROLLING3D : CB_KIND_COULOMB3D;
        cb_problem *p = random_dense(kind, 1 + trial % 5, 500 + trial);
        size_t n = cb_problem_n(p);
        double *x = random_vec(n, 600 + trial, 1.0);
        cb_judgement ref, big;
        assert_int_equal(cb_judge(p, x, 1e-8, NULL, &ref, NULL), CB_OK);
        const int k = 600; /* 2^600 ≈ 4e180: squares overflow, entries and norms do not */
        for (size_t i = 0; i < n; i++)
            x[i] = ldexp(x[i], k), p->q[i] = ldexp(p->q[i], k);
        assert_int_equal(cb_judge(p, x, 1e-8, NULL, &big, NULL), CB_OK);
        assert_true(ref.finite && big.finite);
        assert_true(ref.abs_error > 0);
        assert_true(cbt_reldiff(ldexp(ref.abs_error, k), big.abs_error, 1e-300) < 1e-13);
        assert_true(cbt_reldiff(ref.error, big.error, 1e-300) < 1e-13);
        assert_true(cbt_reldiff(ref.error_q, big.error_q, 1e-300) < 1e-13);
        free(x);
        cb_problem_free(p);
    }
}

/* Modes of hand-made contacts (rollspin3d, μ = 0.5, μ_r = 0.1, μ_s = 0.05). */
static void test_modes(void **state)
{
    (void)state;
    const cb_friction f = {0.5, 0.1, 0.05};
    const struct {
        double p[6], y[6];
        int mode;
        const char *name;
    } cases[] = {
        {{0, 0, 0, 0, 0, 0}, {1, 2, 3, 4, 5, 6}, CB_MODE_TAKEOFF, "takeoff"},
        {{1, 0.1, 0, 0.01, 0, 0}, {0, 0, 0, 0, 0, 0}, CB_MODE_STICK, "stick"},
        {{1, -0.5, 0, 0, 0, 0}, {0, 2, 0, 0, 0, 0}, CB_MODE_SLIDE, "slide"},
        {{1, 0, 0, 0, -0.1, 0}, {0, 0, 0, 0, 3, 0}, CB_MODE_ROLL, "roll"},
        {{2, 0.6, 0.8, -0.2, 0, 0}, {0, -0.6, -0.8, 1, 0, 0}, CB_MODE_SLIDE | CB_MODE_ROLL,
         "slide+roll"},
        {{1, 0, 0, 0, 0, 0.05}, {0, 0, 0, 0, 0, -1}, CB_MODE_SPIN, "spin"},
        {{1, 0.1, 0, 0, 0, 0}, {0, 2, 0, 0, 0, 0}, CB_MODE_UNDEFINED, "undefined"},
    };
    char buf[64];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int m = cb_contact_mode(CB_KIND_ROLLSPIN3D, &f, cases[i].p, cases[i].y, NULL);
        assert_int_equal(m, cases[i].mode);
        assert_string_equal(cb_mode_name(m, buf, sizeof buf), cases[i].name);
    }
}

/* A test-only solver that returns p = 0 and claims success: the judge must overrule it. */
static int liar_setup(const cb_problem *p, const cb_settings *s, void **w, cb_error *e)
{
    (void)s, (void)e;
    *w = (void *)p;
    return CB_OK;
}
static int liar_solve(void *w, const cb_settings *s, cb_solution *sol, cb_info *info, cb_error *e)
{
    (void)w, (void)e;
    memset(sol->p, 0, sol->n * sizeof(double));
    info->status = CB_STATUS_CONVERGED;
    info->iterations = 1;
    return cb_info_trace(info, s, 1, cb_now(), 0.0);
}
static void liar_cleanup(void *w) { (void)w; }
static const cb_option_spec liar_opts[] = {{"rho", "1.5", "step"}, {NULL, NULL, NULL}};
static const cb_solver liar = {"liar", "claims success", liar_opts, NULL,
                               liar_setup, liar_solve, liar_cleanup, NULL};

static void test_solve_framework(void **state)
{
    (void)state;
    cb_problem *p = random_dense(CB_KIND_ROLLING3D, 3, 9);
    cb_solution sol;
    cb_info info;
    cb_settings s;
    cb_error err = {{0}};
    cb_settings_default(&s);
    s.trace = 1;
    assert_int_equal(cb_solution_alloc(p, &sol, NULL), CB_OK);
    assert_int_equal(cb_solve(&liar, p, &s, &sol, &info, &err), CB_OK);
    assert_int_equal(info.status, CB_STATUS_CONVERGED); /* its word stays its stop reason, */
    assert_false(info.solved);                          /* p = 0 is not a solution here */
    assert_int_equal(info.ntrace, 2); /* the start (added by cb_solve) and the last point */
    assert_true(info.trace[0].iteration == 0 && info.trace[0].error == info.error_data);
    assert_true(info.error > 1e-8);
    cb_info_free(&info);
    /* options: unknown key rejected, known key parsed with range check */
    cb_option o[2] = {{"rho", "2.5"}, {"bogus", "1"}};
    s.options = o;
    s.noptions = 2;
    assert_int_equal(cb_options_check(&s, liar_opts, "liar", &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "option bogus: not an option of solver liar");
    s.noptions = 1;
    double v;
    assert_int_equal(cb_option_double(&s, liar_opts, "rho", 0, 10, &v, &err), CB_OK);
    assert_true(v == 2.5);
    assert_int_equal(cb_option_double(&s, liar_opts, "rho", 0, 1, &v, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "option rho: 2.5 is outside [0, 1]");
    s.noptions = 0;
    assert_int_equal(cb_option_double(&s, liar_opts, "rho", 0, 10, &v, &err), CB_OK);
    assert_true(v == 1.5);
    /* invalid settings and warm start */
    s.tol = -1;
    assert_int_equal(cb_solve(&liar, p, &s, &sol, &info, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "tol"));
    cb_settings_default(&s);
    sol.p[2] = INFINITY;
    assert_int_equal(cb_solve(&liar, p, &s, &sol, &info, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "warm start"));
    cb_solution_free(&sol);
    cb_problem_free(p);
}

#if CB_HAVE_SICONOS
/* Run `conebench error FILE --solution SOL` and read its "error" field. */
static double cli_error(const char *file, const char *sol)
{
    const char *bin = getenv("CONEBENCH_BIN");
    char cmd[8192], out[1024] = "";
    snprintf(cmd, sizeof cmd, "%s error '%s' --solution '%s'", bin && *bin ? bin : "bin/conebench",
             file, sol);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    assert_int_equal(pclose(f), 0);
    const char *e = strstr(out, "\"error\":");
    assert_non_null(e);
    return strtod(e + 8, NULL);
}

/* `conebench error` on every shipped rolling problem gives Siconos 4.4's
 * rolling_fc3d_compute_error (problem read by Siconos' own reader, norm = ‖q‖) to 1e-10, for a
 * random reaction and for nsgs's solution. */
static void test_cli_error_vs_siconos(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    const char *files[] = {"rolling/RFC3D_sphere_1.dat", "rolling/RFC3D_sphere_2.dat",
                           "rolling/RFC3D_cube_1.dat", "rolling/rockfall_14_25792.dat"};
    const char *dir = cbt_tmpdir();
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        char path[1024], sol[1024];
        snprintf(path, sizeof path, "%s", cbt_data_path(files[k]));
        snprintf(sol, sizeof sol, "%s/p%zu.sol", dir, k);
        cb_problem *p = NULL;
        cb_error err = {{0}};
        if (cb_read_problem(path, NULL, &p, &err) != CB_OK)
            fail_msg("%s", err.text);
        size_t n = cb_problem_n(p);
        FILE *fp = fopen(path, "r");
        RollingFrictionContactProblem *sp = rollingFrictionContact_newFromFile(fp);
        fclose(fp);
        for (int variant = 0; variant < 2; variant++) {
            cb_solution s;
            cb_info info;
            cb_settings st;
            cb_settings_default(&st);
            assert_int_equal(cb_solution_alloc(p, &s, NULL), CB_OK);
            cb_rng r;
            cb_rng_seed(&r, 7 + k);
            for (size_t i = 0; i < n; i++)
                s.p[i] = variant ? 0.0 : fabs(p->q[i]) * cb_rng_normal(&r);
            if (variant)
                assert_int_equal(cb_solve(cb_solver_find("nsgs"), p, &st, &s, &info, NULL), CB_OK);
            assert_int_equal(cb_write_solution(sol, p->nc, p->d, s.p, s.y, NULL), CB_OK);
            double *w = calloc(n, sizeof *w), nq = 0, se = -1;
            for (size_t i = 0; i < n; i++)
                nq += p->q[i] * p->q[i];
            rolling_fc3d_compute_error(sp, s.p, w, 1e-8, NULL, sqrt(nq), &se);
            double ours = cli_error(path, sol);
            /* relative 1e-10, with an absolute floor of 1e-16 for machine-precision residuals
             * (1e-17 vs 3e-17 is rounding in p − ŷ, not a disagreement) */
            if (cbt_reldiff(ours, se, 1e-6) > 1e-10)
                fail_msg("%s variant %d: conebench %.17g, Siconos %.17g", files[k], variant, ours, se);
            free(w);
            cb_solution_free(&s);
        }
        rollingFrictionContactProblem_free(sp);
        cb_problem_free(p);
    }
}
#else
CBT_SICONOS_ONLY_TEST(test_cli_error_vs_siconos)
#endif

/* cb_sorted_union against a brute-force union (a membership table) on 2000 random pairs of
 * increasing lists, with shift 0 and 1 (the factored adjacency stores 2·contact + slot). */
static int cmp_int(const void *x, const void *y)
{
    return (*(const int *)x > *(const int *)y) - (*(const int *)x < *(const int *)y);
}

static void test_sorted_union(void **state)
{
    (void)state;
    cb_rng rng;
    cb_rng_seed(&rng, 5);
    for (int t = 0; t < 2000; t++) {
        int a[40], b[40], out[80], seen[200] = {0}, na = (int)cb_rng_below(&rng, 40),
            nb = (int)cb_rng_below(&rng, 40), shift = t % 2, expect = 0;
        for (int i = 0; i < na; i++)
            a[i] = (int)cb_rng_below(&rng, 200);
        for (int i = 0; i < nb; i++)
            b[i] = (int)cb_rng_below(&rng, 200);
        qsort(a, (size_t)na, sizeof *a, cmp_int);
        qsort(b, (size_t)nb, sizeof *b, cmp_int);
        for (int i = 0; i < na; i++)
            seen[a[i] >> shift] = 1;
        for (int i = 0; i < nb; i++)
            seen[b[i] >> shift] = 1;
        int n = cb_sorted_union(a, na, b, nb, shift, out);
        assert_int_equal(cb_sorted_union(a, na, b, nb, shift, NULL), n);
        for (int v = 0; v < 200; v++)
            if (seen[v]) {
                assert_true(expect < n);
                assert_int_equal(out[expect++], v);
            }
        assert_int_equal(n, expect);
    }
}

/* key=value lists (kv.h): parse, put (replaces every copy), last given wins, spec defaults,
 * range-checked numbers whose messages name the noun and the key, the canonical "k=v" string. */
static void test_kv(void **state)
{
    (void)state;
    static const cb_kv_spec spec[] = {{"a", "1", ""}, {"b", "", ""}, {"c", "x", ""},
                                      {"n", "7", ""}, {NULL, NULL, NULL}};
    cb_kv_list l = {0};
    cb_error err = {{0}};
    assert_int_equal(cb_kv_parse(&l, "a=2", &err), CB_OK);
    assert_int_equal(cb_kv_parse(&l, "b=x=y", &err), CB_OK); /* the first '=' splits */
    assert_int_equal(cb_kv_parse(&l, "a=3", &err), CB_OK);
    assert_int_equal(cb_kv_parse(&l, "=3", &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "'=3' is not key=value");
    assert_int_equal(cb_kv_parse(&l, "novalue", &err), CB_ERR_INPUT);
    assert_int_equal(l.n, 3);
    cb_kv_view v = {l.items, l.n, spec, "param"};
    assert_string_equal(cb_kv_get(&v, "a"), "3"); /* the last one given */
    assert_string_equal(cb_kv_get(&v, "b"), "x=y");
    assert_string_equal(cb_kv_get(&v, "c"), "x"); /* the default */
    assert_null(cb_kv_get(&v, "zz"));
    assert_true(cb_kv_given(&v, "a") && !cb_kv_given(&v, "c"));
    char *text = cb_kv_format(&v);
    assert_string_equal(text, "a=3 b=x=y c=x n=7");
    free(text);
    assert_int_equal(cb_kv_put(&l, "a", "-4", &err), CB_OK); /* both copies of a */
    assert_int_equal(cb_kv_put(&l, "n", "12", &err), CB_OK);  /* appended */
    v = (cb_kv_view){l.items, l.n, spec, "param"};
    assert_int_equal(l.n, 4);
    assert_string_equal(l.items[0].value, "-4");
    double x;
    long k;
    assert_int_equal(cb_kv_double(&v, "a", -5, 5, &x, &err), CB_OK);
    assert_true(x == -4.0);
    assert_int_equal(cb_kv_double(&v, "a", 0, 5, &x, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param a: -4 is outside [0, 5]");
    assert_int_equal(cb_kv_double(&v, "b", 0, 5, &x, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param b: 'x=y' is not a finite number");
    assert_int_equal(cb_kv_long(&v, "n", 0, 20, &k, &err), CB_OK);
    assert_int_equal(k, 12);
    assert_int_equal(cb_kv_long(&v, "a", 0, 20, &k, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param a: -4 is outside [0, 20]");
    assert_int_equal(cb_kv_long(&v, "c", 0, 20, &k, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param c: 'x' is not an integer");
    assert_int_equal(cb_kv_double(&v, "zz", 0, 1, &x, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param zz: no value and no default");
    /* one value per key: the list above holds a twice */
    assert_int_equal(cb_kv_check(&v, "a parameter of test", &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param a: given twice (a=-4, then a=-4)");
    cb_kv_list_free(&l);
    assert_int_equal(cb_kv_parse(&l, "n=2", &err), CB_OK);
    assert_int_equal(cb_kv_parse(&l, "a=2", &err), CB_OK);
    v = (cb_kv_view){l.items, l.n, spec, "param"};
    assert_int_equal(cb_kv_check(&v, "a parameter of test", &err), CB_OK);
    assert_int_equal(cb_kv_add(&l, "zz", "1", &err), CB_OK);
    v = (cb_kv_view){l.items, l.n, spec, "option"};
    assert_int_equal(cb_kv_check(&v, "an option of solver t", &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "option zz: not an option of solver t");
    cb_kv_list_free(&l);
    /* a misspelt key: the nearest key of the spec (one edit away) is offered */
    static const cb_kv_spec names[] = {{"omega", "1", ""}, {"order", "natural", ""},
                                       {NULL, NULL, NULL}};
    assert_int_equal(cb_kv_parse(&l, "omgea=1", &err), CB_OK); /* a swap of neighbours */
    v = (cb_kv_view){l.items, l.n, names, "option"};
    assert_int_equal(cb_kv_check(&v, "an option of solver t", &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "option omgea: not an option of solver t (did you mean 'omega'?)");
    cb_kv_list_free(&l);
    assert_int_equal(l.n, 0);
    cb_kv_list_free(&l); /* twice, and NULL */
    cb_kv_list_free(NULL);
}

/* cb_outbuf: nothing on disk before commit, the bytes after it; discard writes nothing; a commit
 * into a missing folder fails naming the path and leaves no file. SHA-256 of the empty string
 * and of "abc" are the FIPS 180-2 values, the file digest equals the buffer digest. */
static void test_outbuf_and_sha256(void **state)
{
    (void)state;
    char path[600], bad[600], hex[65], hex2[65];
    snprintf(path, sizeof path, "%s/out.txt", cbt_tmpdir());
    snprintf(bad, sizeof bad, "%s/no/such/dir/out.txt", cbt_tmpdir());
    cb_outbuf o;
    cb_error err = {{0}};
    assert_int_equal(cb_outbuf_open(&o, &err), CB_OK);
    fprintf(o.f, "abc");
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(cb_outbuf_commit(&o, path, &err), CB_OK);
    assert_null(o.f);
    char *text = cbt_slurp(path);
    assert_string_equal(text, "abc");
    free(text);
    cb_sha256_buffer("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    cb_sha256_buffer("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_int_equal(cb_sha256_file(path, hex2, &err), CB_OK);
    assert_string_equal(hex, hex2);
    assert_int_equal(cb_outbuf_open(&o, &err), CB_OK);
    fprintf(o.f, "never written");
    cb_outbuf_discard(&o);
    cb_outbuf_discard(&o); /* twice is fine */
    assert_int_equal(cb_outbuf_open(&o, &err), CB_OK);
    fprintf(o.f, "x");
    assert_int_equal(cb_outbuf_commit(&o, bad, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, bad));
    assert_int_equal(access(bad, F_OK), -1);
    assert_int_equal(cb_sha256_file(bad, hex, &err), CB_ERR_INPUT);
}

/* Write `n` bytes to path as they are. */
static void put_bytes(const char *path, const char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* A file's bytes as they are on disk (*n of them; malloc'd). */
static char *raw_bytes(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *b = malloc(1 << 20);
    assert_non_null(b);
    *n = fread(b, 1, 1 << 20, f);
    fclose(f);
    return b;
}

/* gzip: a commit to "FILE.gz" writes a gzip file GNU gzip inflates to the text; cb_read_file
 * gives the text back; a truncated stream, trailing bytes and an inflated size over the limit
 * are refused naming the file (CB_ERR_INPUT). */
static void test_gzip(void **state)
{
    (void)state;
    char path[600], cut[600], cmd[1300], *data = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/text.gz", cbt_tmpdir());
    snprintf(cut, sizeof cut, "%s/cut.gz", cbt_tmpdir());
    cb_outbuf o;
    cb_error err = {{0}};
    assert_int_equal(cb_outbuf_open(&o, &err), CB_OK);
    for (int i = 0; i < 20000; i++)
        fprintf(o.f, "%d 0.5\n", i % 7);
    long want = ftell(o.f);
    assert_int_equal(cb_outbuf_commit(&o, path, &err), CB_OK);
    snprintf(cmd, sizeof cmd, "gzip -dc '%s' | wc -c", path);
    FILE *z = popen(cmd, "r");
    long got = -1;
    assert_non_null(z);
    assert_int_equal(fscanf(z, "%ld", &got), 1);
    pclose(z);
    assert_int_equal(got, want); /* GNU gzip reads it */
    assert_int_equal(cb_read_file(path, 1 << 20, &data, &len, &err), CB_OK);
    assert_int_equal(len, (size_t)want);
    assert_memory_equal(data, "0 0.5\n1 0.5\n", 12);
    assert_true(data[len] == '\0');
    free(data);
    char *raw = raw_bytes(path, &len); /* the compressed bytes */
    size_t full = len;
    assert_true(len > 20 && len < (size_t)want / 10 && (unsigned char)raw[0] == 0x1f);
    put_bytes(cut, raw, len / 2);
    assert_int_equal(cb_read_file(cut, 1 << 20, &data, &len, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "cut.gz:0: corrupt or truncated gzip data"));
    assert_null(data);
    char *more = malloc(full + 4);
    memcpy(more, raw, full);
    memcpy(more + full, "junk", 4);
    put_bytes(cut, more, full + 4);
    assert_int_equal(cb_read_file(cut, 1 << 20, &data, &len, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "corrupt or truncated gzip data"));
    assert_int_equal(cb_read_file(path, 1000, &data, &len, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "text.gz:0: file too large once inflated (limit 1000)"));
    free(more);
    free(raw);
}

/* Ranges of cb_parallel_chunks / cb_parallel_rows_by / cb_parallel_chunks_by: every row in
 * exactly one call; chunk ranges start on a multiple of CB_PAR_CHUNK; weighted ranges carry
 * about equal work (chunk-aligned ones: within half a chunk of rows). */
typedef struct {
    int *seen;    /* calls covering each row */
    const int *work;
    long long most; /* the largest work + rows of one call */
    int aligned;  /* every r0 a multiple of CB_PAR_CHUNK */
} ranges_ctx;

static void record_range(void *ctx, int r0, int r1)
{
    ranges_ctx *c = ctx;
    for (int r = r0; r < r1; r++)
        c->seen[r]++;
    if (r0 % CB_PAR_CHUNK != 0 && r0 != r1)
        c->aligned = 0;
    if (c->work) {
        long long w = (long long)c->work[r1] - c->work[r0] + (r1 - r0);
        CB_OMP(omp critical)
        c->most = w > c->most ? w : c->most;
    }
}

static void test_parallel_ranges(void **state)
{
    (void)state;
    const int sizes[] = {0, 1, 1023, 1024, 1500, 5000};
    int *seen = calloc(5000, sizeof *seen), *work = malloc(5001 * sizeof *work);
    assert_non_null(seen);
    assert_non_null(work);
    work[0] = 0; /* skewed: row r costs r % 50 (BSR blocks of a row) */
    for (int r = 0; r < 5000; r++)
        work[r + 1] = work[r] + r % 50;
    for (int t = 1; t <= 4; t++) {
        int old = cb_threads_set(t);
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            int rows = sizes[k];
            ranges_ctx c = {.seen = seen, .aligned = 1};
            memset(seen, 0, 5000 * sizeof *seen);
            cb_parallel_chunks(rows, record_range, &c);
            for (int r = 0; r < rows; r++)
                assert_int_equal(seen[r], 1);
            assert_true(c.aligned);
            assert_int_equal(cb_par_nchunks(rows), (rows + CB_PAR_CHUNK - 1) / CB_PAR_CHUNK);
            memset(seen, 0, 5000 * sizeof *seen);
            c.work = work;
            cb_parallel_rows_by(rows, work, record_range, &c);
            for (int r = 0; r < rows; r++)
                assert_int_equal(seen[r], 1);
            long long total = (long long)work[rows] + rows;
            int threads = cb_threads_for(rows);
            assert_true(c.most <= total / threads + 51); /* an even share, ± one row (≤ 50) */
            memset(seen, 0, 5000 * sizeof *seen);
            c.most = 0, c.aligned = 1;
            cb_parallel_chunks_by(rows, work, record_range, &c);
            for (int r = 0; r < rows; r++)
                assert_int_equal(seen[r], 1);
            assert_true(c.aligned);
            assert_true(c.most <= total / threads + 51 + (CB_PAR_CHUNK / 2) * 50);
        }
        cb_threads_set(old);
    }
    free(seen);
    free(work);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matvec_dense_bsr), cmocka_unit_test(test_problem_check),
        cmocka_unit_test(test_judge_vs_siconos), cmocka_unit_test(test_judge_drift),
        cmocka_unit_test(test_judge_rules),
        cmocka_unit_test(test_judge_homogeneous),
        cmocka_unit_test(test_modes),            cmocka_unit_test(test_solve_framework),
        cmocka_unit_test(test_cli_error_vs_siconos), cmocka_unit_test(test_sorted_union),
        cmocka_unit_test(test_kv),          cmocka_unit_test(test_outbuf_and_sha256), cmocka_unit_test(test_gzip),
        cmocka_unit_test(test_parallel_ranges),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
