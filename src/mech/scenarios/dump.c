/* conebench — the step dumper: run a scenario with the nonsmooth model and write the CCP of
 * chosen time steps as problem files (DIR/SCENARIO-stepN.dat) with their metadata (.meta). */
#include "scenario_registry.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <unistd.h>

#include "conebench/io.h"
#include "sequence.h"
#include "fileio.h"

typedef struct {
    const cb_scenario *scen;
    const cb_dump_settings *ds;
    int next; /* index of the next step to dump */
    cb_dump_result *res;
    cb_error *err;
    int failed;
} dump_ctx;

void cb_dump_settings_default(cb_dump_settings *s)
{
    memset(s, 0, sizeof *s);
    cb_run_settings_default(&s->run);
}

int cb_scenario_steps_check(const cb_scenario *s, const long *steps, int n, cb_error *err)
{
    long last = (long)ceil(s->t_end / s->h - 1e-9);
    if (n < 1 || !steps)
        return cb_fail(err, CB_ERR_INPUT, "steps: none given");
    if (steps[n - 1] > last)
        return cb_fail(err, CB_ERR_INPUT, "steps: step %ld is beyond the horizon of %s (%ld steps "
                       "of %g s)", steps[n - 1], s->name, last, s->h);
    return CB_OK;
}

static int write_meta(const char *path, const dump_ctx *x, const cb_system *sys,
                      const cb_problem *p, long step, cb_error *err)
{
    const cb_scenario *s = x->scen;
    cb_outbuf o;
    if (cb_outbuf_open(&o, err) != CB_OK)
        return CB_ERR_NOMEM;
    fprintf(o.f, "scenario=%s\nparams=%s\nstep=%ld\nt=%.17g\nh=%.17g\nseed=%llu\nkind=%s\nnc=%d\n"
                 "solver=%s\nsha256=%s\n",
            s->name, s->params, step, sys->t - s->h, s->h, (unsigned long long)s->seed,
            cb_kind_name(p->kind), p->nc, x->ds->run.mj.solver->name, p->prov.sha256);
    return cb_outbuf_commit(&o, path, err);
}

/* The identities of the step's contacts: body i, body j, feature (contact.h). */
static int contact_ids(const cb_mj_work *w, cb_contact_ids *ids, cb_error *err)
{
    const cb_contact *c = cb_mj_contacts(w);
    ids->n = cb_mj_ncontacts(w);
    ids->id = malloc(((size_t)ids->n + 1) * sizeof *ids->id);
    if (!ids->id)
        return cb_fail(err, CB_ERR_NOMEM, "dump: out of memory");
    for (int a = 0; a < ids->n; a++)
        ids->id[a] = (cb_contact_id){c[a].i, c[a].j, c[a].feature};
    return CB_OK;
}

/* The step's problem file (Siconos text, or FCLIB with /conebench/ids and /conebench/t) and,
 * for Siconos text, its .ids beside it. */
static int write_step_files(const dump_ctx *x, const char base[4096 - 16], const cb_problem *p,
                            const cb_contact_ids *ids, double t, cb_error *err)
{
    char path[4096];
    int fclib = x->ds->format == CB_FORMAT_FCLIB;
    snprintf(path, sizeof path, "%s%s", base, fclib ? ".hdf5" : ".dat");
    int rc = cb_write_problem_as(path, p, fclib ? CB_FORMAT_FCLIB : CB_FORMAT_SICONOS, err);
    if (rc == CB_OK && fclib && (rc = cb_sequence_fclib_annotate(path, ids, t, err)) != CB_OK)
        unlink(path);
    if (rc == CB_OK && !fclib) {
        snprintf(path, sizeof path, "%s.ids", base);
        rc = cb_contact_ids_write(path, ids, err);
    }
    return rc;
}

/* The strings a labelled view owns (its name and provenance), not the data it shares. */
static void view_free(cb_problem *v)
{
    free(v->name);
    free(v->prov.source);
    free(v->prov.generator);
    free(v->prov.params);
}

/* DIR/SCENARIO-stepN.dat (or .hdf5) + .ids + .meta of this step's CCP, written from a view of
 * the time-stepper's problem that adds the step's name and provenance (W is not copied). */
static int dump_step(dump_ctx *x, const cb_system *sys, const cb_mj_work *w, long step,
                     cb_error *err)
{
    const cb_scenario *s = x->scen;
    char path[4096], base[4096 - 16], name[256];
    cb_problem view = *cb_mj_problem(w), *p = &view;
    cb_contact_ids ids = {0};
    snprintf(name, sizeof name, "%s-step%ld", s->name, step);
    view.name = NULL;
    memset(&view.prov, 0, sizeof view.prov);
    int rc = CB_OK;
    if (cb_problem_set_name(p, name) != CB_OK ||
        cb_problem_set_provenance(p, NULL, s->name, s->params, s->seed) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "dump: out of memory");
    if (rc == CB_OK && snprintf(base, sizeof base, "%s/%s", x->ds->outdir, name) >=
                           (int)sizeof base)
        rc = cb_fail(err, CB_ERR_INPUT, "%s: path too long", x->ds->outdir);
    if (rc == CB_OK)
        rc = contact_ids(w, &ids, err);
    if (rc == CB_OK)
        rc = write_step_files(x, base, p, &ids, sys->t - s->h, err);
    snprintf(path, sizeof path, "%s%s", base, x->ds->format == CB_FORMAT_FCLIB ? ".hdf5" : ".dat");
    if (rc == CB_OK)
        rc = cb_sha256_file(path, p->prov.sha256, err);
    if (rc == CB_OK && x->ds->on_step)
        x->ds->on_step(x->ds->ctx, step, sys->t, path);
    if (rc == CB_OK) {
        snprintf(path, sizeof path, "%s/%s.meta", x->ds->outdir, name);
        rc = write_meta(path, x, sys, p, step, err);
    }
    view_free(&view);
    cb_contact_ids_free(&ids);
    return rc;
}

static int dump_hook(void *ctx, const cb_system *sys, const cb_mj_work *w,
                     const cb_step_record *rec)
{
    dump_ctx *x = ctx;
    const cb_dump_settings *ds = x->ds;
    if (x->next >= ds->nsteps || rec->step != ds->steps[x->next])
        return 0;
    x->next++;
    if (!cb_mj_problem(w)) {
        x->res->empty++;
        if (ds->on_step)
            ds->on_step(ds->ctx, rec->step, rec->t, NULL);
    } else if (dump_step(x, sys, w, rec->step, x->err) != CB_OK) {
        x->failed = 1;
        return 1;
    } else {
        x->res->written++;
    }
    return x->next >= ds->nsteps;
}

/* Create dir when missing (*created = 1 then). */
static int ensure_dir(const char *dir, int *created, cb_error *err)
{
    struct stat st;
    *created = 0;
    if (stat(dir, &st) == 0)
        return S_ISDIR(st.st_mode) ? CB_OK
                                   : cb_fail(err, CB_ERR_INPUT, "%s: not a directory", dir);
    if (mkdir(dir, 0777) != 0)
        return cb_fail(err, CB_ERR_IO, "%s: cannot create: %s", dir, strerror(errno));
    *created = 1;
    return CB_OK;
}

int cb_scenario_dump_steps(cb_scenario *s, const cb_dump_settings *ds, cb_dump_result *res,
                           cb_error *err)
{
    memset(res, 0, sizeof *res);
    if (!ds || !ds->outdir || !ds->run.mj.solver)
        return cb_fail(err, CB_ERR_INPUT, "dump: missing outdir or solver");
    int created = 0, rc = cb_scenario_steps_check(s, ds->steps, ds->nsteps, err);
    if (rc == CB_OK)
        rc = ensure_dir(ds->outdir, &created, err);
    if (rc != CB_OK)
        return rc;
    cb_run_settings rs = ds->run;
    rs.max_steps = ds->steps[ds->nsteps - 1];
    s->end_on_stop = 0;
    dump_ctx x = {s, ds, 0, res, err, 0};
    cb_run_result rr;
    rc = cb_nonsmooth_run(s, &rs, dump_hook, &x, &rr, err);
    rc = rc != CB_OK ? rc : x.failed ? CB_ERR_IO : CB_OK;
    if (rc != CB_OK && created)
        (void)rmdir(ds->outdir); /* a folder this call made and left empty goes; else it stays */
    return rc;
}
