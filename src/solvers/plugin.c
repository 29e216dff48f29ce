/* conebench — solver plugins: dlopen a shared object, check its ABI, register its tables. */
#include "conebench/plugin.h"
#include "base.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLUGINS 64          /* shared objects loaded in one process */
#define ORIGIN_PREFIX "plugin " /* a plugin's solvers come from "plugin REALPATH" */

static char *loaded[MAX_PLUGINS]; /* real paths, also the solvers' origin strings */
static int nloaded;

/* The index of real path rp among the loaded plugins, or -1. */
static int find_loaded(const char *rp)
{
    for (int i = 0; i < nloaded; i++)
        if (!strcmp(loaded[i] + strlen(ORIGIN_PREFIX), rp))
            return i;
    return -1;
}

/* Ask the plugin for its tables and register each; origin is "plugin REALPATH". */
static int register_tables(void *h, const char *path, const char *origin, cb_error *err)
{
    const int *abi = dlsym(h, "cb_plugin_abi");
    cb_plugin_entry entry;
    *(void **)&entry = dlsym(h, "cb_plugin_solvers");
    if (!abi || !entry)
        return cb_fail(err, CB_ERR_INPUT, "plugin %s: not a conebench plugin (no %s; build it "
                       "with CB_PLUGIN_DEFINE from conebench/plugin.h)", path,
                       abi ? "cb_plugin_solvers" : "cb_plugin_abi");
    if (*abi != CB_PLUGIN_ABI)
        return cb_fail(err, CB_ERR_INPUT, "plugin %s: built for plugin ABI %d, this conebench "
                       "has ABI %d: rebuild it against this conebench's headers", path, *abi,
                       CB_PLUGIN_ABI);
    const cb_solver *const *tables = NULL;
    int n = 0;
    if (entry(CB_PLUGIN_ABI, &tables, &n) != 0 || !tables || n < 1)
        return cb_fail(err, CB_ERR_INPUT, "plugin %s: cb_plugin_solvers returned no solver "
                       "table", path);
    for (int i = 0; i < n; i++) {
        int rc = cb_solver_register(tables[i], origin, err);
        if (rc != CB_OK)
            return rc;
    }
    return CB_OK;
}

int cb_plugin_load(const char *path, cb_error *err)
{
    char rp[PATH_MAX];
    if (!path || !*path)
        return cb_fail(err, CB_ERR_INPUT, "plugin: empty path");
    if (!realpath(path, rp))
        return cb_fail(err, CB_ERR_INPUT, "plugin %s: no such file", path);
    if (find_loaded(rp) >= 0)
        return CB_OK;
    if (nloaded == MAX_PLUGINS)
        return cb_fail(err, CB_ERR_INPUT, "plugin %s: more than %d plugins", path, MAX_PLUGINS);
    void *h = dlopen(rp, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return cb_fail(err, CB_ERR_INPUT, "plugin %s: cannot load: %s", path, dlerror());
    size_t len = strlen(ORIGIN_PREFIX) + strlen(rp) + 1;
    char *origin = malloc(len);
    if (!origin) {
        dlclose(h);
        return cb_fail(err, CB_ERR_NOMEM, "plugin %s: out of memory", path);
    }
    snprintf(origin, len, ORIGIN_PREFIX "%s", rp);
    int before = cb_solver_count(), rc = register_tables(h, path, origin, err);
    if (rc != CB_OK && cb_solver_count() == before) { /* nothing of it is referenced */
        dlclose(h);
        free(origin);
        return rc;
    }
    loaded[nloaded++] = origin; /* kept (solvers registered before a failure point at it) */
    return rc;
}

int cb_plugin_count(void) { return nloaded; }

const char *cb_plugin_path(int i)
{
    return i >= 0 && i < nloaded ? loaded[i] + strlen(ORIGIN_PREFIX) : NULL;
}

/* Load one entry of CONEBENCH_PLUGIN_PATH: a shared object, or a folder of *.so files. */
static int load_entry(const char *entry, cb_error *err)
{
    struct dirent **names = NULL;
    DIR *d = opendir(entry);
    if (!d)
        return cb_plugin_load(entry, err);
    closedir(d);
    int n = scandir(entry, &names, NULL, alphasort), rc = CB_OK;
    for (int i = 0; i < n; i++) {
        size_t k = strlen(names[i]->d_name);
        char path[PATH_MAX];
        if (rc == CB_OK && k > 3 && !strcmp(names[i]->d_name + k - 3, ".so")) {
            snprintf(path, sizeof path, "%s/%s", entry, names[i]->d_name);
            rc = cb_plugin_load(path, err);
        }
        free(names[i]);
    }
    free(names);
    return n < 0 ? cb_fail(err, CB_ERR_INPUT, "CONEBENCH_PLUGIN_PATH: cannot list %s", entry)
                 : rc;
}

int cb_plugin_load_env(cb_error *err)
{
    const char *env = getenv("CONEBENCH_PLUGIN_PATH");
    char *list = env ? cb_strdup(env) : NULL, *save = NULL;
    int rc = env && !list ? cb_fail(err, CB_ERR_NOMEM, "out of memory") : CB_OK;
    for (char *e = list ? strtok_r(list, ":", &save) : NULL; rc == CB_OK && e;
         e = strtok_r(NULL, ":", &save))
        rc = load_entry(e, err);
    free(list);
    if (rc == CB_ERR_INPUT && err && !strstr(err->text, "CONEBENCH_PLUGIN_PATH")) {
        cb_error e2 = *err;
        cb_fail(err, rc, "CONEBENCH_PLUGIN_PATH: %s", e2.text);
    }
    return rc;
}
