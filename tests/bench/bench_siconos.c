/* conebench bench — conebench against Siconos 4.4 numerics (see BENCHMARKS.md).
 *
 * (a) projection throughput: cb_project (one call a vector) and cb_project_batch (runs of
 *     consecutive vectors, the same bits) vs Siconos projectionOnRollingCone (rolling3d) and
 *     projectionOnCone (coulomb3d) on the same N random vectors (a mix of points inside K, in
 *     the polar cone −K*, and generic points that land on the boundary), best-of-R and median
 *     ns per vector of thread CPU time (time the thread spends preempted on a loaded machine is
 *     not counted). Siconos projects in place, so its loop copies each vector into the output
 *     first; every loop reads N inputs and writes N outputs. Each repetition interleaves the
 *     three in chunks of PROJ_CHUNK vectors (see interleaved_pass).
 * (b) time to tolerance 1e-8: conebench's nsgs (registry "nsgs", through cb_solve) against the
 *     siconos-nsgs adapter (FULL error evaluation) on the shipped rolling problems
 *     (../shared/data/rolling or $CONEBENCH_DATA) and on random multibody BSR rolling3d problems
 *     (cb_generate_random, nc = 10^2, 10^3, 10^4), and on random rolling2d and coulomb2d BSR
 *     problems (Siconos's rolling_fc2d_nsgs and fc2d_nsgs_sbm; the latter evaluates its error with
 *     LIGHT_WITH_FULL_FINAL, see siconos_adapter.c, so its sweeps may differ from ours). The
 *     planar SPD problems stop at nc = 3000: from nc ≈ 7000 on, rolling_fc2d_nsgs's FULL error
 *     never reaches 1e-8 (Siconos's 2D rolling projection hole, test_siconos_adapter.c) and the
 *     row would time 20000 useless sweeps; coulomb2d SPD at nc = 10^4 needs > 20000 sweeps. Runs
 *     are interleaved (the order alternates every repetition) so both solvers share the machine's
 *     noise. Times are cb_solve's time_setup + time_solve (the judge is not timed); tiny problems
 *     are timed in batches of solves of at least 20 ms. The big random problems do not reach 1e-8
 *     in any affordable number of sweeps, so they run a fixed sweep cap: both solvers compute the
 *     same Gauss–Seidel iterates (equal iterations and judged errors), so the ratio is a per-sweep
 *     cost ratio.
 *
 * OpenBLAS runs single-threaded (both libraries call the same OpenBLAS).
 *
 * Usage: bench_siconos [--quick] [--proj-only | --solve-only]
 *   --quick (or CONEBENCH_QUICK=1): 10^6 vectors, 3 repetitions, shipped problems and nc = 100.
 * Progress goes to stderr, the tables to stdout.
 */
#include "../support/bench_median.h"
#include "../support/require.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/cone.h"
#include "conebench/generate.h"
#include "conebench/io.h"
#include "conebench/problem.h"
#include "cone_kernels.h"
#include "rng.h"
#include "conebench/solver.h"

#include <cblas.h>

#include "NumericsVerbose.h"
#include "projectionOnCone.h"
#include "projectionOnRollingCone.h"
#include "base.h"

#define MAX_REPS 16
#define NFRICTION 1024 /* coefficient table, indexed by vector number mod NFRICTION */
#define PROJ_CHUNK 100000 /* vectors per interleaved chunk of a projection repetition */

typedef struct {
    int quick;
    int proj, solve;
} bench_opts;

/* ---- (a) projection throughput --------------------------------------------------------- */

typedef struct {
    cb_kind kind;
    int d;
    size_t n;
    double *x, *out;
    cb_friction f[NFRICTION];
} proj_set;

/* A random direction of length len in the 2-D block b. */
static void disk_point(cb_rng *r, double len, double *b)
{
    double a = cb_rng_range(r, 0, 2 * M_PI);
    b[0] = len * cos(a);
    b[1] = len * sin(a);
}

/* One vector: 1/4 inside K, 1/4 in −K*, 1/2 generic over six decades of scale. */
static void make_vector(cb_rng *r, const proj_set *s, const cb_friction *f, double *x)
{
    int rolling = s->kind == CB_KIND_ROLLING3D;
    double u = cb_rng_uniform(r), scale = pow(10.0, cb_rng_range(r, -3, 3));
    if (u < 0.25) { /* inside */
        x[0] = scale;
        disk_point(r, f->mu * x[0] * cb_rng_uniform(r), x + 1);
        if (rolling)
            disk_point(r, f->mu_r * x[0] * cb_rng_uniform(r), x + 3);
    } else if (u < 0.5) { /* −x ∈ K*: x_N ≤ −(μ‖x_T‖ + μ_r‖x_R‖) */
        double t = scale * cb_rng_uniform(r), m = rolling ? scale * cb_rng_uniform(r) : 0;
        disk_point(r, t, x + 1);
        if (rolling)
            disk_point(r, m, x + 3);
        x[0] = -(f->mu * t + f->mu_r * m) * (1.0 + cb_rng_uniform(r));
    } else {
        for (int i = 0; i < s->d; i++)
            x[i] = scale * cb_rng_normal(r);
    }
}

static int proj_set_init(proj_set *s, cb_kind kind, size_t n)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->d = cb_kind_dim(kind);
    s->n = n;
    s->x = cb_malloc_array(n * (size_t)s->d, sizeof(double));
    s->out = cb_malloc_array(n * (size_t)s->d, sizeof(double));
    if (!s->x || !s->out)
        return CB_ERR_NOMEM;
    cb_rng r;
    cb_rng_seed(&r, 20240501u + (uint64_t)kind);
    for (int i = 0; i < NFRICTION; i++) {
        s->f[i].mu = cb_rng_range(&r, 0.05, 1.0);
        s->f[i].mu_r = kind == CB_KIND_ROLLING3D ? cb_rng_range(&r, 0.01, 0.5) : 0.0;
    }
    for (size_t i = 0; i < n; i++)
        make_vector(&r, s, &s->f[i % NFRICTION], s->x + i * (size_t)s->d);
    return CB_OK;
}

static void proj_set_free(proj_set *s)
{
    free(s->x);
    free(s->out);
}

/* cb_project on vectors [lo, hi); returns the thread CPU seconds. */
static double pass_ours(proj_set *s, size_t lo, size_t hi, long *cases)
{
    size_t d = (size_t)s->d;
    double t0 = cb_cpu_now();
    for (size_t i = lo; i < hi; i++) {
        cb_proj_case c = cb_project(s->kind, &s->f[i % NFRICTION], s->x + i * d, s->out + i * d);
        if (cases)
            cases[c + 1]++;
    }
    return cb_cpu_now() - t0;
}

/* cb_project_batch on vectors [lo, hi), in runs that share the coefficient table's order;
 * returns the thread CPU seconds (the count of non-finite outcomes in *bad). */
static double pass_batch(proj_set *s, size_t lo, size_t hi, long *bad)
{
    size_t d = (size_t)s->d;
    long nb = 0;
    double t0 = cb_cpu_now();
    for (size_t i = lo; i < hi;) {
        size_t k = i % NFRICTION, len = hi - i < NFRICTION - k ? hi - i : NFRICTION - k;
        nb += cb_project_batch(s->kind, len, &s->f[k], s->x + i * d, s->out + i * d, NULL);
        i += len;
    }
    double t = cb_cpu_now() - t0;
    if (bad)
        *bad = nb;
    return t;
}

/* Siconos' projection of vector i (in place, after a copy into the output). */
static inline void siconos_one(proj_set *s, size_t i)
{
    size_t d = (size_t)s->d;
    const cb_friction *f = &s->f[i % NFRICTION];
    double *o = s->out + i * d;
    memcpy(o, s->x + i * d, d * sizeof(double));
    if (s->kind == CB_KIND_ROLLING3D)
        projectionOnRollingCone(o, f->mu, f->mu_r);
    else
        projectionOnCone(o, f->mu);
}

/* Siconos' projection on vectors [lo, hi); returns the CPU seconds. */
static double pass_siconos(proj_set *s, size_t lo, size_t hi)
{
    double t0 = cb_cpu_now();
    for (size_t i = lo; i < hi; i++)
        siconos_one(s, i);
    return cb_cpu_now() - t0;
}

/* Side k of a repetition (0 cb_project, 1 cb_project_batch, 2 Siconos) on vectors [lo, hi). */
static double pass_side(proj_set *s, int k, size_t lo, size_t hi)
{
    return k == 0 ? pass_ours(s, lo, hi, NULL)
                  : k == 1 ? pass_batch(s, lo, hi, NULL) : pass_siconos(s, lo, hi);
}

/* One repetition: the three sides project all n vectors, interleaved chunk by chunk (the side
 * that starts rotates with the chunk and the repetition) so that a burst of load on the machine
 * falls on all; at any moment they work on chunks a third of the set apart, so each streams
 * vectors it has not touched for a whole pass (none finds another's inputs in cache). */
static void interleaved_pass(proj_set *s, int rep, double t[3])
{
    size_t nch = (s->n + PROJ_CHUNK - 1) / PROJ_CHUNK;
    t[0] = t[1] = t[2] = 0;
    for (size_t c = 0; c < nch; c++)
        for (int j = 0; j < 3; j++) {
            int k = (int)((c + (size_t)rep + (size_t)j) % 3);
            size_t lo = ((c + (size_t)k * nch / 3) % nch) * PROJ_CHUNK;
            t[k] += pass_side(s, k, lo, lo + PROJ_CHUNK < s->n ? lo + PROJ_CHUNK : s->n);
        }
}

/* max_i ‖ours_i − siconos_i‖∞ / max(1, ‖x_i‖∞): the two must agree; *batch_diff = the
 * number of vectors whose cb_project_batch bits differ from cb_project's plus its non-finite
 * outcomes (both must be 0). */
static double proj_agreement(proj_set *s, long *batch_diff)
{
    size_t d = (size_t)s->d;
    double worst = 0, ours[CB_MAX_DIM];
    pass_batch(s, 0, s->n, batch_diff);
    for (size_t i = 0; i < s->n; i++) {
        const double *x = s->x + i * d;
        double *sic = s->out + i * d;
        cb_project(s->kind, &s->f[i % NFRICTION], x, ours);
        *batch_diff += memcmp(ours, sic, d * sizeof *ours) != 0;
        siconos_one(s, i);
        double diff = 0, norm = 1;
        for (size_t k = 0; k < d; k++) {
            diff = fmax(diff, fabs(ours[k] - sic[k]));
            norm = fmax(norm, fabs(x[k]));
        }
        worst = fmax(worst, diff / norm);
    }
    return worst;
}

/* The largest relative deviation of ours from Siconos' projection a benchmark accepts: both are
 * closed forms of the same projection, so they differ by rounding only. */
#define PROJ_AGREE_TOL 1e-12

/* One timing line: best / median / max ns per vector of t[0..reps) (sorted here); returns the
 * median in seconds. */
static double print_side(const char *name, double *t, int reps, size_t n)
{
    qsort(t, (size_t)reps, sizeof *t, cbb_by_value);
    double med = cbb_median(t, reps), scale = 1e9 / (double)n;
    printf("%-10s %-24s best %6.2f  median %6.2f  max %6.2f ns/vector\n", "", name, t[0] * scale,
           med * scale, t[reps - 1] * scale);
    return med;
}

/* Returns 0, or 1 when the projections disagree (ours from Siconos' beyond rounding, the batch
 * from cb_project in any bit) or ours gives a non-finite outcome on the finite vectors (a
 * benchmark of a wrong kernel is no benchmark). */
static int bench_projection(cb_kind kind, size_t n, int reps)
{
    proj_set s;
    fprintf(stderr, "projection %s: generating %zu vectors\n", cb_kind_name(kind), n);
    if (proj_set_init(&s, kind, n) != CB_OK) {
        printf("%-10s  out of memory for %zu vectors: skipped\n", cb_kind_name(kind), n);
        proj_set_free(&s);
        return 0;
    }
    long cases[4] = {0}, batch_diff = 0;
    pass_ours(&s, 0, s.n, cases);
    double agree = proj_agreement(&s, &batch_diff), t[3][MAX_REPS], rt[3];
    for (int r = 0; r < reps; r++) {
        fprintf(stderr, "projection %s: repetition %d/%d\n", cb_kind_name(kind), r + 1, reps);
        interleaved_pass(&s, r, rt);
        for (int k = 0; k < 3; k++)
            t[k][r] = rt[k];
    }
    printf("%-10s %9zu  inside %4.1f%%  zero %4.1f%%  boundary %4.1f%%  nonfinite %ld\n",
           cb_kind_name(kind), n, 100.0 * cases[1] / n, 100.0 * cases[2] / n,
           100.0 * cases[3] / n, cases[0]);
    double mo = print_side("cb_project", t[0], reps, n);
    double mb = print_side("cb_project_batch", t[1], reps, n);
    double ms = print_side(kind == CB_KIND_ROLLING3D ? "projectionOnRollingCone" : "projectionOnCone",
                           t[2], reps, n);
    printf("%-10s throughput ratio ours/Siconos: best %.2fx  median %.2fx   "
           "max deviation %.1e\n", "", t[2][0] / t[0][0], ms / mo, agree);
    printf("%-10s throughput ratio batch/Siconos: best %.2fx  median %.2fx   "
           "batch bits differing %ld\n", "", t[2][0] / t[1][0], ms / mb, batch_diff);
    proj_set_free(&s);
    int bad = !(agree <= PROJ_AGREE_TOL) || cases[0] != 0 || batch_diff != 0;
    if (bad)
        fprintf(stderr, "bench_siconos: FAIL: %s projections: deviation %.1e (at most %.0e), "
                "%ld non-finite outcomes, %ld batch vectors differing\n", cb_kind_name(kind),
                agree, PROJ_AGREE_TOL, cases[0], batch_diff);
    assert_true(agree <= PROJ_AGREE_TOL && cases[0] == 0); /* the same projection, to rounding */
    assert_true(batch_diff == 0); /* the batch gives cb_project's bits */
    return bad;
}

/* ---- (b) time to tolerance ------------------------------------------------------------- */

typedef struct {
    const cb_solver *solver;
    cb_status status;
    int iterations;
    double error;
    double total[MAX_REPS], solve[MAX_REPS]; /* seconds per solve */
    int batch;
} run_stats;

/* One timing sample: `batch` solves from p = 0; returns CB_OK and fills the outcome. */
static int sample(run_stats *st, const cb_problem *prob, const cb_settings *s,
                  cb_solution *sol, int rep)
{
    double tot = 0, sol_t = 0;
    for (int b = 0; b < st->batch; b++) {
        cb_info info;
        cb_error err = {{0}};
        memset(sol->p, 0, sol->n * sizeof(double));
        int rc = cb_solve(st->solver, prob, s, sol, &info, &err);
        if (rc != CB_OK) {
            fprintf(stderr, "%s: %s\n", st->solver->name, err.text);
            return rc;
        }
        tot += info.time_setup + info.time_solve;
        sol_t += info.time_solve;
        st->status = info.status;
        st->iterations = info.iterations;
        st->error = info.error;
        cb_info_free(&info);
    }
    st->total[rep] = tot / st->batch;
    st->solve[rep] = sol_t / st->batch;
    return CB_OK;
}

/* Warm-up run; batch so that one sample lasts ≥ 20 ms (at most 2000 solves). */
static int calibrate(run_stats *st, const cb_problem *prob, const cb_settings *s,
                     cb_solution *sol)
{
    st->batch = 1;
    int rc = sample(st, prob, s, sol, 0);
    if (rc == CB_OK && st->total[0] < 0.02)
        st->batch = st->total[0] > 1e-5 ? (int)ceil(0.02 / st->total[0]) : 2000;
    if (st->batch > 2000)
        st->batch = 2000;
    return rc;
}

static void print_row(const char *label, int nc, const run_stats *st, int reps,
                      const run_stats *ours)
{
    double tot[MAX_REPS], sol[MAX_REPS];
    memcpy(tot, st->total, sizeof tot);
    memcpy(sol, st->solve, sizeof sol);
    double mt = cbb_median(tot, reps), ms = cbb_median(sol, reps);
    printf("%-34s %6d  %-13s %-10s %6d  %9.3e  %11.3e  %9.3e  %9.3e  %9.3e", label, nc,
           st->solver->name, cb_status_name(st->status), st->iterations, st->error, mt,
           tot[0], tot[reps - 1], ms);
    if (ours) {
        double o[MAX_REPS];
        memcpy(o, ours->total, sizeof o);
        double mo = cbb_median(o, reps);
        printf("  %6.2f  %6.2f", ms / mo, mt / mo);
    }
    printf("\n");
}

static void bench_problem(const char *label, const cb_problem *prob, int max_iter, int reps,
                          const cb_solver *ours, const cb_solver *sic)
{
    cb_settings s;
    cb_settings_default(&s);
    s.tol = 1e-8;
    s.max_iter = max_iter;
    s.time_limit = 0;
    cb_solution sol;
    if (cb_solution_alloc(prob, &sol, NULL) != CB_OK)
        return;
    run_stats a = {.solver = ours}, b = {.solver = sic};
    fprintf(stderr, "solve %s (nc = %d): warm-up\n", label, prob->nc);
    int rc = calibrate(&a, prob, &s, &sol);
    if (rc == CB_OK)
        rc = calibrate(&b, prob, &s, &sol);
    for (int r = 0; r < reps && rc == CB_OK; r++) {
        fprintf(stderr, "solve %s: repetition %d/%d\n", label, r + 1, reps);
        rc = r % 2 ? sample(&b, prob, &s, &sol, r) : sample(&a, prob, &s, &sol, r);
        if (rc == CB_OK)
            rc = r % 2 ? sample(&a, prob, &s, &sol, r) : sample(&b, prob, &s, &sol, r);
    }
    if (rc == CB_OK) {
        print_row(label, prob->nc, &a, reps, NULL);
        print_row(label, prob->nc, &b, reps, &a);
    } else {
        printf("%-34s %6d  failed (see stderr)\n", label, prob->nc);
    }
    cb_solution_free(&sol);
}

static const char *data_dir(void)
{
    const char *env = getenv("CONEBENCH_DATA");
    if (env && *env)
        return env;
    return "../shared/data";
}

static void bench_shipped(int reps, const cb_solver *ours, const cb_solver *sic)
{
    static const char *const files[] = {
        "RFC3D_sphere_1.dat", "RFC3D_sphere_2.dat", "RFC3D_cube_1.dat",
        "rockfall_14_25792.dat", "GRFC3D_Chute-ndof-768-nc-4-3.dat",
        "Chute-ndof-768-nc-4-3.hdf5"};
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/rolling/%s", data_dir(), files[i]);
        cb_problem *prob = NULL;
        cb_error err = {{0}};
        FILE *f = fopen(path, "rb");
        if (!f) {
            printf("%-34s skipped (%s absent)\n", files[i], path);
            continue;
        }
        fclose(f);
        if (cb_read_problem(path, &rs, &prob, &err) != CB_OK) {
            printf("%-34s skipped (%s)\n", files[i], err.text);
            continue;
        }
        bench_problem(files[i], prob, 10000, reps, ours, sic);
        cb_problem_free(prob);
    }
}

/* One random problem of the time-to-tolerance table. matrix: multibody (hard: needs thousands
 * of sweeps at nc ≥ 10^3, so capped) or SPD with cond 100 and about 8 coupled blocks per row
 * (reaches 1e-8 in tens to hundreds of sweeps at every nc). */
typedef struct {
    cb_kind kind;
    cb_gen_matrix matrix;
    int nc, max_iter, reps;
} random_case;

static void bench_random(const random_case *c, const cb_solver *ours, const cb_solver *sic)
{
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = c->kind;
    g.nc = c->nc;
    g.seed = 1;
    g.matrix = c->matrix;
    g.cond = 100;
    g.density = c->nc > 8 ? 8.0 / c->nc : 1.0;
    g.storage = CB_STORAGE_BSR;
    cb_problem *prob = NULL;
    cb_error err = {{0}};
    const char *kind = cb_kind_name(c->kind);
    fprintf(stderr, "generating random %s nc = %d\n", kind, c->nc);
    if (cb_generate_random(&g, &prob, NULL, NULL, &err) != CB_OK) {
        printf("random %s nc=%d: skipped (%s)\n", kind, c->nc, err.text);
        return;
    }
    char label[64];
    const char *prefix = c->kind == CB_KIND_ROLLING3D ? "random" : kind; /* 34 columns */
    if (c->matrix == CB_GEN_SPD)
        snprintf(label, sizeof label, "%s-spd-%d", prefix, c->nc);
    else
        snprintf(label, sizeof label, "%s-mb-%d (cap %d)", prefix, c->nc, c->max_iter);
    bench_problem(label, prob, c->max_iter, c->reps, ours, sic);
    cb_problem_free(prob);
}

static void bench_solvers(const bench_opts *o)
{
    const cb_solver *ours = cb_solver_find("nsgs"), *sic = cb_solver_find("siconos-nsgs");
    if (!ours || !sic) {
        printf("time to tolerance: skipped (solver %s not in the registry)\n",
               ours ? "siconos-nsgs" : "nsgs");
        return;
    }
    int reps = o->quick ? 3 : 5;
    const cb_kind R3 = CB_KIND_ROLLING3D, R2 = CB_KIND_ROLLING2D, C2 = CB_KIND_COULOMB2D;
    const cb_gen_matrix MB = CB_GEN_MULTIBODY, SPD = CB_GEN_SPD;
    const random_case quick_cases[] = {{R3, MB, 100, 20000, reps}};
    const random_case full_cases[] = {
        {R3, MB, 100, 20000, reps},   {R3, MB, 1000, 500, reps},   {R3, MB, 10000, 30, 3},
        {R3, SPD, 100, 20000, reps},  {R3, SPD, 1000, 20000, reps}, {R3, SPD, 10000, 20000, 3},
        {R2, MB, 100, 20000, reps},   {R2, MB, 1000, 500, reps},   {R2, SPD, 1000, 20000, reps},
        {R2, SPD, 3000, 20000, reps}, {C2, MB, 100, 20000, reps},  {C2, MB, 1000, 500, reps},
        {C2, SPD, 1000, 20000, reps}, {C2, SPD, 3000, 20000, reps}};
    const random_case *cases = o->quick ? quick_cases : full_cases;
    size_t ncases = o->quick ? sizeof quick_cases / sizeof *quick_cases
                             : sizeof full_cases / sizeof *full_cases;
    printf("\n(b) time to tolerance 1e-8 from p = 0; times in seconds per solve "
           "(setup + solve, judge excluded)\n");
    printf("%-34s %6s  %-13s %-10s %6s  %9s  %11s  %9s  %9s  %9s  %6s  %6s\n", "problem", "nc",
           "solver", "status", "iter", "error", "median", "min", "max", "solve-med",
           "ratio", "ratio+");
    bench_shipped(reps, ours, sic);
    for (size_t i = 0; i < ncases; i++)
        bench_random(&cases[i], ours, sic);
}

static int parse_args(int argc, char **argv, bench_opts *o)
{
    const char *q = getenv("CONEBENCH_QUICK");
    o->quick = q && *q && strcmp(q, "0") != 0;
    o->proj = o->solve = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            o->quick = 1;
        else if (strcmp(argv[i], "--proj-only") == 0)
            o->solve = 0;
        else if (strcmp(argv[i], "--solve-only") == 0)
            o->proj = 0;
        else {
            fprintf(stderr, "usage: %s [--quick] [--proj-only | --solve-only]\n", argv[0]);
            return 2;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc;
    numerics_set_verbose(0);
    openblas_set_num_threads(1); /* one thread for both: Siconos and conebench share OpenBLAS */
    printf("conebench %s vs Siconos numerics 4.4%s, OpenBLAS single-threaded\n", CB_VERSION,
           o.quick ? " (quick)" : "");
    if (o.proj) {
        size_t n = o.quick ? 1000000 : 10000000;
        int reps = o.quick ? 3 : 5;
        printf("\n(a) projection throughput, %zu vectors, %d interleaved repetitions\n", n, reps);
        rc |= bench_projection(CB_KIND_ROLLING3D, n, reps);
        rc |= bench_projection(CB_KIND_COULOMB3D, n, reps);
    }
    if (o.solve)
        bench_solvers(&o);
    return rc;
}
