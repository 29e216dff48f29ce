/* conebench — the campaign runner: every run in its own child process with a time
 * limit, so a crash or a hang is recorded (status crashed / time_limit) and the campaign goes on.
 *
 * Output directory: runs.csv (cb_results format, one row appended per run with a single write),
 * traces/<run_id>.csv (iteration,time_s,error), problems/ (generated problems), machine.txt,
 * solutions/<run_id>.sol.gz (the final iterate of every judged run, with settings.solutions: the
 * row's verdict is `conebench error PROBLEM --solution solutions/<run_id>.sol.gz --tol TOL`'s),
 * errors.log (messages of runs that could not start, e.g. bad input, or that a solver does not
 * support: their rows have status unsupported, not counted as failures).
 * session.txt (when this session started and how many rows runs.csv held then: the rate
 * `conebench status` takes its ETA from).
 * Sharding: run i belongs to shard i mod N, so shards are disjoint, deterministic, and their
 * runs.csv files concatenate (minus repeated headers) into the unsharded result.
 */
#ifndef CONEBENCH_RUNNER_H
#define CONEBENCH_RUNNER_H

#include <signal.h>

#include "campaign.h"
#include "results.h"
#include "fileio.h"

typedef struct {
    const char *outdir;
    int jobs;            /* parallel children, ≥ 1 (default 1) */
    int shard_index;     /* 0 ≤ shard_index < shard_count (default 0 of 1) */
    int shard_count;
    int resume;          /* keep finished runs of runs.csv, run only the others */
    int force;           /* resume even when the campaign or its limits changed */
    int solutions;       /* 1: write solutions/<run_id>.sol.gz of every judged run (default 0) */
    /* When *stop becomes nonzero (a signal number, set by the caller's handler), the runner
     * kills its children, drops their runs, keeps every complete row and returns CB_OK with
     * summary.interrupted = *stop. NULL: never. */
    const volatile sig_atomic_t *stop;
    int progress;        /* 1: progress on stderr (a live line on a TTY) */
    /* A child is killed (status time_limit) after time_limit + kill_after s of its CPU time or
     * CB_WALL_GUARD_FACTOR · time_limit + kill_after s of wall time (default 2): reading the
     * problem and writing the row. The run itself stops at its budget (cb_solve_limited). */
    double kill_after;
    /* Solver lookup (default cb_solver_find); tests inject test-only solvers here. */
    const cb_solver *(*find_solver)(const char *name);
} cb_runner_settings;

typedef struct {
    long total;          /* runs of this shard */
    long skipped;        /* already done (resume) */
    long done;           /* run now */
    long solved, failed, crashed;
    long unsupported;    /* the solver does not take the problem (not counted in failed) */
    double elapsed;
    int interrupted;     /* the signal that stopped the campaign (settings.stop), or 0 */
} cb_runner_summary;

void cb_runner_settings_default(cb_runner_settings *s);
/* Run the campaign's runs of this shard into s->outdir. Refused (CB_ERR_INPUT, nothing written)
 * when outdir is not empty without s->resume, or when s->resume finds results of another
 * campaign or other limits without s->force (cb_results_dir_check), or a run id twice in its
 * runs.csv. Generated problems are written before the first run; when that fails in a fresh
 * directory, it is left empty. outdir is locked throughout (cb_results_dir_lock: CB_ERR_IO when
 * another process holds it); a resume first removes the temporary files of killed processes.
 * A write that fails (a row, a trace, errors.log) stops the campaign with CB_ERR_IO naming the
 * file: that run gets no row (runs.csv is cut back to its last whole row), --resume redoes it. */
int cb_run_campaign(const cb_campaign *c, const cb_runner_settings *s, cb_runner_summary *sum,
                    cb_error *err);

/* The record of a results directory. DIR/limits.txt holds "key value" lines: campaign_sha256,
 * campaign (name), time_limit, max_iter, repetitions, trace, shard (i/N), tols (comma list), and
 * after a forced resume "earlier_limits limits-TAG.txt" naming the record the earlier rows were
 * made under (kept with campaign-TAG.conf). DIR/campaign.conf is the campaign file as run.
 * campaign_sha256 = sha256 of the campaign file's content, a separator line and the other
 * lines above (the effective limits, defaults included, and the shard).
 * check: before anything is written. *fresh = 1 when DIR is absent or empty; a non-empty DIR
 * needs s->resume, and then the same campaign_sha256 (or no record and no rows) unless
 * s->force (which warns on stderr); refusals are CB_ERR_INPUT naming both hashes and what
 * differs (a limit, or the first differing campaign line). */
int cb_results_dir_check(const cb_campaign *c, const cb_runner_settings *s, int *fresh,
                         cb_error *err);
/* The campaign_sha256 that cb_results_dir_record writes for c run as shard s (s->outdir unused). */
int cb_results_dir_hash(const cb_campaign *c, const cb_runner_settings *s, char hex[65],
                        cb_error *err);
/* Write DIR/limits.txt and DIR/campaign.conf for c (atomically), and DIR/skipped.txt, the
 * problem files a skip-unreadable campaign skipped ("PATH<TAB>REASON" lines; removed when none
 * was). */
#define CB_SKIPPED_FILE "skipped.txt"
#define CB_RECORD_MAX (1 << 20) /* largest record file read back (the campaign file's own cap) */
int cb_results_dir_record(const cb_campaign *c, const cb_runner_settings *s, cb_error *err);

/* One process at a time in a results directory: `run` (and --resume), `report` and `merge` (its
 * output) hold an exclusive flock(2) on DIR itself for as long as they work; children forked by
 * the runner share it, so it is free only when every process of a killed run is gone (one held
 * for a process that no longer exists is awaited a few seconds: its children are exiting).
 * CB_ERR_IO "DIR is in use by another conebench process (pid N)" when it is held; CB_ERR_INPUT
 * when DIR does not exist or is not a directory. *fd: the lock, released by
 * cb_results_dir_unlock (accepts -1). */
int cb_results_dir_lock(const char *dir, int *fd, cb_error *err);
void cb_results_dir_unlock(int fd);
/* Remove the temporary files of cb_write_file_atomic (cb_is_temp_name) anywhere under DIR: with
 * the lock held they can only be left by killed processes. *removed: how many. */
int cb_results_dir_clean(const char *dir, long *removed, cb_error *err);

/* The rows of a results directory against the campaign it records (limits.txt, campaign.conf,
 * parsed as cb_merge does). */
typedef struct {
    long rows;           /* rows of runs.csv */
    long expected;       /* runs of its campaign (its shard); -1: not known (why says why) */
    char why[CB_ERROR_LEN];
} cb_results_tally;
/* res: DIR/runs.csv as read (NULL: read here). CB_ERR_INPUT "DIR/runs.csv:LINE: ..." when a run
 * id is on two rows or a row is not a run of the recorded campaign's shard; rows < expected is
 * an incomplete campaign ("incomplete: N of M runs" in report, status and compare). Without a
 * record, or when its campaign does not parse here, only duplicates are refused. */
int cb_results_dir_count(const char *dir, const cb_results *res, cb_results_tally *t,
                         cb_error *err);

/* 16 hex digits identifying this machine (CPU model, cores, host name). */
const char *cb_machine_id(void);
/* Write CPU, cores, compiler and library versions to path (atomically). */
int cb_write_machine_info(const char *path, cb_error *err);

/* DIR/load.txt: the machine's load around each `run` of a results directory, one line appended
 * at its start and one at its end: "start|end LOAD cores N" (LOAD = the 1-minute load average of
 * /proc/loadavg, nan when unreadable; N = online cores). */
#define CB_LOAD_FILE "load.txt"
int cb_note_load(const char *dir, const char *when, cb_error *err);
/* 1 when a line of DIR/load.txt has a load above its cores (*load, *cores: the highest such);
 * 0 when none (or no file). */
int cb_load_exceeded(const char *dir, double *load, long *cores);

#endif
