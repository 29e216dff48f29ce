/* conebench tests — the workspace API (solver.h: cb_setup, cb_update_*, cb_warm_start,
 * cb_solve_ws, cb_cleanup). The reference is always cb_solve, the one-call path, on the same
 * (or the updated) problem: every native solver must give the same bits — p, y, iterations,
 * status, the judged errors and the work counters — whether its work was set up afresh or
 * brought up to date by its update. Bad inputs are refused naming the field, and leave the
 * workspace usable; the symbolic analyses (KLU, CHOLMOD) are not repeated after an update. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/generate.h"
#include "conebench/io.h"
#include "solve_limited.h"
#include "solvers_internal.h"

#define MAX_ITER 300

/* One solve's outcome, for exact comparison. */
typedef struct {
    cb_info info;
    double *p, *y;
    size_t n;
} outcome;

static void outcome_free(outcome *o)
{
    cb_info_free(&o->info);
    free(o->p);
    free(o->y);
}

static void settings(cb_settings *s)
{
    cb_settings_default(s);
    s->max_iter = MAX_ITER;
    s->time_limit = 0; /* no budget: the runs are deterministic */
}

/* cb_solve of sv on prob from p = 0. */
static outcome fresh(const cb_solver *sv, const cb_problem *prob)
{
    cb_settings s;
    settings(&s);
    cb_solution sol;
    cb_error err = {{0}};
    assert_int_equal(cb_solution_alloc(prob, &sol, &err), CB_OK);
    outcome o = {.n = sol.n};
    if (cb_solve(sv, prob, &s, &sol, &o.info, &err) != CB_OK)
        fail_msg("%s: cb_solve: %s", sv->name, err.text);
    o.p = sol.p, o.y = sol.y;
    return o;
}

/* cb_solve_ws on ws from p = 0. */
static outcome from_ws(cb_workspace *ws)
{
    cb_solution sol;
    cb_error err = {{0}};
    assert_int_equal(cb_solution_alloc(cb_workspace_problem(ws), &sol, &err), CB_OK);
    assert_int_equal(cb_warm_start(ws, NULL, 0, &err), CB_OK);
    outcome o = {.n = sol.n};
    if (cb_solve_ws(ws, &sol, &o.info, &err) != CB_OK)
        fail_msg("cb_solve_ws: %s", err.text);
    o.p = sol.p, o.y = sol.y;
    return o;
}

/* The two outcomes are the same bits (the timings aside). */
static void assert_same(const outcome *a, const outcome *b, const char *what)
{
    const cb_info *x = &a->info, *y = &b->info;
    if (a->n != b->n || memcmp(a->p, b->p, a->n * sizeof *a->p) ||
        memcmp(a->y, b->y, a->n * sizeof *a->y) || x->status != y->status ||
        x->solved != y->solved || x->iterations != y->iterations ||
        memcmp(&x->error_data, &y->error_data, sizeof x->error_data) ||
        memcmp(&x->solver_error, &y->solver_error, sizeof x->solver_error) ||
        memcmp(&x->work, &y->work, sizeof x->work))
        fail_msg("%s: differs (iterations %d / %d, status %s / %s, error %.17g / %.17g)", what,
                 x->iterations, y->iterations, cb_status_name(x->status),
                 cb_status_name(y->status), x->error_data, y->error_data);
}

static cb_workspace *setup_with(const cb_solver *sv, const cb_problem *prob, const cb_option *opt,
                                int nopt)
{
    cb_settings s;
    settings(&s);
    s.options = opt, s.noptions = nopt;
    cb_workspace *ws = NULL;
    cb_error err = {{0}};
    if (cb_setup(&ws, sv, prob, &s, &err) != CB_OK)
        fail_msg("%s: cb_setup: %s", sv->name, err.text);
    return ws;
}

static cb_workspace *setup(const cb_solver *sv, const cb_problem *prob)
{
    return setup_with(sv, prob, NULL, 0);
}

/* The native solvers: every built-in one but the Siconos adapters. */
static int native(const cb_solver *sv)
{
    return cb_solver_stops_at_limit(sv) && strncmp(sv->name, "siconos-", 8) != 0 &&
           strcmp(sv->name, "external") != 0;
}

static cb_problem *random_problem(cb_kind kind, int nc, cb_gen_matrix m, cb_storage st,
                                  uint64_t seed)
{
    cb_random_settings rs;
    cb_random_settings_default(&rs);
    rs.kind = kind, rs.nc = nc, rs.matrix = m, rs.storage = st, rs.seed = seed;
    cb_problem *p = NULL;
    cb_error err = {{0}};
    if (cb_generate_random(&rs, &p, NULL, NULL, &err) != CB_OK)
        fail_msg("generate: %s", err.text);
    return p;
}

/* The problems: generated (BSR multibody, dense SPD, rolling BSR) and two shipped files (when
 * the data folder is there). */
static int problems(cb_problem **out)
{
    int n = 0;
    out[n++] = random_problem(CB_KIND_COULOMB3D, 12, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 3);
    out[n++] = random_problem(CB_KIND_COULOMB3D, 8, CB_GEN_SPD, CB_STORAGE_DENSE, 5);
    out[n++] = random_problem(CB_KIND_ROLLING3D, 8, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 7);
    const char *files[] = {"fc3d/Rover4396.dat", "fc3d/Confeti-ex13-4contact-Fc3D-SBM.dat"};
    for (size_t k = 0; cbt_data_dir() && k < sizeof files / sizeof *files; k++) {
        cb_error err = {{0}};
        if (cb_read_problem(cbt_data_path(files[k]), NULL, &out[n], &err) != CB_OK)
            fail_msg("%s", err.text);
        n++;
    }
    return n;
}

static void free_problems(cb_problem **p, int n)
{
    for (int k = 0; k < n; k++)
        cb_problem_free(p[k]);
}

/* Run one case on every native solver × every problem it takes (a copy of the problem: the
 * case may change it). */
static void each_case(void (*one)(const cb_solver *sv, cb_problem *prob, int k))
{
    cb_problem *probs[8];
    int np = problems(probs);
    for (int i = 0; i < cb_solver_count(); i++) {
        const cb_solver *sv = cb_solver_at(i);
        for (int k = 0; native(sv) && k < np; k++) {
            if (sv->supports && sv->supports(probs[k], NULL) != CB_OK)
                continue;
            cb_problem *copy = NULL;
            assert_int_equal(cb_problem_copy(probs[k], &copy, NULL), CB_OK);
            one(sv, copy, k);
            cb_problem_free(copy);
        }
    }
    free_problems(probs, np);
}

/* (1) setup + solve gives cb_solve's bits; so does a second solve with nothing changed (the
 * work is left as a fresh setup makes it), and a solve after the caller freed its problem (the
 * workspace owns a copy). */
static void setup_solve_case(const cb_solver *sv, cb_problem *prob, int k)
{
    outcome ref = fresh(sv, prob);
    cb_problem *copy = NULL;
    assert_int_equal(cb_problem_copy(prob, &copy, NULL), CB_OK);
    cb_workspace *ws = setup(sv, copy);
    cb_problem_free(copy); /* the workspace has its own */
    outcome a = from_ws(ws), b = from_ws(ws);
    char what[128];
    snprintf(what, sizeof what, "%s on problem %d, first solve", sv->name, k);
    assert_same(&ref, &a, what);
    snprintf(what, sizeof what, "%s on problem %d, second solve", sv->name, k);
    assert_same(&ref, &b, what);
    outcome_free(&a), outcome_free(&b), outcome_free(&ref);
    cb_cleanup(ws);
}

static void test_setup_solve_same_bits(void **state)
{
    (void)state;
    each_case(setup_solve_case);
}

/* New q, μ and W values: x ← x·(1 + a sin(i + phase)) entry by entry (W: the pattern kept). */
static void perturb(double *x, size_t n, double a, double phase)
{
    for (size_t i = 0; i < n; i++)
        x[i] *= 1.0 + a * sin((double)i + phase);
}

static size_t w_count(const cb_problem *p)
{
    size_t n = cb_problem_n(p);
    return p->storage == CB_STORAGE_DENSE ? n * n : (size_t)p->bsr.nnzb * p->d * p->d;
}

static double *w_values(cb_problem *p) { return p->storage == CB_STORAGE_DENSE ? p->W : p->bsr.val; }

/* Apply change (CB_CHANGED_* flags) to mod and, through the updates, to ws. */
static void change(cb_problem *mod, cb_workspace *ws, unsigned what, double phase)
{
    cb_error err = {{0}};
    size_t n = cb_problem_n(mod), nc = (size_t)mod->nc;
    if (what & CB_CHANGED_Q) {
        perturb(mod->q, n, 0.2, phase);
        assert_int_equal(cb_update_q(ws, mod->q, n, &err), CB_OK);
    }
    if (what & CB_CHANGED_MU) {
        perturb(mod->mu, nc, 0.3, phase);
        perturb(mod->mu_r, nc, 0.3, phase);
        assert_int_equal(cb_update_mu(ws, mod->mu, mod->mu_r, NULL, nc, &err), CB_OK);
    }
    if (what & CB_CHANGED_W) {
        double *v = w_values(mod);
        for (size_t i = 0; i < w_count(mod); i++) /* symmetric change, definiteness kept */
            v[i] *= 1.05 + 0.01 * sin(phase);
        assert_int_equal(cb_update_W(ws, v, w_count(mod), &err), CB_OK);
    }
}

/* (2) update_q / update_mu / update_W (each alone, then all three, then again) and solve: the
 * same bits as cb_solve of the modified problem. */
static void updates_case(const cb_solver *sv, cb_problem *mod, int k)
{
    const unsigned steps[] = {CB_CHANGED_Q, CB_CHANGED_MU, CB_CHANGED_W,
                              CB_CHANGED_Q | CB_CHANGED_MU | CB_CHANGED_W, CB_CHANGED_Q};
    cb_workspace *ws = setup(sv, mod);
    outcome first = from_ws(ws);
    outcome_free(&first);
    for (size_t t = 0; t < sizeof steps / sizeof *steps; t++) {
        change(mod, ws, steps[t], (double)t);
        outcome ref = fresh(sv, mod), got = from_ws(ws);
        char what[128];
        snprintf(what, sizeof what, "%s on problem %d after update %zu (flags %u)", sv->name, k,
                 t, steps[t]);
        assert_same(&ref, &got, what);
        outcome_free(&ref), outcome_free(&got);
    }
    cb_cleanup(ws);
}

static void test_updates_same_bits(void **state)
{
    (void)state;
    each_case(updates_case);
}

/* A copy of prob with new q, μ and W values (the same pattern). */
static cb_problem *perturbed_copy(const cb_problem *prob)
{
    cb_problem *same = NULL;
    cb_error err = {{0}};
    assert_int_equal(cb_problem_copy(prob, &same, &err), CB_OK);
    perturb(same->q, cb_problem_n(same), 0.2, 1.0);
    perturb(same->mu, (size_t)same->nc, 0.3, 2.0);
    for (size_t i = 0; i < w_count(same); i++)
        w_values(same)[i] *= 1.03;
    return same;
}

/* (2b) cb_update_problem: a problem of the same pattern (new q, μ, W values) is taken by update
 * (setup_again 0), one of another pattern (nc + 1) by a new setup (setup_again 1); both give
 * the same bits as cb_solve of that problem. NULL arguments are refused. */
static void update_problem_case(const cb_solver *sv, cb_problem *prob, int k)
{
    cb_problem *same = perturbed_copy(prob), *other = NULL;
    cb_error err = {{0}};
    int again = -1;
    other = random_problem(prob->kind, prob->nc + 1, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 77);
    cb_workspace *ws = setup(sv, prob);
    const cb_problem *next[2] = {same, other};
    for (int t = 0; t < 2; t++) {
        assert_int_equal(cb_update_problem(&ws, next[t], &again, &err), CB_OK);
        assert_int_equal(again, t == 1 || prob->global || prob->storage == CB_STORAGE_FACTORED);
        outcome ref = fresh(sv, next[t]), got = from_ws(ws);
        char what[128];
        snprintf(what, sizeof what, "%s on problem %d, update_problem %d", sv->name, k, t);
        assert_same(&ref, &got, what);
        outcome_free(&ref), outcome_free(&got);
    }
    assert_int_equal(cb_update_problem(&ws, NULL, &again, &err), CB_ERR_INPUT);
    assert_int_equal(cb_update_problem(NULL, other, &again, &err), CB_ERR_INPUT);
    cb_cleanup(ws);
    cb_problem_free(same);
    cb_problem_free(other);
}

static void test_update_problem(void **state)
{
    (void)state;
    each_case(update_problem_case);
}

/* (2c) cb_workspace_take (solve_limited.h, the time-stepper's): the workspace holds the given
 * problem itself (no copy: cb_workspace_problem is that pointer), takes a problem of the same
 * pattern by copying its values into the kept one and freeing it, one of another pattern by a
 * new setup on it; every solve gives the bits of cb_solve on that problem. */
static void take_case(const cb_solver *sv, cb_problem *prob, int k)
{
    cb_problem *first = NULL, *same = perturbed_copy(prob), *other = NULL;
    cb_error err = {{0}};
    cb_settings s;
    settings(&s);
    assert_int_equal(cb_problem_copy(prob, &first, &err), CB_OK);
    other = random_problem(prob->kind, prob->nc + 1, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 77);
    outcome ref[3] = {fresh(sv, first), fresh(sv, same), fresh(sv, other)};
    cb_problem *next[3] = {first, same, other};
    const cb_problem *held[3] = {first, first, other}; /* the problem the workspace holds after */
    if (prob->global || prob->storage == CB_STORAGE_FACTORED)
        held[1] = same; /* no update of those: set up again on it */
    cb_workspace *ws = NULL;
    for (int t = 0; t < 3; t++) {
        assert_int_equal(cb_workspace_take(&ws, sv, &next[t], &s, &err), CB_OK);
        assert_null(next[t]);
        assert_ptr_equal(cb_workspace_problem(ws), held[t]);
        outcome got = from_ws(ws);
        char what[128];
        snprintf(what, sizeof what, "%s on problem %d, take %d", sv->name, k, t);
        assert_same(&ref[t], &got, what);
        outcome_free(&ref[t]), outcome_free(&got);
    }
    cb_problem *none = NULL;
    assert_int_equal(cb_workspace_take(&ws, sv, &none, &s, &err), CB_ERR_INPUT);
    cb_cleanup(ws);
}

static void test_take(void **state)
{
    (void)state;
    each_case(take_case);
}

/* A refused call: CB_ERR_INPUT with a message naming `field`. */
static void refused(int rc, const cb_error *err, const char *field)
{
    assert_int_equal(rc, CB_ERR_INPUT);
    if (!strstr(err->text, field))
        fail_msg("message '%s' does not name %s", err->text, field);
}

/* (3) bad inputs are refused naming the field, before anything changes: the workspace then
 * solves exactly as before. */
static void test_bad_inputs(void **state)
{
    (void)state;
    cb_problem *prob = random_problem(CB_KIND_COULOMB3D, 6, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 11);
    const cb_solver *sv = cb_solver_find("nsn");
    outcome ref = fresh(sv, prob);
    cb_workspace *ws = setup(sv, prob);
    size_t n = cb_problem_n(prob), nc = (size_t)prob->nc, nw = w_count(prob);
    double *bad = malloc((nw > n ? nw : n) * sizeof *bad);
    assert_non_null(bad);
    cb_error err = {{0}};
    refused(cb_update_q(ws, NULL, n, &err), &err, "q");
    refused(cb_update_q(ws, prob->q, n - 1, &err), &err, "q");
    memcpy(bad, prob->q, n * sizeof *bad);
    bad[n / 2] = NAN;
    refused(cb_update_q(ws, bad, n, &err), &err, "q");
    refused(cb_update_q(NULL, prob->q, n, &err), &err, "q");
    memcpy(bad, prob->mu, nc * sizeof *bad);
    bad[0] = -0.5;
    refused(cb_update_mu(ws, bad, NULL, NULL, nc, &err), &err, "mu");
    refused(cb_update_mu(ws, NULL, NULL, NULL, nc, &err), &err, "mu");
    refused(cb_update_mu(ws, NULL, prob->mu, NULL, nc + 1, &err), &err, "mu");
    bad[0] = INFINITY;
    refused(cb_update_mu(ws, prob->mu, NULL, bad, nc, &err), &err, "mu_s");
    refused(cb_update_W(ws, prob->bsr.val, nw + 9, &err), &err, "W");
    memcpy(bad, prob->bsr.val, nw * sizeof *bad);
    bad[nw - 1] = NAN;
    refused(cb_update_W(ws, bad, nw, &err), &err, "W");
    refused(cb_warm_start(ws, bad, n + 1, &err), &err, "warm start");
    cb_solution sol = {0};
    cb_info info;
    refused(cb_solve_ws(ws, &sol, &info, &err), &err, "solution");
    assert_int_equal(info.status, CB_STATUS_BAD_INPUT);
    outcome after = from_ws(ws);
    assert_same(&ref, &after, "nsn after refused updates");
    outcome_free(&after);
    cb_cleanup(ws);
    cb_cleanup(NULL);
    /* setup refuses before allocating: settings, problem, options, support */
    cb_settings s;
    settings(&s);
    s.tol = -1;
    refused(cb_setup(&ws, sv, prob, &s, &err), &err, "tol");
    assert_null(ws);
    settings(&s);
    cb_option opt = {"formulation", "newtonian"};
    s.options = &opt, s.noptions = 1;
    refused(cb_setup(&ws, sv, prob, &s, &err), &err, "formulation");
    assert_null(ws);
    settings(&s);
    prob->q[0] = NAN;
    refused(cb_setup(&ws, sv, prob, &s, &err), &err, "q");
    assert_null(ws);
    free(bad);
    outcome_free(&ref);
    cb_problem_free(prob);
}

/* W in factored storage, or with the global form it was condensed from, cannot take new
 * values alone: refused with the reason; μ still can. */
static void test_refused_storages(void **state)
{
    (void)state;
    cb_problem *g = cbt_global_problem(CB_KIND_COULOMB3D, 3, 0, 4, 0.0, 5);
    cb_workspace *ws = setup(cb_solver_find("ipm"), g);
    cb_error err = {{0}};
    size_t n = cb_problem_n(g), nw = w_count(g);
    refused(cb_update_q(ws, g->q, n, &err), &err, "global form");
    refused(cb_update_W(ws, w_values(g), nw, &err), &err, "global form");
    perturb(g->mu, (size_t)g->nc, 0.3, 1.0);
    assert_int_equal(cb_update_mu(ws, g->mu, NULL, NULL, (size_t)g->nc, &err), CB_OK);
    outcome ref = fresh(cb_solver_find("ipm"), g), got = from_ws(ws);
    assert_same(&ref, &got, "ipm on a global problem after update_mu");
    outcome_free(&ref), outcome_free(&got);
    cb_cleanup(ws);
    cb_problem_free(g);
}

/* (4) the symbolic analyses: a fresh cb_solve of nsn or ipm runs one (the counter counts), an
 * update does not repeat it (BSR and dense, q, μ and W values). Pure ipm and nsn: a composite
 * (ipm+nsn) has no update of its own and is set up again. nc = 40 (n = 120): nsn's Newton
 * systems of order ≤ NSN_DENSE_MAX = 100 take its dense backend, which analyses nothing (checked
 * on nc = 10). */
static void test_analysis_kept(void **state)
{
    (void)state;
    const char *names[] = {"nsn", "ipm"};
    cb_storage st[] = {CB_STORAGE_BSR, CB_STORAGE_DENSE};
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 2; k++) {
            const cb_solver *sv = cb_solver_find(names[k]);
            cb_problem *prob = random_problem(CB_KIND_COULOMB3D, 10,
                                              s ? CB_GEN_SPD : CB_GEN_MULTIBODY, st[s], 13);
            long a0 = cb_analyses();
            if (k == 0) { /* small: nsn's dense backend, no analysis */
                outcome small = fresh(sv, prob);
                assert_int_equal(cb_analyses(), a0);
                outcome_free(&small);
                cb_problem_free(prob);
                prob = random_problem(CB_KIND_COULOMB3D, 40, s ? CB_GEN_SPD : CB_GEN_MULTIBODY,
                                      st[s], 13);
            }
            outcome ref = fresh(sv, prob);
            assert_true(cb_analyses() > a0); /* the counter sees the one-call path's analysis */
            outcome_free(&ref);
            a0 = cb_analyses();
            cb_workspace *ws = setup_with(sv, prob, NULL, 0);
            long a1 = cb_analyses();
            assert_true(a1 > a0);
            for (int t = 0; t < 3; t++) {
                change(prob, ws, CB_CHANGED_Q | CB_CHANGED_MU | CB_CHANGED_W, t);
                outcome got = from_ws(ws);
                outcome_free(&got);
            }
            if (cb_analyses() != a1)
                fail_msg("%s (%s): %ld analyses after 3 updates", names[k],
                         cb_storage_name(st[s]), cb_analyses() - a1);
            cb_cleanup(ws);
            cb_problem_free(prob);
        }
}

/* The start: zero after setup, the last answer after a solve, cb_warm_start's p when given. */
static void test_warm_start(void **state)
{
    (void)state;
    cb_problem *prob = random_problem(CB_KIND_COULOMB3D, 6, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 17);
    const cb_solver *sv = cb_solver_find("nsgs");
    cb_workspace *ws = setup(sv, prob);
    outcome a = from_ws(ws);
    cb_solution sol;
    cb_info info;
    cb_error err = {{0}};
    assert_int_equal(cb_solution_alloc(prob, &sol, &err), CB_OK);
    assert_int_equal(cb_solve_ws(ws, &sol, &info, &err), CB_OK); /* from a's answer */
    cb_settings s;
    settings(&s);
    cb_solution ref;
    cb_info rinfo;
    assert_int_equal(cb_solution_alloc(prob, &ref, &err), CB_OK);
    memcpy(ref.p, a.p, a.n * sizeof *ref.p);
    assert_int_equal(cb_solve(sv, prob, &s, &ref, &rinfo, &err), CB_OK);
    assert_memory_equal(sol.p, ref.p, a.n * sizeof *sol.p);
    assert_int_equal(info.iterations, rinfo.iterations);
    assert_true(info.iterations < a.info.iterations); /* warm: fewer sweeps than from zero */
    cb_solution_free(&sol), cb_solution_free(&ref);
    outcome_free(&a);
    cb_cleanup(ws);
    cb_problem_free(prob);
}

/* A solver without update (a Siconos adapter) is set up again by the workspace: after new q
 * and μ values its solve is cb_solve's on the modified problem, status, iterations and p. */
static void test_no_update_hook(void **state)
{
    (void)state;
    CBT_REQUIRE_SICONOS();
    const cb_solver *sv = cb_solver_find("siconos-nsgs");
    assert_non_null(sv);
    assert_null(sv->update);
    cb_problem *mod = random_problem(CB_KIND_COULOMB3D, 8, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 23);
    cb_workspace *ws = setup(sv, mod);
    for (int t = 0; t < 3; t++) {
        if (t > 0)
            change(mod, ws, CB_CHANGED_Q | CB_CHANGED_MU, t);
        outcome ref = fresh(sv, mod), got = from_ws(ws);
        assert_int_equal(got.info.status, ref.info.status);
        assert_int_equal(got.info.iterations, ref.info.iterations);
        assert_memory_equal(got.p, ref.p, got.n * sizeof *got.p);
        outcome_free(&ref), outcome_free(&got);
    }
    cb_cleanup(ws);
    cb_problem_free(mod);
}

/* The budget holds per solve, as in cb_solve: a run whose budget is spent before it starts
 * (cpu_spent = time_limit) is time_limit at once, p the start, no iteration, whether the work
 * was set up by cb_solve or is kept in a workspace (twice: the first solve and a later one);
 * the setup's time is charged to the first solve (time_setup), the judge still judges. */
static void test_budget_per_solve(void **state)
{
    (void)state;
    cb_problem *prob = random_problem(CB_KIND_COULOMB3D, 6, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 19);
    cb_settings s;
    settings(&s);
    s.time_limit = 1.0, s.cpu_spent = 1.0;
    cb_solution sol;
    cb_info info;
    cb_error err = {{0}};
    assert_int_equal(cb_solution_alloc(prob, &sol, &err), CB_OK);
    for (int i = 0; i < cb_solver_count(); i++) {
        const cb_solver *sv = cb_solver_at(i);
        if (!native(sv))
            continue;
        memset(sol.p, 0, sol.n * sizeof *sol.p);
        assert_int_equal(cb_solve(sv, prob, &s, &sol, &info, &err), CB_OK);
        assert_int_equal(info.status, CB_STATUS_TIME_LIMIT);
        assert_int_equal(info.iterations, 0);
        cb_workspace *ws = NULL;
        assert_int_equal(cb_setup(&ws, sv, prob, &s, &err), CB_OK);
        for (int k = 0; k < 2; k++) {
            assert_int_equal(cb_solve_ws(ws, &sol, &info, &err), CB_OK);
            assert_int_equal(info.status, CB_STATUS_TIME_LIMIT);
            assert_int_equal(info.iterations, 0);
            assert_true(cb_all_finite(sol.p, sol.n));
            for (size_t j = 0; j < sol.n; j++)
                assert_true(sol.p[j] == 0.0); /* the start: zero */
            assert_true(k > 0 || info.time_setup > 0); /* the setup, charged to the first */
            assert_true(info.time_cpu >= s.cpu_spent);
            assert_true(info.error_data > 0); /* judged: p = 0 solves no random problem */
        }
        cb_cleanup(ws);
    }
    cb_solution_free(&sol);
    cb_problem_free(prob);
}

/* cb_settings.threads: outside [1, CB_THREADS_MAX] refused naming it; within, every solver that
 * shares out work (nsgs order=coloured: the colours; apgd, pfp: W products, residuals and
 * projections) gives the same p, y, iterations and counters at 1 and 2 threads, on more
 * contacts than CB_PAR_MIN_ROWS so that the work is shared out. */
static void test_threads(void **state)
{
    (void)state;
    cb_problem *prob = random_problem(CB_KIND_ROLLING3D, 1500, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 3);
    const char *names[] = {"nsgs", "apgd", "pfp"};
    static const cb_option coloured[] = {{"order", "coloured"}};
    cb_error err = {{0}};
    for (int k = 0; k < 3; k++) {
        outcome o[3]; /* 1, 2 and 3 threads (uneven shares of rows and chunks) */
        for (int t = 0; t < 3; t++) {
            cb_settings s;
            settings(&s);
            s.max_iter = 30;
            s.threads = t + 1;
            if (k == 0)
                s.options = coloured, s.noptions = 1;
            cb_solution sol;
            assert_int_equal(cb_solution_alloc(prob, &sol, &err), CB_OK);
            o[t] = (outcome){.n = sol.n, .p = sol.p, .y = sol.y};
            if (cb_solve(cb_solver_find(names[k]), prob, &s, &sol, &o[t].info, &err) != CB_OK)
                fail_msg("%s: %s", names[k], err.text);
        }
        for (int t = 1; t < 3; t++) {
            assert_int_equal(o[0].info.iterations, o[t].info.iterations);
            assert_memory_equal(&o[0].info.work, &o[t].info.work, sizeof o[0].info.work);
            assert_memory_equal(o[0].p, o[t].p, o[0].n * sizeof(double));
            assert_memory_equal(o[0].y, o[t].y, o[0].n * sizeof(double));
        }
        for (int t = 0; t < 3; t++)
            outcome_free(&o[t]);
    }
    for (int bad = -1; bad <= 1; bad += 2) {
        cb_settings s;
        settings(&s);
        s.threads = bad < 0 ? 0 : CB_THREADS_MAX + 1;
        cb_solution sol;
        cb_info info;
        assert_int_equal(cb_solution_alloc(prob, &sol, &err), CB_OK);
        assert_int_equal(cb_solve(cb_solver_find("nsgs"), prob, &s, &sol, &info, &err),
                         CB_ERR_INPUT);
        assert_non_null(strstr(err.text, "threads"));
        cb_solution_free(&sol);
        cb_info_free(&info);
    }
    cb_problem_free(prob);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_solve_same_bits), cmocka_unit_test(test_updates_same_bits),
        cmocka_unit_test(test_update_problem),
        cmocka_unit_test(test_take),
        cmocka_unit_test(test_bad_inputs),            cmocka_unit_test(test_refused_storages),
        cmocka_unit_test(test_analysis_kept),         cmocka_unit_test(test_warm_start),
        cmocka_unit_test(test_budget_per_solve),     cmocka_unit_test(test_no_update_hook),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
