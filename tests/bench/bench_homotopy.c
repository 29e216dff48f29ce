/* conebench bench_homotopy — homotopies for the random multibody class (BENCHMARKS.md,
 * "Homotopies for the random multibody class (issue 29, lane H1, session 40)").
 *
 * A path s: 0 → 1 of problems (W(s), q(s)) whose s = 0 member has a known solution p_0 and whose
 * s = 1 member is the file's problem, tracked by a registered solver (the corrector) through the
 * workspace API (set up once: nsn keeps its KLU symbolic analysis), warm-started from the last
 * accepted point (or a secant predictor), the step h doubled after a corrector that converges in
 * at most HGOOD iterations and quartered (the point rejected) after one that does not.
 *   MODE decouple: W(s) = D + s (W − D), D = W's diagonal blocks, q(s) = q; p_0 solves the nc
 *                  local problems (D, q) (SOLVER0, to 1e-14).
 *   MODE newton:   W(s) = W, q(s) = q − (1 − s)(W − D) p_0 (p_0 as in decouple): at s = 0 the
 *                  local solutions p_0 solve (W, q(0)) with the same y.
 *   MODE load:     W(s) = W, q(s) = (1 − s) q_0 + s q, q_0 = c e_n (c = ‖q‖∞ on every normal
 *                  component): p_0 = 0 solves it (every contact separating).
 *   MODE mu:       W(s) = D + s (W − D), q(s) = q and every μ scaled by MU0 + (1 − MU0) s.
 * MUFIX (1) scales every μ by a constant in the other modes (the file's problem stays the
 * judge's reference). PROX = ρ/w̄ > 0 adds the proximal term ρ (1 − s)(p − p_k) (vanishing at s = 1):
 * W(s) + ρ(1 − s) I, q(s) − ρ (1 − s) p_k.
 * Every accepted point prints the corrector's iterations and judged error on the s problem, the
 * judged error on the file's problem and the process CPU seconds; the end prints the verdict of
 * the judge on the file's problem.
 *
 * Checked (assert_true): p_0 solves the s = 0 problem (judged to 1e-10 with the workspace's own
 * data) and the s = 1 data equal the file's (W and q, bitwise).
 *
 * Usage: bench_homotopy FILE MODE LIMIT [KEY=VALUE ...] (solver options; homotopy controls from
 * the environment: SOLVER (nsn), SOLVER0 (nsgs), H0 (0.05), INNER (1e-6: the corrector's
 * tolerance; at s = 1 a polish by SOLVER to FINAL), FINAL (1e-8), HMIN (1e-4), HMAX (1), HGOOD
 * (4), MAXIT (12), PRED (0: none, 1: secant), PROX (0), MU0 (0.1),
 * TRACK (LIMIT: CPU seconds for the path), POLISH_LINEAR (unset: none; else when not solved,
 * nsn with only linear=VALUE from the iterate of least judged error, MAXIT iterations, in the
 * time left of LIMIT), REVERSE (set, with SOL: the path s: 1 → 0 from the generator's p*))
 *   e.g. bench_homotopy c3k.dat decouple 60 linear=klu smoothing=off handover=none
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

#define HOM_MAX_OPTS 16
#define HOM_LOCAL_TOL 1e-14 /* the s = 0 solve's tolerance */
#define HOM_CHECK_TOL 1e-10 /* p_0 must solve the s = 0 problem to this */

typedef struct {
    const char *mode, *solver, *solver0;
    double limit, h0, inner, final_tol, hmin, hmax, prox, mu0;
    int hgood, maxit, pred;
    cb_option opts[HOM_MAX_OPTS];
    int nopts;
} hom_args;

typedef struct {
    const cb_problem *w; /* the file's problem (BSR) */
    hom_args a;
    size_t n, nval;
    double wbar;          /* the judge's mean ‖W_αα‖∞ */
    double *p0, *q0;      /* the start; the s = 0 q of load / newton */
    double *val, *q, *mu, *mu_r, *mu_s; /* the s problem's data */
    double t0;
    double *ystar, *y;    /* the generator's y* (env SOL) or NULL; a buffer */
    double *best, ebest;  /* the iterate of least judged error on the file's problem */
    double *pstar;        /* the generator's p* (env SOL) or NULL */
} hom;

/* Process CPU seconds. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double env_double(const char *k, double def)
{
    const char *v = getenv(k);
    return v ? atof(v) : def;
}

static void parse_args(int argc, char **argv, hom_args *a)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_homotopy FILE MODE LIMIT [KEY=VALUE ...]\n");
        exit(2);
    }
    a->mode = argv[2], a->limit = atof(argv[3]);
    a->solver = getenv("SOLVER") ? getenv("SOLVER") : "nsn";
    a->solver0 = getenv("SOLVER0") ? getenv("SOLVER0") : "nsgs";
    a->h0 = env_double("H0", 0.05), a->inner = env_double("INNER", 1e-6);
    a->final_tol = env_double("FINAL", 1e-8), a->hmin = env_double("HMIN", 1e-4);
    a->hmax = env_double("HMAX", 1.0);
    a->hgood = (int)env_double("HGOOD", 4), a->maxit = (int)env_double("MAXIT", 12);
    a->pred = (int)env_double("PRED", 0), a->prox = env_double("PROX", 0);
    a->mu0 = env_double("MU0", 0.1);
    a->nopts = 0;
    for (int i = 4; i < argc && a->nopts < HOM_MAX_OPTS; i++) {
        char *eq = strchr(argv[i], '=');
        assert_true(eq != NULL);
        *eq = '\0';
        a->opts[a->nopts++] = (cb_option){.key = argv[i], .value = eq + 1};
    }
}

/* val = D + s (W − D) + δ I on every block of the BSR pattern. */
static void data_W(const hom *h, double s, double delta, double *val)
{
    const cb_problem *w = h->w;
    int d = w->d;
    for (int a = 0; a < w->nc; a++)
        for (int k = w->bsr.row_ptr[a]; k < w->bsr.row_ptr[a + 1]; k++) {
            const double *b = w->bsr.val + (size_t)k * d * d;
            double *o = val + (size_t)k * d * d;
            int diag = w->bsr.col[k] == a;
            for (int i = 0; i < d * d; i++)
                o[i] = diag ? b[i] : s * b[i];
            for (int i = 0; diag && i < d; i++)
                o[i + i * d] += delta;
        }
}

static int mode_is(const hom *h, const char *m)
{
    return !strcmp(h->a.mode, m);
}

/* The s problem's data: W(s), q(s), μ(s) (+ the proximal term around pk). */
static void data_at(hom *h, double s, const double *pk)
{
    int dec = mode_is(h, "decouple") || mode_is(h, "mu");
    double rho = h->a.prox * h->wbar * (1.0 - s);
    data_W(h, dec ? s : 1.0, rho, h->val);
    for (size_t i = 0; i < h->n; i++) {
        double qi = h->w->q[i];
        if (mode_is(h, "load") || mode_is(h, "newton"))
            qi = (1.0 - s) * h->q0[i] + s * h->w->q[i];
        h->q[i] = qi - rho * pk[i];
    }
    double t = mode_is(h, "mu") ? h->a.mu0 + (1.0 - h->a.mu0) * s : env_double("MUFIX", 1.0);
    for (int a = 0; a < h->w->nc; a++) {
        h->mu[a] = t * h->w->mu[a];
        if (h->w->mu_r)
            h->mu_r[a] = t * h->w->mu_r[a];
        if (h->w->mu_s)
            h->mu_s[a] = t * h->w->mu_s[a];
    }
}

/* Push the s problem's data into ws. */
static void push(hom *h, cb_workspace *ws)
{
    cb_error err;
    assert_true(cb_update_W(ws, h->val, h->nval, &err) == CB_OK);
    assert_true(cb_update_q(ws, h->q, h->n, &err) == CB_OK);
    assert_true(cb_update_mu(ws, h->mu, h->w->mu_r ? h->mu_r : NULL, h->w->mu_s ? h->mu_s : NULL,
                             (size_t)h->w->nc, &err) == CB_OK);
}

/* p_0: the local problems (D, q) with μ scaled as at s = 0, solved by SOLVER0 (decouple, mu,
 * newton; newton's q_0 = q − (W − D) p_0), or 0 with q_0 = ‖q‖∞ e_n (load). */
static void start_point(hom *h)
{
    const cb_problem *w = h->w;
    int d = w->d;
    if (mode_is(h, "load")) {
        double c = 0.0;
        for (size_t i = 0; i < h->n; i++)
            c = fmax(c, fabs(w->q[i]));
        c *= env_double("QC", 1.0);
        for (size_t i = 0; i < h->n; i++)
            h->q0[i] = i % (size_t)d == 0 ? c : 0.0;
        return;
    }
    cb_error err;
    cb_problem *loc = NULL;
    assert_true(cb_problem_copy(w, &loc, &err) == CB_OK);
    data_at(h, 0.0, h->p0); /* p0 = 0 here: no proximal shift of q */
    data_W(h, 0.0, 0.0, loc->bsr.val);
    memcpy(loc->mu, h->mu, (size_t)w->nc * sizeof(double));
    if (w->mu_r)
        memcpy(loc->mu_r, h->mu_r, (size_t)w->nc * sizeof(double));
    cb_settings s;
    cb_settings_default(&s);
    s.tol = HOM_LOCAL_TOL, s.wall_limit = -1, s.time_limit = h->a.limit;
    cb_solution sol;
    cb_info info = {0};
    assert_true(cb_solution_alloc(loc, &sol, &err) == CB_OK);
    assert_true(cb_solve(cb_solver_find(h->a.solver0), loc, &s, &sol, &info, &err) == CB_OK);
    printf("start: %s on the local problems: %s, %d it, error %.3e, cpu %.2f\n", h->a.solver0,
           cb_status_name(info.status), info.iterations, info.error_data, cpu_now() - h->t0);
    memcpy(h->p0, sol.p, h->n * sizeof(double));
    double *wp = malloc(h->n * sizeof *wp), *dp = malloc(h->n * sizeof *dp);
    assert_true(wp && dp);
    cb_problem_Wp(w, h->p0, wp);
    cb_problem_Wp(loc, h->p0, dp);
    for (size_t i = 0; i < h->n; i++)
        h->q0[i] = w->q[i] - wp[i] + dp[i];
    free(wp), free(dp);
    cb_info_free(&info);
    cb_solution_free(&sol);
    cb_problem_free(loc);
}

/* The judged error of p on the file's problem. */
static double judged(const hom *h, const double *p, double *norm_p)
{
    cb_error err;
    cb_judgement j;
    assert_true(cb_judge(h->w, p, h->a.final_tol, NULL, &j, &err) == CB_OK);
    if (norm_p)
        *norm_p = j.norm_p;
    return j.error_data;
}

/* ‖W p + q − y*‖ / ‖y*‖ on the file's problem (y* of SOL), or −1 without SOL. */
static double dist_ystar(const hom *h, const double *p)
{
    if (!h->ystar)
        return -1.0;
    cb_problem_y(h->w, p, h->y);
    double a = 0.0, b = 0.0;
    for (size_t i = 0; i < h->n; i++)
        a += (h->y[i] - h->ystar[i]) * (h->y[i] - h->ystar[i]), b += h->ystar[i] * h->ystar[i];
    return sqrt(a / b);
}

/* The start of the corrector at s + h: p, or the secant p + (h / hp)(p − pp). */
static void predict(const hom *h, const double *p, const double *pp, double hs, double hp,
                    double *out)
{
    for (size_t i = 0; i < h->n; i++)
        out[i] = h->a.pred && hp > 0 ? p[i] + (hs / hp) * (p[i] - pp[i]) : p[i];
}

/* The workspace at s = 0, from p_0; checks that p_0 solves that problem. */
static cb_workspace *setup_ws(hom *h, cb_solution *sol)
{
    cb_error err;
    cb_problem *ps = NULL;
    assert_true(cb_problem_copy(h->w, &ps, &err) == CB_OK);
    data_at(h, 0.0, h->p0);
    memcpy(ps->bsr.val, h->val, h->nval * sizeof(double));
    memcpy(ps->q, h->q, h->n * sizeof(double));
    memcpy(ps->mu, h->mu, (size_t)h->w->nc * sizeof(double));
    if (h->w->mu_r)
        memcpy(ps->mu_r, h->mu_r, (size_t)h->w->nc * sizeof(double));
    cb_judgement j;
    assert_true(cb_judge(ps, h->p0, HOM_CHECK_TOL, NULL, &j, &err) == CB_OK);
    printf("start: judged error of p_0 on the s = 0 problem %.3e, on the file's %.3e\n",
           j.error_data, judged(h, h->p0, NULL));
    assert_true(j.error_data <= HOM_CHECK_TOL);
    static cb_settings s;
    cb_settings_default(&s);
    s.tol = h->a.inner, s.max_iter = h->a.maxit, s.wall_limit = -1, s.time_limit = h->a.limit;
    s.options = h->a.opts, s.noptions = h->a.nopts;
    cb_workspace *ws = NULL;
    assert_true(cb_setup(&ws, cb_solver_find(h->a.solver), ps, &s, &err) == CB_OK);
    assert_true(cb_solution_alloc(ps, sol, &err) == CB_OK);
    cb_problem_free(ps);
    return ws;
}

/* The file's problem solved by SOLVER (options opts) from p to FINAL in the time left (MAXIT
 * iterations); returns p's judged error. */
static double polish(const hom *h, double *p, const cb_option *opts, int nopts)
{
    cb_error err;
    cb_settings s;
    cb_settings_default(&s);
    s.tol = h->a.final_tol, s.max_iter = h->a.maxit, s.wall_limit = -1;
    s.time_limit = fmax(1e-3, h->a.limit - (cpu_now() - h->t0));
    s.options = opts, s.noptions = nopts;
    cb_solution sol;
    cb_info info = {0};
    assert_true(cb_solution_alloc(h->w, &sol, &err) == CB_OK);
    memcpy(sol.p, p, h->n * sizeof *p);
    assert_true(cb_solve(cb_solver_find(h->a.solver), h->w, &s, &sol, &info, &err) == CB_OK);
    memcpy(p, sol.p, h->n * sizeof *p);
    printf("polish at s = 1: %s, %d it, judged %.3e, cpu %.2f\n", cb_status_name(info.status),
           info.iterations, info.error_data, cpu_now() - h->t0);
    cb_info_free(&info);
    cb_solution_free(&sol);
    return judged(h, p, NULL);
}

/* Asserts that the s = 1 data are the file's W and q, bitwise. */
static void check_end(hom *h)
{
    data_at(h, 1.0, h->p0);
    assert_true(!memcmp(h->val, h->w->bsr.val, h->nval * sizeof(double)));
    assert_true(!memcmp(h->q, h->w->q, h->n * sizeof(double)));
}

/* Track s: 0 → 1; returns the final p's judged error on the file's problem. */
static double track(hom *h, double *p)
{
    cb_solution sol;
    cb_workspace *ws = setup_ws(h, &sol);
    double *pp = calloc(h->n, sizeof *pp), *st = calloc(h->n, sizeof *st);
    assert_true(pp && st);
    int rev = getenv("REVERSE") && h->pstar; /* s: 1 → 0 from p* */
    memcpy(p, rev ? h->pstar : h->p0, h->n * sizeof *p);
    double s = rev ? 1.0 : 0.0, hs = h->a.h0, hp = 0.0, e = INFINITY, np = 0;
    int steps = 0, newton = 0, rejected = 0;
    cb_error err;
    double track_limit = env_double("TRACK", h->a.limit);
    while ((rev ? s > 0.0 : s < 1.0) && hs >= h->a.hmin && cpu_now() - h->t0 < track_limit) {
        double sn = rev ? fmax(0.0, s - hs) : fmin(1.0, s + hs);
        predict(h, p, pp, fabs(sn - s), hp, st);
        data_at(h, sn, p);
        push(h, ws);
        assert_true(cb_warm_start(ws, st, h->n, &err) == CB_OK);
        cb_info info = {0};
        assert_true(cb_solve_ws(ws, &sol, &info, &err) == CB_OK);
        int ok = info.error_data <= h->a.inner;
        newton += info.iterations;
        if (ok) {
            memcpy(pp, p, h->n * sizeof *p), memcpy(p, sol.p, h->n * sizeof *p);
            hp = fabs(sn - s), s = sn, steps++;
            if (info.iterations <= h->a.hgood)
                hs = fmin(h->a.hmax, 2.0 * hs);
        } else {
            hs = 0.25 * fabs(sn - s), rejected++;
        }
        e = judged(h, ok ? p : sol.p, &np);
        if (e < h->ebest)
            h->ebest = e, memcpy(h->best, ok ? p : sol.p, h->n * sizeof *p);
        printf("s %.6f %s %-10s %3d it err_s %.3e | file err %.3e |p| %.3e dy* %.3f cpu %.2f\n",
               sn, ok ? "ok " : "REJ", cb_status_name(info.status), info.iterations,
               info.error_data, e, np, dist_ystar(h, ok ? p : sol.p), cpu_now() - h->t0);
        fflush(stdout);
        cb_info_free(&info);
    }
    e = judged(h, p, NULL);
    if (!rev && s >= 1.0 && e > h->a.final_tol)
        e = polish(h, p, h->a.opts, h->a.nopts);
    if (e > h->a.final_tol && getenv("POLISH_LINEAR")) {
        cb_option o = {.key = "linear", .value = getenv("POLISH_LINEAR")};
        memcpy(p, h->best, h->n * sizeof *p);
        printf("polish from the best iterate (judged %.3e), nsn linear=%s\n", h->ebest, o.value);
        e = polish(h, p, &o, 1);
    }
    printf("end: s %.6f (h %.2e), %d accepted, %d rejected, %d corrector iterations, file err "
           "%.3e, cpu %.2f\n", s, hs, steps, rejected, newton, e, cpu_now() - h->t0);
    free(pp), free(st);
    cb_solution_free(&sol);
    cb_cleanup(ws);
    return e;
}

int main(int argc, char **argv)
{
    hom h = {0};
    parse_args(argc, argv, &h.a);
    cb_error err;
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    cb_problem *prob = NULL, *bsr = NULL;
    assert_true(cb_read_problem(argv[1], &rs, &prob, &err) == CB_OK);
    assert_true(cb_problem_to_bsr(prob, &bsr, &err) == CB_OK);
    h.t0 = cpu_now();
    h.w = bsr, h.n = cb_problem_n(bsr);
    h.nval = (size_t)bsr->bsr.nnzb * (size_t)(bsr->d * bsr->d);
    cb_judge_scale sc;
    cb_judge_scale_of(bsr, &sc);
    h.wbar = sc.diag_mean;
    h.p0 = calloc(h.n, sizeof(double)), h.q0 = calloc(h.n, sizeof(double));
    h.best = calloc(h.n, sizeof(double)), h.ebest = INFINITY;
    h.val = malloc(h.nval * sizeof(double)), h.q = malloc(h.n * sizeof(double));
    h.mu = malloc((size_t)bsr->nc * sizeof(double));
    h.mu_r = malloc((size_t)bsr->nc * sizeof(double)), h.mu_s = malloc((size_t)bsr->nc * 8);
    double *p = malloc(h.n * sizeof *p);
    assert_true(h.p0 && h.q0 && h.val && h.q && h.mu && h.mu_r && h.mu_s && p);
    if (getenv("SOL")) {
        int nc, d;
        double *ps = NULL;
        assert_true(cb_read_solution(getenv("SOL"), &nc, &d, &ps, &h.ystar, &err) == CB_OK);
        double np = 0.0;
        for (size_t i = 0; i < h.n; i++)
            np += ps[i] * ps[i];
        printf("SOL: |p*| %.3e, judged error of p* %.3e\n", sqrt(np), judged(&h, ps, NULL));
        h.pstar = ps;
        h.y = malloc(h.n * sizeof(double));
        assert_true(h.y != NULL);
    }
    start_point(&h);
    check_end(&h);
    double e = track(&h, p);
    printf("%s: judged error %.3e after %.2f s CPU\n", e <= h.a.final_tol ? "solved" : "not solved",
           e, cpu_now() - h.t0);
    free(p), free(h.p0), free(h.q0), free(h.val), free(h.q), free(h.mu), free(h.mu_r), free(h.mu_s);
    free(h.ystar), free(h.y), free(h.best), free(h.pstar);
    cb_problem_free(bsr);
    cb_problem_free(prob);
    return 0;
}
