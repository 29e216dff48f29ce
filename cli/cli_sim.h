/* conebench — `conebench simulate` and `conebench generate SCENARIO` (harness/cli_simulate.c).
 * Not installed. argc/argv start at the subcommand name; for generate, argv[1] is the scenario.
 * Both return the exit status (0 ok, 1 failure, 2 bad input). */
#ifndef CONEBENCH_CLI_SIM_H
#define CONEBENCH_CLI_SIM_H

#include <stdio.h>

int cb_cmd_simulate(int argc, char **argv);
int cb_cmd_generate_scenario(int argc, char **argv);
/* `conebench list scenarios`: name, summary and parameters (key=default  help) to f. */
int cb_cli_list_scenarios(FILE *f);

#endif
