/* conebench — report tables: the rows of one tolerance as problem × solver cells, and the
 * statistics of each solver (success, shifted geometric means, failures by status). */
#include "loop.h"
#include "report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "metrics.h"
#include "base.h"

#define DEFAULT_TIME_LIMIT 10.0 /* s, when limits.txt is absent */
#define DEFAULT_MAX_ITER 10000

/* DIR/limits.txt written by the runner (defaults if absent). */
static void load_limits(const char *dir, cb_report_limits *lim)
{
    char path[4096], key[64], val[256];
    memset(lim, 0, sizeof *lim);
    lim->time_limit = DEFAULT_TIME_LIMIT;
    lim->max_iter = DEFAULT_MAX_ITER;
    snprintf(lim->campaign, sizeof lim->campaign, "?");
    snprintf(path, sizeof path, "%s/limits.txt", dir);
    FILE *f = fopen(path, "r");
    while (f && fscanf(f, "%63s %255s", key, val) == 2) {
        if (!strcmp(key, "time_limit"))
            lim->time_limit = atof(val);
        else if (!strcmp(key, "max_iter"))
            lim->max_iter = atoi(val);
        else if (!strcmp(key, "campaign"))
            snprintf(lim->campaign, sizeof lim->campaign, "%s", val);
        else if (!strcmp(key, "earlier_limits"))
            snprintf(lim->earlier, sizeof lim->earlier, "%s", val);
    }
    if (f)
        fclose(f);
}

/* The results directory exists (said so, rather than "no runs.csv in it"). */
static int check_dir(const char *dir, cb_error *err)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return cb_fail(err, CB_ERR_INPUT, "%s: %s", dir,
                       errno == ENOENT ? "no such directory" : strerror(errno));
    return S_ISDIR(st.st_mode) ? CB_OK : cb_fail(err, CB_ERR_INPUT, "%s: not a directory", dir);
}

/* Move the rows of sequence runs into seq (step rows and sequence rows, as read), keeping in
 * res every other row and each sequence row as one cell of the tables: a sequence is a problem
 * whose cost is its totals, and a warm-started run a solver of its own ("LABEL warm=MODE"). */
static int split_sequences(cb_results *res, cb_results *seq)
{
    int k = 0, n = 0;
    for (int i = 0; i < res->nrows; i++)
        n += res->rows[i].sequence[0] != '\0';
    memset(seq, 0, sizeof *seq);
    if (n == 0)
        return CB_OK;
    if (!(seq->rows = malloc((size_t)n * sizeof *seq->rows)))
        return CB_ERR_NOMEM;
    for (int i = 0; i < res->nrows; i++) {
        cb_result *r = &res->rows[i];
        if (r->sequence[0])
            seq->rows[seq->nrows++] = *r;
        if (cb_result_is_step(r))
            continue;
        if (r->sequence[0] && strcmp(r->warm_start, "cold") != 0) {
            char label[sizeof r->label];
            snprintf(label, sizeof label, "%.200s warm=%.15s", r->label, r->warm_start);
            memcpy(r->label, label, sizeof label);
        }
        res->rows[k++] = *r;
    }
    res->nrows = k;
    return CB_OK;
}

int cb_report_load(const char *dir, cb_results *res, cb_results *seq, cb_report_limits *lim,
                   cb_error *err)
{
    char path[4096];
    cb_results own = {0};
    memset(res, 0, sizeof *res);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    int rc = check_dir(dir, err);
    if (rc == CB_OK)
        rc = cb_results_read(path, res, err);
    if (rc == CB_OK && res->nrows == 0 && !cb_loop_present(dir)) /* loop lines only: loops.csv */
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 0, "no results (run a campaign first)");
    if (rc == CB_OK && split_sequences(res, seq ? seq : &own) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "report: out of memory");
    cb_results_free(&own);
    if (rc == CB_OK)
        load_limits(dir, lim);
    return rc;
}

int cb_report_index_of(const char **list, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i], s))
            return i;
    return -1;
}

const char *cb_report_problem_word(const cb_report_table *t, int n)
{
    static char word[48];
    int same = t->np > 0;
    for (int p = 1; p < t->np && same; p++)
        same = !strcmp(t->kinds[p], t->kinds[0]);
    snprintf(word, sizeof word, "%s%sproblem%s", same ? t->kinds[0] : "", same ? " " : "",
             n == 1 ? "" : "s");
    return word;
}

int cb_report_tols(const cb_results *r, double *tols, int max)
{
    int n = 0;
    for (int i = 0; i < r->nrows; i++) {
        int seen = 0;
        for (int k = 0; k < n; k++)
            seen |= tols[k] == r->rows[i].tol;
        if (!seen && n < max)
            tols[n++] = r->rows[i].tol;
    }
    for (int i = 1; i < n; i++) /* insertion sort, descending */
        for (int k = i; k > 0 && tols[k] > tols[k - 1]; k--) {
            double t = tols[k];
            tols[k] = tols[k - 1];
            tols[k - 1] = t;
        }
    return n;
}

void cb_report_table_free(cb_report_table *t)
{
    if (!t)
        return;
    free(t->probs);
    free(t->solvs);
    free(t->kinds);
    free(t->ncs);
    free(t->cells);
    free(t->common);
    memset(t, 0, sizeof *t);
}

int cb_report_unsupported(const cb_report_cell *c)
{
    return c->present && c->status == CB_STATUS_UNSUPPORTED;
}

/* t->common = the problems that every solver of the table supports (the profiles' problems). */
static int find_common(cb_report_table *t)
{
    t->ncommon = 0;
    if (!(t->common = malloc(((size_t)t->np + 1) * sizeof *t->common)))
        return CB_ERR_NOMEM;
    for (int p = 0; p < t->np; p++) {
        int ok = 1;
        for (int s = 0; s < t->ns; s++)
            ok &= !cb_report_unsupported(&t->cells[p * t->ns + s]);
        if (ok)
            t->common[t->ncommon++] = p;
    }
    return CB_OK;
}

/* First repetition's data into the cell; solved only if every repetition solved; work filled
 * when some counter of some repetition is non-zero. */
static void add_to_cell(cb_report_cell *c, const cb_result *r)
{
    if (!c->present) {
        c->present = 1;
        c->status = r->status;
        c->iterations = r->iterations;
        c->work = (double)r->work.block_products;
        c->error = r->error;
        c->error_q = r->error_q;
        c->dist_ref = r->dist_ref;
        c->run_id = r->run_id;
        c->solved = 1;
    }
    c->nreps++;
    c->solved &= r->solved;
    c->work_filled |= r->work.block_products != 0 || r->work.projections != 0 ||
                      r->work.local_iters != 0 || r->work.error_evals != 0;
}

/* The problems and solvers of tolerance t->tol, in order of first appearance. */
static void list_names(const cb_results *r, cb_report_table *t)
{
    for (int i = 0; i < r->nrows; i++) {
        const cb_result *row = &r->rows[i];
        if (row->tol != t->tol)
            continue;
        if (cb_report_index_of(t->probs, t->np, row->problem) < 0) {
            t->kinds[t->np] = row->kind;
            t->ncs[t->np] = row->nc;
            t->probs[t->np++] = row->problem;
        }
        if (cb_report_index_of(t->solvs, t->ns, row->label) < 0)
            t->solvs[t->ns++] = row->label;
    }
}

/* Fill the cells (median time over repetitions). */
static void fill_cells(const cb_results *r, cb_report_table *t, int *cell_of, double *times)
{
    size_t n = (size_t)r->nrows;
    for (size_t i = 0; i < n; i++) {
        const cb_result *row = &r->rows[i];
        cell_of[i] = -1;
        if (row->tol != t->tol)
            continue;
        int p = cb_report_index_of(t->probs, t->np, row->problem);
        int so = cb_report_index_of(t->solvs, t->ns, row->label);
        cell_of[i] = p * t->ns + so;
        add_to_cell(&t->cells[cell_of[i]], row);
        t->has_dist |= !isnan(row->dist_ref);
    }
    for (int c = 0; c < t->np * t->ns; c++) {
        int k = 0;
        for (size_t i = 0; i < n; i++)
            if (cell_of[i] == c)
                times[k++] = r->rows[i].time_s;
        t->cells[c].time = cb_median(times, k);
    }
}

int cb_report_table_build(const cb_results *r, double tol, cb_report_table *t)
{
    memset(t, 0, sizeof *t);
    t->tol = tol;
    size_t n = (size_t)r->nrows + 1;
    int *cell_of = malloc(n * sizeof *cell_of);
    double *times = malloc(n * sizeof *times);
    t->probs = calloc(n, sizeof *t->probs);
    t->solvs = calloc(n, sizeof *t->solvs);
    t->kinds = calloc(n, sizeof *t->kinds);
    t->ncs = calloc(n, sizeof *t->ncs);
    int rc = cell_of && times && t->probs && t->solvs && t->kinds && t->ncs ? CB_OK : CB_ERR_NOMEM;
    if (rc == CB_OK)
        list_names(r, t);
    if (rc == CB_OK && !(t->cells = calloc((size_t)t->np * t->ns + 1, sizeof *t->cells)))
        rc = CB_ERR_NOMEM;
    if (rc == CB_OK) {
        fill_cells(r, t, cell_of, times);
        rc = find_common(t);
    }
    free(cell_of);
    free(times);
    if (rc != CB_OK)
        cb_report_table_free(t);
    return rc;
}

/* Success rate, shifted geometric means (failures charged the limits), median error; over the
 * runs only: unsupported cells are counted apart. */
void cb_report_stats(const cb_report_limits *lim, const cb_report_table *t, int s,
                     cb_report_solver *st)
{
    memset(st, 0, sizeof *st);
    st->label = t->solvs[s];
    size_t n = (size_t)t->np + 1;
    double *tm = malloc(n * sizeof *tm), *it = malloc(n * sizeof *it), *er = malloc(n * sizeof *er);
    int k = 0, ke = 0;
    for (int p = 0; tm && it && er && p < t->np; p++) {
        const cb_report_cell *c = &t->cells[p * t->ns + s];
        if (!c->present)
            continue;
        if (cb_report_unsupported(c)) {
            st->unsupported++;
            continue;
        }
        st->runs++;
        st->solved += c->solved;
        st->status_count[c->status] += !c->solved; /* failures by stop reason */
        st->work_filled |= c->work_filled;
        tm[k] = c->solved ? c->time : lim->time_limit;
        it[k++] = c->solved ? c->iterations : lim->max_iter;
        if (isfinite(c->error))
            er[ke++] = c->error;
    }
    st->success = st->runs ? (double)st->solved / st->runs : NAN;
    st->sgm_time_s = cb_shifted_geomean(tm, k, CB_REPORT_TIME_SHIFT_S);
    st->sgm_iter = cb_shifted_geomean(it, k, CB_REPORT_ITER_SHIFT);
    st->median_error = cb_median(er, ke);
    free(tm);
    free(it);
    free(er);
}

int cb_report_winner(const cb_report_table *t, int p)
{
    int best = -1;
    for (int s = 0; s < t->ns; s++) {
        const cb_report_cell *c = &t->cells[p * t->ns + s];
        if (c->present && c->solved && (best < 0 || c->time < t->cells[p * t->ns + best].time))
            best = s;
    }
    return best;
}
