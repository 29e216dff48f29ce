/* conebench tests — the budget rule (solver.h, settings->time_limit): CPU seconds of the run
 * decide time_limit, the wall clock only through its guard, and a budget spent before the run
 * leaves the solver unstarted. Test-only solvers return the generator's known solution, so the
 * judge's verdict is independent of them. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conebench/generate.h"
#include "conebench/solver.h"
#include "base.h"

#define NAP_S 0.3    /* wall seconds the sleeping solver sleeps (no CPU) */
#define SPIN_S 0.3   /* CPU seconds the spinning solver burns */
#define BUDGET_S 0.1 /* the budget given: below both */

static const double *known_p; /* the generator's solution */
static int setups;            /* setup calls (the budget spent before: none) */

static int t_setup(const cb_problem *p, const cb_settings *s, void **w, cb_error *e)
{
    (void)p, (void)s, (void)e;
    setups++;
    *w = NULL;
    return CB_OK;
}
static void t_cleanup(void *w) { (void)w; }

/* The known solution, status solved; when the budget (its wall guard) says stop: the warm
 * start p = 0 kept, status time_limit. */
static void answer(const cb_settings *s, cb_solution *sol, cb_info *i)
{
    int up = cb_time_up(s);
    if (!up)
        memcpy(sol->p, known_p, sol->n * sizeof *sol->p);
    i->iterations = 1;
    i->status = up ? CB_STATUS_TIME_LIMIT : CB_STATUS_CONVERGED;
}

/* Sleeps NAP_S of wall time, using no CPU. */
static int nap_solve(void *w, const cb_settings *s, cb_solution *sol, cb_info *i, cb_error *e)
{
    (void)w, (void)e;
    struct timespec ts = {0, (long)(NAP_S * 1e9)};
    while (nanosleep(&ts, &ts) != 0)
        ;
    answer(s, sol, i);
    return CB_OK;
}

/* Burns SPIN_S of CPU time without looking at the budget (as a Siconos solver would). */
static int spin_solve(void *w, const cb_settings *s, cb_solution *sol, cb_info *i, cb_error *e)
{
    (void)w, (void)s, (void)e;
    volatile double x = 1.0;
    for (double c0 = cb_process_cpu_now(); cb_process_cpu_now() - c0 < SPIN_S;)
        for (int k = 0; k < 1000; k++)
            x = x * 0.999999 + 1e-9;
    i->iterations = 1;
    memcpy(sol->p, known_p, sol->n * sizeof *sol->p);
    i->status = CB_STATUS_CONVERGED;
    return CB_OK;
}

static const cb_solver nap = {"test-nap", "sleeps", NULL, NULL, t_setup, nap_solve, t_cleanup, NULL};
static const cb_solver spin = {"test-spin", "spins", NULL, NULL, t_setup, spin_solve, t_cleanup, NULL};

/* A random problem with its known solution in *pstar (caller frees). */
static cb_problem *problem(double **pstar)
{
    cb_random_settings g;
    cb_problem *prob = NULL;
    double *ystar = NULL;
    cb_random_settings_default(&g);
    g.kind = CB_KIND_COULOMB3D, g.nc = 20, g.seed = 7;
    assert_int_equal(cb_generate_random(&g, &prob, pstar, &ystar, NULL), CB_OK);
    free(ystar);
    return prob;
}

/* Solve with sv under budget (and wall guard wall, 0: default); the status. */
static cb_status run(const cb_solver *sv, const cb_problem *prob, double budget, double wall,
                     double spent, cb_info *info)
{
    cb_settings s;
    cb_solution sol = {0};
    cb_settings_default(&s);
    s.tol = 1e-6, s.time_limit = budget, s.wall_limit = wall, s.cpu_spent = spent;
    assert_int_equal(cb_solution_alloc(prob, &sol, NULL), CB_OK);
    assert_int_equal(cb_solve(sv, prob, &s, &sol, info, NULL), CB_OK);
    cb_solution_free(&sol);
    cb_info_free(info);
    return info->status;
}

/* NAP_S of wall time but no CPU against a budget of BUDGET_S: within the budget, so solved
 * (the judge agrees: the known solution); with a wall guard below NAP_S the guard stops it. */
static void test_wall_time_does_not_count(void **state)
{
    (void)state;
    double *pstar = NULL;
    cb_problem *prob = problem(&pstar);
    known_p = pstar;
    cb_info info;
    assert_int_equal(run(&nap, prob, BUDGET_S, 10.0, 0, &info), CB_STATUS_CONVERGED);
    assert_true(info.time_setup + info.time_solve >= NAP_S && info.time_cpu < BUDGET_S);
    assert_int_equal(run(&nap, prob, BUDGET_S, NAP_S / 3, 0, &info), CB_STATUS_TIME_LIMIT);
    free(pstar);
    cb_problem_free(prob);
}

/* SPIN_S of CPU against a budget of BUDGET_S: time_limit although the solver claimed success
 * on the known solution; with a budget above SPIN_S, solved. */
static void test_cpu_time_counts(void **state)
{
    (void)state;
    double *pstar = NULL;
    cb_problem *prob = problem(&pstar);
    known_p = pstar;
    cb_info info;
    assert_int_equal(run(&spin, prob, BUDGET_S, 0, 0, &info), CB_STATUS_TIME_LIMIT);
    assert_true(info.time_cpu >= SPIN_S);
    assert_int_equal(run(&spin, prob, 10 * SPIN_S, 0, 0, &info), CB_STATUS_CONVERGED);
    free(pstar);
    cb_problem_free(prob);
}

/* cpu_spent counts: a budget already spent before cb_solve (reading the problem) leaves the
 * solver unstarted (no setup, iterations 0, time_limit); a budget with room left runs it. */
static void test_spent_before(void **state)
{
    (void)state;
    double *pstar = NULL;
    cb_problem *prob = problem(&pstar);
    known_p = pstar;
    cb_info info;
    setups = 0;
    assert_int_equal(run(&nap, prob, 1.0, 0, 1.5, &info), CB_STATUS_TIME_LIMIT);
    assert_int_equal(setups, 0);
    assert_int_equal(info.iterations, 0);
    assert_true(info.time_cpu >= 1.5);
    assert_int_equal(run(&nap, prob, 1.0, 0, 0.5, &info), CB_STATUS_CONVERGED);
    assert_int_equal(setups, 1);
    free(pstar);
    cb_problem_free(prob);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wall_time_does_not_count),
        cmocka_unit_test(test_cpu_time_counts),
        cmocka_unit_test(test_spent_before),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
