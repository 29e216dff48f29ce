/* conebench tests — `nsn`, the semismooth Newton solver: its generalised Jacobian H against
 * finite differences of the natural map F (every kind, both formulations), the judged solution
 * of known-solution problems of every kind and storage, local superlinear convergence on
 * problems of three kinds, a singular W (two contacts with identical rows) solved, options. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/generate.h"
#include "conebench/rng.h"
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

/* F at p (ρ = rho for every contact) into F. */
static void eval_F(const cb_problem *prob, const double *rho, const double *p, double *F,
                   double *y, double *IJ, double *A, double *z)
{
    nsn_system sys = {prob, prob->nc, prob->d, cb_problem_n(prob), rho, F, IJ, A, z};
    cb_work cnt = {0};
    cb_problem_y(prob, p, y);
    assert_int_equal(nsn_system_eval(&sys, p, y, &cnt), 1);
}

/* H v against (F(p + h v) − F(p − h v)) / 2h at random p of every kind, ρ = 1 and ρ = 0.3:
 * the worst relative difference over points whose central difference is smooth (the two
 * one-sided differences agree) must be below 1e-5. */
static void test_jacobian_fd(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 3);
    for (int k = 0; k < CB_KIND_COUNT; k++)
        for (int f = 0; f < 2; f++) {
            cb_problem *prob = random_problem((cb_kind)k, 6, CB_GEN_SPD, 4, CB_STORAGE_BSR, NULL);
            size_t n = cb_problem_n(prob), dd = (size_t)prob->d * prob->d;
            double *rho = malloc(prob->nc * sizeof *rho), *buf = calloc(12 * n + 4 * prob->nc * dd, sizeof *buf);
            double *p = buf, *v = p + n, *F = v + n, *Fp = F + n, *Fm = Fp + n, *y = Fm + n,
                   *z = y + n, *Hv = z + n, *pp = Hv + n, *s = pp + n, *IJ = s + n, *A = IJ + prob->nc * dd;
            double *IJ2 = A + prob->nc * dd, *A2 = IJ2 + prob->nc * dd;
            for (int a = 0; a < prob->nc; a++)
                rho[a] = f ? 0.3 : 1.0;
            double worst = 0;
            int checked = 0;
            for (int t = 0; t < 200; t++) {
                for (size_t i = 0; i < n; i++)
                    p[i] = cb_rng_normal(&r), v[i] = cb_rng_normal(&r);
                eval_F(prob, rho, p, F, y, IJ, A, z);
                nsn_system sys = {prob, prob->nc, prob->d, n, rho, F, IJ, A, z};
                cb_work cnt = {0};
                nsn_system_apply(&sys, 0.0, v, Hv, s, &cnt);
                double h = 1e-7, e1 = 0, e2 = 0, nrm = 0;
                for (size_t i = 0; i < n; i++)
                    pp[i] = p[i] + h * v[i];
                eval_F(prob, rho, pp, Fp, y, IJ2, A2, z); /* blocks not needed */
                for (size_t i = 0; i < n; i++)
                    pp[i] = p[i] - h * v[i];
                eval_F(prob, rho, pp, Fm, y, IJ2, A2, z);
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
            print_message("  %-10s rho=%s: %d smooth points, worst |Hv - fd| %.2e\n",
                          cb_kind_name((cb_kind)k), f ? "0.3" : "1", checked, worst);
            assert_true(checked > 50);
            assert_true(worst < 1e-5);
            free(rho), free(buf);
            cb_problem_free(prob);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jacobian_fd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
