/* conebench — reference solutions (reference.h): the second-order solvers (their hybrids
 * nsn+nsgs and ipm+nsn) run in turn, the judge keeps the best, nsn+nsgs polishes it; and where
 * a campaign finds them. */
#include "reference.h"
#include "base.h"
#include "solve_limited.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One solver run of the reference: solver, one option (or none), its label in the file. */
typedef struct {
    const char *solver, *key, *value, *label;
} ref_run;

static const ref_run cold_runs[] = {
    {"nsn+nsgs", "formulation", "ac", "nsn+nsgs/ac"},
    {"nsn+nsgs", "formulation", "natural", "nsn+nsgs/natural"},
    {"ipm+nsn", NULL, NULL, "ipm+nsn"},
};
static const ref_run polish_run = {"nsn+nsgs", "formulation", "ac", "nsn+nsgs/ac-polish"};

void cb_reference_settings_default(cb_reference_settings *s)
{
    s->tol = 1e-12;
    s->time_limit = 60.0;
    s->max_iter = 10000;
}

/* 1 when (e, eq) is better than the kept (error, error_q): less error, then less error_q. */
static int better(double e, double eq, const cb_reference *best)
{
    if (!isfinite(e))
        return 0;
    if (!isfinite(best->error) || e != best->error)
        return !isfinite(best->error) || e < best->error;
    return eq < best->error_q;
}

/* Run r from start (NULL: p = 0); keep the judged result in best when better. */
static int try_run(const cb_problem *prob, const cb_reference_settings *rs, const ref_run *r,
                   const double *start, cb_reference *best, cb_error *err)
{
    cb_settings s;
    cb_solution sol = {0};
    cb_info info = {0};
    cb_error ignored = {{0}};
    cb_option opt = {r->key, r->value};
    cb_settings_default(&s);
    s.tol = rs->tol, s.time_limit = rs->time_limit, s.max_iter = rs->max_iter;
    s.options = r->key ? &opt : NULL, s.noptions = r->key ? 1 : 0;
    const cb_solver *solver = cb_solver_find(r->solver);
    int rc = solver ? cb_solution_alloc(prob, &sol, err) : CB_OK; /* not registered: skipped */
    size_t n = cb_problem_n(prob);
    if (rc == CB_OK && solver && start)
        memcpy(sol.p, start, n * sizeof *sol.p);
    if (rc == CB_OK && solver &&
        cb_solve_limited(solver, prob, &s, &sol, &info, NULL, NULL, &ignored) == CB_OK &&
        better(info.error, info.error_q, best)) {
        memcpy(best->p, sol.p, n * sizeof *sol.p);
        memcpy(best->y, sol.y, n * sizeof *sol.y);
        best->error = info.error, best->error_q = info.error_q;
        snprintf(best->solver, sizeof best->solver, "%s", r->label);
    }
    cb_info_free(&info);
    cb_solution_free(&sol);
    return rc;
}

int cb_reference_compute(const cb_problem *prob, const cb_reference_settings *s,
                         cb_reference *out, cb_error *err)
{
    size_t n = cb_problem_n(prob);
    memset(out, 0, sizeof *out);
    if (!(s->tol > 0) || !(s->time_limit > 0) || s->max_iter < 1)
        return cb_fail(err, CB_ERR_INPUT, "reference: tol and time limit must be > 0, "
                                          "max_iter >= 1");
    out->p = cb_calloc(n, sizeof *out->p);
    out->y = cb_calloc(n, sizeof *out->y);
    out->error = out->error_q = NAN;
    out->nc = prob->nc, out->d = prob->d;
    memcpy(out->sha256, prob->prov.sha256, sizeof out->sha256);
    int rc = out->p && out->y ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; rc == CB_OK && i < sizeof cold_runs / sizeof *cold_runs; i++)
        rc = try_run(prob, s, &cold_runs[i], NULL, out, err);
    if (rc == CB_OK && isfinite(out->error) && out->error > 0)
        rc = try_run(prob, s, &polish_run, out->p, out, err);
    if (rc == CB_OK && !isfinite(out->error))
        rc = cb_fail(err, CB_ERR_INTERNAL, "reference: no solver run gave a finite error");
    int definite = 0;
    if (rc == CB_OK)
        rc = cb_problem_W_definite(prob, &definite, err);
    out->unique = definite ? CB_UNIQUE_YES : CB_UNIQUE_NO;
    if (rc != CB_OK)
        cb_reference_free(out);
    return rc;
}

/* Read path as the reference of the problem (sha256, nc, d): 1 when it is; else 0 with the
 * reason in note when `say` (a file named for this problem), silently for other files. */
static int read_matching(const char *path, const char *sha256, int nc, int d, int say,
                         cb_reference *out, char *note, size_t notelen)
{
    cb_error err = {{0}};
    if (cb_read_reference(path, out, &err) != CB_OK) {
        snprintf(note, notelen, "reference ignored: %s", err.text);
        return 0;
    }
    int ok = !strcmp(out->sha256, sha256) && out->nc == nc && out->d == d;
    if (!ok && say)
        snprintf(note, notelen, "reference ignored: %s is of another problem (sha256 %.12s…, "
                 "this problem's %.12s…)", path, out->sha256, sha256);
    if (!ok)
        cb_reference_free(out);
    return ok;
}

/* 1 when name ends in ".ref". */
static int is_ref_name(const char *name)
{
    size_t k = strlen(name);
    return k > 4 && !strcmp(name + k - 4, ".ref");
}

void cb_reference_find(const char *problem_path, const char *sha256, const char *dir, int nc,
                       int d, cb_reference *out, int *found, char *note, size_t notelen)
{
    char path[4096];
    FILE *f;
    note[0] = '\0';
    *found = 0;
    snprintf(path, sizeof path, "%s.ref", problem_path);
    if ((f = fopen(path, "r")) != NULL) {
        fclose(f);
        *found = read_matching(path, sha256, nc, d, 1, out, note, notelen);
    }
    size_t kept = strlen(note); /* why FILE.ref was ignored stays said */
    DIR *dh = !*found && dir ? opendir(dir) : NULL;
    for (struct dirent *e; dh && !*found && (e = readdir(dh)) != NULL;) {
        if (!is_ref_name(e->d_name))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        *found = read_matching(path, sha256, nc, d, 0, out, note + kept,
                               notelen - kept) || (note[kept] = '\0', 0);
    }
    if (dh)
        closedir(dh);
}

double cb_reference_dist(const char *problem_path, const char *sha256, const char *dir, int nc,
                         int d, const double *p, char *note, size_t notelen)
{
    cb_reference ref;
    int found = 0;
    double dist = NAN;
    cb_reference_find(problem_path, sha256, dir, nc, d, &ref, &found, note, notelen);
    if (found && ref.unique == CB_UNIQUE_YES)
        dist = cb_reference_distance(&ref, p);
    if (found)
        cb_reference_free(&ref);
    return dist;
}
