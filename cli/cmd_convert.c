/* conebench — `conebench convert IN OUT`: a problem file from Siconos text to FCLIB HDF5 and
 * back (or to the same format: a rewrite), the same bits either way. */
#include "commands.h"
#include "util.h"

#include <string.h>

#include "conebench/io.h"

static const cb_cli_opt opts[] = {
    {"to", 't', "siconos|fclib", "format of OUT (default: fclib when OUT ends in .hdf5 or .h5, "
                                 "else siconos)"},
    {"kind", 'k', "K", "read IN as cone kind K (e.g. rolling2d for d = 3; default: the file's)"},
    {NULL, 0, NULL, NULL}};

typedef struct {
    const char *in, *out;
    cb_format fmt;
    cb_read_settings rs;
} convert_args;

/* Apply one parsed option to a: --kind K or --to FORMAT. */
static int convert_option(int c, convert_args *a)
{
    if (c == 'k') {
        a->rs.force_kind = 1;
        if (cb_kind_parse(optarg, &a->rs.kind) != CB_OK)
            return cb_cli_usage_error("--kind: unknown cone kind '%s'", optarg);
        return CB_EXIT_OK;
    }
    if (c != 't')
        return cb_cli_usage(&cb_command_convert);
    if (strcmp(optarg, "siconos") != 0 && strcmp(optarg, "fclib") != 0)
        return cb_cli_usage_error("--to: '%s' is not siconos or fclib", optarg);
    a->fmt = optarg[0] == 's' ? CB_FORMAT_SICONOS : CB_FORMAT_FCLIB;
    return CB_EXIT_OK;
}

/* Options, then exactly IN and OUT; the format from OUT's extension unless --to. */
static int parse_convert(int argc, char **argv, convert_args *a)
{
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1)
        rc = convert_option(c, a);
    if (rc != CB_EXIT_OK)
        return rc;
    if (optind != argc - 2)
        return cb_cli_usage(&cb_command_convert);
    a->in = argv[optind];
    a->out = argv[optind + 1];
    if (a->fmt == CB_FORMAT_AUTO)
        a->fmt = cb_format_of_path(a->out);
    return CB_EXIT_OK;
}

/* Read IN (any format), write OUT in the chosen format; says what it wrote on stderr. */
int cb_cmd_convert(int argc, char **argv)
{
    convert_args a;
    memset(&a, 0, sizeof a);
    cb_read_settings_default(&a.rs);
    int rc = parse_convert(argc, argv, &a);
    if (rc != CB_EXIT_OK)
        return rc;
    cb_problem *p = NULL;
    cb_error err = {{0}};
    int code = cb_read_problem(a.in, &a.rs, &p, &err);
    if (code == CB_OK)
        code = cb_write_problem_as(a.out, p, a.fmt, &err);
    if (code == CB_OK)
        fprintf(stderr, "conebench: wrote %s (%s, %s%s, nc = %d)\n", a.out,
                a.fmt == CB_FORMAT_FCLIB ? "FCLIB" : "Siconos text", p->global ? "global " : "",
                cb_kind_name(p->kind), p->nc);
    cb_problem_free(p);
    return code == CB_OK ? CB_EXIT_OK : cb_cli_report(code, &err);
}

static const cb_cli_form forms[] = {{"convert IN OUT [options]", opts}, {NULL, NULL}};

const cb_cli_command cb_command_convert = {
    "convert", cb_cmd_convert, "convert a problem file between Siconos text and FCLIB HDF5",
    forms,
    "Reads IN (any format info reads) and writes the same problem to OUT, atomically: reading\n"
    "OUT gives the same bits (W, q, mu's; a global problem stays global: M, H, f, w). FCLIB:\n"
    "local coulomb2d/3d problems go to /fclib_local, global ones to /fclib_global, global\n"
    "rolling2d/3d ones to /fclib_global_rolling (Siconos's layout; libfclib 3.1 cannot read\n"
    "it). Local rolling3d/rollspin3d ones go to /fclib_local with spacedim 5/6 (libfclib reads\n"
    "W, q, mu) plus conebench's extension: vectors/mu_r, vectors/mu_s, conebench_kind.\n"
    "Local rolling2d (spacedim 3 would read as Coulomb 3D) and global rollspin3d problems are\n"
    "refused (exit 2, nothing written); keep them as Siconos text.",
    "conebench convert FC3D_Example1.dat FC3D_Example1.hdf5\n"
    "conebench convert Spheres-i099-356-679.hdf5 spheres.dat",
    "0 written, 1 failure, 2 bad input or a problem OUT's format cannot hold (nothing is "
    "written then)"};
