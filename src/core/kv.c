/* conebench — key=value lists (kv.h): owned lists, lookups with spec defaults, checked numbers. */
#include "kv.h"
#include "base.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for " (did you mean 'KEY'?)". */
#define CB_KV_HINT_LEN 96

static const char *noun_of(const cb_kv_view *v) { return v->noun ? v->noun : "key"; }

/* Room for one more item: the capacity doubles (16 at first). */
static int kv_reserve(cb_kv_list *l)
{
    if (l->n < l->cap)
        return CB_OK;
    if (l->cap > INT_MAX / 2)
        return CB_ERR_NOMEM;
    int cap = l->cap ? 2 * l->cap : 16;
    cb_kv *items = realloc(l->items, (size_t)cap * sizeof *items);
    if (!items)
        return CB_ERR_NOMEM;
    l->items = items;
    l->cap = cap;
    return CB_OK;
}

/* Append copies of the first klen bytes of key and of value. */
static int kv_append(cb_kv_list *l, const char *key, size_t klen, const char *value,
                     cb_error *err)
{
    char *k = strndup(key, klen), *v = cb_strdup(value);
    if (!k || !v || kv_reserve(l) != CB_OK) {
        free(k);
        free(v);
        return cb_fail(err, CB_ERR_NOMEM, "%.*s: out of memory", (int)klen, key);
    }
    l->items[l->n++] = (cb_kv){k, v};
    return CB_OK;
}

int cb_kv_parse(cb_kv_list *l, const char *text, cb_error *err)
{
    const char *eq = text ? strchr(text, '=') : NULL;
    if (!l || !eq || eq == text)
        return cb_fail(err, CB_ERR_INPUT, "'%s' is not key=value", text ? text : "(null)");
    return kv_append(l, text, (size_t)(eq - text), eq + 1, err);
}

int cb_kv_add(cb_kv_list *l, const char *key, const char *value, cb_error *err)
{
    if (!l || !key || !*key || !value)
        return cb_fail(err, CB_ERR_INPUT, "key=value: missing key or value");
    return kv_append(l, key, strlen(key), value, err);
}

int cb_kv_put(cb_kv_list *l, const char *key, const char *value, cb_error *err)
{
    int found = 0;
    for (int i = 0; l && key && value && i < l->n; i++) {
        if (strcmp(l->items[i].key, key) != 0)
            continue;
        char *v = cb_strdup(value);
        if (!v)
            return cb_fail(err, CB_ERR_NOMEM, "%s: out of memory", key);
        free((char *)l->items[i].value);
        l->items[i].value = v;
        found = 1;
    }
    return found ? CB_OK : cb_kv_add(l, key, value, err);
}

void cb_kv_list_free(cb_kv_list *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n; i++) {
        free((char *)l->items[i].key);
        free((char *)l->items[i].value);
    }
    free(l->items);
    l->items = NULL;
    l->n = l->cap = 0;
}

const cb_kv_spec *cb_kv_spec_find(const cb_kv_spec *spec, const char *key)
{
    for (; spec && spec->key && key; spec++)
        if (strcmp(spec->key, key) == 0)
            return spec;
    return NULL;
}

/* "NOUN KEY: not OWNER", with the nearest key of the spec when KEY looks misspelt. */
static int unknown_key(const cb_kv_view *v, const char *key, const char *owner, cb_error *err)
{
    cb_suggest g;
    char hint[CB_KV_HINT_LEN];
    cb_suggest_init(&g, key);
    for (const cb_kv_spec *sp = v->spec; sp && sp->key; sp++)
        cb_suggest_add(&g, sp->key);
    return cb_fail(err, CB_ERR_INPUT, "%s %s: not %s%s", noun_of(v), key, owner,
                   cb_suggest_text(&g, hint, sizeof hint));
}

int cb_kv_check(const cb_kv_view *v, const char *owner, cb_error *err)
{
    const char *noun = noun_of(v);
    if (v->n < 0 || (v->n > 0 && !v->items))
        return cb_fail(err, CB_ERR_INPUT, "%ss: inconsistent count %d", noun, v->n);
    for (int i = 0; i < v->n; i++) {
        const cb_kv *o = &v->items[i];
        if (!o->key || !o->value)
            return cb_fail(err, CB_ERR_INPUT, "%s %d: missing key or value", noun, i);
        if (!cb_kv_spec_find(v->spec, o->key))
            return unknown_key(v, o->key, owner, err);
        for (int j = 0; j < i; j++) /* one value per key: a repeated key is a mistake */
            if (!strcmp(v->items[j].key, o->key))
                return cb_fail(err, CB_ERR_INPUT, "%s %s: given twice (%s=%s, then %s=%s)", noun,
                               o->key, o->key, v->items[j].value, o->key, o->value);
    }
    return CB_OK;
}

const char *cb_kv_get(const cb_kv_view *v, const char *key)
{
    for (int i = v->n - 1; key && i >= 0; i--) /* cb_kv_check refuses a repeated key */
        if (v->items[i].key && strcmp(v->items[i].key, key) == 0)
            return v->items[i].value;
    const cb_kv_spec *sp = cb_kv_spec_find(v->spec, key);
    return sp ? sp->default_value : NULL;
}

int cb_kv_given(const cb_kv_view *v, const char *key)
{
    for (int i = 0; key && i < v->n; i++)
        if (v->items[i].key && strcmp(v->items[i].key, key) == 0)
            return 1;
    return 0;
}

int cb_kv_double(const cb_kv_view *v, const char *key, double lo, double hi, double *out,
                 cb_error *err)
{
    const char *s = cb_kv_get(v, key), *noun = noun_of(v);
    if (!s)
        return cb_fail(err, CB_ERR_INPUT, "%s %s: no value and no default", noun, key);
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(x))
        return cb_fail(err, CB_ERR_INPUT, "%s %s: '%s' is not a finite number", noun, key, s);
    if (x < lo || x > hi)
        return cb_fail(err, CB_ERR_INPUT, "%s %s: %g is outside [%g, %g]", noun, key, x, lo, hi);
    *out = x;
    return CB_OK;
}

int cb_kv_long(const cb_kv_view *v, const char *key, long lo, long hi, long *out, cb_error *err)
{
    const char *s = cb_kv_get(v, key), *noun = noun_of(v);
    if (!s)
        return cb_fail(err, CB_ERR_INPUT, "%s %s: no value and no default", noun, key);
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE)
        return cb_fail(err, CB_ERR_INPUT, "%s %s: '%s' is not an integer", noun, key, s);
    if (x < lo || x > hi)
        return cb_fail(err, CB_ERR_INPUT, "%s %s: %ld is outside [%ld, %ld]", noun, key, x, lo,
                       hi);
    *out = x;
    return CB_OK;
}

char *cb_kv_format(const cb_kv_view *v)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int first = 1;
    for (const cb_kv_spec *sp = v->spec; sp && sp->key; sp++) {
        const char *s = cb_kv_get(v, sp->key);
        if (!s || !*s)
            continue; /* derived from other keys (e.g. sphere-plane's config) */
        fprintf(f, "%s%s=%s", first ? "" : " ", sp->key, s);
        first = 0;
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
