/* conebench — the reproduce study's sweeps: Fang & Negrut §4.6 stack (Fig. 13) and the
 * stiffness sweep K_E → ∞ against the nonsmooth model and the closed form (Acary §6.1). */
#include "reproduce_internal.h"

#include <math.h>
#include <stdio.h>

#include "analytic.h"

/* ------------------------------------------------------------------ §4.6 stack */

/* Smallest m_top that collapses the stack (bisection on log m in [lo, hi]). */
static double rp_critical_mass(rp_ctx *c, double eta, double lo, double hi, int iters)
{
    char e[64], m[64];
    snprintf(e, sizeof e, "eta_r=%.6g", eta);
    for (int k = 0; k < iters; k++) {
        double mid = sqrt(lo * hi);
        snprintf(m, sizeof m, "m_top=%.8g", mid);
        const char *const kv[] = {e, m, "t_end=1.5", NULL};
        rp_out o;
        if (rp_do(c, &(rp_run){"three-spheres", "compliant", kv, NULL, 0, 0, 0}, &o) != CB_OK)
            return NAN;
        if (o.c.summary.collapsed)
            hi = mid;
        else
            lo = mid;
    }
    return sqrt(lo * hi);
}

void rp_stack(rp_ctx *c)
{
    char p[RP_PATH];
    FILE *f = fopen(rp_path(c, "data", "stack.csv", p), "w");
    static const char *const head[] = {"η_r", "m_top^c (kg)"};
    if (!f) {
        cb_study_fail(c->r, "cannot write %s", p);
        return;
    }
    fprintf(f, "eta_r,m_top_c\n");
    cb_study_text(c->r, "\n## 4.6 Three spheres (R = 0.15, m = 1, gap 0.3 R; Hertz E = 2 MPa, "
                        "ν = 0.3, e = 0.4; μ_s = 0.25, μ_k = 0.2, K_E = 1e5)\n");
    cb_study_table *t = cb_study_table_new(c->r, "Fang & Negrut §4.6, Fig. 13", 2, head);
    int n = c->o->quick ? 4 : 8;
    for (int k = 0; k < n; k++) {
        double eta = 0.05 + k * (0.4 / (n - 1));
        double mc = rp_critical_mass(c, eta, 0.05, 50.0, c->o->quick ? 6 : 9);
        fprintf(f, "%.4f,%.6g\n", eta, mc);
        cb_study_cell_add(c->r, t, eta, "%.3f", eta);
        cb_study_cell_add(c->r, t, mc, "%.4g", mc);
    }
    fclose(f);
    cb_study_text(c->r, "\nPaper (Fig. 13, no numbers in the text): m_top^c rises with η_r up to "
                        "η_r^c, then falls to a plateau set by μ_s. Our curve is above; it is a "
                        "qualitative comparison only (the paper's Chrono set-up is not fully "
                        "specified: contact damping, K_E of the stack).\n");
    rp_series s[] = {{"stack.csv", 1, 2, 1, "compliant (Fang), gap 0.3 R", 3}};
    rp_figure(
        c,
        &(rp_fig){"stack_critical_mass", "Three-sphere stack: critical top mass vs η_r (Fig. 13)",
                  "smallest m_top for which the top sphere drops by more than R/2 within 1.5 s",
                  "η_r", "m_top^c (kg)", 0},
        s, 1);
}

/* ------------------------------------------------------------------ K_E → ∞ */

void rp_stiffness(rp_ctx *c)
{
    static const char *const head[] = {"K_E (N/m)", "compliant X_max (m)", "vs closed form"};
    char p[RP_PATH];
    FILE *f = fopen(rp_path(c, "data", "stiffness.csv", p), "w");
    FILE *g = fopen(rp_path(c, "data", "stiffness_ref.csv", p), "w");
    rp_out ons;
    rp_do(c, &(rp_run){"sphere-plane", "nonsmooth", NULL, NULL, 0, 0, 0}, &ons);
    cb_sphere_plane_params pp;
    cb_sphere_plane_params_default(&pp);
    cb_sphere_plane_solution sol;
    cb_error err;
    double xcf = cb_sphere_plane_solve(&pp, 10, &sol, &err) == CB_OK ? sol.x_stop : NAN;
    if (!f || !g) {
        if (f)
            fclose(f);
        if (g)
            fclose(g);
        cb_study_fail(c->r, "cannot write the stiffness series in %s/data", c->o->dir);
        return;
    }
    fprintf(f, "K_E,x_stop\n");
    fprintf(g, "K_E,closed_form,nonsmooth\n1e3,%.10g,%.10g\n1e10,%.10g,%.10g\n", xcf,
            ons.ns.summary.x_stop, xcf, ons.ns.summary.x_stop);
    fclose(g);
    cb_study_text(c->r,
                  "\n## Stiffness sweep: sphere-plane configuration a (Acary §6.1), "
                  "μ_s = μ_k = μ = 0.2, η_r = μ_r/(2 μ R) = 0.2\n\nClosed form X_max = %.6g m,"
                  " nonsmooth %.6g m.\n",
                  xcf, ons.ns.summary.x_stop);
    cb_study_table *t = cb_study_table_new(c->r, "Acary & Bourrier §6.1 (closed form)", 3, head);
    for (int e = 4; e <= 9; e++) {
        char k[64];
        snprintf(k, sizeof k, "K_E=1e%d", e);
        const char *const kv[] = {k, NULL};
        rp_out o;
        rp_do(c, &(rp_run){"sphere-plane", "compliant", kv, NULL, 0, 0, 0}, &o);
        fprintf(f, "1e%d,%.10g\n", e, o.c.summary.x_stop);
        double x = o.c.summary.x_stop, d = (x - xcf) / xcf * 100; /* relative to X_max */
        cb_study_cell_add(c->r, t, pow(10, e), "1e%d", e);
        cb_study_cell_add(c->r, t, x, "%.7g", x);
        cb_study_cell_add(c->r, t, d, "%+.3g %%", d);
    }
    fclose(f);
    rp_series s[] = {{"stiffness.csv", 1, 2, 1, "compliant (Fang) X_max", 3},
                     {"stiffness_ref.csv", 1, 2, 1, "closed form", 1},
                     {"stiffness_ref.csv", 1, 3, 1, "nonsmooth Moreau–Jean", 2}};
    rp_figure(
        c,
        &(rp_fig){"stiffness_sweep", "Sphere on a plane: stop distance as K_E → ∞",
                  "config a: U = 2.5, Ω = 5, μ = 0.2, μ_r = 0.04 m ≡ η_r = 0.2 (μ_r = 2 η_r μ R)",
                  "K_E (N/m)", "X_max (m)", 1},
        s, 3);
}
