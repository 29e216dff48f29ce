/* conebench — what the Filippov studies share (filippov_study.h): the states and constants of
 * the map, the folders checked before any work, series kept in memory and written at once,
 * figures drawn through the gnuplot driver. */
#include "filippov_study.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base.h"
#include "fileio.h"
#include "gnuplot.h"

#define FIL_GP_LOG "filippov_gnuplot.log"
#define FIL_VARS 1200 /* bytes of a figure's own definitions (and "dir = ...\n") */

const cb_fil_phase_state cb_fil_phase_states[CB_FIL_PHASE_CASES] = {
    {"I", 1.25, 0.3}, {"II", 0.3, 0.3}, {"III", 1.8, 0.5}, {"IV", 0.08, 1.3}};

const double cb_fil_sigma_x[4] = {0.1, 0.6, 1.25, 1.8};
const char *const cb_fil_normalisation_note =
    "Md is the physical driving torque of AS eq. 62 (C1 = -2 Md/(m rho)); AS eq. 69-70 as "
    "printed and the quoted special values |Md| = 3, 2, 0.459 mu m g rho use C1 = -Md/(m rho) "
    "(a factor 2): in eq. 62 normalisation they are 1.5, 1 and 0.2296 mu m g rho";

void cb_fil_map_wheel(double x, double y, cb_fil_wheel *w)
{
    cb_fil_wheel_default(w);
    w->Md = x * w->mu * w->m * w->g * w->rho;
    w->w3 = 1;
    w->w2 = y * w->g * w->mu / w->rho;
}

FILE *cb_fil_series_open(cb_fil_series *s, const char *name)
{
    snprintf(s->name, sizeof s->name, "%s", name);
    s->text = NULL;
    s->len = 0;
    return open_memstream(&s->text, &s->len);
}

int cb_fil_series_close(cb_fil_series *s, FILE *f, cb_error *err)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || !s->text)
        return cb_fail(err, CB_ERR_NOMEM, "%s: out of memory", s->name);
    return CB_OK;
}

int cb_fil_series_write(const cb_fil_series *s, const char *dir, cb_error *err)
{
    char path[CB_FIL_PATH];
    snprintf(path, sizeof path, "%s/%s", dir, s->name);
    return cb_write_file_atomic(path, s->text ? s->text : "", s->len, err);
}

int cb_fil_draw(const char *dir, const char *plots, const char *script, const char *vars,
                const char *fig, cb_error *err)
{
    char q[CB_GP_QUOTED(CB_FIL_PATH)], all[CB_GP_QUOTED(CB_FIL_PATH) + FIL_VARS];
    char log[CB_FIL_PATH], out[CB_FIL_PATH];
    snprintf(log, sizeof log, "%s/%s", dir, FIL_GP_LOG);
    snprintf(out, sizeof out, "%s/%s", dir, fig);
    int rc = cb_gp_str(q, sizeof q, dir, dir, err);
    if (rc == CB_OK && snprintf(all, sizeof all, "dir = %s\n%s", q, vars) >= (int)sizeof all)
        rc = cb_fail(err, CB_ERR_INPUT, "%s: too long for gnuplot", dir);
    cb_gnuplot_job job = {plots, script, all, log, out, NULL};
    return rc == CB_OK ? cb_gnuplot(&job, err) : rc;
}

int cb_fil_study_dirs(const char *dir, const char *plots, const char *script, cb_error *err)
{
    char path[CB_FIL_PATH], q[CB_GP_QUOTED(CB_FIL_PATH)];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", plots, script);
    if (stat(path, &st) != 0)
        return cb_fail(err, CB_ERR_INPUT, "--plots: %s not found (give --plots DIR or set "
                                          "CONEBENCH_HOME)", path);
    int rc = cb_gp_str(q, sizeof q, dir, "-o", err);
    if (rc == CB_OK)
        rc = cb_gp_str(q, sizeof q, path, "--plots", err);
    if (rc == CB_OK)
        rc = cb_gnuplot_check(err);
    if (rc == CB_OK && mkdir(dir, 0777) != 0 && errno != EEXIST)
        rc = cb_fail(err, CB_ERR_INPUT, "-o %s: cannot create: %s", dir, strerror(errno));
    return rc;
}

