/* conebench — `conebench bench-check` and `conebench compare`: the performance gate. */
#include "commands.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate.h"
#include "conebench/io.h"
#include "runner.h"
#include "base.h"
#include "fileio.h"

static const cb_cli_opt gate_opts[] = {
    {"against", 'a', "REV", "git revision of the baseline binary, built once in a worktree under "
                            "build-baseline/<commit>/ (default: DIR/REVISION)"},
    {"no-time", 'n', NULL, "deterministic figures only"},
    {"campaign", 'c', "NAME", "campaign name or file (default ci)"},
    {"baseline", 'b', "DIR", "stored deterministic figures DIR/bench.csv (default "
                             "results/baseline)"},
    {"output", CB_CLI_SHORT('o'), "DIR", "output directory (default results/bench-check): "
                                         "bench.csv, samples.csv, gate.txt, problems/"},
    {"repetitions", 'r', "R", "rounds per run (default: the campaign's; at most 64)"},
    {"repeat", 'R', "N", "solves inside each process (default 3)"},
    {"threshold", 't', "X", "relative regression threshold on the time ratio (default 0.05)"},
    {"write-baseline", 'w', NULL, "record DIR/bench.csv (one repetition) and DIR/REVISION = HEAD; "
                                  "refused with uncommitted changes unless --force"},
    {"force", 'f', NULL, "with --write-baseline: record even with uncommitted changes"},
    {"counters-only", 'k', NULL, "write the deterministic figures to -o DIR/bench.csv, compare "
                                 "nothing"},
    {"quiet", 'q', NULL, "no progress lines"},
    {"plugin", 'P', "SO", CB_CLI_PLUGIN_HELP},
    {NULL, 0, NULL, NULL}};

typedef struct {
    const char *baseline, *campaign, *out, *against;
    int write_baseline, counters_only, no_time, force, quiet;
    long reps, repeat;
    double threshold;
} gate_args;

static int parse_opt(int c, gate_args *a)
{
    switch (c) {
    case 'b': a->baseline = optarg; return CB_EXIT_OK;
    case 'c': a->campaign = optarg; return CB_EXIT_OK;
    case 'o': a->out = optarg; return CB_EXIT_OK;
    case 'a': a->against = optarg; return CB_EXIT_OK;
    case 'w': a->write_baseline = 1; return CB_EXIT_OK;
    case 'k': a->counters_only = 1; return CB_EXIT_OK;
    case 'n': a->no_time = 1; return CB_EXIT_OK;
    case 'f': a->force = 1; return CB_EXIT_OK;
    case 'q': a->quiet = 1; return CB_EXIT_OK;
    case 'P': return cb_cli_plugin(optarg);
    case 'r': return cb_cli_parse_long("--repetitions", optarg, 1, CB_BENCH_MAX_REPS, &a->reps);
    case 'R': return cb_cli_parse_long("--repeat", optarg, 1, CB_BENCH_MAX_REPEAT, &a->repeat);
    case 't': return cb_cli_parse_double("--threshold", optarg, &a->threshold);
    default: return cb_cli_usage(&cb_command_bench_check);
    }
}

static int parse_gate(int argc, char **argv, gate_args *a)
{
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, gate_opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1)
        rc = parse_opt(c, a);
    if (rc != CB_EXIT_OK)
        return rc;
    if (optind != argc)
        return cb_cli_usage_error("bench-check: unexpected argument '%s'", argv[optind]);
    if (!(a->threshold >= 0 && a->threshold < 10))
        return cb_cli_usage_error("--threshold: must be in [0, 10), got %g", a->threshold);
    if (a->write_baseline + a->counters_only + (a->against != NULL) > 1)
        return cb_cli_usage_error("bench-check: --write-baseline, --counters-only and "
                                  "--against exclude each other");
    return CB_EXIT_OK;
}

/* The revision to compare against: --against, else DIR/REVISION, else none. */
static int against_rev(const gate_args *a, char *rev, size_t len, cb_error *err)
{
    char path[4200], *text = NULL;
    size_t n = 0;
    rev[0] = '\0';
    if (a->against) {
        snprintf(rev, len, "%s", a->against);
        return CB_OK;
    }
    snprintf(path, sizeof path, "%s/REVISION", a->baseline);
    if (a->no_time || access(path, R_OK) != 0)
        return CB_OK;
    int rc = cb_read_file(path, 256, &text, &n, err);
    if (rc == CB_OK)
        snprintf(rev, len, "%.*s", (int)strcspn(text, " \r\n"), text);
    if (rc == CB_OK && !rev[0])
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 1, "empty: expected a git revision");
    free(text);
    return rc;
}

/* The path of this executable (the current binary). */
static int self_path(char *buf, size_t len, cb_error *err)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        return cb_fail(err, CB_ERR_IO, "cannot find this executable (/proc/self/exe)");
    buf[n] = '\0';
    return CB_OK;
}

/* Parse the campaign (its generated problems go to out/problems). */
static int load_campaign(const gate_args *a, const char *out, cb_campaign **c, cb_error *err)
{
    char conf[4096], gen[4200];
    snprintf(gen, sizeof gen, "%s/problems", out);
    int rc = cb_campaign_locate(a->campaign, conf, sizeof conf, err);
    return rc == CB_OK ? cb_campaign_parse(conf, gen, c, err) : rc;
}

/* --write-baseline: one repetition of the current binary into DIR/bench.csv, HEAD into
 * DIR/REVISION. */
static int write_baseline(const gate_args *a, const cb_campaign *c, cb_bench_settings *bs,
                          cb_error *err)
{
    char sha[41], path[4200];
    cb_bench cur = {0};
    int rc = cb_gate_head_revision(a->force, sha, err);
    bs->repetitions = bs->repeat = 1;
    if (rc == CB_OK)
        rc = cb_bench_run(c, bs, &cur, NULL, err);
    snprintf(path, sizeof path, "%s/bench.csv", a->baseline);
    if (rc == CB_OK && mkdir(a->baseline, 0777) != 0 && errno != EEXIST)
        rc = cb_fail_at(err, CB_ERR_IO, a->baseline, 0, "cannot create: %s", strerror(errno));
    if (rc == CB_OK)
        rc = cb_bench_write(path, &cur, err);
    snprintf(path, sizeof path, "%s/REVISION", a->baseline);
    if (rc == CB_OK) {
        char line[64];
        int n = snprintf(line, sizeof line, "%s\n", sha);
        rc = cb_write_file_atomic(path, line, (size_t)n, err);
    }
    if (rc == CB_OK)
        fprintf(stderr, "conebench: wrote the baseline %s/bench.csv (%d runs) and REVISION %.12s;"
                        " commit them\n", a->baseline, cur.nrows, sha);
    cb_bench_free(&cur);
    return rc;
}

/* Warn on stderr when some solver's time was not judged for want of repetitions. */
static void warn_insufficient(const cb_gate_summary *t)
{
    if (t->insufficient)
        fprintf(stderr, "conebench: warning: time not judged for %d solver%s: not enough "
                        "repetitions (%d < %d needed for a 95%% interval); raise repetitions\n",
                t->insufficient, t->insufficient == 1 ? "" : "s", t->fewest, t->needed);
}

/* Warn when the baseline binary does not reproduce the stored figures. */
static void cross_check(const cb_bench *stored, const cb_bench *basebin, const char *rev)
{
    cb_gate_summary s;
    cb_gate_compare(stored, basebin, NULL, &s);
    if (s.regressions + s.improvements > 0)
        printf("warning: the baseline binary (%s) gives %d figures that differ from the stored "
               "baseline: results/baseline is not that revision's (run make bench-baseline)\n",
               rev, s.regressions + s.improvements);
}

/* The gate itself: deterministic figures against the stored baseline, times against REV. */
static int check(const gate_args *a, const cb_campaign *c, cb_bench_settings *bs, int *failed,
                 cb_error *err)
{
    char rev[256], bin[4300], sha[41] = "", path[4200];
    cb_bench cur = {0}, basebin = {0}, stored = {0};
    cb_gate_summary dsum = {0}, tsum = {0};
    int rc = against_rev(a, rev, sizeof rev, err);
    if (rc == CB_OK && rev[0])
        rc = cb_gate_baseline_binary(rev, !a->quiet, bin, sizeof bin, sha, err);
    snprintf(path, sizeof path, "%s/bench.csv", a->baseline);
    if (rc == CB_OK)
        rc = cb_bench_read(path, &stored, err);
    bs->baseline_bin = rev[0] ? bin : NULL;
    bs->baseline_rev = rev[0] ? sha : NULL;
    if (rc == CB_OK)
        rc = cb_bench_run(c, bs, &cur, &basebin, err);
    if (rc == CB_OK) {
        printf("deterministic figures against %s (exact for conebench's solvers; siconos-* by "
               "status only: Siconos runs OpenBLAS inside, its counts are not ours to fix):\n",
               path);
        cb_gate_compare(&stored, &cur, stdout, &dsum);
    }
    if (rc == CB_OK && rev[0]) {
        cb_ab_stats st;
        cb_ab_stats_default(&st);
        st.threshold = a->threshold;
        cross_check(&stored, &basebin, rev);
        printf("\ntime, current/baseline %s (%.12s): least CPU seconds of %d solves a process, %d "
               "rounds interleaved; regression when the whole 95%% interval is above %.3f:\n",
               rev, sha, bs->repeat > 0 ? bs->repeat : CB_BENCH_REPEAT,
               cur.rows ? cur.rows[0].ntimes : 0, 1 + a->threshold);
        rc = cb_gate_times(&basebin, &cur, 1, &st, stdout, &tsum, err);
        warn_insufficient(&tsum);
    } else if (rc == CB_OK) {
        printf("\ntime: not compared (no baseline revision: give --against REV or write "
               "%s/REVISION with make bench-baseline)\n", a->baseline);
    }
    *failed = dsum.regressions + tsum.regressions > 0;
    cb_bench_free(&cur);
    cb_bench_free(&basebin);
    cb_bench_free(&stored);
    return rc;
}

int cb_cmd_bench_check(int argc, char **argv)
{
    gate_args a = {"results/baseline", "ci", "results/bench-check", NULL, 0, 0, 0, 0, 0, 0, 0,
                   CB_AB_THRESHOLD};
    int failed = 0, rc = parse_gate(argc, argv, &a);
    if (rc != CB_EXIT_OK)
        return rc;
    cb_error err = {{0}};
    cb_campaign *c = NULL;
    char self[4096];
    cb_bench_settings bs;
    cb_bench_settings_default(&bs);
    bs.current_bin = self;
    bs.outdir = a.out;
    bs.progress = !a.quiet;
    bs.repetitions = (int)a.reps;
    bs.repeat = (int)a.repeat;
    int code = self_path(self, sizeof self, &err);
    if (code == CB_OK)
        code = load_campaign(&a, a.out, &c, &err);
    if (code == CB_OK && a.write_baseline) {
        code = write_baseline(&a, c, &bs, &err);
    } else if (code == CB_OK && a.counters_only) {
        cb_bench cur = {0};
        bs.repetitions = bs.repeat = 1;
        code = cb_bench_run(c, &bs, &cur, NULL, &err);
        cb_bench_free(&cur);
    } else if (code == CB_OK) {
        code = check(&a, c, &bs, &failed, &err);
        if (code == CB_OK)
            printf("bench-check: %s\n", failed ? "FAILED (regressions above)" : "passed");
    }
    cb_campaign_free(c);
    if (code != CB_OK)
        return cb_cli_report(code, &err);
    return failed ? CB_EXIT_FAIL : CB_EXIT_OK;
}

/* Same units and the same campaign file, or CB_ERR_INPUT saying why not. */
static int comparable(const char *pa, const cb_bench *a, const char *pb, const cb_bench *b,
                      cb_error *err)
{
    if (strcmp(a->time_unit, b->time_unit) != 0)
        return cb_fail(err, CB_ERR_INPUT, "%s holds %s (%s) and %s holds %s (%s): different units,"
                       " not comparable", pa, a->time_unit,
                       strcmp(a->time_unit, "cpu_s") ? "a run directory's wall seconds"
                                                      : "a bench-check directory's CPU seconds",
                       pb, b->time_unit,
                       strcmp(b->time_unit, "cpu_s") ? "a run directory's wall seconds"
                                                      : "a bench-check directory's CPU seconds");
    if (!a->campaign_sha256[0] || !b->campaign_sha256[0])
        return cb_fail(err, CB_ERR_INPUT, "%s: no campaign.conf: cannot tell which campaign it "
                       "ran", a->campaign_sha256[0] ? pb : pa);
    if (strcmp(a->campaign_sha256, b->campaign_sha256) != 0)
        return cb_fail(err, CB_ERR_INPUT, "%s and %s ran different campaigns (campaign.conf "
                       "sha256 %.12s vs %.12s)", pa, pb, a->campaign_sha256, b->campaign_sha256);
    return CB_OK;
}

/* A run directory's rows against its campaign: refused when a run id is twice or foreign;
 * "DIR: incomplete: N of M runs" when runs are missing. */
static int check_runs(const char *dir, cb_error *err)
{
    char path[4200];
    struct stat st;
    cb_results_tally t;
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    if (stat(path, &st) != 0)
        return CB_OK; /* a bench-check directory */
    int code = cb_results_dir_count(dir, NULL, &t, err);
    if (code == CB_OK && t.rows < t.expected)
        printf("%s: incomplete: %ld of %ld runs (the runs it lacks are listed as missing below)\n", dir,
               t.rows, t.expected);
    return code;
}

int cb_cmd_compare(int argc, char **argv)
{
    if (argc != 3)
        return cb_cli_usage(&cb_command_compare);
    cb_bench a = {0}, b = {0};
    cb_error err = {{0}};
    cb_gate_summary dsum = {0}, tsum = {0};
    int code = cb_bench_from_dir(argv[1], &a, &err);
    if (code == CB_OK)
        code = cb_bench_from_dir(argv[2], &b, &err);
    if (code == CB_OK)
        code = comparable(argv[1], &a, argv[2], &b, &err);
    if (code == CB_OK)
        code = check_runs(argv[1], &err);
    if (code == CB_OK)
        code = check_runs(argv[2], &err);
    if (code == CB_OK) {
        cb_ab_stats st;
        cb_ab_stats_default(&st);
        printf("deterministic figures, %s against %s:\n", argv[2], argv[1]);
        cb_gate_compare(&a, &b, stdout, &dsum);
        printf("\ntime, %s / %s (%s, repetitions paired by index, not interleaved); regression "
               "when the whole 95%% interval is above %.3f:\n",
               argv[2], argv[1], strcmp(a.time_unit, "cpu_s") ? "wall seconds" : "CPU seconds",
               1 + st.threshold);
        code = cb_gate_times(&a, &b, 0, &st, stdout, &tsum, &err);
        warn_insufficient(&tsum);
    }
    cb_bench_free(&a);
    cb_bench_free(&b);
    if (code != CB_OK)
        return cb_cli_report(code, &err);
    return dsum.regressions + tsum.regressions ? CB_EXIT_FAIL : CB_EXIT_OK;
}

static const cb_cli_form gate_forms[] = {
    {"bench-check [--against REV | --no-time] [options]\n"
     "bench-check --write-baseline [--baseline DIR] [--campaign NAME] [--force]\n"
     "bench-check --counters-only -o DIR [--campaign NAME]",
     gate_opts},
    {NULL, NULL}};

const cb_cli_command cb_command_bench_check = {
    "bench-check", cb_cmd_bench_check,
    "the performance gate: figures exact against the baseline, time against its binary",
    gate_forms,
    "Runs every (problem, solver, tol) of the campaign (default: ci) in child `solve`\n"
    "processes and\n"
    "  - compares the deterministic figures (status, iterations, work counters, judged error)\n"
    "    with DIR/bench.csv (default results/baseline) exactly; Siconos adapters by status only\n"
    "    (Siconos runs OpenBLAS inside: its iteration counts are not under our control);\n"
    "  - times the baseline revision's binary and this one interleaved (A B B A ...: R rounds\n"
    "    of every run, one `solve --repeat N` process of each binary a round, whose least CPU\n"
    "    time over its N solves is the round's sample): per solver the CPU-time ratio\n"
    "    current/baseline with a 95 % bootstrap interval; a regression only when the whole\n"
    "    interval lies above 1 + X (default X = 0.05); below 7 rounds no time verdict\n"
    "    (\"not enough repetitions\", a warning, exit 0). Counters of runs stopped from\n"
    "    outside (time limit, crash) are not compared, only their status.\n"
    "Output files (bench.csv, samples.csv, gate.txt): man conebench, RESULTS FILES.",
    "make bench-check   (= conebench bench-check, against results/baseline/REVISION)",
    "0 passed, 1 a regression (or a failure), 2 bad input"};

static const cb_cli_form compare_forms[] = {{"compare A B", NULL}, {NULL, NULL}};

const cb_cli_command cb_command_compare = {
    "compare", cb_cmd_compare, "compare two results directories of the same campaign",
    compare_forms,
    "Compares two results directories of the same campaign file: two `run` directories\n"
    "(runs.csv: wall seconds of every repetition) or two `bench-check` directories (CPU\n"
    "seconds of the current binary). Deterministic figures as bench-check does; time per\n"
    "solver as B/A with a 95 % bootstrap interval over runs and repetitions (regression when\n"
    "the whole interval lies above 1.05); with fewer than 7 repetitions a run, \"not enough\n"
    "repetitions\" instead of a verdict, a warning on stderr, exit 0. A and B were measured at different times: the\n"
    "interval includes the machine's drift between them (bench-check --against interleaves).\n"
    "Refused (exit 2) when the two hold different units or different campaigns.",
    "conebench compare results/before results/after",
    "0 no regression, 1 a regression, 2 bad input"};
