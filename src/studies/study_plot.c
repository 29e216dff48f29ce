/* conebench — a study's figures, drawn through the gnuplot driver (study.h). */
#include "study.h"

#include "gnuplot.h"

#define PLOT_PATH 4096
#define PLOT_LOG  "gnuplot.log" /* gnuplot's messages, under DIR/figures */

int cb_study_draw(cb_study_report *r, const char *dir, const char *plots)
{
    char log[PLOT_PATH], out[PLOT_PATH];
    snprintf(log, sizeof log, "%s/figures/%s", dir, PLOT_LOG);
    for (int k = 0; k < r->n && r->rc == CB_OK; k++) {
        const cb_study_block *b = r->block[k];
        if (b->kind != CB_STUDY_FIGURE)
            continue;
        cb_error err;
        cb_error_clear(&err);
        if (snprintf(out, sizeof out, "%s/figures/%s", dir, b->name) >= (int)sizeof out)
            cb_study_fail(r, "figure %s: the output path is too long", b->name);
        else if (cb_gnuplot(&(cb_gnuplot_job){plots, b->script, b->vars, log, out, NULL}, &err) != CB_OK)
            cb_study_fail(r, "%s", err.text);
    }
    return r->rc;
}
