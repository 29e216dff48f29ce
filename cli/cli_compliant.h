/* conebench — `conebench simulate SCENARIO --model compliant|compliant-legacy|compliant-edem` and
 * `conebench reproduce -o DIR` (harness/cli_compliant.c, harness/reproduce.c). Not installed.
 *
 * Wiring (harness/cli_simulate.c, cb_cmd_simulate): when --model starts with "compliant", call
 * cb_cmd_simulate_compliant(argc, argv) with the same argc/argv (argv[0] = "simulate").
 * Wiring (harness/cli.c): {"reproduce", cb_cmd_reproduce, "reproduce [-o DIR] [--quick]"}. */
#ifndef CONEBENCH_CLI_COMPLIANT_H
#define CONEBENCH_CLI_COMPLIANT_H

#include <stdio.h>

#include "conebench/compliant.h"
#include "conebench/scenarios.h"

int cb_cmd_simulate_compliant(int argc, char **argv);
int cb_cmd_reproduce(int argc, char **argv);

/* Look a scenario up in the registry, then among the Fang scenarios of fang.c. */
const cb_scenario_def *cb_compliant_scenario_find(const char *name);

/* Split "k=v" parameters between the scenario and the compliant model, apply the per-scenario
 * presets (Table 2, 3, 5, 6 values; see cli_compliant.c), build the scenario and the settings.
 * model: "compliant", "compliant-legacy" or "compliant-edem". */
int cb_compliant_setup(const char *scenario, const char *model, const cb_option *params,
                       int nparams, cb_scenario *scen, cb_compliant_settings *s, cb_error *err);

/* Run and print the JSON summary of a compliant run on f (one line). */
void cb_compliant_print_json(FILE *f, const char *model, const cb_scenario *scen,
                             const cb_compliant_settings *s, const cb_compliant_result *r);

#endif
