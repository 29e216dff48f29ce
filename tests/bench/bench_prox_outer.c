/* conebench bench_prox_outer — a proximal-point outer loop around a registered solver, on a
 * problem whose W is singular (BENCHMARKS.md, "Newton methods at scale", the proximal-point
 * attempt of lane K).
 *
 * Outer iteration k solves the regularised problem (W + ρ I, q − ρ p_k) — nonsingular for
 * ρ > 0 — with SOLVER warm-started from p_k, to the tolerance INNER · e_k (e_k the judged error of
 * p_k on the original problem, at least 1e-10), and takes its answer as p_{k+1}; ρ = RHO · w̄
 * (w̄ = the judge's mean ‖W_αα‖∞), multiplied by DECAY > 0 after each outer iteration (DECAY < 0:
 * adaptive, next_factor). It stops at the judged error 1e-8, after OUTER iterations or when
 * LIMIT CPU seconds are spent (each inner solve gets what is left). One line per outer iteration: the inner solver's status,
 * iterations and judged error on the regularised problem, the judged error of p_{k+1} on the
 * original problem, ‖p‖ in units of ‖q‖/w̄ (a drift along K ∩ null(W) makes it grow) and the
 * process CPU seconds so far.
 *
 * Checked (assert_true): the regularised matrix is W + ρ I (its product with a vector against
 * W's plus ρ times the vector, to rounding) and every judged error is a number.
 *
 * Usage: bench_prox_outer FILE SOLVER RHO INNER OUTER DECAY LIMIT [KEY=VALUE ...]
 *   e.g. bench_prox_outer r3k.dat nsn 1e-2 0.1 40 1 60
 *        bench_prox_outer c10k.dat nsn 1e-1 1e-3 60 1 60 linear=gmres
 */
#include "../support/require.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conebench/io.h"
#include "conebench/judge.h"
#include "conebench/solver.h"

#define PROX_TOL 1e-8        /* the outer loop's target judged error */
#define PROX_INNER_MIN 1e-10 /* the inner tolerance's floor */
#define PROX_MAX_OPTS 16
#define PROX_GAIN 0.5      /* adaptive ρ: shrunk after an outer iteration that gains this */

typedef struct {
    double rho, inner, decay, limit;
    int outer;
    cb_option opts[PROX_MAX_OPTS];
    int nopts;
} prox_args;

/* Process CPU seconds. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* R_αα ← R_αα + delta I on every diagonal block of a BSR problem. */
static void shift_diagonal(cb_problem *r, double delta)
{
    int d = r->d;
    for (int a = 0; a < r->nc; a++)
        for (int k = r->bsr.row_ptr[a]; k < r->bsr.row_ptr[a + 1]; k++)
            for (int i = 0; r->bsr.col[k] == a && i < d; i++)
                r->bsr.val[(size_t)k * d * d + i + (size_t)i * d] += delta;
}

/* max_i |(R v − W v − ρ v)_i| / max(‖W v‖∞, ρ ‖v‖∞) for v_i = sin(i + 1): 0 up to rounding
 * when R = W + ρ I. */
static double shift_defect(const cb_problem *w, const cb_problem *r, double rho)
{
    size_t n = cb_problem_n(w);
    double *v = malloc(n * sizeof *v), *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    assert_true(v && a && b);
    for (size_t i = 0; i < n; i++)
        v[i] = sin((double)i + 1.0);
    cb_problem_Wp(w, v, a);
    cb_problem_Wp(r, v, b);
    double dmax = 0.0, scale = rho;
    for (size_t i = 0; i < n; i++) {
        dmax = fmax(dmax, fabs(b[i] - a[i] - rho * v[i]));
        scale = fmax(scale, fabs(a[i]));
    }
    free(v), free(a), free(b);
    return dmax / scale;
}

/* ρ's factor after an outer iteration: decay > 0 as given; decay < 0 adaptive, |decay| when the
 * error fell below PROX_GAIN times the previous one, 1/|decay| when it rose, else 1. */
static double next_factor(double decay, double e, double e_old)
{
    if (decay > 0)
        return decay;
    if (e <= PROX_GAIN * e_old)
        return -decay;
    return e > e_old ? -1.0 / decay : 1.0;
}

static void parse_args(int argc, char **argv, prox_args *a)
{
    if (argc < 8) {
        fprintf(stderr, "usage: bench_prox_outer FILE SOLVER RHO INNER OUTER DECAY LIMIT "
                        "[KEY=VALUE ...]\n");
        exit(2);
    }
    a->rho = atof(argv[3]), a->inner = atof(argv[4]), a->outer = atoi(argv[5]);
    a->decay = atof(argv[6]), a->limit = atof(argv[7]);
    a->nopts = 0;
    for (int i = 8; i < argc && a->nopts < PROX_MAX_OPTS; i++) {
        char *eq = strchr(argv[i], '=');
        assert_true(eq != NULL);
        *eq = '\0';
        a->opts[a->nopts++] = (cb_option){.key = argv[i], .value = eq + 1};
    }
}

/* The outer loop on prob (BSR) with the solver sv; prints a line per outer iteration. */
static void prox_loop(const cb_problem *prob, const cb_solver *sv, const prox_args *a)
{
    cb_error err;
    cb_problem *r = NULL;
    cb_judge_scale sc;
    cb_judge_scale_of(prob, &sc);
    assert_true(cb_problem_copy(prob, &r, &err) == CB_OK);
    double rho = a->rho * sc.diag_mean, e = INFINITY, e_old = INFINITY, t0 = cpu_now();
    shift_diagonal(r, rho);
    assert_true(shift_defect(prob, r, rho) <= 1e-12);
    size_t n = cb_problem_n(prob);
    double *p = calloc(n, sizeof *p);
    cb_solution sol;
    assert_true(p && cb_solution_alloc(r, &sol, &err) == CB_OK);
    cb_settings s;
    cb_settings_default(&s);
    s.options = a->opts, s.noptions = a->nopts, s.wall_limit = -1;
    for (int k = 0; k < a->outer && e > PROX_TOL && cpu_now() - t0 < a->limit; k++) {
        for (size_t i = 0; i < n; i++)
            r->q[i] = prob->q[i] - rho * p[i];
        s.tol = fmax(PROX_INNER_MIN, fmin(1.0, a->inner * e));
        s.time_limit = fmax(1e-3, a->limit - (cpu_now() - t0));
        memcpy(sol.p, p, n * sizeof *p);
        cb_info info = {0};
        assert_true(cb_solve(sv, r, &s, &sol, &info, &err) == CB_OK);
        memcpy(p, sol.p, n * sizeof *p);
        cb_judgement j;
        assert_true(cb_judge(prob, p, PROX_TOL, NULL, &j, &err) == CB_OK);
        assert_true(!isnan(j.error_data) && !isnan(info.error_data));
        e = j.error_data;
        printf("outer %2d rho/w %.2e inner %-10s %4d it %.2e | error %.3e |p| %.3f q/w cpu %.2f\n",
               k, rho / sc.diag_mean, cb_status_name(info.status), info.iterations,
               info.error_data, e, j.norm_p / sc.force, cpu_now() - t0);
        fflush(stdout);
        cb_info_free(&info);
        double f = next_factor(a->decay, e, e_old);
        e_old = e;
        shift_diagonal(r, rho * f - rho);
        rho *= f;
    }
    printf("%s: error %.3e after %.2f s CPU\n", e <= PROX_TOL ? "solved" : "not solved", e,
           cpu_now() - t0);
    cb_solution_free(&sol);
    free(p);
    cb_problem_free(r);
}

int main(int argc, char **argv)
{
    prox_args a;
    parse_args(argc, argv, &a);
    cb_error err;
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    cb_problem *prob = NULL, *bsr = NULL;
    const cb_solver *sv = cb_solver_find(argv[2]);
    assert_true(sv != NULL);
    assert_true(cb_read_problem(argv[1], &rs, &prob, &err) == CB_OK);
    assert_true(cb_problem_to_bsr(prob, &bsr, &err) == CB_OK);
    prox_loop(bsr, sv, &a);
    cb_problem_free(bsr);
    cb_problem_free(prob);
    return 0;
}
