/* conebench — `conebench bench-check` and `conebench compare`: the performance gate. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "conebench/gate.h"
#include "conebench/io.h"
#include "conebench/runner.h"

static const char *use = "usage: conebench bench-check [--baseline DIR] [--campaign NAME] "
                         "[-o DIR] [--write-baseline] [--quiet]";

typedef struct {
    const char *baseline, *campaign, *out;
    int write_baseline, quiet;
} gate_args;

static int parse_gate(int argc, char **argv, gate_args *a)
{
    static const struct option opts[] = {
        {"baseline", required_argument, 0, 'b'}, {"campaign", required_argument, 0, 'c'},
        {"output", required_argument, 0, 'o'},   {"write-baseline", no_argument, 0, 'w'},
        {"quiet", no_argument, 0, 'q'},          {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        if (c == 'b')
            a->baseline = optarg;
        else if (c == 'c')
            a->campaign = optarg;
        else if (c == 'o')
            a->out = optarg;
        else if (c == 'w')
            a->write_baseline = 1;
        else if (c == 'q')
            a->quiet = 1;
        else
            return cb_cli_usage_error("%s", use);
    }
    return optind == argc ? CB_EXIT_OK : cb_cli_usage_error("%s", use);
}

/* Run the campaign in-process and write DIR/bench.csv (and machine.txt). */
static int gate_run(const gate_args *a, const char *dir, cb_bench *cur, cb_error *err)
{
    char conf[4096], gen[4200], path[4200];
    cb_campaign *c = NULL;
    snprintf(gen, sizeof gen, "%s/problems", dir);
    mkdir(dir, 0777);
    mkdir(gen, 0777);
    int rc = cb_campaign_locate(a->campaign, conf, sizeof conf, err);
    if (rc == CB_OK)
        rc = cb_campaign_parse(conf, gen, &c, err);
    cb_bench_settings bs;
    cb_bench_settings_default(&bs);
    bs.outdir = dir;
    bs.progress = !a->quiet;
    if (rc == CB_OK)
        rc = cb_bench_run(c, &bs, cur, err);
    snprintf(path, sizeof path, "%s/bench.csv", dir);
    if (rc == CB_OK)
        rc = cb_bench_write(path, cur, err);
    snprintf(path, sizeof path, "%s/machine.txt", dir);
    if (rc == CB_OK)
        rc = cb_write_machine_info(path, err);
    cb_campaign_free(c);
    return rc;
}

int cb_cmd_bench_check(int argc, char **argv)
{
    gate_args a = {"results/baseline", "ci", "results/bench-check", 0, 0};
    int rc = parse_gate(argc, argv, &a);
    if (rc != CB_EXIT_OK)
        return rc;
    cb_error err = {{0}};
    cb_bench cur = {0}, base = {0};
    char path[4200];
    int code = gate_run(&a, a.write_baseline ? a.baseline : a.out, &cur, &err);
    snprintf(path, sizeof path, "%s/bench.csv", a.baseline);
    if (code == CB_OK && a.write_baseline)
        fprintf(stderr, "conebench: wrote the baseline %s (%d runs, calibration %.3g s)\n", path,
                cur.nrows, cur.calib_s);
    if (code == CB_OK && !a.write_baseline)
        code = cb_bench_read(path, &base, &err);
    cb_gate_summary sum = {0};
    if (code == CB_OK && !a.write_baseline) {
        cb_gate_compare(&base, &cur, stdout, &sum);
        rc = sum.regressions ? CB_EXIT_FAIL : CB_EXIT_OK;
        printf("bench-check: %s\n", sum.regressions ? "FAILED (regressions above)" : "passed");
    }
    cb_bench_free(&cur);
    cb_bench_free(&base);
    return code == CB_OK ? rc : cb_cli_report(code, &err);
}

/* A bench file, a directory with bench.csv, or a results directory with runs.csv. */
static int load_any(const char *what, cb_bench *b, cb_error *err)
{
    char path[4200];
    struct stat st;
    if (stat(what, &st) == 0 && S_ISREG(st.st_mode))
        return cb_bench_read(what, b, err);
    snprintf(path, sizeof path, "%s/bench.csv", what);
    if (stat(path, &st) == 0)
        return cb_bench_read(path, b, err);
    return cb_bench_from_results(what, b, err);
}

int cb_cmd_compare(int argc, char **argv)
{
    if (argc != 3)
        return cb_cli_usage_error("usage: conebench compare BASELINE CURRENT  (bench files, or "
                                  "directories with bench.csv or runs.csv)");
    cb_bench a = {0}, b = {0};
    cb_error err = {{0}};
    int code = load_any(argv[1], &a, &err);
    if (code == CB_OK)
        code = load_any(argv[2], &b, &err);
    cb_gate_summary sum = {0};
    if (code == CB_OK)
        cb_gate_compare(&a, &b, stdout, &sum);
    cb_bench_free(&a);
    cb_bench_free(&b);
    if (code != CB_OK)
        return cb_cli_report(code, &err);
    return sum.regressions ? CB_EXIT_FAIL : CB_EXIT_OK;
}
