/* conebench tests — `nsn`'s small path (nsn_small.c, problems of at most NSN_SMALL_NC contacts):
 * one-contact problems with a diagonal W whose solutions are known in closed form (separating,
 * sticking, sliding in 2D and 3D, rolling with the rolling moment saturated; with W_TT
 * anisotropic, which nsn solves by Newton steps), and random small problems of every kind, dense
 * and BSR, coupled and block-diagonal, judged solved by the judge at the solver's tolerance. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/cone.h"
#include "conebench/generate.h"
#include "conebench/judge.h"
#include "nsn_internal.h"
#include "rng.h"

#define TOL 1e-10

/* A one-contact problem of `kind` with W = diag(w), q and μ's given. */
static cb_problem *one_contact(cb_kind kind, const double *w, const double *q, double mu,
                               double mu_r)
{
    cb_problem *p = NULL;
    assert_int_equal(cb_problem_alloc(kind, 1, CB_STORAGE_DENSE, 0, &p, NULL), CB_OK);
    for (int i = 0; i < p->d; i++)
        p->W[i + i * p->d] = w[i], p->q[i] = q[i];
    p->mu[0] = mu, p->mu_r[0] = mu_r;
    return p;
}

/* nsn with its defaults from p = 0 on prob at TOL into sol, info (allocated here): converged. */
static void solve_converged(const cb_problem *prob, cb_solution *sol, cb_info *info)
{
    cb_settings s;
    cb_settings_default(&s);
    s.tol = TOL;
    cb_error err = {{0}};
    memset(info, 0, sizeof *info);
    assert_int_equal(cb_solution_alloc(prob, sol, NULL), CB_OK);
    assert_int_equal(cb_solve(cb_solver_find("nsn"), prob, &s, sol, info, &err), CB_OK);
    assert_int_equal(info->status, CB_STATUS_CONVERGED);
}

/* nsn from p = 0 on prob: converged, judged solved at TOL, and within 1e-7 (relative) of p*. */
static void expect_solution(const cb_problem *prob, const double *pstar, const char *what)
{
    cb_solution sol;
    cb_info info;
    cb_error err = {{0}};
    solve_converged(prob, &sol, &info);
    cb_judgement j;
    assert_int_equal(cb_judge(prob, sol.p, TOL, NULL, &j, &err), CB_OK);
    assert_true(j.solved);
    double diff = 0, nrm = 0;
    for (int i = 0; i < prob->d; i++)
        diff = fmax(diff, fabs(sol.p[i] - pstar[i])), nrm = fmax(nrm, fabs(pstar[i]));
    print_message("  %-28s %d steps, |p - p*| = %.1e\n", what, info.iterations, diff);
    assert_true(diff <= 1e-7 * (1.0 + nrm));
    cb_info_free(&info);
    cb_solution_free(&sol);
}

/* Coulomb 2D and 3D, W = diag(w_N, w_T…): q_N ≥ 0 separates (p = 0); q_N < 0 with
 * ‖q_T‖ ≤ w_T μ p_N sticks (p = −W⁻¹q, y = 0); with ‖q_T‖ > w_T μ p_N it slides: y_N = 0,
 * p_N = −q_N/w_N, p_T = −μ p_N q_T/‖q_T‖ (y_T = q_T + w_T p_T parallel to q_T, opposite p_T). */
static void test_coulomb_closed_form(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 29);
    for (int t = 0; t < 20; t++)
        for (int k = 0; k < 2; k++) {
            cb_kind kind = k ? CB_KIND_COULOMB3D : CB_KIND_COULOMB2D;
            int d = cb_kind_dim(kind);
            double wn = cb_rng_range(&r, 0.5, 4), wt = cb_rng_range(&r, 0.5, 4);
            double mu = cb_rng_range(&r, 0.1, 1.0), w[3] = {wn, wt, wt}, q[3], ps[3] = {0};
            double qt[2] = {cb_rng_normal(&r), d == 3 ? cb_rng_normal(&r) : 0.0};
            double nt = hypot(qt[0], qt[1]);
            /* separating */
            q[0] = cb_rng_range(&r, 0.1, 2), q[1] = qt[0], q[2] = qt[1];
            cb_problem *p = one_contact(kind, w, q, mu, 0);
            expect_solution(p, ps, d == 3 ? "coulomb3d separating" : "coulomb2d separating");
            cb_problem_free(p);
            /* sticking: p_N = −q_N/w_N with ‖q_T‖ = 0.5 w_T μ p_N */
            q[0] = -cb_rng_range(&r, 0.1, 2);
            ps[0] = -q[0] / wn;
            for (int i = 1; i < d; i++)
                q[i] = qt[i - 1] / nt * 0.5 * wt * mu * ps[0], ps[i] = -q[i] / wt;
            p = one_contact(kind, w, q, mu, 0);
            expect_solution(p, ps, d == 3 ? "coulomb3d sticking" : "coulomb2d sticking");
            cb_problem_free(p);
            /* sticking with W_TT anisotropic (no closed form in nsn: its Newton steps) */
            if (d == 3) {
                double wa[3] = {wn, wt, 2.5 * wt}, qa[3] = {q[0], q[1], 2.5 * q[2]};
                p = one_contact(kind, wa, qa, mu, 0);
                expect_solution(p, ps, "coulomb3d sticking, W_TT 1:2.5");
                cb_problem_free(p);
            }
            /* sliding: ‖q_T‖ = 3 w_T μ p_N */
            for (int i = 1; i < d; i++)
                q[i] = qt[i - 1] / nt * 3 * wt * mu * ps[0], ps[i] = -mu * ps[0] * qt[i - 1] / nt;
            p = one_contact(kind, w, q, mu, 0);
            expect_solution(p, ps, d == 3 ? "coulomb3d sliding" : "coulomb2d sliding");
            cb_problem_free(p);
        }
}

/* Rolling 3D (r_N, r_T, m_R), W = diag(w): sticking in r_T and the rolling moment saturated
 * (‖q_R‖ > w_R μ_r p_N): y_N = 0, y_T = 0, p_R = −μ_r p_N q_R/‖q_R‖, whose ŷ =
 * (μ_r ‖y_R‖, 0, y_R) is in the dual cone and orthogonal to p; and both inside (p = −W⁻¹q). */
static void test_rolling_closed_form(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 30);
    for (int t = 0; t < 20; t++) {
        double w[5], q[5], ps[5], mu = cb_rng_range(&r, 0.2, 1), mur = cb_rng_range(&r, 0.02, 0.2);
        for (int i = 0; i < 5; i++)
            w[i] = cb_rng_range(&r, 0.5, 4);
        w[4] = w[3]; /* isotropic in m_R: y_R stays parallel to q_R */
        double a = cb_rng_range(&r, 0, 2 * M_PI), b = cb_rng_range(&r, 0, 2 * M_PI);
        q[0] = -cb_rng_range(&r, 0.1, 2), ps[0] = -q[0] / w[0];
        for (int s = 0; s < 2; s++) {
            double fr = s ? 3.0 : 0.5; /* the rolling disk: saturated, then inside */
            q[1] = 0.5 * w[1] * mu * ps[0] * cos(a), q[2] = 0.5 * w[2] * mu * ps[0] * sin(a);
            ps[1] = -q[1] / w[1], ps[2] = -q[2] / w[2];
            double rr = fr * mur * ps[0];
            q[3] = rr * w[3] * cos(b), q[4] = rr * w[4] * sin(b);
            if (s) {
                double nq = hypot(q[3], q[4]);
                ps[3] = -mur * ps[0] * q[3] / nq, ps[4] = -mur * ps[0] * q[4] / nq;
            } else {
                ps[3] = -q[3] / w[3], ps[4] = -q[4] / w[4];
            }
            cb_problem *p = one_contact(CB_KIND_ROLLING3D, w, q, mu, mur);
            expect_solution(p, ps, s ? "rolling3d moment saturated" : "rolling3d sticking");
            cb_problem_free(p);
        }
    }
}

/* Random problems of every kind with 1 to NSN_SMALL_NC contacts, dense, BSR and dense with the
 * blocks between contacts zeroed (contact by contact in nsn): nsn's answer is
 * the judge's solution at the tolerance asked (1e-8). */
static void test_random_small_judged(void **state)
{
    (void)state;
    int runs = 0;
    for (int k = 0; k < CB_KIND_COUNT; k++)
        for (int nc = 1; nc <= NSN_SMALL_NC; nc += 3)
            for (int st = 0; st < 3; st++) { /* dense, BSR, dense block-diagonal */
                cb_random_settings g;
                cb_random_settings_default(&g);
                g.kind = (cb_kind)k, g.nc = nc, g.matrix = CB_GEN_SPD, g.seed = 100 + nc;
                g.storage = st == 1 ? CB_STORAGE_BSR : CB_STORAGE_DENSE;
                cb_problem *p = NULL;
                cb_error err = {{0}};
                assert_int_equal(cb_generate_random(&g, &p, NULL, NULL, &err), CB_OK);
                size_t n = cb_problem_n(p);
                for (size_t j = 0; st == 2 && j < n; j++) /* SPD blocks of an SPD W: SPD */
                    for (size_t i = 0; i < n; i++)
                        if (i / p->d != j / p->d)
                            p->W[i + j * n] = 0.0;
                cb_settings s;
                cb_settings_default(&s);
                s.tol = 1e-8;
                cb_solution sol;
                cb_info info;
                memset(&info, 0, sizeof info);
                assert_int_equal(cb_solution_alloc(p, &sol, NULL), CB_OK);
                assert_int_equal(cb_solve(cb_solver_find("nsn"), p, &s, &sol, &info, &err), CB_OK);
                cb_judgement j;
                assert_int_equal(cb_judge(p, sol.p, 1e-8, NULL, &j, &err), CB_OK);
                if (!j.solved)
                    fail_msg("%s nc=%d storage %d: error %.2e", cb_kind_name(p->kind), nc, st,
                             j.error_data);
                runs++;
                cb_info_free(&info);
                cb_solution_free(&sol);
                cb_problem_free(p);
            }
    print_message("  %d random small problems judged solved\n", runs);
}

/* A trace changes nothing on the small path: on small problems of every kind (coupled, and
 * contact by contact), the traced solve gives the untraced one's p bits, iterations and work;
 * its trace starts at iteration 0, ends at the run's iterations with the run's error. */
static void test_trace_same_bits(void **state)
{
    (void)state;
    for (int k = 0; k < CB_KIND_COUNT; k++)
        for (int st = 0; st < 2; st++) { /* coupled (dense), contact by contact */
            cb_random_settings g;
            cb_random_settings_default(&g);
            g.kind = (cb_kind)k, g.nc = 4, g.matrix = CB_GEN_SPD, g.seed = 7 + k;
            g.storage = CB_STORAGE_DENSE;
            cb_problem *p = NULL;
            cb_error err = {{0}};
            assert_int_equal(cb_generate_random(&g, &p, NULL, NULL, &err), CB_OK);
            size_t n = cb_problem_n(p);
            for (size_t j = 0; st == 1 && j < n; j++)
                for (size_t i = 0; i < n; i++)
                    if (i / p->d != j / p->d)
                        p->W[i + j * n] = 0.0;
            cb_solution sol[2];
            cb_info info[2];
            for (int t = 0; t < 2; t++) {
                cb_settings s;
                cb_settings_default(&s);
                s.tol = 1e-8, s.trace = t;
                memset(&info[t], 0, sizeof info[t]);
                assert_int_equal(cb_solution_alloc(p, &sol[t], NULL), CB_OK);
                assert_int_equal(cb_solve(cb_solver_find("nsn"), p, &s, &sol[t], &info[t], &err),
                                 CB_OK);
            }
            assert_memory_equal(sol[0].p, sol[1].p, n * sizeof *sol[0].p);
            assert_int_equal(info[0].iterations, info[1].iterations);
            assert_memory_equal(&info[0].work, &info[1].work, sizeof info[0].work);
            assert_true(info[1].ntrace >= 2);
            assert_int_equal(info[1].trace[0].iteration, 0);
            assert_int_equal(info[1].trace[info[1].ntrace - 1].iteration, info[1].iterations);
            assert_true(info[1].trace[info[1].ntrace - 1].error == info[1].solver_error);
            for (int t = 0; t < 2; t++) {
                cb_info_free(&info[t]);
                cb_solution_free(&sol[t]);
            }
            cb_problem_free(p);
        }
}

/* Textbook LU with partial pivoting, one entry at a time (the order nsn_lu documents: column
 * j > k updated as M_ij −= M_ik M_kj after column k is scaled by 1/pivot), and its solve. */
static void lu_reference(double *M, int n, int *piv, double *dinv)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(M[i + k * n]) > fabs(M[p + k * n]))
                p = i;
        piv[k] = p;
        for (int j = 0; j < n; j++) {
            double t = M[k + j * n];
            M[k + j * n] = M[p + j * n], M[p + j * n] = t;
        }
        dinv[k] = 1.0 / M[k + k * n];
        for (int i = k + 1; i < n; i++)
            M[i + k * n] *= dinv[k];
        for (int j = k + 1; j < n; j++)
            if (M[k + j * n] != 0.0)
                for (int i = k + 1; i < n; i++)
                    M[i + j * n] -= M[i + k * n] * M[k + j * n];
    }
}

/* nsn_lu and nsn_lu_solve (paired SIMD updates) give the textbook algorithm's bits, entry by
 * entry, on random matrices of orders 1 to 40 with zero entries (the skipped updates) and
 * pivoting; the solve's residual ‖M x − b‖ is at rounding level. */
static void test_dense_lu_bits(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 11);
    for (int n = 1; n <= 40; n++) {
        double *M = calloc((size_t)n * n, sizeof *M), *A = calloc((size_t)n * n, sizeof *A);
        double *B = calloc((size_t)n * n, sizeof *B), *b = calloc(n, sizeof *b);
        double *x = calloc(n, sizeof *x), *x2 = calloc(n, sizeof *x2);
        double *dinv = calloc(n, sizeof *dinv), *dinv2 = calloc(n, sizeof *dinv2);
        int *piv = calloc(n, sizeof *piv), *piv2 = calloc(n, sizeof *piv2);
        for (int i = 0; i < n * n; i++)
            M[i] = cb_rng_uniform(&r) < 0.3 ? 0.0 : cb_rng_range(&r, -1, 1);
        for (int i = 0; i < n; i++)
            M[i + i * n] += 0.1, b[i] = cb_rng_range(&r, -1, 1);
        memcpy(A, M, (size_t)n * n * sizeof *M), memcpy(B, M, (size_t)n * n * sizeof *M);
        assert_int_equal(nsn_lu(A, n, piv, dinv), 0);
        lu_reference(B, n, piv2, dinv2);
        assert_memory_equal(A, B, (size_t)n * n * sizeof *A);
        assert_memory_equal(piv, piv2, n * sizeof *piv);
        assert_memory_equal(dinv, dinv2, n * sizeof *dinv);
        memcpy(x, b, n * sizeof *b), memcpy(x2, b, n * sizeof *b);
        nsn_lu_solve(A, n, piv, dinv, x);
        for (int k = 0; k < n; k++) { /* the reference solve: P, then L, then U, in order */
            double t = x2[k];
            x2[k] = x2[piv2[k]], x2[piv2[k]] = t;
        }
        for (int j = 0; j < n; j++)
            for (int i = j + 1; i < n; i++)
                x2[i] -= B[i + j * n] * x2[j];
        for (int j = n - 1; j >= 0; j--) {
            x2[j] *= dinv2[j];
            for (int i = 0; i < j; i++)
                x2[i] -= B[i + j * n] * x2[j];
        }
        assert_memory_equal(x, x2, n * sizeof *x);
        double res = 0, scale = 0;
        for (int i = 0; i < n; i++) {
            double v = -b[i];
            for (int j = 0; j < n; j++)
                v += M[i + j * n] * x[j], scale = fmax(scale, fabs(M[i + j * n] * x[j]));
            res = fmax(res, fabs(v));
        }
        assert_true(res <= 1e-10 * (1.0 + scale));
        free(M), free(A), free(B), free(b), free(x), free(x2), free(dinv), free(dinv2);
        free(piv), free(piv2);
    }
}

/* W diagonal with one value per disk block: the small path answers each contact in closed form
 * (nsn_small.c), observable in the work counters: one step, no Newton system solved
 * (local_iters 0), one residual evaluation (the judge's test at the end: the full method, or
 * Newton on the contact, evaluates it at the start and after every step); p is the closed form
 * of test_coulomb_closed_form (sliding, μ p_N on the disk's edge). */
static void test_diagonal_closed_form_taken(void **state)
{
    (void)state;
    const cb_kind kinds[] = {CB_KIND_COULOMB2D, CB_KIND_COULOMB3D, CB_KIND_ROLLING3D};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        double w[5] = {2.0, 0.5, 0.5, 0.25, 0.25}, q[5] = {-1.0, 3.0, -4.0, 0.0, 0.0};
        cb_problem *p = one_contact(kinds[k], w, q, 0.3, 0.1);
        cb_solution sol;
        cb_info info;
        solve_converged(p, &sol, &info);
        assert_int_equal(info.iterations, 1);
        assert_int_equal(info.work.local_iters, 0);
        assert_int_equal(info.work.error_evals, 1);
        double pn = 0.5, nt = p->d == 2 ? 3.0 : 5.0; /* p_N = −q_N/w_N, ‖q_T‖ */
        assert_true(fabs(sol.p[0] - pn) <= 1e-15);
        assert_true(fabs(sol.p[1] + 0.3 * pn * 3.0 / nt) <= 1e-15);
        cb_info_free(&info);
        cb_solution_free(&sol);
        cb_problem_free(p);
    }
}

/* Two coupled Coulomb 2D contacts (W symmetric, diagonally dominant, μ = 0.3), one problem per
 * combination of statuses, each built from its closed form: p*, y* chosen with the status's
 * signs (take-off p = 0, y_N > 0; stick y = 0, |p_T| < μ p_N; slide y_N = 0, p_T = −σ μ p_N,
 * σ y_T > 0) and q = y* − W p*. The small path's enumeration (nsn_enum.c) answers with one
 * linear solve per combination tried, observable in the counters (1 iteration, one residual
 * evaluation: the accepted combination's), p within rounding of p*, judged solved. */
static void test_enum_closed_form(void **state)
{
    (void)state;
    static const double W[16] = {2.0, 0.3, 0.5, 0.1, 0.3, 1.5, 0.2, 0.4,
                                 0.5, 0.2, 2.5, 0.3, 0.1, 0.4, 0.3, 1.8};
    static const double ps[4][2] = {{0.0, 0.0}, {0.8, 0.1}, {0.6, -0.18}, {0.6, 0.18}};
    static const double ys[4][2] = {{0.7, -0.4}, {0.0, 0.0}, {0.0, 0.5}, {0.0, -0.5}};
    static const char *names[4] = {"take-off", "stick", "slide +", "slide -"};
    for (int s0 = 0; s0 < 4; s0++)
        for (int s1 = 0; s1 < 4; s1++) {
            cb_problem *p = NULL;
            assert_int_equal(cb_problem_alloc(CB_KIND_COULOMB2D, 2, CB_STORAGE_DENSE, 0, &p, NULL),
                             CB_OK);
            double pstar[4] = {ps[s0][0], ps[s0][1], ps[s1][0], ps[s1][1]};
            double ystar[4] = {ys[s0][0], ys[s0][1], ys[s1][0], ys[s1][1]};
            memcpy(p->W, W, sizeof W);
            p->mu[0] = p->mu[1] = 0.3;
            for (int i = 0; i < 4; i++) {
                p->q[i] = ystar[i];
                for (int j = 0; j < 4; j++)
                    p->q[i] -= W[i + 4 * j] * pstar[j];
            }
            cb_solution sol;
            cb_info info;
            cb_error err = {{0}};
            solve_converged(p, &sol, &info);
            cb_judgement j;
            assert_int_equal(cb_judge(p, sol.p, TOL, NULL, &j, &err), CB_OK);
            assert_true(j.solved);
            double diff = 0;
            for (int i = 0; i < 4; i++)
                diff = fmax(diff, fabs(sol.p[i] - pstar[i]));
            print_message("  %-8s / %-8s %d linear solves, |p - p*| = %.1e\n", names[s0],
                          names[s1], (int)info.work.local_iters, diff);
            assert_int_equal(info.iterations, 1);
            assert_int_equal(info.work.error_evals, 1);
            assert_true(info.work.local_iters >= 1 && info.work.local_iters <= 16);
            assert_true(diff <= 1e-14);
            cb_info_free(&info);
            cb_solution_free(&sol);
            cb_problem_free(p);
        }
}

/* Two coupled Coulomb 3D contacts, one pushing (q_N < 0) and one opening: the small path's block
 * Gauss–Seidel sweep (nsn_small.c) answers in one sweep, observable in the counters (1 sweep, no
 * Newton system solved, one residual evaluation: the judge's test at the end). The answer is the
 * closed form: contact 0 alone slides (p_N = −q_N/w_N, p_T = −μ p_N q_T/‖q_T‖, as in
 * test_coulomb_closed_form), contact 1 separates since q_1N + W_10 p_0 > 0 (p_1 = 0, y_0 the
 * one-contact y). */
static void test_sweep_one_pushing(void **state)
{
    (void)state;
    cb_problem *p = NULL;
    assert_int_equal(cb_problem_alloc(CB_KIND_COULOMB3D, 2, CB_STORAGE_DENSE, 0, &p, NULL), CB_OK);
    const double w[3] = {2.0, 0.5, 0.5}, q[6] = {-1.0, 3.0, -4.0, 1.0, 0.2, 0.1};
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 6; i++)
            p->W[i + j * 6] = i / 3 == j / 3 ? (i == j ? w[i % 3] : 0.0) : 0.1;
    memcpy(p->q, q, sizeof q);
    p->mu[0] = p->mu[1] = 0.3;
    cb_solution sol;
    cb_info info;
    solve_converged(p, &sol, &info);
    assert_int_equal(info.iterations, 1);
    assert_int_equal(info.work.local_iters, 0);
    assert_int_equal(info.work.error_evals, 1);
    const double pstar[6] = {0.5, -0.3 * 0.5 * 3.0 / 5.0, 0.3 * 0.5 * 4.0 / 5.0, 0.0, 0.0, 0.0};
    for (int i = 0; i < 6; i++)
        assert_true(fabs(sol.p[i] - pstar[i]) <= 1e-15);
    cb_judgement j;
    cb_error err = {{0}};
    assert_int_equal(cb_judge(p, sol.p, TOL, NULL, &j, &err), CB_OK);
    assert_true(j.solved);
    cb_info_free(&info);
    cb_solution_free(&sol);
    cb_problem_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coulomb_closed_form),
        cmocka_unit_test(test_rolling_closed_form),
        cmocka_unit_test(test_random_small_judged),
        cmocka_unit_test(test_sweep_one_pushing),
        cmocka_unit_test(test_enum_closed_form),
        cmocka_unit_test(test_trace_same_bits),
        cmocka_unit_test(test_dense_lu_bits),
        cmocka_unit_test(test_diagonal_closed_form_taken),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
