/* conebench — composite solvers: the hybrids of registered solvers, under their own names.
 *
 * A composite is a row of `composites` below: phases run in order, each a registered solver
 * with preset options. The first phase starts from the warm start; each later one starts from
 * the iterate of the one before, and runs only when that one stopped `stalled` (it gave up
 * before its cap: breakdown, stagnation, drift); any other stop reason (converged, max_iter,
 * time_limit, diverged) ends the run with it. The phases share the run's budget and its
 * max_iter (a later phase gets what the earlier ones left). Every phase is set up at the
 * composite's setup (bad options are reported before any work) and kept until its cleanup. A
 * phase marked `assembled` works on the assembled W: a factored W is converted to block-sparse
 * rows once, at setup (ipm does the same for itself: ipm+nsn's polish works where ipm did).
 *
 * Options: KEY=V goes to the one phase whose solver takes KEY (an error when several do: write
 * SOLVER.KEY=V to name the phase); its value replaces a preset's of the same key. The
 * phases keep pointers to the option strings of the setup's settings (not owned, like every
 * solver's options). Counters: cb_info.work, iterations and the trace are the phases' together
 * (a later phase's trace follows on, without its iteration 0); cb_info.phases has each phase's
 * share, and the phases a phase records itself (nsn's nsgs safeguard) are kept. */
#include "solvers_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "kv.h"

#define COMPOSITE_PHASES 3 /* phases of one composite at most */

typedef struct {
    const cb_solver *solver;
    const cb_option *preset; /* its options in this composite */
    int npreset;
    int assembled;           /* 1: on the assembled W (a factored W converted at setup) */
} phase_def;

typedef struct {
    const cb_solver *self;
    int nphases;
    phase_def phase[COMPOSITE_PHASES];
} composite_def;

/* nsn with its safeguard: nsgs sweeps when the line search fails (nsn.c). */
static const cb_option nsgs_safeguard[] = {{"fallback_sweeps", "20"}};

static const composite_def composites[] = {
    {&cb_solver_ipm_nsn, 2, {{&cb_solver_ipm, NULL, 0, 0}, {&cb_solver_nsn, nsgs_safeguard, 1, 1}}},
    {&cb_solver_nsn_nsgs, 1, {{&cb_solver_nsn, nsgs_safeguard, 1, 0}}},
};

#define NCOMPOSITES ((int)(sizeof composites / sizeof *composites))

typedef struct {
    const composite_def *def;
    const cb_problem *prob;
    cb_problem *assembled;              /* the BSR copy of a factored W, or NULL */
    void *work[COMPOSITE_PHASES];       /* each phase's */
    cb_option *opts[COMPOSITE_PHASES];  /* presets, then the user's routed to it */
    int nopts[COMPOSITE_PHASES];
} composite_work;

static const cb_option_spec composite_spec[] = {
    {"SOLVER.KEY", "", "option KEY of the phase SOLVER (see that solver; the presets are in the "
                       "summary); KEY alone when only one phase takes it"},
    {NULL, NULL, NULL}};

static const composite_def *def_of(const cb_solver *solver)
{
    for (int i = 0; i < NCOMPOSITES; i++)
        if (composites[i].self == solver)
            return &composites[i];
    return NULL;
}

const cb_solver *cb_composite_phase(const cb_solver *solver, int i)
{
    const composite_def *d = def_of(solver);
    return d && i >= 0 && i < d->nphases ? d->phase[i].solver : NULL;
}

/* The phase an option key goes to (SOLVER.KEY names it; a bare KEY: the one phase whose solver
 * takes it), *key the bare key; -1 and err when there is none or more than one. */
static int route(const composite_def *d, const char *k, const char **key, cb_error *err)
{
    const char *dot = strchr(k, '.');
    int found = -1, n = 0;
    for (int i = 0; i < d->nphases; i++) {
        const char *name = d->phase[i].solver->name;
        size_t len = strlen(name);
        int hit = dot ? (size_t)(dot - k) == len && !strncmp(k, name, len)
                      : cb_kv_spec_find(d->phase[i].solver->options, k) != NULL;
        if (hit && n++ == 0)
            found = i;
    }
    *key = dot ? dot + 1 : k;
    if (n == 1 || (dot && n > 1))
        return found;
    if (dot)
        cb_fail(err, CB_ERR_INPUT, "option %s: %s has no phase '%.*s'", k, d->self->name,
                (int)(dot - k), k);
    else if (n == 0)
        cb_fail(err, CB_ERR_INPUT, "option %s: not an option of a phase of %s", k, d->self->name);
    else
        cb_fail(err, CB_ERR_INPUT, "option %s: more than one phase of %s takes it: write "
                "SOLVER.%s", k, d->self->name, k);
    return -1;
}

/* Each phase's options: its presets, then the user's routed to it (route()); the user's value
 * of a preset key replaces the preset's. */
static int phase_options(composite_work *w, const cb_settings *s, cb_error *err)
{
    const composite_def *d = w->def;
    const char *key;
    for (int i = 0; i < d->nphases; i++) {
        w->opts[i] = cb_calloc((size_t)(d->phase[i].npreset + s->noptions) + 1, sizeof(cb_option));
        if (!w->opts[i])
            return cb_fail(err, CB_ERR_NOMEM, "%s: out of memory", d->self->name);
        for (int k = 0; k < d->phase[i].npreset; k++)
            w->opts[i][w->nopts[i]++] = d->phase[i].preset[k];
    }
    for (int k = 0; k < s->noptions; k++) {
        int i = route(d, s->options[k].key, &key, err), at = 0;
        while (at < d->phase[i].npreset && strcmp(w->opts[i][at].key, key)) /* over a preset */
            at++;
        at = at < d->phase[i].npreset ? at : w->nopts[i]++;
        w->opts[i][at] = (cb_option){key, s->options[k].value};
    }
    return CB_OK;
}

/* The settings of phase i: those of the run with the phase's options. */
static cb_settings phase_settings(const composite_work *w, int i, const cb_settings *s)
{
    cb_settings ps = *s;
    ps.options = w->opts[i], ps.noptions = w->nopts[i];
    return ps;
}

static void composite_cleanup(void *work)
{
    composite_work *w = work;
    if (!w)
        return;
    for (int i = 0; i < w->def->nphases; i++) {
        if (w->work[i])
            w->def->phase[i].solver->cleanup(w->work[i]);
        free(w->opts[i]);
    }
    cb_problem_free(w->assembled);
    free(w);
}

/* Every option routes to a phase (route()), before anything is allocated. */
static int check_options(const composite_def *d, const cb_settings *s, cb_error *err)
{
    const char *key;
    if (s->noptions < 0 || (s->noptions > 0 && !s->options))
        return cb_fail(err, CB_ERR_INPUT, "options: inconsistent count %d", s->noptions);
    for (int k = 0; k < s->noptions; k++)
        if (!s->options[k].key || !s->options[k].value)
            return cb_fail(err, CB_ERR_INPUT, "options: a NULL key or value");
        else if (route(d, s->options[k].key, &key, err) < 0)
            return CB_ERR_INPUT;
    return CB_OK;
}

/* Options checked and routed, W assembled when a phase needs it, every phase set up. */
static int composite_setup(const composite_def *d, const cb_problem *prob, const cb_settings *s,
                           void **work, cb_error *err)
{
    *work = NULL;
    int rc = check_options(d, s, err), assemble = 0;
    if (rc != CB_OK)
        return rc;
    composite_work *w = cb_calloc(1, sizeof *w);
    if (!w)
        return cb_fail(err, CB_ERR_NOMEM, "%s: out of memory", d->self->name);
    w->def = d, w->prob = prob;
    rc = phase_options(w, s, err);
    for (int i = 0; i < d->nphases; i++)
        assemble |= d->phase[i].assembled && prob->storage == CB_STORAGE_FACTORED;
    if (rc == CB_OK && assemble)
        rc = cb_problem_to_bsr(prob, &w->assembled, err);
    for (int i = 0; i < d->nphases && rc == CB_OK; i++) {
        cb_settings ps = phase_settings(w, i, s);
        const cb_problem *pp = d->phase[i].assembled && w->assembled ? w->assembled : prob;
        rc = d->phase[i].solver->setup(pp, &ps, &w->work[i], err);
    }
    if (rc != CB_OK) {
        composite_cleanup(w);
        return rc;
    }
    *work = w;
    return CB_OK;
}

/* Phase i from sol (within the iterations the earlier phases left); its status, counters,
 * phases and trace added to info. */
static int run_phase(composite_work *w, int i, const cb_settings *s, cb_solution *sol,
                     cb_info *info, double t0, cb_error *err)
{
    const cb_solver *sv = w->def->phase[i].solver;
    cb_settings ps = phase_settings(w, i, s);
    ps.max_iter = s->max_iter - info->iterations;
    cb_info pi;
    memset(&pi, 0, sizeof pi);
    double start = cb_now();
    int rc = sv->solve(w->work[i], &ps, sol, &pi, err);
    double time_s = cb_now() - start;
    if (rc == CB_OK &&
        cb_info_trace_append(info, &pi, s, info->iterations, start - t0, i > 0) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "%s: out of memory for the trace", w->def->self->name);
    if (pi.nphases == 0)
        cb_info_phase(&pi, sv->name, pi.iterations, &pi.work, time_s);
    for (int k = 0; k < pi.nphases; k++)
        cb_info_phase(info, pi.phases[k].solver, pi.phases[k].iterations, &pi.phases[k].work,
                      pi.phases[k].time_s);
    cb_work_add(&info->work, &pi.work);
    info->iterations += pi.iterations;
    info->status = pi.status;
    info->solver_error = pi.solver_error;
    cb_info_free(&pi);
    return rc;
}

/* The phases in order: the next one only after a `stalled` stop with iterations left. */
static int composite_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                           cb_error *err)
{
    composite_work *w = work;
    double t0 = cb_now();
    int rc = CB_OK;
    for (int i = 0; i < w->def->nphases && rc == CB_OK; i++) {
        if (i > 0 && (info->status != CB_STATUS_STALLED || info->iterations >= s->max_iter))
            break;
        rc = run_phase(w, i, s, sol, info, t0, err);
    }
    return rc;
}

/* Every phase takes the problem (the first refusal). */
static int composite_supports(const composite_def *d, const cb_problem *prob, cb_error *err)
{
    int rc = CB_OK;
    for (int i = 0; i < d->nphases && rc == CB_OK; i++)
        if (d->phase[i].solver->supports)
            rc = d->phase[i].solver->supports(prob, err);
    return rc;
}

/* The function table of composites[INDEX]. */
#define COMPOSITE(VAR, INDEX, NAME, SUMMARY)                                                      \
    static int VAR##_setup(const cb_problem *prob, const cb_settings *s, void **work,         \
                           cb_error *err)                                                       \
    {                                                                                           \
        return composite_setup(&composites[INDEX], prob, s, work, err);                         \
    }                                                                                           \
    static int VAR##_supports(const cb_problem *prob, cb_error *err)                           \
    {                                                                                           \
        return composite_supports(&composites[INDEX], prob, err);                               \
    }                                                                                           \
    const cb_solver VAR = {.name = NAME, .summary = SUMMARY, .options = composite_spec,         \
                           .supports = VAR##_supports, .setup = VAR##_setup,                    \
                           .solve = composite_solve, .cleanup = composite_cleanup};

COMPOSITE(cb_solver_ipm_nsn, 0, "ipm+nsn",
          "composite: ipm, then nsn fallback_sweeps=20 (nsn with nsgs as its safeguard) from "
          "ipm's iterate when ipm stalls")
COMPOSITE(cb_solver_nsn_nsgs, 1, "nsn+nsgs",
          "composite: nsn fallback_sweeps=20 (20 nsgs sweeps when nsn's line search fails)")
