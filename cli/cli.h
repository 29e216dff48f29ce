/* conebench — command-line interface internals (harness/). Not installed. */
#ifndef CONEBENCH_CLI_H
#define CONEBENCH_CLI_H

#include <stdio.h>
#include "conebench/common.h"

/* Exit statuses of bin/conebench. */
enum { CB_EXIT_OK = 0, CB_EXIT_FAIL = 1, CB_EXIT_BADINPUT = 2 };

/* Print "conebench: <text>" to stderr and return the exit status matching code. */
int cb_cli_report(int code, const cb_error *err);
/* Print "conebench: fmt..." to stderr; returns CB_EXIT_BADINPUT (usage errors). */
int cb_cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit status for a library code. */
int cb_cli_exit_code(int code);

/* Strict number parsing for options: whole string, finite. */
int cb_cli_parse_double(const char *opt, const char *s, double *out);
int cb_cli_parse_long(const char *opt, const char *s, long lo, long hi, long *out);

/* Write s as a JSON string literal (quoted, escaped). */
void cb_json_string(FILE *f, const char *s);
/* Write x as a JSON number (%.17g) or null when not finite. */
void cb_json_number(FILE *f, double x);

/* Subcommands: argc/argv start at the subcommand name. Return the exit status. */
int cb_cmd_list(int argc, char **argv);
int cb_cmd_info(int argc, char **argv);
int cb_cmd_project(int argc, char **argv);
int cb_cmd_error(int argc, char **argv);
int cb_cmd_generate(int argc, char **argv);
int cb_cmd_solve(int argc, char **argv);
int cb_cmd_run(int argc, char **argv);
int cb_cmd_report(int argc, char **argv);
int cb_cmd_bench_check(int argc, char **argv);
int cb_cmd_compare(int argc, char **argv);

int cb_cli_main(int argc, char **argv);

#endif
