/* conebench — `conebench project`: project vectors read from stdin onto a cone. */
#include "commands.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/cone.h"

static const cb_cli_opt opts[] = {
    {"kind", 'k', "K", "cone kind: coulomb2d, coulomb3d, rolling2d, rolling3d or rollspin3d; "
                       "required"},
    {"mu", 'm', "M", "friction coefficient (>= 0); required"},
    {"mur", 'r', "MR", "rolling coefficient (>= 0; default 0)"},
    {"mus", 's', "MS", "spinning coefficient (>= 0; default 0)"},
    {"count", 'c', NULL, "say on stderr how many vectors landed inside, at zero, on the boundary"},
    {NULL, 0, NULL, NULL}};

typedef struct {
    cb_kind kind;
    cb_friction f;
    int have_kind, have_mu, count;
} project_args;

static int parse_project(int argc, char **argv, project_args *a)
{
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1) {
        if (c == 'k') {
            a->have_kind = 1;
            if (cb_kind_parse(optarg, &a->kind) != CB_OK)
                rc = cb_cli_usage_error("--kind: unknown cone kind '%s'", optarg);
        } else if (c == 'm') {
            a->have_mu = 1;
            rc = cb_cli_parse_double("--mu", optarg, &a->f.mu);
        } else if (c == 'r') {
            rc = cb_cli_parse_double("--mur", optarg, &a->f.mu_r);
        } else if (c == 's') {
            rc = cb_cli_parse_double("--mus", optarg, &a->f.mu_s);
        } else if (c == 'c') {
            a->count = 1;
        } else {
            rc = cb_cli_usage(&cb_command_project);
        }
    }
    if (rc == CB_EXIT_OK && (!a->have_kind || !a->have_mu || optind != argc))
        rc = cb_cli_usage(&cb_command_project);
    if (rc == CB_EXIT_OK && (a->f.mu < 0 || a->f.mu_r < 0 || a->f.mu_s < 0))
        rc = cb_cli_usage_error("--mu/--mur/--mus: coefficients must be ≥ 0");
    return rc;
}

/* Parse exactly d finite numbers from line; 0 on success. */
static int parse_vector(const char *line, int d, double *x, const char **why)
{
    const char *s = line;
    for (int i = 0; i < d; i++) {
        char *end;
        errno = 0;
        x[i] = strtod(s, &end);
        if (end == s) {
            *why = "too few numbers or not a number";
            return -1;
        }
        if (!isfinite(x[i]) || errno == ERANGE) {
            *why = "value is not a finite number";
            return -1;
        }
        s = end;
    }
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    if (*s) {
        *why = "too many numbers or trailing text";
        return -1;
    }
    return 0;
}

int cb_cmd_project(int argc, char **argv)
{
    project_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_project(argc, argv, &a);
    if (rc != CB_EXIT_OK)
        return rc;
    int d = cb_kind_dim(a.kind);
    long counts[3] = {0, 0, 0}, lineno = 0;
    char *line = NULL;
    size_t cap = 0;
    double x[CB_MAX_DIM];
    while (rc == CB_EXIT_OK && getline(&line, &cap, stdin) != -1) {
        const char *why = NULL;
        lineno++;
        if (line[strspn(line, " \t\r\n")] == '\0')
            continue;
        if (parse_vector(line, d, x, &why) != 0) {
            rc = cb_cli_usage_error("<stdin>:%ld: expected %d numbers for %s: %s", lineno, d,
                                    cb_kind_name(a.kind), why);
            break;
        }
        cb_proj_case pc = cb_project(a.kind, &a.f, x, x);
        if (pc == CB_PROJ_NONFINITE) {
            rc = cb_cli_usage_error("<stdin>:%ld: projection failed (non-finite)", lineno);
            break;
        }
        counts[pc]++;
        for (int i = 0; i < d; i++)
            printf("%.17g%c", x[i], i + 1 < d ? ' ' : '\n');
    }
    free(line);
    if (rc == CB_EXIT_OK && a.count)
        fprintf(stderr, "projected %ld vectors: %ld inside, %ld to zero, %ld to the boundary\n",
                counts[0] + counts[1] + counts[2], counts[CB_PROJ_INSIDE], counts[CB_PROJ_ZERO],
                counts[CB_PROJ_BOUNDARY]);
    return rc;
}

static const cb_cli_form forms[] = {{"project --kind K --mu M [options] < VECTORS", opts},
                                    {NULL, NULL}};

const cb_cli_command cb_command_project = {
    "project", cb_cmd_project, "project vectors read from stdin onto a friction cone", forms,
    "Reads one vector of d numbers a line on stdin (d: 2, 3, 3, 5, 6 for the kinds above; blank\n"
    "lines are skipped) and prints its projection onto the cone, %.17g, one vector a line.",
    "echo \"1 2 0 0.5 0\" | conebench project --kind rolling3d --mu 0.5 --mur 0.1 --count",
    "0 projected, 2 bad input (conebench: <stdin>:LINE: what is wrong)"};
