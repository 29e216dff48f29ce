/* conebench — key=value lists: solver options, scenario parameters, campaign lines.
 *
 * One type for every "key=value" list of the library. A list is read through a view (cb_kv_view:
 * the items, the spec of accepted keys with their defaults, and the noun messages use), so the
 * same code gives "option omega: 'x' is not a finite number" for a solver option and
 * "param mu: -1 is outside [0, 1000]" for a scenario parameter. When a key is given twice the
 * last one wins.
 *
 * Ownership: cb_kv and cb_kv_view own nothing (they point at strings kept alive by the caller);
 * cb_kv_list owns its array and every key and value string; cb_kv_list_free releases them.
 */
#ifndef CONEBENCH_KV_H
#define CONEBENCH_KV_H

#include "conebench/common.h" /* cb_kv, cb_kv_spec */

/* What lookups read: n items (may be 0 with items NULL), the accepted keys (NULL: none, so
 * only given keys are found) and the noun of every message ("option", "param"). */
typedef struct {
    const cb_kv *items;
    int n;
    const cb_kv_spec *spec;
    const char *noun;
} cb_kv_view;

/* An owned, growing list: items[0..n) in the order given. Zero-initialise it ({0}). */
typedef struct {
    cb_kv *items;
    int n, cap;
} cb_kv_list;

/* Append the pair of text "KEY=VALUE" (KEY not empty; VALUE may be). CB_ERR_INPUT
 * "'TEXT' is not key=value", CB_ERR_NOMEM. */
int cb_kv_parse(cb_kv_list *l, const char *text, cb_error *err);
/* Append key=value (copies both). CB_ERR_INPUT for a NULL or empty key or a NULL value. */
int cb_kv_add(cb_kv_list *l, const char *key, const char *value, cb_error *err);
/* Replace the value of key when present (every copy of it), else append. */
int cb_kv_put(cb_kv_list *l, const char *key, const char *value, cb_error *err);
/* Release the items and strings, leave an empty list; accepts NULL. */
void cb_kv_list_free(cb_kv_list *l);

/* The spec entry of key, or NULL. */
const cb_kv_spec *cb_kv_spec_find(const cb_kv_spec *spec, const char *key);
/* Every given key is in the spec, else CB_ERR_INPUT "NOUN KEY: not OWNER", owner being e.g.
 * "an option of solver nsgs". Also rejects NULL keys or values and an inconsistent count. */
int cb_kv_check(const cb_kv_view *v, const char *owner, cb_error *err);
/* The value given last for key, else the spec's default, else NULL. */
const char *cb_kv_get(const cb_kv_view *v, const char *key);
/* 1 when key was given (not defaulted). */
int cb_kv_given(const cb_kv_view *v, const char *key);
/* The value as a finite number in [lo, hi]; CB_ERR_INPUT naming the key otherwise:
 * "NOUN KEY: no value and no default", "'V' is not a finite number", "X is outside [LO, HI]". */
int cb_kv_double(const cb_kv_view *v, const char *key, double lo, double hi, double *out,
                 cb_error *err);
/* The value as a decimal integer in [lo, hi]; the same messages ("is not an integer"). */
int cb_kv_long(const cb_kv_view *v, const char *key, long lo, long hi, long *out, cb_error *err);
/* "k=v k=v ..." of every spec key in spec order, given or default, skipping empty values
 * (malloc'd, caller frees; NULL when out of memory). */
char *cb_kv_format(const cb_kv_view *v);

#endif
