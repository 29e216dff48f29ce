/* conebench tests — `nsn`, the semismooth Newton solver: its generalised Jacobian H against
 * finite differences of the natural map F (every kind, both formulations), the judged solution
 * of known-solution problems of every kind and storage, local superlinear convergence on
 * problems of three kinds, a singular W (two contacts with identical rows) solved, the smoothed
 * map (its Jacobian, its distance to F), rank-deficient multibody problems solved. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conebench/cone.h"
#include "conebench/generate.h"
#include "conebench/io.h"
#include "rng.h"
#include "nsn_internal.h"

static cb_problem *random_problem(cb_kind kind, int nc, cb_gen_matrix m, uint64_t seed,
                                  cb_storage st, double **pstar)
{
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = kind, g.nc = nc, g.matrix = m, g.seed = seed, g.storage = st;
    cb_problem *p = NULL;
    cb_error err = {{0}};
    if (cb_generate_random(&g, &p, pstar, NULL, &err) != CB_OK)
        fail_msg("generate: %s", err.text);
    return p;
}

/* F at p (ρ = rho for every contact; Alart–Curnier's map when ac > 0, smoothed with ε = eps
 * when eps > 0) into F. */
static void eval_F(const cb_problem *prob, const double *rho, int ac, double eps, const double *p,
                   double *F, double *y, double *IJ, double *A, double *z)
{
    nsn_system sys = {prob, prob->nc, prob->d, cb_problem_n(prob), rho, F, IJ, A, z, ac, eps};
    cb_work cnt = {0};
    cb_problem_y(prob, p, y);
    assert_int_equal(nsn_system_eval(&sys, p, y, &cnt), 1);
}

/* H v against (F(p + h v) − F(p − h v)) / 2h at random p of every kind, ρ = 1 and ρ = 0.3:
 * the worst relative difference over points whose central difference is smooth (the two
 * one-sided differences agree) must be below 1e-5. The smoothed Alart–Curnier map F_ε
 * (ε = 0.05) is smooth everywhere: every one of its points must pass. */
static void test_jacobian_fd(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 3);
    for (int k = 0; k < CB_KIND_COUNT; k++)
        for (int f = 0; f < 4; f++) { /* natural ρ = 1, natural ρ = 0.3, ac ρ = 0.3, ac ε */
            cb_problem *prob = random_problem((cb_kind)k, 6, CB_GEN_SPD, 4, CB_STORAGE_BSR, NULL);
            size_t n = cb_problem_n(prob), dd = (size_t)prob->d * prob->d;
            double *rho = malloc(prob->nc * sizeof *rho), *buf = calloc(12 * n + 4 * prob->nc * dd, sizeof *buf);
            double *p = buf, *v = p + n, *F = v + n, *Fp = F + n, *Fm = Fp + n, *y = Fm + n,
                   *z = y + n, *Hv = z + n, *pp = Hv + n, *s = pp + n, *IJ = s + n, *A = IJ + prob->nc * dd;
            double *IJ2 = A + prob->nc * dd, *A2 = IJ2 + prob->nc * dd;
            for (int a = 0; a < prob->nc; a++)
                rho[a] = f ? 0.3 : 1.0;
            int ac = f >= 2;
            double eps = f == 3 ? 0.05 : 0.0;
            double worst = 0;
            int checked = 0;
            for (int t = 0; t < 200; t++) {
                for (size_t i = 0; i < n; i++)
                    p[i] = cb_rng_normal(&r), v[i] = cb_rng_normal(&r);
                eval_F(prob, rho, ac, eps, p, F, y, IJ, A, z);
                nsn_system sys = {prob, prob->nc, prob->d, n, rho, F, IJ, A, z, ac, eps};
                cb_work cnt = {0};
                nsn_system_apply(&sys, 0.0, v, Hv, s, &cnt);
                double h = 1e-7, e1 = 0, e2 = 0, nrm = 0;
                for (size_t i = 0; i < n; i++)
                    pp[i] = p[i] + h * v[i];
                eval_F(prob, rho, ac, eps, pp, Fp, y, IJ2, A2, z); /* blocks not needed */
                for (size_t i = 0; i < n; i++)
                    pp[i] = p[i] - h * v[i];
                eval_F(prob, rho, ac, eps, pp, Fm, y, IJ2, A2, z);
                for (size_t i = 0; i < n; i++) {
                    double fwd = (Fp[i] - F[i]) / h, bwd = (F[i] - Fm[i]) / h;
                    e1 = fmax(e1, fabs(fwd - bwd));
                    e2 = fmax(e2, fabs(0.5 * (fwd + bwd) - Hv[i]));
                    nrm = fmax(nrm, fabs(Hv[i]));
                }
                if (e1 > 1e-4 * (1 + nrm)) /* a kink between p − h v and p + h v */
                    continue;
                checked++;
                worst = fmax(worst, e2 / (1 + nrm));
            }
            print_message("  %-10s %-11s rho=%s: %d smooth points, worst |Hv - fd| %.2e\n",
                          cb_kind_name((cb_kind)k), f == 3 ? "ac eps=0.05" : ac ? "ac" : "natural",
                          f ? "0.3" : "1", checked, worst);
            assert_true(checked > (f == 3 ? 199 : 50));
            assert_true(worst < 1e-5);
            free(rho), free(buf);
            cb_problem_free(prob);
        }
}

/* The smoothed map is uniformly close to the map: |ν_ε − max(0, x₀)| ≤ ε, and each disk
 * block moves by at most ε (the smoothed max(R, ‖z‖)) plus μ_i ε (its radius, the projection
 * being 1-Lipschitz in R), so ‖F_ε − F‖∞ ≤ (1 + max μ_i) ε at random points of every kind. */
static void test_smoothing_bound(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 8);
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        cb_problem *prob = random_problem((cb_kind)k, 6, CB_GEN_SPD, 9, CB_STORAGE_BSR, NULL);
        size_t n = cb_problem_n(prob), dd = (size_t)prob->d * prob->d;
        double *rho = malloc(prob->nc * sizeof *rho);
        double *buf = calloc(5 * n + 2 * prob->nc * dd, sizeof *buf);
        double *p = buf, *F = p + n, *Fe = F + n, *y = Fe + n, *z = y + n, *IJ = z + n,
               *A = IJ + prob->nc * dd, mu = 0.0, worst = 0.0;
        for (int a = 0; a < prob->nc; a++) { /* the largest disk radius factor μ_i */
            cb_friction fr;
            cb_disk_cone c;
            cb_problem_friction(prob, a, &fr);
            cb_disk_cone_of(prob->kind, &fr, &c);
            rho[a] = 0.3;
            for (int i = 0; i < c.nblocks; i++)
                mu = fmax(mu, c.mu[i]);
        }
        for (int t = 0; t < 100; t++)
            for (int e = 1; e <= 6; e += 5) {
                double eps = pow(10.0, -e);
                for (size_t i = 0; i < n; i++)
                    p[i] = cb_rng_normal(&r);
                eval_F(prob, rho, 1, 0.0, p, F, y, IJ, A, z);
                eval_F(prob, rho, 1, eps, p, Fe, y, IJ, A, z);
                for (size_t i = 0; i < n; i++)
                    worst = fmax(worst, fabs(Fe[i] - F[i]) / ((1.0 + mu) * eps));
            }
        print_message("  %-10s max |F_eps - F| / ((1 + mu) eps) = %.3f\n", cb_kind_name((cb_kind)k),
                      worst);
        assert_true(worst <= 1.0 + 1e-9);
        assert_true(worst > 0.0);
        free(rho), free(buf);
        cb_problem_free(prob);
    }
}

/* solver (nsn, or nsn+nsgs: nsn with its nsgs safeguard) with formulation f (NULL: the
 * default) and linear solver lin (NULL: auto), tolerance tol, a trace; from p = 0. */
static cbt_run_result run_nsn_with(const cb_problem *prob, const char *solver, const char *f,
                                   const char *lin, double tol, int max_iter)
{
    cb_settings s;
    cb_settings_default(&s);
    cb_option opt[2];
    int n = 0;
    if (f)
        opt[n++] = (cb_option){"formulation", f};
    if (lin)
        opt[n++] = (cb_option){"linear", lin};
    s.tol = tol, s.max_iter = max_iter, s.trace = 1, s.time_limit = 60;
    s.options = n ? opt : NULL, s.noptions = n;
    return cbt_run(cb_solver_find(solver), prob, &s, NULL);
}

/* nsn+nsgs (the harder problems need its safeguard). */
static cbt_run_result run_nsn(const cb_problem *prob, const char *f, double tol, int max_iter)
{
    return run_nsn_with(prob, "nsn+nsgs", f, NULL, tol, max_iter);
}

/* Known-solution problems of every kind, dense and BSR storage, the sparse LU and the
 * matrix-free GMRES: plain nsn (no nsgs) judged solved to 1e-10 with both formulations. */
static void test_known_solutions(void **state)
{
    (void)state;
    const cb_storage st[] = {CB_STORAGE_DENSE, CB_STORAGE_BSR, CB_STORAGE_BSR};
    const char *lin[] = {"klu", "klu", "gmres"};
    const char *forms[] = {"ac", "natural"};
    for (int k = 0; k < CB_KIND_COUNT; k++)
        for (int t = 0; t < 3; t++)
            for (int f = 0; f < 2; f++) {
                cb_problem *prob = random_problem((cb_kind)k, 30, CB_GEN_SPD, 11 + t, st[t], NULL);
                cbt_run_result r = run_nsn_with(prob, "nsn", forms[f], lin[t], 1e-10, 200);
                print_message("  %-10s %-5s %-5s %-7s: %s after %d steps, error %.2e\n",
                              cb_kind_name((cb_kind)k), t ? "bsr" : "dense", lin[t], forms[f],
                              cb_status_name(r.info.status), r.info.iterations, r.info.error);
                assert_int_equal(r.rc, CB_OK);
                assert_true(r.info.solved);
                assert_true(r.info.error <= 1e-10);
                cbt_run_free(&r);
                cb_problem_free(prob);
            }
}

/* The files of the Siconos test set: judged error ≤ 1e-10 with both formulations, and Siconos'
 * own error of the same p agrees (≤ 1e-9) where Siconos computes one (coulomb3d, rolling3d). */
static void test_siconos_data(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    static const char *files[] = {
        "fc3d/BoxesStack-local_problem_test.hdf5", "fc3d/BoxesStack1-i100000-32.hdf5.dat",
        "fc3d/Capsules-i100-1090.dat", "fc3d/Capsules-i125-1213.hdf5",
        "fc3d/Confeti-ex13-4contact-Fc3D-SBM.dat", "fc3d/FC3D_Example1.dat",
        "fc3d/FrictionContact3D_1c.dat", "fc3d/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5",
        "fc3d/NESpheres_10_1.dat", "fc3d/OneObject-i1028-138.hdf5.dat", "fc3d/Rover1039.dat",
        "fc3d/Rover4396.dat", "fc3d/Spheres-i099-356-679.hdf5",
        "rolling/Chute-ndof-768-nc-4-3.hdf5", "rolling/RFC3D_cube_1.dat",
        "rolling/RFC3D_sphere_1.dat", "rolling/RFC3D_sphere_2.dat",
        "rolling/rockfall_14_25792.dat"};
    const char *forms[] = {"ac", "natural"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        const char *path = cbt_data_path(files[i]);
        cb_problem *prob = NULL;
        cb_error err = {{0}};
        if (access(path, R_OK) != 0) {
            print_message("  %s: absent, skipped\n", files[i]);
            continue;
        }
        assert_int_equal(cb_read_problem(path, NULL, &prob, &err), CB_OK);
        for (int f = 0; f < 2; f++) {
            cbt_run_result r = run_nsn(prob, forms[f], 1e-10, 500);
            double se = cbt_siconos_error(prob, r.p, 1e-10);
            print_message("  %-45s %-7s %3d steps, error %.2e, Siconos %.2e\n", files[i],
                          forms[f], r.info.iterations, r.info.error, se);
            assert_true(r.info.solved);
            assert_true(r.info.error <= 1e-10);
            assert_true(isnan(se) || se <= 1e-9);
            cbt_run_free(&r);
        }
        cb_problem_free(prob);
    }
}

/* The tail of a converged run: over its last two steps that start above 1e-14 (rounding),
 * error_{k+1} ≤ max(C error_k^1.5, 1e-13) (1e-13: the rounding floor of the judged error);
 * both steps start below 1e-2 (the local regime). */
static void assert_superlinear_tail(const cb_info *info, double C)
{
    int seen = 0;
    for (int k = info->ntrace - 2; k >= 0 && seen < 2; k--) {
        double e = info->trace[k].error, e1 = info->trace[k + 1].error;
        if (e < 1e-14)
            continue;
        double bound = fmax(C * pow(e, 1.5), 1e-13);
        print_message("    step %d: %.3e -> %.3e (bound %.3e)\n", info->trace[k + 1].iteration,
                      e, e1, bound);
        assert_true(e < 1e-2);
        assert_true(e1 <= bound);
        seen++;
    }
    assert_int_equal(seen, 2);
}

/* Local superlinear convergence on problems of four kinds: a coulomb3d stack of boxes (Siconos
 * data, when present) and generated rolling3d, rollspin3d and rolling2d problems (always). The
 * rockfall file is left out: its tail below 1e-9 is at the rounding floor of its data. */
static void test_superlinear(void **state)
{
    (void)state;
    const char *files[] = {"fc3d/BoxesStack-local_problem_test.hdf5"};
    for (int i = 0; i < 1 && cbt_data_dir(); i++) {
        cb_problem *prob = NULL;
        cb_error err = {{0}};
        assert_int_equal(cb_read_problem(cbt_data_path(files[i]), NULL, &prob, &err), CB_OK);
        cbt_run_result r = run_nsn(prob, NULL, 1e-13, 500);
        print_message("  %s: %s after %d steps\n", files[i], cb_status_name(r.info.status),
                      r.info.iterations);
        assert_true(r.info.solved);
        assert_superlinear_tail(&r.info, 100.0);
        cbt_run_free(&r);
        cb_problem_free(prob);
    }
    const cb_kind kinds[] = {CB_KIND_ROLLING3D, CB_KIND_ROLLSPIN3D, CB_KIND_ROLLING2D};
    for (int i = 0; i < 3; i++) {
        cb_problem *prob = random_problem(kinds[i], 100, CB_GEN_SPD, 5, CB_STORAGE_BSR, NULL);
        cbt_run_result r = run_nsn(prob, NULL, 1e-13, 200);
        print_message("  %s nc=100: %s after %d steps\n", cb_kind_name(kinds[i]),
                      cb_status_name(r.info.status), r.info.iterations);
        assert_true(r.info.solved);
        assert_superlinear_tail(&r.info, 100.0);
        cbt_run_free(&r);
        cb_problem_free(prob);
    }
}

/* A singular W: contact nc−1 repeats contact 0 (same rows and columns of W, same q and μ), as
 * two contacts between the same pair of bodies at one point would. The reaction is not unique
 * (only p_0 + p_last is); plain nsn must still reach a judged solution, with both formulations. */
static void test_singular_w(void **state)
{
    (void)state;
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        cb_problem *base = random_problem((cb_kind)k, 8, CB_GEN_SPD, 21, CB_STORAGE_DENSE, NULL);
        cb_problem *prob = NULL;
        cb_error err = {{0}};
        int nc = base->nc + 1, d = base->d;
        size_t n0 = cb_problem_n(base), n = (size_t)nc * d;
        assert_int_equal(cb_problem_alloc(base->kind, nc, CB_STORAGE_DENSE, 0, &prob, &err), CB_OK);
        for (size_t j = 0; j < n; j++) /* index map: the last contact's rows are contact 0's */
            for (size_t i = 0; i < n; i++) {
                size_t bi = i < n0 ? i : i - n0, bj = j < n0 ? j : j - n0;
                prob->W[i + j * n] = base->W[bi + bj * n0];
            }
        for (size_t i = 0; i < n; i++)
            prob->q[i] = base->q[i < n0 ? i : i - n0];
        for (int a = 0; a < nc; a++) {
            int b = a < base->nc ? a : 0;
            prob->mu[a] = base->mu[b], prob->mu_r[a] = base->mu_r[b], prob->mu_s[a] = base->mu_s[b];
        }
        assert_int_equal(cb_problem_check(prob, &err), CB_OK);
        for (int f = 0; f < 2; f++) {
            cbt_run_result r = run_nsn_with(prob, "nsn", f ? "natural" : "ac", NULL, 1e-10, 300);
            print_message("  %-10s %s: %s after %d steps, error %.2e\n", cb_kind_name((cb_kind)k),
                          f ? "natural" : "ac", cb_status_name(r.info.status), r.info.iterations,
                          r.info.error);
            assert_true(r.info.solved);
            cbt_run_free(&r);
        }
        cb_problem_free(prob), cb_problem_free(base);
    }
}

/* Rank-deficient random multibody problems (the generator's default W = Hᵀ M⁻¹ H, ⌈2nc/3⌉
 * bodies, many contacts per body). Without the smoothing phase (smoothing=off) coulomb3d nc 100
 * seed 3, rolling3d nc 250 seed 1 and rolling3d nc 500 seed 3 end at 3.9e-6, 1.2e-4 and 7.7e-5
 * after 200 steps (measured). With the defaults each case is judged solved to 1e-8 within 200
 * Newton steps: in the smoothing phase, or by the restart where p drifts (rolling3d nc 300
 * seed 1 and rollspin3d nc 250 seed 1, after 25 and 33 steps). nc 500 is skipped when quick. */
static void test_multibody_hard(void **state)
{
    (void)state;
    const struct { cb_kind kind; int nc; uint64_t seed; } cases[] = {
        {CB_KIND_COULOMB3D, 100, 3}, {CB_KIND_ROLLING3D, 250, 1}, {CB_KIND_ROLLING3D, 300, 1},
        {CB_KIND_ROLLSPIN3D, 250, 1}, {CB_KIND_ROLLING3D, 500, 3}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (cases[i].nc > 300 && cbt_quick())
            continue;
        cb_problem *prob = random_problem(cases[i].kind, cases[i].nc, CB_GEN_MULTIBODY,
                                          cases[i].seed, CB_STORAGE_BSR, NULL);
        cbt_run_result r = run_nsn(prob, NULL, 1e-8, 200);
        print_message("  %-10s nc=%d seed %d: %s after %d steps, error %.2e, error_q %.2e\n",
                      cb_kind_name(cases[i].kind), cases[i].nc, (int)cases[i].seed,
                      cb_status_name(r.info.status), r.info.iterations, r.info.error,
                      r.info.error_q);
        assert_true(r.info.solved);
        assert_true(r.info.error <= 1e-8 && r.info.error_q <= 1e-8);
        cbt_run_free(&r);
        cb_problem_free(prob);
    }
}

/* A 3D grid of g³ contacts (coulomb3d), W = 7 I on the diagonal blocks and −I between grid
 * neighbours (symmetric, diagonally dominant: positive definite), as BSR. */
static cb_problem *grid_problem(int g)
{
    int nc = g * g * g, nnzb = 0;
    cb_problem *prob = NULL;
    assert_int_equal(cb_problem_alloc(CB_KIND_COULOMB3D, nc, CB_STORAGE_BSR, 7 * nc, &prob,
                                      NULL), CB_OK);
    for (int a = 0; a < nc; a++) {
        int x = a % g, y = a / g % g, z = a / (g * g);
        const int nb[7][3] = {{0, 0, -1}, {0, -1, 0}, {-1, 0, 0}, {0, 0, 0},
                              {1, 0, 0},  {0, 1, 0},  {0, 0, 1}}; /* increasing column */
        for (int k = 0; k < 7; k++) {
            int xx = x + nb[k][0], yy = y + nb[k][1], zz = z + nb[k][2];
            if (xx < 0 || yy < 0 || zz < 0 || xx >= g || yy >= g || zz >= g)
                continue;
            prob->bsr.col[nnzb] = xx + g * (yy + g * zz);
            for (int i = 0; i < 3; i++)
                prob->bsr.val[(size_t)nnzb * 9 + i * 4] = k == 3 ? 7.0 : -1.0;
            nnzb++;
        }
        prob->bsr.row_ptr[a + 1] = nnzb;
        prob->mu[a] = 0.5;
    }
    prob->bsr.nnzb = nnzb;
    return prob;
}

/* The direct solver on a contact graph with small separators and nc ≥ NSN_ND_MIN_NC (a 14³
 * grid: its analysis compares AMD with METIS nested dissection and takes the one with less
 * fill): with A_α = I and I − J_α = 0 the system is (W + λ I) x = b, and the solution satisfies
 * it to 1e-12 relative, checked with the W product. */
static void test_direct_large_graph(void **state)
{
    (void)state;
    cb_problem *prob = grid_problem(14);
    assert_int_equal(cb_problem_check(prob, NULL), CB_OK);
    size_t n = cb_problem_n(prob), dd = 9;
    double *buf = calloc(5 * n + 2 * prob->nc * dd + prob->nc, sizeof *buf), lambda = 0.5;
    double *b = buf, *x = b + n, *r = x + n, *F = r + n, *z = F + n, *IJ = z + n;
    double *A = IJ + prob->nc * dd, *rho = A + prob->nc * dd;
    cb_rng rng;
    cb_rng_seed(&rng, 11);
    for (size_t i = 0; i < n; i++)
        x[i] = b[i] = cb_rng_normal(&rng);
    for (int a = 0; a < prob->nc; a++)
        for (int i = 0; i < 3; i++)
            A[(size_t)a * dd + i * 4] = 1.0, rho[a] = 1.0;
    nsn_system sys = {prob, prob->nc, prob->d, n, rho, F, IJ, A, z, 0, 0.0};
    nsn_direct *s = NULL;
    cb_work cnt = {0};
    assert_int_equal(nsn_direct_new(prob, &s, NULL), CB_OK);
    assert_int_equal(nsn_direct_factor(s, &sys, lambda, &cnt), 0);
    assert_int_equal(nsn_direct_solve(s, x), CB_OK);
    cb_problem_Wp(prob, x, r);
    double rn = 0, bn = 0;
    for (size_t i = 0; i < n; i++)
        r[i] += lambda * x[i] - b[i], rn += r[i] * r[i], bn += b[i] * b[i];
    print_message("  14^3 grid (nc = %d): |(W + lambda I) x - b| / |b| = %.1e\n", prob->nc,
                  sqrt(rn / bn));
    assert_true(sqrt(rn / bn) <= 1e-12);
    nsn_direct_free(s);
    free(buf);
    cb_problem_free(prob);
}

/* KLU's estimate of a factorisation's flops per entry (nsn_direct_flops_per_entry, linear=auto's
 * trial rule) against the closed form on a block-diagonal W of dense d×d blocks (rolling3d,
 * d = 5, n > the dense backend's 100 rows): KLU's BTF keeps each block apart, AMD orders it, and
 * an LU of a dense m×m block takes m(m−1)/2 divisions and (m−1)m(2m−1)/6 multiply–subtract
 * pairs, 2 flops each: 70 flops for m = 5, over the block's 25 entries. (KLU orders blocks of
 * 3×3 or less naturally and counts a pair as one flop there: d = 3 would give 8/9.) */
static void test_direct_flops_estimate(void **state)
{
    (void)state;
    int nc = 40, d = 5;
    cb_problem *prob = NULL;
    assert_int_equal(cb_problem_alloc(CB_KIND_ROLLING3D, nc, CB_STORAGE_BSR, nc, &prob, NULL),
                     CB_OK);
    for (int a = 0; a < nc; a++) {
        prob->bsr.col[a] = a, prob->bsr.row_ptr[a + 1] = a + 1;
        prob->mu[a] = 0.5, prob->mu_r[a] = 0.1;
        for (int k = 0; k < d * d; k++)
            prob->bsr.val[(size_t)a * d * d + k] = k % (d + 1) == 0 ? 4.0 + a : 1.0;
    }
    prob->bsr.nnzb = nc;
    assert_int_equal(cb_problem_check(prob, NULL), CB_OK);
    nsn_direct *s = NULL;
    assert_int_equal(nsn_direct_new(prob, &s, NULL), CB_OK);
    double m = d, lu = m * (m - 1) / 2 + 2 * (m - 1) * m * (2 * m - 1) / 6;
    double got = nsn_direct_flops_per_entry(s);
    print_message("  block-diagonal W, nc = %d: %.6g flops per entry (closed form %.6g)\n", nc,
                  got, lu / (m * m));
    assert_true(fabs(got - lu / (m * m)) <= 1e-12 * lu);
    nsn_direct_free(s);
    cb_problem_free(prob);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jacobian_fd),     cmocka_unit_test(test_smoothing_bound),
        cmocka_unit_test(test_known_solutions),
        cmocka_unit_test(test_siconos_data),    cmocka_unit_test(test_superlinear),
        cmocka_unit_test(test_singular_w),      cmocka_unit_test(test_multibody_hard),
        cmocka_unit_test(test_direct_large_graph), cmocka_unit_test(test_direct_flops_estimate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
