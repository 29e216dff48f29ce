/* conebench — `conebench reproduce -o DIR`: every number and figure of Fang & Negrut that the
 * compliant models reproduce, next to the nonsmooth Moreau–Jean model and the closed forms
 * (the study: src/studies/reproduce*.c), written to DIR/report.md (figures in DIR/figures,
 * series in DIR/data). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "util.h"
#include "campaign.h"
#include "gnuplot.h"
#include "reproduce.h"

#define RP_PATH 4096

typedef struct {
    cb_reproduce_opts o;
    const char *only; /* run only this section (NULL: all) */
} rp_args;

static int rp_mkdir(const char *d)
{
    struct stat st;
    if (stat(d, &st) == 0)
        return S_ISDIR(st.st_mode) ? CB_EXIT_OK : cb_cli_usage_error("'%s' is not a directory", d);
    return mkdir(d, 0777) == 0 ? CB_EXIT_OK
                               : cb_cli_usage_error("cannot create '%s': %s", d, strerror(errno));
}

static const cb_cli_opt opts[] = {
    {"output", CB_CLI_SHORT('o'), "DIR",
     "output folder: DIR/report.md, DIR/figures, DIR/data "
     "(default results/reproduce)"},
    {"quick", 'q', NULL, "coarser grids (a smoke test)"},
    {"jobs", 'j', "N", "regime-map cells at a time (1..16; default 2)"},
    {"plots", 'p', "DIR",
     "the gnuplot scripts (default $CONEBENCH_PLOTS, else plots/ of the share "
     "folder)"},
    {"only", 'O', "SECTION",
     "one section: brick, disk, incline, regime, spin, spin-hertz, "
     "ellipsoid, stack or stiffness (default all)"},
    {NULL, 0, NULL, NULL}};

/* The section names, known before any work is done. */
static int rp_known(const char *name)
{
    for (int k = 0; k < cb_reproduce_section_count(); k++)
        if (strcmp(name, cb_reproduce_section_name(k)) == 0)
            return 1;
    return 0;
}

static int rp_parse(int argc, char **argv, rp_args *a)
{
    static char plots[RP_PATH + 16];
    memset(a, 0, sizeof *a);
    a->o.dir = "results/reproduce";
    snprintf(plots, sizeof plots, "%s/plots", cb_home_dir());
    a->o.plots = getenv("CONEBENCH_PLOTS") ? getenv("CONEBENCH_PLOTS") : plots;
    a->o.jobs = 2;
    cb_cli_parser p;
    int o;
    long j;
    cb_cli_parser_init(&p, opts);
    while ((o = cb_cli_next(&p, argc, argv)) != -1) {
        if (o == 'o')
            a->o.dir = optarg;
        else if (o == 'q')
            a->o.quick = 1;
        else if (o == 'p')
            a->o.plots = optarg;
        else if (o == 'O')
            a->only = optarg;
        else if (o == 'j' &&
                 cb_cli_parse_long("--jobs", optarg, 1, CB_REPRODUCE_JOBS_MAX, &j) == CB_EXIT_OK)
            a->o.jobs = (int)j;
        else
            return o == 'j' ? CB_EXIT_BADINPUT : cb_cli_usage(&cb_command_reproduce);
    }
    if (optind != argc)
        return cb_cli_usage_error("reproduce: unexpected argument '%s'", argv[optind]);
    if (a->only && !rp_known(a->only))
        return cb_cli_usage_error("reproduce: --only: unknown section '%s'", a->only);
    return CB_EXIT_OK;
}

/* The output folder and its data/ and figures/. */
static int rp_folders(const char *dir)
{
    char p[RP_PATH];
    int rc = rp_mkdir(dir);
    const char *sub[] = {"data", "figures"};
    for (int k = 0; k < 2 && rc == CB_EXIT_OK; k++) {
        if (snprintf(p, sizeof p, "%s/%s", dir, sub[k]) >= (int)sizeof p)
            return cb_cli_usage_error("--output: '%s' is too long", dir);
        rc = rp_mkdir(p);
    }
    return rc;
}

/* Run one section, draw its figures, print it to md and its failures to stderr. */
static int rp_section(const rp_args *a, const char *name, FILE *md, int *nfig, int *failures)
{
    cb_study_report r = {0};
    cb_error err;
    cb_error_clear(&err);
    int rc = cb_reproduce_section(name, &a->o, &r, &err);
    if (rc == CB_OK && (rc = cb_study_draw(&r, a->o.dir, a->o.plots)) != CB_OK)
        cb_fail(&err, rc, "the report could not be built");
    if (rc == CB_OK && (rc = cb_study_write_md(md, &r)) != CB_OK)
        cb_fail(&err, rc, "cannot write the report");
    for (const char *s = r.failed, *e; s && *s; s = e + 1) {
        e = strchr(s, '\n');
        fprintf(stderr, "conebench: reproduce: %.*s\n", (int)(e - s), s);
    }
    if (rc != CB_OK)
        fprintf(stderr, "conebench: reproduce: %s: %s\n", name, err.text);
    *nfig += r.nfig;
    *failures += r.failures;
    cb_study_report_free(&r);
    return rc;
}

int cb_cmd_reproduce(int argc, char **argv)
{
    rp_args a;
    char p[RP_PATH], tmp[RP_PATH];
    cb_error err = {{0}};
    int rc = rp_parse(argc, argv, &a);
    if (rc == CB_EXIT_OK && cb_gnuplot_check(&err) != CB_OK)
        rc = cb_cli_report(CB_ERR_IO, &err);
    if (rc == CB_EXIT_OK)
        rc = rp_folders(a.o.dir);
    if (rc != CB_EXIT_OK)
        return rc;
    snprintf(tmp, sizeof tmp, "%s/report.md.tmp", a.o.dir);
    FILE *md = fopen(tmp, "w");
    if (!md)
        return cb_cli_usage_error("cannot write %s", tmp);
    double t0 = cb_now();
    fprintf(md,
            "# conebench reproduce: Fang & Negrut, compliant vs nonsmooth vs closed "
            "form\n\nEvery number the paper states that the compliant models reproduce, "
            "next to ours (difference relative to the paper). Δt = 1e-4 s, half-implicit "
            "symplectic Euler. Cross-model mapping (man conebench, MODELS): the rigid "
            "models use μ = μ_k and μ_r = 2 η_r μ_k R (the compliant kinetic roll torque "
            "of a sphere on a plane).%s\n",
            a.o.quick ? " **Quick run: coarser grids.**" : "");
    int nfig = 0, failures = 0, broken = 0;
    for (int k = 0; k < cb_reproduce_section_count(); k++) {
        const char *name = cb_reproduce_section_name(k);
        if (!a.only || !strcmp(a.only, name))
            broken |= rp_section(&a, name, md, &nfig, &failures) != CB_OK;
    }
    fprintf(md, "\n---\n%d figures, %d failed runs, %.1f s.\n", nfig, failures, cb_now() - t0);
    if (fclose(md) != 0 || broken ||
        snprintf(p, sizeof p, "%s/report.md", a.o.dir) >= (int)sizeof p || rename(tmp, p) != 0) {
        remove(tmp);
        fprintf(stderr, "conebench: reproduce: cannot write %s/report.md\n", a.o.dir);
        return CB_EXIT_FAIL;
    }
    printf("conebench: wrote %s (%d figures, %d failed runs)\n", p, nfig, failures);
    return failures ? CB_EXIT_FAIL : CB_EXIT_OK;
}
static const cb_cli_form forms[] = {{"reproduce [options]", opts}, {NULL, NULL}};

const cb_cli_command cb_command_reproduce = {
    "reproduce",
    cb_cmd_reproduce,
    "every number and figure of Fang & Negrut next to ours (compliant, nonsmooth, closed form)",
    forms,
    "Runs the compliant models on the paper's scenarios with the presets of its tables, the\n"
    "nonsmooth Moreau-Jean model and the closed forms, and writes DIR/report.md: each number the\n"
    "paper states next to ours (relative difference), and the figures (gnuplot PNG + SVG in\n"
    "DIR/figures, series in DIR/data). The rigid models use mu = mu_k and mu_r = 2 eta_r mu_k R\n"
    "(man conebench, MODELS).",
    "conebench reproduce -o results/reproduce --jobs 2 --only brick",
    "0 every run succeeded, 1 a run failed (the report says which), 2 bad input"};
