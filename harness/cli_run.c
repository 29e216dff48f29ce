/* conebench — `conebench run CAMPAIGN`: run a campaign into a results directory. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/runner.h"

static const char *use =
    "usage: conebench run CAMPAIGN [-o DIR] [--jobs N] [--shard i/N] [--resume] [--quiet]";

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
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"jobs", required_argument, 0, 'j'},
        {"shard", required_argument, 0, 's'},  {"resume", no_argument, 0, 'r'},
        {"quiet", no_argument, 0, 'q'},        {0, 0, 0, 0}};
    int c, rc = CB_EXIT_OK;
    long v;
    optind = 1;
    while (rc == CB_EXIT_OK && (c = getopt_long(argc, argv, "o:j:", opts, NULL)) != -1) {
        if (c == 'o')
            snprintf(outbuf, len, "%s", optarg);
        else if (c == 'j' && (rc = cb_cli_parse_long("--jobs", optarg, 1, 256, &v)) == CB_EXIT_OK)
            rs->jobs = (int)v;
        else if (c == 's')
            rc = parse_shard(optarg, rs);
        else if (c == 'r')
            rs->resume = 1;
        else if (c == 'q')
            rs->progress = 0;
        else if (c == '?')
            rc = cb_cli_usage_error("%s", use);
    }
    if (rc == CB_EXIT_OK && optind != argc - 1)
        rc = cb_cli_usage_error("%s", use);
    return rc;
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
        code = cb_campaign_parse(conf, gen, &c, &err);
    if (code == CB_OK) {
        if (c->data_missing)
            fprintf(stderr, "conebench: note: the Siconos data folder (../shared/data or "
                            "$CONEBENCH_DATA) is absent: its problems are skipped\n");
        rs.outdir = out;
        cb_runner_summary sum;
        code = cb_run_campaign(c, &rs, &sum, &err);
        if (code == CB_OK)
            fprintf(stderr, "conebench: %s: %ld runs (%ld already done), %ld solved, %ld failed, "
                            "%ld crashed, %ld unsupported, %.1f s -> %s/runs.csv\n",
                    c->name, sum.total, sum.skipped, sum.solved, sum.failed, sum.crashed,
                    sum.unsupported, sum.elapsed, out);
    }
    cb_campaign_free(c);
    return code == CB_OK ? CB_EXIT_OK : cb_cli_report(code, &err);
}
