/* Composite solvers (src/solvers/composite.c) and the per-phase counters of cb_info: pure ipm
 * and nsn are one phase each and count only their own work; ipm+nsn is, to the bit, ipm and
 * then nsn+nsgs from ipm's iterate; the phases' counters add up to the totals; pure nsn runs no
 * nsgs; options are routed to the phase that takes them. */
#include "test_support.h"

#include <string.h>

#include "conebench/generate.h"
#include "solve_limited.h"
#include "solvers_internal.h"

#define TOL 1e-10

static cb_problem *multibody(cb_kind kind, int nc, uint64_t seed, cb_storage st)
{
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = kind, g.nc = nc, g.seed = seed, g.storage = st;
    cb_problem *p = NULL;
    assert_int_equal(cb_generate_random(&g, &p, NULL, NULL, NULL), CB_OK);
    return p;
}

static cbt_run_result run(const cb_solver *sv, const cb_problem *prob, const cb_option *opt,
                          int nopt, int max_iter, const double *warm)
{
    cb_settings s;
    cb_settings_default(&s);
    s.tol = TOL, s.time_limit = 0, s.max_iter = max_iter, s.options = opt, s.noptions = nopt;
    return cbt_run(sv, prob, &s, warm);
}

static void assert_work_equal(const cb_work *a, const cb_work *b)
{
    assert_int_equal(a->block_products, b->block_products);
    assert_int_equal(a->projections, b->projections);
    assert_int_equal(a->local_iters, b->local_iters);
    assert_int_equal(a->error_evals, b->error_evals);
}

/* The phases' counters add up to the run's. */
static void assert_phases_sum(const cb_info *info)
{
    cb_work sum = {0};
    assert_true(info->nphases >= 1 && info->nphases <= CB_PHASES_MAX);
    for (int i = 0; i < info->nphases; i++)
        cb_work_add(&sum, &info->phases[i].work);
    assert_work_equal(&sum, &info->work);
}

/* A run of one phase named solver, which is the whole run. */
static void assert_one_phase(const cb_info *info, const char *solver)
{
    assert_int_equal(info->nphases, 1);
    assert_string_equal(info->phases[0].solver, solver);
    assert_int_equal(info->phases[0].iterations, info->iterations);
    assert_work_equal(&info->phases[0].work, &info->work);
}

/* coulomb2d multibody dense seed 7 (nc 40), where the interior point stalls short of 1e-10:
 * pure ipm is one phase and stops stalled; ipm+nsn's first phase is that same run (iterations
 * and counters), and the rest is nsn+nsgs warm-started from ipm's p within the iterations left:
 * the same status, iterations, counters and bits of p. */
static void test_ipm_then_nsn(void **state)
{
    (void)state;
    cb_problem *prob = multibody(CB_KIND_COULOMB2D, 40, 7, CB_STORAGE_DENSE);
    const int max_iter = 10000;
    cbt_run_result ipm = run(&cb_solver_ipm, prob, NULL, 0, max_iter, NULL);
    cbt_run_result hyb = run(&cb_solver_ipm_nsn, prob, NULL, 0, max_iter, NULL);
    print_message("  ipm: %s after %d, ipm+nsn: %s after %d in %d phases\n",
                  cb_status_name(ipm.info.status), ipm.info.iterations,
                  cb_status_name(hyb.info.status), hyb.info.iterations, hyb.info.nphases);
    assert_int_equal(ipm.info.status, CB_STATUS_STALLED);
    assert_one_phase(&ipm.info, "ipm");
    assert_true(hyb.info.solved);
    assert_phases_sum(&hyb.info);
    assert_string_equal(hyb.info.phases[0].solver, "ipm");
    assert_int_equal(hyb.info.phases[0].iterations, ipm.info.iterations);
    assert_work_equal(&hyb.info.phases[0].work, &ipm.info.work);
    cbt_run_result nsn = run(&cb_solver_nsn_nsgs, prob, NULL, 0,
                             max_iter - ipm.info.iterations, ipm.p);
    assert_int_equal(hyb.info.nphases, 1 + nsn.info.nphases);
    cb_work rest = {0};
    for (int i = 0; i < nsn.info.nphases; i++) {
        assert_string_equal(hyb.info.phases[1 + i].solver, nsn.info.phases[i].solver);
        assert_work_equal(&hyb.info.phases[1 + i].work, &nsn.info.phases[i].work);
        cb_work_add(&rest, &hyb.info.phases[1 + i].work);
    }
    cb_work total = ipm.info.work;
    cb_work_add(&total, &rest);
    assert_work_equal(&hyb.info.work, &total);
    assert_int_equal(hyb.info.iterations, ipm.info.iterations + nsn.info.iterations);
    assert_int_equal(hyb.info.status, nsn.info.status);
    assert_memory_equal(hyb.p, nsn.p, cb_problem_n(prob) * sizeof *hyb.p);
    cbt_run_free(&ipm), cbt_run_free(&hyb), cbt_run_free(&nsn);
    cb_problem_free(prob);
}

/* coulomb3d multibody nc 100 seed 3, where nsn+nsgs's line search fails and its safeguard
 * sweeps: nsn+nsgs has the phases nsn and nsgs (sweeps > 0) adding up to its totals; nsn with
 * smoothing=on and no safeguard (fallback_sweeps = 0) is one phase, solves it, and evaluates
 * the judge's residual only as nsn does (once at the start, once per step, once when the
 * smoothing phase restarts: no nsgs sweep, which evaluates it every sweep); nsn+nsgs with
 * fallback_sweeps=0 (the user's option over the preset) is that nsn to the bit. nsn's default
 * (smoothing=auto) stalls in its plain phase here and hands over to the smoothing phase, whose
 * safeguard is nsgs: two phases adding up, solved. */
static void test_nsn_without_nsgs(void **state)
{
    (void)state;
    cb_problem *prob = multibody(CB_KIND_COULOMB3D, 100, 3, CB_STORAGE_BSR);
    cbt_run_result hyb = run(&cb_solver_nsn_nsgs, prob, NULL, 0, 200, NULL);
    cb_option on = {"smoothing", "on"}, off_on[] = {{"fallback_sweeps", "0"}, {"smoothing", "on"}};
    cbt_run_result pure = run(&cb_solver_nsn, prob, &on, 1, 200, NULL);
    cbt_run_result none = run(&cb_solver_nsn_nsgs, prob, off_on, 2, 200, NULL);
    cbt_run_result dflt = run(&cb_solver_nsn, prob, NULL, 0, 200, NULL);
    print_message("  nsn+nsgs: %d steps, %d nsgs sweeps; nsn smoothing=on: %s after %d steps, "
                  "%lld error evaluations; nsn: %s after %d steps, %d nsgs sweeps\n",
                  hyb.info.iterations, hyb.info.phases[1].iterations,
                  cb_status_name(pure.info.status), pure.info.iterations,
                  pure.info.work.error_evals, cb_status_name(dflt.info.status),
                  dflt.info.iterations, dflt.info.nphases > 1 ? dflt.info.phases[1].iterations : 0);
    assert_int_equal(hyb.info.nphases, 2);
    assert_string_equal(hyb.info.phases[0].solver, "nsn");
    assert_string_equal(hyb.info.phases[1].solver, "nsgs");
    assert_true(hyb.info.phases[1].iterations > 0);
    assert_int_equal(hyb.info.phases[0].iterations, hyb.info.iterations);
    assert_phases_sum(&hyb.info);
    assert_one_phase(&pure.info, "nsn");
    assert_true(pure.info.solved);
    assert_true(pure.info.work.error_evals <= pure.info.iterations + 2);
    assert_one_phase(&none.info, "nsn");
    assert_int_equal(none.info.iterations, pure.info.iterations);
    assert_work_equal(&none.info.work, &pure.info.work);
    assert_memory_equal(none.p, pure.p, cb_problem_n(prob) * sizeof *pure.p);
    assert_true(dflt.info.solved);
    assert_int_equal(dflt.info.nphases, 2);
    assert_string_equal(dflt.info.phases[1].solver, "nsgs");
    assert_phases_sum(&dflt.info);
    cbt_run_free(&hyb), cbt_run_free(&pure), cbt_run_free(&none), cbt_run_free(&dflt);
    cb_problem_free(prob);
}

/* Options of a composite: KEY goes to the one phase that takes it, SOLVER.KEY names the phase;
 * a key no phase takes, one two phases take, or an unknown phase is bad input naming it. */
static void test_option_routing(void **state)
{
    (void)state;
    cb_problem *prob = multibody(CB_KIND_COULOMB3D, 10, 1, CB_STORAGE_BSR);
    const struct { const char *key, *value, *msg; } bad[] = {
        {"omega", "1", "option omega: not an option of a phase of ipm+nsn"},
        {"gmres_max", "5", "option gmres_max: more than one phase of ipm+nsn takes it"},
        {"nsgs.omega", "1", "option nsgs.omega: ipm+nsn has no phase 'nsgs'"},
        {"nsn.formulation", "x", "option formulation: 'x' is not natural or ac"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cb_option o = {bad[i].key, bad[i].value};
        cbt_run_result r = run(&cb_solver_ipm_nsn, prob, &o, 1, 100, NULL);
        assert_int_equal(r.rc, CB_ERR_INPUT);
        assert_int_equal(r.info.status, CB_STATUS_BAD_INPUT);
        assert_non_null(strstr(r.err.text, bad[i].msg));
        cbt_run_free(&r);
    }
    cb_option good[2] = {{"nsn.gmres_max", "5"}, {"shift", "each"}};
    cbt_run_result r = run(&cb_solver_ipm_nsn, prob, good, 2, 100, NULL);
    assert_int_equal(r.rc, CB_OK);
    assert_true(r.info.solved);
    cbt_run_free(&r);
    cb_problem_free(prob);
}

/* Every solver of the registry leaves at least one phase, and the phases add up to its
 * counters (a small problem every native solver takes). */
static void test_every_solver_has_phases(void **state)
{
    (void)state;
    cb_problem *prob = multibody(CB_KIND_COULOMB3D, 10, 2, CB_STORAGE_BSR);
    for (int i = 0; i < cb_solver_count(); i++) {
        const cb_solver *sv = cb_solver_at(i);
        if (!cb_solver_stops_at_limit(sv))
            continue; /* Siconos: its own counters, none per phase */
        cbt_run_result r = run(sv, prob, NULL, 0, 100, NULL);
        assert_int_equal(r.rc, CB_OK);
        assert_phases_sum(&r.info);
        assert_string_equal(r.info.phases[0].solver,
                            cb_composite_phase(sv, 0) ? cb_composite_phase(sv, 0)->name : sv->name);
        cbt_run_free(&r);
    }
    cb_problem_free(prob);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ipm_then_nsn), cmocka_unit_test(test_nsn_without_nsgs),
        cmocka_unit_test(test_option_routing), cmocka_unit_test(test_every_solver_has_phases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
