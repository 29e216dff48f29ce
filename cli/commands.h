/* conebench — every command of the command-line interface, one file each (cli/cmd_*.c), and
 * the dispatcher (cli/dispatch.c). Not installed.
 *
 * A command takes argc/argv starting at its own name (argv[0] = "solve", ...) and returns the
 * exit status: 0 success, 1 failure, 2 bad input (cli/util.h). Each file also defines the
 * command's descriptor (cb_command_NAME: options table, help text), which dispatch.c lists. */
#ifndef CONEBENCH_CLI_COMMANDS_H
#define CONEBENCH_CLI_COMMANDS_H

#include "conebench/io.h"
#include "util.h"

/* Forms whose parser lives in another file than the command's descriptor (no call cycle between
 * files): their usage line and options table. */
#define CB_USAGE_GENERATE_SCENARIO "generate SCENARIO --steps LIST -o DIR [options]"
extern const cb_cli_opt cb_generate_scenario_opts[]; /* cmd_simulate.c */
#define CB_USAGE_SIMULATE_COMPLIANT \
    "simulate SCENARIO --model compliant|compliant-legacy|compliant-edem [options]"
extern const cb_cli_opt cb_simulate_compliant_opts[]; /* cmd_compliant.c */
#define CB_USAGE_FILIPPOV_FILES "filippov map|check -o DIR [options]"
extern const cb_cli_opt cb_filippov_files_opts[]; /* cmd_filippov_files.c */

extern const cb_cli_command cb_command_list, cb_command_info, cb_command_error; /* cmd_problem.c */
extern const cb_cli_command cb_command_project;                               /* cmd_project.c */
extern const cb_cli_command cb_command_generate;                              /* cmd_generate.c */
extern const cb_cli_command cb_command_convert;                               /* cmd_convert.c */
extern const cb_cli_command cb_command_solve;                                 /* cmd_solve.c */
extern const cb_cli_command cb_command_simulate;                              /* cmd_simulate.c */
extern const cb_cli_command cb_command_run;                                   /* cmd_run.c */
extern const cb_cli_command cb_command_merge;                                 /* cmd_merge.c */
extern const cb_cli_command cb_command_status;                                /* cmd_status.c */
extern const cb_cli_command cb_command_conformance;                           /* cmd_conformance.c */
extern const cb_cli_command cb_command_report;                                /* cmd_report.c */
extern const cb_cli_command cb_command_plot;                                  /* cmd_plot.c */
extern const cb_cli_command cb_command_bench_check, cb_command_compare;       /* cmd_gate.c */
extern const cb_cli_command cb_command_reproduce;                             /* cmd_reproduce.c */
extern const cb_cli_command cb_command_reference;                             /* cmd_reference.c */
extern const cb_cli_command cb_command_filippov;                              /* cmd_filippov.c */

/* cli/cmd_problem.c: problem files and lists. */
int cb_cmd_list(int argc, char **argv);
int cb_cmd_info(int argc, char **argv);
/* info DIR: describe the step sequence in DIR (cmd_info_sequence.c). */
int cb_cli_info_sequence(const char *dir, const cb_read_settings *rs, int json);
int cb_cmd_error(int argc, char **argv);
/* cli/cmd_project.c */
int cb_cmd_project(int argc, char **argv);
/* cli/cmd_generate.c: `generate random`; `generate SCENARIO` goes to cb_cmd_generate_scenario. */
int cb_cmd_generate(int argc, char **argv);
/* cli/cmd_convert.c */
int cb_cmd_convert(int argc, char **argv);
/* cli/cmd_solve.c */
int cb_cmd_solve(int argc, char **argv);
/* cli/cmd_simulate.c: `simulate SCENARIO` (nonsmooth, analytic) and `generate SCENARIO` (argv[1]
 * is the scenario); --model compliant* goes to cb_cmd_simulate_compliant with the same argv. */
int cb_cmd_simulate(int argc, char **argv);
int cb_cmd_generate_scenario(int argc, char **argv);
/* cli/cmd_compliant.c */
int cb_cmd_simulate_compliant(int argc, char **argv);
/* cli/cmd_run.c, cli/cmd_report.c: campaigns. */
int cb_cmd_run(int argc, char **argv);
int cb_cmd_merge(int argc, char **argv);  /* cli/cmd_merge.c */
int cb_cmd_status(int argc, char **argv); /* cli/cmd_status.c */
int cb_cmd_conformance(int argc, char **argv);
int cb_cmd_plot(int argc, char **argv); /* cli/cmd_plot.c */
int cb_cmd_report(int argc, char **argv);
/* cli/cmd_gate.c: the performance gate. */
int cb_cmd_bench_check(int argc, char **argv);
int cb_cmd_compare(int argc, char **argv);
/* cli/cmd_reproduce.c */
int cb_cmd_reproduce(int argc, char **argv);
/* cli/cmd_reference.c */
int cb_cmd_reference(int argc, char **argv);
/* cli/cmd_filippov.c: `filippov wheel|body`; `filippov map|check` go to cb_cmd_filippov_map and
 * cb_cmd_filippov_check (cli/cmd_filippov_files.c) with argv starting at "map" or "check". */
int cb_cmd_filippov(int argc, char **argv);
int cb_cmd_filippov_map(int argc, char **argv);
int cb_cmd_filippov_check(int argc, char **argv);

/* cli/dispatch.c: run the command named by argv[1]; the exit status. */
int cb_cli_main(int argc, char **argv);

#endif
