/* conebench — runs.csv rows: format, parse, read. */
#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/io.h"
#include "base.h"
#include "fileio.h"

#define NCOLS 38     /* columns of a row */
#define NCOLS_MID 31 /* the layout before the gap columns (still read) */
#define NCOLS_OLD 25 /* the layout before the sequence columns (still read) */
#define GAP_COL 31   /* the first gap column */

const char *cb_results_header(void)
{
    return "run_id,problem,sha256,kind,nc,solver,label,options,tol,rep,status,iterations,error,"
           "error_q,time_s,time_setup_s,time_solve_s,block_products,projections,local_iters,"
           "error_evals,machine,dist_ref,solved,error_data,time_cpu_s,sequence,step,warm_start,"
           "steps_unsolved,sequence_run,cone_violation,rolling_violation,spin_violation,angle_max,"
           "angle_mean,sliding,positive_work\n";
}

/* Append a CSV string field (quoted when it has a comma, quote or line break). */
static void put_str(char *buf, size_t len, size_t *k, const char *s, int last)
{
    int quote = strpbrk(s, ",\"\r\n") != NULL;
    if (quote && *k < len)
        buf[(*k)++] = '"';
    for (; *s && *k < len; s++) {
        if (*s == '"' && *k + 1 < len)
            buf[(*k)++] = '"';
        buf[(*k)++] = *s;
    }
    if (quote && *k < len)
        buf[(*k)++] = '"';
    if (*k < len)
        buf[(*k)++] = last ? '\n' : ',';
}

static void put_fmt(char *buf, size_t len, size_t *k, const char *fmt, double v)
{
    char tmp[64];
    if (isnan(v))
        snprintf(tmp, sizeof tmp, "nan");
    else if (isinf(v))
        snprintf(tmp, sizeof tmp, v > 0 ? "inf" : "-inf");
    else
        snprintf(tmp, sizeof tmp, fmt, v);
    put_str(buf, len, k, tmp, 0);
}

/* A real that may be unknown: "" for NaN (inf/-inf, else %.17g). */
static void put_opt(char *buf, size_t len, size_t *k, double v, int last)
{
    char tmp[64] = "";
    if (isinf(v))
        snprintf(tmp, sizeof tmp, "%s", v > 0 ? "inf" : "-inf");
    else if (!isnan(v))
        snprintf(tmp, sizeof tmp, "%.17g", v);
    put_str(buf, len, k, tmp, last);
}

/* The gap columns (the row's last): unknown measures and counts < 0 empty. */
static void put_gap(char *buf, size_t len, size_t *k, const cb_gap *g)
{
    put_opt(buf, len, k, g->cone_violation, 0);
    put_opt(buf, len, k, g->rolling_violation, 0);
    put_opt(buf, len, k, g->spin_violation, 0);
    put_opt(buf, len, k, g->angle_max, 0);
    put_opt(buf, len, k, g->angle_mean, 0);
    put_opt(buf, len, k, g->sliding < 0 ? NAN : g->sliding, 0);
    put_opt(buf, len, k, g->positive_work < 0 ? NAN : g->positive_work, 1);
}

int cb_result_format(const cb_result *r, char *buf, size_t len)
{
    size_t k = 0;
    put_str(buf, len, &k, r->run_id, 0);
    put_str(buf, len, &k, r->problem, 0);
    put_str(buf, len, &k, r->sha256, 0);
    put_str(buf, len, &k, r->kind, 0);
    put_fmt(buf, len, &k, "%.0f", r->nc);
    put_str(buf, len, &k, r->solver, 0);
    put_str(buf, len, &k, r->label, 0);
    put_str(buf, len, &k, r->options, 0);
    put_fmt(buf, len, &k, "%.17g", r->tol);
    put_fmt(buf, len, &k, "%.0f", r->rep);
    put_str(buf, len, &k, cb_status_name(r->status), 0);
    put_fmt(buf, len, &k, "%.0f", r->iterations);
    put_fmt(buf, len, &k, "%.17g", r->error);
    put_fmt(buf, len, &k, "%.17g", r->error_q);
    put_fmt(buf, len, &k, "%.9g", r->time_s);
    put_fmt(buf, len, &k, "%.9g", r->time_setup_s);
    put_fmt(buf, len, &k, "%.9g", r->time_solve_s);
    put_fmt(buf, len, &k, "%.0f", (double)r->work.block_products);
    put_fmt(buf, len, &k, "%.0f", (double)r->work.projections);
    put_fmt(buf, len, &k, "%.0f", (double)r->work.local_iters);
    put_fmt(buf, len, &k, "%.0f", (double)r->work.error_evals);
    put_str(buf, len, &k, r->machine, 0);
    if (isnan(r->dist_ref))
        put_str(buf, len, &k, "", 0);
    else
        put_fmt(buf, len, &k, "%.17g", r->dist_ref);
    put_str(buf, len, &k, r->solved ? "yes" : "no", 0);
    put_fmt(buf, len, &k, "%.17g", r->error_data);
    put_fmt(buf, len, &k, "%.9g", r->time_cpu_s);
    put_str(buf, len, &k, r->sequence, 0);
    if (r->step >= 0)
        put_fmt(buf, len, &k, "%.0f", (double)r->step);
    else
        put_str(buf, len, &k, "", 0);
    put_str(buf, len, &k, r->warm_start, 0);
    if (r->steps_unsolved >= 0)
        put_fmt(buf, len, &k, "%.0f", r->steps_unsolved);
    else
        put_str(buf, len, &k, "", 0);
    put_str(buf, len, &k, r->sequence_run, 0);
    put_gap(buf, len, &k, &r->gap);
    if (k >= len)
        return -1;
    buf[k] = '\0';
    return (int)k;
}

/* Split one CSV line into fields (quotes honoured); returns the count or -1. */
static int split_csv(const char *line, char fields[NCOLS][512])
{
    int n = 0;
    const char *s = line;
    for (;;) {
        if (n == NCOLS)
            return -1;
        size_t k = 0;
        int quoted = *s == '"';
        s += quoted;
        while (*s && (quoted || *s != ',')) {
            if (quoted && *s == '"') {
                if (s[1] != '"') {
                    quoted = 0;
                    s++;
                    continue;
                }
                s++;
            }
            if (k + 1 >= 512)
                return -1;
            fields[n][k++] = *s++;
        }
        if (quoted)
            return -1;
        fields[n++][k] = '\0';
        if (*s != ',')
            return n;
        s++;
    }
}

static int num(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return end != s && *end == '\0' ? 0 : -1;
}

static int copy_field(char *dst, size_t len, const char *src)
{
    if (strlen(src) >= len)
        return -1;
    strcpy(dst, src);
    return 0;
}

int cb_result_is_step(const cb_result *r) { return r->step >= 0; }

/* An optional integer field: "" gives -1, else a whole number ≥ 0. */
static int opt_count(const char *s, long *out)
{
    double v = -1;
    *out = -1;
    if (!*s)
        return 0;
    if (num(s, &v) != 0 || v < 0 || v != floor(v) || v > 1e15)
        return -1;
    *out = (long)v;
    return 0;
}

/* The columns after error_data (25..30) of a row of the current layout. */
static int parse_sequence_cols(char f[NCOLS][512], cb_result *r)
{
    long unsolved = -1;
    if (num(f[25], &r->time_cpu_s) || opt_count(f[27], &r->step) ||
        opt_count(f[29], &unsolved) || copy_field(r->sequence, sizeof r->sequence, f[26]) ||
        copy_field(r->warm_start, sizeof r->warm_start, f[28]) ||
        copy_field(r->sequence_run, sizeof r->sequence_run, f[30]))
        return CB_ERR_INPUT;
    r->steps_unsolved = (int)unsolved;
    return CB_OK;
}

/* An optional real: "" gives NaN. */
static int opt_num(const char *s, double *out)
{
    *out = NAN;
    return *s ? num(s, out) : 0;
}

/* The gap columns (GAP_COL..) of a row of the current layout. */
static int parse_gap_cols(char f[NCOLS][512], cb_gap *g)
{
    long sliding = -1, positive = -1;
    if (opt_num(f[GAP_COL], &g->cone_violation) || opt_num(f[GAP_COL + 1], &g->rolling_violation) ||
        opt_num(f[GAP_COL + 2], &g->spin_violation) || opt_num(f[GAP_COL + 3], &g->angle_max) ||
        opt_num(f[GAP_COL + 4], &g->angle_mean) || opt_count(f[GAP_COL + 5], &sliding) ||
        opt_count(f[GAP_COL + 6], &positive))
        return CB_ERR_INPUT;
    g->sliding = (int)sliding;
    g->positive_work = (int)positive;
    return CB_OK;
}

int cb_result_parse(const char *line, cb_result *r)
{
    char f[NCOLS][512];
    double v[NCOLS] = {0};
    memset(r, 0, sizeof *r);
    r->step = -1;
    r->steps_unsolved = -1;
    r->time_cpu_s = NAN; /* not in the 25-column layout */
    int ncols = split_csv(line, f);
    r->gap = CB_GAP_UNKNOWN; /* not in the earlier layouts */
    if (ncols != NCOLS && ncols != NCOLS_MID && ncols != NCOLS_OLD)
        return CB_ERR_INPUT;
    if (ncols >= NCOLS_MID && parse_sequence_cols(f, r) != CB_OK)
        return CB_ERR_INPUT;
    if (ncols == NCOLS && parse_gap_cols(f, &r->gap) != CB_OK)
        return CB_ERR_INPUT;
    r->dist_ref = NAN;
    if (f[22][0] && num(f[22], &r->dist_ref) != 0)
        return CB_ERR_INPUT;
    if (strcmp(f[23], "yes") != 0 && strcmp(f[23], "no") != 0)
        return CB_ERR_INPUT;
    r->solved = f[23][0] == 'y';
    static const int numeric[] = {4, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 24};
    for (size_t i = 0; i < sizeof numeric / sizeof *numeric; i++)
        if (num(f[numeric[i]], &v[numeric[i]]) != 0)
            return CB_ERR_INPUT;
    if (copy_field(r->run_id, sizeof r->run_id, f[0]) || copy_field(r->problem, sizeof r->problem, f[1]) ||
        copy_field(r->sha256, sizeof r->sha256, f[2]) || copy_field(r->kind, sizeof r->kind, f[3]) ||
        copy_field(r->solver, sizeof r->solver, f[5]) || copy_field(r->label, sizeof r->label, f[6]) ||
        copy_field(r->options, sizeof r->options, f[7]) ||
        copy_field(r->machine, sizeof r->machine, f[21]) || cb_status_parse(f[10], &r->status))
        return CB_ERR_INPUT;
    r->nc = (int)v[4];
    r->tol = v[8];
    r->rep = (int)v[9];
    r->iterations = (int)v[11];
    r->error = v[12];
    r->error_q = v[13];
    r->error_data = v[24];
    r->time_s = v[14];
    r->time_setup_s = v[15];
    r->time_solve_s = v[16];
    r->work.block_products = (long long)v[17];
    r->work.projections = (long long)v[18];
    r->work.local_iters = (long long)v[19];
    r->work.error_evals = (long long)v[20];
    return CB_OK;
}

/* Append a parsed row to out. */
static int push_row(cb_results *out, const cb_result *r)
{
    if ((out->nrows & (out->nrows - 1)) == 0) {
        size_t cap = out->nrows ? 2 * (size_t)out->nrows : 16;
        cb_result *rows = realloc(out->rows, cap * sizeof *rows);
        if (!rows)
            return CB_ERR_NOMEM;
        out->rows = rows;
    }
    out->rows[out->nrows++] = *r;
    return CB_OK;
}

int cb_results_read(const char *path, cb_results *out, cb_error *err)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? CB_OK : cb_fail_at(err, CB_ERR_IO, path, 0, "%s", strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0, pos = 0;
    int rc = CB_OK;
    while (rc == CB_OK && (n = getline(&line, &cap, f)) > 0) {
        lineno++;
        int complete = line[n - 1] == '\n';
        if (complete)
            line[n - 1] = '\0';
        cb_result r;
        if (lineno == 1 && !strncmp(line, "run_id,", 7)) {
            pos += n;
            out->valid_bytes = pos;
            out->header = 1;
            continue;
        }
        if (complete && cb_result_parse(line, &r) == CB_OK) {
            rc = push_row(out, &r) ? cb_fail(err, CB_ERR_NOMEM, "out of memory") : CB_OK;
            pos += n;
            out->valid_bytes = pos;
        } else if (complete) {
            rc = cb_fail_at(err, CB_ERR_INPUT, path, lineno, "malformed result row");
        }
    }
    free(line);
    fclose(f);
    if (rc != CB_OK)
        cb_results_free(out);
    return rc;
}

typedef struct {
    const char *id;
    int row;
} id_row;

static int cmp_id_row(const void *a, const void *b)
{
    const id_row *p = a, *q = b;
    int d = strcmp(p->id, q->id);
    return d ? d : (p->row > q->row) - (p->row < q->row);
}

void cb_result_describe(const cb_result *r, char *buf, size_t len)
{
    snprintf(buf, len, "run %s (%s, %s, tol %g, rep %d)", r->run_id, r->problem, r->label, r->tol,
             r->rep);
}

int cb_results_check_unique(const char *path, const cb_results *res, cb_error *err)
{
    id_row *v = malloc(((size_t)res->nrows + 1) * sizeof *v);
    char what[700];
    int rc = v ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    for (int i = 0; v && i < res->nrows; i++)
        v[i] = (id_row){res->rows[i].run_id, i};
    if (v)
        qsort(v, (size_t)res->nrows, sizeof *v, cmp_id_row);
    int a = -1, b = -1;
    for (int i = 1; v && i < res->nrows; i++)
        if (!strcmp(v[i].id, v[i - 1].id) && (b < 0 || v[i].row < b))
            a = v[i - 1].row, b = v[i].row;
    if (rc == CB_OK && b >= 0) {
        cb_result_describe(&res->rows[b], what, sizeof what);
        rc = cb_fail_at(err, CB_ERR_INPUT, path, b + 1 + res->header, "%s is already on line %d: "
                        "one row a run (two processes wrote this directory?)", what,
                        a + 1 + res->header);
    }
    free(v);
    return rc;
}

void cb_results_free(cb_results *r)
{
    if (!r)
        return;
    free(r->rows);
    r->rows = NULL;
    r->nrows = 0;
}

int cb_trace_write(const char *path, const cb_info *info, cb_error *err)
{
    cb_outbuf o;
    if (cb_outbuf_open(&o, err) != CB_OK)
        return CB_ERR_NOMEM;
    fprintf(o.f, "iteration,time_s,error\n");
    for (int i = 0; i < info->ntrace; i++)
        fprintf(o.f, "%d,%.9g,%.17g\n", info->trace[i].iteration, info->trace[i].time_s,
                info->trace[i].error);
    return cb_outbuf_commit(&o, path, err);
}
