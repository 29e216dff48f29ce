/* conebench bench — --threads 1 against 2 (or N) inside one process (BENCHMARKS.md, "Threads
 * and nsgs on sphere-pile steps").
 *
 * tests/bench/threads_pile.sh starts a process a solve, so each run gets W at new physical
 * addresses; on a VM the one-thread time of the same solve then swings by up to 40 % from run
 * to run, more than the margin the threads are to show. Here the problem is read once and
 * every solve of every round uses the same W in memory: each round runs each solver at 1 and
 * at N threads (which count first alternates with the round), a fixed number of iterations (tol
 * 1e-300: no stop before max_iter, so both counts do the same work).
 *
 * Reported per solver: the median solve wall time (info.time_solve: the iterations, not the
 * setup) of each count, the per-round ratio t1 / tN as median [min, max], and whether every
 * solution had the same bytes as the one-thread one. Exit 1 when any differs, or a solve
 * fails or stops early (the ratio would compare unequal work).
 *
 * Usage: bench_threads FILE [--rounds R] [--iters K] [--threads N] SOLVER[:key=value]...
 *   defaults: 7 rounds, 50 iterations, 2 threads; e.g.
 *   bench_threads STEP.dat nsgs:order=domains nsgs:order=coloured apgd
 */
#include "../support/bench_median.h"
#include "../support/require.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/io.h"
#include "conebench/solver.h"

#define MAX_SOLVERS 8
#define MAX_ROUNDS 51 /* ≤ CBB_MEDIAN_MAX */

typedef struct {
    const char *label;
    const cb_solver *sv;
    cb_option opt[1];
    int nopt;
    double t[2][MAX_ROUNDS]; /* solve wall seconds at 1 and N threads */
    int differ;
} entry;

/* /proc/loadavg's line into buf ("?" when unreadable). */
static const char *loadavg(char *buf, size_t len)
{
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f || !fgets(buf, (int)len, f))
        snprintf(buf, len, "?");
    if (f)
        fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return buf;
}

/* SOLVER[:key=value] into e (the option's strings point into arg). */
static int parse_solver(char *arg, entry *e)
{
    e->label = strdup(arg);
    char *colon = strchr(arg, ':');
    e->nopt = 0;
    if (colon) {
        *colon = '\0';
        char *eq = strchr(colon + 1, '=');
        if (!eq)
            return -1;
        *eq = '\0';
        e->opt[0].key = colon + 1;
        e->opt[0].value = eq + 1;
        e->nopt = 1;
    }
    e->sv = cb_solver_find(arg);
    return e->sv && e->label ? 0 : -1;
}

/* One solve of e at `threads`, K iterations from p = 0; its wall seconds, its p into p_out. */
static double run(const cb_problem *prob, const entry *e, int threads, int iters, double *p_out)
{
    cb_settings s;
    cb_settings_default(&s);
    s.tol = 1e-300;
    s.max_iter = iters;
    s.time_limit = 0;
    s.wall_limit = -1;
    s.threads = threads;
    s.options = e->opt;
    s.noptions = e->nopt;
    cb_solution sol = {0};
    cb_info info = {0};
    cb_error err;
    assert_true(cb_solution_alloc(prob, &sol, &err) == CB_OK);
    assert_true(cb_solve(e->sv, prob, &s, &sol, &info, &err) == CB_OK);
    assert_true(info.iterations == iters);
    memcpy(p_out, sol.p, cb_problem_n(prob) * sizeof *p_out);
    double t = info.time_solve;
    cb_solution_free(&sol);
    cb_info_free(&info);
    return t;
}

int main(int argc, char **argv)
{
    int rounds = 7, iters = 50, threads = 2, ns = 0;
    const char *file = NULL;
    static entry e[MAX_SOLVERS];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!file)
            file = argv[i];
        else if (ns < MAX_SOLVERS && parse_solver(argv[i], &e[ns]) == 0)
            ns++;
        else {
            fprintf(stderr, "bench_threads: unknown solver or too many: %s\n", argv[i]);
            return 2;
        }
    }
    if (!file || ns == 0 || rounds < 1 || rounds > MAX_ROUNDS || iters < 1 || threads < 2 ||
        threads > CB_THREADS_MAX) {
        fprintf(stderr, "usage: bench_threads FILE [--rounds R<=%d] [--iters K] [--threads N>=2] "
                        "SOLVER[:key=value]...\n", MAX_ROUNDS);
        return 2;
    }
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    cb_problem *prob = NULL;
    cb_error err;
    if (cb_read_problem(file, &rs, &prob, &err) != CB_OK) {
        fprintf(stderr, "bench_threads: %s: %s\n", file, err.text);
        return 2;
    }
    size_t n = cb_problem_n(prob);
    double *p1 = malloc(n * sizeof *p1), *pn = malloc(n * sizeof *pn);
    assert_true(p1 && pn);
    char load[64];
    printf("%s: nc %d, %d rounds of %d iterations, 1 against %d threads; load before: %s\n",
           file, prob->nc, rounds, iters, threads, loadavg(load, sizeof load));
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < ns; k++)
            for (int j = 0; j < 2; j++) { /* the count that goes first alternates */
                int c = (j + r) % 2;
                e[k].t[c][r] = run(prob, &e[k], c ? threads : 1, iters, c ? pn : p1);
                if (j == 1 && memcmp(p1, pn, n * sizeof *p1) != 0)
                    e[k].differ = 1;
            }
    int bad = 0;
    printf("%-24s %9s %9s %22s %5s\n", "solver", "wall_t1", "wall_tN", "t1/tN [min, max]", "bits");
    for (int k = 0; k < ns; k++) {
        double ratio[MAX_ROUNDS], lo = 1e300, hi = 0;
        for (int r = 0; r < rounds; r++) {
            ratio[r] = e[k].t[0][r] / e[k].t[1][r];
            lo = ratio[r] < lo ? ratio[r] : lo;
            hi = ratio[r] > hi ? ratio[r] : hi;
        }
        printf("%-24s %9.3f %9.3f %8.2f [%.2f, %.2f] %5s\n", e[k].label,
               cbb_median(e[k].t[0], rounds), cbb_median(e[k].t[1], rounds), cbb_median(ratio, rounds), lo,
               hi, e[k].differ ? "DIFF" : "same");
        bad |= e[k].differ;
    }
    printf("load after: %s\n", loadavg(load, sizeof load));
    for (int k = 0; k < ns; k++)
        free((char *)e[k].label);
    free(p1);
    free(pn);
    cb_problem_free(prob);
    return bad;
}
