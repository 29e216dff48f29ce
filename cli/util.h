/* conebench — helpers shared by every command of the command-line interface (cli/util.c):
 * exit statuses, error messages, strict number parsing. Not installed. */
#ifndef CONEBENCH_CLI_UTIL_H
#define CONEBENCH_CLI_UTIL_H

#include <stdio.h>
#include "conebench/common.h"

/* Exit statuses of conebench: 0 success (and help), 1 a failure that is not the input's fault
 * (out of memory, I/O, a failed check), 2 bad input (checked before any work is done). */
enum { CB_EXIT_OK = 0, CB_EXIT_FAIL = 1, CB_EXIT_BADINPUT = 2 };

/* Print "conebench: <text>" to stderr and return the exit status matching code. */
int cb_cli_report(int code, const cb_error *err);
/* Print "conebench: fmt..." to stderr; returns CB_EXIT_BADINPUT (bad input or usage). */
int cb_cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "conebench: fmt..." to stderr; returns CB_EXIT_FAIL (out of memory, I/O, ...). */
int cb_cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit status for a library code. */
int cb_cli_exit_code(int code);

/* Strict number parsing for options: whole string, finite. */
int cb_cli_parse_double(const char *opt, const char *s, double *out);
int cb_cli_parse_long(const char *opt, const char *s, long lo, long hi, long *out);

#endif
