/* conebench — `conebench status`: progress of a campaign's shards (shards.h). */
#include "shards_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"

#define SESSION_MAX 4096 /* session.txt is two short lines */

/* started and rows_before of DIR/session.txt; 0 when absent or unreadable. */
static int read_session(const char *dir, double *started, long *rows_before)
{
    char path[4200], *text = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/session.txt", dir);
    if (cb_read_file(path, SESSION_MAX, &text, &len, NULL) != CB_OK)
        return 0;
    const char *s = cb_shard_value(text, "started", &len);
    const char *r = cb_shard_value(text, "rows_before", &len);
    int ok = s && r && sscanf(s, "%lf", started) == 1 && sscanf(r, "%ld", rows_before) == 1;
    free(text);
    return ok;
}

/* Seconds left: the runs left at the rate of this session (rows since it started, over the
 * time since); 0 when nothing is left; NaN when no row came yet in this session. */
static double eta_of(long left, long done, double started, long rows_before, double now)
{
    long recent = done - rows_before;
    if (left <= 0)
        return 0;
    if (recent <= 0 || now <= started)
        return NAN;
    return (double)left * (now - started) / (double)recent;
}

int cb_shard_status_read(const char *dir, const char *campaign, double now, cb_shard_status *st,
                         cb_error *err)
{
    char path[4200];
    struct stat sb;
    cb_shard sh;
    cb_campaign *c = NULL;
    int consistent = 0, rc = CB_OK;
    memset(st, 0, sizeof *st);
    st->eta = NAN;
    snprintf(path, sizeof path, "%s/limits.txt", dir);
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return cb_fail(err, CB_ERR_INPUT, "%s: %s", dir,
                       errno == ENOENT ? "no such results directory" : "not a directory");
    if (stat(path, &sb) != 0)
        return CB_OK; /* created, not recorded yet: the shard is starting */
    rc = cb_shard_read(dir, &sh, err);
    if (rc == CB_OK)
        rc = cb_shard_campaign(&sh, campaign, &c, &consistent, err);
    cb_results_tally tally;
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    if (rc == CB_OK) /* a run id twice, or one of no run of this shard: refused */
        rc = cb_results_count(path, &sh.res, &sh, c, &tally, err);
    if (rc == CB_OK) {
        double started = 0;
        long rows_before = 0;
        st->started = 1;
        st->index = sh.index;
        st->count = sh.count;
        st->campaign_runs = cb_campaign_nruns(c);
        st->total = cb_shard_runs(st->campaign_runs, sh.index, sh.count);
        st->done = tally.expected >= 0 ? tally.rows : sh.res.nrows; /* runs of this shard */
        for (int i = 0; i < sh.res.nrows; i++)
            st->by_status[sh.res.rows[i].status] += !sh.res.rows[i].solved &&
                                                    !cb_result_is_step(&sh.res.rows[i]);
        int have = read_session(dir, &started, &rows_before);
        st->eta = st->done >= st->total ? 0
                  : have ? eta_of(st->total - st->done, st->done, started, rows_before, now)
                         : NAN;
    }
    cb_campaign_free(c);
    cb_shard_free(&sh);
    return rc;
}
