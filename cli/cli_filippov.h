/* conebench — `conebench filippov wheel|body|map` (harness/cli_filippov.c): the extended-Filippov
 * limit-direction analysis of Antali & Stepan (SPEC §8). Not installed. argc/argv start at
 * "filippov"; returns the exit status (0 ok, 1 failure, 2 bad input). */
#ifndef CONEBENCH_CLI_FILIPPOV_H
#define CONEBENCH_CLI_FILIPPOV_H

int cb_cmd_filippov(int argc, char **argv);

#endif
