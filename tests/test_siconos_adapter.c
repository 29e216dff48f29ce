/* conebench tests — the Siconos 4.4 adapters (siconos-nsgs, siconos-nsgs-light, siconos-admm):
 * every verdict comes from cb_solve's judge, never from Siconos's own word.
 *
 * Iteration counts asserted below were measured with Debian's libsiconos-numerics 4.4.0
 * (bookworm, OpenBLAS pthread) through this adapter (FULL: 29 sweeps,
 * LIGHT_WITH_FULL_FINAL: 5622 on rockfall_14). Iteration counts do not depend on timing.
 */
#include "test_support.h"

#if CB_HAVE_SICONOS /* the whole file needs Siconos (make SICONOS=0: every case skips) */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "conebench/cone.h"
#include "conebench/generate.h"
#include "conebench/io.h"
#include "conebench/problem.h"
#include "conebench/solver.h"
#include "solvers_internal.h"

#include "projectionOnRollingCone.h"
#include "solve_limited.h"

#define TOL 1e-8

static const cb_solver *const all_solvers[] = {
    &cb_solver_siconos_nsgs, &cb_solver_siconos_nsgs_light, &cb_solver_siconos_admm};

/* Siconos 4.4 leaks inside every ADMM solve (definitely lost: the NumericsMatrix header of its
 * work matrix W = NM_new(), 64 bytes; the asymmetric variant also its transpose and sums,
 * ~13 kB on rockfall_14). LeakSanitizer and `valgrind --errors-for-leak-kinds=definite` would
 * fail on that, so CONEBENCH_QUICK runs (make sanitize / make valgrind) skip the ADMM solves;
 * `make test` runs them all. */
static size_t nsolvers(void)
{
    return cbt_quick() ? 2 : 3;
}

#define SKIP_ADMM_WHEN_QUICK()                                                               \
    do {                                                                                     \
        if (cbt_quick()) {                                                                   \
            print_message("skipped under CONEBENCH_QUICK: Siconos ADMM leaks (see top)\n");  \
            skip();                                                                          \
        }                                                                                    \
    } while (0)

typedef struct {
    int rc;
    cb_info info;
    double *p;   /* owned */
    double norm_p;
    cb_error err;
} run_result;

static cb_problem *load(const char *relative)
{
    const char *path = cbt_data_path(relative);
    assert_non_null(path);
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    cb_problem *prob = NULL;
    cb_error err = {{0}};
    int rc = cb_read_problem(path, &rs, &prob, &err);
    if (rc != CB_OK)
        print_message("%s: %s\n", relative, err.text);
    assert_int_equal(rc, CB_OK);
    assert_non_null(prob);
    return prob;
}

static void settings_init(cb_settings *s, double tol, int max_iter)
{
    cb_settings_default(s);
    s->tol = tol;
    s->max_iter = max_iter;
    s->time_limit = 0; /* none: the tests below must not depend on the machine's speed */
}

static run_result run(const cb_solver *sv, const cb_problem *prob, const cb_settings *s)
{
    run_result r;
    memset(&r, 0, sizeof r);
    cb_solution sol;
    assert_int_equal(cb_solution_alloc(prob, &sol, NULL), CB_OK);
    r.rc = cb_solve(sv, prob, s, &sol, &r.info, &r.err);
    r.norm_p = cblas_dnrm2((int)sol.n, sol.p, 1);
    r.p = sol.p;
    sol.p = NULL;
    cb_solution_free(&sol);
    return r;
}

static void result_free(run_result *r)
{
    cb_info_free(&r->info);
    free(r->p);
    r->p = NULL;
}

static void report(const char *what, const char *solver, const run_result *r)
{
    print_message("  %-34s %-18s %-10s it %6d  error %.3e  error_q %.3e  |p| %.3e\n", what,
                  solver, cb_status_name(r->info.status), r->info.iterations, r->info.error,
                  r->info.error_q, r->norm_p);
}

/* ---- rolling data ---------------------------------------------------------------------- */

static const char *const rolling_files[] = {
    "rolling/RFC3D_sphere_1.dat",          "rolling/RFC3D_sphere_2.dat",
    "rolling/RFC3D_cube_1.dat",            "rolling/rockfall_14_25792.dat",
    "rolling/GRFC3D_Chute-ndof-768-nc-4-3.dat", "rolling/Chute-ndof-768-nc-4-3.hdf5"};

/* siconos-nsgs (FULL) reaches 1e-8 as judged on every rolling file, dense and BSR alike. */
static void test_rolling_files_nsgs(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    cb_settings s;
    settings_init(&s, TOL, 10000);
    for (size_t i = 0; i < sizeof rolling_files / sizeof *rolling_files; i++) {
        cb_problem *prob = load(rolling_files[i]), *bsr = NULL;
        assert_int_equal(prob->kind, CB_KIND_ROLLING3D);
        run_result r = run(&cb_solver_siconos_nsgs, prob, &s);
        report(rolling_files[i], "siconos-nsgs", &r);
        assert_int_equal(r.rc, CB_OK);
        assert_true(r.info.solved);
        assert_true(r.info.error <= TOL && r.info.error_q <= 1.0);
        assert_true(r.info.work.block_products ==
                    (long long)r.info.iterations * cb_problem_blocks_per_matvec(prob));
        assert_int_equal(cb_problem_to_bsr(prob, &bsr, NULL), CB_OK);
        run_result b = run(&cb_solver_siconos_nsgs, bsr, &s); /* NM_SPARSE path */
        assert_true(b.info.solved);
        assert_int_equal(b.info.iterations, r.info.iterations);
        assert_true(cbt_vec_reldiff(b.p, r.p, cb_problem_n(prob), 1e-300) < 1e-10);
        result_free(&b);
        result_free(&r);
        cb_problem_free(bsr);
        cb_problem_free(prob);
    }
}

/* rockfall_14: FULL needs 29 sweeps; Siconos's default LIGHT_WITH_FULL_FINAL needs 5622
 * (measured here). Both end solved as judged. */
static void test_rockfall_full_vs_light(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    cb_problem *prob = load("rolling/rockfall_14_25792.dat");
    assert_int_equal(prob->nc, 14);
    cb_settings s;
    settings_init(&s, TOL, 10000);
    run_result full = run(&cb_solver_siconos_nsgs, prob, &s);
    run_result light = run(&cb_solver_siconos_nsgs_light, prob, &s);
    report("rockfall_14", "siconos-nsgs", &full);
    report("rockfall_14", "siconos-nsgs-light", &light);
    assert_true(full.info.solved);
    assert_true(light.info.solved);
    assert_int_equal(full.info.iterations, 29);
    /* 5622 measured; ±1 % allowance for a different BLAS kernel's rounding. */
    assert_in_range(light.info.iterations, 5566, 5678);
    assert_true(light.info.iterations > 100 * full.info.iterations);
    /* FULL stops just under the tolerance; its error_q shows ‖q‖ ≪ ‖p‖ on this problem. */
    assert_true(full.info.error > 1e-9 && full.info.error <= TOL);
    assert_true(full.info.error_q < 1e-4);
    result_free(&full);
    result_free(&light);
    cb_problem_free(prob);
}

/* rockfall_14 and siconos-admm. With Siconos's defaults (forced symmetry, constant ρ = 1) ADMM
 * does not reach 1e-8 in 10000 iterations (judged error 1.08e-4, ‖p‖ 1.4e3): max_iter. With
 * symmetry=check (→ the asymmetric variant: rockfall's W is asymmetric) and scaled residual
 * balancing, Siconos reports success (info 0) after 330 iterations with its own error 3.6e-138
 * at a finite ‖p‖ = 1.19e156. The judge refuses it: measured status "diverged", error_q = inf,
 * because ‖e‖² overflows at ‖e‖ ~ 1e156. The blow-up is chaotic: under valgrind's FP emulation
 * p even ends non-finite. So the assertions are: p blew up, and the judged status is diverged
 * or not_solved with error_q > 1 — never solved. */
static void test_rockfall_admm(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    SKIP_ADMM_WHEN_QUICK();
    cb_problem *prob = load("rolling/rockfall_14_25792.dat");
    cb_settings s;
    settings_init(&s, TOL, 10000);
    run_result d = run(&cb_solver_siconos_admm, prob, &s);
    report("rockfall_14 (defaults)", "siconos-admm", &d);
    assert_int_equal(d.rc, CB_OK);
    assert_int_equal(d.info.status, CB_STATUS_MAX_ITER);
    assert_int_equal(d.info.iterations, 10000);
    assert_true(d.info.error > 1e-5 && d.info.error < 1e-3);
    assert_true(d.norm_p > 1e2 && d.norm_p < 1e4);

    const cb_option opts[] = {{"symmetry", "check"},
                              {"rho_strategy", "scaled_residual_balancing"}};
    s.options = opts;
    s.noptions = 2;
    run_result b = run(&cb_solver_siconos_admm, prob, &s);
    report("rockfall_14 (check, scaled rb)", "siconos-admm", &b);
    print_message("  Siconos's own verdict: error %.3e after %d iterations\n",
                  b.info.solver_error, b.info.iterations);
    assert_int_equal(b.rc, CB_OK);
    assert_true(b.norm_p > 1e100 || !isfinite(b.norm_p)); /* p blew up */
    assert_false(b.info.solved); /* the judge is not fooled */
    assert_true(b.info.status == CB_STATUS_DIVERGED ||
                (b.info.status == CB_STATUS_CONVERGED && b.info.error_q > 1.0));
    if (isfinite(b.norm_p)) { /* the native run: Siconos claimed success, stopping early */
        assert_true(b.info.solver_error < TOL);
        assert_true(b.info.iterations < s.max_iter);
    }
    result_free(&d);
    result_free(&b);
    cb_problem_free(prob);
}

/* ---- Coulomb data ---------------------------------------------------------------------- */

static const char *const fc3d_files[] = {
    "fc3d/FC3D_Example1.dat", "fc3d/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5",
    "fc3d/Capsules-i125-1213.hdf5"};

/* siconos-nsgs solves FC3D_Example1 (1 sweep) and the FCLIB local problems PerioBox (34) and
 * Capsules-i125 (2302) to 1e-8 as judged; the other storage (FCLIB files are BSR →
 * NM_SPARSE_BLOCK, dense → NM_DENSE) takes the same sweeps (checked for nc ≤ 100). */
static void test_fc3d_files_nsgs(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    cb_settings s;
    settings_init(&s, TOL, 20000);
    for (size_t i = 0; i < sizeof fc3d_files / sizeof *fc3d_files; i++) {
        cb_problem *prob = load(fc3d_files[i]), *other = NULL;
        assert_int_equal(prob->kind, CB_KIND_COULOMB3D);
        run_result r = run(&cb_solver_siconos_nsgs, prob, &s);
        report(fc3d_files[i], "siconos-nsgs", &r);
        assert_true(r.info.solved);
        assert_true(r.info.error <= TOL);
        if (prob->nc <= 100) { /* dense Siconos NSGS on Capsules (n = 858) takes seconds */
            if (prob->storage == CB_STORAGE_DENSE)
                assert_int_equal(cb_problem_to_bsr(prob, &other, NULL), CB_OK);
            else
                assert_int_equal(cb_problem_to_dense(prob, &other, NULL), CB_OK);
            run_result o = run(&cb_solver_siconos_nsgs, other, &s);
            assert_true(o.info.solved);
            assert_in_range(o.info.iterations,
                            r.info.iterations > 2 ? r.info.iterations - 2 : 0,
                            r.info.iterations + 2);
            result_free(&o);
            cb_problem_free(other);
        }
        result_free(&r);
        cb_problem_free(prob);
    }
}

/* The fourth FCLIB local problem, BoxesStack (48 contacts), defeats NSGS: measured judged error
 * 1.79e-4 after 20000 sweeps (7.0e-6 after 100000: a stall, conebench's own nsgs stalls at the
 * same value). Siconos ADMM solves it in 1190 iterations. */
static void test_fc3d_boxes_stack(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    cb_problem *prob = load("fc3d/BoxesStack-local_problem_test.hdf5");
    cb_settings s;
    settings_init(&s, TOL, 20000);
    run_result n = run(&cb_solver_siconos_nsgs, prob, &s);
    report("BoxesStack-local_problem_test", "siconos-nsgs", &n);
    assert_int_equal(n.info.status, CB_STATUS_MAX_ITER);
    assert_int_equal(n.info.iterations, 20000);
    assert_true(n.info.error > 1e-5 && n.info.error < 1e-3);
    result_free(&n);
    if (!cbt_quick()) {
        run_result a = run(&cb_solver_siconos_admm, prob, &s);
        report("BoxesStack-local_problem_test", "siconos-admm", &a);
        assert_true(a.info.solved);
        assert_in_range(a.info.iterations, 1100, 1300);
        result_free(&a);
    }
    cb_problem_free(prob);
}

/* ---- generated problems ---------------------------------------------------------------- */

static cb_problem *generate(cb_kind kind, int nc, cb_storage storage, uint64_t seed)
{
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = kind;
    g.nc = nc;
    g.seed = seed;
    g.storage = storage;
    cb_problem *prob = NULL;
    cb_error err = {{0}};
    int rc = cb_generate_random(&g, &prob, NULL, NULL, &err);
    if (rc != CB_OK)
        print_message("generate: %s\n", err.text);
    assert_int_equal(rc, CB_OK);
    return prob;
}

/* rollspin3d is rejected by every adapter, the planar kinds by ADMM only, naming the kind. */
static void test_unsupported_kinds(void **state)
{
    (void)state;
    const cb_kind kinds[] = {CB_KIND_ROLLSPIN3D, CB_KIND_COULOMB2D, CB_KIND_ROLLING2D};
    cb_settings s;
    settings_init(&s, TOL, 100);
    for (size_t k = 0; k < 3; k++) {
        cb_problem *prob = generate(kinds[k], 5, CB_STORAGE_DENSE, 3);
        for (size_t i = k == 0 ? 0 : 2; i < 3; i++) { /* no solve: ADMM is safe here */
            cb_error err = {{0}};
            assert_int_equal(all_solvers[i]->supports(prob, &err), CB_ERR_INPUT);
            assert_non_null(strstr(err.text, cb_kind_name(kinds[k])));
            run_result r = run(all_solvers[i], prob, &s);
            assert_int_equal(r.rc, CB_ERR_INPUT);
            assert_int_equal(r.info.status, CB_STATUS_UNSUPPORTED);
            assert_non_null(strstr(r.err.text, cb_kind_name(kinds[k])));
            result_free(&r);
        }
        cb_problem_free(prob);
    }
}

/* One planar contact with W = I: y = p + q, so every regime has a closed form. Sticking
 * (q = (−1, 0.1, 0.05), μ = 0.5, μ_r = 0.1): y = 0, p = −q. Sliding and rolling
 * (q = (−1, 1, 0.3)): y_N = 0 gives p_N = 1, p_T = −μ p_N, m_R = −μ_r p_N, y = (0, 0.5, 0.2).
 * coulomb2d takes the first two components. */
static void test_planar_closed_form(void **state)
{
    (void)state;
    const double q[2][3] = {{-1.0, 0.1, 0.05}, {-1.0, 1.0, 0.3}};
    const double p_exact[2][3] = {{1.0, -0.1, -0.05}, {1.0, -0.5, -0.1}};
    const cb_kind kinds[] = {CB_KIND_COULOMB2D, CB_KIND_ROLLING2D};
    cb_settings s;
    settings_init(&s, 1e-12, 100);
    for (size_t k = 0; k < 2; k++)
        for (int storage = 0; storage < 2; storage++)
            for (size_t c = 0; c < 2; c++) {
                cb_problem *prob = NULL;
                cb_storage st = storage ? CB_STORAGE_BSR : CB_STORAGE_DENSE;
                assert_int_equal(cb_problem_alloc(kinds[k], 1, st, 1, &prob, NULL), CB_OK);
                int d = prob->d;
                double *W = st == CB_STORAGE_BSR ? prob->bsr.val : prob->W;
                if (st == CB_STORAGE_BSR) {
                    prob->bsr.row_ptr[1] = 1;
                    prob->bsr.col[0] = 0;
                }
                for (int i = 0; i < d; i++) {
                    W[i * d + i] = 1.0;
                    prob->q[i] = q[c][i];
                }
                prob->mu[0] = 0.5;
                prob->mu_r[0] = 0.1;
                assert_int_equal(cb_problem_check(prob, NULL), CB_OK);
                for (size_t i = 0; i < 2; i++) {
                    run_result r = run(all_solvers[i], prob, &s);
                    assert_int_equal(r.rc, CB_OK);
                    assert_true(r.info.solved);
                    for (int j = 0; j < d; j++)
                        assert_true(fabs(r.p[j] - p_exact[c][j]) <= 1e-12);
                    result_free(&r);
                }
                cb_problem_free(prob);
            }
}

/* What holds for a Siconos run on every machine, whatever its rounding: the adapter returns,
 * the status follows the status rule (solved ⇔ the judge accepts the final iterate, re-judged
 * here independently), the trace has one point per sweep (rolling2d) or the final point
 * (coulomb2d) and ends at the last sweep. */
static void expect_consistent(const cb_problem *prob, const run_result *r, int traced)
{
    cb_judgement j;
    assert_int_equal(r->rc, CB_OK);
    assert_int_equal(cb_judge(prob, r->p, TOL, NULL, &j, NULL), CB_OK);
    assert_true(r->info.error == j.error);
    assert_int_equal(r->info.solved, j.solved);
    assert_true(r->info.status == CB_STATUS_CONVERGED || r->info.status == CB_STATUS_MAX_ITER);
    if (traced) {
        /* + 1: the start point cb_solve adds */
        assert_int_equal(r->info.ntrace,
                         (prob->kind == CB_KIND_ROLLING2D ? r->info.iterations : 1) + 1);
        assert_int_equal(r->info.trace[0].iteration, 0);
        assert_int_equal(r->info.trace[r->info.ntrace - 1].iteration, r->info.iterations);
    }
}

/* Random planar problems (nc = 50, SPD and multibody W, dense and BSR). coulomb2d: both NSGS
 * adapters reach the judged residual 1e-8 (fc2d_nsgs has no known defect and converges with a
 * wide margin). rolling2d: Siconos' 2D rolling projection hole (test below) can stall its own
 * stop test depending on the last bits of its iterates, which depend on Siconos' BLAS kernel
 * (the dense loop calls OpenBLAS dgemv), so neither its sweep count nor its outcome is asserted
 * there — only what holds on every machine (expect_consistent). Our nsgs solves every one of
 * these problems (the judge, not Siconos, says so). */
static void test_planar_random(void **state)
{
    (void)state;
    const cb_kind kinds[] = {CB_KIND_COULOMB2D, CB_KIND_ROLLING2D};
    cb_settings s;
    settings_init(&s, TOL, 20000);
    for (size_t k = 0; k < 2; k++)
        for (int spd = 0; spd < 2; spd++) {
            cb_random_settings g;
            cb_random_settings_default(&g);
            g.kind = kinds[k];
            g.matrix = spd ? CB_GEN_SPD : CB_GEN_MULTIBODY;
            g.nc = 50;
            g.seed = 3;
            g.storage = CB_STORAGE_BSR;
            cb_problem *bsr = NULL, *dense = NULL;
            assert_int_equal(cb_generate_random(&g, &bsr, NULL, NULL, NULL), CB_OK);
            assert_int_equal(cb_problem_to_dense(bsr, &dense, NULL), CB_OK);
            for (size_t i = 0; i < 2; i++) {
                s.trace = 1; /* rolling_fc2d calls back every sweep, fc2d never */
                run_result a = run(all_solvers[i], bsr, &s);
                s.trace = 0;
                run_result b = run(all_solvers[i], dense, &s);
                report(cb_kind_name(kinds[k]), all_solvers[i]->name, &a);
                report(cb_kind_name(kinds[k]), all_solvers[i]->name, &b);
                expect_consistent(bsr, &a, 1);
                expect_consistent(dense, &b, 0);
                if (kinds[k] == CB_KIND_COULOMB2D) {
                    assert_true(a.info.solved);
                    assert_true(b.info.solved);
                }
                result_free(&a);
                result_free(&b);
            }
            cbt_run_result ours = cbt_run(cb_solver_find("nsgs"), bsr, &s, NULL);
            assert_true(ours.info.solved);
            cbt_run_free(&ours);
            cb_problem_free(dense);
            cb_problem_free(bsr);
        }
}

/* Siconos 4.4's projectionOn2DRollingCone has a hole: for x = r − ũ at a sliding contact whose
 * rolling torque sits on its limit with zero rolling velocity (a common NSGS solution), the
 * edge test (|x_R| > μ_r·x_N' strictly) and the sliding-face test (|x_R| ≤ μ_r·x_N'') can both
 * fail by rounding; it then returns case 20 with x unprojected. The point below is contact 5970
 * of the problem of test_rolling2d_full_error, where that happens. Our projection of the same x
 * is checked by the projection's optimality conditions (an independent property): P ∈ K,
 * x − P ∈ −K* (μ|t| + μ_r|m| ≤ −n for the polar of this product cone) and ⟨P, x − P⟩ = 0. */
static void test_rolling2d_projection_hole(void **state)
{
    (void)state;
    const double x[3] = {1.1300934799147331, -0.28751289330599072, -0.03249300043261507};
    const cb_friction f = {0.10805465127671497, 0.028309936516199237, 0};
    double sic[3] = {x[0], x[1], x[2]}, ours[3];
    assert_int_equal(projectionOn2DRollingCone(sic, f.mu, f.mu_r), 20);
    assert_memory_equal(sic, x, sizeof x); /* left unprojected */
    cb_project(CB_KIND_ROLLING2D, &f, x, ours);
    const double eps = 1e-14;
    assert_true(fabs(ours[1]) <= f.mu * ours[0] * (1 + eps));
    assert_true(fabs(ours[2]) <= f.mu_r * ours[0] * (1 + eps));
    double dx[3] = {x[0] - ours[0], x[1] - ours[1], x[2] - ours[2]};
    assert_true(f.mu * fabs(dx[1]) + f.mu_r * fabs(dx[2]) <= -dx[0] + eps);
    assert_true(fabs(ours[0] * dx[0] + ours[1] * dx[1] + ours[2] * dx[2]) <= eps);
    assert_true(fabs(ours[0] - sic[0]) > 0.01); /* the hole is not a rounding-level difference */
}

/* The consequence: rolling_fc2d_nsgs's FULL error (unitary error through that projection) can
 * stay near 1e-2 on a converged iterate, so siconos-nsgs may never stop by itself on this
 * random rolling2d problem (SPD, nc = 7000, cond 100, ~8 blocks per row, seed 1): measured
 * with Debian's 4.4.0, its own error is 8e-3 after 300 sweeps while the judge scores the
 * iterate at 4e-15. Whether the hole triggers depends on the last bits of Siconos' iterates
 * (its BLAS), so that is printed, not asserted. What holds everywhere is the status rule: a
 * final iterate the judge accepts in both normalisations is solved, whatever Siconos' own stop
 * test said. Our nsgs stops by itself within the same 300 sweeps. */
static void test_rolling2d_full_error(void **state)
{
    (void)state;
    if (cbt_quick()) {
        print_message("skipped under CONEBENCH_QUICK: nc = 7000 (about 1 s)\n");
        skip();
    }
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = CB_KIND_ROLLING2D;
    g.matrix = CB_GEN_SPD;
    g.nc = 7000;
    g.seed = 1;
    g.cond = 100;
    g.density = 8.0 / 7000;
    g.storage = CB_STORAGE_BSR;
    cb_problem *prob = NULL;
    assert_int_equal(cb_generate_random(&g, &prob, NULL, NULL, NULL), CB_OK);
    cb_settings s;
    settings_init(&s, TOL, 300);
    run_result r = run(&cb_solver_siconos_nsgs, prob, &s);
    report("rolling2d spd nc=7000", "siconos-nsgs", &r);
    print_message("  Siconos's own error: %.3e (%s)\n", r.info.solver_error,
                  r.info.solver_error > TOL ? "its stop test did not fire" : "it stopped");
    expect_consistent(prob, &r, 0);
    assert_true(r.info.solved);
    assert_true(r.info.error <= TOL && r.info.error_q <= TOL);
    result_free(&r);
    cbt_run_result ours = cbt_run(cb_solver_find("nsgs"), prob, &s, NULL);
    assert_true(ours.info.solved);
    assert_true(ours.info.iterations < 300);
    cbt_run_free(&ours);
    cb_problem_free(prob);
}

/* Options: NSGS variants take none; ADMM rejects unknown keys and bad values. */
static void test_options(void **state)
{
    (void)state;
    cb_problem *prob = generate(CB_KIND_ROLLING3D, 4, CB_STORAGE_DENSE, 5);
    cb_settings s;
    settings_init(&s, TOL, 100);
    const cb_option bad_key[] = {{"iparam.1", "2"}};
    const cb_option bad_sym[] = {{"symmetry", "symmetrize"}};
    const cb_option bad_rho[] = {{"rho", "-1"}};
    const cb_option *cases[] = {bad_key, bad_sym, bad_rho};
    for (size_t i = 0; i < 3; i++) {
        s.options = cases[i];
        s.noptions = 1;
        for (size_t k = 0; k < 3; k++) {
            if (i > 0 && k < 2)
                continue; /* those keys are ADMM's; for NSGS they are unknown keys (case 0) */
            run_result r = run(all_solvers[k], prob, &s);
            assert_int_equal(r.rc, CB_ERR_INPUT);
            assert_non_null(strstr(r.err.text, cases[i][0].key));
            result_free(&r);
        }
    }
    cb_problem_free(prob);
}

/* siconos-nsgs with options; iterations (sweeps) and the judge's verdict. */
static run_result nsgs_with(const cb_problem *prob, const cb_option *opts, int nopts)
{
    cb_settings s;
    settings_init(&s, TOL, 100000);
    s.options = opts;
    s.noptions = nopts;
    return run(cb_solver_find("siconos-nsgs"), prob, &s);
}

/* The NSGS parameters by name (Friction_cst.h, SolverOptions.h) do what Siconos documents, on a
 * random rolling3d problem (nc = 20): Siconos's own values given explicitly change nothing (the
 * same sweeps and bits); error_frequency=k evaluates the error every k sweeps, so the run stops
 * at the first multiple of k at or after the sweep where every-sweep evaluation stopped; one
 * local iteration (local_max_iter=1) or a loose local tolerance (local_tol=1e-2) leaves each
 * local problem less solved, and more sweeps (and block products, the work counter) are needed;
 * the judge passes each. */
static void test_nsgs_options(void **state)
{
    (void)state;
    cb_problem *prob = generate(CB_KIND_ROLLING3D, 20, CB_STORAGE_BSR, 1);
    const cb_option same[] = {{"error_evaluation", "full"}, {"error_frequency", "0"},
                              {"shuffle", "no"},           {"omega", "1"},
                              {"local_tol", "siconos"},    {"local_max_iter", "siconos"}};
    const cb_option every7[] = {{"error_frequency", "7"}};
    const cb_option one_local[] = {{"local_max_iter", "1"}};
    const cb_option loose_local[] = {{"local_tol", "1e-2"}};
    run_result base = nsgs_with(prob, NULL, 0), r = nsgs_with(prob, same, 6);
    report("defaults", "siconos-nsgs", &base);
    assert_int_equal(base.rc, CB_OK);
    assert_true(base.info.solved);
    assert_int_equal(r.info.iterations, base.info.iterations);
    assert_memory_equal(r.p, base.p, (size_t)prob->nc * prob->d * sizeof(double));
    result_free(&r);
    r = nsgs_with(prob, every7, 1);
    report("error_frequency=7", "siconos-nsgs", &r);
    assert_true(r.info.solved);
    assert_int_equal(r.info.iterations % 7, 0);
    assert_in_range(r.info.iterations, base.info.iterations, base.info.iterations + 6);
    result_free(&r);
    const cb_option *looser[] = {one_local, loose_local};
    for (int k = 0; k < 2; k++) {
        r = nsgs_with(prob, looser[k], 1);
        report(looser[k][0].key, "siconos-nsgs", &r);
        assert_true(r.info.solved);
        assert_true(r.info.iterations > base.info.iterations);
        assert_true(r.info.work.block_products > base.info.work.block_products);
        result_free(&r);
    }
    result_free(&base);
    cb_problem_free(prob);
}

/* Options Siconos 4.4 cannot take, refused before any work naming the option: shuffling on
 * rolling3d (its rolling NSGS dies of a signal), a local solver option on coulomb2d (no local
 * solver), a non-integer local_max_iter, omega outside (0, 2). */
static void test_nsgs_options_refused(void **state)
{
    (void)state;
    cb_problem *r3 = generate(CB_KIND_ROLLING3D, 4, CB_STORAGE_BSR, 2);
    cb_problem *c2 = generate(CB_KIND_COULOMB2D, 4, CB_STORAGE_BSR, 2);
    const cb_option shuffle[] = {{"shuffle", "yes"}}, local[] = {{"local_tol", "1e-6"}};
    const cb_option half[] = {{"local_max_iter", "1.5"}}, omega[] = {{"omega", "2"}};
    const cb_option *opts[] = {shuffle, local, half, omega};
    const cb_problem *probs[] = {r3, c2, r3, r3};
    for (int k = 0; k < 4; k++) {
        run_result r = nsgs_with(probs[k], opts[k], 1);
        assert_int_equal(r.rc, CB_ERR_INPUT);
        assert_non_null(strstr(r.err.text, opts[k][0].key));
        result_free(&r);
    }
    cb_problem_free(r3);
    cb_problem_free(c2);
}

/* Random rolling3d BSR problems (nc = 30, seeds 1-2): every adapter solves them within 5000
 * iterations (1031-4284 measured; seed 3 needs more than 5000 NSGS sweeps) with the same
 * outcome on the BSR (NM_SPARSE for NSGS, NM_SPARSE_BLOCK for ADMM) and dense (NM_DENSE)
 * copies. */
static void test_random_bsr_dense(void **state)
{
    (void)state;
    cb_settings s;
    settings_init(&s, TOL, 5000);
    for (uint64_t seed = 1; seed <= 2; seed++) {
        cb_problem *bsr = generate(CB_KIND_ROLLING3D, 30, CB_STORAGE_BSR, seed), *dense = NULL;
        assert_int_equal(cb_problem_to_dense(bsr, &dense, NULL), CB_OK);
        for (size_t i = 0; i < nsolvers(); i++) {
            run_result a = run(all_solvers[i], bsr, &s);
            run_result b = run(all_solvers[i], dense, &s);
            report("random nc=30 (bsr)", all_solvers[i]->name, &a);
            assert_true(a.info.solved); /* 1031-4284 its (measured) */
            assert_int_equal(a.info.status, b.info.status);
            /* no assertion on the sweep counts of the two: the dense loop goes through
             * OpenBLAS dgemv inside Siconos, whose rounding depends on the kernel */
            result_free(&a);
            result_free(&b);
        }
        cb_problem_free(dense);
        cb_problem_free(bsr);
    }
}

/* The same run twice gives identical iterations and bit-identical reactions. */
static void test_determinism(void **state)
{
    (void)state;
    cb_problem *prob = generate(CB_KIND_ROLLING3D, 30, CB_STORAGE_BSR, 11);
    cb_settings s;
    settings_init(&s, TOL, 2000);
    for (size_t i = 0; i < nsolvers(); i++) {
        run_result a = run(all_solvers[i], prob, &s);
        run_result b = run(all_solvers[i], prob, &s);
        assert_int_equal(a.info.iterations, b.info.iterations);
        assert_int_equal(a.info.status, b.info.status);
        assert_memory_equal(a.p, b.p, cb_problem_n(prob) * sizeof(double));
        assert_true(a.info.work.block_products == b.info.work.block_products);
        result_free(&a);
        result_free(&b);
    }
    cb_problem_free(prob);
}

/* Tracing: NSGS records one point per sweep (Siconos's callback), ADMM its final point; a
 * time limit far below the solve time yields time_limit (Siconos itself cannot be stopped). */
static void test_trace_and_time_limit(void **state)
{
    (void)state;
    cb_problem *prob = generate(CB_KIND_ROLLING3D, 30, CB_STORAGE_DENSE, 7);
    cb_settings s;
    settings_init(&s, TOL, 5000);
    s.trace = 1;
    for (size_t i = 0; i < nsolvers(); i++) {
        run_result r = run(all_solvers[i], prob, &s);
        assert_true(r.info.solved);
        assert_int_equal(r.info.ntrace, (i < 2 ? r.info.iterations : 1) + 1); /* + the start */
        assert_int_equal(r.info.trace[r.info.ntrace - 1].iteration, r.info.iterations);
        result_free(&r);
    }
    s.trace = 0;
    s.time_limit = 1e-12;
    run_result r = run(&cb_solver_siconos_nsgs, prob, &s);
    assert_int_equal(r.info.status, CB_STATUS_TIME_LIMIT);
    result_free(&r);
    cb_problem_free(prob);
}

/* Every registered siconos-* adapter: on an easy problem (SPD W of condition 2, 4 contacts, one
 * μ for all: Siconos's fc2d Lemke/ENUM take no other) of each kind it supports, solved as judged
 * (run in a child process: a Siconos crash or hang must fail this test, not end it); on the other
 * kinds, status unsupported from cb_solve with the kind named, before Siconos is called. No
 * iteration counts: OpenBLAS runs inside Siconos. */
static void test_every_adapter_easy(void **state)
{
    (void)state;
    cb_problem *probs[CB_KIND_COUNT];
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        cb_random_settings g;
        cb_random_settings_default(&g);
        g.kind = (cb_kind)k;
        g.nc = 4;
        g.seed = 11;
        g.matrix = CB_GEN_SPD;
        g.cond = 2;
        g.mu_min = g.mu_max = 0.4;
        g.storage = k % 2 ? CB_STORAGE_BSR : CB_STORAGE_DENSE;
        assert_int_equal(cb_generate_random(&g, &probs[k], NULL, NULL, NULL), CB_OK);
    }
    cb_settings s;
    settings_init(&s, TOL, 10000);
    s.time_limit = 120; /* the child's watchdog only: these solves take milliseconds */
    int adapters = 0;
    for (int i = 0; i < cb_solver_count(); i++) {
        const cb_solver *sv = cb_solver_at(i);
        if (strncmp(sv->name, "siconos-", 8) != 0 || strncmp(sv->name, "siconos-global-", 15) == 0)
            continue; /* the global rows take global problems: test_global_adapters */
        adapters++;
        assert_int_equal(cb_solver_stops_at_limit(sv), 0);
        int supported = 0;
        for (int k = 0; k < CB_KIND_COUNT; k++) {
            cb_solution sol;
            cb_info info;
            cb_error err = {{0}};
            memset(&info, 0, sizeof info);
            assert_int_equal(cb_solution_alloc(probs[k], &sol, NULL), CB_OK);
            int takes = sv->supports(probs[k], &err) == CB_OK;
            int rc = takes ? cb_solve_limited(sv, probs[k], &s, &sol, &info, NULL, NULL, &err)
                           : cb_solve(sv, probs[k], &s, &sol, &info, &err);
            print_message("  %-24s %-10s %s\n", sv->name, cb_kind_name((cb_kind)k),
                          cb_status_name(info.status));
            if (takes) {
                assert_int_equal(rc, CB_OK);
                assert_true(info.solved);
                assert_true(info.error <= TOL);
                supported++;
            } else {
                assert_int_equal(rc, CB_ERR_INPUT);
                assert_int_equal(info.status, CB_STATUS_UNSUPPORTED);
                assert_non_null(strstr(err.text, cb_kind_name((cb_kind)k)));
            }
            cb_info_free(&info);
            cb_solution_free(&sol);
        }
        assert_true(supported >= 1);
    }
    assert_true(adapters >= 3);
    for (int k = 0; k < CB_KIND_COUNT; k++)
        cb_problem_free(probs[k]);
}

/* One siconos-global-* adapter on prob in a child process (a Siconos crash or hang must fail
 * the test, not end it), 10000 iterations and 120 s at most. */
static run_result run_limited(const cb_solver *sv, const cb_problem *prob)
{
    cb_settings s;
    settings_init(&s, TOL, 10000);
    s.time_limit = 120;
    run_result r;
    memset(&r, 0, sizeof r);
    cb_solution sol;
    assert_int_equal(cb_solution_alloc(prob, &sol, NULL), CB_OK);
    r.rc = cb_solve_limited(sv, prob, &s, &sol, &r.info, NULL, NULL, &r.err);
    r.norm_p = cblas_dnrm2((int)sol.n, sol.p, 1);
    r.p = sol.p;
    sol.p = NULL;
    cb_solution_free(&sol);
    return r;
}

/* The global adapters (gfc3d / g_rolling_fc3d drivers on M and H): each refuses a problem
 * without a global form (naming why) and a kind it does not take, before Siconos is called;
 * each runs to a status on global coulomb3d and rolling3d problems (8 bodies, 12 contacts, the
 * condensed W definite for coulomb3d); Siconos's global NSN-AC and NSGS_WR reach the judged
 * 1e-8 there, on the p that ipm+nsn finds on the same global form (coulomb3d: unique). */
static void test_global_adapters(void **state)
{
    (void)state;
    SKIP_ADMM_WHEN_QUICK(); /* the global ADMM rows leak as the local one does */
    cb_problem *gp[2] = {cbt_global_problem(CB_KIND_COULOMB3D, 8, 10, 12, 0.0, 51),
                         cbt_global_problem(CB_KIND_ROLLING3D, 8, 10, 12, 0.0, 52)};
    cb_problem *local = generate(CB_KIND_COULOMB3D, 6, CB_STORAGE_DENSE, 3);
    cb_settings s;
    settings_init(&s, 1e-12, 200);
    cb_solution ref;
    cb_info ri;
    assert_int_equal(cb_solution_alloc(gp[0], &ref, NULL), CB_OK);
    assert_int_equal(cb_solve(&cb_solver_ipm_nsn, gp[0], &s, &ref, &ri, NULL), CB_OK);
    assert_true(ri.solved);
    int global_rows = 0;
    for (int i = 0; i < cb_solver_count(); i++) {
        const cb_solver *sv = cb_solver_at(i);
        if (strncmp(sv->name, "siconos-global-", 15) != 0)
            continue;
        global_rows++;
        cb_error err = {{0}};
        assert_int_equal(sv->supports(local, &err), CB_ERR_INPUT);
        assert_non_null(strstr(err.text, "no global form"));
        for (int k = 0; k < 2; k++) {
            if (sv->supports(gp[k], &err) != CB_OK) {
                assert_non_null(strstr(err.text, cb_kind_name(gp[k]->kind)));
                continue;
            }
            run_result r = run_limited(sv, gp[k]);
            report(cb_kind_name(gp[k]->kind), sv->name, &r);
            assert_int_equal(r.rc, CB_OK);
            int strong = !strcmp(sv->name, "siconos-global-nsn-ac") ||
                         !strcmp(sv->name, "siconos-global-nsgs-wr");
            if (strong) {
                assert_true(r.info.solved);
                assert_true(r.info.error <= TOL);
            }
            if (strong && k == 0) {
                double diff = cbt_vec_reldiff(r.p, ref.p, ref.n, 1e-12);
                print_message("    |p - p_ipm| / |p_ipm| = %.1e\n", diff);
                assert_true(diff <= 1e-5);
            }
            result_free(&r);
        }
    }
    assert_int_equal(global_rows, 13);
    cb_info_free(&ri);
    cb_solution_free(&ref);
    cb_problem_free(local), cb_problem_free(gp[0]), cb_problem_free(gp[1]);
}

/* ‖p − P_K(p − v)‖ / (1 + ‖q‖) with v = y (relaxed: the second-order cone complementarity
 * problem without De Saxcé's shift) or v = ŷ (the friction problem). */
static double natural_residual(const cb_problem *prob, const double *p, int shifted)
{
    size_t n = cb_problem_n(prob);
    int d = prob->d;
    double *y = malloc(n * sizeof *y), sum = 0;
    assert_non_null(y);
    cb_problem_y(prob, p, y);
    for (int a = 0; a < prob->nc; a++) {
        cb_friction f;
        double v[CB_MAX_DIM], z[CB_MAX_DIM];
        cb_problem_friction(prob, a, &f);
        memcpy(v, y + (size_t)a * d, (size_t)d * sizeof *v);
        if (shifted)
            cb_modified_velocity(prob->kind, &f, v, v);
        for (int i = 0; i < d; i++)
            z[i] = p[(size_t)a * d + i] - v[i];
        cb_project(prob->kind, &f, z, z);
        for (int i = 0; i < d; i++)
            sum += (p[(size_t)a * d + i] - z[i]) * (p[(size_t)a * d + i] - z[i]);
    }
    double res = sqrt(sum) / (1 + cblas_dnrm2((int)n, prob->q, 1));
    free(y);
    return res;
}

/* Siconos 4.4's global IPM (gfc3d IPM) solves the convex relaxation of the global problem, the
 * second-order cone complementarity problem without De Saxcé's shift μ‖u_T‖ in the normal
 * velocity: on the GFC3D files of the Siconos test set its answer has a relaxed residual near
 * its tolerance while the judge (the friction problem) finds errors of 1e-3 to 1e-1. Siconos's own
 * gfc3d_compute_error agrees with the judge there, gfc3d_compute_error_convex with the relaxed
 * residual: the adapter hands over the right problem. Asserted: every point the judge refuses
 * has a relaxed residual ≤ 1e-6 and a friction residual ≥ 100 times that (so the gap is the
 * relaxation, not the adapter). */
static void test_global_ipm_relaxation(void **state)
{
    (void)state;
    static const char *const files[] = {"global/GFC3D_Example0.dat", "global/GFC3D_Example1.dat",
                                        "global/GFC3D_OneContact.dat", "global/GFC3D_TwoRods1.dat"};
    int seen = 0, refused = 0;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        if (!cbt_data_path(files[i])) {
            print_message("skipped %s: not in the data folder\n", files[i]);
            continue;
        }
        cb_problem *prob = load(files[i]);
        run_result r = run_limited(&cb_solver_siconos_global_ipm, prob);
        assert_int_equal(r.rc, CB_OK);
        double relaxed = natural_residual(prob, r.p, 0), friction = natural_residual(prob, r.p, 1);
        print_message("  %-30s judge %.3e (%s)  relaxed %.3e  friction %.3e\n", files[i],
                      r.info.error, r.info.solved ? "solved" : "refused", relaxed, friction);
        seen++;
        if (!r.info.solved) {
            refused++;
            assert_true(relaxed <= 1e-6);
            assert_true(friction >= 100 * relaxed);
        }
        result_free(&r);
        cb_problem_free(prob);
    }
    if (!seen) {
        print_message("skipped: no GFC3D file of the Siconos test set in the data folder\n");
        skip();
    }
    print_message("  %d of %d refused by the judge\n", refused, seen);
}

#else
CBT_SICONOS_ONLY_TEST(test_global_ipm_relaxation)
CBT_SICONOS_ONLY_TEST(test_global_adapters)
CBT_SICONOS_ONLY_TEST(test_unsupported_kinds)
CBT_SICONOS_ONLY_TEST(test_planar_closed_form)
CBT_SICONOS_ONLY_TEST(test_planar_random)
CBT_SICONOS_ONLY_TEST(test_rolling2d_projection_hole)
CBT_SICONOS_ONLY_TEST(test_rolling2d_full_error)
CBT_SICONOS_ONLY_TEST(test_options)
CBT_SICONOS_ONLY_TEST(test_determinism)
CBT_SICONOS_ONLY_TEST(test_trace_and_time_limit)
CBT_SICONOS_ONLY_TEST(test_random_bsr_dense)
CBT_SICONOS_ONLY_TEST(test_rolling_files_nsgs)
CBT_SICONOS_ONLY_TEST(test_rockfall_full_vs_light)
CBT_SICONOS_ONLY_TEST(test_rockfall_admm)
CBT_SICONOS_ONLY_TEST(test_fc3d_files_nsgs)
CBT_SICONOS_ONLY_TEST(test_fc3d_boxes_stack)
CBT_SICONOS_ONLY_TEST(test_every_adapter_easy)
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unsupported_kinds),
        cmocka_unit_test(test_global_adapters),
        cmocka_unit_test(test_global_ipm_relaxation),
        cmocka_unit_test(test_planar_closed_form),
        cmocka_unit_test(test_planar_random),
        cmocka_unit_test(test_rolling2d_projection_hole),
        cmocka_unit_test(test_rolling2d_full_error),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_nsgs_options),
        cmocka_unit_test(test_nsgs_options_refused),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_trace_and_time_limit),
        cmocka_unit_test(test_random_bsr_dense),
        cmocka_unit_test(test_rolling_files_nsgs),
        cmocka_unit_test(test_rockfall_full_vs_light),
        cmocka_unit_test(test_rockfall_admm),
        cmocka_unit_test(test_fc3d_files_nsgs),
        cmocka_unit_test(test_fc3d_boxes_stack),
        cmocka_unit_test(test_every_adapter_easy),
    };
    return cmocka_run_group_tests_name("siconos_adapter", tests, NULL, NULL);
}
