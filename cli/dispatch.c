/* conebench — the command table and the dispatcher: `conebench COMMAND ...`, `conebench help
 * [COMMAND]`, `COMMAND --help`, `conebench version`. */
#include "commands.h"
#include "util.h"

#include "conebench/plugin.h"
#include "conebench/solver.h"
#include "external.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

static const cb_cli_command *const commands[] = {
    &cb_command_list,     &cb_command_info,     &cb_command_project,   &cb_command_error,
    &cb_command_generate, &cb_command_solve,    &cb_command_reference, &cb_command_simulate,
    &cb_command_convert,  &cb_command_run,      &cb_command_merge,    &cb_command_status,
    &cb_command_report,   &cb_command_plot,     &cb_command_bench_check, &cb_command_compare, &cb_command_reproduce,
    &cb_command_filippov, &cb_command_conformance,
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

static const cb_cli_command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(name, commands[i]->name))
            return commands[i];
    return NULL;
}

/* The overview: every command with its summary. */
static void overview(FILE *f)
{
    fprintf(f, "conebench %s — cone complementarity benchmarks for contact with rolling "
               "friction\n\nusage: conebench COMMAND [ARGS]...\n\ncommands:\n",
            CB_VERSION);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-12s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f, "  %-12s %s\n  %-12s %s\n\n", "help", "this overview; help COMMAND: its options",
            "version", "the version");
    fprintf(f, "COMMAND --help (or conebench help COMMAND) shows its options, defaults, an example "
               "and its exit statuses;\nman conebench (docs/conebench.1) documents everything, the "
               "JSON keys and results columns included.\n"
               "exit status: 0 success, 1 failure (out of memory, I/O, a failed check), 2 bad "
               "input.\n");
}

/* `conebench help [COMMAND]` */
static int help(int argc, char **argv)
{
    if (argc < 3) {
        overview(stdout);
        return CB_EXIT_OK;
    }
    const cb_cli_command *c = find(argv[2]);
    if (!c || argc > 3)
        return cb_cli_usage_error("help: %s (commands: conebench help)",
                                  c ? "one command at a time" : "unknown command");
    cb_cli_help(stdout, c);
    return CB_EXIT_OK;
}

/* 1 when the command line asks for help: -h or --help anywhere before "--". */
static int wants_help(int argc, char **argv)
{
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
    return 0;
}

/* The built-in solvers whose name starts with prefix, ", "-separated, or "not built (why)". */
static void backend_line(const char *label, const char *prefix, const char *why)
{
    const char *sep = "";
    printf("%s: ", label);
    for (int i = 0; i < cb_solver_count(); i++)
        if (!strncmp(cb_solver_at(i)->name, prefix, strlen(prefix)) &&
            !cb_solver_origin(cb_solver_at(i))) {
            printf("%s%s", *sep ? sep : "built (", cb_solver_at(i)->name);
            sep = ", ";
        }
    if (*sep)
        printf(")\n");
    else
        printf("not built (%s)\n", why);
}

/* `conebench version`: the version, and which optional back ends are built (their names). */
static void version(void)
{
    printf("conebench %s\n", CB_VERSION);
    backend_line("siconos adapters", "siconos-", "make SICONOS=0");
    backend_line("bullet adapters", "bullet-", "make BULLET=0");
    backend_line("dart adapters", "dart-", "make DART=0");
}

int cb_cli_main(int argc, char **argv)
{
    /* Contact problems are many small products, on which OpenBLAS's thread pool spins more
     * than it computes. One thread unless the user asks otherwise. */
    if (!getenv("OPENBLAS_NUM_THREADS"))
        openblas_set_num_threads(1);
    if (argc < 2) {
        overview(stderr);
        return CB_EXIT_BADINPUT;
    }
    const char *name = argv[1];
    if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h"))
        return help(argc, argv);
    if (!strcmp(name, "version") || !strcmp(name, "--version")) {
        version();
        return CB_EXIT_OK;
    }
    const cb_cli_command *c = find(name);
    if (!c)
        return cb_cli_usage_error("unknown command '%s' (commands: conebench help)", name);
    if (wants_help(argc, argv)) {
        cb_cli_help(stdout, c);
        return CB_EXIT_OK;
    }
    cb_error err = {{0}};
    int rc = cb_solver_register(&cb_solver_external, NULL, &err); /* a bench-layer solver */
    if (rc == CB_OK)
        rc = cb_solver_register(&cb_solver_python, NULL, &err);
    if (rc == CB_OK)
        rc = cb_plugin_load_env(&err);
    return rc == CB_OK ? c->run(argc - 1, argv + 1) : cb_cli_report(rc, &err);
}
