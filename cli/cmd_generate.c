/* conebench — `conebench generate random`: random problems with a known solution. */
#include "commands.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#include "conebench/generate.h"
#include "conebench/io.h"
#include "fclib_check.h"

#define RANDOM_USAGE "generate random --kind K --nc N --seed S -o FILE [options]"

static const cb_cli_opt opts[] = {
    {"kind", 'k', "K", "cone kind: coulomb2d, coulomb3d, rolling2d, rolling3d, rollspin3d; "
                       "required"},
    {"nc", 'n', "N", "number of contacts (1..1e8); required"},
    {"seed", 's', "S", "seed (>= 0): the same seed gives the same bits everywhere; required"},
    {"matrix", 'm', "multibody|spd", "W = H' M^-1 H of random bodies (multibody, default) or a "
                                     "random SPD matrix of chosen condition number"},
    {"cond", 'c', "C", "spd: condition number >= 1 (default 1e3)"},
    {"density", 'd', "D", "spd: share of coupled block pairs in (0, 1] (default 0.1)"},
    {"semidefinite", 'S', NULL, "spd: make W singular (a few zero eigenvalues)"},
    {"bodies", 'b', "B", "multibody: number of bodies, 1..2N (default ceil(2N/3)); W is singular "
                         "when some contacts have more rows than their bodies have degrees of "
                         "freedom (6 a body, 3 in 2D)"},
    {"storage", 't', "dense|bsr", "storage of W in the file (default bsr)"},
    {"output", CB_CLI_SHORT('o'), "FILE", "the problem file: FCLIB HDF5 when it ends in .hdf5 or "
                                          ".h5 (not rolling2d), else Siconos text; required"},
    {"solution", 'x', "SOL", "also write the known solution (p and y; SOL.hdf5 / SOL.h5: an FCLIB "
                             "file with the problem and /solution)"},
    {NULL, 0, NULL, NULL}};

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
    case 'b':
        rc = cb_cli_parse_long("--bodies", optarg, 1, 200000000, &v);
        a->rs.bodies = (int)v;
        return rc;
    case 't':
        if (!strcmp(optarg, "dense") || !strcmp(optarg, "bsr")) {
            a->rs.storage = optarg[0] == 'd' ? CB_STORAGE_DENSE : CB_STORAGE_BSR;
            return CB_EXIT_OK;
        }
        return cb_cli_usage_error("--storage: '%s' is not dense or bsr", optarg);
    case 'o': a->out = optarg; return CB_EXIT_OK;
    case 'x': a->sol = optarg; return CB_EXIT_OK;
    default: return cb_cli_usage(&cb_command_generate);
    }
}

static int parse_gen(int argc, char **argv, gen_args *a)
{
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1)
        rc = gen_option(c, a);
    if (rc != CB_EXIT_OK)
        return rc;
    if (optind != argc - 1 || strcmp(argv[optind], "random") != 0)
        return cb_cli_usage(&cb_command_generate);
    if (!a->have_kind || !a->have_nc || !a->have_seed || !a->out) {
        cb_cli_usage_error("generate random: --kind, --nc, --seed and -o are required");
        return cb_cli_usage_of("generate", RANDOM_USAGE);
    }
    const char *h5 = cb_format_of_path(a->out) == CB_FORMAT_FCLIB ? a->out : a->sol;
    cb_error e = {{0}};
    if (h5 && cb_format_of_path(h5) == CB_FORMAT_FCLIB &&
        cb_fclib_local_kind_check(h5, a->rs.kind, &e) != CB_OK)
        return cb_cli_usage_error("%s", e.text);
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
        code = cb_write_problem_as(a.out, p, CB_FORMAT_AUTO, &err);
    if (code == CB_OK && a.sol)
        code = cb_format_of_path(a.sol) == CB_FORMAT_FCLIB
                   ? cb_write_fclib_solution(a.sol, p, ps, ys, &err)
                   : cb_write_solution(a.sol, p->nc, p->d, ps, ys, &err);
    if (code == CB_OK)
        fprintf(stderr, "conebench: wrote %s (%s, nc = %d, %s)%s%s\n", a.out,
                cb_kind_name(p->kind), p->nc, cb_storage_name(p->storage),
                a.sol ? " and its solution " : "", a.sol ? a.sol : "");
    cb_problem_free(p);
    free(ps);
    free(ys);
    return code == CB_OK ? CB_EXIT_OK : cb_cli_report(code, &err);
}

static const cb_cli_form forms[] = {{RANDOM_USAGE, opts},
                                    {CB_USAGE_GENERATE_SCENARIO, cb_generate_scenario_opts},
                                    {NULL, NULL}};

const cb_cli_command cb_command_generate = {
    "generate", cb_cmd_generate, "write problem files: random ones or a scenario's time steps",
    forms,
    "random: a problem with a KNOWN solution (Moreau decomposition: p* in K and y^ in K* with\n"
    "<y^, p*> = 0, mixing every contact mode; q = y* - W p*), the same bits for a seed on every\n"
    "machine. SCENARIO (conebench list scenarios): run it with the nonsmooth model and write the\n"
    "cone complementarity problem of each chosen step as DIR/SCENARIO-stepN.dat with its\n"
    "DIR/SCENARIO-stepN.meta (scenario, parameters, step, time); each written path on stdout.",
    "conebench generate random --kind rolling3d --nc 200 --seed 7 -o p.dat --solution p.sol\n"
    "conebench generate three-spheres --param m_top=20 --steps 10,30 -o steps",
    "0 written, 1 failure, 2 bad input (nothing is written then)"};
