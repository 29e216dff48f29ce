/* conebench — `conebench status DIR...`: how far the shards of a campaign are. */
#include "commands.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "campaign.h"
#include "shards.h"

static const cb_cli_opt opts[] = {
    {"campaign", CB_CLI_SHORT('c'), "CAMPAIGN", "the campaign the directories run (name or file; "
                                                "default: their campaign.conf)"},
    {"now", 'n', "EPOCH", "the time to take the ETA at, seconds since 1970 (default: now)"},
    {NULL, 0, NULL, NULL}};

/* "1 h 05 min", "3 min 20 s", "12 s", "unknown". */
static void duration(double s, char *buf, size_t len)
{
    long t = isfinite(s) ? lround(s) : -1;
    if (t < 0)
        snprintf(buf, len, "unknown");
    else if (t >= 3600)
        snprintf(buf, len, "%ld h %02ld min", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
    else
        snprintf(buf, len, "%ld s", t);
}

/* "failed F (status n, ...)": the runs not solved, by stop reason (unsupported apart). */
static void failures(const long *by, FILE *f)
{
    long n = 0;
    for (int k = 0; k < CB_STATUS_COUNT; k++)
        n += k != CB_STATUS_UNSUPPORTED ? by[k] : 0;
    fprintf(f, "failed %ld", n);
    const char *sep = " (";
    for (int k = 0; k < CB_STATUS_COUNT; k++)
        if (k != CB_STATUS_UNSUPPORTED && by[k]) {
            fprintf(f, "%s%s %ld", sep, cb_status_name((cb_status)k), by[k]);
            sep = ", ";
        }
    fprintf(f, "%s", n ? ")" : "");
}

/* "N/M runs done" when every run is in, else "incomplete: N of M runs"; then tail. */
static void runs_done(long done, long total, const char *tail)
{
    if (done >= total)
        printf("%ld/%ld runs done%s", done, total, tail);
    else
        printf("incomplete: %ld of %ld runs%s", done, total, tail);
}

/* One shard's line; adds it to the overall figures in all. */
static void shard_line(const char *dir, const cb_shard_status *st, cb_shard_status *all)
{
    char eta[64];
    if (!st->started) {
        printf("%s: starting (no record yet)\n", dir);
        all->eta = NAN;
        return;
    }
    duration(st->eta, eta, sizeof eta);
    printf("%s: shard %d/%d: ", dir, st->index, st->count);
    runs_done(st->done, st->total, ", ");
    failures(st->by_status, stdout);
    printf(", %s\n", st->done >= st->total ? "finished" : eta);
    all->done += st->done;
    all->total += st->total;
    all->count = st->count;
    all->campaign_runs = st->campaign_runs;
    all->index++; /* shards seen */
    for (int k = 0; k < CB_STATUS_COUNT; k++)
        all->by_status[k] += st->by_status[k];
    all->eta = isnan(all->eta) || isnan(st->eta) ? NAN : fmax(all->eta, st->eta);
}

static void overall(const cb_shard_status *all)
{
    char eta[64];
    if (all->index == 0) {
        printf("overall: no shard has started yet\n");
        return;
    }
    long total = all->index == all->count ? all->total : all->campaign_runs;
    duration(all->index == all->count ? all->eta : NAN, eta, sizeof eta);
    char tail[128];
    snprintf(tail, sizeof tail, " (%.1f%%) in %d of %d shards, ",
             total ? 100.0 * (double)all->done / (double)total : 100.0, all->index, all->count);
    printf("overall: ");
    runs_done(all->done, total, tail);
    failures(all->by_status, stdout);
    printf(", %s\n", all->done >= total ? "finished" : eta);
}

int cb_cmd_status(int argc, char **argv)
{
    cb_cli_parser p;
    char conf[4096];
    const char *campaign = NULL;
    double now = (double)time(NULL);
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1) {
        if (c == 'c')
            campaign = optarg;
        else if (c == 'n')
            rc = cb_cli_parse_double("--now", optarg, &now);
        else if (c == '?')
            rc = cb_cli_usage(&cb_command_status);
    }
    if (rc == CB_EXIT_OK && argc - optind < 1)
        rc = cb_cli_usage(&cb_command_status);
    cb_error err = {{0}};
    int code = rc == CB_EXIT_OK && campaign ? cb_campaign_locate(campaign, conf, sizeof conf, &err)
                                            : CB_OK;
    int n = argc - optind;
    cb_shard_status *st = rc == CB_EXIT_OK && code == CB_OK ? calloc((size_t)n, sizeof *st) : NULL;
    if (rc == CB_EXIT_OK && code == CB_OK && !st)
        code = cb_fail(&err, CB_ERR_NOMEM, "out of memory");
    for (int k = 0; st && code == CB_OK && k < n; k++) /* every directory read before printing */
        code = cb_shard_status_read(argv[optind + k], campaign ? conf : NULL, now, &st[k], &err);
    cb_shard_status all = {0};
    for (int k = 0; st && code == CB_OK && k < n; k++)
        shard_line(argv[optind + k], &st[k], &all);
    if (st && code == CB_OK)
        overall(&all);
    free(st);
    return rc != CB_EXIT_OK ? rc : code != CB_OK ? cb_cli_report(code, &err) : CB_EXIT_OK;
}

static const cb_cli_form forms[] = {{"status DIR... [options]", opts}, {NULL, NULL}};

const cb_cli_command cb_command_status = {
    "status", cb_cmd_status, "progress of a campaign's shard directories, running or done", forms,
    "For each results directory of `run` (a shard, or a whole campaign): runs done / total,\n"
    "failures so far by status, and an ETA at the rate of its current session (rows since the\n"
    "run or --resume started, session.txt); then the overall figures (the ETA of the slowest\n"
    "shard; unknown while a shard has not started or has no row yet in its session). A\n"
    "directory without a record yet is 'starting'. Works while runs.csv grows.",
    "conebench status results/ci-shard-*-of-4",
    "0 shown, 1 failure, 2 bad input (a directory that does not exist or is not a results "
    "directory)"};
