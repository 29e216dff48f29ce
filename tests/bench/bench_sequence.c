/* conebench bench — solvers through a step sequence the way a simulator runs them (BENCHMARKS.md,
 * "Sequences: warm-started solvers step by step").
 *
 * For a step folder DIR (a sequence: src/io/sequence.h; `conebench generate SCENARIO --steps`,
 * `make scenes`), every solver runs the whole sequence through one workspace: cb_setup on the
 * first step, cb_update_problem on each next one (set up again when contacts came or went), a
 * warm start, cb_solve_ws. Warm starts: mapped (the previous step's p carried by contact
 * identity, new contacts at 0; the default, needs .ids), previous (positional, when the size is
 * the same), cold (p = 0). The solvers' runs are interleaved: each round runs every solver once,
 * in an order rotated every round, so all share the machine's state.
 *
 * Reported per solver (CPU seconds of this process around each step's update, warm start and
 * solve; median over the rounds): total time, time per step (total / steps), total iterations,
 * worst step error, steps the judge calls unsolved, and the ratio of the total to the first
 * solver's (the anchor, e.g. siconos-nsgs): median [min, max] of the per-round ratios.
 * Asserts (exit 1): every step judged (an error, never a crash of the run), and the same
 * iterations and verdicts in every round (the solvers are deterministic).
 *
 * Usage: bench_sequence DIR [--rounds R] [--tol T] [--warm mapped|previous|cold]
 *                       [--max-iter N] [--time-limit S] SOLVER...
 *   defaults: 5 rounds, tol 1e-8, max-iter 10000, time limit 10 CPU s a step. A step stopped
 *   by its time limit is unsolved, and a run with one is not deterministic in its iterations:
 *   such solvers are reported but not held to the same-iterations check.
 */
#include "../support/bench_median.h"
#include "../support/require.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conebench/solver.h"
#include "sequence.h"

#define MAX_SOLVERS 16
#define MAX_ROUNDS 101

typedef enum { WARM_COLD, WARM_PREVIOUS, WARM_MAPPED } warm_mode;

typedef struct {
    cb_problem **prob;
    cb_contact_ids *ids;
    int n;
} steps;

typedef struct {
    double cpu[MAX_ROUNDS];
    long iters[MAX_ROUNDS];
    int unsolved[MAX_ROUNDS];
    int timed_out[MAX_ROUNDS];
    double worst[MAX_ROUNDS];
} tally;

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int load(const char *dir, steps *st, cb_error *err)
{
    cb_sequence *s = NULL;
    int rc = cb_sequence_open(dir, &s, err);
    if (rc == CB_OK) {
        st->prob = calloc((size_t)s->nsteps, sizeof *st->prob);
        st->ids = calloc((size_t)s->nsteps, sizeof *st->ids);
        rc = st->prob && st->ids ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    for (int k = 0; rc == CB_OK && k < s->nsteps; k++)
        if ((rc = cb_sequence_read_step(s, k, NULL, &st->prob[k], &st->ids[k], err)) == CB_OK)
            st->n++;
    cb_sequence_free(s);
    return rc;
}

/* Step k's start from step k−1's answer p_prev (n_prev values). */
static void warm(const steps *st, int k, warm_mode m, const double *p_prev, size_t n_prev,
                 double *p)
{
    size_t n = cb_problem_n(st->prob[k]);
    memset(p, 0, n * sizeof *p);
    if (k == 0 || m == WARM_COLD)
        return;
    if (m == WARM_PREVIOUS && n_prev == n)
        memcpy(p, p_prev, n * sizeof *p);
    else if (m == WARM_MAPPED)
        cb_contact_ids_map(&st->ids[k - 1], p_prev, &st->ids[k], p, st->prob[k]->d);
}

/* The whole sequence once with solver sv: its totals into round r of t. */
static int run_once(const steps *st, const cb_solver *sv, const cb_settings *set, warm_mode m,
                    tally *t, int r, cb_error *err)
{
    cb_workspace *ws = NULL;
    double *p_prev = NULL, *start = NULL;
    size_t n_prev = 0;
    int rc = CB_OK;
    t->cpu[r] = 0, t->iters[r] = 0, t->unsolved[r] = 0, t->timed_out[r] = 0, t->worst[r] = 0;
    for (int k = 0; k < st->n && rc == CB_OK; k++) {
        cb_solution sol = {0};
        cb_info info = {0};
        rc = cb_solution_alloc(st->prob[k], &sol, err);
        start = rc == CB_OK ? realloc(start, (sol.n + 1) * sizeof *start) : start;
        if (rc == CB_OK && !start)
            rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
        double t0 = cpu_now();
        if (rc == CB_OK)
            rc = ws ? cb_update_problem(&ws, st->prob[k], NULL, err)
                    : cb_setup(&ws, sv, st->prob[k], set, err);
        if (rc == CB_OK) {
            warm(st, k, m, p_prev, n_prev, start);
            rc = cb_warm_start(ws, start, sol.n, err);
        }
        if (rc == CB_OK)
            rc = cb_solve_ws(ws, &sol, &info, err);
        t->cpu[r] += cpu_now() - t0;
        t->iters[r] += info.iterations;
        t->unsolved[r] += rc == CB_OK && !info.solved;
        t->timed_out[r] += info.status == CB_STATUS_TIME_LIMIT;
        t->worst[r] = fmax(t->worst[r], info.error_data);
        /* the judge's verdict: solved only with a finite error within tol */
        assert_true(rc != CB_OK || !info.solved || info.error_data <= set->tol);
        free(p_prev);
        p_prev = sol.p, n_prev = sol.n, sol.p = NULL;
        cb_solution_free(&sol);
        cb_info_free(&info);
    }
    free(p_prev);
    free(start);
    cb_cleanup(ws);
    return rc;
}

static int parse(int argc, char **argv, int *rounds, cb_settings *set, warm_mode *m, int *first)
{
    int k = 2;
    for (; k + 1 < argc && argv[k][0] == '-'; k += 2) {
        if (!strcmp(argv[k], "--rounds"))
            *rounds = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--tol"))
            set->tol = atof(argv[k + 1]);
        else if (!strcmp(argv[k], "--time-limit"))
            set->time_limit = atof(argv[k + 1]);
        else if (!strcmp(argv[k], "--max-iter"))
            set->max_iter = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--warm"))
            *m = !strcmp(argv[k + 1], "cold") ? WARM_COLD
                 : !strcmp(argv[k + 1], "previous") ? WARM_PREVIOUS : WARM_MAPPED;
        else
            return 0;
    }
    *first = k;
    return argc >= 2 && *rounds >= 1 && *rounds <= MAX_ROUNDS && set->tol > 0 &&
           set->max_iter > 0 && set->time_limit >= 0 && argc - k >= 1 && argc - k <= MAX_SOLVERS;
}

/* Every round gave the same iterations and verdicts (deterministic solvers). */
static int deterministic(const tally *t, int rounds)
{
    for (int r = 0; r < rounds; r++)
        if (t->timed_out[r])
            return 1; /* a time limit cuts a run wherever the machine's load puts it */
    for (int r = 1; r < rounds; r++)
        if (t->iters[r] != t->iters[0] || t->unsolved[r] != t->unsolved[0])
            return 0;
    return 1;
}

static void report(const char *const *names, const tally *t, int ns, int rounds, int nsteps)
{
    printf("| solver | total CPU s | per step ms | iterations | unsolved (time limit) | worst error "
           "| ratio to %s [min, max] |\n|---|---:|---:|---:|---:|---:|---|\n", names[0]);
    for (int i = 0; i < ns; i++) {
        double ratio[MAX_ROUNDS], lo = INFINITY, hi = 0;
        for (int r = 0; r < rounds; r++) {
            ratio[r] = t[i].cpu[r] / t[0].cpu[r];
            lo = fmin(lo, ratio[r]), hi = fmax(hi, ratio[r]);
        }
        double cpu = cbb_median(t[i].cpu, rounds);
        printf("| %s | %.4f | %.3f | %ld | %d (%d) | %.1e | %.3f [%.3f, %.3f] |\n", names[i], cpu,
               1e3 * cpu / nsteps, t[i].iters[0], t[i].unsolved[0], t[i].timed_out[0],
               t[i].worst[0],
               cbb_median(ratio, rounds), lo, hi);
    }
}

int main(int argc, char **argv)
{
    int rounds = 5, first = 0, rc = CB_OK;
    warm_mode m = WARM_MAPPED;
    cb_settings set;
    cb_settings_default(&set);
    set.tol = 1e-8;
    set.time_limit = 10;
    if (!parse(argc, argv, &rounds, &set, &m, &first)) {
        fprintf(stderr, "usage: bench_sequence DIR [--rounds R] [--tol T] [--warm "
                        "mapped|previous|cold] [--max-iter N] SOLVER...\n");
        return 2;
    }
    const char *const *names = (const char *const *)argv + first;
    int ns = argc - first;
    const cb_solver *sv[MAX_SOLVERS];
    for (int i = 0; i < ns; i++)
        if (!(sv[i] = cb_solver_find(names[i]))) {
            fprintf(stderr, "bench_sequence: unknown solver %s\n", names[i]);
            return 2;
        }
    steps st = {0};
    cb_error err = {{0}};
    static tally t[MAX_SOLVERS];
    if (load(argv[1], &st, &err) != CB_OK) {
        fprintf(stderr, "bench_sequence: %s\n", err.text);
        return 2;
    }
    for (int r = 0; r < rounds && rc == CB_OK; r++) {
        for (int j = 0; j < ns && rc == CB_OK; j++) {
            int i = (j + r) % ns; /* rotated order: interleaved */
            rc = run_once(&st, sv[i], &set, m, &t[i], r, &err);
            fprintf(stderr, "bench_sequence: round %d of %d: %s %.3f s\n", r + 1, rounds,
                    names[i], t[i].cpu[r]);
        }
    }
    for (int i = 0; i < ns && rc == CB_OK; i++) {
        if (!deterministic(&t[i], rounds))
            fprintf(stderr, "bench_sequence: %s: iterations or verdicts differ between rounds\n",
                    names[i]);
        assert_true(deterministic(&t[i], rounds));
    }
    if (rc == CB_OK) {
        printf("%s: %d steps, tol %g, warm start %s, %d rounds\n\n", argv[1], st.n, set.tol,
               m == WARM_MAPPED ? "mapped" : m == WARM_PREVIOUS ? "previous" : "cold", rounds);
        report(names, t, ns, rounds, st.n);
    } else {
        fprintf(stderr, "bench_sequence: %s\n", err.text);
    }
    for (int k = 0; k < st.n; k++) {
        cb_problem_free(st.prob[k]);
        cb_contact_ids_free(&st.ids[k]);
    }
    free(st.prob);
    free(st.ids);
    return rc == CB_OK ? 0 : 1;
}
