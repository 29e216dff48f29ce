/* conebench — `conebench filippov check -o DIR [--quick] [--plots DIR]`: the cross-checks
 * of the extended-Filippov case (Antali & Stepan 2019) against (1) one Moreau–Jean step's
 * one-contact CCP and (2) the Fang–Negrut compliant slide law (filippov_check.h), at random
 * rolling states of the wheel (AS §6) and of a sphere. Writes DIR/filippov_check_wheel.dat,
 * DIR/filippov_check.png+.svg (plots/filippov_check.gp) and DIR/filippov_check.md. Exit 0 when
 * both checks agree on ≥ 99 % of the states away from the boundary for both bodies, else 1. */
#include "commands.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign.h"
#include "filippov_check.h"
#include "conebench/io.h"
#include "fileio.h"
#include "gnuplot.h"

#define FCK_WHEEL_SEED 20190611u
#define FCK_SPHERE_SEED 7u
#define FCK_RANGE 2.0  /* wheel: (x, y) uniform in [−2, 2]² */
#define FCK_LOAD 1.5   /* sphere: up to 1.5 × the friction-saturating load */
#define FCK_PASS 0.99  /* agreement required away from the boundary */

const cb_cli_opt cb_filippov_files_opts[] = {
    {"output", CB_CLI_SHORT('o'), "DIR", "output folder (created); required"},
    {"plots", 'P', "DIR", "the gnuplot scripts (default: plots/ of the share folder, "
                          "$CONEBENCH_HOME)"},
    {"quick", 'q', NULL, "coarser grids, fewer states (a smoke test)"},
    {NULL, 0, NULL, NULL}};

typedef struct {
    const char *outdir, *plots;
    int quick;
} fck_args;

typedef struct {
    cb_fc_tally wheel, sphere;
    long n; /* states per body */
} fck_stats;

/* Exit status. argv[0] is "check". */
static int parse_args(int argc, char **argv, fck_args *a)
{
    memset(a, 0, sizeof *a);
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, cb_filippov_files_opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1) {
        if (c == 'o')
            a->outdir = optarg;
        else if (c == 'P')
            a->plots = optarg;
        else if (c == 'q')
            a->quick = 1;
        else
            rc = cb_cli_usage_of("filippov", CB_USAGE_FILIPPOV_FILES);
    }
    if (rc == CB_EXIT_OK && optind != argc)
        rc = cb_cli_usage_error("filippov check: unexpected argument '%s'", argv[optind]);
    if (rc == CB_EXIT_OK && !a->outdir)
        rc = cb_cli_usage_error("filippov check: -o DIR is required");
    return rc;
}

/* ------------------------------------------------------------------ the checks */

/* One wheel state: row "x y case ccp_agree compliant_agree near_boundary" (library status). */
static int wheel_state(cb_rng *rng, const cb_fc_settings *s, FILE *f, cb_fc_tally *t,
                       cb_error *err)
{
    cb_fil_wheel w;
    cb_fil_body b;
    cb_fc_result r;
    double x, y;
    int rc = cb_fc_wheel_sample(rng, FCK_RANGE, &w, &x, &y, err);
    if (rc == CB_OK)
        rc = cb_fil_wheel_body(&w, &b, err);
    if (rc == CB_OK)
        rc = cb_fc_check_body(&b, s, rng, &r, err);
    if (rc != CB_OK)
        return rc;
    fprintf(f, "%.6f %.6f %d %d %d %d\n", x, y, (int)r.kase, r.agree_ccp, r.agree_comp,
            r.near_boundary);
    cb_fc_tally_add(t, &r);
    return CB_OK;
}

static int sphere_state(cb_rng *rng, const cb_fc_settings *s, cb_fc_tally *t, cb_error *err)
{
    cb_fil_shape_state st;
    cb_fil_body b;
    cb_fc_result r;
    int rc = cb_fc_sphere_sample(rng, FCK_LOAD, &st, err);
    if (rc == CB_OK)
        rc = cb_fil_shape_body(&st, &b, err);
    if (rc == CB_OK)
        rc = cb_fc_check_body(&b, s, rng, &r, err);
    if (rc == CB_OK)
        cb_fc_tally_add(t, &r);
    return rc;
}

/* Both bodies, n states each; the wheel's rows go to DIR/filippov_check_wheel.dat. */
static int run_checks(const char *dir, fck_stats *st)
{
    cb_fc_settings s;
    cb_fc_settings_default(&s);
    cb_error err;
    cb_error_clear(&err);
    cb_outbuf o;
    if (cb_cli_outbuf_open(&o) != CB_EXIT_OK)
        return CB_EXIT_FAIL;
    FILE *f = o.f;
    fprintf(f, "# conebench filippov check: wheel states (AS §6), seed %u, %ld states\n"
               "# x = Md/(mu m g rho)  y = rho w2 w3/(g mu)  case (0 degenerate, 1..4 = I..IV)  "
               "ccp_agree  compliant_agree  near_boundary\n", FCK_WHEEL_SEED, st->n);
    cb_rng rng;
    cb_rng_seed(&rng, FCK_WHEEL_SEED);
    int rc = CB_OK;
    for (long i = 0; rc == CB_OK && i < st->n; i++)
        rc = wheel_state(&rng, &s, f, &st->wheel, &err);
    cb_rng_seed(&rng, FCK_SPHERE_SEED);
    for (long i = 0; rc == CB_OK && i < st->n; i++)
        rc = sphere_state(&rng, &s, &st->sphere, &err);
    if (rc != CB_OK) {
        cb_outbuf_discard(&o);
        return cb_cli_report(rc, &err);
    }
    return cb_cli_outbuf_commit(&o, dir, "filippov_check_wheel.dat");
}

/* ------------------------------------------------------------------ figure */

/* The plots directory: --plots, else cb_home_dir()/plots, holding filippov_check.gp. */
static int find_script(const fck_args *a, char *plots, size_t size)
{
    char script[4300];
    if (a->plots)
        snprintf(plots, size, "%s", a->plots);
    else
        snprintf(plots, size, "%s/plots", cb_home_dir());
    snprintf(script, sizeof script, "%s/filippov_check.gp", plots);
    struct stat sb;
    if (stat(script, &sb) != 0)
        return cb_cli_usage_error("--plots: %s not found (give --plots DIR or set CONEBENCH_HOME)",
                                  script);
    return CB_EXIT_OK;
}

/* gnuplot (gnuplot.h) on plots/filippov_check.gp drawing DIR/filippov_check; its messages go
 * to DIR/filippov_gnuplot.log. */
static int figure(const char *dir, const char *plots, const fck_stats *st)
{
    char q[8400], vars[8500], log[4200], out[4200];
    cb_error err = {{0}};
    snprintf(log, sizeof log, "%s/filippov_gnuplot.log", dir);
    snprintf(out, sizeof out, "%s/filippov_check", dir);
    int rc = cb_gp_str(q, sizeof q, dir, dir, &err);
    if (rc == CB_OK)
        snprintf(vars, sizeof vars, "dir = %s\nnstates = %ld", q, st->n);
    cb_gnuplot_job job = {plots, "filippov_check.gp", vars, log, out};
    if (rc == CB_OK)
        rc = cb_gnuplot(&job, &err);
    return rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
}

/* ------------------------------------------------------------------ markdown */

static double pct(long k, long n)
{
    return n > 0 ? 100.0 * (double)k / (double)n : 0.0;
}

static int tally_pass(const cb_fc_tally *t)
{
    return t->n_away > 0 && t->agree_ccp_away >= FCK_PASS * t->n_away &&
           t->agree_comp_away >= FCK_PASS * t->n_away;
}

static void md_row(FILE *f, const char *body, const char *check, long all, long away,
                   const cb_fc_tally *t)
{
    fprintf(f, "| %s | %s | %ld / %ld (%.2f %%) | %ld / %ld (%.2f %%) | %ld |\n", body, check, all,
            t->n, pct(all, t->n), away, t->n_away, pct(away, t->n_away), t->n_away - away);
}

static void md_table(FILE *f, const fck_stats *st)
{
    const cb_fc_tally *w = &st->wheel, *s = &st->sphere;
    fprintf(f, "| body | check | agree (all) | agree (away from boundary) | disagreements "
               "away |\n|---|---|---|---|---|\n");
    md_row(f, "wheel", "(1) Moreau–Jean CCP", w->agree_ccp, w->agree_ccp_away, w);
    md_row(f, "wheel", "(2) compliant slide law", w->agree_comp, w->agree_comp_away, w);
    md_row(f, "sphere", "(1) Moreau–Jean CCP", s->agree_ccp, s->agree_ccp_away, s);
    md_row(f, "sphere", "(2) compliant slide law", s->agree_comp, s->agree_comp_away, s);
    fprintf(f, "\nStates of case I/II (rolling predicted): wheel %ld of %ld, sphere %ld of %ld. "
               "Largest angle between the CCP's slip and the repelling direction (away from the "
               "boundary): wheel %.2e rad, sphere %.2e rad.\n\n", w->n_rolls, w->n, s->n_rolls,
            s->n, w->max_ccp_dir_err, s->max_ccp_dir_err);
}

static int write_md(const char *dir, const fck_stats *st, int pass)
{
    cb_outbuf o;
    if (cb_cli_outbuf_open(&o) != CB_EXIT_OK)
        return CB_EXIT_FAIL;
    FILE *f = o.f;
    cb_fc_settings s;
    cb_fc_settings_default(&s);
    fprintf(f, "# Extended-Filippov cross-checks (Antali & Stepan 2019)\n\n"
               "Generated by `conebench filippov check`. At %ld random rolling states of the wheel "
               "(AS §6; x = M_d/(μ m g ρ), y = ρ ω2 ω3/(g μ) uniform in [−%g, %g]², seed %u) and "
               "%ld of a sphere (horizontal load up to %g × the friction-saturating load, seed "
               "%u), the case of the limit-direction analysis (rolling predicted iff case I/II) "
               "is compared with (1) one Moreau–Jean step (h = %g s, solver %s) of the "
               "one-contact CCP — sticks iff I/II, else slips along the repelling direction — "
               "and (2) the Fang–Negrut compliant slide law (K_E = %g N/m, %d start directions, "
               "T = %g s) — returns to rolling iff I/II. \"Near the boundary\": "
               "| |F_f|/(μN) − 1 | < %g (AS eq. 69) or a degenerate case.\n\n",
            st->n, FCK_RANGE, FCK_RANGE, FCK_WHEEL_SEED, st->n, FCK_LOAD, FCK_SPHERE_SEED, s.h,
            s.solver, s.K_E, s.comp_ndir, s.comp_T, s.boundary_margin);
    md_table(f, st);
    fprintf(f, "**Verdict: %s** — agreement away from the boundary is %s %.0f %% for both "
               "checks and both bodies.\n\n## Wheel states on the region map\n\n"
               "![filippov check](filippov_check.png)\n\nData: `filippov_check_wheel.dat` "
               "(x, y, case, ccp_agree, compliant_agree, near_boundary).\n",
            pass ? "PASS" : "FAIL", pass ? "≥" : "below", 100 * FCK_PASS);
    return cb_cli_outbuf_commit(&o, dir, "filippov_check.md");
}

/* ------------------------------------------------------------------ command */

static void print_summary(const char *what, const cb_fc_tally *t)
{
    printf("%s: %ld states, %ld away from the boundary; CCP agree %ld/%ld (away %ld/%ld, "
           "%.2f %%), compliant agree %ld/%ld (away %ld/%ld, %.2f %%)\n", what, t->n, t->n_away,
           t->agree_ccp, t->n, t->agree_ccp_away, t->n_away, pct(t->agree_ccp_away, t->n_away),
           t->agree_comp, t->n, t->agree_comp_away, t->n_away,
           pct(t->agree_comp_away, t->n_away));
}

int cb_cmd_filippov_check(int argc, char **argv)
{
    fck_args a;
    int rc = parse_args(argc, argv, &a);
    char script[4200];
    cb_error err = {{0}};
    if (rc == CB_EXIT_OK && cb_gnuplot_check(&err) != CB_OK)
        rc = cb_cli_report(CB_ERR_IO, &err);
    if (rc == CB_EXIT_OK && mkdir(a.outdir, 0777) != 0 && errno != EEXIST)
        rc = cb_cli_usage_error("-o %s: cannot create: %s", a.outdir, strerror(errno));
    if (rc == CB_EXIT_OK)
        rc = find_script(&a, script, sizeof script);
    fck_stats st;
    memset(&st, 0, sizeof st);
    st.n = a.quick ? 200 : 1200;
    if (rc == CB_EXIT_OK)
        rc = run_checks(a.outdir, &st);
    if (rc == CB_EXIT_OK)
        rc = figure(a.outdir, script, &st);
    int pass = tally_pass(&st.wheel) && tally_pass(&st.sphere);
    if (rc == CB_EXIT_OK)
        rc = write_md(a.outdir, &st, pass);
    if (rc != CB_EXIT_OK)
        return rc;
    print_summary("wheel", &st.wheel);
    print_summary("sphere", &st.sphere);
    printf("conebench: wrote %s/filippov_check.md\n", a.outdir);
    if (!pass) {
        fprintf(stderr, "conebench: filippov check: agreement away from the boundary is below "
                        "%.0f %% (see %s/filippov_check.md)\n", 100 * FCK_PASS, a.outdir);
        return CB_EXIT_FAIL;
    }
    return CB_EXIT_OK;
}
