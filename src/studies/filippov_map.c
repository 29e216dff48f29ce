/* conebench — the map study (filippov_study.h): the wheel's region maps (AS Fig. 12-13) and
 * their boundary curves as series, with the tally of agreement with eq. 69-70. */
#include "filippov_study.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

#define MAP_GRID 300          /* region map: cells a side */
#define MAP_GRID_QUICK 120
#define SIGMA_GRID 160        /* Σ-plane maps: cells a side */
#define SIGMA_GRID_QUICK 80
#define BOUNDARY_MARGIN 0.02  /* a cell nearer a boundary than this is not tallied */
#define CURVE_POINTS 720      /* points of each boundary curve */
#define HYPERBOLA_POINTS 400  /* points of each half of a Σ-plane boundary */

/* Case of the generic analysis at (x, y) (−1 on error). */
static int map_case(double x, double y, const cb_fil_settings *s)
{
    cb_fil_wheel w;
    cb_fil_body b;
    cb_fil_report r;
    cb_fil_map_wheel(x, y, &w);
    if (cb_fil_wheel_body(&w, &b, NULL) != CB_OK || cb_fil_body_analyze(&b, s, &r, NULL) != CB_OK)
        return -1;
    return (int)r.paper.dirs.kase;
}

/* One grid cell of the region map: row "x y case", agreement with eq. 69-70. */
static void region_cell(FILE *f, double x, double y, const cb_fil_settings *s,
                        cb_fil_map_stats *st)
{
    int k = map_case(x, y, s);
    fprintf(f, "%.6g %.6g %d\n", x, y, k);
    st->cells++;
    st->counts[k < 0 ? 0 : k]++;
    cb_fil_case an = cb_fil_wheel_case_analytic(x, y, BOUNDARY_MARGIN);
    if (an == CB_FIL_DEGENERATE)
        return;
    st->away++;
    st->agree += k == (int)an;
    int rep = cb_fil_wheel_eq69(x, y, 1) > 0, two = cb_fil_wheel_eq70(x, y, 1) > 0;
    int printed = rep ? (two ? 3 : 4) : (two ? 1 : 2);
    st->printed_disagree += printed != k;
}

/* AS Fig. 12: the case on an (n+1)² grid of (x, y) ∈ [−2.25, 2.25] × [−2.5, 2.5]. */
static void map_regions(FILE *f, int n, cb_fil_map_stats *st)
{
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    memset(st, 0, sizeof *st);
    fprintf(f, "# x = Md/(mu m g rho)  y = rho w2 w3/(g mu)  case (0 degenerate, 1..4 = I..IV)\n");
    for (int i = 0; i <= n; i++) {
        for (int j = 0; j <= n; j++)
            region_cell(f, -2.25 + 4.5 * i / n, -2.5 + 5.0 * j / n, &s, st);
        fputc('\n', f);
    }
}

/* Boundary curves: eq. 69 (ellipse (2x/3)² + y² = 1), eq. 70 (astroid |2x|^⅔ + |y|^⅔ = 2^⅔),
 * then the same as printed in AS (x/3, |x|), each traced parametrically. */
static void map_curves(FILE *f)
{
    for (int printed = 0; printed <= 1; printed++) {
        double sx = printed ? 2 : 1;
        fprintf(f, "# eq. 69%s\n", printed ? " as printed" : " (eq. 62)");
        for (int k = 0; k <= CURVE_POINTS; k++) {
            double t = k * (2 * CB_PI) / CURVE_POINTS;
            fprintf(f, "%.8g %.8g\n", 1.5 * sx * cos(t), sin(t));
        }
        fprintf(f, "\n\n# eq. 70%s\n", printed ? " as printed" : " (eq. 62)");
        for (int k = 0; k <= CURVE_POINTS; k++) {
            double t = k * (2 * CB_PI) / CURVE_POINTS;
            fprintf(f, "%.8g %.8g\n", sx * pow(cos(t), 3), 2 * pow(sin(t), 3));
        }
        fprintf(f, "\n\n");
    }
}

/* AS Fig. 13: the case over (ω̂2, ω̂3) = ω √(ρ/(gμ)) ∈ [−2.5, 2.5]² (y = ω̂2 ω̂3) for each Md,
 * blocks a-d. */
static void map_sigma(FILE *f, int n)
{
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    for (int p = 0; p < 4; p++) {
        fprintf(f, "# panel %c: x = %g; w2hat w3hat case\n", 'a' + p, cb_fil_sigma_x[p]);
        for (int i = 0; i <= n; i++) {
            for (int j = 0; j <= n; j++) {
                double a = -2.5 + 5.0 * i / n, b = -2.5 + 5.0 * j / n;
                fprintf(f, "%.6g %.6g %d\n", a, b, map_case(cb_fil_sigma_x[p], a * b, &s));
            }
            fputc('\n', f);
        }
        fputc('\n', f);
    }
}

/* Hyperbolas ω̂2 ω̂3 = y_b of the boundaries at each panel's x (y69² = 1 − 4x²/9,
 * y70^⅔ = 4^⅓ − (4x²)^⅓): per panel one block with the columns w2hat, then w3hat of eq. 69
 * (+, −) and eq. 70 (+, −) (NaN where absent). */
static void map_sigma_curves(FILE *f)
{
    for (int p = 0; p < 4; p++) {
        double x = cb_fil_sigma_x[p], r69 = 1 - 4 * x * x / 9, r70 = cbrt(4.0) - cbrt(4 * x * x);
        double y69 = r69 > 0 ? sqrt(r69) : NAN, y70 = r70 > 0 ? pow(r70, 1.5) : NAN;
        fprintf(f, "# panel %c: x = %g  y69 = %g  y70 = %g\n", 'a' + p, x, y69, y70);
        for (int k = -HYPERBOLA_POINTS; k <= HYPERBOLA_POINTS; k++) {
            double a = 2.5 * k / HYPERBOLA_POINTS;
            if (k == 0)
                fprintf(f, "\n");
            else
                fprintf(f, "%.6g %.6g %.6g %.6g %.6g\n", a, y69 / a, -y69 / a, y70 / a, -y70 / a);
        }
        fprintf(f, "\n\n");
    }
}

/* The next series of m, named name, opened (NULL when out of memory). */
static FILE *next_series(cb_fil_map *m, const char *name)
{
    return m->nseries < CB_FIL_MAP_SERIES ? cb_fil_series_open(&m->series[m->nseries++], name)
                                          : NULL;
}

/* The four series of the maps. */
static int map_series(cb_fil_map *m, cb_error *err)
{
    static const char *const names[4] = {"filippov_regions.dat", "filippov_curves.dat",
                                         "filippov_sigma.dat", "filippov_sigma_curves.dat"};
    int rc = CB_OK;
    for (int k = 0; k < 4 && rc == CB_OK; k++) {
        FILE *f = next_series(m, names[k]);
        if (f && k == 0)
            map_regions(f, m->grid, &m->stats);
        else if (f && k == 1)
            map_curves(f);
        else if (f && k == 2)
            map_sigma(f, m->quick ? SIGMA_GRID_QUICK : SIGMA_GRID);
        else if (f)
            map_sigma_curves(f);
        rc = f ? cb_fil_series_close(&m->series[m->nseries - 1], f, err)
               : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    return rc;
}

int cb_fil_map_run(int quick, cb_fil_map *m, cb_error *err)
{
    memset(m, 0, sizeof *m);
    m->quick = quick;
    m->grid = quick ? MAP_GRID_QUICK : MAP_GRID;
    cb_fil_wheel_special_values(&m->specials);
    int rc = map_series(m, err);
    for (int k = 0; k < CB_FIL_PHASE_CASES && rc == CB_OK; k++)
        rc = cb_fil_phase_run(m, k, err);
    return rc;
}

void cb_fil_map_free(cb_fil_map *m)
{
    for (int k = 0; m && k < m->nseries; k++) {
        free(m->series[k].text);
        m->series[k].text = NULL;
    }
    if (m)
        m->nseries = 0;
}
