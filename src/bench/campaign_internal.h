/* conebench — campaign parsing without the strict check (src/bench, internal): campaign.c parses,
 * campaign_check.c checks and offers cb_campaign_parse (parse + check), so the two files call
 * each other one way only. */
#ifndef CONEBENCH_CAMPAIGN_INTERNAL_H
#define CONEBENCH_CAMPAIGN_INTERNAL_H

#include "campaign.h"
#include "sequence.h"

/* Read and parse the campaign file at path (every line, the whole-file rules and defaults),
 * without cb_campaign_check. *out is NULL on failure. */
int cb_campaign_read(const char *path, const char *gen_dir, cb_campaign **out, cb_error *err);

/* Every step of s has contact identities (a .ids file, or an FCLIB step's own, read with rs);
 * else CB_ERR_INPUT naming the first step without them (campaign_prepare.c). */
int cb_sequence_need_ids(const cb_sequence *s, const cb_read_settings *rs, cb_error *err);

/* The files a `problem`/`data` pattern names (campaign_glob.c): glob(3), and a `**` component
 * for any number of folders; sorted. CB_ERR_INPUT when nothing matches, CB_ERR_NOMEM. *paths
 * is owned by the caller (cb_campaign_glob_free). */
int cb_campaign_glob(const char *pattern, char ***paths, size_t *n);
void cb_campaign_glob_free(char **paths, size_t n);
/* Of a `**` pattern whose part before `**` has no wildcard: that part's length (the paths it
 * names start with it), else 0. */
size_t cb_campaign_glob_root(const char *pattern);

/* Skip-unreadable campaigns (campaign_check.c): the problem files that do not read are taken out
 * of c->problems and listed in c->skipped ("PATH<TAB>REASON" lines), before the strict check. */
int cb_campaign_drop_unreadable(cb_campaign *c, cb_error *err);
/* The same from the record of a run (a results directory's skipped.txt, `list`): the problems
 * it names are taken out, without reading any file (nothing when c has no skip-unreadable). */
int cb_campaign_drop_listed(cb_campaign *c, const char *list, cb_error *err);

#endif
