/* conebench — transitional: tests/test_filippov.c calls cb_cmd_filippov through this name;
 * every command is declared in commands.h. Delete once the tests run the CLI as a program
 * (issue 14 step 10). */
#include "commands.h"
