/* conebench — the solver registry: every solver behind the same function table; the built-in
 * ones first, then those registered at run time (plugins, the bench layer's external solver). */
#include <string.h>

#include "conebench/plugin.h"
#include "solvers_internal.h"
#include "base.h"
#include "solve_limited.h"

#ifndef CB_HAVE_SICONOS
#define CB_HAVE_SICONOS 1
#endif
#ifndef CB_HAVE_BULLET
#define CB_HAVE_BULLET 0
#endif
#ifndef CB_HAVE_DART
#define CB_HAVE_DART 0
#endif
/* The game-engine adapters built (make BULLET=0 / DART=0 leaves them out), each followed by a
 * comma. */
#if CB_HAVE_BULLET
#define BULLET_BUILT CB_BULLET_SOLVERS,
#else
#define BULLET_BUILT
#endif
#if CB_HAVE_DART
#define DART_BUILT CB_DART_SOLVERS,
#else
#define DART_BUILT
#endif
#define ENGINES_BUILT BULLET_BUILT DART_BUILT

static const cb_solver *const registry[] = {
    &cb_solver_nsgs,         &cb_solver_psor,
    &cb_solver_pfp,          &cb_solver_eg,
    &cb_solver_apgd,         &cb_solver_admm,
    &cb_solver_nsn,          &cb_solver_ipm,
    &cb_solver_ipm_nsn,      &cb_solver_nsn_nsgs, /* composites (composite.c) */
#if CB_HAVE_SICONOS /* the optional back end (make SICONOS=0 builds without it) */
    CB_SICONOS_SOLVERS,
#endif
    ENGINES_BUILT /* the game engines' solvers */
};

/* Solvers whose loop cannot be interrupted at the time limit: cb_solve_limited runs them in a
 * child process. NULL-terminated. */
static const cb_solver *const cannot_stop[] = {
#if CB_HAVE_SICONOS
    CB_SICONOS_SOLVERS,
#endif
    ENGINES_BUILT NULL};

int cb_solver_stops_at_limit(const cb_solver *solver)
{
    for (size_t i = 0; cannot_stop[i]; i++)
        if (solver == cannot_stop[i])
            return 0;
    return 1;
}

int cb_solver_has_long_kernels(const cb_solver *solver)
{
    for (int i = 0; cb_composite_phase(solver, i); i++) /* a composite: one of its phases */
        if (cb_solver_has_long_kernels(cb_composite_phase(solver, i)))
            return 1;
    return solver == &cb_solver_nsn || solver == &cb_solver_ipm;
}

/* The game-engine adapters solve the engines' boxed LCP (solvers/engines/engines_adapter.c). */
static const cb_solver *const box_friction[] = {ENGINES_BUILT NULL};

const char *cb_solver_model_gap(const cb_solver *solver)
{
    for (size_t i = 0; box_friction[i]; i++)
        if (solver == box_friction[i])
            return "it solves the engine's model, not the exact cone: a friction box per "
                   "component, bounds fixed from the frictionless normals (Dantzig), not scaled "
                   "by the normal (Lemke), a sweep cap (PGS)";
    return NULL;
}

int cb_solver_built_with_siconos(void) { return CB_HAVE_SICONOS; }

#define NBUILTIN ((int)(sizeof registry / sizeof *registry))
#define MAX_REGISTERED 256 /* solvers added at run time, all plugins together */

static const cb_solver *registered[MAX_REGISTERED];
static const char *registered_origin[MAX_REGISTERED];
static int nregistered;

int cb_solver_count(void) { return NBUILTIN + nregistered; }

const cb_solver *cb_solver_at(int i)
{
    if (i < 0 || i >= cb_solver_count())
        return NULL;
    return i < NBUILTIN ? registry[i] : registered[i - NBUILTIN];
}

const cb_solver *cb_solver_find(const char *name)
{
    for (int i = 0; name && i < cb_solver_count(); i++)
        if (strcmp(cb_solver_at(i)->name, name) == 0)
            return cb_solver_at(i);
    return NULL;
}

const char *cb_solver_suggest(const char *name, char *buf, size_t len)
{
    cb_suggest g;
    cb_suggest_init(&g, name);
    for (int i = 0; i < cb_solver_count(); i++)
        cb_suggest_add(&g, cb_solver_at(i)->name);
    return cb_suggest_text(&g, buf, len);
}

const char *cb_solver_origin(const cb_solver *solver)
{
    for (int i = 0; i < nregistered; i++)
        if (registered[i] == solver)
            return registered_origin[i];
    return NULL;
}

/* A name that is safe in file names, CSV cells and campaign lines. */
static int name_ok(const char *name)
{
    return name && *name && strlen(name) <= CB_SOLVER_NAME_MAX &&
           name[strspn(name, CB_SOLVER_NAME_CHARS)] == '\0';
}

int cb_solver_register(const cb_solver *solver, const char *origin, cb_error *err)
{
    const char *from = origin ? origin : "a registered solver";
    if (!solver || !name_ok(solver->name))
        return cb_fail(err, CB_ERR_INPUT, "%s: solver name '%s': 1 to %d characters of "
                       "[A-Za-z0-9._+-]", from, solver && solver->name ? solver->name : "",
                       CB_SOLVER_NAME_MAX);
    if (!solver->setup || !solver->solve || !solver->cleanup || !solver->options)
        return cb_fail(err, CB_ERR_INPUT, "%s: solver %s: setup, solve, cleanup and options "
                       "must all be set", from, solver->name);
    const cb_solver *old = cb_solver_find(solver->name);
    if (old == solver)
        return CB_OK;
    if (old)
        return cb_fail(err, CB_ERR_INPUT, "%s: solver %s already exists (%s)", from,
                       solver->name, cb_solver_origin(old) ? cb_solver_origin(old) : "built in");
    if (nregistered == MAX_REGISTERED)
        return cb_fail(err, CB_ERR_INPUT, "%s: more than %d registered solvers", from,
                       MAX_REGISTERED);
    registered_origin[nregistered] = origin;
    registered[nregistered++] = solver;
    return CB_OK;
}
