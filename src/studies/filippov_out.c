/* conebench — the map study on disk (filippov_study.h): its series, its figures, its page. */
#include "filippov_study.h"

/* The figures of the map: regions (the crossing marked), Σ-plane panels, four portraits. */
static int map_figures(const cb_fil_map *m, const char *dir, const char *plots, cb_error *err)
{
    char vars[1024], fig[64];
    snprintf(vars, sizeof vars, "xc = %.6f; yc = %.6f", m->specials.crossing,
             m->specials.crossing_y);
    int rc = cb_fil_draw(dir, plots, "filippov_regions.gp", vars, "filippov_regions", err);
    snprintf(vars, sizeof vars, "xa = %g; xb = %g; xcc = %g; xd = %g", cb_fil_sigma_x[0],
             cb_fil_sigma_x[1], cb_fil_sigma_x[2], cb_fil_sigma_x[3]);
    if (rc == CB_OK)
        rc = cb_fil_draw(dir, plots, "filippov_sigma.gp", vars, "filippov_sigma", err);
    for (int k = 0; rc == CB_OK && k < CB_FIL_PHASE_CASES; k++) {
        const cb_fil_phase_state *p = &cb_fil_phase_states[k];
        snprintf(vars, sizeof vars, "cs = '%s'; xs = %g; ys = %g", p->name, p->x, p->y);
        snprintf(fig, sizeof fig, "filippov_phase_%s", p->name);
        rc = cb_fil_draw(dir, plots, "filippov_phase.gp", vars, fig, err);
    }
    return rc;
}

int cb_fil_map_write(const cb_fil_map *m, const char *dir, const char *plots, cb_error *err)
{
    int rc = CB_OK;
    for (int k = 0; k < m->nseries && rc == CB_OK; k++)
        rc = cb_fil_series_write(&m->series[k], dir, err);
    if (rc == CB_OK)
        rc = map_figures(m, dir, plots, err);
    if (rc == CB_OK)
        rc = cb_fil_map_page(m, dir, err);
    return rc;
}
