/* conebench tests — nsgs's active-set polish (polish=auto, coulomb2d; solvers/nsgs_polish.c):
 * a constructed problem whose sticking block of W is indefinite, where plain Gauss–Seidel
 * stalls and the polish reaches the closed-form solution; the granular-flow file of the Siconos
 * data that no Gauss–Seidel solves; and converging runs that the polish leaves bit for bit as
 * they were. Every verdict comes from cb_solve's judge. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "conebench/generate.h"
#include "conebench/io.h"
#include "conebench/problem.h"
#include "conebench/solver.h"

#include "solvers_internal.h"

#define TOL 1e-8
#define DELTA 1e-5 /* the normal coupling b = 1 + δ: W's normal block has eigenvalue −δ */
#define NCON 2

/* Settings with tol, max_iter and the option polish=`polish` (o: kept alive by the caller). */
static cb_settings settings(double tol, int max_iter, cb_option *o, const char *polish)
{
    cb_settings s;
    cb_settings_default(&s);
    s.tol = tol;
    s.max_iter = max_iter;
    s.time_limit = 0; /* none: results must not depend on the machine's speed */
    o->key = "polish";
    o->value = polish;
    s.options = o;
    s.noptions = 1;
    return s;
}

/* Two sticking coulomb2d contacts (μ = 0.5), dense W = [[1, 0, −b, 0], [0, 1, 0, e],
 * [−b, 0, 1, 0], [0, e, 0, 1]], b = 1 + δ, e = 0.3: the diagonal blocks are the identity,
 * the normal block [[1, −b], [−b, 1]] has eigenvalues 2 + δ and −δ, so W is indefinite on the
 * sticking block. q = −W p* with p* = (1, 0.2, 2, −0.3) in the interior of K: p* is a solution
 * (y = 0, every contact sticking) in closed form. */
static const double pstar[2 * NCON] = {1.0, 0.2, 2.0, -0.3};

static cb_problem *indefinite_problem(void)
{
    cb_problem *prob = NULL;
    cb_error err = {{0}};
    assert_int_equal(cb_problem_alloc(CB_KIND_COULOMB2D, NCON, CB_STORAGE_DENSE, 0, &prob, &err),
                     CB_OK);
    int n = 2 * NCON;
    double b = 1.0 + DELTA, e = 0.3, *W = prob->W;
    for (int i = 0; i < n; i++)
        W[i + i * n] = 1.0;
    W[0 + 2 * n] = W[2 + 0 * n] = -b;
    W[1 + 3 * n] = W[3 + 1 * n] = e;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += W[i + j * n] * pstar[j];
        prob->q[i] = -s;
    }
    prob->mu[0] = prob->mu[1] = 0.5;
    assert_int_equal(cb_problem_set_name(prob, "indefinite-stick"), CB_OK);
    return prob;
}

/* 1 when phase `name` is among the run's phases. */
static int has_phase(const cb_info *info, const char *name)
{
    for (int k = 0; k < info->nphases; k++)
        if (strcmp(info->phases[k].solver, name) == 0)
            return 1;
    return 0;
}

/* From p* + 0.1 (1, 0, 1, 0), a point off p* along the normal mode: plain Gauss–Seidel
 * (polish=off) multiplies its error by (1 + δ)² each sweep (the iteration matrix of the normal
 * block has eigenvalue b² > 1), so it stands still at ~1e-6 for 3000 sweeps; polish=auto sees
 * its first window of 1000 sweeps flat, then its active-set steps (all sticking: W p = −q, proximal ε = 1e-6,
 * whose error ratio along the mode is ε/(ε − δ) ≈ −0.11 a step) land on p*. */
static void test_polish_indefinite_stick(void **state)
{
    (void)state;
    cb_problem *prob = indefinite_problem();
    double warm[2 * NCON];
    for (int i = 0; i < 2 * NCON; i++)
        warm[i] = pstar[i] + (i % 2 == 0 ? 0.1 : 0.0);
    cb_option o;
    double tol = 1e-12; /* W's eigenvalue −δ: a judged 1e-12 puts p within ~1e-7 of p* */
    cb_settings s = settings(tol, 3000, &o, "off");
    cbt_run_result plain = cbt_run(&cb_solver_nsgs, prob, &s, warm);
    print_message("polish=off: %s after %d sweeps, error %.3e\n",
                  cb_status_name(plain.info.status), plain.info.iterations, plain.info.error);
    assert_int_equal(plain.rc, CB_OK);
    assert_false(plain.info.solved);
    assert_int_equal(plain.info.iterations, 3000);
    assert_true(plain.info.error > 1e-7); /* stalled, far above TOL */

    s = settings(tol, 3000, &o, "auto");
    cbt_run_result pol = cbt_run(&cb_solver_nsgs, prob, &s, warm);
    print_message("polish=auto: %s after %d sweeps, error %.3e\n",
                  cb_status_name(pol.info.status), pol.info.iterations, pol.info.error);
    assert_int_equal(pol.rc, CB_OK);
    assert_true(pol.info.solved && pol.info.error <= tol);
    assert_true(has_phase(&pol.info, "polish"));
    assert_true(pol.info.iterations >= 1000 && pol.info.iterations < 3000); /* a window on */
    /* the closed form: ‖p − p*‖ ≤ ‖W⁻¹‖ ‖W (p − p*)‖ = ‖y‖/δ, and ‖y‖ ≤ error · max(‖q‖, ‖p‖,
     * ‖y‖) for a sticking p (ŷ = y up to μ|y_T|); ‖p*‖ < 2.5 bounds the scale */
    double d2 = 0;
    for (int i = 0; i < 2 * NCON; i++)
        d2 += (pol.p[i] - pstar[i]) * (pol.p[i] - pstar[i]);
    print_message("||p - p*|| = %.3e\n", sqrt(d2));
    assert_true(sqrt(d2) <= 2.0 * pol.info.error * 2.5 / DELTA + 1e-14);
    assert_true(sqrt(d2) <= 1e-6);
    cbt_run_free(&plain);
    cbt_run_free(&pol);
    cb_problem_free(prob);
}

/* fc2d_granularflowonwall_02020 (2020 contacts, W stored to 6 digits, indefinite on its
 * sticking block): Gauss–Seidel stalls near 6e-7 (BENCHMARKS.md); nsgs with its defaults must
 * be judged solved to 1e-8, through the polish. */
static void test_polish_granular_02020(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    cb_problem *prob = NULL;
    cb_error err = {{0}};
    const char *rel = "fc2d/fc2d_granularflowonwall_02020_00213.dat";
    const char *path = cbt_data_path(rel);
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f) {
        print_message("skipped: %s absent from the data folder\n", rel);
        skip();
    }
    fclose(f);
    assert_int_equal(cb_read_problem(path, &rs, &prob, &err), CB_OK);
    cb_settings s;
    cb_settings_default(&s);
    s.tol = TOL;
    s.max_iter = 100000;
    s.time_limit = 0;
    cbt_run_result r = cbt_run(&cb_solver_nsgs, prob, &s, NULL);
    print_message("nsgs: %s after %d sweeps, error %.3e\n", cb_status_name(r.info.status),
                  r.info.iterations, r.info.error);
    assert_int_equal(r.rc, CB_OK);
    assert_true(r.info.solved && r.info.error <= TOL);
    assert_true(has_phase(&r.info, "polish"));
    cbt_run_free(&r);
    cb_problem_free(prob);
}

/* A random coulomb2d problem (BSR) of the generator's defaults. */
static cb_problem *random_coulomb2d(cb_gen_matrix m, int nc, uint64_t seed)
{
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = CB_KIND_COULOMB2D, g.nc = nc, g.matrix = m, g.seed = seed;
    g.storage = CB_STORAGE_BSR;
    cb_problem *prob = NULL;
    cb_error err = {{0}};
    assert_int_equal(cb_generate_random(&g, &prob, NULL, NULL, &err), CB_OK);
    return prob;
}

/* Converging coulomb2d runs, each longer than the polish's window (1790 to 5754 sweeps, the
 * error rising for hundreds of sweeps on the way): polish=auto and polish=off give the same
 * sweeps, work, error and bits of p (the stall rule never fires). */
static void test_polish_silent_when_converging(void **state)
{
    (void)state;
    static const struct {
        cb_gen_matrix m;
        int nc;
        uint64_t seed;
    } cases[] = {{CB_GEN_MULTIBODY, 100, 1}, {CB_GEN_MULTIBODY, 100, 3}, {CB_GEN_MULTIBODY, 300, 2}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cb_problem *prob = random_coulomb2d(cases[c].m, cases[c].nc, cases[c].seed);
        cb_option o;
        cb_settings s = settings(TOL, 30000, &o, "auto");
        cbt_run_result a = cbt_run(&cb_solver_nsgs, prob, &s, NULL);
        s = settings(TOL, 30000, &o, "off");
        cbt_run_result b = cbt_run(&cb_solver_nsgs, prob, &s, NULL);
        print_message("%s: %d sweeps, error %.3e\n", prob->name, a.info.iterations,
                      a.info.error);
        assert_true(a.info.solved && b.info.solved);
        assert_false(has_phase(&a.info, "polish"));
        assert_int_equal(a.info.iterations, b.info.iterations);
        assert_true(a.info.work.block_products == b.info.work.block_products);
        assert_true(a.info.error == b.info.error);
        assert_memory_equal(a.p, b.p, cb_problem_n(prob) * sizeof(double));
        cbt_run_free(&a);
        cbt_run_free(&b);
        cb_problem_free(prob);
    }
}

/* Random multibody coulomb2d nc = 30, seed 2: plain Gauss–Seidel stands at ~1e-8 for 30000
 * sweeps; with the polish nsgs is judged solved after a few thousand. */
static void test_polish_rescues_random(void **state)
{
    (void)state;
    cb_problem *prob = random_coulomb2d(CB_GEN_MULTIBODY, 30, 2);
    cb_option o;
    cb_settings s = settings(TOL, 30000, &o, "off");
    cbt_run_result b = cbt_run(&cb_solver_nsgs, prob, &s, NULL);
    s = settings(TOL, 30000, &o, "auto");
    cbt_run_result a = cbt_run(&cb_solver_nsgs, prob, &s, NULL);
    print_message("%s: polish=off %s %.3e after %d sweeps, auto %s %.3e after %d\n", prob->name,
                  cb_status_name(b.info.status), b.info.error, b.info.iterations,
                  cb_status_name(a.info.status), a.info.error, a.info.iterations);
    assert_false(b.info.solved);
    assert_true(a.info.solved && a.info.error <= TOL && has_phase(&a.info, "polish"));
    cbt_run_free(&a);
    cbt_run_free(&b);
    cb_problem_free(prob);
}

/* polish is an nsgs option: a bad value is refused, naming it. */
static void test_polish_option(void **state)
{
    (void)state;
    cb_problem *prob = indefinite_problem();
    cb_option o;
    cb_settings s = settings(TOL, 10, &o, "sometimes");
    cbt_run_result r = cbt_run(&cb_solver_nsgs, prob, &s, NULL);
    assert_int_equal(r.rc, CB_ERR_INPUT);
    assert_non_null(strstr(r.err.text, "polish"));
    cbt_run_free(&r);
    cb_problem_free(prob);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_polish_indefinite_stick),
        cmocka_unit_test(test_polish_granular_02020),
        cmocka_unit_test(test_polish_silent_when_converging),
        cmocka_unit_test(test_polish_rescues_random),
        cmocka_unit_test(test_polish_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
