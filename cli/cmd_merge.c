/* conebench — `conebench merge OUT SHARD_DIR...`: the shards of one campaign into one results
 * directory. */
#include "commands.h"
#include "util.h"

#include <stdio.h>

#include "campaign.h"
#include "shards.h"

static const cb_cli_opt opts[] = {
    {"force", 'f', NULL, "merge although campaigns, limits or conebench versions or "
                         "revisions differ (default: refuse)"},
    {"allow-missing", 'a', NULL, "write OUT although runs are missing (default: refuse, exit 1)"},
    {"campaign", CB_CLI_SHORT('c'), "CAMPAIGN", "take the runs from this campaign (name or file; "
                                                "its text must be the shards' campaign.conf; "
                                                "default: the recorded campaign.conf)"},
    {NULL, 0, NULL, NULL}};

int cb_cmd_merge(int argc, char **argv)
{
    cb_merge_settings s;
    cb_merge_settings_default(&s);
    cb_cli_parser p;
    char conf[4096];
    const char *campaign = NULL;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1) {
        if (c == 'f' || c == 'a')
            *(c == 'f' ? &s.force : &s.allow_missing) = 1;
        else if (c == 'c')
            campaign = optarg;
        else if (c == '?')
            rc = cb_cli_usage(&cb_command_merge);
    }
    if (rc == CB_EXIT_OK && argc - optind < 2)
        rc = cb_cli_usage(&cb_command_merge);
    cb_error err = {{0}};
    int code = rc == CB_EXIT_OK && campaign ? cb_campaign_locate(campaign, conf, sizeof conf, &err)
                                            : CB_OK;
    s.campaign = campaign ? conf : NULL;
    cb_merge_summary sum;
    if (rc == CB_EXIT_OK && code == CB_OK)
        code = cb_merge(argv[optind], (const char *const *)argv + optind + 1, argc - optind - 1,
                        &s, &sum, &err);
    if (rc != CB_EXIT_OK || code != CB_OK)
        return rc != CB_EXIT_OK ? rc : cb_cli_report(code, &err);
    if (!sum.written)
        return cb_cli_fail("%ld of %ld runs missing (listed above): nothing written "
                           "(--allow-missing merges the rows there are)", sum.missing, sum.total);
    fprintf(stderr, "conebench: merged %d shards: %ld of %ld runs%s -> %s (conebench report %s)\n",
            sum.nshards, sum.rows, sum.total, sum.missing ? " (the others are missing)" : "",
            argv[optind], argv[optind]);
    return CB_EXIT_OK;
}

static const cb_cli_form forms[] = {{"merge OUT SHARD_DIR... [options]", opts}, {NULL, NULL}};

const cb_cli_command cb_command_merge = {
    "merge", cb_cmd_merge, "merge the shard directories of one campaign (run --shard) into one",
    forms,
    "Checks that every SHARD_DIR ran the same campaign (campaign.conf, campaign_sha256) with the\n"
    "same limits, shard count, conebench version and git revision, that no shard index and no\n"
    "run appears twice, and lists the runs of the campaign that no shard has. Writes OUT (which must not\n"
    "exist, or be empty) at once: runs.csv in the campaign's run order, traces/, errors.log\n"
    "(concatenated), machine.txt (every shard's, under '# shard i/N: DIR'), limits.txt and\n"
    "campaign.conf of the unsharded campaign; `conebench report OUT` works on it. Run it from\n"
    "the directory `run` ran in (problem globs are relative to it).",
    "conebench merge results/ci results/ci-shard-*-of-4",
    "0 merged, 1 runs missing (nothing written) or failure, 2 bad input: shards that differ,\n"
    "duplicate runs, OUT not empty"};
