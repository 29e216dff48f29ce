/* conebench — compliant presets and parameter routing of `simulate --model compliant*`
 * (cli/cmd_compliant.c), used by cli/cmd_reproduce.c and tests/test_compliant.c. Not installed.
 * Transitional: this moves into the library (src/mech/scenarios/presets.c, issue 14 step 6). */
#ifndef CONEBENCH_CLI_COMPLIANT_H
#define CONEBENCH_CLI_COMPLIANT_H

#include "conebench/compliant.h"
#include "conebench/scenarios.h"

/* Look a scenario up in the registry, then among the Fang scenarios of fang.c. */
const cb_scenario_def *cb_compliant_scenario_find(const char *name);

/* Split "k=v" parameters between the scenario and the compliant model, apply the per-scenario
 * presets (Table 2, 3, 5, 6 values; see cmd_compliant.c), build the scenario and the settings.
 * model: "compliant", "compliant-legacy" or "compliant-edem". */
int cb_compliant_setup(const char *scenario, const char *model, const cb_option *params,
                       int nparams, cb_scenario *scen, cb_compliant_settings *s, cb_error *err);

#endif
