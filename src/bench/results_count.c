/* conebench — the rows of a results directory against its campaign (runner.h): each run id at
 * most once, each one a run of the recorded campaign (its shard), and how many runs are missing. */
#include "shards_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "base.h"

static int cmp_id(const void *a, const void *b) { return strcmp(a, b); }

int cb_results_count(const char *path, const cb_results *res, const cb_shard *sh,
                     const cb_campaign *c, cb_results_tally *t, cb_error *err)
{
    long n = cb_campaign_nruns(c), k = 0;
    size_t len = 0;
    char (*ids)[17] = NULL, what[700];
    int mixed = cb_shard_value(sh->limits, "earlier_limits", &len) != NULL;
    t->rows = res->nrows;
    t->expected = -1;
    int rc = cb_results_check_unique(path, res, err);
    if (rc == CB_OK && (c->data_missing || c->sequences_missing))
        return CB_OK; /* its `data` or `sequence` lines were skipped here: not the run list */
    if (rc == CB_OK && !(ids = malloc(((size_t)n + 1) * sizeof *ids)))
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    for (long i = sh->index; rc == CB_OK && i < n; i += sh->count) {
        cb_run_ref r;
        cb_campaign_run(c, i, &r);
        memcpy(ids[k++], r.id, sizeof r.id);
    }
    if (ids)
        qsort(ids, (size_t)k, sizeof *ids, cmp_id);
    for (int i = 0; rc == CB_OK && i < res->nrows; i++) {
        int step = cb_result_is_step(&res->rows[i]); /* a step row: its sequence's run counts */
        t->rows -= step;
        if (bsearch(step ? res->rows[i].sequence_run : res->rows[i].run_id, ids, (size_t)k,
                    sizeof *ids, cmp_id))
            continue;
        t->rows += step;
        t->rows--; /* a forced resume keeps rows of the earlier settings: not counted */
        cb_result_describe(&res->rows[i], what, sizeof what);
        if (!mixed)
            rc = cb_fail_at(err, CB_ERR_INPUT, path, i + 1 + res->header, "%s is not a run of "
                            "the campaign %s records (shard %d/%d)", what, c->path, sh->index,
                            sh->count);
    }
    if (rc == CB_OK)
        t->expected = k;
    free(ids);
    return rc;
}

int cb_results_dir_count(const char *dir, const cb_results *res, cb_results_tally *t,
                         cb_error *err)
{
    char path[4200];
    cb_shard sh = {0};
    cb_results own = {0};
    cb_campaign *c = NULL;
    cb_error e = {{0}};
    int consistent = 0, rc = CB_OK;
    memset(t, 0, sizeof *t);
    t->expected = -1;
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    if (!res && (rc = cb_results_read(path, &own, err)) == CB_OK)
        res = &own;
    int known = rc == CB_OK && cb_shard_read(dir, &sh, &e) == CB_OK &&
                cb_shard_campaign(&sh, NULL, &c, &consistent, &e) == CB_OK;
    if (rc == CB_OK && known)
        rc = cb_results_count(path, res, &sh, c, t, err);
    else if (rc == CB_OK) /* no record, or its campaign does not parse here */
        rc = cb_results_check_unique(path, res, err);
    if (rc == CB_OK) {
        t->rows = known ? t->rows : res->nrows;
        snprintf(t->why, sizeof t->why, "%s", !known ? e.text : t->expected < 0 ? "its campaign "
                 "has `data` lines and the Siconos data folder is absent here, or `sequence` lines whose "
                 "folder is absent" : "");
    }
    cb_campaign_free(c);
    cb_shard_free(&sh);
    cb_results_free(&own);
    return rc;
}
