/* conebench — transitional: tests/test_mechanics.c calls cb_cmd_simulate and
 * cb_cmd_generate_scenario through this name; every command is declared in commands.h. Delete
 * once the tests run the CLI as a program (issue 14 step 10). */
#include "commands.h"
