/* conebench — `conebench filippov check -o DIR [--quick] [--plots DIR]`
 * (harness/cli_filippov_check.c): cross-checks of the extended-Filippov case against one
 * Moreau–Jean CCP step and the compliant slide law (filippov_check.h) at sampled rolling states
 * of the wheel and of a sphere. Not installed. argc/argv start at "check"; returns the exit
 * status (0: agreement away from the boundary ≥ 99 %, 1: below or failure, 2: bad input). */
#ifndef CONEBENCH_CLI_FILIPPOV_CHECK_H
#define CONEBENCH_CLI_FILIPPOV_CHECK_H

int cb_cmd_filippov_check(int argc, char **argv);

#endif
