/* conebench — the map study's phase portraits (AS Fig. 6-9): trajectories of the slipping
 * wheel from a circle of radius ε around Σ, an arrow on each, and the rays of the limit
 * directions, as series (filippov_study.h). */
#include "filippov_study.h"

#include <math.h>
#include <stdlib.h>

#include "base.h"

#define PHASE_STARTS 56       /* start points of a portrait */
#define PHASE_STARTS_QUICK 24
#define ARROW_LENGTH 0.06     /* arrowhead, in units of ε */
#define RAY_LENGTH 1.2        /* limit-direction rays, in units of ε */
#define PHASE_CHUNK 1024      /* points buffered at first */

typedef struct {
    FILE *traj, *arrows;
    double eps;
    int cur, oom;
    double *pts; /* (u1, u2) pairs of the current trajectory */
    size_t n, cap;
} phase_ctx;

/* Write the buffered trajectory (in units of ε) and an arrowhead at its middle pointing along
 * physical time (odd trajectories were integrated backward): direction d/|d| · ARROW_LENGTH. */
static void phase_flush(phase_ctx *c)
{
    for (size_t k = 0; k < c->n; k++)
        fprintf(c->traj, "%.6g %.6g\n", c->pts[2 * k] / c->eps, c->pts[2 * k + 1] / c->eps);
    if (c->n)
        fputc('\n', c->traj);
    if (c->n >= 4) {
        size_t m = c->n / 2;
        double s = c->cur % 2 ? -1 : 1, dx = s * (c->pts[2 * m + 2] - c->pts[2 * m]),
               dy = s * (c->pts[2 * m + 3] - c->pts[2 * m + 1]), l = hypot(dx, dy);
        if (l > 0)
            fprintf(c->arrows, "%.6g %.6g %.6g %.6g\n", c->pts[2 * m] / c->eps,
                    c->pts[2 * m + 1] / c->eps, ARROW_LENGTH * dx / l, ARROW_LENGTH * dy / l);
    }
    c->n = 0;
}

static int phase_point(void *ctx, int traj, double t, const double u[2])
{
    (void)t;
    phase_ctx *c = ctx;
    if (traj != c->cur) {
        phase_flush(c);
        c->cur = traj;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : PHASE_CHUNK;
        double *p = realloc(c->pts, 2 * cap * sizeof *p);
        if (!p) {
            c->oom = 1;
            return 1;
        }
        c->pts = p;
        c->cap = cap;
    }
    c->pts[2 * c->n] = u[0];
    c->pts[2 * c->n + 1] = u[1];
    c->n++;
    return 0;
}

/* Rays of the limit directions: "0 0 dx dy type", (dx, dy) = RAY_LENGTH (cos φ, sin φ), type
 * 0/1 attracting angularly stable/unstable, 2/3 repelling stable/unstable. */
static void phase_rays(FILE *f, const cb_fil_dirset *d)
{
    fprintf(f, "# x0 y0 dx dy type (0 attracting stable, 1 attracting unstable, "
               "2 repelling stable, 3 repelling unstable)\n");
    for (int k = 0; k < d->ndir; k++) {
        const cb_fil_direction *x = &d->dir[k];
        int type = 2 * !x->attracting + !x->angularly_stable;
        fprintf(f, "0 0 %.6g %.6g %d\n", RAY_LENGTH * cos(x->phi), RAY_LENGTH * sin(x->phi),
                type);
    }
}

/* The three series of portrait `which`, opened in m (f[k] NULL when out of memory). */
static void phase_open(cb_fil_map *m, int which, cb_fil_series **s, FILE **f)
{
    static const char *const kinds[3] = {"traj", "arrows", "rays"};
    for (int k = 0; k < 3; k++) {
        char name[CB_FIL_SERIES_NAME];
        snprintf(name, sizeof name, "filippov_phase_%s_%s.dat", cb_fil_phase_states[which].name,
                 kinds[k]);
        s[k] = &m->series[m->nseries++];
        f[k] = cb_fil_series_open(s[k], name);
    }
}

/* Simulate the slipping wheel of state `which` (its analysis into m->phase[which]). */
int cb_fil_phase_run(cb_fil_map *m, int which, cb_error *err)
{
    cb_fil_wheel w;
    cb_fil_body b;
    cb_fil_settings s;
    cb_fil_sim_settings ss;
    cb_fil_series *ser[3];
    FILE *f[3];
    cb_fil_settings_default(&s);
    cb_fil_sim_settings_default(&ss);
    ss.nstart = m->nstart = m->quick ? PHASE_STARTS_QUICK : PHASE_STARTS;
    cb_fil_map_wheel(cb_fil_phase_states[which].x, cb_fil_phase_states[which].y, &w);
    int rc = cb_fil_wheel_body(&w, &b, err);
    if (rc == CB_OK)
        rc = cb_fil_body_analyze(&b, &s, &m->phase[which], err);
    if (rc != CB_OK || m->nseries + 3 > CB_FIL_MAP_SERIES)
        return rc != CB_OK ? rc : cb_fail(err, CB_ERR_INPUT, "too many series");
    phase_open(m, which, ser, f);
    phase_ctx c = {f[0], f[1], ss.radius, 0, 0, NULL, 0, 0};
    if (f[0] && f[1] && f[2]) {
        rc = cb_fil_simulate(&b, &ss, phase_point, &c, err);
        phase_flush(&c);
        phase_rays(f[2], &m->phase[which].paper.dirs);
    }
    free(c.pts);
    if (rc == CB_OK && (c.oom || !f[0] || !f[1] || !f[2]))
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    for (int k = 0; k < 3; k++) {
        int r = f[k] ? cb_fil_series_close(ser[k], f[k], err) : CB_OK;
        rc = rc == CB_OK ? r : rc;
    }
    return rc;
}
