/* conebench — `conebench reference`: the reference solution of one problem file (by nsn+nsgs
 * and ipm+nsn, judged), or the check of a stored one against its problem. */
#include "commands.h"
#include "json.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

#include "conebench/judge.h"
#include "reference.h"
#include "base.h"

static const cb_cli_opt opts[] = {
    {"output", CB_CLI_SHORT('o'), "OUT.ref", "the reference file to write; required (or --check)"},
    {"check", 'c', "REF", "read REF instead, check it is FILE's (sha256, size), judge it anew"},
    {"tol", 't', "T", "target judged error of every solver run (default 1e-12)"},
    {"time-limit", 'l', "S", "seconds per solver run (default 60)"},
    {"max-iter", 'n', "N", "iterations per solver run (default 10000)"},
    {"kind", 'k', "K", "read FILE as cone kind K (e.g. rolling2d for d = 3; default: the file's)"},
    {"json", 'j', NULL, "print one JSON object (keys: man conebench, JSON OUTPUT)"},
    {NULL, 0, NULL, NULL}};

typedef struct {
    const char *file, *out, *check;
    int json;
    cb_reference_settings s;
    cb_read_settings rs;
} ref_args;

static int ref_option(int c, ref_args *a)
{
    long v;
    int rc;
    switch (c) {
    case 'o': a->out = optarg; return CB_EXIT_OK;
    case 'c': a->check = optarg; return CB_EXIT_OK;
    case 't': return cb_cli_parse_double("--tol", optarg, &a->s.tol);
    case 'l': return cb_cli_parse_time_limit("--time-limit", optarg, &a->s.time_limit);
    case 'n':
        rc = cb_cli_parse_long("--max-iter", optarg, 1, 0x7fffffff, &v);
        a->s.max_iter = (int)v;
        return rc;
    case 'j': a->json = 1; return CB_EXIT_OK;
    case 'k':
        a->rs.force_kind = 1;
        return cb_kind_parse(optarg, &a->rs.kind) == CB_OK
                   ? CB_EXIT_OK
                   : cb_cli_usage_error("--kind: unknown cone kind '%s'", optarg);
    default: return cb_cli_usage(&cb_command_reference);
    }
}

static int parse_ref(int argc, char **argv, ref_args *a)
{
    cb_cli_parser p;
    int c, rc = CB_EXIT_OK;
    cb_cli_parser_init(&p, opts);
    while (rc == CB_EXIT_OK && (c = cb_cli_next(&p, argc, argv)) != -1)
        rc = ref_option(c, a);
    if (rc == CB_EXIT_OK && (optind != argc - 1 || !a->out == !a->check))
        rc = a->out && a->check ? cb_cli_usage_error("-o and --check: one or the other")
                                : cb_cli_usage(&cb_command_reference);
    if (rc == CB_EXIT_OK)
        a->file = argv[optind];
    if (rc == CB_EXIT_OK && !(a->s.tol > 0))
        rc = cb_cli_usage_error("--tol: must be > 0");
    if (rc == CB_EXIT_OK && !(a->s.time_limit > 0))
        rc = cb_cli_usage_error("--time-limit: must be > 0");
    return rc;
}

/* One line, or one JSON object (keys: docs/conebench.1, JSON OUTPUT). */
static void print_ref(const ref_args *a, const cb_problem *p, const cb_reference *r)
{
    const char *dest = a->out ? a->out : a->check;
    if (!a->json) {
        printf("%s  %s  nc=%d  reference=%s  solver=%s  error=%.3e  error_q=%.3e  unique=%s\n",
               a->file, cb_kind_name(p->kind), p->nc, dest, r->solver, r->error, r->error_q,
               cb_uniqueness_name(r->unique));
        return;
    }
    cb_json j;
    cb_json_begin(&j, stdout);
    cb_json_str(&j, "problem", a->file);
    cb_json_str(&j, "sha256", r->sha256);
    cb_json_str(&j, "kind", cb_kind_name(p->kind));
    cb_json_int(&j, "nc", p->nc);
    cb_json_str(&j, "reference", dest);
    cb_json_str(&j, "solver", r->solver);
    cb_json_num(&j, "error", r->error);
    cb_json_num(&j, "error_q", r->error_q);
    cb_json_str(&j, "unique", cb_uniqueness_name(r->unique));
    cb_json_end(&j);
}

/* --check: REF must be p's (sha256, nc, d); its p is judged anew (the file's figures are not
 * trusted). */
static int check_ref(const ref_args *a, const cb_problem *p, cb_reference *r, cb_error *err)
{
    cb_judgement jd;
    int rc = cb_read_reference(a->check, r, err);
    if (rc == CB_OK && (strcmp(r->sha256, p->prov.sha256) != 0 || r->nc != p->nc || r->d != p->d))
        rc = cb_fail_at(err, CB_ERR_INPUT, a->check, 1,
                        "the reference of another problem (sha256 %.12s..., nc = %d, d = %d; "
                        "%s has sha256 %.12s..., nc = %d, d = %d)",
                        r->sha256, r->nc, r->d, a->file, p->prov.sha256, p->nc, p->d);
    if (rc == CB_OK)
        rc = cb_judge(p, r->p, a->s.tol, NULL, &jd, err);
    if (rc == CB_OK)
        r->error = jd.error, r->error_q = jd.error_q;
    return rc;
}

static int run_ref(const ref_args *a, cb_error *err)
{
    cb_problem *p = NULL;
    cb_reference r = {0};
    int rc = cb_read_problem(a->file, &a->rs, &p, err);
    if (rc == CB_OK && a->check)
        rc = check_ref(a, p, &r, err);
    else if (rc == CB_OK)
        rc = cb_reference_compute(p, &a->s, &r, err);
    if (rc == CB_OK && a->out)
        rc = cb_write_reference(a->out, &r, err);
    if (rc == CB_OK)
        print_ref(a, p, &r);
    cb_reference_free(&r);
    cb_problem_free(p);
    return rc;
}

int cb_cmd_reference(int argc, char **argv)
{
    ref_args a;
    memset(&a, 0, sizeof a);
    cb_reference_settings_default(&a.s);
    cb_read_settings_default(&a.rs);
    int rc = parse_ref(argc, argv, &a);
    if (rc == CB_EXIT_OK) {
        cb_error err = {{0}};
        if ((rc = run_ref(&a, &err)) != CB_OK)
            rc = cb_cli_report(rc, &err);
    }
    return rc;
}

static const cb_cli_form forms[] = {{"reference FILE -o OUT.ref [options]\n"
                                     "reference FILE --check REF [options]",
                                     opts},
                                    {NULL, NULL}};

const cb_cli_command cb_command_reference = {
    "reference", cb_cmd_reference,
    "the reference solution of a problem: by nsn+nsgs and ipm+nsn, judged, stored", forms,
    "Reads FILE (any format info reads), runs nsn+nsgs (formulation=ac, then natural) and\n"
    "ipm+nsn to --tol from p = 0, then nsn+nsgs again from the best of them; the judge keeps the best (least\n"
    "error, then error_q). OUT.ref holds FILE's sha256, the judged error and error_q, the run\n"
    "that produced it, whether p* is unique (W positive definite: yes; W singular: no, the\n"
    "solutions form a set), then p and y. Campaigns use FILE.ref (or a `references DIR` line)\n"
    "for the runs.csv column dist_ref. --check REF judges a stored reference anew.",
    "conebench reference problem.dat -o problem.dat.ref --tol 1e-12 --json",
    "0 written (or checked), 1 failure (no solver run gave a finite error), 2 bad input (also a\n"
    "garbled REF or the reference of another problem)"};
