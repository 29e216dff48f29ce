/* conebench — `conebench plot`: several solvers on one problem, their convergence drawn with
 * the report's figure (figure_conv.c), no campaign written. */
#include "report_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign.h"
#include "fileio.h"
#include "conebench/io.h"
#include "solve_limited.h"

#define PNG_EXT ".png"
#define PNG_MAX_BYTES (64u << 20) /* a figure is far smaller */

void cb_plot_settings_default(cb_plot_settings *ps)
{
    memset(ps, 0, sizeof *ps);
    cb_settings_default(&ps->s);
    ps->caption = stdout;
}

/* The solvers of the comma-separated list (at most CB_PLOT_MAX_SOLVERS, each known, none twice)
 * into names (copies in buf) and solvers; returns their number or CB_ERR_INPUT. */
static int parse_solvers(const char *list, char *buf, size_t len, const char **names,
                         const cb_solver **solvers, int *n, cb_error *err)
{
    *n = 0;
    if (!list || !list[0])
        return cb_fail(err, CB_ERR_INPUT, "--solver: give one or more solvers, comma separated");
    if (strlen(list) >= len)
        return cb_fail(err, CB_ERR_INPUT, "--solver: list too long");
    snprintf(buf, len, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (*n == CB_PLOT_MAX_SOLVERS)
            return cb_fail(err, CB_ERR_INPUT, "--solver: at most %d solvers",
                           CB_PLOT_MAX_SOLVERS);
        if (!(solvers[*n] = cb_solver_find(tok)))
            return cb_fail(err, CB_ERR_INPUT, "--solver: unknown solver '%s' (see conebench "
                                              "list solvers)", tok);
        for (int i = 0; i < *n; i++)
            if (!strcmp(names[i], tok))
                return cb_fail(err, CB_ERR_INPUT, "--solver: '%s' given twice", tok);
        names[(*n)++] = tok;
    }
    return *n ? CB_OK : cb_fail(err, CB_ERR_INPUT, "--solver: no solver in '%s'", list);
}

/* Check what can be checked before any work: the output's name, the solvers. */
static int plot_check(const cb_plot_settings *ps, char *buf, size_t len, const char **names,
                      const cb_solver **solvers, int *n, cb_error *err)
{
    size_t lo = ps->out ? strlen(ps->out) : 0;
    if (lo <= strlen(PNG_EXT) || strcmp(ps->out + lo - strlen(PNG_EXT), PNG_EXT) != 0)
        return cb_fail(err, CB_ERR_INPUT, "-o: the figure's file must end in .png (got '%s')",
                       ps->out ? ps->out : "");
    if (!(ps->s.tol > 0))
        return cb_fail(err, CB_ERR_INPUT, "--tol: must be > 0");
    int rc = parse_solvers(ps->solvers, buf, len, names, solvers, n, err);
    return rc == CB_OK ? cb_gnuplot_check(err) : rc; /* before the solvers run */
}

/* Every solver takes prob (its supports()), else CB_ERR_INPUT naming the solver. */
static int plot_supported(const cb_problem *prob, const char **names, const cb_solver **solvers,
                          int n, cb_error *err)
{
    cb_error why = {{0}};
    for (int i = 0; i < n; i++)
        if (solvers[i]->supports && solvers[i]->supports(prob, &why) != CB_OK)
            return cb_fail(err, CB_ERR_INPUT, "--solver: %s does not take this problem: %s",
                           names[i], why.text);
    return CB_OK;
}

/* Run solver i on prob with a trace; the curve gets the trace (owned) and the status, the
 * caption one line on the run. */
static int plot_one(const cb_plot_settings *ps, const cb_problem *prob, const char *name,
                    const cb_solver *solver, cb_conv_curve *c, cb_error *err)
{
    cb_solution sol = {0};
    cb_info info = {0};
    cb_settings s = ps->s;
    int killed = 0;
    s.trace = 1;
    int rc = cb_solution_alloc(prob, &sol, err);
    if (rc == CB_OK)
        rc = cb_solve_limited(solver, prob, &s, &sol, &info, NULL, &killed, err);
    *c = (cb_conv_curve){name, info.status, NULL, 0};
    if (rc == CB_OK && !killed) {
        c->pts = info.trace, c->n = info.ntrace;
        info.trace = NULL, info.ntrace = 0;
    }
    if (rc == CB_OK)
        fprintf(ps->caption, "  %-20s %-11s %6d iterations  error %.3e  %.4g s%s\n", name,
                cb_status_name(info.status), info.iterations, info.error,
                info.time_setup + info.time_solve, killed ? "  (killed at the time limit)" : "");
    cb_info_free(&info);
    cb_solution_free(&sol);
    return rc;
}

/* The figure drawn in a private temporary folder ($TMPDIR, else /tmp; removed after), then its
 * PNG copied to ps->out at once. */
static int plot_draw(const cb_plot_settings *ps, const cb_problem *prob, const cb_conv_curve *c,
                     int n, cb_error *err)
{
    char dir[4200], data[4300], log[4300], base[4300], png[4300], plots[4200], ttl[700];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/conebench-plot-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return cb_fail(err, CB_ERR_IO, "cannot make a temporary folder %s: %s", dir,
                       strerror(errno));
    snprintf(data, sizeof data, "%s/conv.dat", dir);
    snprintf(log, sizeof log, "%s/gnuplot.log", dir);
    snprintf(base, sizeof base, "%s/conv", dir);
    snprintf(png, sizeof png, "%s/conv.png", dir);
    snprintf(plots, sizeof plots, "%s", ps->plots_dir ? ps->plots_dir : "");
    if (!ps->plots_dir)
        snprintf(plots, sizeof plots, "%s/plots", cb_home_dir());
    snprintf(ttl, sizeof ttl, "Convergence on %s (%s, nc = %d), tol %g",
             prob->name ? prob->name : ps->file, cb_kind_name(prob->kind), prob->nc, ps->s.tol);
    cb_conv_spec sp = {plots, log, data, base, "pngcairo", ttl, ps->s.tol, NULL};
    int drawn = 0, rc = cb_conv_draw(&sp, c, n, &drawn, err);
    char *gone = rc != CB_OK && err ? strstr(err->text, " (all of it in ") : NULL;
    if (gone) /* the log goes with the temporary folder: its last line is in the message */
        *gone = '\0';
    char *bytes = NULL;
    size_t len = 0;
    if (rc == CB_OK && !drawn)
        rc = cb_fail(err, CB_ERR_IO, "%s: no solver recorded a trace point: nothing to draw",
                     ps->file);
    if (rc == CB_OK)
        rc = cb_read_file(png, PNG_MAX_BYTES, &bytes, &len, err);
    if (rc == CB_OK)
        rc = cb_write_file_atomic(ps->out, bytes, len, err);
    free(bytes);
    unlink(data), unlink(log), unlink(png), rmdir(dir);
    return rc;
}

int cb_plot(const cb_plot_settings *ps, cb_error *err)
{
    char buf[4096];
    const char *names[CB_PLOT_MAX_SOLVERS];
    const cb_solver *solvers[CB_PLOT_MAX_SOLVERS];
    cb_conv_curve c[CB_PLOT_MAX_SOLVERS];
    cb_problem *prob = NULL;
    cb_read_settings rs;
    int n = 0, done = 0;
    cb_read_settings_default(&rs);
    int rc = plot_check(ps, buf, sizeof buf, names, solvers, &n, err);
    if (rc == CB_OK)
        rc = cb_read_problem(ps->file, &rs, &prob, err);
    if (rc == CB_OK)
        rc = plot_supported(prob, names, solvers, n, err);
    if (rc == CB_OK)
        fprintf(ps->caption, "%s (%s, nc = %d), tol %g, at most %d iterations and %g s:\n",
                ps->file, cb_kind_name(prob->kind), prob->nc, ps->s.tol, ps->s.max_iter,
                ps->s.time_limit);
    for (; rc == CB_OK && done < n; done++)
        rc = plot_one(ps, prob, names[done], solvers[done], &c[done], err);
    if (rc == CB_OK)
        rc = plot_draw(ps, prob, c, n, err);
    if (rc == CB_OK) {
        fprintf(ps->caption, "Look at where each curve crosses the dashed tolerance line: "
                             "further left is better (right panel: time).");
        cb_conv_caption(c, n, ps->caption);
        fprintf(ps->caption, "\n");
    }
    for (int i = 0; i < done; i++)
        free((void *)c[i].pts);
    cb_problem_free(prob);
    return rc;
}
