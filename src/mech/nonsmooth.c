/* conebench — running a scenario with the nonsmooth (Moreau–Jean + CCP) model. */
#include "timestepper.h"
#include "base.h"
#include "scenarios.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cb_run_settings_default(cb_run_settings *s)
{
    memset(s, 0, sizeof *s);
    cb_mj_settings_default(&s->mj);
}

/* Fold one step record into the run result. */
static void account(cb_run_result *res, const cb_step_record *rec)
{
    res->steps++;
    res->t = rec->t;
    if (rec->nc > 0) {
        res->unsolved += !rec->solved;
        res->time_limited += rec->status == CB_STATUS_TIME_LIMIT;
        if (isfinite(rec->error))
            res->max_error = fmax(res->max_error, rec->error);
        res->iterations += rec->iterations;
    }
    res->max_nc = rec->nc > res->max_nc ? rec->nc : res->max_nc;
    double de = rec->energy_after - rec->energy_before;
    if (res->steps == 1 || de > res->max_energy_increase)
        res->max_energy_increase = de;
}

/* The settings a run uses: the scenario's h, θ and tolerance unless told otherwise. */
static void effective(const cb_scenario *scen, const cb_run_settings *rs, cb_mj_settings *mj,
                      double *t_end)
{
    *mj = rs->mj;
    if (!rs->use_settings_grid) {
        mj->h = scen->h;
        mj->theta = scen->theta;
        mj->solve.tol = scen->tol;
    }
    *t_end = rs->t_end > 0 ? rs->t_end : scen->t_end;
}

/* Step until t_end (or the subject stops, or max_steps, or the hook asks to stop). */
static int run_loop(const cb_scenario *scen, const cb_run_settings *rs, cb_system *sys,
                    cb_step_hook hook, void *ctx, cb_run_result *res, cb_error *err)
{
    cb_mj_settings mj;
    double t_end;
    effective(scen, rs, &mj, &t_end);
    cb_mj_work *w = NULL;
    int rc = cb_mj_create(sys, &mj, &w, err);
    cb_observer obs;
    cb_observer_begin(&obs, scen, sys->bodies);
    long nsteps = (long)ceil(t_end / mj.h - 1e-9);
    cb_step_record rec;
    memset(&rec, 0, sizeof rec);
    for (long k = 1; rc == CB_OK && k <= nsteps; k++) {
        rec.step = k;
        rc = cb_mj_step(sys, &mj, w, &rec, err);
        if (rc != CB_OK)
            break;
        account(res, &rec);
        if (rs->dump_dir && cb_mj_problem(w) &&
            (rc = cb_dump_step_file(rs->dump_dir, k, cb_mj_problem(w), err)) != CB_OK)
            break;
        int stop = cb_observer_update(&obs, scen, sys->bodies, sys->t);
        if (hook && hook(ctx, sys, w, &rec))
            stop = 1;
        if (stop || (rs->max_steps > 0 && k >= rs->max_steps))
            break;
    }
    if (rc == CB_OK)
        cb_observer_finish(&obs, scen, sys->bodies, sys->t, &res->summary);
    cb_mj_free(w);
    return rc;
}

int cb_nonsmooth_run(const cb_scenario *scen, const cb_run_settings *rs, cb_step_hook hook,
                     void *ctx, cb_run_result *res, cb_error *err)
{
    memset(res, 0, sizeof *res);
    int rc = cb_scenario_check(scen, err);
    if (rc != CB_OK)
        return rc;
    cb_body *bodies = cb_malloc_array((size_t)scen->nbodies, sizeof *bodies);
    if (!bodies)
        return cb_fail(err, CB_ERR_NOMEM, "run: out of memory (%d bodies)", scen->nbodies);
    memcpy(bodies, scen->bodies, (size_t)scen->nbodies * sizeof *bodies);
    cb_system sys = {bodies, scen->nbodies, scen->kind, {0, 0, 0}, scen->contact, 0.0};
    memcpy(sys.gravity, scen->gravity, sizeof sys.gravity);
    double t0 = cb_now();
    rc = run_loop(scen, rs, &sys, hook, ctx, res, err);
    res->time_s = cb_now() - t0;
    free(bodies);
    return rc;
}
