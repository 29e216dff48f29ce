/* conebench — the report's section on solvers inside the time loop (loop.h): per loop line a
 * verdict (the cheapest solver and tolerance indistinguishable from the reference), a table,
 * the per-step figures (iterations and CPU time per step) and the drift figure. */
#include "loop.h"
#include "report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "markdown.h"

#define DRIFT_FLOOR 1e-17 /* a drift of exactly 0 is drawn here on the log axes */
#define REF_COLOUR "#999999" /* grey: black is siconos-nsgs's */
#define STEP_BINS 200     /* per-step figures: means over this many bins of simulated time */
#define MEASURE_COL 8     /* the table's "scenario measure" column (the stop columns follow it) */
#define PATH_POINTS 2000  /* the path figure draws about this many steps of a trajectory */
#define PATH_HEADER_END ",x,y" /* the header of a series that records the subject's path */

/* One (solver label, tolerance) of a loop line: its first repetition's row, the least CPU time
 * over its repetitions, and whether every repetition is indistinguishable. */
typedef struct {
    const cb_loop_row *r;
    double cpu;
    int reps, indist;
} entry;

/* The entries of loop line `tag` (reference apart) into e (n rows at most); returns the count;
 * *ref = the reference's row or NULL. */
static int entries_of(const cb_loop_row *rows, int n, const char *tag, entry *e,
                      const cb_loop_row **ref)
{
    int m = 0;
    *ref = NULL;
    for (int i = 0; i < n; i++) {
        const cb_loop_row *r = &rows[i];
        if (strcmp(r->loop, tag))
            continue;
        if (r->reference) {
            *ref = r;
            continue;
        }
        int k = 0;
        while (k < m && !(e[k].r->tol == r->tol && !strcmp(e[k].r->label, r->label)))
            k++;
        if (k == m)
            e[m++] = (entry){r, INFINITY, 0, 1};
        e[k].cpu = fmin(e[k].cpu, r->cpu_s);
        e[k].reps++;
        e[k].indist &= r->indistinguishable;
    }
    return m;
}

/* What the scenario measures, as a table cell: the stop distance and its error against the
 * closed form, or the pile's height and angle. */
static void measure_cell(FILE *md, const cb_loop_row *r)
{
    if (!isnan(r->x_stop_closed))
        cb_md_cellf(md, "x_stop %.9g m (%.1e)", r->x_stop, r->x_stop_err);
    else if (!isnan(r->height_over_phi))
        cb_md_cellf(md, "height %.4g φ, angle %.2f°", r->height_over_phi, r->pile_angle_deg);
    else
        cb_md_cell(md, "—");
}

/* The stop cells of a line with a closed-form stop: the heading error (°; the closed form's is 0)
 * and d_stop with its relative error (d_stop − d_stop_closed) / d_stop_closed. */
static void stop_cells(FILE *md, const cb_loop_row *r)
{
    if (isnan(r->heading_deg))
        cb_md_cell(md, "—");
    else
        cb_md_cellf(md, "%.6g", r->heading_deg);
    if (isnan(r->d_stop))
        cb_md_cell(md, "—");
    else
        cb_md_cellf(md, "%.9g (%+.3e)", r->d_stop,
                    (r->d_stop - r->d_stop_closed) / r->d_stop_closed);
}

/* One row of a loop line's table (cpu: the least over the repetitions; stop: with the stop
 * cells). */
static void entry_row(FILE *md, const cb_loop_row *r, double cpu, int stop, const char *verdict)
{
    cb_md_cell(md, r->reference ? "reference " CB_LOOP_REF_SOLVER : r->label);
    cb_md_cellf(md, "%.0e", r->tol);
    cb_md_cell(md, r->status);
    if (isfinite(cpu))
        cb_md_cellf(md, "%.3f", cpu);
    else
        cb_md_cell(md, "—");
    cb_md_cellf(md, "%lld", r->iterations);
    cb_md_cellf(md, "%ld", r->steps);
    cb_md_cellf(md, "%ld", r->unsolved);
    cb_md_cellf(md, "%.1e", r->max_error);
    measure_cell(md, r);
    if (stop)
        stop_cells(md, r);
    if (isnan(r->drift_pos_rel)) /* the reference, or a trajectory that did not finish */
        cb_md_cell(md, "—"), cb_md_cell(md, "—");
    else
        cb_md_cellf(md, "%.1e", r->drift_pos_rel), cb_md_cellf(md, "%.1e", r->drift_energy);
    cb_md_cell(md, verdict);
    cb_md_end(md);
}

/* The cheapest indistinguishable entries (least CPU time): *best, *next (-1: none); the entry
 * whose final positions come closest: *near. */
static void rank(const entry *e, int m, int *best, int *next, int *near)
{
    *best = *next = *near = -1;
    for (int k = 0; k < m; k++) {
        if (e[k].indist && !strcmp(e[k].r->status, "ok")) {
            if (*best < 0 || e[k].cpu < e[*best].cpu)
                *next = *best, *best = k;
            else if (*next < 0 || e[k].cpu < e[*next].cpu)
                *next = k;
        }
        if (!isnan(e[k].r->drift_pos_rel) &&
            (*near < 0 || e[k].r->drift_pos_rel < e[*near].r->drift_pos_rel))
            *near = k;
    }
}

/* The verdict line of a loop line: the cheapest indistinguishable entry and the next one (CPU
 * times are noisy on a loaded machine); when none is, the one whose final positions come
 * closest. */
static void verdict_line(FILE *md, const entry *e, int m, const cb_loop_row *ref)
{
    int best, next, near;
    rank(e, m, &best, &next, &near);
    if (!ref || strcmp(ref->status, "ok")) {
        fprintf(md, "**No verdict:** the reference trajectory did not finish (status %s).\n\n",
                ref ? ref->status : "missing");
        return;
    }
    fprintf(md, "**Cheapest solver and tolerance indistinguishable from the reference: ");
    if (best >= 0) {
        fprintf(md, "%s at tol %.0e** (%.3f s CPU for %ld steps; final positions %.1e radii and "
                    "final energy %.1e of the dissipated energy from the reference's)",
                e[best].r->label, e[best].r->tol, e[best].cpu, e[best].r->steps,
                e[best].r->drift_pos_rel, e[best].r->drift_energy);
        if (next >= 0)
            fprintf(md, "; next: %s at tol %.0e (%.3f s)", e[next].r->label, e[next].r->tol,
                    e[next].cpu);
    } else {
        fprintf(md, "none** of the %d tried", m);
        if (near >= 0)
            fprintf(md, "; the closest final positions are %s's at tol %.0e (%.1e radii, energy "
                        "%.1e)", e[near].r->label, e[near].r->tol, e[near].r->drift_pos_rel,
                    e[near].r->drift_energy);
    }
    fprintf(md, ".\n\n");
}

/* 1 when r's pile height and angle lie within CB_LOOP_PILE_SHAPE of the reference's. */
static int same_shape(const cb_loop_row *r, const cb_loop_row *ref)
{
    return !strcmp(r->status, "ok") &&
           fabs(r->height_over_phi - ref->height_over_phi) <=
               CB_LOOP_PILE_SHAPE * fabs(ref->height_over_phi) &&
           fabs(r->pile_angle_deg - ref->pile_angle_deg) <=
               CB_LOOP_PILE_SHAPE * fabs(ref->pile_angle_deg);
}

/* For a pile: the cheapest trajectory of the same macroscopic shape as the reference's. */
static void shape_line(FILE *md, const entry *e, int m, const cb_loop_row *ref)
{
    int best = -1;
    if (!ref || strcmp(ref->status, "ok") || isnan(ref->height_over_phi))
        return;
    for (int k = 0; k < m; k++)
        if (same_shape(e[k].r, ref) && (best < 0 || e[k].cpu < e[best].cpu))
            best = k;
    fprintf(md, "Pile shape only (height and angle within %.0f %% of the reference's, positions "
                "aside): cheapest ", 100 * CB_LOOP_PILE_SHAPE);
    if (best < 0)
        fprintf(md, "none.\n\n");
    else
        fprintf(md, "%s at tol %.0e (%.3f s CPU; height %.4g φ, angle %.2f°, reference %.4g φ, "
                    "%.2f°).\n\n", e[best].r->label, e[best].r->tol, e[best].cpu,
                e[best].r->height_over_phi, e[best].r->pile_angle_deg, ref->height_over_phi,
                ref->pile_angle_deg);
}

/* The closed form's stop distance of the line (every row has the same), NaN when it has none:
 * then its table has no stop columns. */
static double closed_stop_of(const entry *e, int m, const cb_loop_row *ref)
{
    double d = ref ? ref->d_stop_closed : NAN;
    for (int k = 0; k < m && isnan(d); k++)
        d = e[k].r->d_stop_closed;
    return d;
}

/* The table of a loop line: its reference, then each entry; the stop columns when the line has
 * a closed-form stop. */
static void loop_table(FILE *md, const entry *e, int m, const cb_loop_row *ref)
{
    static const char *const head[12] = {
        "solver", "tol", "status", "CPU time [s]", "iterations", "steps", "steps unsolved",
        "worst step error", "scenario measure", "position drift / radius",
        "energy drift", "indistinguishable"};
    const char *h[14];
    int stop = !isnan(closed_stop_of(e, m, ref)), n = 0;
    for (int k = 0; k < 12; k++) {
        h[n++] = head[k];
        if (stop && k == MEASURE_COL)
            h[n++] = "heading error [°]", h[n++] = "d_stop [m] (vs closed form)";
    }
    cb_md_head(md, n, h, stop ? "lrlrrrrrlrlrrl" : "lrlrrrrrlrrl");
    if (ref)
        entry_row(md, ref, ref->cpu_s, stop, "(reference)");
    for (int k = 0; k < m; k++)
        entry_row(md, e[k].r, e[k].cpu, stop, e[k].indist ? "yes" : "no");
}

/* The definition line "name = S" (s quoted for gnuplot) appended to f. */
static int gp_var(FILE *f, const char *name, const char *s, cb_error *err)
{
    size_t len = CB_GP_QUOTED(strlen(s));
    char *q = malloc(len);
    int rc = q ? cb_gp_str(q, len, s, name, err) : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK)
        fprintf(f, "%s = %s\n", name, q);
    free(q);
    return rc;
}

/* Curve i's title and colour definitions (t<i>, c<i>). */
static int gp_curve(FILE *f, int i, const char *title, const char *colour, cb_error *err)
{
    char name[32];
    snprintf(name, sizeof name, "t%d", i);
    int rc = gp_var(f, name, title, err);
    snprintf(name, sizeof name, "c%d", i);
    return rc == CB_OK ? gp_var(f, name, colour, err) : rc;
}

/* Draw out (path without extension) with plots/script after the definitions written to vars
 * (released here). */
static int draw(const cb_report_ctx *x, cb_outbuf *vars, const char *script, const char *out,
                const char *ttl, cb_error *err)
{
    char log[4200];
    int rc = gp_var(vars->f, "out", out, err);
    if (rc == CB_OK)
        rc = gp_var(vars->f, "ttl", ttl, err);
    int bad = fclose(vars->f) != 0; /* vars->buf now holds the definitions */
    vars->f = NULL;
    if (rc == CB_OK && bad)
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    snprintf(log, sizeof log, "%s/figures/%s", x->s->dir, CB_REPORT_GNUPLOT_LOG);
    cb_gnuplot_job job = {x->plots, script, vars->buf, log, out, x->batch};
    if (rc == CB_OK)
        rc = cb_gnuplot(&job, err);
    cb_outbuf_discard(vars);
    return rc;
}

/* A loop line's figures are named after it. */
typedef struct {
    const char *tag;
    char slug[96];
    const entry *e;
    int m;
    const cb_loop_row *ref;
} loop_view;

/* Curve i of a per-step figure: the series file of row r. */
static int step_curve(const cb_report_ctx *x, FILE *f, int i, const cb_loop_row *r,
                      cb_error *err)
{
    char name[32], path[4200], title[300];
    cb_figure_style st;
    cb_figure_style_of(r->label, &st);
    snprintf(name, sizeof name, "f%d", i);
    snprintf(path, sizeof path, "%s/%s/%s.csv", x->s->dir, CB_LOOP_DIR, r->id);
    if (r->reference)
        snprintf(title, sizeof title, "reference (%s, tol %.0e)", r->solver, r->tol);
    else
        snprintf(title, sizeof title, "%s", r->label);
    int rc = gp_var(f, name, path, err);
    return rc == CB_OK ? gp_curve(f, i, title, r->reference ? REF_COLOUR : st.colour, err) : rc;
}

/* Per-step iterations and CPU time of every finished trajectory at tolerance tol (and the
 * reference's), figure number ti of the line. */
static int steps_figure(const cb_report_ctx *x, const loop_view *v, double tol, int ti,
                        FILE *md, cb_error *err)
{
    char out[4200], ttl[512];
    cb_outbuf vars = {0};
    int rc = cb_outbuf_open(&vars, err), n = 0;
    double t_max = 0;
    if (rc == CB_OK && v->ref && !strcmp(v->ref->status, "ok")) {
        rc = step_curve(x, vars.f, ++n, v->ref, err);
        t_max = v->ref->t_end;
    }
    for (int k = 0; k < v->m && rc == CB_OK; k++)
        if (v->e[k].r->tol == tol && !strcmp(v->e[k].r->status, "ok")) {
            rc = step_curve(x, vars.f, ++n, v->e[k].r, err);
            t_max = fmax(t_max, v->e[k].r->t_end);
        }
    if (rc != CB_OK || n == 0) {
        cb_outbuf_discard(&vars);
        return rc;
    }
    fprintf(vars.f, "n = %d\nbin = %.17g\n", n, t_max / STEP_BINS);
    snprintf(out, sizeof out, "%s/figures/loop-%s-steps-tol%d", x->s->dir, v->slug, ti);
    snprintf(ttl, sizeof ttl, "Solvers inside the time loop: %s, tol %.0e per step", v->tag, tol);
    rc = draw(x, &vars, "loop_steps.gp", out, ttl, err);
    if (rc == CB_OK)
        fprintf(md, "![per-step iterations and CPU time, tol %.0e](figures/loop-%s-steps-tol%d."
                    "png)\n\n*Per step of %s at tol %.0e (the reference at %.0e in grey): means "
                    "over %d bins of simulated time: (a) the solver's iterations (0 on a step "
                    "without contact or solved by its warm start), (b) the step's CPU time (detection, assembly and "
                    "solve; the CPU time of a solver run in a server child, as the Siconos "
                    "adapters are, is not in it).*\n\n",
                tol, v->slug, ti, v->tag, tol, CB_LOOP_REF_TOL, STEP_BINS);
    return rc;
}

static int cmp_entry_tol(const void *a, const void *b)
{
    double u = ((const entry *)a)->r->tol, w = ((const entry *)b)->r->tol;
    return (u > w) - (u < w);
}

/* The drift data: one block per solver label (tol, drift_pos_rel, drift_energy by increasing
 * tol), the labels' curve definitions into vars; *blocks = their number. */
static int drift_data(const loop_view *v, FILE *data, FILE *vars, int *blocks, cb_error *err)
{
    entry *byt = cb_malloc_array((size_t)v->m + 1, sizeof *byt);
    *blocks = 0;
    if (!byt)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    memcpy(byt, v->e, (size_t)v->m * sizeof *byt);
    qsort(byt, (size_t)v->m, sizeof *byt, cmp_entry_tol);
    int rc = CB_OK;
    for (int k = 0; k < v->m && rc == CB_OK; k++) {
        int first = 1, rows = 0;
        for (int j = 0; j < k; j++)
            first &= strcmp(v->e[j].r->label, v->e[k].r->label) != 0;
        for (int j = 0; first && j < v->m; j++)
            if (!strcmp(byt[j].r->label, v->e[k].r->label) && !isnan(byt[j].r->drift_pos_rel))
                fprintf(data, "%s%.17g,%.17g,%.17g\n", rows++ || !*blocks ? "" : "\n\n",
                        byt[j].r->tol, byt[j].r->drift_pos_rel, byt[j].r->drift_energy);
        if (rows) {
            cb_figure_style st;
            cb_figure_style_of(v->e[k].r->label, &st);
            rc = gp_curve(vars, ++*blocks, v->e[k].r->label, st.colour, err);
        }
    }
    free(byt);
    return rc;
}

/* Drift of the final positions and energy against the tolerance, one curve per solver. */
static int drift_figure(const cb_report_ctx *x, const loop_view *v, FILE *md, cb_error *err)
{
    char data[4200], out[4200], ttl[512];
    cb_outbuf d = {0}, vars = {0};
    snprintf(data, sizeof data, "%s/figures/loop-%s-drift.csv", x->s->dir, v->slug);
    snprintf(out, sizeof out, "%s/figures/loop-%s-drift", x->s->dir, v->slug);
    int rc = cb_outbuf_open(&d, err), n = 0;
    if (rc == CB_OK)
        rc = cb_outbuf_open(&vars, err);
    if (rc == CB_OK)
        rc = drift_data(v, d.f, vars.f, &n, err);
    if (rc == CB_OK && n > 0)
        rc = cb_outbuf_commit(&d, data, err);
    if (rc == CB_OK && n > 0) {
        fprintf(vars.f, "n = %d\npos_max = %.17g\nenergy_max = %.17g\nfloor = %.17g\n", n,
                CB_LOOP_DRIFT_POS, CB_LOOP_DRIFT_ENERGY, DRIFT_FLOOR);
        rc = gp_var(vars.f, "data", data, err);
        snprintf(ttl, sizeof ttl, "Drift from the reference trajectory (%s, tol %.0e): %s",
                 CB_LOOP_REF_SOLVER, CB_LOOP_REF_TOL, v->tag);
        if (rc == CB_OK)
            rc = draw(x, &vars, "loop_drift.gp", out, ttl, err);
    }
    if (rc == CB_OK && n > 0)
        fprintf(md, "![drift against the tolerance](figures/loop-%s-drift.png)\n\n*How far each "
                    "trajectory of %s ends from the reference, against the tolerance of every "
                    "step: (a) the largest distance between a body's final position and the "
                    "reference's, over the smallest body radius; (b) the final energy's "
                    "difference over the energy the reference dissipated. Below the dashed lines "
                    "(%.0e, %.0e) a trajectory counts as indistinguishable; a drift of exactly 0 "
                    "is drawn at %.0e. Finished trajectories only.*\n\n",
                v->slug, v->tag, CB_LOOP_DRIFT_POS, CB_LOOP_DRIFT_ENERGY, DRIFT_FLOOR);
    cb_outbuf_discard(&d);
    cb_outbuf_discard(&vars);
    return rc;
}

/* 1 when row r finished and its series records the subject's path (x, y: series written before
 * those columns do not). */
static int traced(const cb_report_ctx *x, const cb_loop_row *r)
{
    char path[4200], line[256];
    snprintf(path, sizeof path, "%s/%s/%s.csv", x->s->dir, CB_LOOP_DIR, r->id);
    FILE *f = strcmp(r->status, "ok") ? NULL : fopen(path, "re");
    size_t len = f && fgets(line, sizeof line, f) ? strcspn(line, "\r\n") : 0;
    if (f)
        fclose(f);
    return len >= strlen(PATH_HEADER_END) &&
           !strncmp(line + len - strlen(PATH_HEADER_END), PATH_HEADER_END, strlen(PATH_HEADER_END));
}

/* Path curve i: the series of row r (every s-th step), its title (with the tolerance when the
 * line has several) and colour; its heading error appended to the caption cap. */
static int path_curve(const cb_report_ctx *x, FILE *f, int i, const cb_loop_row *r, int tols,
                      FILE *cap, cb_error *err)
{
    char name[32], path[4200], title[300];
    cb_figure_style st;
    cb_figure_style_of(r->label, &st);
    snprintf(path, sizeof path, "%s/%s/%s.csv", x->s->dir, CB_LOOP_DIR, r->id);
    if (r->reference)
        snprintf(title, sizeof title, "reference (%s, tol %.0e)", r->solver, r->tol);
    else if (tols)
        snprintf(title, sizeof title, "%s, tol %.0e", r->label, r->tol);
    else
        snprintf(title, sizeof title, "%s", r->label);
    snprintf(name, sizeof name, "f%d", i);
    int rc = gp_var(f, name, path, err);
    fprintf(f, "s%d = %ld\n", i, r->steps / PATH_POINTS + 1);
    if (isnan(r->heading_deg))
        fprintf(cap, "%s%s did not stop", i > 1 ? "; " : "", title);
    else
        fprintf(cap, "%s%s %.6g°", i > 1 ? "; " : "", title, r->heading_deg);
    return rc == CB_OK ? gp_curve(f, i, title, r->reference ? REF_COLOUR : st.colour, err) : rc;
}

/* The subject's path in the ground plane (along the launch direction and across it, equal
 * axes) of every finished trajectory whose series records it, and the closed form's straight
 * line from the start to its stop d_closed along the launch direction. */
static int path_figure(const cb_report_ctx *x, const loop_view *v, double closed, FILE *md,
                       cb_error *err)
{
    char data[4200], out[4200], ttl[512];
    cb_outbuf d = {0}, vars = {0}, cap = {0};
    snprintf(data, sizeof data, "%s/figures/loop-%s-path.csv", x->s->dir, v->slug);
    snprintf(out, sizeof out, "%s/figures/loop-%s-path", x->s->dir, v->slug);
    int rc = cb_outbuf_open(&d, err), n = 0, tols = 0;
    if (rc == CB_OK)
        rc = cb_outbuf_open(&vars, err);
    if (rc == CB_OK)
        rc = cb_outbuf_open(&cap, err);
    for (int k = 1; k < v->m; k++)
        tols |= v->e[k].r->tol != v->e[0].r->tol;
    if (rc == CB_OK && v->ref && traced(x, v->ref))
        rc = path_curve(x, vars.f, ++n, v->ref, tols, cap.f, err);
    for (int k = 0; k < v->m && rc == CB_OK; k++)
        if (traced(x, v->e[k].r))
            rc = path_curve(x, vars.f, ++n, v->e[k].r, tols, cap.f, err);
    if (rc == CB_OK && n > 0) {
        fprintf(d.f, "0,0\n%.17g,0\n", closed);
        rc = cb_outbuf_commit(&d, data, err);
    }
    if (rc == CB_OK && n > 0) {
        fprintf(vars.f, "n = %d\n", n);
        rc = gp_var(vars.f, "data", data, err);
        snprintf(ttl, sizeof ttl, "Path of the subject in the ground plane: %s", v->tag);
        if (rc == CB_OK)
            rc = draw(x, &vars, "loop_path.gp", out, ttl, err);
    }
    int bad = cap.f && fclose(cap.f) != 0; /* cap.buf now holds the heading errors */
    cap.f = NULL;
    if (rc == CB_OK && bad)
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK && n > 0)
        fprintf(md, "![path in the ground plane](figures/loop-%s-path.png)\n\n*The subject's "
                    "path in the ground plane for %s: x its displacement along the launch "
                    "direction, y across it (equal axes), from each trajectory's series; the "
                    "closed form (dotted, orange) runs straight to its stop at %.9g m; paths that "
                    "coincide hide each other. Heading errors at "
                    "the stop (the angle of the stop displacement from the launch direction): "
                    "%s.*\n\n", v->slug, v->tag, closed, cap.buf);
    cb_outbuf_discard(&d);
    cb_outbuf_discard(&vars);
    cb_outbuf_discard(&cap);
    return rc;
}

/* The section of loop line tag: verdict, reference, table, figures. */
static int loop_section(const cb_report_ctx *x, const cb_loop_row *rows, int n, const char *tag,
                        entry *e, FILE *md, cb_error *err)
{
    loop_view v = {tag, "", e, 0, NULL};
    v.m = entries_of(rows, n, tag, e, &v.ref);
    cb_figure_slug(tag, v.slug, sizeof v.slug);
    fprintf(md, "\n### %s\n\n", tag);
    verdict_line(md, e, v.m, v.ref);
    shape_line(md, e, v.m, v.ref);
    if (v.ref && !isnan(v.ref->x_stop_closed))
        fprintf(md, "Reference stop distance %.9g m, closed form (Acary & Bourrier §6.1) %.9g m: "
                    "relative error %.2e, the scheme's own at the scenario's h.\n\n",
                v.ref->x_stop, v.ref->x_stop_closed, v.ref->x_stop_err);
    double closed = closed_stop_of(e, v.m, v.ref);
    if (!isnan(closed))
        fprintf(md, "Heading error: the angle between the subject's displacement at its stop and "
                    "its launch direction (the closed form's path is straight: 0°); d_stop: its "
                    "distance from the start, and (d_stop − d_closed) / d_closed against the "
                    "closed form's d_closed = %.9g m. A box or pyramid friction bends the path "
                    "toward a facet normal.\n\n", closed);
    loop_table(md, e, v.m, v.ref);
    fprintf(md, "\n");
    double tols[CB_REPORT_MAX_TOLS];
    int nt = 0;
    for (int k = 0; k < v.m; k++) {
        int seen = 0;
        for (int j = 0; j < nt; j++)
            seen |= tols[j] == e[k].r->tol;
        if (!seen && nt < CB_REPORT_MAX_TOLS)
            tols[nt++] = e[k].r->tol;
    }
    int rc = x->s->figures ? drift_figure(x, &v, md, err) : CB_OK;
    if (rc == CB_OK && x->s->figures && !isnan(closed))
        rc = path_figure(x, &v, closed, md, err);
    for (int k = 0; k < nt && rc == CB_OK && x->s->figures; k++)
        rc = steps_figure(x, &v, tols[k], k, md, err);
    return rc;
}

int cb_report_loops(const cb_report_ctx *x, FILE *md, cb_error *err)
{
    cb_loop_row *rows = NULL;
    int n = 0, rc = cb_loop_rows_read(x->s->dir, &rows, &n, err);
    entry *e = rc == CB_OK && n ? cb_malloc_array((size_t)n, sizeof *e) : NULL;
    if (rc != CB_OK || n == 0 || !e) {
        free(rows);
        return rc == CB_OK && n ? cb_fail(err, CB_ERR_NOMEM, "out of memory") : rc;
    }
    fprintf(md, "\n## Solvers inside the time loop\n\nEach solver and tolerance drove its own "
                "trajectory of the scenario (Moreau–Jean, the scenario's h and θ, each step's "
                "CCP solved to the tolerance and warm-started from the previous step); the "
                "reference is the same scenario with %s at tol %.0e. CPU time: the whole "
                "trajectory (least over repetitions). Drifts compare the trajectory's end with "
                "the reference's: position drift = max over bodies of ‖x − x_ref‖ over the "
                "smallest body radius, energy drift = |E − E_ref| over the energy the "
                "reference dissipated. **Indistinguishable** means finished, position drift ≤ "
                "%.0e and energy drift ≤ %.0e (about the scheme's own error: where a line has a "
                "closed form, its section gives the reference's distance from it); the verdict "
                "names the cheapest such solver and tolerance. Per-step series: "
                "%s/<id>.csv.\n", CB_LOOP_REF_SOLVER, CB_LOOP_REF_TOL, CB_LOOP_DRIFT_POS,
            CB_LOOP_DRIFT_ENERGY, CB_LOOP_DIR);
    for (int i = 0; i < n && rc == CB_OK; i++) {
        int first = 1;
        for (int j = 0; j < i; j++)
            first &= strcmp(rows[j].loop, rows[i].loop) != 0;
        if (first)
            rc = loop_section(x, rows, n, rows[i].loop, e, md, err);
    }
    free(e);
    free(rows);
    return rc;
}
