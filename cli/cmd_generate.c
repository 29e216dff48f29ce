/* conebench — `conebench generate random`: random problems with a known solution. */
#include "commands.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/generate.h"
#include "conebench/io.h"

static const char *use =
    "usage: conebench generate random --kind K --nc N --seed S [--matrix multibody|spd]\n"
    "         [--cond C] [--density D] [--semidefinite] [--storage dense|bsr] -o FILE "
    "[--solution SOL]";

typedef struct {
    cb_random_settings rs;
    const char *out, *sol;
    int have_kind, have_nc, have_seed;
} gen_args;

/* Apply one parsed option to a. */
static int gen_option(int c, gen_args *a)
{
    long v;
    int rc = CB_EXIT_OK;
    switch (c) {
    case 'k':
        a->have_kind = 1;
        return cb_kind_parse(optarg, &a->rs.kind) == CB_OK
                   ? CB_EXIT_OK
                   : cb_cli_usage_error("--kind: unknown cone kind '%s'", optarg);
    case 'n':
        a->have_nc = 1;
        rc = cb_cli_parse_long("--nc", optarg, 1, 100000000, &v);
        a->rs.nc = (int)v;
        return rc;
    case 's':
        a->have_seed = 1;
        rc = cb_cli_parse_long("--seed", optarg, 0, 0x7fffffffffffffffL, &v);
        a->rs.seed = (uint64_t)v;
        return rc;
    case 'm':
        if (!strcmp(optarg, "multibody") || !strcmp(optarg, "spd")) {
            a->rs.matrix = optarg[0] == 'm' ? CB_GEN_MULTIBODY : CB_GEN_SPD;
            return CB_EXIT_OK;
        }
        return cb_cli_usage_error("--matrix: '%s' is not multibody or spd", optarg);
    case 'c': return cb_cli_parse_double("--cond", optarg, &a->rs.cond);
    case 'd': return cb_cli_parse_double("--density", optarg, &a->rs.density);
    case 'S': a->rs.semidefinite = 1; return CB_EXIT_OK;
    case 't':
        if (!strcmp(optarg, "dense") || !strcmp(optarg, "bsr")) {
            a->rs.storage = optarg[0] == 'd' ? CB_STORAGE_DENSE : CB_STORAGE_BSR;
            return CB_EXIT_OK;
        }
        return cb_cli_usage_error("--storage: '%s' is not dense or bsr", optarg);
    case 'o': a->out = optarg; return CB_EXIT_OK;
    case 'x': a->sol = optarg; return CB_EXIT_OK;
    default: return cb_cli_usage_error("%s", use);
    }
}

static int parse_gen(int argc, char **argv, gen_args *a)
{
    static const struct option opts[] = {
        {"kind", required_argument, 0, 'k'},    {"nc", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 's'},    {"matrix", required_argument, 0, 'm'},
        {"cond", required_argument, 0, 'c'},    {"density", required_argument, 0, 'd'},
        {"semidefinite", no_argument, 0, 'S'},  {"storage", required_argument, 0, 't'},
        {"output", required_argument, 0, 'o'},  {"solution", required_argument, 0, 'x'},
        {0, 0, 0, 0}};
    int c, rc = CB_EXIT_OK;
    optind = 1;
    while (rc == CB_EXIT_OK && (c = getopt_long(argc, argv, "o:", opts, NULL)) != -1)
        rc = gen_option(c, a);
    if (rc != CB_EXIT_OK)
        return rc;
    if (optind != argc - 1 || strcmp(argv[optind], "random") != 0)
        return cb_cli_usage_error("generate: only 'random' is available in this version\n%s",
                                  use);
    if (!a->have_kind || !a->have_nc || !a->have_seed || !a->out)
        return cb_cli_usage_error("generate random: --kind, --nc, --seed and -o are required\n%s",
                                  use);
    return CB_EXIT_OK;
}

int cb_cmd_generate(int argc, char **argv)
{
    if (argc >= 2 && argv[1][0] != '-' && strcmp(argv[1], "random") != 0)
        return cb_cmd_generate_scenario(argc, argv); /* generate SCENARIO ... */
    gen_args a;
    memset(&a, 0, sizeof a);
    cb_random_settings_default(&a.rs);
    int rc = parse_gen(argc, argv, &a);
    if (rc != CB_EXIT_OK)
        return rc;
    cb_problem *p = NULL;
    double *ps = NULL, *ys = NULL;
    cb_error err = {{0}};
    int code = cb_generate_random(&a.rs, &p, &ps, &ys, &err);
    if (code == CB_OK)
        code = cb_write_problem(a.out, p, &err);
    if (code == CB_OK && a.sol)
        code = cb_write_solution(a.sol, p->nc, p->d, ps, ys, &err);
    if (code == CB_OK)
        fprintf(stderr, "conebench: wrote %s (%s, nc = %d, %s)%s%s\n", a.out,
                cb_kind_name(p->kind), p->nc, cb_storage_name(p->storage),
                a.sol ? " and its solution " : "", a.sol ? a.sol : "");
    cb_problem_free(p);
    free(ps);
    free(ys);
    return code == CB_OK ? CB_EXIT_OK : cb_cli_report(code, &err);
}
