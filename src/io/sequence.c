/* conebench — step sequences: list a step folder, read its steps with their contact identities,
 * carry a solution from one step to the next by identity, describe the contact turnover. */
#define _GNU_SOURCE /* versionsort */
#include "sequence.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "fileio.h"

#define STEP_TAG "-step"
#define META_MAX_BYTES (1L << 20)

static const char *const step_exts[] = {".dat", ".hdf5", ".h5"};
#define NEXTS (int)(sizeof step_exts / sizeof *step_exts)

/* NAME-stepN.EXT: the length of NAME and N, or 0 when name is not a step file. */
static size_t step_name(const char *name, long *step)
{
    const char *dot = strrchr(name, '.');
    int ext = 0;
    while (dot && ext < NEXTS && strcmp(dot, step_exts[ext]) != 0)
        ext++;
    if (!dot || ext == NEXTS)
        return 0;
    const char *tag = NULL;
    for (const char *s = strstr(name, STEP_TAG); s && s < dot; s = strstr(s + 1, STEP_TAG))
        tag = s;
    const char *digits = tag ? tag + strlen(STEP_TAG) : NULL;
    if (!tag || tag == name || digits == dot ||
        strspn(digits, "0123456789") != (size_t)(dot - digits))
        return 0;
    errno = 0;
    long n = strtol(digits, NULL, 10);
    if (errno || n < 0)
        return 0;
    *step = n;
    return (size_t)(tag - name);
}

int cb_sequence_is_dir(const char *path)
{
    DIR *d = path ? opendir(path) : NULL;
    struct dirent *e;
    int found = 0;
    long step;
    while (d && !found && (e = readdir(d)) != NULL)
        found = step_name(e->d_name, &step) > 0;
    if (d)
        closedir(d);
    return found;
}

/* DIR/BASE.EXT when it exists (whatever its type: the reader refuses what is not a regular
 * file, naming it), else NULL (*nomem set when allocation failed). */
static char *sibling(const char *dir, const char *base, const char *ext, int *nomem)
{
    size_t len = strlen(dir) + strlen(base) + strlen(ext) + 2;
    char *p = malloc(len);
    struct stat st;
    if (!p) {
        *nomem = 1;
        return NULL;
    }
    snprintf(p, len, "%s/%s%s", dir, base, ext);
    if (stat(p, &st) == 0)
        return p;
    free(p);
    return NULL;
}

/* A finite number for key at path:line, or CB_ERR_INPUT. */
static int meta_number(const char *path, long line, const char *key, const char *v, double *out,
                       cb_error *err)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(x))
        return cb_fail_at(err, CB_ERR_INPUT, path, line, "%s: '%s' is not a finite number", key, v);
    *out = x;
    return CB_OK;
}

/* The .meta keys a sequence uses (t, siconos_iterations, siconos_error); other keys are kept on
 * disk only. Every non-empty line must be key=value. */
static int read_meta(const char *path, cb_sequence_step *st, cb_error *err)
{
    char *data = NULL, *save = NULL;
    size_t len;
    long line = 0;
    int rc = cb_read_file(path, META_MAX_BYTES, &data, &len, err);
    if (rc == CB_OK)
        rc = cb_text_check(path, data, len, err);
    for (char *s = rc == CB_OK ? data : NULL; s && rc == CB_OK; s = save) {
        save = strchr(s, '\n');
        if (save)
            *save++ = '\0';
        line++;
        char *eq = strchr(s, '=');
        double x;
        if (!*s)
            continue;
        if (!eq || eq == s) {
            rc = cb_fail_at(err, CB_ERR_INPUT, path, line, "'%.40s' is not key=value", s);
            break;
        }
        *eq = '\0';
        if (!strcmp(s, "t") && (rc = meta_number(path, line, s, eq + 1, &x, err)) == CB_OK)
            st->t = x;
        else if (!strcmp(s, "siconos_error") &&
                 (rc = meta_number(path, line, s, eq + 1, &x, err)) == CB_OK)
            st->siconos_error = x;
        else if (!strcmp(s, "siconos_iterations") &&
                 (rc = meta_number(path, line, s, eq + 1, &x, err)) == CB_OK) {
            if (x < 0 || x > INT_MAX || x != floor(x))
                rc = cb_fail_at(err, CB_ERR_INPUT, path, line,
                                "siconos_iterations: '%s' is not a count", eq + 1);
            st->siconos_iterations = (int)x;
        }
    }
    free(data);
    return rc;
}

/* Fill step st of file `file` in dir: path, .ids, .sol, .meta. */
static int add_step(const char *dir, const char *file, long step, cb_sequence_step *st,
                    cb_error *err)
{
    char base[NAME_MAX + 1];
    int nomem = 0, rc = CB_OK;
    const char *dot = strrchr(file, '.');
    snprintf(base, sizeof base, "%.*s", (int)(dot - file), file);
    st->step = step;
    st->t = NAN;
    st->siconos_error = NAN;
    st->siconos_iterations = -1;
    st->path = sibling(dir, file, "", &nomem);
    st->ids = sibling(dir, base, ".ids", &nomem);
    st->sol = sibling(dir, base, ".sol", &nomem);
    char *meta = sibling(dir, base, ".meta", &nomem);
    if (nomem || !st->path)
        rc = cb_fail_at(err, nomem ? CB_ERR_NOMEM : CB_ERR_INPUT, dir, 0, "%s: %s", file,
                        nomem ? "out of memory" : "gone while the folder was listed");
    if (rc == CB_OK && meta)
        rc = read_meta(meta, st, err);
    if (rc == CB_OK && isnan(st->t) && !st->ids && dot && strcmp(dot, ".dat") != 0)
        rc = cb_sequence_fclib_time(st->path, &st->t, err);
    free(meta);
    return rc;
}

static int by_step(const void *a, const void *b)
{
    const cb_sequence_step *x = a, *y = b;
    return (x->step > y->step) - (x->step < y->step);
}

/* Every step file of the scanned names into s (one NAME, each step number once). */
static int collect_steps(cb_sequence *s, struct dirent **names, int n, cb_error *err)
{
    int rc = CB_OK;
    for (int k = 0; k < n && rc == CB_OK; k++) {
        long step;
        size_t nlen = step_name(names[k]->d_name, &step);
        if (!nlen)
            continue;
        if (!s->name && !(s->name = strndup(names[k]->d_name, nlen)))
            return cb_fail_at(err, CB_ERR_NOMEM, s->dir, 0, "out of memory");
        if (strlen(s->name) != nlen || strncmp(s->name, names[k]->d_name, nlen) != 0)
            return cb_fail_at(err, CB_ERR_INPUT, s->dir, 0, "step files of two sequences (%s and "
                              "%s)", s->name, names[k]->d_name);
        if (s->nsteps == CB_SEQUENCE_MAX_STEPS)
            return cb_fail_at(err, CB_ERR_INPUT, s->dir, 0, "more than %d steps",
                              CB_SEQUENCE_MAX_STEPS);
        rc = add_step(s->dir, names[k]->d_name, step, &s->steps[s->nsteps++], err);
    }
    return rc;
}

int cb_sequence_open(const char *dir, cb_sequence **out, cb_error *err)
{
    struct dirent **names = NULL;
    struct stat st;
    *out = NULL;
    if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cb_fail_at(err, CB_ERR_INPUT, dir ? dir : "(null)", 0, "not a directory");
    int n = scandir(dir, &names, NULL, versionsort), rc = CB_OK;
    cb_sequence *s = cb_calloc(1, sizeof *s);
    if (n < 0)
        rc = cb_fail_at(err, CB_ERR_INPUT, dir, 0, "cannot list: %s", strerror(errno));
    else if (!s || !(s->dir = cb_strdup(dir)) ||
             !(s->steps = cb_calloc((size_t)n + 1, sizeof *s->steps)))
        rc = cb_fail_at(err, CB_ERR_NOMEM, dir, 0, "out of memory");
    if (rc == CB_OK)
        rc = collect_steps(s, names, n, err);
    if (rc == CB_OK && s->nsteps == 0)
        rc = cb_fail_at(err, CB_ERR_INPUT, dir, 0, "a directory without step files (NAME-stepN"
                        ".dat, .hdf5 or .h5): neither a problem file nor a step sequence");
    if (rc == CB_OK)
        qsort(s->steps, (size_t)s->nsteps, sizeof *s->steps, by_step);
    for (int k = 1; rc == CB_OK && k < s->nsteps; k++)
        if (s->steps[k].step == s->steps[k - 1].step)
            rc = cb_fail_at(err, CB_ERR_INPUT, dir, 0, "step %ld twice (%s and %s)",
                            s->steps[k].step, s->steps[k - 1].path, s->steps[k].path);
    for (int k = 0; k < n; k++)
        free(names[k]);
    free(names);
    if (rc != CB_OK)
        cb_sequence_free(s);
    else
        *out = s;
    return rc;
}

void cb_sequence_free(cb_sequence *s)
{
    if (!s)
        return;
    for (int k = 0; s->steps && k < s->nsteps; k++) {
        free(s->steps[k].path);
        free(s->steps[k].ids);
        free(s->steps[k].sol);
    }
    free(s->steps);
    free(s->name);
    free(s->dir);
    free(s);
}

int cb_sequence_read_step(const cb_sequence *s, int k, const cb_read_settings *rs,
                          cb_problem **prob, cb_contact_ids *ids, cb_error *err)
{
    memset(ids, 0, sizeof *ids);
    *prob = NULL;
    if (!s || k < 0 || k >= s->nsteps)
        return cb_fail(err, CB_ERR_INPUT, "sequence: no step %d", k);
    const cb_sequence_step *st = &s->steps[k];
    int rc = cb_read_problem(st->path, rs, prob, err);
    if (rc == CB_OK && st->ids)
        rc = cb_contact_ids_read(st->ids, (*prob)->nc, ids, err);
    else if (rc == CB_OK && cb_format_of_path(st->path) == CB_FORMAT_FCLIB)
        rc = cb_sequence_fclib_ids(st->path, (*prob)->nc, ids, err);
    if (rc != CB_OK) {
        cb_problem_free(*prob);
        *prob = NULL;
        cb_contact_ids_free(ids);
    }
    return rc;
}

/* Add step k (problem nc, ids) to the statistics; prev: step k−1's ids (or none). */
static int tally_step(cb_sequence_stats *st, int nc, const cb_contact_ids *ids,
                      const cb_contact_ids *prev, double *compared)
{
    st->nc_min = st->nsteps == 0 || nc < st->nc_min ? nc : st->nc_min;
    st->nc_max = nc > st->nc_max ? nc : st->nc_max;
    st->nc_mean += nc;
    st->nsteps++;
    st->with_ids += ids->id != NULL;
    if (!prev->id || !ids->id)
        return CB_OK;
    long in = cb_contact_ids_missing(ids, prev), out = cb_contact_ids_missing(prev, ids);
    if (in < 0 || out < 0)
        return CB_ERR_NOMEM;
    st->appeared += in;
    st->vanished += out;
    *compared += prev->n + ids->n;
    return CB_OK;
}

int cb_sequence_describe(const cb_sequence *s, const cb_read_settings *rs, cb_sequence_stats *st,
                         cb_error *err)
{
    cb_contact_ids prev = {0}, cur = {0};
    double compared = 0;
    int rc = CB_OK;
    memset(st, 0, sizeof *st);
    for (int k = 0; k < s->nsteps && rc == CB_OK; k++) {
        cb_problem *p = NULL;
        rc = cb_sequence_read_step(s, k, rs, &p, &cur, err);
        if (rc == CB_OK && tally_step(st, p->nc, &cur, &prev, &compared) != CB_OK)
            rc = cb_fail_at(err, CB_ERR_NOMEM, s->dir, 0, "out of memory");
        st->with_sol += s->steps[k].sol != NULL;
        cb_problem_free(p);
        cb_contact_ids_free(&prev);
        prev = cur;
        memset(&cur, 0, sizeof cur);
    }
    cb_contact_ids_free(&prev);
    st->nc_mean = st->nsteps ? st->nc_mean / st->nsteps : 0;
    st->turnover = compared > 0 ? (double)(st->appeared + st->vanished) / compared : 0;
    st->t_first = s->nsteps ? s->steps[0].t : NAN;
    st->t_last = s->nsteps ? s->steps[s->nsteps - 1].t : NAN;
    return rc;
}
