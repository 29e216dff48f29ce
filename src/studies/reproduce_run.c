/* conebench — the reproduce study's runs, series files, table rows and figure scripts. */
#include "reproduce_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "kv.h"
#include "scenario_registry.h"
#include "body.h"
#include "gnuplot.h"

#define RP_EVERY  10   /* default sampling of a series: every 10th step */
#define RP_GP_STR 8192 /* room for one quoted gnuplot string */

const char *rp_path(const rp_ctx *c, const char *sub, const char *name, char *buf)
{
    if (snprintf(buf, RP_PATH, "%s/%s/%s", c->o->dir, sub, name) >= RP_PATH)
        buf[0] = '\0'; /* too long: fopen("") fails and the run is counted as failed */
    return buf;
}

/* "k=v" strings (NULL-terminated) → a key=value list (owned by l). */
static int rp_kv_make(cb_kv_list *l, const char *const *kv, cb_error *err)
{
    int rc = CB_OK;
    for (int k = 0; kv && kv[k] && rc == CB_OK; k++)
        rc = cb_kv_parse(l, kv[k], err);
    return rc;
}

/* ------------------------------------------------------------------ series recorders */

/* Columns of every series file: t, v_travel, R·ω_roll, ω_n, x_travel, ω_roll, |F_E|,
 * T_E along the roll axis, T_spin_E, up angle (deg). Nonsmooth runs leave 7–10 at 0. */
typedef struct {
    FILE *f;
    const cb_scenario *scen;
    long every, step;
    double x0[3];
    double t_from, t_to; /* record only inside [t_from, t_to] */
} rp_rec;

static const char *rp_header = "t,v_travel,R_w_roll,w_n,x_travel,w_roll,FE,TE_roll,T_spin,up_deg\n";

/* c = a × b */
static void rp_cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Ground normal n, roll axis a = n × travel; v·travel, R ω·a, ω·n, (x − x0)·travel, ω·a. */
static void rp_kin(const rp_rec *r, const cb_body *b, double col[6])
{
    static const double ez[3] = {0, 0, 1};
    const cb_scenario *s = r->scen;
    const cb_body *sb = &b[s->subject];
    double n[3], a[3];
    cb_quat_rotate(b[s->ground >= 0 ? s->ground : 0].q, ez, n);
    const double *tr = s->travel;
    rp_cross(n, tr, a);
    double R = cb_shape_bounding_radius(&sb->shape), wr = 0, v = 0, x = 0, wn = 0;
    for (int k = 0; k < 3; k++) {
        v += sb->v[k] * tr[k];
        x += (sb->x[k] - r->x0[k]) * tr[k];
        wr += sb->w[k] * a[k];
        wn += sb->w[k] * n[k];
    }
    col[0] = v;
    col[1] = R * wr;
    col[2] = wn;
    col[3] = x;
    col[4] = wr;
    col[5] = 0;
}

static int rp_want(rp_rec *r, double t)
{
    if (!r->f || t < r->t_from || t > r->t_to)
        return 0;
    return r->step++ % r->every == 0;
}

/* The subject's contact: |F_E|, T_E·(n × travel), T_spin; up = angle of its z axis (deg). */
static int rp_comp_hook(void *ctx, double t, const cb_body *b, int nb,
                        const cb_compliant_contact *c, int nc)
{
    rp_rec *r = ctx;
    (void)nb;
    if (!rp_want(r, t))
        return 0;
    double col[6], fe = 0, te = 0, ts = 0, z[3], a[3];
    static const double ez[3] = {0, 0, 1};
    rp_kin(r, b, col);
    const cb_compliant_contact *p = NULL;
    for (int k = 0; k < nc && !p; k++)
        if (c[k].active && (c[k].j == r->scen->subject || c[k].i == r->scen->subject))
            p = &c[k];
    cb_quat_rotate(b[r->scen->subject].q, ez, z);
    double up = acos(fmin(1.0, fabs(z[2]))) / CB_DEG;
    if (p) {
        rp_cross(p->n, r->scen->travel, a);
        fe = sqrt(p->F_E[0] * p->F_E[0] + p->F_E[1] * p->F_E[1] + p->F_E[2] * p->F_E[2]);
        te = p->T_E[1][0] * a[0] + p->T_E[1][1] * a[1] + p->T_E[1][2] * a[2];
        ts = p->T_spin_E;
    }
    fprintf(r->f, "%.8g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.6g\n", t, col[0], col[1],
            col[2], col[3], col[4], fe, te, ts, up);
    return 0;
}

static int rp_ns_hook(void *ctx, const cb_system *sys, const cb_mj_work *w,
                      const cb_step_record *rec)
{
    rp_rec *r = ctx;
    (void)w;
    if (!rp_want(r, rec->t))
        return 0;
    double col[6];
    rp_kin(r, sys->bodies, col);
    fprintf(r->f, "%.8g,%.10g,%.10g,%.10g,%.10g,%.10g,0,0,0,0\n", rec->t, col[0], col[1], col[2],
            col[3], col[4]);
    return 0;
}

/* ------------------------------------------------------------------ runs */

static int rp_open_rec(const rp_ctx *c, const rp_run *run, const cb_scenario *s, rp_rec *r)
{
    char p[RP_PATH];
    memset(r, 0, sizeof *r);
    r->scen = s;
    r->every = run->every > 0 ? run->every : RP_EVERY;
    r->t_from = run->t_from;
    r->t_to = run->t_to > 0 ? run->t_to : INFINITY;
    if (s->subject >= 0)
        memcpy(r->x0, s->bodies[s->subject].x, sizeof r->x0);
    if (!run->csv)
        return CB_OK;
    r->f = fopen(rp_path(c, "data", run->csv, p), "w");
    if (!r->f)
        return CB_ERR_IO;
    fputs(rp_header, r->f);
    return CB_OK;
}

/* The scenario (and compliant settings) of a run. */
static int rp_build(const rp_run *run, const cb_kv_list *kv, cb_scenario *s,
                    cb_compliant_settings *cs, cb_error *err)
{
    if (strcmp(run->model, "nonsmooth") != 0)
        return cb_compliant_prepare(run->scenario, run->model, kv->items, kv->n, s, cs, err);
    const cb_scenario_def *def = cb_scenario_find(run->scenario);
    return def ? cb_scenario_build(def, kv->items, kv->n, s, err)
               : cb_fail(err, CB_ERR_INPUT, "unknown scenario %s", run->scenario);
}

/* Run one scenario with one model; the series (if any) goes to DIR/data/csv. A failure is
 * recorded in the report (when there is one). */
int rp_do(rp_ctx *c, const rp_run *run, rp_out *o)
{
    cb_kv_list kv = {0};
    cb_scenario s;
    cb_compliant_settings cs;
    cb_error err;
    rp_rec rec;
    cb_error_clear(&err);
    memset(&s, 0, sizeof s);
    memset(o, 0, sizeof *o);
    memset(&rec, 0, sizeof rec);
    int rc = rp_kv_make(&kv, run->kv, &err);
    if (rc == CB_OK)
        rc = rp_build(run, &kv, &s, &cs, &err);
    if (rc == CB_OK && rp_open_rec(c, run, &s, &rec) != CB_OK)
        rc = cb_fail(&err, CB_ERR_IO, "cannot write %s", run->csv);
    if (rc == CB_OK && strcmp(run->model, "nonsmooth") == 0) {
        cb_run_settings rs;
        cb_run_settings_default(&rs);
        rc = cb_nonsmooth_run(&s, &rs, rec.f ? rp_ns_hook : NULL, &rec, &o->ns, &err);
    } else if (rc == CB_OK) {
        rc = cb_compliant_run(&s, &cs, rec.f ? rp_comp_hook : NULL, &rec, &o->c, &err);
    }
    if (rec.f)
        fclose(rec.f);
    cb_scenario_free(&s);
    cb_kv_list_free(&kv);
    o->ok = rc == CB_OK;
    if (rc != CB_OK && c->r)
        cb_study_fail(c->r, "%s/%s: %s", run->scenario, run->model, err.text);
    return rc;
}

/* Column col (1-based) of the last row of DIR/data/name (NAN when absent). */
double rp_last(const rp_ctx *c, const char *name, int col)
{
    char path[RP_PATH], line[1024], last[1024] = "";
    FILE *f = fopen(rp_path(c, "data", name, path), "r");
    if (!f)
        return NAN;
    while (fgets(line, sizeof line, f))
        memcpy(last, line, sizeof last);
    fclose(f);
    char *p = last;
    for (int k = 1; k < col && p; k++)
        p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
    return p ? strtod(p, NULL) : NAN;
}

/* Sample x(t), v(t), ω(t) of a closed form every dt up to t_end into DIR/data/name. */
void rp_closed_form(rp_ctx *c, const char *name, rp_motion m, const void *p, double R, double t_end,
                    double dt)
{
    char path[RP_PATH];
    FILE *f = fopen(rp_path(c, "data", name, path), "w");
    if (!f) {
        cb_study_fail(c->r, "cannot write %s", path);
        return;
    }
    fputs(rp_header, f);
    for (long k = 0; k * dt <= t_end + 1e-12; k++) {
        double x = 0, v = 0, w = 0;
        m(p, k * dt, &x, &v, &w);
        fprintf(f, "%.8g,%.10g,%.10g,%.10g,%.10g,%.10g,0,0,0,0\n", k * dt, v, R * w, w, x, w);
    }
    fclose(f);
}

/* ------------------------------------------------------------------ tables */

void rp_table_head(rp_ctx *c, const char *source)
{
    static const char *const head[] = {"quantity", "paper", "ours", "difference"};
    c->t = cb_study_table_new(c->r, source, 4, head);
}

/* One row of a paper-vs-ours table: the paper's value (reproduce_paper.c), ours, and the
 * difference relative to the paper's value, (ours − paper)/|paper|. */
void rp_row(rp_ctx *c, const char *id, double ours)
{
    const cb_paper_value *p = cb_reproduce_paper(id);
    if (!p) {
        c->r->rc = CB_ERR_INTERNAL; /* a section names a value the data does not have */
        return;
    }
    double paper = cb_paper_value_of(p), d = (ours - paper) / fabs(paper) * 100.0;
    cb_study_cell_add(c->r, c->t, NAN, "%s", p->label);
    cb_study_cell_add(c->r, c->t, paper, "%.4g %s", paper, p->unit);
    cb_study_cell_add(c->r, c->t, ours, "%.5g %s", ours, p->unit);
    cb_study_cell_add(c->r, c->t, d, "%+.2f %%", d);
}

void rp_text_row(rp_ctx *c, const char *what, const char *paper, const char *ours, const char *diff)
{
    const char *s[] = {what, paper, ours, diff};
    for (int k = 0; k < 4; k++)
        cb_study_cell_add(c->r, c->t, NAN, "%s", s[k]);
}

/* ------------------------------------------------------------------ figure definitions */

/* The definitions of a figure (gnuplot lines), built in memory. */
typedef struct {
    FILE *f;
    char *buf;
    size_t len;
    int bad; /* a string could not be quoted */
} rp_vars;

/* Define name = 'value' (one quoting rule: src/bench/gnuplot.h). */
static void gp_set(rp_vars *v, const char *name, const char *value)
{
    char q[RP_GP_STR];
    if (!v->f || cb_gp_str(q, sizeof q, value, name, NULL) != CB_OK) {
        v->bad = 1;
        return;
    }
    fprintf(v->f, "%s = %s\n", name, q);
}

/* Start the definitions with out = DIR/figures/NAME. */
static void gp_open(const rp_ctx *c, const char *name, rp_vars *v)
{
    char p[RP_PATH];
    memset(v, 0, sizeof *v);
    v->f = open_memstream(&v->buf, &v->len);
    gp_set(v, "out", rp_path(c, "figures", name, p));
}

/* Hand the definitions to the report: figure NAME drawn by the plots folder's script. */
static void gp_close(rp_ctx *c, rp_vars *v, const char *script, const char *name, const char *title)
{
    int bad = v->bad || !v->f || ferror(v->f);
    if (v->f && fclose(v->f) != 0)
        bad = 1;
    if (bad) {
        free(v->buf);
        v->buf = NULL;
    }
    if (bad && v->f)
        cb_study_fail(c->r, "figure %s: a title or path cannot be written for gnuplot", name);
    else
        cb_study_figure(c->r, name, title, script, v->buf);
}

/* n series drawn by plots/compliant_series.gp into DIR/figures/NAME.png. */
void rp_figure(rp_ctx *c, const rp_fig *g, const rp_series *s, int n)
{
    char v[64], p[RP_PATH];
    rp_vars d;
    gp_open(c, g->name, &d);
    gp_set(&d, "ttl", g->title);
    gp_set(&d, "note", g->note);
    gp_set(&d, "xl", g->xlabel);
    gp_set(&d, "yl", g->ylabel);
    if (d.f)
        fprintf(d.f, "logx = %d\nn = %d\n", g->logx, n);
    for (int i = 0; i < n && d.f; i++) {
        snprintf(v, sizeof v, "f%d", i + 1);
        gp_set(&d, v, rp_path(c, "data", s[i].file, p));
        fprintf(d.f, "x%d = %d\ny%d = %d\nk%d = %.17g\ns%d = %d\n", i + 1, s[i].x, i + 1, s[i].y,
                i + 1, s[i].k, i + 1, s[i].style);
        snprintf(v, sizeof v, "t%d", i + 1);
        gp_set(&d, v, s[i].title);
    }
    gp_close(c, &d, "compliant_series.gp", g->name, g->title);
}

/* A regime map (DIR/data/NAME.csv, its boundaries NAME_bnd.csv) by plots/regime_map.gp. */
void rp_map_figure(rp_ctx *c, const char *name, const char *ttl, const char *note, double ps)
{
    char p[RP_PATH], b[RP_PATH];
    rp_vars d;
    gp_open(c, name, &d);
    snprintf(b, sizeof b, "%s.csv", name);
    gp_set(&d, "data", rp_path(c, "data", b, p));
    snprintf(b, sizeof b, "%s_bnd.csv", name);
    gp_set(&d, "bnd", rp_path(c, "data", b, p));
    gp_set(&d, "ttl", ttl);
    gp_set(&d, "note", note);
    if (d.f)
        fprintf(d.f, "ps = %g\n", ps);
    gp_close(c, &d, "regime_map.gp", name, ttl);
}
