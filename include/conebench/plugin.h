/* conebench — solver plugins: a solver built as a shared object, loaded at run time.
 *
 * A plugin is a shared object compiled against the installed headers
 * (`cc -shared -fPIC $(pkg-config --cflags conebench) my.c -o my.so`) that exports two
 * symbols, both written by CB_PLUGIN_DEFINE(tables, count):
 *   const int cb_plugin_abi;          CB_PLUGIN_ABI of the headers it was built against;
 *   int cb_plugin_solvers(int host_abi, const cb_solver *const **tables, int *count);
 * conebench (the CLI, or any program linked with libconebench) resolves the plugin's calls into
 * the library when it loads it, so the plugin itself links nothing.
 *
 * The contract every solver owes the harness (cb_solver in solver.h, checked by
 * `conebench conformance`): stop at s->max_iter (info->status max_iter) and when the run's
 * budget is spent (status time_limit; check cb_time_up(s) between steps: s->time_limit CPU
 * seconds, the wall guard); return status diverged
 * at once on a non-finite q or iterate; start from sol->p (a solution in: solved in ≤ 1
 * iteration); same input → same bits and counters; fill info->work (the work profile ranks
 * solvers by it; a solver whose counters are all zero is not ranked by work); call
 * cb_info_trace() once per iteration with a non-decreasing iteration number; refuse unknown
 * options (cb_options_check). The judge, not the solver, decides solved (solver.h). The update
 * slot is optional (NULL: a workspace sets the solver up again); when set, the work it updates
 * must solve to the same bits as a fresh setup's.
 *
 * Ownership: the tables and their strings must live as long as the process (static data in the
 * plugin); conebench never unloads a plugin it loaded. */
#ifndef CONEBENCH_PLUGIN_H
#define CONEBENCH_PLUGIN_H

#include "conebench/solver.h"

/* The plugin ABI: raised whenever a struct a plugin sees (cb_solver, cb_settings, cb_info,
 * cb_solution, cb_work, cb_problem) or a helper's signature changes. */
#define CB_PLUGIN_ABI 3

/* The entry point's type (what cb_plugin_solvers must be). */
typedef int (*cb_plugin_entry)(int host_abi, const cb_solver *const **tables, int *count);

/* In the plugin's source, once: exports the ABI and the entry point returning `count` tables
 * from the array `tables` (const cb_solver *const tables[]). */
#define CB_PLUGIN_DEFINE(tables, count)                                                        \
    __attribute__((visibility("default"))) const int cb_plugin_abi = CB_PLUGIN_ABI;           \
    __attribute__((visibility("default"))) int cb_plugin_solvers(                              \
        int host_abi, const cb_solver *const **out, int *n)                                    \
    {                                                                                          \
        *out = (tables);                                                                       \
        *n = (count);                                                                          \
        return host_abi == CB_PLUGIN_ABI ? 0 : 1;                                              \
    }

/* Load the plugin at path (dlopen) and register its solvers. CB_ERR_INPUT, naming the path and
 * the reason, when the file cannot be loaded, is not a conebench plugin, was built for another
 * ABI, returns no tables, has an incomplete table, or names a solver that already exists
 * (built-in or from another plugin). Loading the same file twice is a no-op. */
int cb_plugin_load(const char *path, cb_error *err);
/* Load every plugin in the environment variable CONEBENCH_PLUGIN_PATH (a colon-separated list
 * of shared objects, or of folders whose *.so files are loaded in name order). Unset: CB_OK. */
int cb_plugin_load_env(cb_error *err);

/* The plugins loaded so far (real paths, in load order). */
int cb_plugin_count(void);
const char *cb_plugin_path(int i); /* NULL when i is out of range */

/* Add a solver table to the registry (what cb_plugin_load does for each table; programs that
 * embed conebench may call it for a solver they link in). origin names where it comes from
 * ("plugin /path/x.so"); both must outlive the process. CB_ERR_INPUT on a name clash or an
 * incomplete table (no name, a name with characters other than [A-Za-z0-9._+-], no setup,
 * solve or cleanup, no options list). */
int cb_solver_register(const cb_solver *solver, const char *origin, cb_error *err);
/* Where a registered solver comes from: NULL for the built-in ones. */
const char *cb_solver_origin(const cb_solver *solver);

#endif
