/* conebench — one shard directory of a campaign as merge.c and status.c read it (src/bench,
 * internal): its record (limits.txt, campaign.conf, machine.txt) and runs.csv. */
#ifndef CONEBENCH_SHARDS_INTERNAL_H
#define CONEBENCH_SHARDS_INTERNAL_H

#include "campaign.h"
#include "results.h"
#include "runner.h"
#include "shards.h"

typedef struct {
    const char *dir;      /* as given (not owned) */
    char *limits;         /* DIR/limits.txt */
    char *conf;           /* DIR/campaign.conf */
    char *machine;        /* DIR/machine.txt, "" when absent */
    char hash[65];        /* recorded campaign_sha256 */
    int index, count;     /* shard i/N */
    cb_results res;       /* DIR/runs.csv (no rows when absent) */
} cb_shard;

/* Read dir's record and rows. CB_ERR_INPUT: dir absent, or no limits.txt / campaign.conf
 * (not a results directory of `run`, or a shard that has not started), or a record without
 * campaign_sha256 and shard. Owns what it allocates: cb_shard_free (accepts a zeroed sh). */
int cb_shard_read(const char *dir, cb_shard *sh, cb_error *err);
void cb_shard_free(cb_shard *sh);

/* The value of the line "KEY VALUE" of text (KEY may end with ':'), its length in *len, or
 * NULL. */
const char *cb_shard_value(const char *text, const char *key, size_t *len);

/* Parse the campaign the shard ran (shards.h: file or DIR/campaign.conf, not checked further:
 * only its runs are needed), and check that the recorded campaign_sha256 is the one this
 * campaign gives for shard i/N (*consistent = 0 when not). */
int cb_shard_campaign(const cb_shard *sh, const char *file, cb_campaign **c, int *consistent,
                      cb_error *err);

/* The rows res of path (a runs.csv) against campaign c run as shard sh: CB_ERR_INPUT
 * "PATH:LINE: ..." for a run id on two rows or a row that is not a run of the shard (kept, not
 * counted, when sh's record names earlier limits: a forced resume); t->rows: the rows of runs of
 * the shard, t->expected: its runs (-1 when c skipped `data` lines: its run list is unknown). */
int cb_results_count(const char *path, const cb_results *res, const cb_shard *sh,
                     const cb_campaign *c, cb_results_tally *t, cb_error *err);

/* Runs of the campaign's run list that belong to shard i of n (run k goes to shard k mod n). */
long cb_shard_runs(long nruns, int i, int n);

#endif
