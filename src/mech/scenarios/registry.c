/* conebench — the scenario registry: the list of scenarios and cb_scenario_build. */
#include <stdio.h>
#include <string.h>

#include "scenarios_internal.h"
#include "base.h"
#include "kv.h"

static const cb_scenario_def *const registry[] = {
    &cb_scenario_sphere_plane, &cb_scenario_sphere_incline, &cb_scenario_disk_rolling,
    &cb_scenario_sphere_spin,  &cb_scenario_three_spheres,  &cb_scenario_sphere_pile,
    &cb_scenario_brick_incline, &cb_scenario_ellipsoid,     &cb_scenario_ellipsoid_spin,
};

int cb_scenario_count(void) { return (int)(sizeof registry / sizeof *registry); }

const cb_scenario_def *cb_scenario_at(int i)
{
    return i >= 0 && i < cb_scenario_count() ? registry[i] : NULL;
}

const cb_scenario_def *cb_scenario_find(const char *name)
{
    for (int i = 0; name && i < cb_scenario_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

int cb_scenario_build(const cb_scenario_def *def, const cb_kv *params, int nparams,
                      cb_scenario *out, cb_error *err)
{
    memset(out, 0, sizeof *out);
    if (!def)
        return cb_fail(err, CB_ERR_INPUT, "scenario: bad arguments");
    cb_scenario_params ps = {{params, nparams, def->params, "param"}};
    char owner[256];
    snprintf(owner, sizeof owner, "a parameter of scenario %s", def->name);
    int rc = cb_kv_check(&ps.kv, owner, err);
    if (rc == CB_OK)
        rc = def->build(&ps, out, err);
    if (rc == CB_OK) {
        out->name = cb_strdup(def->name);
        out->params = cb_kv_format(&ps.kv);
        if (!out->name || !out->params)
            rc = cb_fail(err, CB_ERR_NOMEM, "scenario %s: out of memory", def->name);
    }
    if (rc == CB_OK)
        rc = cb_scenario_check(out, err);
    if (rc != CB_OK)
        cb_scenario_free(out);
    return rc;
}
