/* conebench — what a results directory records of the campaign that made its rows, and the
 * rules that keep rows and record together: a fresh run needs an absent or empty directory;
 * --resume needs the same campaign and limits (same hash) unless --force. */
#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conebench/io.h"
#include "results.h"
#include "base.h"
#include "fileio.h"

#define LINES_LEN 2048       /* the effective settings lines */
#define NOTE_LEN 600         /* "what differs" */
#define TAG_LEN 12           /* hex digits naming the files of an earlier record */

/* The effective settings, one "key value" line each (the report reads them as pairs). */
static void settings_lines(const cb_campaign *c, const cb_runner_settings *s, char *buf)
{
    char name[256];
    snprintf(name, sizeof name, "%s", c->name);
    for (char *q = name; *q; q++)
        *q = (*q == ' ' || *q == '\t') ? '_' : *q;
    int n = snprintf(buf, LINES_LEN, "campaign %s\ntime_limit %.17g\nmax_iter %d\nrepetitions %d\n"
                     "trace %s\nshard %d/%d\ntols ", name, c->time_limit, c->max_iter,
                     c->repetitions, c->trace ? "on" : "off", s->shard_index, s->shard_count);
    for (int k = 0; k < c->ntols && n < LINES_LEN; k++) {
        char num[32];
        for (int digits = 15; digits <= 17; digits++) /* the shortest that reads back exactly */
            if (snprintf(num, sizeof num, "%.*g", digits, c->tols[k]) > 0 &&
                strtod(num, NULL) == c->tols[k])
                break;
        n += snprintf(buf + n, LINES_LEN - (size_t)n, "%s%s", k ? "," : "", num);
    }
    if (n < LINES_LEN - 1)
        strcpy(buf + n, "\n");
}

/* sha256 of the campaign file's content, a separator and the effective settings lines. */
static int campaign_hash(const cb_campaign *c, const char *lines, char hex[65], cb_error *err)
{
    static const char sep[] = "\n-- effective settings --\n";
    size_t a = strlen(c->text), b = strlen(sep), d = strlen(lines);
    char *buf = malloc(a + b + d + 1);
    if (!buf)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    memcpy(buf, c->text, a);
    memcpy(buf + a, sep, b);
    memcpy(buf + a + b, lines, d);
    cb_sha256_buffer(buf, a + b + d, hex);
    free(buf);
    return CB_OK;
}

int cb_results_dir_hash(const cb_campaign *c, const cb_runner_settings *s, char hex[65],
                        cb_error *err)
{
    char lines[LINES_LEN];
    settings_lines(c, s, lines);
    return campaign_hash(c, lines, hex, err);
}

/* The value of "key value" in text (up to the end of its line), or NULL. */
static const char *value_of(const char *text, const char *key, size_t *len)
{
    size_t k = strlen(key);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, key, k) && l[k] == ' ') {
            *len = strcspn(l + k + 1, "\n");
            return l + k + 1;
        }
    return NULL;
}

/* Line n (0-based) of text into buf, or "(none)". */
static void nth_line(const char *text, int n, char *buf, size_t len)
{
    const char *l = text;
    for (int i = 0; l && i < n; i++)
        l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL;
    snprintf(buf, len, "%.*s", l && *l ? (int)strcspn(l, "\n") : 6, l && *l ? l : "(none)");
}

/* The first line where two texts differ, as "campaign line N: 'old' -> 'new'". */
static void first_difference(const char *a, const char *b, char *buf, size_t len)
{
    int line = 0;
    size_t i = 0;
    for (; a[i] && a[i] == b[i]; i++)
        line += a[i] == '\n';
    char la[100], lb[100];
    nth_line(a, line, la, sizeof la);
    nth_line(b, line, lb, sizeof lb);
    snprintf(buf, len, "campaign line %d: '%s' -> '%s'", line + 1, la, lb);
}

/* What differs between the recorded settings (old) and now: "key: a -> b" for each setting,
 * else the first differing line of the recorded campaign.conf. */
static void describe_change(const char *dir, const cb_campaign *c, const char *old,
                            const char *now, char *buf)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const char *l = now; *l && n < NOTE_LEN; l += strcspn(l, "\n") + 1) {
        char key[64];
        size_t vl = 0, nl = strcspn(l, " \n"), ol = 0;
        snprintf(key, sizeof key, "%.*s", (int)nl, l);
        const char *ov = value_of(old, key, &ol), *nv = value_of(l, key, &vl);
        if (nv && (!ov || ol != vl || strncmp(ov, nv, vl)))
            n += (size_t)snprintf(buf + n, NOTE_LEN - n, "%s%s: %.*s -> %.*s", n ? "; " : "", key,
                                  ov ? (int)ol : 4, ov ? ov : "none", (int)vl, nv);
    }
    char path[4200], *conf = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/campaign.conf", dir);
    if (n == 0 && cb_read_file(path, CB_RECORD_MAX, &conf, &len, NULL) == CB_OK)
        first_difference(conf, c->text, buf, NOTE_LEN);
    else if (n == 0)
        snprintf(buf, NOTE_LEN, "the campaign file changed");
    free(conf);
}

/* 1 when DIR/runs.csv holds at least one row. */
static int has_rows(const char *dir)
{
    char path[4200];
    cb_results r = {0};
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    int rows = cb_results_read(path, &r, NULL) == CB_OK && r.nrows > 0;
    cb_results_free(&r);
    return rows;
}

/* DIR absent or empty: 0; holding something: 1; not a directory or unreadable: error. */
static int dir_state(const char *dir, int *state, cb_error *err)
{
    DIR *d = opendir(dir);
    *state = 0;
    if (!d)
        return errno == ENOENT ? CB_OK
                               : cb_fail(err, CB_ERR_INPUT, "-o %s: %s", dir, strerror(errno));
    for (struct dirent *e = readdir(d); e && !*state; e = readdir(d))
        *state = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return CB_OK;
}

/* --resume: the recorded hash must be the campaign's now (or nothing recorded and no rows). */
static int check_same(const cb_campaign *c, const cb_runner_settings *s, cb_error *err)
{
    char lines[LINES_LEN], hex[65], path[4200], note[NOTE_LEN], *old = NULL;
    size_t len = 0, hl = 0;
    settings_lines(c, s, lines);
    int rc = campaign_hash(c, lines, hex, err);
    snprintf(path, sizeof path, "%s/limits.txt", s->outdir);
    if (rc != CB_OK || cb_read_file(path, CB_RECORD_MAX, &old, &len, NULL) != CB_OK)
        old = NULL;
    const char *rec = old ? value_of(old, "campaign_sha256", &hl) : NULL;
    int same = rec && hl == 64 && !strncmp(rec, hex, 64);
    if (rc != CB_OK || same || (!rec && !has_rows(s->outdir))) {
        free(old);
        return rc;
    }
    char msg[CB_ERROR_LEN];
    if (rec) {
        describe_change(s->outdir, c, old, lines, note);
        snprintf(msg, sizeof msg, "%s was made by another campaign or other limits: its limits.txt "
                 "records campaign sha256 %.64s, %s now gives %s (%s)", s->outdir, rec, c->path,
                 hex, note);
    } else {
        snprintf(msg, sizeof msg, "%s records no campaign hash (results of an older conebench?): "
                 "cannot tell they were made by %s with the same limits", s->outdir, c->path);
    }
    free(old);
    if (!s->force)
        return cb_fail(err, CB_ERR_INPUT, "%s; add --force to resume anyway, or choose another "
                       "-o", msg);
    fprintf(stderr, "conebench: warning: --force: %s; limits.txt now records the new campaign "
                    "and names the earlier record\n", msg);
    return CB_OK;
}

int cb_results_dir_check(const cb_campaign *c, const cb_runner_settings *s, int *fresh,
                         cb_error *err)
{
    int state = 0, rc = dir_state(s->outdir, &state, err);
    *fresh = rc == CB_OK && state == 0;
    if (rc != CB_OK || *fresh)
        return rc;
    if (!s->resume)
        return cb_fail(err, CB_ERR_INPUT, "%s: the directory is not empty (results of an earlier "
                       "run?): continue its runs with --resume, or choose another -o", s->outdir);
    return check_same(c, s, err);
}

/* Carry the "earlier_limits FILE" lines of the old record into lines; when the old record is of
 * another campaign (a forced resume), keep it as limits-TAG.txt and campaign-TAG.conf and name
 * it in one more such line. */
static int keep_earlier(const char *dir, const char *old, size_t len, const char *hex,
                        char *lines, cb_error *err)
{
    char tag[65], from[4200], to[4200];
    size_t vl = 0, n = strlen(lines);
    const char *rec = value_of(old, "campaign_sha256", &vl);
    for (const char *l = old; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, "earlier_limits ", 15) && n < LINES_LEN)
            n += (size_t)snprintf(lines + n, LINES_LEN - n, "%.*s\n", (int)strcspn(l, "\n"), l);
    if (rec && vl == 64 && !strncmp(rec, hex, 64))
        return CB_OK;
    cb_sha256_buffer(old, len, tag);
    tag[TAG_LEN] = '\0';
    if (n < LINES_LEN)
        snprintf(lines + n, LINES_LEN - n, "earlier_limits limits-%s.txt\n", tag);
    static const char *const files[][2] = {{"limits", "txt"}, {"campaign", "conf"}};
    for (int i = 0; i < 2; i++) {
        snprintf(from, sizeof from, "%s/%s.%s", dir, files[i][0], files[i][1]);
        snprintf(to, sizeof to, "%s/%s-%s.%s", dir, files[i][0], tag, files[i][1]);
        if (rename(from, to) != 0 && errno != ENOENT)
            return cb_fail_at(err, CB_ERR_IO, from, 0, "cannot rename: %s", strerror(errno));
    }
    return CB_OK;
}

int cb_results_dir_record(const cb_campaign *c, const cb_runner_settings *s, cb_error *err)
{
    char lines[LINES_LEN], hex[65], path[4200], *old = NULL, *text = NULL;
    size_t len = 0;
    settings_lines(c, s, lines);
    int rc = campaign_hash(c, lines, hex, err);
    snprintf(path, sizeof path, "%s/limits.txt", s->outdir);
    if (rc == CB_OK && cb_read_file(path, CB_RECORD_MAX, &old, &len, NULL) == CB_OK)
        rc = keep_earlier(s->outdir, old, len, hex, lines, err);
    size_t n = strlen(lines) + 100;
    if (rc == CB_OK && !(text = malloc(n)))
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK) {
        int k = snprintf(text, n, "campaign_sha256 %s\n%s", hex, lines);
        rc = cb_write_file_atomic(path, text, (size_t)k, err);
    }
    snprintf(path, sizeof path, "%s/campaign.conf", s->outdir);
    if (rc == CB_OK)
        rc = cb_write_file_atomic(path, c->text, strlen(c->text), err);
    snprintf(path, sizeof path, "%s/%s", s->outdir, CB_SKIPPED_FILE);
    if (rc == CB_OK && c->nskipped)
        rc = cb_write_file_atomic(path, c->skipped, strlen(c->skipped), err);
    else if (rc == CB_OK && unlink(path) != 0 && errno != ENOENT)
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "cannot remove: %s", strerror(errno));
    free(text);
    free(old);
    return rc;
}
