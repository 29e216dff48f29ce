/* conebench — the extended-Filippov studies of a body rolling on a plane (Antali & Stepan 2019,
 * AS below), computed here and returned as numbers and data series; the CLI (filippov map,
 * filippov check) parses and prints.
 *
 *   map:   the wheel's region maps (AS Fig. 12-13), the boundary curves, phase portraits of the
 *          four cases (Fig. 6-9) from simulations of the slipping equations near Σ;
 *   check: the case of the analysis against one Moreau-Jean step's CCP and the compliant slide
 *          law at random rolling states of the wheel and of a sphere (filippov_check.h).
 *
 * A study's run computes everything in memory (nothing on disk); its write puts the data series,
 * the figures (gnuplot.h, scripts of the plots folder) and the Markdown page in DIR, each file at
 * once. Check the folders with cb_fil_study_dirs before the run: bad input and a missing gnuplot
 * are found before any work.
 *
 * Ownership: a study owns its series; cb_fil_map_free / cb_fil_agree_free release them (NULL and
 * zeroed ok). */
#ifndef CONEBENCH_FILIPPOV_STUDY_H
#define CONEBENCH_FILIPPOV_STUDY_H

#include <stddef.h>
#include <stdio.h>

#include "conebench/common.h"
#include "filippov.h"
#include "filippov_check.h"
#include "kv.h"

#define CB_FIL_PHASE_CASES 4     /* phase portraits: one state of each case I-IV */
#define CB_FIL_SERIES_NAME 64    /* bytes of a series' file name */
#define CB_FIL_PATH 4200         /* bytes of a path in the output folder */
#define CB_FIL_MAP_SERIES (4 + 3 * CB_FIL_PHASE_CASES)

/* A data series: the file it goes to (in DIR) and its text (owned). */
typedef struct {
    char name[CB_FIL_SERIES_NAME];
    char *text;
    size_t len;
} cb_fil_series;

/* The region map's tally: cells, those more than 2 % from both boundaries (away), of which the
 * computed case agrees with eq. 69-70 (eq. 62 normalisation), cells that differ from eq. 69-70
 * as printed, cells per case (0 degenerate, 1..4 = I..IV). */
typedef struct {
    long cells, away, agree, printed_disagree, counts[5];
} cb_fil_map_stats;

typedef struct {
    int quick;
    int grid;   /* the region map: (grid + 1)² cells */
    int nstart; /* start points of each phase portrait */
    cb_fil_map_stats stats;
    cb_fil_report phase[CB_FIL_PHASE_CASES]; /* the analysis of each portrait's state */
    cb_fil_wheel_specials specials;
    cb_fil_series series[CB_FIL_MAP_SERIES];
    int nseries;
} cb_fil_map;

/* A rolling body from parameters (key=value, each key once; noun names them in messages:
 * "NOUN KEY: why"): the keys known, then the wheel or the shape state, the keys not given at
 * their defaults (cb_fil_wheel_default, cb_fil_shape_state_default). CB_ERR_INPUT. */
#define CB_FIL_WHEEL_KEYS "m rho g mu Md Ms w2 w3 law mu0 gamma"
#define CB_FIL_BODY_KEYS                                                                          \
    "shape m R L a b c roll pitch yaw g wx wy wz Fx Fy Fz Mx My Mz mu law mu0 gamma balance "      \
    "spin_frame N"
int cb_fil_wheel_of(const cb_kv_view *v, cb_fil_wheel *w, cb_error *err);
int cb_fil_shape_of(const cb_kv_view *v, cb_fil_shape_state *s, cb_error *err);

/* A phase portrait's state: the case's name and its normalised (x, y) (AS §6). */
typedef struct {
    const char *name;
    double x, y;
} cb_fil_phase_state;
extern const cb_fil_phase_state cb_fil_phase_states[CB_FIL_PHASE_CASES];
/* The normalised Md = x of the four panels of AS Fig. 13 (a-d), between the special values
 * 0.2296, 1 and 1.5. */
extern const double cb_fil_sigma_x[4];
/* Md's normalisation against AS's printed equations (one sentence). */
extern const char *const cb_fil_normalisation_note;

/* Check before any work: plots holds the scripts of the figures (CB_ERR_INPUT "--plots: ..."),
 * dir and plots can be written in a gnuplot script (CB_ERR_INPUT), gnuplot is found
 * (CB_ERR_IO); then dir is created (CB_ERR_INPUT when it cannot be). script: the first script
 * the study needs. */
int cb_fil_study_dirs(const char *dir, const char *plots, const char *script, cb_error *err);

/* The map study (quick: coarser grids, fewer start points). CB_ERR_NOMEM, or the library's
 * error. */
int cb_fil_map_run(int quick, cb_fil_map *m, cb_error *err);
/* DIR/: the series, the figures (filippov_regions, filippov_sigma, filippov_phase_<case>, PNG
 * and SVG) and filippov.md. */
int cb_fil_map_write(const cb_fil_map *m, const char *dir, const char *plots, cb_error *err);
void cb_fil_map_free(cb_fil_map *m);

/* The check study: n states of each body, the tallies, the wheel's states as a series. */
#define CB_FIL_AGREE_PASS 0.99 /* agreement required away from the boundary */
typedef struct {
    long n;
    cb_fc_tally wheel, sphere;
    cb_fil_series wheel_states; /* filippov_check_wheel.dat */
    int pass;                   /* both checks ≥ CB_FIL_AGREE_PASS away, both bodies */
} cb_fil_agree;

int cb_fil_agree_run(int quick, cb_fil_agree *a, cb_error *err);
/* DIR/: filippov_check_wheel.dat, the figure filippov_check (PNG, SVG), filippov_check.md. */
int cb_fil_agree_write(const cb_fil_agree *a, const char *dir, const char *plots, cb_error *err);
void cb_fil_agree_free(cb_fil_agree *a);

/* Internal to the studies. The wheel of the map: m = 1, ρ = 0.5, g = 9.81, μ = 0.3, at
 * normalised (x, y) with ω3 = 1 rad/s. */
void cb_fil_map_wheel(double x, double y, cb_fil_wheel *w);
/* Phase portrait `which` of m (three series: trajectories, arrows, rays) and its analysis. */
int cb_fil_phase_run(cb_fil_map *m, int which, cb_error *err);
/* DIR/filippov.md of the map. */
int cb_fil_map_page(const cb_fil_map *m, const char *dir, cb_error *err);
/* A series' stream (open_memstream onto s), closed by
 * cb_fil_series_close (CB_ERR_NOMEM when the stream failed); s->text is freed by the owner. */
FILE *cb_fil_series_open(cb_fil_series *s, const char *name);
int cb_fil_series_close(cb_fil_series *s, FILE *f, cb_error *err);
/* Write s to DIR/name at once; draw the figure DIR/fig with plots/script, `dir` defined before
 * vars (the log is DIR/filippov_gnuplot.log). */
int cb_fil_series_write(const cb_fil_series *s, const char *dir, cb_error *err);
int cb_fil_draw(const char *dir, const char *plots, const char *script, const char *vars,
                const char *fig, cb_error *err);

#endif
