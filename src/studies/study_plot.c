/* conebench — a study's figures: gnuplot string quoting and drawing (study.h). */
#include "study.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "child.h"
#include "fileio.h"

#define PLOT_PATH 4096
#define PLOT_DEADLINE_S 120.0 /* a figure that takes longer is a failure */

void cb_study_gp_string(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* In the child: gnuplot on the script (argv, no shell); its messages go to the parent. */
static int gnuplot_child(void *arg, int fd)
{
    char *argv[] = {"gnuplot", arg, NULL};
    if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
        return 127;
    execvp(argv[0], argv);
    return 127;
}

/* The one place this layer starts gnuplot. TODO(lead): swap for the src/bench gnuplot driver
 * (branch i27-filippov) when it lands. */
static int run_gnuplot(cb_study_report *r, const char *name, char *script_path)
{
    cb_child_result res;
    cb_error err;
    cb_error_clear(&err);
    int rc = cb_child_run(gnuplot_child, script_path, PLOT_DEADLINE_S, &res, &err);
    if (rc == CB_OK && (res.end != CB_CHILD_EXITED || res.code != 0))
        cb_study_fail(r, "gnuplot failed for %s (%s %d): %s", name,
                      res.end == CB_CHILD_EXITED ? "exit status" : "signal", res.code,
                      res.data ? res.data : "");
    else if (rc != CB_OK)
        cb_study_fail(r, "gnuplot for %s: %s", name, err.text);
    cb_child_result_free(&res);
    return rc;
}

int cb_study_draw(cb_study_report *r, const char *dir, cb_error *err)
{
    char path[PLOT_PATH];
    for (int k = 0; k < r->n && r->rc == CB_OK; k++) {
        const cb_study_block *b = r->block[k];
        if (b->kind != CB_STUDY_FIGURE)
            continue;
        if (snprintf(path, sizeof path, "%s/figures/%s.gp", dir, b->name) >= (int)sizeof path)
            return cb_fail(err, CB_ERR_INPUT, "output folder: path too long");
        int rc = cb_write_file_atomic(path, b->script, strlen(b->script), err);
        if (rc != CB_OK)
            return rc;
        run_gnuplot(r, b->name, path);
    }
    return r->rc;
}
