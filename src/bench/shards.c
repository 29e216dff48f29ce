/* conebench — reading one shard directory: its record and rows (shards_internal.h). */
#include "shards_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign_internal.h"
#include "fileio.h"
#include "runner.h"
#include "base.h"


const char *cb_shard_value(const char *text, const char *key, size_t *len)
{
    size_t k = strlen(key);
    const char *l = text;
    while (l && *l) {
        if (strncmp(l, key, k) == 0 && l[k] == ' ') {
            const char *v = l + k + 1;
            *len = strcspn(v, "\n");
            return v;
        }
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    return NULL;
}

/* DIR/NAME into *text; a missing file is "" when optional, else the reason in err. */
static int read_record(const char *dir, const char *name, int optional, char **text,
                       cb_error *err)
{
    char path[4200];
    size_t len = 0;
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (optional && stat(path, &st) != 0)
        return (*text = cb_strdup("")) ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (stat(path, &st) != 0)
        return cb_fail(err, CB_ERR_INPUT, "%s: no %s: not a results directory of `conebench "
                       "run` (or its shard has not started yet)", dir, name);
    return cb_read_file(path, CB_RECORD_MAX, text, &len, err);
}

/* campaign_sha256 and shard i/N of the record. */
static int parse_record(cb_shard *sh, cb_error *err)
{
    size_t hl = 0, sl = 0;
    const char *h = cb_shard_value(sh->limits, "campaign_sha256", &hl);
    const char *s = cb_shard_value(sh->limits, "shard", &sl);
    int used = 0;
    if (!h || hl != 64)
        return cb_fail(err, CB_ERR_INPUT, "%s/limits.txt: no campaign_sha256 (results of an "
                       "older conebench?)", sh->dir);
    memcpy(sh->hash, h, 64);
    sh->hash[64] = '\0';
    if (!s || sscanf(s, "%d/%d%n", &sh->index, &sh->count, &used) != 2 || (size_t)used != sl ||
        sh->count < 1 || sh->index < 0 || sh->index >= sh->count)
        return cb_fail(err, CB_ERR_INPUT, "%s/limits.txt: no valid 'shard i/N' line", sh->dir);
    return CB_OK;
}

int cb_shard_read(const char *dir, cb_shard *sh, cb_error *err)
{
    char path[4200];
    struct stat st;
    memset(sh, 0, sizeof *sh);
    sh->dir = dir;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cb_fail(err, CB_ERR_INPUT, "%s: %s", dir,
                       errno == ENOENT ? "no such results directory" : "not a directory");
    int rc = read_record(dir, "limits.txt", 0, &sh->limits, err);
    if (rc == CB_OK)
        rc = parse_record(sh, err);
    if (rc == CB_OK)
        rc = read_record(dir, "campaign.conf", 0, &sh->conf, err);
    if (rc == CB_OK)
        rc = read_record(dir, "machine.txt", 1, &sh->machine, err);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    if (rc == CB_OK)
        rc = cb_results_read(path, &sh->res, err);
    return rc;
}

void cb_shard_free(cb_shard *sh)
{
    if (!sh)
        return;
    free(sh->limits);
    free(sh->conf);
    free(sh->machine);
    cb_results_free(&sh->res);
    memset(sh, 0, sizeof *sh);
}

/* A campaign without a name line is named after its file: read back from DIR/campaign.conf it
 * would be "campaign", so it takes the name the run recorded (limits.txt, "campaign NAME"). */
static int recorded_name(const cb_shard *sh, cb_campaign *c, cb_error *err)
{
    size_t len = 0;
    const char *v = cb_shard_value(sh->limits, "campaign", &len);
    if (!v || strcmp(c->name, "campaign") != 0 || (len == 8 && !strncmp(v, "campaign", 8)))
        return CB_OK;
    char *name = strndup(v, len);
    if (!name)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    free(c->name);
    c->name = name;
    return CB_OK;
}

int cb_shard_campaign(const cb_shard *sh, const char *file, cb_campaign **c, int *consistent,
                      cb_error *err)
{
    char path[4200], gen[4200], hex[65];
    cb_runner_settings s;
    snprintf(path, sizeof path, "%s/campaign.conf", sh->dir);
    snprintf(gen, sizeof gen, "%s/problems", sh->dir);
    *consistent = 0;
    char *skipped = NULL;
    size_t len = 0;
    int rc = cb_campaign_read(file ? file : path, gen, c, err);
    snprintf(path, sizeof path, "%s/%s", sh->dir, CB_SKIPPED_FILE);
    if (rc == CB_OK && cb_read_file(path, CB_RECORD_MAX, &skipped, &len, NULL) == CB_OK)
        rc = cb_campaign_drop_listed(*c, skipped, err);
    free(skipped);
    snprintf(path, sizeof path, "%s/campaign.conf", sh->dir);
    if (rc == CB_OK && file && strcmp((*c)->text, sh->conf) != 0)
        rc = cb_fail(err, CB_ERR_INPUT, "%s is not the campaign %s ran: its text differs from "
                     "%s", file, sh->dir, path);
    if (rc == CB_OK && !file)
        rc = recorded_name(sh, *c, err);
    cb_runner_settings_default(&s);
    s.shard_index = sh->index;
    s.shard_count = sh->count;
    if (rc == CB_OK)
        rc = cb_results_dir_hash(*c, &s, hex, err);
    *consistent = rc == CB_OK && strcmp(hex, sh->hash) == 0;
    if (rc != CB_OK) {
        cb_campaign_free(*c);
        *c = NULL;
    }
    return rc;
}

long cb_shard_runs(long nruns, int i, int n)
{
    return nruns / n + (i < nruns % n);
}
