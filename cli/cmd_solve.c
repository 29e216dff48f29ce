/* conebench — `conebench solve`: run one registered solver on one problem file. */
#include "commands.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/io.h"
#include "results.h"
#include "conebench/solver.h"
#include "base.h"
#include "kv.h"
#include "fclib_check.h"
#include "solve_limited.h"
#include "reference.h"

#define MAX_REPEAT 1000

static const cb_cli_opt opts[] = {
    {"solver", 's', "S", "the solver (conebench list solvers); required"},
    {"tol", 't', "T", "target judged error (default 1e-8)"},
    {"max-iter", 'n', "N", "outer iterations at most (sweeps for nsgs; default 10000)"},
    {"time-limit", 'l', "S", "the budget: CPU seconds of the run, reading the problem and setup "
                             "included (default 60; a solver that cannot stop itself runs in a "
                             "child killed at the budget)"},
    {"wall-limit", 'W', "S", "the wall-clock guard: wall seconds of the solve at most (default 3 "
                             "× the budget)"},
    {"option", 'o', "k=v", "a solver option, repeatable (conebench list solvers; default none)"},
    {"warm-start", 'w', "SOL", "start from the p of solution file SOL (default: p = 0)"},
    {"trace", 'r', "OUT.csv", "write the convergence trace (iteration,time_s,error)"},
    {"solution", 'x', "OUT", "write the solution: p and y as text, or OUT.hdf5 / OUT.h5: an FCLIB "
                         "file with the problem and /solution (r = p, u = y; local coulomb only)"},
    {"json", 'j', NULL, "print one JSON object (keys: man conebench, JSON OUTPUT)"},
    {"kind", 'k', "K", "read FILE as cone kind K (e.g. rolling2d for d = 3; default: the file's)"},
    {"plugin", 'P', "SO", CB_CLI_PLUGIN_HELP},
    {"repeat", 'R', "N", "solve N times from the same start, cpu_s = the least (default 1)"},
    {"threads", 'T', "N", "threads of the run (1..64; default 1): W products, nsgs/psor with "
                          "order=coloured; the same bits for any N"},
    {NULL, 0, NULL, NULL}};

typedef struct {
    const char *file, *solver, *warm, *trace, *solution;
    int json;
    long repeat;         /* solves from the same start; cpu_s is their minimum */
    cb_settings s;
    cb_read_settings rs;
    cb_kv_list opts;     /* --option pairs (owned) */
} solve_args;

static int solve_option(int c, solve_args *a)
{
    long v;
    int rc;
    switch (c) {
    case 's': a->solver = optarg; return CB_EXIT_OK;
    case 't': return cb_cli_parse_double("--tol", optarg, &a->s.tol);
    case 'n':
        rc = cb_cli_parse_long("--max-iter", optarg, 1, 0x7fffffff, &v);
        a->s.max_iter = (int)v;
        return rc;
    case 'l': return cb_cli_parse_time_limit("--time-limit", optarg, &a->s.time_limit);
    case 'W':
        rc = cb_cli_parse_double("--wall-limit", optarg, &a->s.wall_limit);
        return rc == CB_EXIT_OK && !(a->s.wall_limit > 0)
                   ? cb_cli_usage_error("--wall-limit: must be > 0, got %s", optarg)
                   : rc;
    case 'o': return cb_cli_kv_add(&a->opts, "--option", optarg);
    case 'w': a->warm = optarg; return CB_EXIT_OK;
    case 'r': a->trace = optarg; a->s.trace = 1; return CB_EXIT_OK;
    case 'x': a->solution = optarg; return CB_EXIT_OK;
    case 'j': a->json = 1; return CB_EXIT_OK;
    case 'P': return cb_cli_plugin(optarg);
    case 'R': return cb_cli_parse_long("--repeat", optarg, 1, MAX_REPEAT, &a->repeat);
    case 'T':
        rc = cb_cli_parse_long("--threads", optarg, 1, CB_THREADS_MAX, &v);
        a->s.threads = (int)v;
        return rc;
    case 'k':
        a->rs.force_kind = 1;
        return cb_kind_parse(optarg, &a->rs.kind) == CB_OK
                   ? CB_EXIT_OK
                   : cb_cli_usage_error("--kind: unknown cone kind '%s'", optarg);
    default: return cb_cli_usage(&cb_command_solve);
    }
}

static int parse_solve(int argc, char **argv, solve_args *a)
{
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1)
        rc = solve_option(c, a);
    if (rc == CB_EXIT_OK && (optind != argc - 1 || !a->solver))
        rc = cb_cli_usage(&cb_command_solve);
    if (rc == CB_EXIT_OK)
        a->file = argv[optind];
    if (rc == CB_EXIT_OK && !(a->s.tol > 0))
        rc = cb_cli_usage_error("--tol: must be > 0");
    return rc;
}

/* Load the warm start SOL into sol->p (must match nc and d). */
static int load_warm(const char *path, const cb_problem *p, cb_solution *sol, cb_error *err)
{
    int nc, d;
    double *x = NULL, *y = NULL;
    int rc = cb_read_solution(path, &nc, &d, &x, &y, err);
    if (rc == CB_OK && (nc != p->nc || d != p->d))
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 1,
                        "warm start has %d contacts of dimension %d, the problem %d of %d", nc, d,
                        p->nc, p->d);
    if (rc == CB_OK)
        memcpy(sol->p, x, sol->n * sizeof(double));
    free(x);
    free(y);
    return rc;
}

static void json_options(cb_json *j, const solve_args *a)
{
    cb_json_object(j, "options");
    for (int i = 0; i < a->s.noptions; i++)
        cb_json_str(j, a->opts.items[i].key, a->opts.items[i].value);
    cb_json_close(j);
}

/* CPU seconds of this process and of its reaped children (a solver run in a child process
 * under a time limit counts too). */
static double process_cpu_seconds(void)
{
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec +
                    kids.ru_stime.tv_sec) +
           1e-6 * (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec +
                           kids.ru_stime.tv_usec);
}

/* Peak resident set in bytes: the larger of this process's and of its largest reaped child's
 * (a solver run in a child under a time limit). */
static long long peak_rss_bytes(void)
{
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    long kb = self.ru_maxrss > kids.ru_maxrss ? self.ru_maxrss : kids.ru_maxrss;
    return 1024LL * kb;
}

/* The result as one JSON object (keys: docs/conebench.1, JSON OUTPUT). */
/* "work":{the four counters}. */
static void json_work(cb_json *j, const cb_work *w)
{
    cb_json_object(j, "work");
    cb_json_int(j, "block_products", w->block_products);
    cb_json_int(j, "projections", w->projections);
    cb_json_int(j, "local_iters", w->local_iters);
    cb_json_int(j, "error_evals", w->error_evals);
    cb_json_close(j);
}

static void print_json(const solve_args *a, const cb_problem *p, const cb_info *info, double cpu,
                       const cb_gap *gap, double dist_ref)
{
    double t = info->time_setup + info->time_solve;
    cb_json j;
    cb_json_begin(&j, stdout);
    cb_json_str(&j, "problem", a->file);
    cb_json_str(&j, "sha256", p->prov.sha256);
    cb_json_str(&j, "kind", cb_kind_name(p->kind));
    cb_json_int(&j, "nc", p->nc);
    cb_json_str(&j, "solver", a->solver);
    json_options(&j, a);
    cb_json_num(&j, "tol", a->s.tol);
    cb_json_str(&j, "status", cb_status_name(info->status));
    cb_json_bool(&j, "solved", info->solved);
    cb_json_int(&j, "iterations", info->iterations);
    cb_json_num(&j, "error", info->error);
    cb_json_num(&j, "error_q", info->error_q);
    cb_json_num(&j, "error_data", info->error_data);
    cb_json_gap(&j, gap);
    cb_json_num(&j, "dist_ref", dist_ref);
    cb_json_num_digits(&j, "time_s", t, 9);
    cb_json_num_digits(&j, "time_setup_s", info->time_setup, 9);
    cb_json_num_digits(&j, "time_solve_s", info->time_solve, 9);
    cb_json_num_digits(&j, "time_judge_s", info->time_judge, 9);
    cb_json_num_digits(&j, "cpu_s", cpu, 9);
    cb_json_int(&j, "repeat", a->repeat);
    cb_json_int(&j, "w_bytes", (long long)cb_problem_W_bytes(p));
    cb_json_int(&j, "peak_rss", peak_rss_bytes());
    json_work(&j, &info->work);
    cb_json_array(&j, "phases");
    for (int i = 0; i < info->nphases; i++) {
        cb_json_object(&j, NULL);
        cb_json_str(&j, "solver", info->phases[i].solver);
        cb_json_int(&j, "iterations", info->phases[i].iterations);
        cb_json_num_digits(&j, "time_s", info->phases[i].time_s, 9);
        json_work(&j, &info->phases[i].work);
        cb_json_close(&j);
    }
    cb_json_end(&j);
}

/* The gap measures of sol and its distance to FILE.ref (reference.h; NaN without one, or when
 * its p* is not unique; why one was ignored goes to stderr). */
static void gap_of_run(const solve_args *a, const cb_problem *p, const cb_solution *sol,
                       int killed, cb_gap *gap, double *dist_ref)
{
    char note[1024];
    *gap = CB_GAP_UNKNOWN;
    *dist_ref = NAN;
    if (killed || cb_judge_gap(p, sol->p, sol->y, gap, NULL) != CB_OK)
        return;
    *dist_ref = cb_reference_dist(a->file, p->prov.sha256, NULL, p->nc, p->d, sol->p, note,
                                  sizeof note);
    if (note[0])
        fprintf(stderr, "conebench: %s: %s\n", a->file, note);
}

static void print_result(const solve_args *a, const cb_problem *p, const cb_info *info,
                         double cpu, const cb_solution *sol, int killed)
{
    if (a->json) {
        cb_gap gap;
        double dist_ref;
        gap_of_run(a, p, sol, killed, &gap, &dist_ref);
        print_json(a, p, info, cpu, &gap, dist_ref);
        return;
    }
    printf("%s  %s  nc=%d  %s  %s  status=%s  iterations=%d  error=%.3e  error_q=%.3e  "
           "error_data=%.3e  time=%.6fs\n",
           p->name ? p->name : a->file, cb_kind_name(p->kind), p->nc, a->solver,
           info->solved ? "solved" : "not-solved", cb_status_name(info->status),
           info->iterations, info->error, info->error_q, info->error_data,
           info->time_setup + info->time_solve);
}

/* Say on stderr that the run stopped at the time limit (and, when the solver had to be killed,
 * that nothing was written: there is no result). */
static void note_time_limit(const solve_args *a, const cb_info *info, int killed)
{
    if (info->status != CB_STATUS_TIME_LIMIT)
        return;
    fprintf(stderr, "conebench: %s: %s stopped at the time limit (%g s)%s\n", a->file, a->solver,
            a->s.time_limit,
            killed && (a->trace || a->solution) ? "; no solution or trace written" : "");
}

/* a->repeat solves from the same start p0 (the last one's result stays in sol and info);
 * *cpu = the least CPU time of one solve (the least disturbed: for benchmarks). */
static int solve_repeated(solve_args *a, const cb_solver *solver, const cb_problem *p,
                          cb_solution *sol, cb_info *info, int *killed, double *cpu, cb_error *err)
{
    double *p0 = cb_malloc_array(sol->n, sizeof(double));
    int rc = p0 ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (p0)
        memcpy(p0, sol->p, sol->n * sizeof(double));
    *cpu = INFINITY;
    a->s.cpu_spent = process_cpu_seconds(); /* reading the problem: part of every run's budget */
    for (long k = 0; rc == CB_OK && k < a->repeat && !*killed; k++) {
        memcpy(sol->p, p0, sol->n * sizeof(double));
        cb_info_free(info);
        double c0 = process_cpu_seconds();
        rc = cb_solve_limited(solver, p, &a->s, sol, info, NULL, killed, err);
        *cpu = fmin(*cpu, process_cpu_seconds() - c0);
    }
    free(p0);
    return rc;
}

/* Read, solve, write outputs (solution and trace only from a result: not when the solver had
 * to be killed at the time limit). */
static int run_solve(solve_args *a, const cb_solver *solver, cb_error *err)
{
    cb_problem *p = NULL;
    cb_solution sol = {0};
    cb_info info = {0};
    int killed = 0;
    double cpu = 0;
    int rc = cb_read_problem(a->file, &a->rs, &p, err);
    if (rc == CB_OK && a->solution && cb_format_of_path(a->solution) == CB_FORMAT_FCLIB)
        rc = cb_fclib_check(a->solution, p, 1, err); /* refused before solving */
    if (rc == CB_OK)
        rc = cb_solution_alloc(p, &sol, err);
    if (rc == CB_OK && a->warm)
        rc = load_warm(a->warm, p, &sol, err);
    if (rc == CB_OK)
        rc = solve_repeated(a, solver, p, &sol, &info, &killed, &cpu, err);
    if (rc == CB_OK && a->trace && !killed)
        rc = cb_trace_write(a->trace, &info, err);
    if (rc == CB_OK && a->solution && !killed)
        rc = cb_format_of_path(a->solution) == CB_FORMAT_FCLIB
                 ? cb_write_fclib_solution(a->solution, p, sol.p, sol.y, err)
                 : cb_write_solution(a->solution, p->nc, p->d, sol.p, sol.y, err);
    if (rc == CB_OK)
        note_time_limit(a, &info, killed);
    if (rc == CB_OK && err->text[0] && !info.solved) /* why (external.h) */
        fprintf(stderr, "conebench: %s: %s: %s\n", a->file, a->solver, err->text);
    if (rc == CB_OK)
        print_result(a, p, &info, cpu, &sol, killed);
    cb_info_free(&info);
    cb_solution_free(&sol);
    cb_problem_free(p);
    return rc;
}

int cb_cmd_solve(int argc, char **argv)
{
    solve_args a;
    memset(&a, 0, sizeof a);
    a.repeat = 1;
    cb_settings_default(&a.s);
    cb_read_settings_default(&a.rs);
    int rc = parse_solve(argc, argv, &a);
    a.s.options = a.opts.items;
    a.s.noptions = a.opts.n;
    if (rc == CB_EXIT_OK) {
        const cb_solver *solver = cb_solver_find(a.solver);
        cb_error err = {{0}};
        char hint[CB_CLI_HINT_LEN];
        if (!solver)
            rc = cb_cli_usage_error("--solver: unknown solver '%s'%s (see conebench list solvers)",
                                    a.solver, cb_solver_suggest(a.solver, hint, sizeof hint));
        else if ((rc = run_solve(&a, solver, &err)) != CB_OK)
            rc = cb_cli_report(rc, &err);
    }
    cb_kv_list_free(&a.opts);
    return rc;
}

static const cb_cli_form forms[] = {{"solve FILE --solver S [options]", opts}, {NULL, NULL}};

const cb_cli_command cb_command_solve = {
    "solve", cb_cmd_solve, "run one solver on one problem file; the result is judged anew",
    forms,
    "Reads FILE (any format info reads), runs the solver from p = 0 (or --warm-start) and judges\n"
    "the result with the natural-map residual: error (Siconos 4.4 normalisation), error_q (FCLIB\n"
    "normalisation) and error_data (the verdict's: Siconos' with the iterate's size capped by the\n"
    "data, see man conebench, VERDICT). status is why the run stopped (converged, max_iter, ...);\n"
    "solved is the judge's verdict on the final iterate, whatever the solver says; `conebench\n"
    "error` on the --solution file gives the same. Prints one line (or --json); a stop at the\n"
    "time limit is said on stderr.",
    "conebench solve problem.dat --solver nsgs --tol 1e-8 --option omega=1.2 --json",
    "0 the solve ran (its status, e.g. max_iter, is in the output), 1 failure, 2 bad input"};
