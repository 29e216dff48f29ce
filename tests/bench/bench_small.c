/* conebench bench_small — every solver on the small problems (see BENCHMARKS.md, "Small
 * problems").
 *
 * For every file of the data directory (../shared/data or $CONEBENCH_DATA, each subdirectory)
 * with fewer than SMALL_NC contacts: every registered solver whose supports() takes the problem
 * (ours and the Siconos adapters; not the game-engine adapters, whose model is a friction
 * box), from p = 0 to tol 1e-8, through the solver's own function table in this process (no
 * child, no budget, no judge inside the timing). Each solver is timed in two loops of at least
 * BATCH_CPU seconds of CPU time (the calling thread's clock, so the other processes on the
 * machine do not inflate it):
 *   total: setup + solve + cleanup, again and again (what one fresh solve costs);
 *   solve: one setup, then solve after solve (update(work, prob, 0) between solves, as the
 *          workspace does: the work is what a fresh setup makes); setup = total − solve.
 * The verdict is the judge's (cb_judge on the final p of each loop), never the solver's word; a
 * solver the judge does not pass in the warm-up run is not timed, one that fails it in a fresh
 * loop stops the benchmark (assert), and one whose reused work (update) does not solve has no
 * solve and setup times (nan: its update is not what a fresh setup makes). ROUNDS rounds, the solvers'
 * order rotated every round, medians; per file: our fastest solved solver and its time,
 * Siconos' fastest, the ratio ours/Siconos (of the medians; then the smallest and largest
 * round-by-round ratio of the two), and the geometric mean of the ratios over the files both
 * sides solve.
 *
 * Usage: bench_small [--quick] [--all] [--only SUBSTRING]
 *   --quick (or CONEBENCH_QUICK=1): 1 round and 5 ms batches (the same assertions).
 *   --all: every solver's medians (total, solve) under each file's row.
 *   --only: the files whose path contains SUBSTRING.
 * Progress goes to stderr, the table to stdout.
 */
#include "../support/bench_median.h"
#include "../support/require.h"
#include <dirent.h>
#include <fenv.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/io.h"
#include "conebench/judge.h"
#include "conebench/problem.h"
#include "conebench/solver.h"

#include <cblas.h>

#include "NumericsVerbose.h"
#include "base.h"
#include "solve_limited.h"

#define SMALL_NC 20       /* the files benchmarked: fewer contacts than this */
#define ROUNDS 3          /* interleaved rounds (median) */
#define BATCH_CPU 0.02    /* seconds of CPU time per timing loop at least */
#define MAX_BATCH 200000  /* solves per loop at most */
#define MAX_SOLVERS 128
#define MAX_FILES 256
#define TOL 1e-8
#define SICONOS_PREFIX "siconos-"
typedef struct {
    const cb_solver *solver;
    int ours;         /* 0: a Siconos adapter */
    int solved;       /* the judge's verdict in the warm-up (timed only when 1) */
    int signal;       /* > 0: the warm-up in a child died of this signal (not run here) */
    int batch;
    double err;       /* judged error_data of the warm-up */
    double total[ROUNDS], solve[ROUNDS]; /* CPU seconds per solve */
} entry;

typedef struct {
    int quick, rounds, all;
    double batch_cpu;
    const char *only;
} bench_opts;

static const char *data_dir(void)
{
    const char *env = getenv("CONEBENCH_DATA");
    return env && *env ? env : "../shared/data";
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The problem files of dir's subdirectories (not README*), sorted; returns their count. */
static int list_files(const char *dir, char **out, int max)
{
    int n = 0;
    DIR *top = opendir(dir);
    struct dirent *e;
    while (top && (e = readdir(top))) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        DIR *d = opendir(sub);
        struct dirent *f;
        while (d && (f = readdir(d)) && n < max) {
            if (f->d_name[0] == '.' || !strncmp(f->d_name, "README", 6))
                continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
            out[n++] = cb_strdup(path);
        }
        if (d)
            closedir(d);
    }
    if (top)
        closedir(top);
    qsort(out, (size_t)n, sizeof *out, cmp_str);
    return n;
}

/* The judge's verdict on p (1 solved); *err its error_data. */
static int judged(const cb_problem *prob, const cb_solution *sol, double *err)
{
    cb_judgement j;
    cb_error e = {{0}};
    int rc = cb_judge(prob, sol->p, TOL, NULL, &j, &e);
    assert_true(rc == CB_OK); /* the judge takes every problem a solver took */
    *err = j.error_data;
    return j.solved;
}

static void settings_for(cb_settings *s)
{
    cb_settings_default(s);
    s->tol = TOL;
    s->time_limit = 0; /* no budget: the solvers' own caps (max_iter) */
    s->wall_limit = -1;
}

/* `batch` fresh solves (setup + solve + cleanup) from p = 0; CPU seconds per solve, or −1 when
 * a setup or solve failed. */
static double loop_total(const entry *en, const cb_problem *prob, cb_solution *sol, int batch)
{
    cb_settings s;
    settings_for(&s);
    fesetenv(FE_DFL_ENV); /* a Siconos solver run before may leave FP traps enabled (SIGFPE) */
    double t0 = cb_cpu_now();
    for (int b = 0; b < batch; b++) {
        void *work = NULL;
        cb_info info;
        cb_error err = {{0}};
        memset(&info, 0, sizeof info);
        memset(sol->p, 0, sol->n * sizeof *sol->p);
        int rc = en->solver->setup(prob, &s, &work, &err);
        if (rc == CB_OK)
            rc = en->solver->solve(work, &s, sol, &info, &err);
        en->solver->cleanup(work);
        cb_info_free(&info);
        if (rc != CB_OK) {
            fprintf(stderr, "bench_small: %s: %s\n", en->solver->name, err.text);
            return -1;
        }
    }
    return (cb_cpu_now() - t0) / batch;
}

/* The CPU clock's own cost: seconds per cb_cpu_now() call (the mean of many). */
static double clock_cost(void)
{
    static double cost = -1;
    if (cost < 0) {
        enum { CALLS = 100000 };
        double t0 = cb_cpu_now(), t = t0;
        for (int i = 0; i < CALLS; i++)
            t = cb_cpu_now();
        cost = (t - t0) / CALLS;
    }
    return cost;
}

/* `batch` solves from p = 0 as the workspace makes them: one setup, then update(work, prob, 0)
 * between solves; a solver without update is set up again before each solve (its solves are
 * then timed one by one, less the clock's own cost). CPU seconds per solve (setups not
 * counted), or −1 on failure. */
static double loop_solve(const entry *en, const cb_problem *prob, cb_solution *sol, int batch)
{
    cb_settings s;
    settings_for(&s);
    void *work = NULL;
    cb_error err = {{0}};
    int each = !en->solver->update, rc = CB_OK;
    double t = 0, t0 = cb_cpu_now();
    fesetenv(FE_DFL_ENV);
    for (int b = 0; b < batch && rc == CB_OK; b++) {
        cb_info info;
        memset(&info, 0, sizeof info);
        memset(sol->p, 0, sol->n * sizeof *sol->p);
        if (b == 0 || each) {
            en->solver->cleanup(work);
            work = NULL;
            rc = en->solver->setup(prob, &s, &work, &err);
            t0 = cb_cpu_now();
        } else {
            rc = en->solver->update(work, prob, 0, &err);
        }
        if (rc == CB_OK)
            rc = en->solver->solve(work, &s, sol, &info, &err);
        if (each)
            t += cb_cpu_now() - t0 - clock_cost();
        cb_info_free(&info);
    }
    if (!each)
        t = cb_cpu_now() - t0;
    en->solver->cleanup(work);
    if (rc != CB_OK)
        fprintf(stderr, "bench_small: %s: %s\n", en->solver->name, err.text);
    return rc == CB_OK ? t / batch : -1;
}

/* The signal that killed a fresh solve run in a child (fork: this process's state, Siconos's
 * included), or 0 when it ran to the end. Siconos's global adapters can stop the process with
 * SIGFPE once others ran before them (each alone runs): such a solver is not run here. */
static int crashes(const entry *en, const cb_problem *prob, cb_solution *sol)
{
    fflush(stdout), fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        loop_total(en, prob, sol, 1);
        _exit(0);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return 0; /* no child: run it here */
    return WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

/* Warm-up: one fresh solve, judged; the batch that makes a loop last ≥ batch_cpu. */
static void warm_up(entry *en, const cb_problem *prob, cb_solution *sol, const bench_opts *o)
{
    if (!en->ours && (en->signal = crashes(en, prob, sol)) != 0)
        return;
    double t = loop_total(en, prob, sol, 1);
    en->solved = t >= 0 && judged(prob, sol, &en->err);
    double b = t > 0 ? ceil(o->batch_cpu / t) : MAX_BATCH;
    en->batch = b > MAX_BATCH ? MAX_BATCH : (int)b;
}

/* One round of one solver: both loops, each judged: the verdict must stay the warm-up's. */
static void time_round(entry *en, const cb_problem *prob, cb_solution *sol, int r)
{
    double err;
    en->total[r] = loop_total(en, prob, sol, en->batch);
    int v1 = en->total[r] >= 0 && judged(prob, sol, &err);
    if (!v1)
        fprintf(stderr, "bench_small: FAIL: %s: not solved in round %d (solved in the "
                "warm-up)\n", en->solver->name, r + 1);
    assert_true(v1); /* the same verdict every round: the fastest is chosen on these times */
    en->solve[r] = loop_solve(en, prob, sol, en->batch);
    if (!(en->solve[r] >= 0 && judged(prob, sol, &err))) { /* its update is not a fresh setup */
        fprintf(stderr, "bench_small: %s: not solved with its work reused (update): no solve "
                "time\n", en->solver->name);
        en->solve[r] = NAN;
    }
}

/* The median solve time, NaN when the reused work did not solve in some round. */
static double solve_median(const entry *e, int rounds)
{
    for (int r = 0; r < rounds; r++)
        if (isnan(e->solve[r]))
            return NAN;
    return cbb_median(e->solve, rounds);
}

/* The fastest solved entry of one side (ours or Siconos'), by median total; NULL if none. */
static const entry *fastest(const entry *e, int n, int ours, int rounds)
{
    const entry *best = NULL;
    for (int i = 0; i < n; i++)
        if (e[i].solved && e[i].ours == ours &&
            (!best || cbb_median(e[i].total, rounds) < cbb_median(best->total, rounds)))
            best = &e[i];
    return best;
}

static void print_side(const entry *e, int rounds)
{
    if (!e) {
        printf("  %-22s %10s %10s %10s", "(none solves)", "-", "-", "-");
        return;
    }
    double t = cbb_median(e->total, rounds), s = solve_median(e, rounds);
    printf("  %-22s %10.3e %10.3e %10.3e", e->solver->name, t, s, t - s);
}

/* The entries for prob: every registered solver that takes it. */
static int candidates(const cb_problem *prob, entry *e)
{
    int n = 0;
    for (int i = 0; i < cb_solver_count() && n < MAX_SOLVERS; i++) {
        const cb_solver *sv = cb_solver_at(i);
        cb_error err = {{0}};
        if ((sv->supports && sv->supports(prob, &err) != CB_OK) || cb_solver_model_gap(sv))
            continue; /* the game-engine adapters (another friction model) are neither side */
        memset(&e[n], 0, sizeof e[n]);
        e[n].solver = sv;
        e[n].ours = strncmp(sv->name, SICONOS_PREFIX, strlen(SICONOS_PREFIX)) != 0;
        n++;
    }
    return n;
}

/* The smallest and largest round-by-round ratio a total / b total (the spread of the ratio of
 * medians). */
static void round_ratios(const entry *a, const entry *b, int rounds, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int r = 0; r < rounds; r++) {
        double t = a->total[r] / b->total[r];
        *lo = fmin(*lo, t), *hi = fmax(*hi, t);
    }
}

/* Benchmarks one problem; returns log(ours/Siconos) through *lr (1 when both sides solve). */
static int bench_file(const char *label, const cb_problem *prob, const bench_opts *o, double *lr)
{
    static entry e[MAX_SOLVERS];
    cb_solution sol;
    int n = candidates(prob, e), rc = 0;
    if (cb_solution_alloc(prob, &sol, NULL) != CB_OK)
        return 0;
    for (int i = 0; i < n; i++) {
        fprintf(stderr, "%s: warm-up %s\n", label, e[i].solver->name);
        warm_up(&e[i], prob, &sol, o);
    }
    for (int r = 0; r < o->rounds; r++) /* interleaved: the order rotated every round */
        for (int k = 0; k < n; k++) {
            entry *en = &e[(k + r * n / o->rounds) % n];
            if (en->solved)
                time_round(en, prob, &sol, r);
        }
    for (int i = 0; o->all && i < n; i++)
        if (e[i].solved)
            printf("    %-24s %10.3e %10.3e  error %.2e\n", e[i].solver->name,
                   cbb_median(e[i].total, o->rounds), solve_median(&e[i], o->rounds), e[i].err);
        else if (e[i].signal)
            printf("    %-24s died of signal %d in a child: not run\n", e[i].solver->name,
                   e[i].signal);
        else
            printf("    %-24s unsolved (error %.2e)\n", e[i].solver->name, e[i].err);
    const entry *a = fastest(e, n, 1, o->rounds), *b = fastest(e, n, 0, o->rounds);
    int solved_ours = 0, solved_sic = 0;
    for (int i = 0; i < n; i++)
        *(e[i].ours ? &solved_ours : &solved_sic) += e[i].solved;
    printf("%-44s %3d %2d/%-2d", label, prob->nc, solved_ours, solved_sic);
    print_side(a, o->rounds);
    print_side(b, o->rounds);
    if (a && b) {
        double ratio = cbb_median(a->total, o->rounds) / cbb_median(b->total, o->rounds), lo, hi;
        round_ratios(a, b, o->rounds, &lo, &hi);
        printf("  %6.2f  %5.2f-%-5.2f\n", ratio, lo, hi);
        *lr = log(ratio);
        rc = 1;
    } else {
        printf("  %6s\n", "-");
    }
    cb_solution_free(&sol);
    return rc;
}

static int parse_args(int argc, char **argv, bench_opts *o)
{
    const char *q = getenv("CONEBENCH_QUICK");
    o->quick = q && *q && strcmp(q, "0") != 0;
    o->only = NULL;
    o->all = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            o->quick = 1;
        } else if (strcmp(argv[i], "--all") == 0) {
            o->all = 1;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            o->only = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--quick] [--all] [--only SUBSTRING]\n", argv[0]);
            return 2;
        }
    }
    o->rounds = o->quick ? 1 : ROUNDS;
    o->batch_cpu = o->quick ? 0.005 : BATCH_CPU;
    return 0;
}

int main(int argc, char **argv)
{
    bench_opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc;
    numerics_set_verbose(0);
    openblas_set_num_threads(1);
    static char *files[MAX_FILES];
    int nf = list_files(data_dir(), files, MAX_FILES), nboth = 0, nsmall = 0;
    if (nf == 0) {
        printf("bench_small: skipped: no problem files under %s (set CONEBENCH_DATA)\n",
               data_dir());
        return 0;
    }
    printf("conebench %s vs Siconos numerics 4.4: files of %s with nc < %d, tol %.0e, %d "
           "round(s), CPU seconds per solve (median)\n", CB_VERSION, data_dir(), SMALL_NC, TOL,
           o.rounds);
    printf("%-44s %3s %5s  %-22s %10s %10s %10s  %-22s %10s %10s %10s  %6s  %-11s\n", "file",
           "nc", "solvd", "ours: fastest", "total", "solve", "setup", "Siconos: fastest", "total",
           "solve", "setup", "ratio", "rounds");
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    double sum = 0;
    for (int i = 0; i < nf; i++) {
        cb_problem *prob = NULL;
        cb_error err = {{0}};
        const char *label = files[i] + strlen(data_dir()) + 1;
        if (o.only && !strstr(files[i], o.only))
            continue;
        if (cb_read_problem(files[i], &rs, &prob, &err) != CB_OK) {
            printf("%-44s skipped (%s)\n", label, err.text);
            continue;
        }
        if (prob->nc >= SMALL_NC) {
            cb_problem_free(prob);
            continue;
        }
        double lr = 0;
        nsmall++;
        if (bench_file(label, prob, &o, &lr))
            sum += lr, nboth++;
        cb_problem_free(prob);
        fflush(stdout);
    }
    for (int i = 0; i < nf; i++)
        free(files[i]);
    printf("geometric mean ours/Siconos over %d of %d files (both sides solve): %.3f\n", nboth,
           nsmall, nboth ? exp(sum / nboth) : NAN);
    return 0;
}
