/* conebench — a simulation's time series as CSV (sim_csv.h). */
#include "sim_csv.h"

#include <string.h>

#include "body.h"
#include "modes.h"

#define CSV_T_SLACK 1e-12 /* the last analytic row: k h ≤ t_last + this */

/* The column name of reaction component r of a contact of kind. */
static const char *comp_name(cb_kind kind, int r)
{
    static const char *names[CB_KIND_COUNT][CB_MAX_DIM] = {
        {"rN", "rT"}, {"rN", "rT1", "rT2"}, {"rN", "rT", "mR"},
        {"rN", "rT1", "rT2", "mR1", "mR2"}, {"rN", "rT1", "rT2", "mR1", "mR2", "mS"}};
    return names[kind][r];
}

static void csv_header(const cb_sim_csv *c)
{
    static const char *st[] = {"x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz"};
    const cb_scenario *s = c->scen;
    fprintf(c->f, "t,step,nc,status,iterations,error,energy");
    for (int k = 0; k < s->ntracked; k++)
        for (int q = 0; q < 9; q++)
            fprintf(c->f, ",b%d_%s", s->tracked[k], st[q]);
    for (int k = 0; k < s->npairs; k++) {
        for (int r = 0; r < cb_kind_dim(s->kind); r++)
            fprintf(c->f, ",c%d_%d_%s", s->pairs[k].i, s->pairs[k].j, comp_name(s->kind, r));
        fprintf(c->f, ",c%d_%d_mode", s->pairs[k].i, s->pairs[k].j);
    }
    fputc('\n', c->f);
}

/* Tracked contacts: reaction components and mode, or empty cells when absent. */
static void csv_contacts(const cb_sim_csv *c, const cb_mj_work *w)
{
    const cb_scenario *s = c->scen;
    int d = cb_kind_dim(s->kind);
    for (int k = 0; k < s->npairs; k++) {
        int a = w ? cb_mj_find_contact(w, s->pairs[k].i, s->pairs[k].j) : -1;
        char mode[64] = "";
        for (int r = 0; r < d; r++)
            if (a >= 0)
                fprintf(c->f, ",%.17g", cb_mj_reactions(w)[(size_t)a * d + r]);
            else
                fputc(',', c->f);
        if (a >= 0)
            cb_mode_name(cb_mj_modes(w)[a], mode, sizeof mode);
        fprintf(c->f, ",%s", mode);
    }
}

static void csv_row(const cb_sim_csv *c, const cb_system *sys, const cb_mj_work *w,
                    const cb_step_record *rec)
{
    const cb_scenario *s = c->scen;
    fprintf(c->f, "%.10g,%ld,%d,%s,%d,%.6g,%.17g", sys->t, rec ? rec->step : 0L,
            rec ? rec->nc : 0, rec ? cb_status_name(rec->status) : "", rec ? rec->iterations : 0,
            rec ? rec->error : 0.0,
            cb_bodies_energy(sys->bodies, sys->nbodies, NULL, sys->gravity));
    for (int k = 0; k < s->ntracked; k++) {
        const cb_body *b = &sys->bodies[s->tracked[k]];
        const double *v[3] = {b->x, b->v, b->w};
        for (int q = 0; q < 9; q++)
            fprintf(c->f, ",%.17g", v[q / 3][q % 3]);
    }
    csv_contacts(c, rec && rec->nc > 0 ? w : NULL);
    fputc('\n', c->f);
}

void cb_sim_csv_start(const cb_sim_csv *c)
{
    const cb_scenario *scen = c->scen;
    cb_system s0 = {scen->bodies, scen->nbodies, scen->kind, {0, 0, 0}, scen->contact, 0};
    memcpy(s0.gravity, scen->gravity, sizeof s0.gravity);
    csv_header(c);
    csv_row(c, &s0, NULL, NULL);
}

void cb_sim_csv_step(const cb_sim_csv *c, const cb_system *sys, const cb_mj_work *w,
                     const cb_step_record *rec)
{
    if (c->f && rec->step % c->every == 0)
        csv_row(c, sys, w, rec);
}

int cb_sim_analytic_params(const cb_scenario *s, cb_sphere_plane_params *p, cb_error *err)
{
    if (!(s->outputs & CB_OUT_STOP) || s->subject < 0 || s->kind == CB_KIND_ROLLSPIN3D ||
        s->bodies[s->subject].shape.kind == CB_SHAPE_BOX)
        return cb_fail(err, CB_ERR_INPUT, "--model analytic: only sphere-plane and disk-rolling "
                                          "have a closed form");
    const cb_body *b = &s->bodies[s->subject];
    p->R = b->shape.radius;
    p->U0 = b->v[0];
    p->W0 = b->w[1];
    if (b->shape.kind == CB_SHAPE_SPHERE) { /* along the travel t: U = v·t, Ω = ω·(e_z × t) */
        const double *t = s->travel;
        p->U0 = b->v[0] * t[0] + b->v[1] * t[1] + b->v[2] * t[2];
        p->W0 = b->w[1] * t[0] - b->w[0] * t[1];
    }
    p->mu = s->contact.friction.mu;
    p->mu_r = s->contact.friction.mu_r;
    p->g = -s->gravity[2];
    p->k = b->inertia[1] / (b->mass * p->R * p->R);
    return CB_OK;
}

/* Rows at t = k h (k a multiple of every) of the closed form's x(t), U(t), W(t). */
void cb_sim_analytic_csv(FILE *f, const cb_scenario *s, const cb_sphere_plane_solution *sol,
                         long every)
{
    fprintf(f, "t,x,U,W\n");
    double t_last = sol->stops ? sol->t_stop : s->t_end;
    for (long k = 0; k * s->h <= t_last + CSV_T_SLACK; k += every) {
        double x, U, W;
        cb_sphere_plane_eval(sol, k * s->h, &x, &U, &W);
        fprintf(f, "%.10g,%.17g,%.17g,%.17g\n", k * s->h, x, U, W);
    }
}
