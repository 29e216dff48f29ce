/* conebench — `conebench run CAMPAIGN`: run a campaign into a results directory. */
#define _GNU_SOURCE /* program_invocation_name: the command as the user typed it */
#include "commands.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/plugin.h"
#include "runner.h"

#define CMD_LEN 8192 /* the --resume command printed after an interruption */

static const cb_cli_opt opts[] = {
    {"output", CB_CLI_SHORT('o'), "DIR", "results directory (default results/NAME, "
                                         "results/NAME-shard-i-of-N with --shard)"},
    {"jobs", CB_CLI_SHORT('j'), "N", "runs at a time, each in its own process (1..256; default 1)"},
    {"shard", 's', "i/N", "run only the i-th of N interleaved parts (0 <= i < N; default all)"},
    {"resume", 'r', NULL, "continue DIR: skip finished runs (refused for another campaign or other "
                          "limits)"},
    {"force", 'f', NULL, "with --resume: continue even when the campaign or limits differ"},
    {"quiet", 'q', NULL, "no progress line"},
    {"solutions", 'S', NULL, "also write DIR/solutions/RUN_ID.sol.gz, the final iterate of every run "
                             "(gzip-compressed; conebench error re-judges it)"},
    {"plugin", 'P', "SO", CB_CLI_PLUGIN_HELP},
    {NULL, 0, NULL, NULL}};

static volatile sig_atomic_t interrupted; /* the signal received (SIGINT, SIGTERM), or 0 */

/* First signal: ask the runner to stop (SA_RESETHAND: a second one kills at once). */
static void on_signal(int sig) { interrupted = sig; }

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static int parse_shard(const char *s, cb_runner_settings *rs)
{
    int i, n, used = 0;
    if (sscanf(s, "%d/%d%n", &i, &n, &used) != 2 || s[used] != '\0' || n < 1 || i < 0 || i >= n)
        return cb_cli_usage_error("--shard: want i/N with 0 ≤ i < N, got '%s'", s);
    rs->shard_index = i;
    rs->shard_count = n;
    return CB_EXIT_OK;
}

static int parse_run(int argc, char **argv, cb_runner_settings *rs, char *outbuf, size_t len)
{
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    long v;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1) {
        if (c == 'o')
            snprintf(outbuf, len, "%s", optarg);
        else if (c == 'j' && (rc = cb_cli_parse_long("--jobs", optarg, 1, 256, &v)) == CB_EXIT_OK)
            rs->jobs = (int)v;
        else if (c == 's')
            rc = parse_shard(optarg, rs);
        else if (c == 'r' || c == 'f')
            *(c == 'r' ? &rs->resume : &rs->force) = 1;
        else if (c == 'q')
            rs->progress = 0;
        else if (c == 'S')
            rs->solutions = 1;
        else if (c == 'P')
            rc = cb_cli_plugin(optarg);
        else if (c == '?')
            rc = cb_cli_usage(&cb_command_run);
    }
    if (rc == CB_EXIT_OK && optind != argc - 1)
        rc = cb_cli_usage(&cb_command_run);
    if (rc == CB_EXIT_OK && rs->force && !rs->resume)
        rc = cb_cli_usage_error("--force goes with --resume");
    return rc;
}

/* Append word to the command in buf (length k), single-quoted when the shell would split or
 * expand it; returns the new length. */
static size_t shell_word(char *buf, size_t k, const char *word)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                               "-_./=:,+@%";
    char q[CMD_LEN];
    size_t n = 0;
    int plain = *word && strspn(word, safe) == strlen(word);
    if (!plain)
        q[n++] = '\'';
    for (const char *c = word; *c && n < sizeof q - 6; c++) {
        if (*c == '\'' && !plain)
            n += (size_t)snprintf(q + n, sizeof q - n, "'\\''"); /* close, \', reopen */
        else
            q[n++] = *c;
    }
    if (!plain)
        q[n++] = '\'';
    q[n] = '\0';
    int w = k < CMD_LEN ? snprintf(buf + k, CMD_LEN - k, "%s%s", k ? " " : "", q) : 0;
    return k + (w > 0 ? (size_t)w : 0);
}

/* The command that continues this run: same campaign, directory, jobs, shard, quietness. */
static void resume_command(const char *campaign, const char *out, const cb_runner_settings *rs,
                           char *buf)
{
    char num[64];
    const char *words[] = {program_invocation_name, "run", campaign, "-o", out, "--resume"};
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        k = shell_word(buf, k, words[i]);
    snprintf(num, sizeof num, "%d", rs->jobs);
    if (rs->jobs != 1)
        k = shell_word(buf, shell_word(buf, k, "--jobs"), num);
    snprintf(num, sizeof num, "%d/%d", rs->shard_index, rs->shard_count);
    if (rs->shard_count > 1)
        k = shell_word(buf, shell_word(buf, k, "--shard"), num);
    if (!rs->progress)
        k = shell_word(buf, k, "--quiet");
    for (int i = 0; i < cb_plugin_count(); i++)
        k = shell_word(buf, shell_word(buf, k, "--plugin"), cb_plugin_path(i));
}

/* Run the parsed campaign; the summary line, or what an interruption kept. */
static int run_parsed(const cb_campaign *c, cb_runner_settings *rs, const char *arg,
                      const char *out, cb_error *err)
{
    cb_runner_summary sum;
    rs->outdir = out;
    rs->stop = &interrupted;
    catch_signals();
    int code = cb_run_campaign(c, rs, &sum, err);
    if (code == CB_OK && sum.interrupted) {
        char cmd[CMD_LEN];
        resume_command(arg, out, rs, cmd);
        fprintf(stderr, "conebench: interrupted by %s: %ld of %ld runs kept in %s/runs.csv (runs "
                        "in progress were dropped); continue with:\n  %s\n",
                sum.interrupted == SIGINT ? "SIGINT" : "SIGTERM", sum.skipped + sum.done,
                sum.total, out, cmd);
        return 128 + sum.interrupted;
    }
    if (code == CB_OK)
        fprintf(stderr, "conebench: %s: %ld runs (%ld already done), %ld solved, %ld failed, "
                        "%ld crashed, %ld unsupported, %.1f s -> %s/runs.csv\n",
                c->name, sum.total, sum.skipped, sum.solved, sum.failed, sum.crashed,
                sum.unsupported, sum.elapsed, out);
    return code == CB_OK ? CB_EXIT_OK : cb_cli_report(code, err);
}

/* The files skip-unreadable left out, one line each with the reason, on stderr. */
static void note_skipped(const cb_campaign *c, const char *out)
{
    fprintf(stderr, "conebench: note: %d problem file%s did not read and %s skipped "
                    "(skip-unreadable; listed in %s/skipped.txt and the report):\n", c->nskipped,
            c->nskipped > 1 ? "s" : "", c->nskipped > 1 ? "are" : "is", out);
    for (const char *l = c->skipped; l && *l;) {
        const char *nl = strchr(l, '\n'), *tab = strchr(l, '\t');
        int n = (int)(nl ? nl - l : (long)strlen(l));
        if (tab && tab < l + n)
            fprintf(stderr, "conebench:   %.*s: %.*s\n", (int)(tab - l), l, (int)(l + n - tab - 1),
                    tab + 1);
        l = nl ? nl + 1 : l + n;
    }
}

int cb_cmd_run(int argc, char **argv)
{
    cb_runner_settings rs;
    cb_runner_settings_default(&rs);
    char out[4096] = "", conf[4096], gen[4200];
    int rc = parse_run(argc, argv, &rs, out, sizeof out);
    if (rc != CB_EXIT_OK)
        return rc;
    cb_error err = {{0}};
    cb_campaign *c = NULL;
    int code = cb_campaign_locate(argv[optind], conf, sizeof conf, &err);
    if (code == CB_OK && !out[0]) {
        /* default output: results/<campaign name>[-shard-i-of-N] */
        const char *b = strrchr(argv[optind], '/');
        snprintf(out, sizeof out, "results/%s", b ? b + 1 : argv[optind]);
        char *dot = strstr(out, ".conf");
        if (dot)
            *dot = '\0';
        if (rs.shard_count > 1)
            snprintf(out + strlen(out), sizeof out - strlen(out), "-shard-%d-of-%d",
                     rs.shard_index, rs.shard_count);
    }
    snprintf(gen, sizeof gen, "%s/problems", out);
    if (code == CB_OK)
        code = cb_campaign_parse_with(conf, gen, cb_solver_find, &c, &err);
    if (code == CB_OK && c->data_missing)
        fprintf(stderr, "conebench: note: the Siconos data folder (../shared/data or "
                        "$CONEBENCH_DATA) is absent: its problems are skipped\n");
    if (code == CB_OK && c->sequences_missing)
        fprintf(stderr, "conebench: note: sequence folder %s is absent: skipped (%d sequence "
                        "line%s; scenes/ folders are made by `make scenes`)\n",
                c->missing_sequence, c->sequences_missing, c->sequences_missing > 1 ? "s" : "");
    if (code == CB_OK && c->nskipped)
        note_skipped(c, out);
    rc = code == CB_OK ? run_parsed(c, &rs, argv[optind], out, &err) : cb_cli_report(code, &err);
    cb_campaign_free(c);
    return rc;
}

static const cb_cli_form forms[] = {{"run CAMPAIGN [options]", opts}, {NULL, NULL}};

const cb_cli_command cb_command_run = {
    "run", cb_cmd_run, "run a campaign: every (problem, solver, tolerance) in its own process",
    forms,
    "CAMPAIGN is a name (campaigns/NAME.conf of the share folder: conebench list campaigns) or a\n"
    "file. Generated problems go to DIR/problems/; each run is a child process with the\n"
    "campaign's time limit (a crash is recorded as crashed, the campaign goes on); one row a\n"
    "run is appended to DIR/runs.csv (columns: man conebench, RESULTS FILES). A non-empty DIR\n"
    "is refused unless --resume. Ctrl-C or SIGTERM keeps the finished rows and prints the\n"
    "command that continues.",
    "conebench run default -o results/default --jobs 2 --resume",
    "0 the campaign ran (failed runs are results), 1 failure (a write that failed, DIR in use by "
    "another process), 2 bad input, 130/143 interrupted"};
