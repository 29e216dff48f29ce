/* conebench bench — scaling of W on sphere piles (see BENCHMARKS.md, `make scaling`).
 *
 * For each size n (spheres), the sphere-pile scenario with init=heap (n spheres at rest on a
 * stepped pyramid, about 3n contacts, rolling3d) takes one Moreau–Jean step with W stored
 * block-sparse (BSR) and factored (G blocks and M⁻¹, problem.h), and we report:
 *   - contacts nc and the time of contact detection and of the assembly of W and q;
 *   - memory of W (cb_problem_W_bytes), in total and per contact;
 *   - nsgs sweep time per contact: the step is solved twice with a sweep cap, S1 and S2 sweeps
 *     (tol 1e-9, not reached that fast, so nsgs's local solves run at their usual 1e-10; full
 *     residual only at the end), and the sweep time is the difference of the two solve times
 *     over the difference of the sweeps — setup and the final residual cancel out;
 *   - peak resident memory of the process so far (getrusage), for the record.
 * Best of R repetitions for the times. OpenBLAS single-threaded.
 *
 * Usage: bench_scaling [--quick] [--sizes N,N,...] [--reps R]
 *   default sizes 1000,10000,100000, R = 3; --quick (or CONEBENCH_QUICK=1): 1000,10000, R = 1.
 * Progress to stderr, the table to stdout.
 */
#include "../support/require.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "scenario_registry.h"
#include "conebench/solver.h"
#include "timestepper.h"

#define MAX_SIZES 8
#define SWEEPS_1 2
#define SWEEPS_2 22

typedef struct {
    int nc;
    size_t w_bytes;
    double t_detect, t_assemble, t_solve;
    int iterations;
} step_numbers;

static int keep_record(void *ctx, const cb_system *sys, const cb_mj_work *w,
                       const cb_step_record *rec)
{
    (void)sys, (void)w;
    step_numbers *s = ctx;
    s->nc = rec->nc;
    s->w_bytes = rec->w_bytes;
    s->t_detect = rec->time_detect;
    s->t_assemble = rec->time_assemble;
    s->t_solve = rec->time_solve;
    s->iterations = rec->iterations;
    return 1; /* one step */
}

/* One Moreau–Jean step of a heap of n spheres, W in `storage`, nsgs capped at `sweeps`. */
static int one_step(long n, cb_storage storage, int sweeps, step_numbers *out)
{
    char nbuf[32];
    snprintf(nbuf, sizeof nbuf, "%ld", n);
    const cb_option params[] = {{"init", "heap"}, {"n", nbuf}};
    cb_scenario scen;
    cb_error err = {0};
    memset(&scen, 0, sizeof scen);
    int rc = cb_scenario_build(cb_scenario_find("sphere-pile"), params, 2, &scen, &err);
    if (rc == CB_OK) {
        cb_run_settings rs;
        cb_run_settings_default(&rs);
        rs.max_steps = 1;
        rs.mj.storage = storage;
        rs.mj.solver = cb_solver_find("nsgs");
        rs.use_settings_grid = 1;
        rs.mj.h = scen.h;
        rs.mj.theta = scen.theta;
        rs.mj.solve.tol = 1e-9; /* not reached in SWEEPS_2 sweeps; local Newton at 1e-10 */
        rs.mj.solve.max_iter = sweeps;
        rs.mj.solve.time_limit = 0;
        static const cb_option opts[] = {{"error_every", "1000000"}};
        rs.mj.solve.options = opts;
        rs.mj.solve.noptions = 1;
        cb_run_result res;
        rc = cb_nonsmooth_run(&scen, &rs, keep_record, out, &res, &err);
    }
    if (rc != CB_OK)
        fprintf(stderr, "bench_scaling: n = %ld: %s\n", n, err.text);
    cb_scenario_free(&scen);
    return rc;
}

static double peak_rss_mb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_maxrss / 1024.0;
}

/* The step is what the table claims: contacts, nsgs stopped at exactly `sweeps` sweeps (the
 * sweep time is a difference of two such runs), and W holds at least its nc diagonal d×d
 * blocks of doubles (rolling3d: d = 5) in BSR, at least nc·2 G blocks of d×6 when factored.
 * 0, or 1 naming what is wrong. */
static int check_step(long n, cb_storage storage, const step_numbers *s, int sweeps)
{
    const size_t d = 5;
    size_t least = storage == CB_STORAGE_FACTORED ? (size_t)s->nc * 2 * d * 6 * sizeof(double)
                                                  : (size_t)s->nc * d * d * sizeof(double);
    const char *bad = s->nc < 1                  ? "no contact"
                      : s->iterations != sweeps ? "nsgs did not run the sweeps asked"
                      : s->w_bytes < least      ? "W smaller than its blocks"
                                                : NULL;
    if (bad)
        fprintf(stderr, "bench_scaling: FAIL: n = %ld %s: %s (nc %d, %d sweeps of %d, W %zu B)\n",
                n, cb_storage_name(storage), bad, s->nc, s->iterations, sweeps, s->w_bytes);
    assert_true(bad == NULL); /* the table's numbers are of the step it claims */
    return bad != NULL;
}

/* Best-of-reps numbers of one size and storage; prints one table row. */
static int measure(long n, cb_storage storage, int reps)
{
    step_numbers best1 = {0}, best2 = {0};
    for (int r = 0; r < reps; r++) {
        step_numbers a = {0}, b = {0};
        if (one_step(n, storage, SWEEPS_1, &a) != CB_OK || one_step(n, storage, SWEEPS_2, &b) != CB_OK)
            return 1;
        if (check_step(n, storage, &a, SWEEPS_1) || check_step(n, storage, &b, SWEEPS_2) ||
            a.nc != b.nc)
            return 1; /* (the same step twice: the same contacts) */
        if (r == 0 || a.t_solve < best1.t_solve)
            best1 = a;
        if (r == 0 || b.t_solve < best2.t_solve)
            best2 = b;
        if (a.t_assemble < best1.t_assemble)
            best1.t_assemble = a.t_assemble;
        if (b.t_assemble < best1.t_assemble)
            best1.t_assemble = b.t_assemble;
        fprintf(stderr, "bench_scaling: n = %ld %s rep %d/%d\n", n, cb_storage_name(storage), r + 1,
                reps);
    }
    double sweep = (best2.t_solve - best1.t_solve) / (best2.iterations - best1.iterations);
    printf("%8ld %8d %-9s %10.4f %10.4f %9.3f %12.1f %11.0f %12.1f %9.0f\n", n, best1.nc,
           cb_storage_name(storage), best1.t_detect, best1.t_assemble,
           1e6 * best1.t_assemble / best1.nc, (double)best1.w_bytes / 1048576.0,
           (double)best1.w_bytes / best1.nc, 1e9 * sweep / best1.nc, peak_rss_mb());
    fflush(stdout);
    return 0;
}

static int parse_sizes(const char *s, long *sizes)
{
    int k = 0;
    for (char *end = NULL; *s && k < MAX_SIZES; s = *end ? end + 1 : end) {
        sizes[k] = strtol(s, &end, 10);
        if (end == s || sizes[k] < 1 || sizes[k] > 2000000 || (*end && *end != ','))
            return 0;
        k++;
    }
    return k;
}

int main(int argc, char **argv)
{
    long sizes[MAX_SIZES] = {1000, 10000, 100000};
    int nsizes = 3, reps = 3;
    const char *q = getenv("CONEBENCH_QUICK");
    int quick = q && *q && strcmp(q, "0") != 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--sizes") && i + 1 < argc && (nsizes = parse_sizes(argv[++i], sizes)))
            continue;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc && (reps = atoi(argv[++i])) >= 1)
            continue;
        else {
            fprintf(stderr, "conebench: usage: bench_scaling [--quick] [--sizes N,N,...] [--reps R]\n");
            return 2;
        }
    }
    if (quick)
        nsizes = nsizes == 3 && sizes[2] == 100000 ? 2 : nsizes, reps = 1;
    setenv("OPENBLAS_NUM_THREADS", "1", 0);
    printf("# sphere-pile init=heap, one Moreau-Jean step (rolling3d); times best of %d; sweep: "
           "nsgs (%d - %d sweeps)\n", reps, SWEEPS_2, SWEEPS_1);
    printf("%8s %8s %-9s %10s %10s %9s %12s %11s %12s %9s\n", "spheres", "contacts", "storage",
           "detect_s", "assemble_s", "asm_us/c", "W_MB", "W_B/contact", "sweep_ns/c", "rss_MB");
    int rc = 0;
    for (int k = 0; k < nsizes && !rc; k++)
        rc = measure(sizes[k], CB_STORAGE_BSR, reps) || measure(sizes[k], CB_STORAGE_FACTORED, reps);
    return rc;
}
