/* conebench — the solver registry: every solver behind the same function table. */
#include <string.h>

#include "solvers_internal.h"

#ifndef CB_HAVE_SICONOS
#define CB_HAVE_SICONOS 1
#endif

static const cb_solver *const registry[] = {
    &cb_solver_nsgs,         &cb_solver_psor,
    &cb_solver_pfp,          &cb_solver_eg,
    &cb_solver_apgd,         &cb_solver_admm,
    &cb_solver_nsn,          &cb_solver_ipm,
#if CB_HAVE_SICONOS /* the optional back end (make SICONOS=0 builds without it) */
    CB_SICONOS_SOLVERS,
#endif
};

/* Solvers whose loop cannot be interrupted at the time limit: cb_solve_limited runs them in a
 * child process. NULL-terminated. */
static const cb_solver *const cannot_stop[] = {
#if CB_HAVE_SICONOS
    CB_SICONOS_SOLVERS,
#endif
    NULL};

int cb_solver_stops_at_limit(const cb_solver *solver)
{
    for (size_t i = 0; cannot_stop[i]; i++)
        if (solver == cannot_stop[i])
            return 0;
    return 1;
}

int cb_solver_built_with_siconos(void) { return CB_HAVE_SICONOS; }

int cb_solver_count(void) { return (int)(sizeof registry / sizeof *registry); }

const cb_solver *cb_solver_at(int i)
{
    return i >= 0 && i < cb_solver_count() ? registry[i] : NULL;
}

const cb_solver *cb_solver_find(const char *name)
{
    for (int i = 0; name && i < cb_solver_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}
