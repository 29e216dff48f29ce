/* conebench — `conebench filippov map|check -o DIR [--quick] [--plots DIR]`: the two
 * extended-Filippov studies (src/studies/filippov_study.h), parsed and printed here. map writes
 * the wheel's region maps, phase portraits, their figures and DIR/filippov.md; check writes
 * DIR/filippov_check_wheel.dat, its figure and DIR/filippov_check.md, and exits 0 when both
 * checks agree on ≥ 99 % of the states away from the boundary for both bodies, else 1. */
#include "commands.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

#include "campaign.h"
#include "filippov_study.h"

const cb_cli_opt cb_filippov_files_opts[] = {
    {"output", CB_CLI_SHORT('o'), "DIR", "output folder (created); required"},
    {"plots", 'P', "DIR", "the gnuplot scripts (default: plots/ of the share folder, "
                          "$CONEBENCH_HOME)"},
    {"quick", 'q', NULL, "coarser grids, fewer states (a smoke test)"},
    {NULL, 0, NULL, NULL}};

typedef struct {
    const char *outdir;
    char plots[4096];
    int quick;
} files_args;

/* Exit status. argv[0] is the subcommand (map, check); plots defaults to cb_home_dir()/plots;
 * the folders are checked (and DIR created) by cb_fil_study_dirs with script. */
static int parse_args(int argc, char **argv, const char *script, files_args *a)
{
    const char *plots = NULL;
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    memset(a, 0, sizeof *a);
    cb_cli_parser_init(&p, cb_filippov_files_opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1) {
        if (c == 'o')
            a->outdir = optarg;
        else if (c == 'P')
            plots = optarg;
        else if (c == 'q')
            a->quick = 1;
        else
            rc = cb_cli_usage_of("filippov", CB_USAGE_FILIPPOV_FILES);
    }
    if (rc == CB_EXIT_OK && optind != argc)
        rc = cb_cli_usage_error("filippov %s: unexpected argument '%s'", argv[0], argv[optind]);
    if (rc == CB_EXIT_OK && !a->outdir)
        rc = cb_cli_usage_error("filippov %s: -o DIR is required", argv[0]);
    snprintf(a->plots, sizeof a->plots, "%s", plots ? plots : "");
    if (!plots)
        snprintf(a->plots, sizeof a->plots, "%s/plots", cb_home_dir());
    cb_error err = {{0}};
    int st = rc == CB_EXIT_OK ? cb_fil_study_dirs(a->outdir, a->plots, script, &err) : CB_OK;
    return st == CB_OK ? rc : cb_cli_report(st, &err);
}

int cb_cmd_filippov_map(int argc, char **argv)
{
    files_args a;
    cb_fil_map m;
    cb_error err = {{0}};
    int rc = parse_args(argc, argv, "filippov_regions.gp", &a);
    if (rc != CB_EXIT_OK)
        return rc;
    int st = cb_fil_map_run(a.quick, &m, &err);
    if (st == CB_OK)
        st = cb_fil_map_write(&m, a.outdir, a.plots, &err);
    if (st == CB_OK)
        printf("conebench: wrote %s/filippov.md (regions: %ld of %ld cells away from the "
               "boundaries agree with eq. 69-70)\n", a.outdir, m.stats.agree, m.stats.away);
    cb_fil_map_free(&m);
    return st == CB_OK ? CB_EXIT_OK : cb_cli_report(st, &err);
}

static void print_summary(const char *what, const cb_fc_tally *t)
{
    printf("%s: %ld states, %ld away from the boundary; CCP agree %ld/%ld (away %ld/%ld, "
           "%.2f %%), compliant agree %ld/%ld (away %ld/%ld, %.2f %%)\n", what, t->n, t->n_away,
           t->agree_ccp, t->n, t->agree_ccp_away, t->n_away,
           t->n_away > 0 ? 100.0 * (double)t->agree_ccp_away / (double)t->n_away : 0.0,
           t->agree_comp, t->n, t->agree_comp_away, t->n_away,
           t->n_away > 0 ? 100.0 * (double)t->agree_comp_away / (double)t->n_away : 0.0);
}

int cb_cmd_filippov_check(int argc, char **argv)
{
    files_args a;
    cb_fil_agree ag;
    cb_error err = {{0}};
    int rc = parse_args(argc, argv, "filippov_check.gp", &a);
    if (rc != CB_EXIT_OK)
        return rc;
    int st = cb_fil_agree_run(a.quick, &ag, &err);
    if (st == CB_OK)
        st = cb_fil_agree_write(&ag, a.outdir, a.plots, &err);
    if (st == CB_OK) {
        print_summary("wheel", &ag.wheel);
        print_summary("sphere", &ag.sphere);
        printf("conebench: wrote %s/filippov_check.md\n", a.outdir);
    }
    rc = st != CB_OK ? cb_cli_report(st, &err) : ag.pass ? CB_EXIT_OK : CB_EXIT_FAIL;
    if (st == CB_OK && !ag.pass)
        fprintf(stderr, "conebench: filippov check: agreement away from the boundary is below "
                        "%.0f %% (see %s/filippov_check.md)\n", 100 * CB_FIL_AGREE_PASS,
                a.outdir);
    cb_fil_agree_free(&ag);
    return rc;
}
