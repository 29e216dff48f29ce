/* conebench tests — `ipm`, the interior-point solver: the Jordan algebra of its second-order
 * cones (Nesterov–Todd scaling W² z = s, the inverse Jordan product, the step to the boundary)
 * against their defining identities, judged solutions (≤ 1e-10) of known-solution problems of
 * every kind and storage, a singular W (two contacts with identical rows), every Siconos data
 * file (when the data folder is there; the global ones on their global form), its options, the
 * drift guard on a rank-deficient multibody problem, and the global form (W never formed)
 * against the condensed one. */
#include "test_support.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/generate.h"
#include "conebench/io.h"
#include "rng.h"
#include "ipm_internal.h"
#include "solvers_internal.h"
#include "problem_pack.h"

#define TOL 1e-10

/* A random point of int L^k. */
static void interior_point(cb_rng *r, int k, double *x)
{
    double nx = 0.0;
    for (int i = 1; i < k; i++)
        x[i] = cb_rng_normal(r), nx += x[i] * x[i];
    x[0] = sqrt(nx) + 0.01 + cb_rng_uniform(r);
}

/* W z = W⁻¹ s = λ, det λ = λ₀² − ‖λ̄‖², W W⁻¹ = I, Q = W⁻¹W⁻¹ at random interior s, z of L¹,
 * L², L³. */
static void test_nt_scaling(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 11);
    double worst = 0.0;
    for (int t = 0; t < 3000; t++) {
        int k = 1 + t % 3;
        double s[3], z[3], Wi[9], W[9], Q[9], lam[3], det, ls;
        interior_point(&r, k, s), interior_point(&r, k, z);
        assert_int_equal(ipm_soc_scaling(k, s, z, Wi, W, Q, lam, &det), 1);
        ls = lam[0] * lam[0];
        for (int i = 1; i < k; i++)
            ls -= lam[i] * lam[i];
        worst = fmax(worst, fabs(ls - det) / (1 + det));
        for (int i = 0; i < k; i++) {
            double wz = 0.0, wis = 0.0;
            for (int l = 0; l < k; l++)
                wz += W[i + l * k] * z[l], wis += Wi[i + l * k] * s[l];
            worst = fmax(worst, fabs(wz - wis) / (1 + fabs(wz)));
            worst = fmax(worst, fabs(lam[i] - wz) / (1 + fabs(wz)));
            for (int j = 0; j < k; j++) {
                double id = 0.0, q = 0.0;
                for (int l = 0; l < k; l++)
                    id += W[i + l * k] * Wi[l + j * k], q += Wi[i + l * k] * Wi[l + j * k];
                worst = fmax(worst, fabs(id - (i == j)));
                worst = fmax(worst, fabs(q - Q[i + j * k]) / (1 + fabs(q)));
            }
        }
    }
    print_message("  NT scaling: worst identity defect %.2e\n", worst);
    assert_true(worst < 1e-10);
    double s[3] = {1.0, 1.0, 0.0}, z[3] = {1.0, 0.0, 0.0}, Wi[9], W[9], Q[9], lam[3], det;
    assert_int_equal(ipm_soc_scaling(3, s, z, Wi, W, Q, lam, &det), 0); /* s on the boundary */
}

/* λ ∘ (λ \ r) = r; x + α_max d is on the boundary (det ≈ 0, x₀ + α d₀ ≥ 0), +inf inside. */
static void test_jordan_and_step(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 12);
    double worst = 0.0, worst_det = 0.0;
    int finite = 0;
    for (int t = 0; t < 3000; t++) {
        int k = 1 + t % 3;
        double lam[3], rr[3], u[3], back[3], d[3], x[3];
        interior_point(&r, k, lam);
        for (int i = 0; i < k; i++)
            rr[i] = cb_rng_normal(&r), d[i] = cb_rng_normal(&r);
        double det = lam[0] * lam[0];
        for (int i = 1; i < k; i++)
            det -= lam[i] * lam[i];
        ipm_soc_jordan_solve(k, lam, det, rr, u);
        ipm_soc_jordan(k, lam, u, back);
        for (int i = 0; i < k; i++)
            worst = fmax(worst, fabs(back[i] - rr[i]) / (1 + fabs(rr[i])));
        interior_point(&r, k, x);
        double a = ipm_soc_max_step(k, x, d);
        if (!isfinite(a)) { /* the whole ray stays in the cone: so does a far point */
            double far[3], nf = 0.0;
            for (int i = 0; i < k; i++)
                far[i] = x[i] + 1e6 * d[i], nf += i ? far[i] * far[i] : 0.0;
            assert_true(far[0] >= sqrt(nf) - 1e-6 * fabs(far[0]));
            continue;
        }
        finite++;
        double y[3], ny = 0.0;
        for (int i = 0; i < k; i++)
            y[i] = x[i] + a * d[i], ny += i ? y[i] * y[i] : 0.0;
        assert_true(y[0] >= -1e-12);
        worst_det = fmax(worst_det, fabs(y[0] - sqrt(ny)) / (1 + fabs(x[0]) + a * fabs(d[0])));
    }
    print_message("  Jordan solve defect %.2e, boundary defect %.2e (%d finite steps)\n", worst,
                  worst_det, finite);
    assert_true(worst < 1e-9);
    assert_true(worst_det < 1e-12);
    assert_true(finite > 1000);
}

/* A known-solution problem of the random generator. */
static cb_problem *random_problem(cb_kind kind, int nc, cb_gen_matrix m, cb_storage st,
                                  uint64_t seed)
{
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = kind, g.nc = nc, g.matrix = m, g.storage = st, g.seed = seed;
    cb_problem *p = NULL;
    cb_error err = {{0}};
    int rc = cb_generate_random(&g, &p, NULL, NULL, &err);
    assert_int_equal(rc, CB_OK);
    return p;
}

/* ipm with its defaults (plus the given options) to TOL; the judged result. */
static cbt_run_result run_ipm(const cb_problem *prob, const cb_option *opt, int nopt)
{
    cb_settings s;
    cb_settings_default(&s);
    s.tol = TOL, s.options = opt, s.noptions = nopt, s.time_limit = 0;
    return cbt_run(&cb_solver_ipm_nsn, prob, &s, NULL);
}

/* Every kind, SPD and multibody W, dense and BSR storage, two seeds (seed 7 of coulomb2d
 * multibody once produced a non-finite direction, now a breakdown handled): solved to 1e-10
 * (judged). */
static void test_known_solutions(void **state)
{
    (void)state;
    const cb_storage st[2] = {CB_STORAGE_DENSE, CB_STORAGE_BSR};
    for (int k = 0; k < CB_KIND_COUNT; k++)
        for (int m = 0; m < 2; m++)
            for (int t = 0; t < 4; t++) {
                uint64_t seed = t < 2 ? 5 : 7;
                cb_problem *prob = random_problem((cb_kind)k, 40, (cb_gen_matrix)m, st[t % 2],
                                                  seed);
                cbt_run_result r = run_ipm(prob, NULL, 0);
                print_message("  %-10s %-9s %-5s seed %d: %-8s %3d iterations, error %.2e\n",
                              cb_kind_name((cb_kind)k), m ? "spd" : "multibody",
                              cb_storage_name(st[t % 2]), (int)seed,
                              cb_status_name(r.info.status), r.info.iterations, r.info.error);
                assert_int_equal(r.rc, CB_OK);
                assert_true(r.info.solved);
                assert_true(r.info.error <= TOL);
                cbt_run_free(&r);
                cb_problem_free(prob);
            }
}

/* Factored storage (assembled at setup): 6 rolling3d contacts on 2 bodies and the ground with
 * a chosen solution — contacts 0, 2, 4 stick (p* inside K, y* = 0), the others take off
 * (p* = 0, y* = (1, 0, …) inside K*), q = y* − W p* — solved to 1e-10. */
static void test_factored(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 31);
    cb_problem *prob = NULL;
    assert_int_equal(cb_problem_alloc_factored(CB_KIND_ROLLING3D, 6, 2, &prob, NULL), CB_OK);
    int d = prob->d;
    double pstar[30] = {0}, y[30];
    for (int b = 0; b < 2; b++) {
        double *mi = prob->fac.minv + 10 * b;
        mi[0] = 1.0, mi[1] = mi[5] = mi[9] = 2.0; /* 1/m, then I⁻¹ row-major */
    }
    for (int a = 0; a < 6; a++) {
        prob->fac.body[2 * a] = a % 2, prob->fac.body[2 * a + 1] = a < 3 ? -1 : 1 - a % 2;
        for (int k = 0; k < 12 * d; k++)
            prob->fac.G[(size_t)a * 12 * d + k] = cb_rng_normal(&r);
        prob->mu[a] = 0.5, prob->mu_r[a] = 0.1;
        if (a % 2 == 0)
            pstar[a * d] = 1.0, pstar[a * d + 1] = 0.1, pstar[a * d + 3] = 0.02;
    }
    assert_int_equal(cb_problem_factored_finish(prob, NULL), CB_OK);
    cb_problem_Wp(prob, pstar, y);
    for (int i = 0; i < 6 * d; i++)
        prob->q[i] = ((i / d) % 2 && i % d == 0 ? 1.0 : 0.0) - y[i];
    cbt_run_result res = run_ipm(prob, NULL, 0);
    print_message("  factored rolling3d: %s in %d iterations, error %.2e\n",
                  cb_status_name(res.info.status), res.info.iterations, res.info.error);
    assert_true(res.info.solved);
    assert_true(res.info.error <= TOL);
    cbt_run_free(&res);
    cb_problem_free(prob);
}

/* Two contacts with identical rows of W (W = [A A; A A], q = (q₀, q₀)): W is singular and the
 * solutions form a set (any split of one reaction between the contacts); coulomb3d and
 * rolling3d solved to 1e-10. */
static void test_singular_W(void **state)
{
    (void)state;
    const cb_kind kinds[2] = {CB_KIND_COULOMB3D, CB_KIND_ROLLING3D};
    const double q0[5] = {-1.0, 0.8, -0.5, 0.3, 0.2};
    for (int t = 0; t < 2; t++) {
        cb_problem *prob = NULL;
        assert_int_equal(cb_problem_alloc(kinds[t], 2, CB_STORAGE_DENSE, 0, &prob, NULL), CB_OK);
        int d = prob->d;
        size_t n = 2 * (size_t)d;
        for (int a = 0; a < 2; a++) {
            prob->mu[a] = 0.5, prob->mu_r[a] = kinds[t] == CB_KIND_ROLLING3D ? 0.1 : 0.0;
            for (int i = 0; i < d; i++)
                prob->q[a * d + i] = q0[i];
        }
        for (size_t j = 0; j < n; j++)
            for (size_t i = 0; i < n; i++)
                prob->W[i + j * n] = 0.1 + (i % d == j % d ? 2.0 : 0.0);
        cbt_run_result r = run_ipm(prob, NULL, 0);
        print_message("  singular W, %s: %s in %d iterations, error %.2e\n",
                      cb_kind_name(kinds[t]), cb_status_name(r.info.status), r.info.iterations,
                      r.info.error);
        assert_true(r.info.solved);
        assert_true(r.info.error <= TOL);
        cbt_run_free(&r);
        cb_problem_free(prob);
    }
}

/* Solve one data file to 1e-10 and print the time. */
static void solve_data_file(const char *path, const char *name)
{
    cb_problem *prob = NULL;
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    cb_error err = {{0}};
    if (cb_read_problem(path, &rs, &prob, &err) != CB_OK)
        fail_msg("%s: %s", path, err.text);
    for (int form = 0; form < (prob->global ? 2 : 1); form++) { /* a global file: both forms */
        double t0 = cb_now();
        cb_option opt = {"form", form ? "global" : "local"};
        cbt_run_result r = run_ipm(prob, &opt, 1);
        print_message("  %-40s nc=%-4d %-6s %-7s %3d iterations, error %.2e, %.3f s\n", name,
                      prob->nc, opt.value, cb_status_name(r.info.status), r.info.iterations,
                      r.info.error, cb_now() - t0);
        assert_true(r.info.solved);
        assert_true(r.info.error <= TOL);
        cbt_run_free(&r);
    }
    cb_problem_free(prob);
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every problem file of ../shared/data/{fc3d,rolling} (README files aside), in name order. */
static void test_data_files(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    const char *dirs[2] = {"fc3d", "rolling"};
    int count = 0;
    for (int k = 0; k < 2; k++) {
        char dir[4096], *names[256];
        int nn = 0;
        snprintf(dir, sizeof dir, "%s/%s", cbt_data_dir(), dirs[k]);
        DIR *dp = opendir(dir);
        assert_non_null(dp);
        for (struct dirent *e; (e = readdir(dp)) && nn < 256;)
            if (e->d_name[0] != '.' && !strstr(e->d_name, ".md"))
                names[nn++] = strdup(e->d_name);
        closedir(dp);
        qsort(names, (size_t)nn, sizeof *names, name_cmp);
        for (int i = 0; i < nn; i++) {
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            solve_data_file(path, names[i]);
            free(names[i]);
            count++;
        }
    }
    assert_true(count >= 20);
}

/* Options: the interior point alone (polish=none) solves a multibody coulomb2d problem to
 * 1e-10; every shift mode and factorisation solves a small rolling3d one; bad values are
 * refused naming the option. */
static void test_options(void **state)
{
    (void)state;
    cb_problem *mb = random_problem(CB_KIND_COULOMB2D, 40, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 5);
    cb_settings s0;
    cb_settings_default(&s0);
    s0.tol = TOL, s0.time_limit = 0;
    cbt_run_result r0 = cbt_run(&cb_solver_ipm, mb, &s0, NULL);
    print_message("  ipm alone, coulomb2d multibody: %s, %d iterations, error %.2e\n",
                  cb_status_name(r0.info.status), r0.info.iterations, r0.info.error);
    assert_true(r0.info.solved);
    cbt_run_free(&r0);
    cb_problem_free(mb);
    cb_problem *prob = random_problem(CB_KIND_ROLLING3D, 12, CB_GEN_SPD, CB_STORAGE_BSR, 5);
    const char *good[6][2] = {{"shift", "newton"}, {"shift", "each"}, {"shift", "outer"},
                              {"factor", "supernodal"}, {"ordering", "metis"},
                              {"ordering", "nesdis"}};
    for (int i = 0; i < 6; i++) {
        cb_option opt = {good[i][0], good[i][1]};
        cbt_run_result r = run_ipm(prob, &opt, 1);
        print_message("  %s=%s: %s, %d iterations, error %.2e\n", good[i][0], good[i][1],
                      cb_status_name(r.info.status), r.info.iterations, r.info.error);
        assert_true(r.info.solved);
        cbt_run_free(&r);
    }
    const char *bad[6][3] = {
        {"shift", "fast", "option shift: 'fast' is not newton, each or outer"},
        {"ordering", "rcm", "option ordering: 'rcm' is not auto, amd, metis or nesdis"},
        {"factor", "qr", "option factor: 'qr' is not auto, simplicial or supernodal"},
        {"polish", "nsn", "option polish: not an option of a phase of ipm+nsn"},
        {"prox", "-1", "option prox"},
        {"ipm.gmres_max", "-2", "option gmres_max"}};
    for (int i = 0; i < 6; i++) {
        cb_option opt = {bad[i][0], bad[i][1]};
        cbt_run_result r = run_ipm(prob, &opt, 1);
        assert_int_equal(r.rc, CB_ERR_INPUT);
        assert_int_equal(r.info.status, CB_STATUS_BAD_INPUT);
        assert_non_null(strstr(r.err.text, bad[i][2]));
        cbt_run_free(&r);
    }
    cb_problem_free(prob);
}

/* The ordering changes the factor's fill, not the answer: ipm+nsn on an SPD rolling3d problem
 * (unique solution) with the AMD, METIS and NESDIS orderings, simplicial and supernodal: each
 * judged solved, the reactions equal to 1e-6 (relative). */
static void test_orderings_same_solution(void **state)
{
    (void)state;
    cb_problem *prob = random_problem(CB_KIND_ROLLING3D, 60, CB_GEN_SPD, CB_STORAGE_BSR, 9);
    const char *order[3][2] = {{"amd", "simplicial"}, {"metis", "simplicial"},
                               {"nesdis", "supernodal"}};
    cbt_run_result r[3];
    for (int i = 0; i < 3; i++) {
        cb_option opt[2] = {{"ordering", order[i][0]}, {"factor", order[i][1]}};
        r[i] = run_ipm(prob, opt, 2);
        print_message("  ordering=%s factor=%s: %s, %d iterations, error %.2e\n", order[i][0],
                      order[i][1], cb_status_name(r[i].info.status), r[i].info.iterations,
                      r[i].info.error);
        assert_true(r[i].info.solved);
    }
    for (int i = 1; i < 3; i++)
        assert_true(cbt_vec_reldiff(r[i].p, r[0].p, cb_problem_n(prob), 1e-12) <= 1e-6);
    for (int i = 0; i < 3; i++)
        cbt_run_free(&r[i]);
    cb_problem_free(prob);
}

/* ipm on the rank-deficient multibody problem rolling3d nc = 500 seed 3 (two contacts can push
 * against each other without changing any velocity, so the solutions form an unbounded set)
 * with the options opt (what: their name in the message), at most 300 iterations: judged solved
 * to 1e-8 with ‖e‖/‖q‖ ≤ 1e-8 as well. Skipped when quick. */
static void assert_multibody_solved(const cb_option *opt, int nopt, const char *what)
{
    if (cbt_quick())
        skip();
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = CB_KIND_ROLLING3D, g.nc = 500, g.seed = 3;
    cb_problem *prob = NULL;
    assert_int_equal(cb_generate_random(&g, &prob, NULL, NULL, NULL), CB_OK);
    cb_settings s;
    cb_settings_default(&s);
    s.tol = 1e-8, s.options = opt, s.noptions = nopt, s.time_limit = 0, s.max_iter = 300;
    cbt_run_result r = cbt_run(&cb_solver_ipm_nsn, prob, &s, NULL);
    print_message("  rolling3d nc=500 seed 3, %s: %s, %d iterations, error %.2e, error_q %.2e\n",
                  what, cb_status_name(r.info.status), r.info.iterations, r.info.error,
                  r.info.error_q);
    assert_true(r.info.solved);
    assert_true(r.info.error_q <= 1e-8);
    cbt_run_free(&r);
    cb_problem_free(prob);
}

/* With prox=1e-2 the iterate stays bounded (without it, and without the drift guard, p drifts
 * off along the null space). */
static void test_prox_bounded(void **state)
{
    (void)state;
    cb_option opt = {"prox", "1e-2"};
    assert_multibody_solved(&opt, 1, "prox=1e-2");
}

/* With the defaults (prox = 0) the interior point's iterate drifts along the null space (before
 * the drift guard existed: ‖p‖ = 4.6e7 after 29 iterations, measured); the guard stops it once
 * ‖p‖ passes 8 × its reference iterate's and the crossover (nsn) starts from that reference. */
static void test_drift_guard(void **state)
{
    (void)state;
    assert_multibody_solved(NULL, 0, "defaults");
}

/* The start point's normal reactions (start=contact) against their closed form from W's
 * diagonal blocks read here: ‖q‖∞ / max(W_nn, mean W_nn) at each contact, the same for the two
 * cones of a rolling contact. On a multibody rolling3d problem W_nn varies from contact to
 * contact, so the floor and the per-contact values both occur. */
static void test_start_point(void **state)
{
    (void)state;
    cb_problem *prob = random_problem(CB_KIND_ROLLING3D, 40, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 5);
    int d = prob->d, nc = prob->nc;
    double mean = 0.0, blk[CB_MAX_DIM * CB_MAX_DIM], tau[2 * 40];
    for (int a = 0; a < nc; a++) {
        cb_problem_diag_block(prob, a, blk);
        mean += blk[0] / nc;
    }
    ipm_cones c;
    assert_int_equal(ipm_cones_build(prob, &c), CB_OK);
    assert_int_equal(c.ncones, 2 * nc);
    ipm_start_reactions(prob, &c, 3.0, tau);
    double worst = 0.0;
    int floored = 0;
    for (int j = 0; j < c.ncones; j++) {
        cb_problem_diag_block(prob, c.contact[j], blk);
        assert_int_equal(c.comp[j][0], c.contact[j] * d);
        double want = 3.0 / fmax(blk[0], mean);
        worst = fmax(worst, fabs(tau[j] - want) / want);
        floored += blk[0] < mean;
    }
    print_message("  start reactions against the closed form: %.1e (%d of %d cones floored)\n",
                  worst, floored, c.ncones);
    assert_true(worst <= 1e-14);
    assert_true(floored > 0 && floored < c.ncones);
    ipm_cones_free(&c);
    cb_problem_free(prob);
}

/* Below IPM's large-problem threshold (2 000 contacts) the automatic ordering and factor are
 * AMD and the simplicial LDLᵀ (no BLAS): the same bits as asking for them. */
static void test_auto_factor_small(void **state)
{
    (void)state;
    cb_problem *prob = random_problem(CB_KIND_COULOMB3D, 300, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 4);
    cb_option fixed[2] = {{"ordering", "amd"}, {"factor", "simplicial"}};
    cbt_run_result a = run_ipm(prob, NULL, 0), b = run_ipm(prob, fixed, 2);
    print_message("  coulomb3d nc=300: auto %s in %d iterations, amd/simplicial %d\n",
                  cb_status_name(a.info.status), a.info.iterations, b.info.iterations);
    assert_true(a.info.solved);
    assert_int_equal(a.info.iterations, b.info.iterations);
    assert_memory_equal(a.p, b.p, cb_problem_n(prob) * sizeof(double));
    cbt_run_free(&a), cbt_run_free(&b);
    cb_problem_free(prob);
}

/* ipm alone with form=F (and shift=each, at most max_iter iterations when max_iter > 0). */
static cbt_run_result run_form(const cb_problem *prob, const char *form, int max_iter)
{
    cb_option opt[2] = {{"form", form}, {"shift", "each"}};
    cb_settings s;
    cb_settings_default(&s);
    s.tol = max_iter > 0 ? 1e-300 : TOL, s.time_limit = 0;
    s.options = opt, s.noptions = max_iter > 0 ? 2 : 1;
    if (max_iter > 0)
        s.max_iter = max_iter;
    return cbt_run(&cb_solver_ipm, prob, &s, NULL);
}

/* The global form (W = Hᵀ M⁻¹ H never formed): the condensed problem keeps (M, H, f, w); with a
 * symmetric M the interior point takes the same steps on it as on the condensed W (shift=each,
 * 8 iterations: iterates equal to 1e-9, independent arithmetic: the augmented system against a
 * Cholesky of S + D); form=global solves coulomb3d and rolling3d problems, symmetric M
 * (CHOLMOD) or not (KLU), to 1e-10, on the unique solution of the local form where W is
 * definite (coulomb3d: n = 36 < 48 velocities in contact); form=auto takes the global form
 * when it has no more velocities than unknowns (12 ≤ 36: the same bits as form=global);
 * form=global without a global form is refused. */
static void test_global_form(void **state)
{
    (void)state;
    const cb_kind kinds[2] = {CB_KIND_COULOMB3D, CB_KIND_ROLLING3D};
    for (int t = 0; t < 4; t++) {
        double skew = t >= 2 ? 0.05 : 0.0;
        cb_problem *prob = cbt_global_problem(kinds[t % 2], 8, 10, 12, skew, 40 + t);
        assert_non_null(prob->global);
        assert_int_equal(prob->global->ndof, 58);
        assert_int_equal(prob->global->M.nnz, 36 * 8 + 10);
        size_t n = cb_problem_n(prob);
        if (skew == 0.0) {
            cbt_run_result a = run_form(prob, "global", 8), b = run_form(prob, "local", 8);
            double diff = cbt_vec_reldiff(a.p, b.p, n, 1e-12);
            print_message("  %s, 8 iterations: global and local iterates differ by %.1e\n",
                          cb_kind_name(prob->kind), diff);
            assert_int_equal(a.info.iterations, 8);
            assert_true(diff <= 1e-9);
            cbt_run_free(&a), cbt_run_free(&b);
        }
        cbt_run_result g = run_ipm(prob, (cb_option[]){{"form", "global"}}, 1);
        cbt_run_result l = run_ipm(prob, (cb_option[]){{"form", "local"}}, 1);
        double diff = cbt_vec_reldiff(g.p, l.p, n, 1e-12);
        print_message("  %s, %s M: global %s in %d iterations (error %.1e), local %s (%.1e); "
                      "|p_g - p_l| %.1e\n", cb_kind_name(prob->kind), skew ? "skew" : "symmetric",
                      cb_status_name(g.info.status), g.info.iterations, g.info.error,
                      cb_status_name(l.info.status), l.info.error, diff);
        assert_true(g.info.solved);
        assert_true(g.info.error <= TOL);
        assert_true(l.info.solved);
        if (prob->kind == CB_KIND_COULOMB3D)
            assert_true(diff <= 1e-7);
        cbt_run_free(&g), cbt_run_free(&l);
        cb_problem_free(prob);
    }
    cb_problem *few = cbt_global_problem(CB_KIND_COULOMB3D, 2, 0, 12, 0.0, 60); /* 12 ≤ 36 */
    cbt_run_result au = run_form(few, "auto", 8), gl = run_form(few, "global", 8);
    assert_memory_equal(au.p, gl.p, cb_problem_n(few) * sizeof(double)); /* auto took global */
    cbt_run_free(&au), cbt_run_free(&gl);
    cb_problem_free(few);
    cb_problem *plain = random_problem(CB_KIND_COULOMB3D, 10, CB_GEN_SPD, CB_STORAGE_DENSE, 5);
    cbt_run_result r = run_ipm(plain, (cb_option[]){{"form", "global"}}, 1);
    assert_int_equal(r.rc, CB_ERR_INPUT);
    assert_non_null(strstr(r.err.text, "has no global form"));
    cbt_run_free(&r);
    cb_problem_free(plain);
}

/* The global form survives a copy, a storage conversion and a pack/unpack (what a child
 * process receives) bit for bit; bytes cut short are refused. */
static void test_global_form_copies(void **state)
{
    (void)state;
    cb_problem *prob = cbt_global_problem(CB_KIND_ROLLING3D, 3, 2, 4, 0.0, 7), *c = NULL, *u = NULL;
    const cb_global_form *g = prob->global;
    assert_int_equal(cb_problem_to_bsr(prob, &c, NULL), CB_OK);
    char *buf = NULL;
    size_t len = 0, used = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(cb_problem_pack(f, c, NULL), CB_OK);
    fclose(f);
    assert_int_equal(cb_problem_unpack(buf, len, &u, &used, NULL), CB_OK);
    assert_int_equal((int)used, (int)len);
    const cb_problem *both[2] = {c, u};
    for (int k = 0; k < 2; k++) {
        const cb_global_form *h = both[k]->global;
        assert_non_null(h);
        assert_int_equal(h->ndof, g->ndof);
        assert_int_equal(h->M.nnz, g->M.nnz);
        assert_int_equal(h->H.nnz, g->H.nnz);
        assert_memory_equal(h->M.x, g->M.x, g->M.nnz * sizeof(double));
        assert_memory_equal(h->H.i, g->H.i, g->H.nnz * sizeof(int));
        assert_memory_equal(h->H.j, g->H.j, g->H.nnz * sizeof(int));
        assert_memory_equal(h->f, g->f, g->ndof * sizeof(double));
        assert_memory_equal(h->w, g->w, cb_problem_n(prob) * sizeof(double));
    }
    cb_problem *v = NULL;
    assert_int_equal(cb_problem_unpack(buf, len - 8, &v, &used, NULL), CB_ERR_INPUT);
    assert_null(v);
    free(buf);
    cb_problem_free(u), cb_problem_free(c), cb_problem_free(prob);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nt_scaling),      cmocka_unit_test(test_jordan_and_step),
        cmocka_unit_test(test_known_solutions), cmocka_unit_test(test_factored),
        cmocka_unit_test(test_singular_W),
        cmocka_unit_test(test_data_files),      cmocka_unit_test(test_options),
        cmocka_unit_test(test_orderings_same_solution),
        cmocka_unit_test(test_prox_bounded),    cmocka_unit_test(test_drift_guard),
        cmocka_unit_test(test_global_form),
        cmocka_unit_test(test_global_form_copies),
        cmocka_unit_test(test_start_point),     cmocka_unit_test(test_auto_factor_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
