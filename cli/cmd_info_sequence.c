/* conebench — `conebench info DIR`: describe a step sequence (steps, contacts, turnover). */
#include "commands.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdio.h>

#include "sequence.h"

/* The range of Siconos' iterations over the steps that record them (lo −1: none). */
static void siconos_range(const cb_sequence *s, int *lo, int *hi, int *n)
{
    *lo = -1, *hi = -1, *n = 0;
    for (int k = 0; k < s->nsteps; k++) {
        int it = s->steps[k].siconos_iterations;
        if (it < 0)
            continue;
        *lo = *n == 0 || it < *lo ? it : *lo;
        *hi = it > *hi ? it : *hi;
        (*n)++;
    }
}

static void print_text(const cb_sequence *s, const cb_sequence_stats *st)
{
    int lo, hi, n;
    siconos_range(s, &lo, &hi, &n);
    printf("sequence: %s\nname: %s\nsteps: %d (step %ld to %ld)\n", s->dir, s->name, st->nsteps,
           s->steps[0].step, s->steps[s->nsteps - 1].step);
    if (isfinite(st->t_first) && isfinite(st->t_last))
        printf("time: %.17g to %.17g s\n", st->t_first, st->t_last);
    printf("nc: %d to %d (mean %.1f)\ncontact ids: %d of %d steps\n", st->nc_min, st->nc_max,
           st->nc_mean, st->with_ids, st->nsteps);
    if (st->with_ids > 1)
        printf("turnover: %ld appeared, %ld vanished (%.4g of the contacts of consecutive steps)\n",
               st->appeared, st->vanished, st->turnover);
    printf("solutions: %d of %d steps\n", st->with_sol, st->nsteps);
    if (n > 0)
        printf("siconos iterations: %d to %d (%d steps)\n", lo, hi, n);
}

static void print_json(const cb_sequence *s, const cb_sequence_stats *st)
{
    int lo, hi, n;
    cb_json j;
    siconos_range(s, &lo, &hi, &n);
    cb_json_begin(&j, stdout);
    cb_json_str(&j, "sequence", s->dir);
    cb_json_str(&j, "name", s->name);
    cb_json_int(&j, "steps", st->nsteps);
    cb_json_int(&j, "first_step", s->steps[0].step);
    cb_json_int(&j, "last_step", s->steps[s->nsteps - 1].step);
    cb_json_num(&j, "t_first", st->t_first);
    cb_json_num(&j, "t_last", st->t_last);
    cb_json_int(&j, "nc_min", st->nc_min);
    cb_json_int(&j, "nc_max", st->nc_max);
    cb_json_num(&j, "nc_mean", st->nc_mean);
    cb_json_int(&j, "with_ids", st->with_ids);
    cb_json_int(&j, "appeared", st->appeared);
    cb_json_int(&j, "vanished", st->vanished);
    cb_json_num(&j, "turnover", st->turnover);
    cb_json_int(&j, "with_solution", st->with_sol);
    cb_json_int(&j, "siconos_iterations_min", lo);
    cb_json_int(&j, "siconos_iterations_max", hi);
    cb_json_end(&j);
}

int cb_cli_info_sequence(const char *dir, const cb_read_settings *rs, int json)
{
    cb_sequence *s = NULL;
    cb_sequence_stats st;
    cb_error err = {{0}};
    int rc = cb_sequence_open(dir, &s, &err);
    if (rc == CB_OK)
        rc = cb_sequence_describe(s, rs, &st, &err);
    if (rc == CB_OK && json)
        print_json(s, &st);
    else if (rc == CB_OK)
        print_text(s, &st);
    cb_sequence_free(s);
    return rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
}
