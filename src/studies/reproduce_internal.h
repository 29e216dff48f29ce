/* conebench — what the reproduce*.c files share (private to src/studies). */
#ifndef CONEBENCH_REPRODUCE_INTERNAL_H
#define CONEBENCH_REPRODUCE_INTERNAL_H

#include "reproduce.h"
#include "compliant.h"
#include "timestepper.h"

#define RP_PATH 4096
#define RP_MU_S 0.25 /* Fang & Negrut's static and kinetic friction coefficients */
#define RP_MU_K 0.2

typedef struct {
    const cb_reproduce_opts *o;
    cb_study_report *r;
    cb_study_table *t; /* the paper-vs-ours table being filled */
} rp_ctx;

/* One run: a scenario with a model (compliant*, or "nonsmooth"), its key=value settings
 * (NULL-terminated), the series file under DIR/data (NULL: none) sampled every `every` steps
 * inside [t_from, t_to] (t_to 0: to the end). */
typedef struct {
    const char *scenario, *model;
    const char *const *kv;
    const char *csv;
    long every;
    double t_from, t_to;
} rp_run;

typedef struct {
    cb_compliant_result c;
    cb_run_result ns;
    int ok;
} rp_out;

/* A series of a figure: columns x, y (1-based) of DIR/data/file, y × k; style 1 line,
 * 2 dashed, 3 thick dotted. */
typedef struct {
    const char *file;
    int x, y;
    double k;
    const char *title;
    int style;
} rp_series;

typedef struct {
    const char *name, *title, *note, *xlabel, *ylabel;
    int logx;
} rp_fig;

/* A 1-D motion x(t), v(t), ω(t) of a closed form. */
typedef void (*rp_motion)(const void *p, double t, double *x, double *v, double *w);

const char *rp_path(const rp_ctx *c, const char *sub, const char *name, char *buf);
int rp_do(rp_ctx *c, const rp_run *run, rp_out *o);
double rp_last(const rp_ctx *c, const char *name, int col);
void rp_closed_form(rp_ctx *c, const char *name, rp_motion m, const void *p, double R, double t_end,
                    double dt);
void rp_figure(rp_ctx *c, const rp_fig *f, const rp_series *s, int n);
void rp_map_figure(rp_ctx *c, const char *name, const char *ttl, const char *note, double ps);
void rp_table_head(rp_ctx *c, const char *source);
void rp_row(rp_ctx *c, const char *id, double ours);
void rp_text_row(rp_ctx *c, const char *what, const char *paper, const char *ours,
                 const char *diff);

void rp_brick(rp_ctx *c);
void rp_disk(rp_ctx *c);
void rp_incline(rp_ctx *c);
void rp_regime(rp_ctx *c);
void rp_spin(rp_ctx *c);
void rp_spin_hertz(rp_ctx *c);
void rp_ellipsoid(rp_ctx *c);
void rp_stack(rp_ctx *c);
void rp_stiffness(rp_ctx *c);

#endif
