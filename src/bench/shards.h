/* conebench — a campaign run in shards (`run --shard i/N`, one results directory each, e.g. the
 * tasks of a Slurm job array or of GNU parallel): merge the shards into one results directory,
 * and the progress of shards still running.
 *
 * A shard directory is read through its record (runner.h): limits.txt (campaign_sha256, the
 * limits, shard i/N), campaign.conf, machine.txt (conebench version and revision), runs.csv.
 * The full set of runs is the campaign's (cb_campaign_run ids), parsed from the recorded
 * campaign.conf (or from the campaign file given, whose text must be the recorded one) the way
 * `run` reads it: relative `problem` globs against the working directory, `data` against the
 * Siconos data folder.
 */
#ifndef CONEBENCH_SHARDS_H
#define CONEBENCH_SHARDS_H

#include <stdio.h>

#include "conebench/common.h"
#include "conebench/solver.h"

typedef struct {
    int force;            /* merge although campaigns, limits or versions differ (warns) */
    int allow_missing;    /* write OUT although runs are missing (listed) */
    const char *campaign; /* campaign file to take the runs from (its text must be the recorded
                             campaign.conf), NULL: the first shard's DIR/campaign.conf */
    FILE *log;            /* differences, duplicates, missing runs, one a line (NULL: stderr) */
} cb_merge_settings;

typedef struct {
    int nshards;
    long total;           /* runs of the campaign */
    long rows;            /* rows merged */
    long missing;         /* runs of the campaign with no row in any shard */
    int written;          /* 1: OUT was written */
} cb_merge_summary;

void cb_merge_settings_default(cb_merge_settings *s);

/* Merge the shard directories dirs[0..n) into the results directory out: runs.csv (the rows in
 * the campaign's run order), traces/, errors.log (concatenated), machine.txt (every shard's, each
 * under a "# shard i/N: DIR" line), limits.txt and campaign.conf (the record of the unsharded
 * campaign: `report` and `run --resume` take it as such). out is built in out.tmp-XXXXXX beside
 * it and renamed into place: it appears whole or not at all.
 * CB_ERR_INPUT, nothing written: out exists and is not empty; a directory is not a shard of
 * `run` (no record); shards of different campaigns, limits, shard counts or conebench versions or revisions,
 * a record that does not match its campaign.conf, or a shard index given twice (each difference
 * on s->log; with s->force they are warnings); a run id twice (listed); a row whose id is not a
 * run of the campaign.
 * CB_OK with sum->written = 0: runs are missing (listed on s->log) and not s->allow_missing. */
int cb_merge(const char *out, const char *const *dirs, int n, const cb_merge_settings *s,
             cb_merge_summary *sum, cb_error *err);

/* Progress of one shard directory. */
typedef struct {
    int started;          /* 0: the directory has no record yet (the shard is starting) */
    int index, count;     /* shard i/N */
    long total;           /* runs of this shard */
    long done;            /* rows in runs.csv */
    long by_status[CB_STATUS_COUNT]; /* runs not solved, by stop reason */
    long campaign_runs;   /* runs of the whole campaign */
    double eta;           /* seconds left at this session's rate; 0 when done; NaN: unknown */
} cb_shard_status;

/* Read the progress of dir at time now (seconds since the epoch) from its record, runs.csv and
 * session.txt (runner.h): eta = remaining · (now − started) / (rows done since started).
 * campaign: as in cb_merge_settings. CB_ERR_INPUT when dir is absent or its record unreadable. */
int cb_shard_status_read(const char *dir, const char *campaign, double now, cb_shard_status *st,
                         cb_error *err);

#endif
