/* W's half (src/core/bsr_half.c): the product from the upper blocks alone against a long-double
 * sum of the full W (the rounding bound of a sum of the row's terms), the same bits at 1, 2 and 3
 * threads, every kind's block size; the half is refused unless W is bitwise symmetric, BSR and
 * large enough; cb_bsr_symmetrize makes W bitwise symmetric; apgd with the half solves an SPD
 * problem (judged), the same bits at 1 and 2 threads, and names a bad `half` option; in a
 * workspace it follows updates of W. */
#include "test_support.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bsr_half.h"
#include "conebench/generate.h"
#include "base.h"
#include "solvers_internal.h"

static cb_problem *random_problem(cb_kind kind, int nc, cb_gen_matrix m, uint64_t seed)
{
    cb_random_settings rs;
    cb_random_settings_default(&rs);
    rs.kind = kind, rs.nc = nc, rs.matrix = m, rs.seed = seed, rs.storage = CB_STORAGE_BSR;
    if (m == CB_GEN_SPD)
        rs.cond = 1e2, rs.density = 0.01;
    cb_problem *prob = NULL;
    assert_int_equal(cb_generate_random(&rs, &prob, NULL, NULL, NULL), CB_OK);
    return prob;
}

/* x_i = sin(0.37 i) + 0.1: every entry nonzero, both signs. */
static double *test_vector(size_t n)
{
    double *x = malloc(n * sizeof *x);
    assert_non_null(x);
    for (size_t i = 0; i < n; i++)
        x[i] = sin(0.37 * (double)i) + 0.1;
    return x;
}

/* Every entry of y within (terms + 1)·u·(|W||x| + |q|)_i of W x + q summed in long double (each
 * of a row's float sums of `terms` products is off by at most that: Higham's γ_n bound, with
 * the long double sum's own error far below it). */
static void expect_near_exact(const cb_problem *p, const double *x, const double *y)
{
    const cb_bsr *B = &p->bsr;
    int d = p->d;
    for (int a = 0; a < p->nc; a++)
        for (int i = 0; i < d; i++) {
            long double s = p->q[(size_t)a * d + i], mag = fabsl(s);
            for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++)
                for (int j = 0; j < d; j++) {
                    long double t = (long double)B->val[(size_t)k * d * d + i + (size_t)j * d] *
                                    x[(size_t)B->col[k] * d + j];
                    s += t, mag += fabsl(t);
                }
            double terms = (double)(B->row_ptr[a + 1] - B->row_ptr[a]) * d + 1;
            double bound = (terms + 1) * DBL_EPSILON / 2 * (double)mag;
            double e = fabs((double)((long double)y[(size_t)a * d + i] - s));
            if (!(e <= bound))
                fail_msg("row %d entry %d: |y - Wx - q| = %g > bound %g", a, i, e, bound);
        }
}

/* Each kind's block size, nc 1 500 (above CB_PAR_MIN_ROWS: threads run): the half's y = W x + q
 * within the rounding bound of the exact sum, as the full product's; the same bits at 1, 2 and 3
 * threads; W x alone (q NULL), plus q, within the bound too. */
static void test_half_product(void **state)
{
    (void)state;
    static const cb_kind kinds[] = {CB_KIND_COULOMB2D, CB_KIND_COULOMB3D, CB_KIND_ROLLING3D,
                                    CB_KIND_ROLLSPIN3D};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        cb_problem *p = random_problem(kinds[k], 1500, CB_GEN_MULTIBODY, 7);
        size_t n = cb_problem_n(p);
        assert_true(cbt_bsr_symmetric_bits(p));
        cb_whalf *h = NULL;
        assert_int_equal(cb_whalf_new(p, 0, &h, NULL), CB_OK);
        assert_non_null(h);
        assert_true(cb_whalf_bytes(h) < cb_problem_W_bytes(p));
        double *x = test_vector(n), *y[3], *yf = malloc(n * sizeof *yf), *yw = malloc(n * sizeof *yw);
        for (int t = 0; t < 3; t++) {
            y[t] = malloc(n * sizeof *y[t]);
            int old = cb_threads_set(t + 1);
            cb_whalf_y(h, x, p->q, y[t]);
            cb_threads_set(old);
        }
        assert_memory_equal(y[0], y[1], n * sizeof(double));
        assert_memory_equal(y[0], y[2], n * sizeof(double));
        expect_near_exact(p, x, y[0]);
        cb_problem_y(p, x, yf);
        expect_near_exact(p, x, yf);
        cb_whalf_y(h, x, NULL, yw); /* W x alone: y − q within the bound too */
        for (size_t i = 0; i < n; i++)
            yw[i] += p->q[i];
        expect_near_exact(p, x, yw);
        print_message("  %s nc 1500: half %zu bytes of W's %zu; |y_half - y_full|/|y| %.1e\n",
                      cb_kind_name(kinds[k]), cb_whalf_bytes(h), cb_problem_W_bytes(p),
                      cbt_vec_reldiff(y[0], yf, n, 0));
        for (int t = 0; t < 3; t++)
            free(y[t]);
        free(x), free(yf), free(yw);
        cb_whalf_free(h);
        cb_problem_free(p);
    }
}

/* No half for a W one bit off symmetric, one below min_bytes, dense storage; NULL frees. */
static void test_half_refused(void **state)
{
    (void)state;
    cb_problem *p = random_problem(CB_KIND_COULOMB3D, 300, CB_GEN_MULTIBODY, 2), *dn = NULL;
    cb_whalf *h = (cb_whalf *)1;
    size_t bytes = (size_t)p->bsr.nnzb * 9 * sizeof(double);
    assert_int_equal(cb_whalf_new(p, bytes, &h, NULL), CB_OK);
    assert_non_null(h);
    cb_whalf_free(h);
    assert_int_equal(cb_whalf_new(p, bytes + 1, &h, NULL), CB_OK);
    assert_null(h);
    assert_int_equal(cb_problem_to_dense(p, &dn, NULL), CB_OK);
    assert_int_equal(cb_whalf_new(dn, 0, &h, NULL), CB_OK);
    assert_null(h);
    int a = p->nc - 1, k = p->bsr.row_ptr[a]; /* a lower block: row a's first, column < a */
    assert_true(p->bsr.col[k] < a);
    double *v = &p->bsr.val[(size_t)k * 9 + 1];
    *v = nextafter(*v, INFINITY);
    assert_false(cbt_bsr_symmetric_bits(p));
    assert_int_equal(cb_whalf_new(p, 0, &h, NULL), CB_OK);
    assert_null(h);
    assert_int_equal(cb_bsr_symmetrize(&p->bsr, p->d), CB_OK); /* symmetric again */
    assert_true(cbt_bsr_symmetric_bits(p));
    assert_int_equal(cb_whalf_new(p, 0, &h, NULL), CB_OK);
    assert_non_null(h);
    cb_whalf_free(h);
    cb_whalf_free(NULL);
    cb_problem_free(dn);
    cb_problem_free(p);
}

static cb_settings fo_settings(const cb_option *opt, int threads, double tol, int max_iter)
{
    cb_settings s;
    cb_settings_default(&s);
    s.tol = tol, s.max_iter = max_iter, s.time_limit = 0, s.options = opt, s.noptions = 1;
    s.threads = threads;
    return s;
}

/* apgd with half=on on an SPD W (nc 2 000, BSR): solved as judged, as with half=off; 30 steps
 * give the same bits at 1 and 2 threads; half=maybe is refused naming the option. */
static void test_apgd_half(void **state)
{
    (void)state;
    static const cb_option on[] = {{"half", "on"}}, off[] = {{"half", "off"}},
                           bad[] = {{"half", "maybe"}};
    const cb_solver *sv[] = {&cb_solver_apgd};
    cb_problem *p = random_problem(CB_KIND_COULOMB3D, 2000, CB_GEN_SPD, 5);
    size_t n = cb_problem_n(p);
    assert_true(cbt_bsr_symmetric_bits(p)); /* so half=on has W's half */
    for (size_t k = 0; k < sizeof sv / sizeof *sv; k++) {
        for (int v = 0; v < 2; v++) {
            cb_settings s = fo_settings(v ? off : on, 2, 1e-8, 20000);
            cbt_run_result r = cbt_run(sv[k], p, &s, NULL);
            assert_int_equal(r.rc, CB_OK);
            print_message("  %s half=%s: %d steps, judged error %.2e\n", sv[k]->name,
                          v ? "off" : "on", r.info.iterations, r.info.error_data);
            assert_int_equal(r.info.status, CB_STATUS_CONVERGED);
            assert_true(r.info.solved && r.info.error_data <= 1e-8);
            cbt_run_free(&r);
        }
        cbt_run_result r[2];
        for (int t = 0; t < 2; t++) {
            cb_settings s = fo_settings(on, t + 1, 1e-300, 30);
            r[t] = cbt_run(sv[k], p, &s, NULL);
            assert_int_equal(r[t].rc, CB_OK);
            assert_int_equal(r[t].info.iterations, 30);
        }
        assert_memory_equal(r[0].p, r[1].p, n * sizeof(double));
        cbt_run_free(&r[0]), cbt_run_free(&r[1]);
        cb_settings s = fo_settings(bad, 1, 1e-8, 10);
        cbt_run_result e = cbt_run(sv[k], p, &s, NULL);
        assert_int_equal(e.rc, CB_ERR_INPUT);
        assert_non_null(strstr(e.err.text, "half"));
        cbt_run_free(&e);
    }
    cb_problem_free(p);
}

/* A workspace (setup once, solve many) with apgd half=on: W updated to 2W (still symmetric: the
 * half is rebuilt, a stale one would solve the old W and never pass the judge's recheck), then
 * one bit off symmetric (the full product serves): each solve converges and is judged solved. */
static void test_half_update(void **state)
{
    (void)state;
    static const cb_option on[] = {{"half", "on"}};
    const cb_solver *sv[] = {&cb_solver_apgd};
    cb_problem *p = random_problem(CB_KIND_COULOMB3D, 2000, CB_GEN_SPD, 6);
    size_t nv = (size_t)p->bsr.nnzb * 9;
    double *v = malloc(nv * sizeof *v);
    assert_non_null(v);
    cb_solution sol;
    assert_int_equal(cb_solution_alloc(p, &sol, NULL), CB_OK);
    for (size_t k = 0; k < sizeof sv / sizeof *sv; k++) {
        cb_settings s = fo_settings(on, 2, 1e-8, 20000);
        cb_workspace *ws = NULL;
        assert_int_equal(cb_setup(&ws, sv[k], p, &s, NULL), CB_OK);
        for (int step = 0; step < 3; step++) {
            if (step > 0) {
                for (size_t i = 0; i < nv; i++)
                    v[i] = 2.0 * p->bsr.val[i];
                if (step == 2) { /* a lower block's entry one bit up: W not bitwise symmetric */
                    int a = p->nc - 1, b = p->bsr.row_ptr[a];
                    assert_true(p->bsr.col[b] < a);
                    v[(size_t)b * 9 + 1] = nextafter(v[(size_t)b * 9 + 1], INFINITY);
                }
                assert_int_equal(cb_update_W(ws, v, nv, NULL), CB_OK);
                cb_warm_start(ws, NULL, 0, NULL);
            }
            cb_info info;
            assert_int_equal(cb_solve_ws(ws, &sol, &info, NULL), CB_OK);
            print_message("  %s workspace step %d: %d steps, judged error %.2e\n", sv[k]->name,
                          step, info.iterations, info.error_data);
            assert_int_equal(info.status, CB_STATUS_CONVERGED);
            assert_true(info.solved && info.error_data <= 1e-8);
            cb_info_free(&info);
        }
        cb_cleanup(ws);
    }
    cb_solution_free(&sol);
    free(v);
    cb_problem_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_product),
        cmocka_unit_test(test_half_refused),
        cmocka_unit_test(test_apgd_half),
        cmocka_unit_test(test_half_update),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
