/* conebench — strict campaigns: every line of a parsed campaign is checked before anything runs
 * (solver names and options, problem files, generator and scenario parameters). */
#include "campaign.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign_internal.h"
#include "scenario_registry.h"
#include "sequence.h"
#include "base.h"

#define TINY_NC 2 /* contacts of the problems options and generator parameters are tried on */
#define BAD_TAIL_ROOM 120 /* bytes of the error kept for the count of unreadable files */

typedef struct {
    const cb_campaign *c;
    cb_solver_lookup find;
    int skip_test;                   /* leave "test-..." solvers to the runner's lookup */
    int kinds[CB_KIND_COUNT];        /* 1: some problem of the campaign has this cone kind */
    cb_problem *tiny[CB_KIND_COUNT]; /* a tiny problem of each kind, generated on demand */
} check_ctx;

/* err = "CAMPAIGN:LINE: " + the inner message; out of memory stays itself, the rest is bad
 * input (a campaign mistake). */
static int at_line(const check_ctx *x, long line, int rc, const cb_error *inner, cb_error *err)
{
    return cb_fail_at(err, rc == CB_ERR_NOMEM ? rc : CB_ERR_INPUT, x->c->path, line, "%s",
                      inner->text);
}

/* A problem file reads as its line says (exists, is readable, parses). */
static int check_file(check_ctx *x, const cb_campaign_problem *p, cb_error *err)
{
    cb_problem *prob = NULL;
    cb_error e = {{0}};
    int rc = cb_read_problem(p->path, &p->read, &prob, &e);
    if (rc == CB_OK)
        x->kinds[prob->kind] = 1;
    cb_problem_free(prob);
    return rc == CB_OK ? CB_OK : at_line(x, p->line, rc, &e, err);
}

/* A `generate random` line: the generator's own validation, on the same settings with nc
 * capped at TINY_NC (the limits that depend on nc are checked when the file is generated). */
static int check_random(check_ctx *x, const cb_campaign_problem *p, cb_error *err)
{
    cb_random_settings g = p->gen;
    cb_problem *tiny = NULL;
    cb_error e = {{0}};
    g.nc = g.nc < TINY_NC ? g.nc : TINY_NC;
    if (g.bodies > CB_GEN_BODIES_PER_CONTACT * g.nc) /* the real nc's bound: at generation */
        g.bodies = CB_GEN_BODIES_PER_CONTACT * g.nc;
    int rc = cb_generate_random(&g, &tiny, NULL, NULL, &e);
    cb_problem_free(tiny);
    x->kinds[g.kind] = 1;
    return rc == CB_OK ? CB_OK : at_line(x, p->line, rc, &e, err);
}

/* Build scenario name with its parameters (the registry's validation, nothing simulated); the
 * line's directive (what) names an unknown scenario. */
static int build_named(const char *what, const char *name, const cb_kv_list *params,
                       cb_scenario *sc, cb_error *e)
{
    const cb_scenario_def *def = cb_scenario_find(name);
    if (!def)
        return cb_fail(e, CB_ERR_INPUT, "%s: unknown scenario '%s' (see conebench list "
                       "scenarios)", what, name);
    return cb_scenario_build(def, params->items, params->n, sc, e);
}

/* A `scenario` line: the scenario exists, its parameters build (the registry's validation,
 * nothing simulated), and its steps lie within the horizon. */
static int check_scenario_line(check_ctx *x, int scenario, const cb_read_settings *rs, long line,
                               cb_error *err)
{
    const cb_campaign_scenario *sl = &x->c->scenarios[scenario];
    cb_error e = {{0}};
    cb_scenario sc;
    int rc = build_named("scenario", sl->name, &sl->params, &sc, &e);
    if (rc == CB_OK) {
        rc = cb_scenario_steps_check(&sc, sl->steps, sl->nsteps, &e);
        x->kinds[rs->force_kind ? rs->kind : sc.kind] = 1;
        cb_scenario_free(&sc);
    }
    return rc == CB_OK ? CB_OK : at_line(x, line, rc, &e, err);
}

static int check_scenario(check_ctx *x, const cb_campaign_problem *p, cb_error *err)
{
    return check_scenario_line(x, p->scenario, &p->read, p->line, err);
}

/* 1 when the campaign runs sequences with a mapped warm start. */
static int wants_ids(const cb_campaign *c)
{
    for (int m = 0; m < c->nwarm; m++)
        if (c->warm[m] == CB_WARM_MAPPED)
            return 1;
    return 0;
}

/* A `sequence DIR` line: the folder lists as a sequence, its first step reads (its kind is
 * the campaign's), and every step has contact identities when a warm start is mapped. */
static int check_sequence(check_ctx *x, const cb_campaign_sequence *q, cb_error *err)
{
    if (q->scenario >= 0)
        return check_scenario_line(x, q->scenario, &q->read, q->line, err);
    cb_sequence *seq = NULL;
    cb_problem *prob = NULL;
    cb_contact_ids ids = {0};
    cb_error e = {{0}};
    int rc = cb_sequence_open(q->dir, &seq, &e);
    if (rc == CB_OK && wants_ids(x->c))
        rc = cb_sequence_need_ids(seq, &q->read, &e);
    if (rc == CB_OK)
        rc = cb_sequence_read_step(seq, 0, &q->read, &prob, &ids, &e);
    if (rc == CB_OK)
        x->kinds[prob->kind] = 1;
    cb_problem_free(prob);
    cb_contact_ids_free(&ids);
    cb_sequence_free(seq);
    return rc == CB_OK ? CB_OK : at_line(x, q->line, rc, &e, err);
}

/* A `loop` line: the scenario exists and its parameters build (nothing simulated). */
static int check_loop(check_ctx *x, const cb_campaign_loop *l, cb_error *err)
{
    cb_error e = {{0}};
    cb_scenario sc;
    int rc = build_named("loop", l->name, &l->params, &sc, &e);
    if (rc == CB_OK) {
        x->kinds[sc.kind] = 1;
        cb_scenario_free(&sc);
    }
    return rc == CB_OK ? CB_OK : at_line(x, l->line, rc, &e, err);
}

static int tiny_problem(check_ctx *x, cb_kind k, cb_problem **out, cb_error *err)
{
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = k;
    g.nc = TINY_NC;
    g.seed = 1;
    int rc = x->tiny[k] ? CB_OK : cb_generate_random(&g, &x->tiny[k], NULL, NULL, err);
    *out = x->tiny[k];
    return rc;
}

/* The solver's setup (its own validation of every option) with the campaign's settings on a
 * tiny problem of kind k, then its cleanup; *taken = 0 when supports() refuses the kind. */
static int try_setup(check_ctx *x, const cb_solver *sv, int si, cb_kind k, int *taken,
                     cb_error *err)
{
    cb_problem *p = NULL;
    cb_settings s;
    cb_error ignored = {{0}};
    void *work = NULL;
    int rc = tiny_problem(x, k, &p, err);
    *taken = rc == CB_OK && (!sv->supports || sv->supports(p, &ignored) == CB_OK);
    if (!*taken)
        return rc;
    cb_campaign_settings(x->c, si, 0, &s);
    rc = sv->setup(p, &s, &work, err);
    if (work)
        sv->cleanup(work);
    return rc;
}

/* A solver line: the name is known and the options pass the solver's setup on each cone kind
 * of the campaign the solver takes (on the first kind it takes when it takes none of them). */
static int check_solver(check_ctx *x, int si, cb_error *err)
{
    const cb_campaign_solver *cs = &x->c->solvers[si];
    if (x->skip_test && !strncmp(cs->solver, "test-", 5))
        return CB_OK;
    const cb_solver *sv = x->find(cs->solver);
    char hint[96];
    if (!sv)
        return cb_fail_at(err, CB_ERR_INPUT, x->c->path, cs->line, "unknown solver '%s'%s (see "
                          "conebench list solvers)", cs->solver,
                          cb_solver_suggest(cs->solver, hint, sizeof hint));
    cb_error e = {{0}};
    int rc = CB_OK, tried = 0;
    for (int pass = 0; pass < 2 && rc == CB_OK && !tried; pass++)
        for (int k = 0; k < CB_KIND_COUNT && rc == CB_OK && !(pass && tried); k++) {
            int taken = 0;
            if (pass || x->kinds[k])
                rc = try_setup(x, sv, si, (cb_kind)k, &taken, &e);
            tried += taken;
        }
    return rc == CB_OK ? CB_OK : at_line(x, cs->line, rc, &e, err);
}

/* One more unreadable file into err (one line each, as many as fit; the rest counted). */
static void list_bad(cb_error *err, const cb_error *one, int nbad, int *shown)
{
    size_t used = strlen(err->text), add = strlen(one->text) + 1;
    if (nbad == 1) {
        snprintf(err->text, sizeof err->text, "%s", one->text);
        *shown = 1;
    } else if (*shown == nbad - 1 && used + add + BAD_TAIL_ROOM < sizeof err->text) {
        snprintf(err->text + used, sizeof err->text - used, "\n%s", one->text);
        (*shown)++;
    }
}

/* Every problem file reads; else CB_ERR_INPUT listing every one that does not (one line each,
 * "CAMPAIGN:LINE: the file's own error"), with their count when there are several. */
static int check_files(check_ctx *x, cb_error *err)
{
    int nbad = 0, shown = 0;
    for (int i = 0; i < x->c->nproblems; i++) {
        const cb_campaign_problem *p = &x->c->problems[i];
        cb_error one = {{0}};
        int rc = p->generated || p->scenario >= 0 ? CB_OK : check_file(x, p, &one);
        if (rc == CB_ERR_NOMEM)
            return cb_fail(err, rc, "%s", one.text);
        if (rc != CB_OK)
            list_bad(err, &one, ++nbad, &shown);
    }
    if (nbad > 1) {
        size_t used = strlen(err->text);
        snprintf(err->text + used, sizeof err->text - used, "%s%d problem files do not read%s "
                 "(`skip-unreadable` in the campaign runs the others)", shown < nbad ? "\n... " : "\n",
                 nbad, shown < nbad ? ", the first ones listed" : "");
    }
    return nbad ? CB_ERR_INPUT : CB_OK;
}

int cb_campaign_check(const cb_campaign *c, cb_solver_lookup find, int skip_test_solvers,
                      cb_error *err)
{
    check_ctx x = {c, find ? find : cb_solver_find, skip_test_solvers, {0}, {0}};
    int rc = check_files(&x, err);
    long checked_line = -1; /* a generator line makes several problems: check it once */
    for (int i = 0; i < c->nproblems && rc == CB_OK; i++) {
        const cb_campaign_problem *p = &c->problems[i];
        if ((p->generated || p->scenario >= 0) && p->line != checked_line)
            rc = p->generated ? check_random(&x, p, err) : check_scenario(&x, p, err);
        checked_line = p->line;
    }
    for (int i = 0; i < c->nloops && rc == CB_OK; i++)
        rc = check_loop(&x, &c->loops[i], err);
    for (int i = 0; i < c->nsequences && rc == CB_OK; i++)
        rc = check_sequence(&x, &c->sequences[i], err);
    for (int i = 0; i < c->nsolvers && rc == CB_OK; i++)
        rc = check_solver(&x, i, err);
    for (int k = 0; k < CB_KIND_COUNT; k++)
        cb_problem_free(x.tiny[k]);
    return rc;
}

/* Append "PATH<TAB>REASON\n" (newlines and tabs of the reason made spaces) to c->skipped. */
static int note_skipped(cb_campaign *c, const char *path, const char *reason)
{
    size_t have = c->skipped ? strlen(c->skipped) : 0, add = strlen(path) + strlen(reason) + 3;
    char *s = realloc(c->skipped, have + add);
    if (!s)
        return CB_ERR_NOMEM;
    c->skipped = s;
    snprintf(s + have, add, "%s\t%s\n", path, reason);
    for (char *q = s + have + strlen(path) + 1; *q && q[1]; q++)
        *q = (*q == '\n' || *q == '\t') ? ' ' : *q;
    c->nskipped++;
    return CB_OK;
}

/* Take out of c->problems the file problems gone(c, p, ctx) names (their strings freed), in
 * order; gone may stop the walk by setting *rc (what it returns is then ignored). */
static int keep_problems(cb_campaign *c, int (*gone)(cb_campaign *, cb_campaign_problem *, void *,
                                                     int *),
                         void *ctx)
{
    int kept = 0, rc = CB_OK;
    for (int i = 0; i < c->nproblems; i++) {
        cb_campaign_problem *p = &c->problems[i];
        if (p->generated || p->scenario >= 0 || rc != CB_OK || !gone(c, p, ctx, &rc) ||
            rc != CB_OK) {
            c->problems[kept++] = *p;
            continue;
        }
        free(p->path);
        free(p->name);
    }
    c->nproblems = kept;
    return rc;
}

/* keep_problems: a file that does not read (noted in c->skipped); out of memory stops. */
static int unreadable(cb_campaign *c, cb_campaign_problem *p, void *ctx, int *rc)
{
    cb_error *err = ctx, e = {{0}};
    cb_problem *prob = NULL;
    int r = cb_read_problem(p->path, &p->read, &prob, &e);
    cb_problem_free(prob);
    if (r == CB_ERR_NOMEM)
        *rc = cb_fail(err, r, "%s", e.text);
    else if (r != CB_OK && note_skipped(c, p->path, e.text) != CB_OK)
        *rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    return r != CB_OK;
}

int cb_campaign_drop_unreadable(cb_campaign *c, cb_error *err)
{
    return c->skip_unreadable ? keep_problems(c, unreadable, err) : CB_OK;
}

/* 1 when path is the first field of a line of list ("PATH<TAB>REASON" lines). */
static int listed(const char *list, const char *path)
{
    size_t n = strlen(path);
    for (const char *l = list; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, path, n) && l[n] == '\t')
            return 1;
    return 0;
}

/* keep_problems: a file the record lists (ctx). */
static int in_list(cb_campaign *c, cb_campaign_problem *p, void *ctx, int *rc)
{
    (void)c, (void)rc;
    return listed(ctx, p->path);
}

int cb_campaign_drop_listed(cb_campaign *c, const char *list, cb_error *err)
{
    if (!c->skip_unreadable || !list || !*list)
        return CB_OK;
    free(c->skipped);
    if (!(c->skipped = cb_strdup(list)))
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    c->nskipped = 0;
    for (const char *l = list; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        c->nskipped++;
    return keep_problems(c, in_list, (void *)list);
}

/* Parse, then check; test-only solvers ("test-...") are left to the runner's own lookup when
 * skip_test (tests inject those). */
static int parse_checked(const char *path, const char *gen_dir, cb_solver_lookup find,
                         int skip_test, cb_campaign **out, cb_error *err)
{
    int rc = cb_campaign_read(path, gen_dir, out, err);
    if (rc == CB_OK)
        rc = cb_campaign_drop_unreadable(*out, err);
    if (rc == CB_OK && (rc = cb_campaign_check(*out, find, skip_test, err)) != CB_OK) {
        cb_campaign_free(*out);
        *out = NULL;
    }
    return rc;
}

int cb_campaign_parse(const char *path, const char *gen_dir, cb_campaign **out, cb_error *err)
{
    return parse_checked(path, gen_dir, NULL, 1, out, err);
}

int cb_campaign_parse_with(const char *path, const char *gen_dir, cb_solver_lookup find,
                           cb_campaign **out, cb_error *err)
{
    return parse_checked(path, gen_dir, find, 0, out, err);
}
