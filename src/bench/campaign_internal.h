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

#endif
