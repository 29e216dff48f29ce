/* conebench — the check study (filippov_study.h): the case of the extended-Filippov analysis
 * against (1) one Moreau-Jean step's one-contact CCP and (2) the Fang-Negrut compliant slide
 * law (filippov_check.h), at random rolling states of the wheel (AS §6) and of a sphere. */
#include "filippov_study.h"

#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "markdown.h"
#include "rng.h"

#define AGREE_WHEEL_SEED 20190611u
#define AGREE_SPHERE_SEED 7u
#define AGREE_RANGE 2.0   /* wheel: (x, y) uniform in [−2, 2]² */
#define AGREE_LOAD 1.5    /* sphere: up to 1.5 × the friction-saturating load */
#define AGREE_STATES 1200 /* states of each body */
#define AGREE_STATES_QUICK 200

/* One wheel state: row "x y case ccp_agree compliant_agree near_boundary". */
static int wheel_state(cb_rng *rng, const cb_fc_settings *s, FILE *f, cb_fc_tally *t,
                       cb_error *err)
{
    cb_fil_wheel w;
    cb_fil_body b;
    cb_fc_result r;
    double x, y;
    int rc = cb_fc_wheel_sample(rng, AGREE_RANGE, &w, &x, &y, err);
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
    int rc = cb_fc_sphere_sample(rng, AGREE_LOAD, &st, err);
    if (rc == CB_OK)
        rc = cb_fil_shape_body(&st, &b, err);
    if (rc == CB_OK)
        rc = cb_fc_check_body(&b, s, rng, &r, err);
    if (rc == CB_OK)
        cb_fc_tally_add(t, &r);
    return rc;
}

/* Both checks agree on ≥ CB_FIL_AGREE_PASS of the states away from the boundary. */
static int tally_pass(const cb_fc_tally *t)
{
    return t->n_away > 0 && t->agree_ccp_away >= CB_FIL_AGREE_PASS * t->n_away &&
           t->agree_comp_away >= CB_FIL_AGREE_PASS * t->n_away;
}

int cb_fil_agree_run(int quick, cb_fil_agree *a, cb_error *err)
{
    cb_fc_settings s;
    cb_rng rng;
    memset(a, 0, sizeof *a);
    cb_fc_settings_default(&s);
    a->n = quick ? AGREE_STATES_QUICK : AGREE_STATES;
    FILE *f = cb_fil_series_open(&a->wheel_states, "filippov_check_wheel.dat");
    if (!f)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    fprintf(f, "# conebench filippov check: wheel states (AS §6), seed %u, %ld states\n"
               "# x = Md/(mu m g rho)  y = rho w2 w3/(g mu)  case (0 degenerate, 1..4 = I..IV)  "
               "ccp_agree  compliant_agree  near_boundary\n", AGREE_WHEEL_SEED, a->n);
    cb_rng_seed(&rng, AGREE_WHEEL_SEED);
    int rc = CB_OK;
    for (long i = 0; rc == CB_OK && i < a->n; i++)
        rc = wheel_state(&rng, &s, f, &a->wheel, err);
    cb_rng_seed(&rng, AGREE_SPHERE_SEED);
    for (long i = 0; rc == CB_OK && i < a->n; i++)
        rc = sphere_state(&rng, &s, &a->sphere, err);
    int rs = cb_fil_series_close(&a->wheel_states, f, err);
    a->pass = tally_pass(&a->wheel) && tally_pass(&a->sphere);
    return rc != CB_OK ? rc : rs;
}

void cb_fil_agree_free(cb_fil_agree *a)
{
    if (!a)
        return;
    free(a->wheel_states.text);
    a->wheel_states.text = NULL;
}

/* k of n in per cent (0 when n = 0). */
static double pct(long k, long n)
{
    return n > 0 ? 100.0 * (double)k / (double)n : 0.0;
}

static void md_row(FILE *f, const char *body, const char *check, long all, long away,
                   const cb_fc_tally *t)
{
    cb_md_cell(f, body);
    cb_md_cell(f, check);
    cb_md_cellf(f, "%ld / %ld (%.2f %%)", all, t->n, pct(all, t->n));
    cb_md_cellf(f, "%ld / %ld (%.2f %%)", away, t->n_away, pct(away, t->n_away));
    cb_md_cellf(f, "%ld", t->n_away - away);
    cb_md_end(f);
}

static void md_table(FILE *f, const cb_fil_agree *a)
{
    static const char *const head[5] = {"body", "check", "agree (all)",
                                        "agree (away from boundary)", "disagreements away"};
    const cb_fc_tally *w = &a->wheel, *s = &a->sphere;
    cb_md_head(f, 5, head, NULL);
    md_row(f, "wheel", "(1) Moreau–Jean CCP", w->agree_ccp, w->agree_ccp_away, w);
    md_row(f, "wheel", "(2) compliant slide law", w->agree_comp, w->agree_comp_away, w);
    md_row(f, "sphere", "(1) Moreau–Jean CCP", s->agree_ccp, s->agree_ccp_away, s);
    md_row(f, "sphere", "(2) compliant slide law", s->agree_comp, s->agree_comp_away, s);
    fprintf(f, "\nStates of case I/II (rolling predicted): wheel %ld of %ld, sphere %ld of %ld. "
               "Largest angle between the CCP's slip and the repelling direction (away from the "
               "boundary): wheel %.2e rad, sphere %.2e rad.\n\n", w->n_rolls, w->n, s->n_rolls,
            s->n, w->max_ccp_dir_err, s->max_ccp_dir_err);
}

/* DIR/filippov_check.md. */
static int agree_page(const cb_fil_agree *a, const char *dir, cb_error *err)
{
    char path[CB_FIL_PATH];
    cb_fc_settings s;
    cb_outbuf o;
    cb_fc_settings_default(&s);
    int rc = cb_outbuf_open(&o, err);
    if (rc != CB_OK)
        return rc;
    fprintf(o.f, "# Extended-Filippov cross-checks (Antali & Stepan 2019)\n\n"
               "Generated by `conebench filippov check`. At %ld random rolling states of the wheel "
               "(AS §6; x = M_d/(μ m g ρ), y = ρ ω2 ω3/(g μ) uniform in [−%g, %g]², seed %u) and "
               "%ld of a sphere (horizontal load up to %g × the friction-saturating load, seed "
               "%u), the case of the limit-direction analysis (rolling predicted iff case I/II) "
               "is compared with (1) one Moreau–Jean step (h = %g s, solver %s) of the "
               "one-contact CCP — sticks iff I/II, else slips along the repelling direction — "
               "and (2) the Fang–Negrut compliant slide law (K_E = %g N/m, %d start directions, "
               "T = %g s) — returns to rolling iff I/II. \"Near the boundary\": "
               "| |F_f|/(μN) − 1 | < %g (AS eq. 69) or a degenerate case.\n\n",
            a->n, AGREE_RANGE, AGREE_RANGE, AGREE_WHEEL_SEED, a->n, AGREE_LOAD,
            AGREE_SPHERE_SEED, s.h, s.solver, s.K_E, s.comp_ndir, s.comp_T, s.boundary_margin);
    md_table(o.f, a);
    fprintf(o.f, "**Verdict: %s** — agreement away from the boundary is %s %.0f %% for both "
                 "checks and both bodies.\n\n## Wheel states on the region map\n\n"
                 "![filippov check](filippov_check.png)\n\nData: `filippov_check_wheel.dat` "
                 "(x, y, case, ccp_agree, compliant_agree, near_boundary).\n",
            a->pass ? "PASS" : "FAIL", a->pass ? "≥" : "below", 100 * CB_FIL_AGREE_PASS);
    snprintf(path, sizeof path, "%s/filippov_check.md", dir);
    return cb_outbuf_commit(&o, path, err);
}

int cb_fil_agree_write(const cb_fil_agree *a, const char *dir, const char *plots, cb_error *err)
{
    char vars[64];
    snprintf(vars, sizeof vars, "nstates = %ld", a->n);
    int rc = cb_fil_series_write(&a->wheel_states, dir, err);
    if (rc == CB_OK)
        rc = cb_fil_draw(dir, plots, "filippov_check.gp", vars, "filippov_check", err);
    if (rc == CB_OK)
        rc = agree_page(a, dir, err);
    return rc;
}
