/* conebench — materialise a campaign's generated problems (random generator, scenario steps). */
#include "campaign.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scenario_registry.h"
#include "campaign_internal.h"
#include "sequence.h"
#include "base.h"

/* Progress of a scenario dump on stderr (verbose runs). */
static void dump_note(void *ctx, long step, double t, const char *path)
{
    (void)ctx;
    if (path)
        fprintf(stderr, "conebench: wrote %s\n", path);
    else
        fprintf(stderr, "conebench: step %ld (t = %g) has no contact: nothing written\n", step, t);
}

/* Write every step file of scenario line sl with one nonsmooth run (library call). */
static int run_scenario(const cb_campaign_scenario *sl, int verbose, cb_error *err)
{
    const cb_scenario_def *def = cb_scenario_find(sl->name);
    if (!def)
        return cb_fail(err, CB_ERR_INPUT, "scenario: unknown scenario '%s'", sl->name);
    cb_scenario scen;
    int rc = cb_scenario_build(def, sl->params.items, sl->params.n, &scen, err);
    if (rc != CB_OK)
        return rc;
    cb_dump_settings ds;
    cb_dump_settings_default(&ds);
    ds.outdir = sl->dir;
    ds.steps = sl->steps;
    ds.nsteps = sl->nsteps;
    ds.on_step = verbose ? dump_note : NULL;
    if (verbose)
        fprintf(stderr, "conebench: scenario %s (%s): %d steps into %s\n", sl->name, scen.params,
                sl->nsteps, sl->dir);
    cb_dump_result res;
    rc = cb_scenario_dump_steps(&scen, &ds, &res, err);
    cb_scenario_free(&scen);
    return rc;
}

int cb_campaign_prepare_problem(const cb_campaign *c, int i, int verbose, cb_error *err)
{
    const cb_campaign_problem *p = &c->problems[i];
    struct stat st;
    if ((!p->generated && p->scenario < 0) || stat(p->path, &st) == 0)
        return CB_OK;
    cb_error e = {{0}};
    cb_problem *g = NULL;
    int rc = CB_OK;
    if (p->scenario >= 0) {
        rc = run_scenario(&c->scenarios[p->scenario], verbose, &e);
        if (rc == CB_OK && stat(p->path, &st) != 0) /* the step had no contact */
            rc = cb_fail(&e, CB_ERR_INPUT, "scenario %s: step file %s was not written (no contact "
                         "at that step)", c->scenarios[p->scenario].name, p->path);
    } else {
        if (verbose)
            fprintf(stderr, "conebench: generating %s\n", p->name);
        rc = cb_generate_random(&p->gen, &g, NULL, NULL, &e);
        if (rc == CB_OK)
            rc = cb_write_problem(p->path, g, &e);
        cb_problem_free(g);
    }
    return rc == CB_OK ? CB_OK : cb_fail_at(err, rc, c->path, p->line, "%s", e.text);
}

int cb_sequence_need_ids(const cb_sequence *s, const cb_read_settings *rs, cb_error *err)
{
    int rc = CB_OK;
    for (int k = 0; k < s->nsteps && rc == CB_OK; k++) {
        if (s->steps[k].ids)
            continue;
        cb_problem *p = NULL;
        cb_contact_ids ids = {0};
        size_t n = strlen(s->steps[k].path);
        int text = n > 4 && !strcmp(s->steps[k].path + n - 4, ".dat"); /* no ids inside */
        if (!text)
            rc = cb_sequence_read_step(s, k, rs, &p, &ids, err);
        if (rc == CB_OK && !ids.id)
            rc = cb_fail(err, CB_ERR_INPUT, "%s: step %ld has no contact identities (no .ids "
                         "file beside it): warm-start mapped needs them", s->steps[k].path,
                         s->steps[k].step);
        cb_problem_free(p);
        cb_contact_ids_free(&ids);
    }
    return rc;
}

int cb_campaign_prepare_sequence(const cb_campaign *c, int k, int verbose, cb_error *err)
{
    const cb_campaign_sequence *q = &c->sequences[k];
    cb_sequence *seq = NULL;
    cb_error e = {{0}};
    int rc = CB_OK, mapped = 0;
    for (int m = 0; m < c->nwarm; m++)
        mapped |= c->warm[m] == CB_WARM_MAPPED;
    if (q->scenario >= 0 && !cb_sequence_is_dir(q->dir))
        rc = run_scenario(&c->scenarios[q->scenario], verbose, &e);
    if (rc == CB_OK && (q->scenario >= 0 || mapped)) /* a dump is a sequence; ids when mapped */
        rc = cb_sequence_open(q->dir, &seq, &e);
    if (rc == CB_OK && mapped)
        rc = cb_sequence_need_ids(seq, &q->read, &e);
    cb_sequence_free(seq);
    return rc == CB_OK ? CB_OK : cb_fail_at(err, rc, c->path, q->line, "%s", e.text);
}
