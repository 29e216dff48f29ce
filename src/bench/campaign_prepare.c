/* conebench — materialise a campaign's generated problems (random generator, scenario steps). */
#include "conebench/campaign.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_sim.h"

#define MAX_WORDS 128

/* Run `conebench generate NAME ...` in-process from the campaign's stored words. */
static int run_scenario(const cb_campaign_problem *p, int verbose, cb_error *err)
{
    char *copy = cb_strdup(p->scenario), *argv[MAX_WORDS];
    int argc = 0;
    if (!copy)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    for (char *w = strtok(copy, " "); w && argc < MAX_WORDS - 1; w = strtok(NULL, " "))
        argv[argc++] = w;
    argv[argc] = NULL;
    if (verbose)
        fprintf(stderr, "conebench: %s\n", p->scenario);
    int status = cb_cmd_generate_scenario(argc, argv);
    free(copy);
    struct stat st;
    if (status != 0 && stat(p->path, &st) != 0)
        return cb_fail(err, status == 2 ? CB_ERR_INPUT : CB_ERR_IO, "scenario problems: `%s` failed",
                       p->scenario);
    return CB_OK;
}

int cb_campaign_prepare_problem(const cb_campaign *c, int i, int verbose, cb_error *err)
{
    const cb_campaign_problem *p = &c->problems[i];
    struct stat st;
    if ((!p->generated && !p->scenario) || stat(p->path, &st) == 0)
        return CB_OK;
    cb_error e = {{0}};
    cb_problem *g = NULL;
    int rc = CB_OK;
    if (p->scenario) {
        rc = run_scenario(p, verbose, &e);
    } else {
        if (verbose)
            fprintf(stderr, "conebench: generating %s\n", p->name);
        rc = cb_generate_random(&p->gen, &g, NULL, NULL, &e);
        if (rc == CB_OK)
            rc = cb_write_problem(p->path, g, &e);
        cb_problem_free(g);
    }
    return rc == CB_OK ? CB_OK : cb_fail_at(err, rc, c->path, p->line, "%s", e.text);
}
