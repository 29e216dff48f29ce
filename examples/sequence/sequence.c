/* conebench example: solve a sequence of problems (the time steps of a simulation) with one
 * setup, and compare with a setup at every step. Reads the problem files of DIR named *.dat, in
 * step order (written by `conebench generate SCENARIO --steps 1:200:1 -o DIR`), then for each
 * SOLVER, REPS times,
 * runs the sequence two ways, interleaved (the order alternates between repetitions):
 *   (a) setup once: cb_setup, then per step cb_update_problem (q, μ, W updated in place)
 *       and cb_warm_start from the previous step's p, cb_solve_ws; set up again only when the
 *       step's pattern (kind, nc, storage, W's block pattern) differs from the last one;
 *   (b) setup every step: cb_solve (setup + solve + cleanup), from the same warm start.
 * Prints per solver: steps, setups of (a), CPU seconds of (a) and (b) (median over the
 * repetitions), the ratio (b)/(a) (median, min and max over the repetitions), the steps the
 * judge calls solved. Both ways must give the same bits at every step (it checks).
 *
 *   cc -std=c11 sequence.c $(pkg-config --cflags --libs conebench) -o sequence
 *   ./sequence DIR REPS SOLVER...          (exit 0: both ways agree and solve every step) */
#define _GNU_SOURCE /* versionsort */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <conebench/io.h>
#include <conebench/solver.h>

#define MAX_REPS 1000

typedef struct {
    cb_problem **prob;
    int n;
} sequence;

/* CPU seconds of this process. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The problem files of a step folder: NAME.dat (`conebench generate SCENARIO --steps`). */
static int skip_entry(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return e->d_name[0] != '.' && n > 4 && strcmp(e->d_name + n - 4, ".dat") == 0;
}

/* Every .dat file of dir, read in step order (versionsort: step9 before step10). */
static int read_sequence(const char *dir, sequence *seq, cb_error *err)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, skip_entry, versionsort), rc = CB_OK;
    if (n < 0)
        return cb_fail(err, CB_ERR_IO, "%s: cannot list", dir);
    seq->prob = calloc(n > 0 ? (size_t)n : 1, sizeof *seq->prob);
    seq->n = 0;
    for (int k = 0; k < n; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]->d_name);
        if (rc == CB_OK && !seq->prob)
            rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
        if (rc == CB_OK && (rc = cb_read_problem(path, NULL, &seq->prob[seq->n], err)) == CB_OK)
            seq->n++;
        free(names[k]);
    }
    free(names);
    if (rc == CB_OK && seq->n == 0)
        rc = cb_fail(err, CB_ERR_INPUT, "%s: no problem file", dir);
    return rc;
}

/* One run of the sequence: the answers (p of every step, owned by the caller), solved steps,
 * setups, CPU seconds. */
typedef struct {
    double **p;
    int solved, setups;
    double cpu;
} run;

/* Step k's warm start: the previous answer when it has the same size, else zeros. */
static void warm(const sequence *seq, const run *r, int k, double *p)
{
    size_t n = cb_problem_n(seq->prob[k]);
    if (k > 0 && cb_problem_n(seq->prob[k - 1]) == n)
        memcpy(p, r->p[k - 1], n * sizeof *p);
    else
        memset(p, 0, n * sizeof *p);
}

/* Step k by the workspace: updated when the pattern is the last one's, else set up again. */
static int step_ws(cb_workspace **ws, const cb_solver *sv, const cb_settings *s,
                   const cb_problem *p, run *r, cb_error *err)
{
    int again = 1, rc = *ws ? cb_update_problem(ws, p, &again, err) : cb_setup(ws, sv, p, s, err);
    r->setups += again;
    return rc;
}

/* The sequence once, way (a) (setup_once) or (b). */
static int run_sequence(const sequence *seq, const cb_solver *sv, int setup_once, run *r,
                        cb_error *err)
{
    cb_settings s;
    cb_settings_default(&s);
    cb_workspace *ws = NULL;
    int rc = CB_OK;
    r->solved = r->setups = 0;
    double t0 = cpu_now();
    for (int k = 0; k < seq->n && rc == CB_OK; k++) {
        const cb_problem *p = seq->prob[k];
        cb_solution sol = {0};
        cb_info info = {0};
        rc = cb_solution_alloc(p, &sol, err);
        if (rc == CB_OK)
            warm(seq, r, k, sol.p);
        if (rc == CB_OK && setup_once) {
            rc = step_ws(&ws, sv, &s, p, r, err);
            if (rc == CB_OK)
                rc = cb_warm_start(ws, sol.p, sol.n, err);
            if (rc == CB_OK)
                rc = cb_solve_ws(ws, &sol, &info, err);
        } else if (rc == CB_OK) {
            r->setups++;
            rc = cb_solve(sv, p, &s, &sol, &info, err);
        }
        r->solved += rc == CB_OK && info.solved;
        free(r->p[k]);
        r->p[k] = sol.p; /* kept: the next warm start, and the comparison */
        free(sol.y);
        cb_info_free(&info);
    }
    r->cpu = cpu_now() - t0;
    cb_cleanup(ws);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* 1 when both runs gave the same bits at every step. */
static int same_answers(const sequence *seq, const run *a, const run *b)
{
    for (int k = 0; k < seq->n; k++)
        if (memcmp(a->p[k], b->p[k], cb_problem_n(seq->prob[k]) * sizeof(double)))
            return 0;
    return 1;
}

/* REPS repetitions of (a) and (b) for one solver, and its line. 0 when all is well. */
static int compare(const sequence *seq, const cb_solver *sv, int reps, cb_error *err)
{
    run r[2] = {{calloc((size_t)seq->n, sizeof(double *)), 0, 0, 0},
                {calloc((size_t)seq->n, sizeof(double *)), 0, 0, 0}};
    static double ta[MAX_REPS], tb[MAX_REPS], ratio[MAX_REPS];
    int rc = r[0].p && r[1].p ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory"), same = 1;
    for (int i = 0; i < reps && rc == CB_OK; i++) {
        int first = i % 2; /* alternate which way runs first */
        rc = run_sequence(seq, sv, first == 0, &r[first], err);
        if (rc == CB_OK)
            rc = run_sequence(seq, sv, first != 0, &r[!first], err);
        same &= rc == CB_OK && same_answers(seq, &r[0], &r[1]);
        ta[i] = r[0].cpu, tb[i] = r[1].cpu, ratio[i] = r[1].cpu / r[0].cpu;
    }
    if (rc == CB_OK) {
        double ma = median(ta, reps), mb = median(tb, reps), mr = median(ratio, reps);
        printf("%-8s steps=%d  setups: once=%d every=%d  cpu_s: once=%.4f every=%.4f  "
               "ratio every/once=%.3f [%.3f, %.3f] over %d reps  solved: once=%d every=%d  "
               "same_bits=%s\n", sv->name, seq->n, r[0].setups, r[1].setups, ma, mb, mr,
               ratio[0], ratio[reps - 1], reps, r[0].solved, r[1].solved, same ? "yes" : "no");
    }
    for (int k = 0; k < seq->n; k++)
        free(r[0].p ? r[0].p[k] : NULL), free(r[1].p ? r[1].p[k] : NULL);
    free(r[0].p), free(r[1].p);
    if (rc != CB_OK)
        return rc;
    return same && r[0].solved == seq->n && r[1].solved == seq->n ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 4 || atoi(argv[2]) < 1 || atoi(argv[2]) > MAX_REPS) {
        fprintf(stderr, "usage: sequence DIR REPS(1..%d) SOLVER...\n", MAX_REPS);
        return 2;
    }
    cb_error err = {{0}};
    sequence seq = {0};
    int rc = read_sequence(argv[1], &seq, &err), status = 0;
    for (int i = 3; rc == CB_OK && i < argc; i++) {
        const cb_solver *sv = cb_solver_find(argv[i]);
        if (!sv) {
            fprintf(stderr, "sequence: %s: no such solver\n", argv[i]);
            status = 2;
            continue;
        }
        int r = compare(&seq, sv, atoi(argv[2]), &err);
        if (r > 1)
            rc = r;
        status |= r != 0;
    }
    if (rc != CB_OK)
        fprintf(stderr, "sequence: %s\n", err.text);
    for (int k = 0; k < seq.n; k++)
        cb_problem_free(seq.prob[k]);
    free(seq.prob);
    return rc != CB_OK ? 1 : status;
}
