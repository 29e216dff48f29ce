/* conebench — helpers shared by every command of the command-line interface (cli/util.c):
 * exit statuses, error messages, strict number parsing, the command descriptors (options table
 * and help text: one table drives both getopt and --help). Not installed. */
#ifndef CONEBENCH_CLI_UTIL_H
#define CONEBENCH_CLI_UTIL_H

#include <getopt.h>
#include <stdio.h>
#include "conebench/common.h"
#include "fileio.h"
#include "kv.h"

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

/* An output file built in memory, then written at once (cb_outbuf): open o, print to o.f, then
 * commit. Both return the exit status and say what failed ("conebench: PATH:0: out of memory",
 * or the write's error); commit writes DIR/NAME (NAME alone when dir is NULL) atomically and
 * releases o either way (cb_outbuf_discard releases it unwritten). */
int cb_cli_outbuf_open(cb_outbuf *o);
int cb_cli_outbuf_commit(cb_outbuf *o, const char *dir, const char *name);

/* A repeatable "--OPT KEY=VALUE" appended to l (cb_kv_parse: copies, grows): the exit status,
 * 2 with "conebench: OPT: 'TEXT' is not of the form key=value", 1 when out of memory. */
int cb_cli_kv_add(cb_kv_list *l, const char *opt, const char *text);

/* `--plugin PATH`: load the solver plugin (conebench/plugin.h); the exit status (2 with the
 * loader's reason when it cannot be loaded). */
int cb_cli_plugin(const char *path);
#define CB_CLI_PLUGIN_HELP "load the solver plugin SO first (repeatable; also $CONEBENCH_PLUGIN_PATH)"

/* Strict number parsing for options: whole string, finite. */
int cb_cli_parse_double(const char *opt, const char *s, double *out);
/* --time-limit: a number, 0 (no limit) or in (0, CB_TIME_LIMIT_MAX] seconds; else exit 2. */
int cb_cli_parse_time_limit(const char *opt, const char *s, double *out);
int cb_cli_parse_long(const char *opt, const char *s, long lo, long hi, long *out);

/* One option of a command: its long name (without "--"), the code the parser returns
 * (CB_CLI_SHORT('o') for an option also accepted as -o), its argument's name (NULL: a flag) and
 * one line of help that ends with its default. Tables end with {NULL, 0, NULL, NULL}. */
typedef struct {
    const char *name;
    int val;
    const char *arg;
    const char *help;
} cb_cli_opt;

#define CB_CLI_HINT_LEN 96 /* room for " (did you mean 'NAME'?)" */
#define CB_CLI_SHORT_BIT 0x100
#define CB_CLI_SHORT(c) ((c) | CB_CLI_SHORT_BIT) /* also accepted as -c */
#define CB_CLI_MAX_OPTS 24            /* options of one form, at most */

/* One form of a command: its usage line(s) after "conebench " ("solve FILE --solver S
 * [options]"; several lines separated by '\n') and its options (NULL: none). */
typedef struct {
    const char *usage;
    const cb_cli_opt *opts;
} cb_cli_form;

/* A command: name, the function that runs it (argv[0] is the name), a one-line summary, its
 * forms (ending with {NULL, NULL}), what it does, an example and its exit statuses. */
typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const cb_cli_form *forms;
    const char *about;
    const char *example;
    const char *exits;
} cb_cli_command;

/* getopt_long's tables built from a form's options. */
typedef struct {
    struct option longopts[CB_CLI_MAX_OPTS + 1];
    char shortopts[3 * CB_CLI_MAX_OPTS + 2];
} cb_cli_parser;

/* Build the tables of opts (NULL: none) and restart getopt (optind = 1). */
void cb_cli_parser_init(cb_cli_parser *p, const cb_cli_opt *opts);
/* The next option's code (CB_CLI_SHORT removed), '?' for an unknown option or a missing
 * argument (getopt has printed why), -1 at the end; optarg holds the argument. */
int cb_cli_next(cb_cli_parser *p, int argc, char **argv);

/* The help of cmd on f: summary, every form with its options, what it does, example, exit
 * statuses. */
void cb_cli_help(FILE *f, const cb_cli_command *cmd);
/* "conebench: usage: ..." (the usage lines of cmd) and where the options are, on stderr;
 * returns CB_EXIT_BADINPUT. */
int cb_cli_usage(const cb_cli_command *cmd);
/* The same for one form given by its usage line(s), of the command called name. */
int cb_cli_usage_of(const char *name, const char *usage);

#endif
