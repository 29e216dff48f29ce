/* conebench — the command table and the dispatcher. */
#include "commands.h"
#include "util.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *usage;
} commands[] = {
    {"list", cb_cmd_list, "list solvers|scenarios|campaigns"},
    {"info", cb_cmd_info, "info FILE [--json] [--kind K]"},
    {"project", cb_cmd_project, "project --kind K --mu M [--mur MR] [--mus MS] [--count]"},
    {"error", cb_cmd_error, "error FILE --solution SOL [--tol T] [--kind K]"},
    {"generate", cb_cmd_generate,
     "generate random --kind K --nc N --seed S [--matrix multibody|spd] [--cond C]\n"
     "                   [--density D] [--semidefinite] [--storage dense|bsr] -o FILE "
     "[--solution SOL]\n"
     "  conebench generate SCENARIO [--param k=v]... --steps LIST -o DIR"},
    {"solve", cb_cmd_solve,
     "solve FILE --solver S [--tol T] [--max-iter N] [--time-limit S] [--option k=v]...\n"
     "                   [--warm-start SOL] [--trace OUT.csv] [--solution OUT.sol] [--json]"},
    {"simulate", cb_cmd_simulate,
     "simulate SCENARIO --model nonsmooth|analytic|compliant|compliant-legacy|compliant-edem\n"
     "                   [--param k=v]... [--solver S] [--csv OUT] [--json]"},
    {"run", cb_cmd_run,
     "run CAMPAIGN [-o DIR] [--jobs N] [--shard i/N] [--resume [--force]] [--quiet]"},
    {"report", cb_cmd_report, "report DIR [--no-figures] [--max-convergence N]"},
    {"bench-check", cb_cmd_bench_check,
     "bench-check [--baseline DIR] [--campaign NAME] [-o DIR] [--write-baseline] [--quiet]"},
    {"compare", cb_cmd_compare, "compare BASELINE CURRENT"},
    {"reproduce", cb_cmd_reproduce, "reproduce [-o DIR] [--quick] [--jobs N] [--only SECTION]"},
    {"filippov", cb_cmd_filippov,
     "filippov wheel|body [--param k=v]... [--json] | filippov map|check -o DIR [--plots DIR] [--quick]"},
};

static void usage(FILE *f)
{
    fprintf(f, "conebench %s — cone complementarity benchmarks for contact with rolling "
               "friction\nusage:\n",
            CB_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(f, "  conebench %s\n", commands[i].usage);
    fprintf(f, "Errors go to stderr; exit 2 = bad input, 1 = failure.\n");
}

int cb_cli_main(int argc, char **argv)
{
    /* Contact problems are many small products: OpenBLAS's thread pool only spins (measured:
     * 4x the CPU time in the kernel on 2 cores). One thread unless the user asks otherwise. */
    if (!getenv("OPENBLAS_NUM_THREADS"))
        openblas_set_num_threads(1);
    if (argc < 2) {
        usage(stderr);
        return CB_EXIT_BADINPUT;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CB_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("conebench %s\n", CB_VERSION);
        return CB_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    usage(stderr);
    return cb_cli_usage_error("unknown command '%s'", argv[1]);
}
