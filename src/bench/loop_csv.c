/* conebench — loops.csv rows (loop.h): format and read. */
#include "loop.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base.h"
#include "fileio.h"

#define LOOP_FIELDS 34
#define LOOP_FIELDS_OLD 31 /* the layout before d_stop, d_stop_closed, heading_deg (still read) */
#define LOOP_MAX_BYTES (64L << 20) /* loops.csv larger than this is refused */

#define HEADER_OLD                                                                             \
    "id,loop,scenario,solver,label,tol,rep,reference,status,steps,unsolved,time_limited,"     \
    "iterations,max_nc,t_end,cpu_s,solve_s,max_error,energy0,energy_end,x_stop,t_stop,"       \
    "x_stop_closed,x_stop_err,height_over_phi,mean_radius_over_phi,pile_angle_deg,drift_pos," \
    "drift_pos_rel,drift_energy,indistinguishable"
static const char header[] = HEADER_OLD ",d_stop,d_stop_closed,heading_deg\n";
static const char header_old[] = HEADER_OLD "\n";

const char *cb_loop_header(void) { return header; }

int cb_loop_present(const char *dir)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, CB_LOOP_FILE);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The numeric fields of a row, in the order of the header from t_end on (ints apart): t_end ..
 * drift_energy, then (after indistinguishable) d_stop .. heading_deg. */
static double *num_field(cb_loop_row *r, int k)
{
    double *f[] = {&r->t_end, &r->cpu_s, &r->solve_s, &r->max_error, &r->energy0,
                   &r->energy_end, &r->x_stop, &r->t_stop, &r->x_stop_closed, &r->x_stop_err,
                   &r->height_over_phi, &r->mean_radius_over_phi, &r->pile_angle_deg,
                   &r->drift_pos, &r->drift_pos_rel, &r->drift_energy,
                   &r->d_stop, &r->d_stop_closed, &r->heading_deg};
    return f[k];
}
#define NUM_FIELDS 16 /* fields t_end .. drift_energy */
#define NUM_FIRST 14  /* column of t_end */
#define NUM_TAIL (LOOP_FIELDS - LOOP_FIELDS_OLD) /* d_stop, d_stop_closed, heading_deg */

/* One row as a CSV line (labels never hold a comma: loop.c writes ';' for one). */
void cb_loop_row_format(const cb_loop_row *r, FILE *f)
{
    fprintf(f, "%s,%s,%s,%s,%s,%.17g,%d,%d,%s,%ld,%ld,%ld,%lld,%d", r->id, r->loop, r->scenario,
            r->solver, r->label, r->tol, r->rep, r->reference, r->status, r->steps, r->unsolved,
            r->time_limited, r->iterations, r->max_nc);
    for (int k = 0; k < NUM_FIELDS; k++)
        fprintf(f, ",%.17g", *num_field((cb_loop_row *)r, k));
    fprintf(f, ",%d", r->indistinguishable);
    for (int k = NUM_FIELDS; k < NUM_FIELDS + NUM_TAIL; k++)
        fprintf(f, ",%.17g", *num_field((cb_loop_row *)r, k));
    fprintf(f, "\n");
}

/* Split line (in place) at commas into exactly `width` words; 0, or -1. */
static int split(char *line, char **w, int width)
{
    int n = 0;
    for (char *p = line; n < width; n++) {
        w[n] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            return n == width - 1 ? 0 : -1;
        *comma = '\0';
        p = comma + 1;
    }
    return -1;
}

/* A number of the row (the whole word, NaN allowed); 0 or -1. */
static int number(const char *w, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(w, &end);
    return end != w && *end == '\0' && errno != ERANGE ? 0 : -1;
}

/* Parse one line of `width` fields (LOOP_FIELDS, or LOOP_FIELDS_OLD: the tail NaN) into r: 0,
 * or -1. */
static int parse_row(char *line, int width, cb_loop_row *r)
{
    char *w[LOOP_FIELDS];
    double v[NUM_FIRST];
    memset(r, 0, sizeof *r);
    if (split(line, w, width) != 0 || strlen(w[0]) != 16)
        return -1;
    snprintf(r->id, sizeof r->id, "%s", w[0]);
    snprintf(r->loop, sizeof r->loop, "%s", w[1]);
    snprintf(r->scenario, sizeof r->scenario, "%s", w[2]);
    snprintf(r->solver, sizeof r->solver, "%s", w[3]);
    snprintf(r->label, sizeof r->label, "%s", w[4]);
    snprintf(r->status, sizeof r->status, "%s", w[8]);
    for (int k = 5; k < NUM_FIRST; k++)
        if (k != 8 && number(w[k], &v[k]) != 0)
            return -1;
    for (int k = 0; k < NUM_FIELDS; k++)
        if (number(w[NUM_FIRST + k], num_field(r, k)) != 0)
            return -1;
    double last;
    if (number(w[LOOP_FIELDS_OLD - 1], &last) != 0)
        return -1;
    for (int k = 0; k < NUM_TAIL; k++) {
        double *t = num_field(r, NUM_FIELDS + k);
        *t = NAN;
        if (width == LOOP_FIELDS && number(w[LOOP_FIELDS_OLD + k], t) != 0)
            return -1;
    }
    r->tol = v[5], r->rep = (int)v[6], r->reference = (int)v[7], r->steps = (long)v[9];
    r->unsolved = (long)v[10], r->time_limited = (long)v[11], r->iterations = (long long)v[12];
    r->max_nc = (int)v[13], r->indistinguishable = (int)last;
    return 0;
}

int cb_loop_rows_read(const char *dir, cb_loop_row **rows, int *n, cb_error *err)
{
    char path[4200], *text = NULL;
    size_t len = 0;
    *rows = NULL;
    *n = 0;
    snprintf(path, sizeof path, "%s/%s", dir, CB_LOOP_FILE);
    if (!cb_loop_present(dir))
        return CB_OK;
    int rc = cb_read_file(path, LOOP_MAX_BYTES, &text, &len, err), width = LOOP_FIELDS;
    const char *head = header;
    if (rc == CB_OK && strncmp(text, header, strlen(header)) != 0)
        width = LOOP_FIELDS_OLD, head = header_old; /* the older layout */
    if (rc == CB_OK && strncmp(text, head, strlen(head)) != 0)
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 1, "not a loops.csv header");
    long lines = 0;
    for (size_t i = 0; rc == CB_OK && i < len; i++)
        lines += text[i] == '\n';
    cb_loop_row *out = rc == CB_OK ? cb_calloc((size_t)lines + 1, sizeof *out) : NULL;
    if (rc == CB_OK && !out)
        rc = cb_fail(err, CB_ERR_NOMEM, "%s: out of memory", path);
    long ln = 1;
    char *save = NULL;
    for (char *l = rc == CB_OK ? strtok_r(text + strlen(head), "\n", &save) : NULL;
         l && rc == CB_OK; l = strtok_r(NULL, "\n", &save)) {
        ln++;
        if (parse_row(l, width, &out[*n]) != 0)
            rc = cb_fail_at(err, CB_ERR_INPUT, path, ln, "malformed row (%d fields expected)",
                            width);
        else
            (*n)++;
    }
    free(text);
    if (rc != CB_OK) {
        free(out);
        *n = 0;
    } else {
        *rows = out;
    }
    return rc;
}
