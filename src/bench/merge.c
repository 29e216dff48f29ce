/* conebench — `conebench merge`: shards of one campaign into one results directory (shards.h). */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include "shards_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "runner.h"
#include "base.h"

#define MERGE_SHARDS_MAX 100000 /* shard directories given at most */
#define COPY_CHUNK 65536        /* bytes per read when copying a file */
#define OUT_LEN 4000            /* longest OUT path (its files' paths fit 4200 bytes) */

/* Record keys that differ between shards by design (or are reported on their own). */
static const char *const own_keys[] = {"campaign_sha256", "shard", "earlier_limits"};

typedef struct {
    char id[17];
    long index;
} run_key;

typedef struct {
    const cb_merge_settings *s;
    FILE *log;
    cb_shard *sh;
    int n;
    cb_campaign *c;      /* the campaign of shard 0 (or s->campaign) */
    run_key *keys;       /* its run ids, sorted */
    long nruns;
    const cb_result **slot; /* the row of each run (by run index), or NULL */
    int *owner;          /* the shard that gave it */
} merge_ctx;

void cb_merge_settings_default(cb_merge_settings *s)
{
    memset(s, 0, sizeof *s);
}

/* One difference between shards on the log: an error, or a warning under --force. */
static void note(const merge_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const merge_ctx *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(x->log, "conebench: %s", x->s->force ? "warning: " : "");
    vfprintf(x->log, fmt, ap);
    fputc('\n', x->log);
    va_end(ap);
}

/* out absent or an empty directory. */
static int check_out(const char *out, cb_error *err)
{
    DIR *d = opendir(out);
    int full = 0;
    if (!d && errno == ENOENT)
        return CB_OK;
    if (!d)
        return cb_fail(err, CB_ERR_INPUT, "%s: %s", out, strerror(errno));
    for (struct dirent *e = readdir(d); e && !full; e = readdir(d))
        full = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return full ? cb_fail(err, CB_ERR_INPUT, "%s: exists and is not empty: merge writes a new "
                          "results directory (choose another OUT)", out)
                : CB_OK;
}

static int own_key(const char *key, size_t len)
{
    for (size_t i = 0; i < sizeof own_keys / sizeof *own_keys; i++)
        if (strlen(own_keys[i]) == len && !strncmp(own_keys[i], key, len))
            return 1;
    return 0;
}

/* Every limit of a's record that b records otherwise (only_absent: that b does not record at
 * all); the count. */
static int diff_limits(const merge_ctx *x, const cb_shard *a, const cb_shard *b, int only_absent)
{
    int n = 0;
    for (const char *l = a->limits; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
        char key[64];
        size_t kl = strcspn(l, " \n"), al = 0, bl = 0;
        if (own_key(l, kl) || kl == 0 || kl >= sizeof key)
            continue;
        snprintf(key, sizeof key, "%.*s", (int)kl, l);
        const char *av = cb_shard_value(a->limits, key, &al), *bv = cb_shard_value(b->limits, key,
                                                                                  &bl);
        if (!av || (bv && al == bl && !strncmp(av, bv, al)) || (only_absent && bv))
            continue;
        note(x, "limits differ: %s %.*s in %s, %.*s in %s", key, (int)al, av, a->dir,
             bv ? (int)bl : 4, bv ? bv : "none", b->dir);
        n++;
    }
    return n;
}

/* Line (1-based) where two texts first differ. */
static long first_diff_line(const char *a, const char *b)
{
    long line = 1;
    for (; *a && *a == *b; a++, b++)
        line += *a == '\n';
    return line;
}

/* A machine.txt value ("conebench:", "revision:") of a and b differ: say so; 1 or 0. */
static int diff_machine(const merge_ctx *x, const cb_shard *a, const cb_shard *b, const char *key)
{
    size_t al = 0, bl = 0;
    const char *av = cb_shard_value(a->machine, key, &al), *bv = cb_shard_value(b->machine, key,
                                                                                &bl);
    if ((!av && !bv) || (av && bv && al == bl && !strncmp(av, bv, al)))
        return 0;
    note(x, "conebench differs: %s %.*s in %s, %.*s in %s", key, av ? (int)al : 7,
         av ? av : "unknown", a->dir, bv ? (int)bl : 7, bv ? bv : "unknown", b->dir);
    return 1;
}

/* What differs between shard a and shard b; the count. */
static int diff_pair(const merge_ctx *x, const cb_shard *a, const cb_shard *b)
{
    int n = 0;
    if (strcmp(a->conf, b->conf) != 0 && ++n)
        note(x, "different campaigns: %s/campaign.conf and %s/campaign.conf differ from line %ld",
             a->dir, b->dir, first_diff_line(a->conf, b->conf));
    n += diff_limits(x, a, b, 0) + diff_limits(x, b, a, 1);
    if (a->count != b->count && ++n)
        note(x, "shard counts differ: %s is shard %d/%d, %s is shard %d/%d", a->dir, a->index,
             a->count, b->dir, b->index, b->count);
    n += diff_machine(x, a, b, "conebench:");
    n += diff_machine(x, a, b, "revision:");
    return n;
}

/* Every difference between the shards (each against the first; shard indexes pairwise), mixed
 * records and records that do not match their campaign; the count. */
static int differences(merge_ctx *x)
{
    int n = 0;
    for (int k = 0; k < x->n; k++) {
        size_t len = 0;
        if (k > 0)
            n += diff_pair(x, &x->sh[0], &x->sh[k]);
        for (int j = 0; j < k; j++)
            if (x->sh[j].index == x->sh[k].index && x->sh[j].count == x->sh[k].count && ++n)
                note(x, "%s and %s are both shard %d/%d", x->sh[j].dir, x->sh[k].dir,
                     x->sh[k].index, x->sh[k].count);
        if (cb_shard_value(x->sh[k].limits, "earlier_limits", &len) && ++n)
            note(x, "%s mixes settings: it was resumed with --force under other limits",
                 x->sh[k].dir);
    }
    return n;
}

/* Parse every shard's campaign; the first one's is kept; count the records whose
 * campaign_sha256 is not their campaign's. */
static int parse_campaigns(merge_ctx *x, int *bad, cb_error *err)
{
    int rc = CB_OK;
    *bad = 0;
    for (int k = 0; k < x->n && rc == CB_OK; k++) {
        cb_campaign *c = NULL;
        int consistent = 0;
        rc = cb_shard_campaign(&x->sh[k], x->s->campaign, &c, &consistent, err);
        if (rc == CB_OK && !consistent && ++*bad)
            note(x, "%s/limits.txt records campaign sha256 %.12s..., which its campaign.conf and "
                 "limits do not give (edited, or made by another conebench version?)",
                 x->sh[k].dir, x->sh[k].hash);
        if (k == 0)
            x->c = c;
        else
            cb_campaign_free(c);
    }
    return rc;
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp(((const run_key *)a)->id, ((const run_key *)b)->id);
}

/* The campaign's run ids, sorted, and a slot per run. */
static int index_runs(merge_ctx *x, cb_error *err)
{
    x->nruns = cb_campaign_nruns(x->c);
    size_t n = x->nruns > 0 ? (size_t)x->nruns : 1;
    x->keys = cb_calloc(n, sizeof *x->keys);
    x->slot = cb_calloc(n, sizeof *x->slot);
    x->owner = cb_calloc(n, sizeof *x->owner);
    if (!x->keys || !x->slot || !x->owner)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    for (long i = 0; i < x->nruns; i++) {
        cb_run_ref r;
        cb_campaign_run(x->c, i, &r);
        memcpy(x->keys[i].id, r.id, sizeof r.id);
        x->keys[i].index = i;
    }
    qsort(x->keys, (size_t)x->nruns, sizeof *x->keys, cmp_key);
    return CB_OK;
}

/* Put every row in its run's slot; duplicates and rows of no run are listed; their count. */
static long place_rows(merge_ctx *x)
{
    long bad = 0;
    for (int k = 0; k < x->n; k++)
        for (int i = 0; i < x->sh[k].res.nrows; i++) {
            const cb_result *r = &x->sh[k].res.rows[i];
            run_key key, *hit;
            if (cb_result_is_step(r)) /* goes with its sequence's row (write_rows) */
                continue;
            memcpy(key.id, r->run_id, sizeof key.id);
            hit = bsearch(&key, x->keys, (size_t)x->nruns, sizeof key, cmp_key);
            if (!hit && ++bad)
                fprintf(x->log, "conebench: %s/runs.csv: run %s (%s, %s) is not a run of the "
                        "campaign (another data folder or working directory?)\n", x->sh[k].dir,
                        r->run_id, r->problem, r->label);
            else if (hit && x->slot[hit->index] && ++bad)
                fprintf(x->log, "conebench: duplicate run %s (%s, %s): in %s and in %s\n",
                        r->run_id, r->problem, r->label, x->sh[x->owner[hit->index]].dir,
                        x->sh[k].dir);
            else if (hit) {
                x->slot[hit->index] = r;
                x->owner[hit->index] = k;
            }
        }
    return bad;
}

/* List the runs without a row; their count. */
static long list_missing(const merge_ctx *x)
{
    long n = 0;
    int count = x->sh[0].count;
    for (long i = 0; i < x->nruns; i++) {
        if (x->slot[i])
            continue;
        cb_run_ref r;
        cb_campaign_run(x->c, i, &r);
        fprintf(x->log, "conebench: missing run %s: %s, %s, tol %g, rep %d (shard %ld/%d)\n",
                r.id, r.sequence >= 0 ? x->c->sequences[r.sequence].name
                                      : x->c->problems[r.problem].name,
                x->c->solvers[r.solver].label,
                x->c->tols[r.tol], r.rep, i % count, count);
        n++;
    }
    return n;
}

/* Copy the file from (if it exists) to the end of the file to. */
static int append_file(const char *from, const char *to, const char *header, cb_error *err)
{
    char buf[COPY_CHUNK];
    FILE *in = fopen(from, "rb"), *out = NULL;
    int rc = CB_OK;
    if (!in)
        return errno == ENOENT ? CB_OK : cb_fail_at(err, CB_ERR_IO, from, 0, "%s",
                                                    strerror(errno));
    if (!(out = fopen(to, "ab")))
        rc = cb_fail_at(err, CB_ERR_IO, to, 0, "cannot write: %s", strerror(errno));
    if (rc == CB_OK && header)
        fputs(header, out);
    for (size_t k; rc == CB_OK && (k = fread(buf, 1, sizeof buf, in)) > 0;)
        if (fwrite(buf, 1, k, out) != k)
            rc = cb_fail_at(err, CB_ERR_IO, to, 0, "cannot write: %s", strerror(errno));
    if (rc == CB_OK && ferror(in))
        rc = cb_fail_at(err, CB_ERR_IO, from, 0, "cannot read");
    if (out && fclose(out) != 0 && rc == CB_OK)
        rc = cb_fail_at(err, CB_ERR_IO, to, 0, "cannot write: %s", strerror(errno));
    fclose(in);
    return rc;
}

/* The step rows of sequence row r (in the shard that gave it), before r, in their order. */
static int write_steps(const cb_results *res, const cb_result *r, FILE *out, cb_error *err)
{
    char line[4096];
    for (int i = 0; i < res->nrows; i++) {
        const cb_result *s = &res->rows[i];
        if (!cb_result_is_step(s) || strcmp(s->sequence_run, r->run_id))
            continue;
        if (cb_result_format(s, line, sizeof line) < 0)
            return cb_fail(err, CB_ERR_INTERNAL, "row of run %s too long", s->run_id);
        fputs(line, out);
    }
    return CB_OK;
}

/* tmp/runs.csv (rows in run order, a sequence's step rows before its row) and
 * tmp/traces/ID.csv of every row that has one. */
static int write_rows(const merge_ctx *x, const char *tmp, cb_error *err)
{
    char path[4200], from[4200], to[4200], line[4096];
    cb_outbuf o;
    snprintf(path, sizeof path, "%s/traces", tmp);
    if (mkdir(path, 0777) != 0)
        return cb_fail_at(err, CB_ERR_IO, path, 0, "cannot create: %s", strerror(errno));
    if (cb_outbuf_open(&o, err) != CB_OK)
        return CB_ERR_NOMEM;
    fputs(cb_results_header(), o.f);
    int rc = CB_OK;
    for (long i = 0; i < x->nruns && rc == CB_OK; i++) {
        if (!x->slot[i])
            continue;
        if (x->slot[i]->sequence[0])
            rc = write_steps(&x->sh[x->owner[i]].res, x->slot[i], o.f, err);
        if (rc == CB_OK && cb_result_format(x->slot[i], line, sizeof line) < 0)
            rc = cb_fail(err, CB_ERR_INTERNAL, "row of run %s too long", x->slot[i]->run_id);
        fputs(line, o.f);
        snprintf(from, sizeof from, "%s/traces/%s.csv", x->sh[x->owner[i]].dir,
                 x->slot[i]->run_id);
        snprintf(to, sizeof to, "%s/traces/%s.csv", tmp, x->slot[i]->run_id);
        if (rc == CB_OK)
            rc = append_file(from, to, NULL, err);
    }
    snprintf(path, sizeof path, "%s/runs.csv", tmp);
    if (rc != CB_OK) {
        cb_outbuf_discard(&o);
        return rc;
    }
    return cb_outbuf_commit(&o, path, err);
}

/* tmp/errors.log (every shard's, in order) and tmp/machine.txt (each under "# shard i/N: DIR"). */
static int write_logs(const merge_ctx *x, const char *tmp, cb_error *err)
{
    char from[4200], to[4200], header[4300];
    int rc = CB_OK;
    for (int k = 0; k < x->n && rc == CB_OK; k++) {
        snprintf(from, sizeof from, "%s/errors.log", x->sh[k].dir);
        snprintf(to, sizeof to, "%s/errors.log", tmp);
        rc = append_file(from, to, NULL, err);
        snprintf(from, sizeof from, "%s/machine.txt", x->sh[k].dir);
        snprintf(to, sizeof to, "%s/machine.txt", tmp);
        snprintf(header, sizeof header, "# shard %d/%d: %s\n", x->sh[k].index, x->sh[k].count,
                 x->sh[k].dir);
        if (rc == CB_OK)
            rc = append_file(from, to, header, err);
    }
    return rc;
}

/* The loop lines' results (loop.h), which only shard 0 writes: its loops.csv and every
 * loops/ID.csv into tmp. */
static int write_loops(const merge_ctx *x, const char *tmp, cb_error *err)
{
    char from[4600], to[4600];
    struct dirent **names = NULL;
    int rc = CB_OK, n = 0;
    const char *dir = NULL;
    for (int k = 0; k < x->n; k++)
        if (x->sh[k].index == 0)
            dir = x->sh[k].dir;
    if (dir && strlen(dir) + strlen(tmp) > 4096)
        return cb_fail_at(err, CB_ERR_INPUT, dir, 0, "path too long");
    snprintf(from, sizeof from, "%s/loops.csv", dir ? dir : "");
    snprintf(to, sizeof to, "%s/loops.csv", tmp);
    if (!dir || access(from, F_OK) != 0)
        return CB_OK;
    rc = append_file(from, to, NULL, err);
    snprintf(from, sizeof from, "%s/loops", dir);
    snprintf(to, sizeof to, "%s/loops", tmp);
    if (rc == CB_OK && (n = scandir(from, &names, NULL, alphasort)) >= 0 && mkdir(to, 0777) != 0)
        rc = cb_fail_at(err, CB_ERR_IO, to, 0, "cannot create: %s", strerror(errno));
    for (int k = 0; k < n; k++) {
        if (rc == CB_OK && !cb_is_temp_name(names[k]->d_name) && names[k]->d_name[0] != '.') {
            snprintf(from, sizeof from, "%s/loops/%s", dir, names[k]->d_name);
            snprintf(to, sizeof to, "%s/loops/%s", tmp, names[k]->d_name);
            rc = append_file(from, to, NULL, err);
        }
        free(names[k]);
    }
    free(names);
    return rc;
}

/* Build OUT in OUT.tmp-XXXXXX and rename it into place (removed when anything fails). */
static int write_out(const merge_ctx *x, const char *out, cb_error *err)
{
    char tmp[OUT_LEN + 16];
    cb_runner_settings rs;
    snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", out);
    if (!mkdtemp(tmp))
        return cb_fail_at(err, CB_ERR_IO, tmp, 0, "cannot create: %s", strerror(errno));
    cb_runner_settings_default(&rs);
    rs.outdir = tmp; /* the record of the unsharded campaign: shard 0/1 */
    int lock = -1, rc = cb_results_dir_lock(tmp, &lock, err); /* kept on OUT until written */
    if (rc == CB_OK)
        rc = cb_results_dir_record(x->c, &rs, err);
    if (rc == CB_OK)
        rc = write_rows(x, tmp, err);
    if (rc == CB_OK)
        rc = write_logs(x, tmp, err);
    if (rc == CB_OK)
        rc = write_loops(x, tmp, err);
    if (rc == CB_OK && rename(tmp, out) != 0)
        rc = cb_fail_at(err, CB_ERR_IO, out, 0, "cannot rename %s into place: %s", tmp,
                        strerror(errno));
    if (rc != CB_OK)
        cb_remove_tree(tmp, 0);
    cb_results_dir_unlock(lock);
    return rc;
}

/* The checks, in order; CB_OK with *go = 0 when runs are missing and that is not allowed. */
static int check_all(merge_ctx *x, const char *const *dirs, cb_merge_summary *sum, int *go,
                     cb_error *err)
{
    int rc = CB_OK, bad = 0;
    for (int k = 0; k < x->n && rc == CB_OK; k++)
        rc = cb_shard_read(dirs[k], &x->sh[k], err);
    if (rc == CB_OK)
        rc = parse_campaigns(x, &bad, err);
    bad += rc == CB_OK ? differences(x) : 0;
    if (rc == CB_OK && bad && !x->s->force)
        rc = cb_fail(err, CB_ERR_INPUT, "the shards differ (above): not merged (--force merges "
                     "them anyway)");
    if (rc == CB_OK)
        rc = index_runs(x, err);
    long wrong = rc == CB_OK ? place_rows(x) : 0;
    if (rc == CB_OK && wrong)
        rc = cb_fail(err, CB_ERR_INPUT, "%ld duplicate or foreign rows (above): not merged",
                     wrong);
    sum->total = x->nruns;
    sum->missing = rc == CB_OK ? list_missing(x) : 0;
    sum->rows = x->nruns - sum->missing;
    *go = rc == CB_OK && (sum->missing == 0 || x->s->allow_missing);
    return rc;
}

int cb_merge(const char *out, const char *const *dirs, int n, const cb_merge_settings *s,
             cb_merge_summary *sum, cb_error *err)
{
    merge_ctx x = {s, s->log ? s->log : stderr, NULL, n, NULL, NULL, 0, NULL, NULL};
    int go = 0, rc = CB_OK;
    memset(sum, 0, sizeof *sum);
    sum->nshards = n;
    if (!out || !*out || strlen(out) >= OUT_LEN || n < 1 || n > MERGE_SHARDS_MAX)
        return cb_fail(err, CB_ERR_INPUT, "merge: want OUT (under %d bytes) and 1 to %d shard "
                       "directories", OUT_LEN, MERGE_SHARDS_MAX);
    rc = check_out(out, err);
    if (rc == CB_OK && !(x.sh = cb_calloc((size_t)n, sizeof *x.sh)))
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK)
        rc = check_all(&x, dirs, sum, &go, err);
    if (rc == CB_OK && go)
        rc = write_out(&x, out, err);
    sum->written = rc == CB_OK && go;
    for (int k = 0; x.sh && k < n; k++)
        cb_shard_free(&x.sh[k]);
    free(x.sh);
    free(x.keys);
    free(x.slot);
    free(x.owner);
    cb_campaign_free(x.c);
    return rc;
}
