/* conebench tests — the harness: campaign parsing, isolated runner (crash, hang, kill -9 then
 * resume, shards), results files, and performance-profile properties. */
#include "test_support.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaign.h"
#include "metrics.h"
#include "report.h"
#include "results.h"
#include "rng.h"
#include "runner.h"

/* Test-only solvers: crash, hang, sleep briefly then return p = 0, wait for a file then return
 * p = 0 (so a test knows exactly which runs can finish). */
static char go_file[600]; /* test-wait returns once this file exists */

static int t_setup(const cb_problem *p, const cb_settings *s, void **w, cb_error *e)
{
    (void)p, (void)s, (void)e;
    *w = NULL;
    return CB_OK;
}
static void t_cleanup(void *w) { (void)w; }
static int crash_solve(void *w, const cb_settings *s, cb_solution *sol, cb_info *i, cb_error *e)
{
    (void)w, (void)s, (void)sol, (void)i, (void)e;
    raise(SIGSEGV);
    return CB_OK;
}
static int hang_solve(void *w, const cb_settings *s, cb_solution *sol, cb_info *i, cb_error *e)
{
    (void)w, (void)s, (void)sol, (void)i, (void)e;
    for (;;)
        pause();
    return CB_OK;
}
static int nap_solve(void *w, const cb_settings *s, cb_solution *sol, cb_info *i, cb_error *e)
{
    (void)w, (void)s, (void)e;
    struct timespec ts = {0, 30 * 1000 * 1000};
    nanosleep(&ts, NULL);
    memset(sol->p, 0, sol->n * sizeof(double));
    i->status = CB_STATUS_MAX_ITER;
    i->iterations = 1;
    return CB_OK;
}
static int wait_solve(void *w, const cb_settings *s, cb_solution *sol, cb_info *i, cb_error *e)
{
    struct stat st;
    while (stat(go_file, &st) != 0) {
        struct timespec ts = {0, 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return nap_solve(w, s, sol, i, e);
}
static const cb_solver crash = {"test-crash", "segfaults", NULL, NULL, t_setup, crash_solve, t_cleanup, NULL};
static const cb_solver hang = {"test-hang", "never returns", NULL, NULL, t_setup, hang_solve, t_cleanup, NULL};
static const cb_solver nap = {"test-nap", "sleeps 30 ms", NULL, NULL, t_setup, nap_solve, t_cleanup, NULL};
static const cb_solver waiter = {"test-wait", "waits for go_file", NULL, NULL, t_setup, wait_solve,
                                 t_cleanup, NULL};

static const cb_solver *find(const char *name)
{
    if (!strcmp(name, "test-crash"))
        return &crash;
    if (!strcmp(name, "test-hang"))
        return &hang;
    if (!strcmp(name, "test-nap"))
        return &nap;
    if (!strcmp(name, "test-wait"))
        return &waiter;
    return cb_solver_find(name);
}

/* Write a campaign file in dir and parse it. */
static cb_campaign *campaign(const char *dir, const char *text)
{
    char path[512], gen[512];
    snprintf(path, sizeof path, "%s/c.conf", dir);
    snprintf(gen, sizeof gen, "%s/gen", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    cb_campaign *c = NULL;
    cb_error err = {{0}};
    int rc = cb_campaign_parse_with(path, gen, find, &c, &err);
    if (rc != CB_OK)
        fail_msg("campaign: %s", err.text);
    assert_true(mkdir(gen, 0755) == 0 || errno == EEXIST);
    return c;
}

static void settings(cb_runner_settings *s, const char *out)
{
    cb_runner_settings_default(s);
    s->outdir = out;
    s->progress = 0;
    s->find_solver = find;
    s->kill_after = 0.5;
}

static void read_rows(const char *out, cb_results *r)
{
    char path[600];
    snprintf(path, sizeof path, "%s/runs.csv", out);
    cb_error err = {{0}};
    if (cb_results_read(path, r, &err) != CB_OK)
        fail_msg("%s", err.text);
}

static int status_of(const cb_results *r, const char *solver)
{
    for (int i = 0; i < r->nrows; i++)
        if (!strcmp(r->rows[i].solver, solver))
            return (int)r->rows[i].status;
    return -1;
}

/* A crashing solver is recorded as crashed, a hanging one as time_limit (killed at 1.5 · 2 + 0.5
 * s: a hang never ends, and nsgs's run on nc = 5 takes milliseconds, 2 s even 50x slower); the
 * others still run and are judged (nsgs solves its problem). One run at a time, then the three
 * at once (--jobs 3): each row is its own run's. */
static void crash_and_hang(int jobs)
{
    const char *dir = cbt_tmpdir();
    cb_campaign *c = campaign(dir, "generate random kind=rolling3d nc=5 seeds=1\n"
                                   "solver test-crash\nsolver test-hang\nsolver nsgs\n"
                                   "tol 1e-8\ntime-limit 2\n");
    char out[600];
    snprintf(out, sizeof out, "%s/out%d", dir, jobs);
    cb_runner_settings s;
    settings(&s, out);
    s.jobs = jobs;
    cb_runner_summary sum;
    cb_error err = {{0}};
    assert_int_equal(cb_run_campaign(c, &s, &sum, &err), CB_OK);
    assert_int_equal(sum.total, 3);
    assert_int_equal(sum.crashed, 1);
    cb_results r;
    read_rows(out, &r);
    assert_int_equal(r.nrows, 3);
    assert_int_equal(status_of(&r, "test-crash"), CB_STATUS_CRASHED);
    assert_int_equal(status_of(&r, "test-hang"), CB_STATUS_TIME_LIMIT);
    assert_int_equal(status_of(&r, "nsgs"), CB_STATUS_CONVERGED);
    for (int i = 0; i < r.nrows; i++) { /* kind and nc are known even for the crashed run */
        assert_string_equal(r.rows[i].kind, "rolling3d");
        assert_int_equal(r.rows[i].nc, 5);
    }
    cb_results_free(&r);
    cb_campaign_free(c);
}

static void test_crash_and_hang(void **state)
{
    (void)state;
    crash_and_hang(1);
    crash_and_hang(3);
}

/* Two problems, two solvers; siconos-admm does not take rollspin3d. */
static const char unsupported_campaign[] = "generate random kind=rollspin3d nc=5 seeds=1\n"
                                           "generate random kind=rolling3d nc=5 seeds=1\n"
                                           "solver nsgs\nsolver siconos-admm\ntol 1e-6\n"
                                           "time-limit 10\n";

/* The per-solver line of `label` in a report summary: runs, solved, success [%], unsupported. */
static void summary_line(const char *text, const char *label, int *runs, int *solved,
                         double *success, int *unsup)
{
    char key[64];
    snprintf(key, sizeof key, "\n%s ", label);
    const char *l = strstr(text, key);
    if (!l)
        fail_msg("no line for %s in the summary:\n%s", label, text);
    double tm, it, er;
    assert_int_equal(sscanf(l + strlen(key), "%d %d %lf%% %lf %lf %lf %d", runs, solved, success,
                            &tm, &it, &er, unsup),
                     7);
}

/* Every ρ of the iteration profile is 0 or 1 (one problem) and both solvers end at ρ = 1 on the
 * last row, whose τ ends the x-range: 1.25 × the last step, the ratio of the two solvers'
 * iterations on the problem both take (from runs.csv), and at least 2. */
static void check_profile_ends(const char *out)
{
    char path[700], line[256];
    cb_results r;
    double most = 0, least = INFINITY;
    read_rows(out, &r);
    for (int i = 0; i < r.nrows; i++)
        if (r.rows[i].solved && strcmp(r.rows[i].kind, "rollspin3d")) {
            most = fmax(most, fmax(r.rows[i].iterations, 1));
            least = fmin(least, fmax(r.rows[i].iterations, 1));
        }
    cb_results_free(&r);
    snprintf(path, sizeof path, "%s/figures/profile-iterations-tol0.csv", out);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f)); /* header */
    assert_non_null(strstr(line, "\"nsgs\",\"siconos-admm\""));
    double tau = 0, a = -1, b = -1;
    int rows = 0;
    while (fgets(line, sizeof line, f) && sscanf(line, "%lf,%lf,%lf", &tau, &a, &b) == 3) {
        assert_true((a == 0 || a == 1) && (b == 0 || b == 1));
        rows++;
    }
    fclose(f);
    assert_true(rows >= 2);
    assert_true(a == 1 && b == 1);
    assert_true(fabs(tau - fmax(1.25 * most / least, 2.0)) <= 1e-12 * tau);
}

/* rollspin3d × siconos-admm: the solver does not take the kind. The run is recorded as
 * unsupported (not bad_input, not a failure) with kind and nc, its message goes to errors.log,
 * and every other pair is solved. */
static void test_unsupported_runs(void **state)
{
    (void)state;
    CBT_REQUIRE_SICONOS(); /* siconos-admm is the solver that refuses a kind */
    const char *dir = cbt_tmpdir();
    cb_campaign *c = campaign(dir, unsupported_campaign);
    char out[600], path[700], log[1024] = "";
    snprintf(out, sizeof out, "%s/out", dir);
    cb_runner_settings s;
    settings(&s, out);
    cb_runner_summary sum;
    assert_int_equal(cb_run_campaign(c, &s, &sum, NULL), CB_OK);
    assert_int_equal(sum.total, 4);
    assert_int_equal(sum.solved, 3);
    assert_int_equal(sum.unsupported, 1);
    assert_int_equal(sum.failed + sum.crashed, 0);
    cb_results r;
    read_rows(out, &r);
    assert_int_equal(r.nrows, 4);
    for (int i = 0; i < r.nrows; i++) {
        const cb_result *row = &r.rows[i];
        int refused = !strcmp(row->kind, "rollspin3d") && !strcmp(row->solver, "siconos-admm");
        assert_int_equal(row->status, refused ? CB_STATUS_UNSUPPORTED : CB_STATUS_CONVERGED);
        assert_int_equal(row->solved, !refused);
        assert_int_equal(row->nc, 5);
        assert_int_equal((int)strlen(row->sha256), 64);
        assert_true(refused ? isnan(row->error) && row->iterations == 0 : row->error <= 1e-6);
    }
    cb_results_free(&r);
    snprintf(path, sizeof path, "%s/errors.log", out);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(log, 1, sizeof log - 1, f);
    fclose(f);
    log[n] = '\0';
    assert_non_null(strstr(log, "siconos-admm: cone kind rollspin3d is not supported"));
    assert_ptr_equal(strchr(log, '\n'), log + n - 1); /* that one line only */
    cb_campaign_free(c);
}

/* The report of that campaign: siconos-admm counts 1 run (not 2), 100 % success, 1 unsupported;
 * the per-problem cell says n/a; profiles cover the 1 problem both solvers take (at τ = 10⁴
 * both reach ρ = 1: the refused problem is not charged to siconos-admm as a failure). */
static void test_unsupported_report(void **state)
{
    (void)state;
    CBT_REQUIRE_SICONOS(); /* siconos-admm is the solver that refuses a kind */
    const char *dir = cbt_tmpdir();
    cb_campaign *c = campaign(dir, unsupported_campaign);
    char out[600], path[700], *text = NULL, md[16384];
    size_t len = 0;
    snprintf(out, sizeof out, "%s/out", dir);
    cb_runner_settings s;
    settings(&s, out);
    cb_runner_summary sum;
    assert_int_equal(cb_run_campaign(c, &s, &sum, NULL), CB_OK);
    cb_campaign_free(c);
    cb_report_settings rs;
    cb_report_settings_default(&rs);
    rs.dir = out;
    rs.figures = cbt_have_program("gnuplot");
    rs.summary = open_memstream(&text, &len);
    cb_error err = {{0}};
    if (cb_report(&rs, &err) != CB_OK)
        fail_msg("report: %s", err.text);
    fclose(rs.summary);
    int runs, solved, unsup;
    double success;
    summary_line(text, "siconos-admm", &runs, &solved, &success, &unsup);
    assert_int_equal(runs, 1);
    assert_int_equal(solved, 1);
    assert_true(success == 100.0);
    assert_int_equal(unsup, 1);
    summary_line(text, "nsgs", &runs, &solved, &success, &unsup);
    assert_int_equal(runs, 2);
    assert_int_equal(solved, 2);
    assert_int_equal(unsup, 0);
    assert_non_null(strstr(text, "profiles: 1 of 2 problems (1 unsupported by some solver"));
    free(text);
    snprintf(path, sizeof path, "%s/report.md", out);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    md[fread(md, 1, sizeof md - 1, f)] = '\0';
    fclose(f);
    assert_non_null(strstr(md, "| siconos-admm | 1 | 1 | 100 % |"));
    assert_non_null(strstr(md, " n/a |"));
    assert_null(strstr(md, "bad_input"));
    if (rs.figures)
        check_profile_ends(out);
}

/* 1 if every run id of the campaign appears exactly once in r. */
static int each_run_once(const cb_campaign *c, const cb_results *r)
{
    long n = cb_campaign_nruns(c);
    if (r->nrows != n)
        return 0;
    for (long i = 0; i < n; i++) {
        cb_run_ref ref;
        cb_campaign_run(c, i, &ref);
        int k = 0;
        for (int j = 0; j < r->nrows; j++)
            k += !strcmp(r->rows[j].run_id, ref.id);
        if (k != 1)
            return 0;
    }
    return 1;
}

/* 4 problems × (test-nap, test-wait), 2 jobs: runs (p1, nap) and (p2, nap) end, then both job
 * slots hold a waiting run: exactly 2 rows until go_file exists, on any machine. */
static const char waiting_campaign[] = "generate random kind=coulomb3d nc=3 seeds=1..4\n"
                                       "solver test-nap\nsolver test-wait\ntol 1e-6\n"
                                       "time-limit 1000\n";

static volatile sig_atomic_t stop_flag;
static void on_stop(int sig) { stop_flag = sig; }

static int count_rows(const char *out)
{
    cb_results r;
    read_rows(out, &r);
    int n = r.nrows;
    cb_results_free(&r);
    return n;
}

/* Run the campaign in a child process (SIGINT stops it through settings.stop; it exits 10 +
 * the signal then, 0 when done) and return once runs.csv has `rows` rows. */
static pid_t start_runner(const cb_campaign *c, cb_runner_settings *s, int rows)
{
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, on_stop);
        s->stop = &stop_flag;
        cb_runner_summary sum;
        int rc = cb_run_campaign(c, s, &sum, NULL);
        _exit(rc != CB_OK ? 1 : sum.interrupted ? 10 + sum.interrupted : 0);
    }
    for (long k = 0; k < 300000 && (k == 0 || count_rows(s->outdir) < rows); k++) {
        struct timespec ts = {0, 2 * 1000 * 1000}; /* polling: a hang guard of 600 s */
        nanosleep(&ts, NULL);
    }
    return pid;
}

/* The waiting campaign in a fresh directory, its runner started with 2 jobs into out (DIR/out)
 * and returned once the 2 rows that can be written are in. */
static pid_t start_waiting(cb_campaign **c, cb_runner_settings *s, char *out, size_t len)
{
    const char *dir = cbt_tmpdir();
    *c = campaign(dir, waiting_campaign);
    snprintf(out, len, "%s/out", dir);
    snprintf(go_file, sizeof go_file, "%s/go", dir);
    settings(s, out);
    s->jobs = 2;
    return start_runner(*c, s, 2);
}

/* Let the waiting runs finish, resume, and check every run is recorded once (and the 2 rows
 * kept were skipped), every line of runs.csv complete. */
static void resume_all(const cb_campaign *c, cb_runner_settings *s)
{
    char path[700];
    snprintf(path, sizeof path, "%s/runs.csv", s->outdir);
    FILE *f = fopen(go_file, "w");
    assert_non_null(f);
    fclose(f);
    s->resume = 1;
    s->stop = NULL;
    cb_runner_summary sum;
    assert_int_equal(cb_run_campaign(c, s, &sum, NULL), CB_OK);
    assert_int_equal(sum.skipped, 2);
    cb_results r;
    read_rows(s->outdir, &r);
    assert_true(each_run_once(c, &r));
    cb_results_free(&r);
    f = fopen(path, "r");
    char line[4096];
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        assert_true(n > 0 && line[n - 1] == '\n');
        line[n - 1] = '\0';
        cb_result row;
        assert_true(lines == 0 || cb_result_parse(line, &row) == CB_OK);
        lines++;
    }
    fclose(f);
    assert_int_equal(lines, cb_campaign_nruns(c) + 1);
}

/* kill -9 in the middle of a campaign (2 rows in, 2 runs waiting), a torn row appended, then
 * --resume: every run once, no torn row. */
static void test_kill_then_resume(void **state)
{
    (void)state;
    cb_campaign *c = NULL;
    cb_runner_settings s;
    char out[600], path[700];
    pid_t pid = start_waiting(&c, &s, out, sizeof out);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    assert_int_equal(count_rows(out), 2);
    snprintf(path, sizeof path, "%s/runs.csv", out);
    FILE *f = fopen(path, "a"); /* simulate a row torn by the kill */
    fputs("deadbeefdeadbeef,random-coulomb3d-nc3-mb-s1,abc,coulomb3d,3,test-na", f);
    fclose(f);
    resume_all(c, &s);
    cb_campaign_free(c);
}

/* SIGINT with 2 rows in and 2 runs waiting: the runner kills its children, drops their runs,
 * keeps the 2 rows and reports the signal; --resume finishes the rest. */
static void test_interrupt_then_resume(void **state)
{
    (void)state;
    cb_campaign *c = NULL;
    cb_runner_settings s;
    char out[600];
    pid_t pid = start_waiting(&c, &s, out, sizeof out);
    int status = 0;
    kill(pid, SIGINT);
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 10 + SIGINT);
    cb_results r;
    read_rows(out, &r);
    assert_int_equal(r.nrows, 2);
    for (int i = 0; i < r.nrows; i++) /* the kept rows are the finished naps, none crashed */
        assert_string_equal(r.rows[i].solver, "test-nap");
    cb_results_free(&r);
    resume_all(c, &s);
    cb_campaign_free(c);
}

/* Two shards concatenated give the same set of runs as the unsharded campaign. */
static void test_shards(void **state)
{
    (void)state;
    const char *dir = cbt_tmpdir();
    cb_campaign *c = campaign(dir, "generate random kind=rolling3d nc=4 seeds=1..3\n"
                                   "generate random kind=coulomb3d nc=4 seeds=1..2\n"
                                   "solver nsgs\nsolver psor\ntol 1e-4 1e-8\nrepetitions 2\n");
    char out[3][600];
    cb_results r[3];
    for (int k = 0; k < 3; k++) {
        snprintf(out[k], sizeof out[k], "%s/out%d", dir, k);
        cb_runner_settings s;
        settings(&s, out[k]);
        s.shard_count = k == 2 ? 1 : 2;
        s.shard_index = k == 2 ? 0 : k;
        cb_runner_summary sum;
        assert_int_equal(cb_run_campaign(c, &s, &sum, NULL), CB_OK);
        read_rows(out[k], &r[k]);
    }
    assert_true(r[0].nrows > 0 && r[1].nrows > 0);
    cb_results merged = {0};
    merged.nrows = r[0].nrows + r[1].nrows;
    merged.rows = malloc((size_t)merged.nrows * sizeof *merged.rows);
    memcpy(merged.rows, r[0].rows, (size_t)r[0].nrows * sizeof *merged.rows);
    memcpy(merged.rows + r[0].nrows, r[1].rows, (size_t)r[1].nrows * sizeof *merged.rows);
    assert_true(each_run_once(c, &merged));
    assert_true(each_run_once(c, &r[2]));
    for (int i = 0; i < r[2].nrows; i++) /* same runs, same deterministic outcome */
        for (int j = 0; j < merged.nrows; j++)
            if (!strcmp(r[2].rows[i].run_id, merged.rows[j].run_id)) {
                assert_int_equal(r[2].rows[i].iterations, merged.rows[j].iterations);
                assert_int_equal(r[2].rows[i].status, merged.rows[j].status);
            }
    cb_results_free(&merged);
    for (int k = 0; k < 3; k++)
        cb_results_free(&r[k]);
    cb_campaign_free(c);
}

/* Dolan–Moré profiles on synthetic data: ρ_s(1) sums to ≥ 1 with ties, each ρ_s is
 * non-decreasing, and ends at the solver's success rate. */
static void test_profiles(void **state)
{
    (void)state;
    enum { NP = 200, NS = 4 };
    static double cost[NP * NS], ratio[NP * NS];
    cb_rng r;
    cb_rng_seed(&r, 42);
    int solved[NS] = {0};
    for (int p = 0; p < NP; p++)
        for (int s = 0; s < NS; s++) {
            double u = cb_rng_uniform(&r);
            cost[p * NS + s] = u < 0.15 * s ? INFINITY : (p % 5 == 0 ? 1.0 : exp(6 * u));
            solved[s] += isfinite(cost[p * NS + s]);
        }
    cb_perf_ratios(cost, NP, NS, ratio);
    double at1 = 0;
    int solvable = 0;
    for (int p = 0; p < NP; p++) {
        int any = 0;
        for (int s = 0; s < NS; s++)
            any |= isfinite(cost[p * NS + s]);
        solvable += any;
    }
    for (int s = 0; s < NS; s++) {
        at1 += cb_perf_profile(ratio, NP, NS, s, 1.0);
        double prev = 0;
        for (double tau = 1; tau <= 1e4; tau *= 1.05) {
            double v = cb_perf_profile(ratio, NP, NS, s, tau);
            assert_true(v >= prev);
            prev = v;
        }
        assert_true(fabs(cb_perf_profile(ratio, NP, NS, s, INFINITY) - (double)solved[s] / NP) <
                    1e-15);
    }
    assert_true(at1 * NP >= solvable); /* every solvable problem has a best solver (ties count) */
    assert_true(at1 >= 1.0 - 1e-12 || solvable < NP);
    double x[4] = {0.0, 0.01, 0.1, 1.0}; /* shifted geomean against a hand computation */
    double want = exp((log(0.01) + log(0.02) + log(0.11) + log(1.01)) / 4) - 0.01;
    assert_true(fabs(cb_shifted_geomean(x, 4, 0.01) - want) < 1e-15);
    assert_true(cb_median(x, 4) == 0.055);
}

/* Bad campaign files: FILE:LINE: what. */
/* Step lists with ranges: the expansion is the set {FIRST + k·STRIDE ≤ LAST} ∪ singles, sorted
 * and unique; malformed items are named in the message. */
static void test_steps_parse(void **state)
{
    (void)state;
    long *st = NULL;
    int n = 0;
    cb_error err = {0};
    assert_int_equal(cb_steps_parse("1:50:10,5,5,41", &st, &n, &err), CB_OK);
    static const long want[] = {1, 5, 11, 21, 31, 41};
    assert_int_equal(n, 6);
    assert_memory_equal(st, want, sizeof want);
    free(st);
    assert_int_equal(cb_steps_parse("100:1000:100", &st, &n, &err), CB_OK);
    assert_int_equal(n, 10);
    assert_int_equal(st[9], 1000);
    free(st);
    static const char *bad[] = {"", "0", "1:x", "5:1:1", "1:2", "1:2:3:4", "3,,", "1:1000000:1"};
    static const char *why[] = {"empty", "[1, 1e9]", "[1, 1e9]", "LAST is before FIRST",
                                "FIRST:LAST:STRIDE", "FIRST:LAST:STRIDE", NULL, "more than"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        int rc = cb_steps_parse(bad[k], &st, &n, &err);
        if (!why[k]) { /* "3,,": empty items are skipped by the tokenizer */
            assert_int_equal(rc, CB_OK);
            assert_int_equal(n, 1);
            free(st);
            continue;
        }
        assert_int_not_equal(rc, CB_OK);
        assert_null(st);
        assert_non_null(strstr(err.text, why[k]));
    }
}

/* generate random ... mu=M: every contact of the generated problem has μ = M (the recipe's range
 * is [M, M]); without it the contacts draw different μ. */
static void test_generate_mu(void **state)
{
    (void)state;
    const char *dir = cbt_tmpdir();
    cb_campaign *c = campaign(dir, "generate random kind=coulomb2d nc=6 mu=0.4 seeds=1\n"
                                   "generate random kind=coulomb3d nc=6 seeds=1\nsolver nsgs\n");
    assert_int_equal(c->nproblems, 2);
    for (int i = 0; i < 2; i++) {
        cb_problem *prob = NULL;
        assert_int_equal(cb_generate_random(&c->problems[i].gen, &prob, NULL, NULL, NULL), CB_OK);
        int same = 1;
        for (int a = 0; a < prob->nc; a++)
            same = same && prob->mu[a] == (i == 0 ? 0.4 : prob->mu[0]);
        assert_int_equal(same, i == 0);
        cb_problem_free(prob);
    }
    cb_campaign_free(c);
}

static void test_campaign_errors(void **state)
{
    (void)state;
    const struct {
        const char *text, *want;
    } cases[] = {
        {"solver nsgs\ngenerate random kind=cube nc=3\n", "c.conf:2: kind"},
        {"solver nsgs\ngenerate random kind=rolling3d nc=3\ntol abc\n", "c.conf:3: tol"},
        {"generate random kind=rolling3d nc=3\nsolver nosuch\n",
         "c.conf:2: unknown solver 'nosuch'"},
        {"generate random kind=rolling3d nc=3\nsolver nsgs omgea=1\n", "c.conf:2: option omgea"},
        {"solver psor rho_factor=0\ngenerate random kind=coulomb2d nc=3\n",
         "c.conf:1: option rho_factor"},
        {"solver nsgs\ngenerate random kind=rolling3d nc=3 matrix=spd density=0\n",
         "c.conf:2: density"},
        {"solver nsgs\nscenario sphere-plane R=0 steps=1\n", "c.conf:2: param R"},
        {"solver nsgs\ngenerate random kind=coulomb2d nc=3 mu=-1\n", "c.conf:2: mu"},
        {"solver nsgs\ngenerate random kind=coulomb2d nc=3 mu=11\n", "c.conf:2: mu"},
        {"generate random kind=rolling3d nc=3\n", "no solver"},
        {"solver nsgs\nproblem /nonexistent/*.dat\n", "c.conf:2: no file matches"},
        {"solver nsgs\nfrobnicate 3\n", "c.conf:2: unknown directive"},
    };
    const char *dir = cbt_tmpdir();
    char path[600];
    snprintf(path, sizeof path, "%s/c.conf", dir);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        FILE *f = fopen(path, "w");
        fputs(cases[i].text, f);
        fclose(f);
        cb_campaign *c = NULL;
        cb_error err = {{0}};
        assert_int_equal(cb_campaign_parse(path, dir, &c, &err), CB_ERR_INPUT);
        assert_null(c);
        if (!strstr(err.text, cases[i].want))
            fail_msg("case %zu: '%s' does not contain '%s'", i, err.text, cases[i].want);
    }
}

/* runs.csv rows of sequence runs: a step row and a sequence row read back field for field; a row
 * of the 25-column layout (before the sequence columns) reads as a single problem's; a step that
 * is not a whole number is refused. */
static void test_result_sequence_columns(void **state)
{
    (void)state;
    cb_result step = {0}, back;
    char line[4096];
    snprintf(step.run_id, sizeof step.run_id, "0123456789abcdef");
    snprintf(step.problem, sizeof step.problem, "pile-step40");
    snprintf(step.kind, sizeof step.kind, "rolling3d");
    snprintf(step.sequence, sizeof step.sequence, "pile");
    snprintf(step.warm_start, sizeof step.warm_start, "mapped");
    snprintf(step.sequence_run, sizeof step.sequence_run, "fedcba9876543210");
    step.step = 40, step.steps_unsolved = -1, step.iterations = 7, step.solved = 1;
    step.tol = 1e-6, step.error = step.error_q = step.error_data = 5e-7, step.dist_ref = NAN;
    step.time_s = 0.25, step.time_cpu_s = 0.125;
    int n = cb_result_format(&step, line, sizeof line);
    assert_true(n > 0);
    line[n - 1] = '\0';
    assert_int_equal(cb_result_parse(line, &back), CB_OK);
    assert_true(cb_result_is_step(&back));
    assert_int_equal(back.step, 40);
    assert_int_equal(back.steps_unsolved, -1);
    assert_string_equal(back.sequence_run, step.sequence_run);
    assert_string_equal(back.warm_start, "mapped");
    assert_true(back.time_cpu_s == 0.125 && back.iterations == 7 && back.solved);
    cb_result seq = step; /* its sequence row: no step, the unsolved count */
    seq.step = -1, seq.steps_unsolved = 2, seq.sequence_run[0] = '\0';
    n = cb_result_format(&seq, line, sizeof line);
    line[n - 1] = '\0';
    assert_int_equal(cb_result_parse(line, &back), CB_OK);
    assert_false(cb_result_is_step(&back));
    assert_int_equal(back.steps_unsolved, 2);
    char *cut = line; /* the first 25 fields: the earlier layout */
    for (int k = 0; k < 25 && cut; k++)
        cut = strchr(cut + (k > 0), ',');
    assert_non_null(cut);
    *cut = '\0';
    assert_int_equal(cb_result_parse(line, &back), CB_OK);
    assert_false(cb_result_is_step(&back));
    assert_true(isnan(back.time_cpu_s) && back.sequence[0] == '\0' && back.steps_unsolved == -1);
    n = cb_result_format(&step, line, sizeof line);
    line[n - 1] = '\0';
    char *at = strstr(line, ",pile,40,");
    assert_non_null(at);
    memcpy(at + 6, "4x", 2);
    assert_int_equal(cb_result_parse(line, &back), CB_ERR_INPUT);
}

/* The gap columns (the last seven): an infinite violation ("inf"), a kind without a spin block
 * and no sliding contact (empty: NaN) read back as written; a row of the 31-column layout
 * (before them) reads with every measure unknown; a count that is not a whole number is
 * refused. */
static void test_result_gap_columns(void **state)
{
    (void)state;
    cb_result r = {0}, back;
    char line[4096];
    snprintf(r.run_id, sizeof r.run_id, "0123456789abcdef");
    r.step = r.steps_unsolved = -1;
    r.error = r.error_q = r.error_data = 1e-3, r.dist_ref = NAN, r.time_cpu_s = 0.5;
    r.gap = (cb_gap){INFINITY, 0.25, NAN, 135.0, 67.5, 2, 1};
    int n = cb_result_format(&r, line, sizeof line);
    assert_true(n > 0);
    line[n - 1] = '\0';
    assert_non_null(strstr(line, ",inf,0.25,,135,67.5,2,1"));
    assert_int_equal(cb_result_parse(line, &back), CB_OK);
    assert_true(isinf(back.gap.cone_violation) && back.gap.rolling_violation == 0.25);
    assert_true(isnan(back.gap.spin_violation) && back.gap.angle_max == 135.0);
    assert_true(back.gap.angle_mean == 67.5 && back.gap.sliding == 2);
    assert_int_equal(back.gap.positive_work, 1);
    r.gap = CB_GAP_UNKNOWN;
    n = cb_result_format(&r, line, sizeof line);
    line[n - 1] = '\0';
    assert_non_null(strstr(line, ",,,,,,,"));
    assert_int_equal(cb_result_parse(line, &back), CB_OK);
    assert_true(isnan(back.gap.cone_violation) && back.gap.sliding == -1);
    char *cut = line; /* the first 31 fields: the layout before the gap columns */
    for (int k = 0; k < 31 && cut; k++)
        cut = strchr(cut + (k > 0), ',');
    assert_non_null(cut);
    *cut = '\0';
    assert_int_equal(cb_result_parse(line, &back), CB_OK);
    assert_true(back.time_cpu_s == 0.5 && isnan(back.gap.angle_max));
    assert_int_equal(back.gap.positive_work, -1);
    r.gap = (cb_gap){0.0, NAN, NAN, 10.0, 10.0, 1, 0};
    n = cb_result_format(&r, line, sizeof line);
    line[n - 1] = '\0';
    assert_non_null(strstr(line, ",10,10,1,0"));
    strcpy(strstr(line, ",10,10,1,0") + 9, "0.5"); /* positive_work "0.5" */
    assert_int_equal(cb_result_parse(line, &back), CB_ERR_INPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crash_and_hang), cmocka_unit_test(test_kill_then_resume),
        cmocka_unit_test(test_shards),         cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_generate_mu),
        cmocka_unit_test(test_campaign_errors), cmocka_unit_test(test_steps_parse),
        cmocka_unit_test(test_unsupported_runs), cmocka_unit_test(test_unsupported_report),
        cmocka_unit_test(test_interrupt_then_resume),
        cmocka_unit_test(test_result_sequence_columns),
        cmocka_unit_test(test_result_gap_columns),
    };
    return cmocka_run_group_tests_name("harness", tests, NULL, NULL);
}
