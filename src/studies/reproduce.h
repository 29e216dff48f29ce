/* conebench — the reproduce study: every number and figure of Fang & Negrut that the compliant
 * models reproduce, next to the nonsmooth Moreau–Jean model and the closed forms. Each section
 * (brick, disk, incline, regime, spin, spin-hertz, ellipsoid, stack, stiffness) runs its
 * scenarios, writes its series under DIR/data and returns its tables, text and figures in a
 * study report (study.h). The papers' numbers are data (cb_reproduce_papers), each with its
 * source. */
#ifndef CONEBENCH_REPRODUCE_H
#define CONEBENCH_REPRODUCE_H

#include "study.h"

typedef struct {
    const char *dir;   /* output folder; DIR/data and DIR/figures exist */
    const char *plots; /* folder of the gnuplot scripts (compliant_series.gp, regime_map.gp) */
    int quick;         /* coarser grids */
    int jobs;          /* cells at a time in the regime maps, 1..CB_REPRODUCE_JOBS_MAX */
} cb_reproduce_opts;

#define CB_REPRODUCE_JOBS_MAX 16

/* The sections in report order: how many, and the name of section k (NULL out of range). */
int cb_reproduce_section_count(void);
const char *cb_reproduce_section_name(int k);

/* Run section `name` into r (appended). CB_ERR_INPUT for an unknown name; failed runs are
 * recorded in r (r->failures), not returned; CB_ERR_NOMEM/IO when the report itself failed. */
int cb_reproduce_section(const char *name, const cb_reproduce_opts *o, cb_study_report *r,
                         cb_error *err);

/* A number printed in a paper: the value is printed × scale (printed as it appears in the
 * text, so its last digit says its precision). */
typedef struct {
    const char *id;      /* key used by the study */
    const char *label;   /* the row of the report's table */
    const char *printed; /* as in the paper's text */
    double scale;        /* power of ten the paper writes apart (× 10^-5 ...) */
    const char *unit;
    const char *source; /* paper, section, table or figure */
    double rel_extra;   /* allowed difference beyond the last printed digit (relative; NAN: a
                         * documented disagreement, not reproduced), with its reason: */
    const char *why;
} cb_paper_value;

extern const cb_paper_value cb_reproduce_papers[];        /* ends with id NULL */
const cb_paper_value *cb_reproduce_paper(const char *id); /* NULL: unknown */
double cb_paper_value_of(const cb_paper_value *p);        /* printed × scale */

/* Regime-map cells. A cell's code is a cb_regime (1..4), or CB_RP_CELL_FAILED when its run
 * failed or its child process crashed or was killed. */
#define CB_RP_CELL_FAILED (-1)
typedef struct {
    double a0, da, e0, de; /* α (deg) and η_r of cell (i, j): a0 + i da, e0 + j de */
    int na, ne;
} cb_rp_grid;
typedef int (*cb_rp_cell_fn)(const char *model, double alpha_deg, double eta_r);

/* Fill codes[j * na + i] with cell(model, α_i, η_j), run in child processes, jobs (1..16) at
 * a time (the core/child.c pool; a crash costs only the cells its child had not answered; each
 * is recorded in r as failed). Returns CB_OK, CB_ERR_INPUT for an empty grid or a NULL
 * argument, or the error that kept cells from running (they are then failed too). */
int cb_reproduce_map_cells(const char *model, const cb_rp_grid *g, cb_rp_cell_fn cell, int jobs,
                           int *codes, cb_study_report *r);
/* The regime of one sphere-incline cell (model: compliant*, or "nonsmooth"). */
int cb_reproduce_regime_cell(const char *model, double alpha_deg, double eta_r);

#endif
