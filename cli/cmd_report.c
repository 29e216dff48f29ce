/* conebench — `conebench report DIR`. */
#include "commands.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>

#include "conebench/report.h"

int cb_cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {{"no-figures", no_argument, 0, 'n'},
                                         {"max-convergence", required_argument, 0, 'm'},
                                         {0, 0, 0, 0}};
    static const char *use = "usage: conebench report DIR [--no-figures] [--max-convergence N]";
    cb_report_settings s;
    cb_report_settings_default(&s);
    int c, rc = CB_EXIT_OK;
    long v;
    optind = 1;
    while (rc == CB_EXIT_OK && (c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'n')
            s.figures = 0;
        else if (c == 'm' &&
                 (rc = cb_cli_parse_long("--max-convergence", optarg, 0, 100000, &v)) == 0)
            s.max_convergence = (int)v;
        else if (c == '?')
            rc = cb_cli_usage_error("%s", use);
    }
    if (rc != CB_EXIT_OK)
        return rc;
    if (optind != argc - 1)
        return cb_cli_usage_error("%s", use);
    s.dir = argv[optind];
    cb_error err = {{0}};
    int code = cb_report(&s, &err);
    if (code != CB_OK)
        return cb_cli_report(code, &err);
    fprintf(stderr, "conebench: wrote %s/report.md\n", s.dir);
    return CB_EXIT_OK;
}
