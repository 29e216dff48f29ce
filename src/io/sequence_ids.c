/* conebench — contact identities of a sequence's steps: the .ids files, carrying a solution from
 * one step to the next by identity, the contacts of one step missing from another. */
#include "sequence.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "fileio.h"

#define IDS_MAGIC "conebench-ids"
#define IDS_MAX_BYTES (1L << 30)
#define IDS_MAX_BODY 1000000000000L /* body and feature numbers: −1 .. this */
#define IDS_MIN_LINE 6               /* bytes of the shortest contact line, "0 0 0\n" */

static int id_cmp(const cb_contact_id *x, const cb_contact_id *y)
{
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->b != y->b)
        return x->b < y->b ? -1 : 1;
    return (x->f > y->f) - (x->f < y->f);
}

/* An identity with its contact's index, for sorting. */
typedef struct {
    cb_contact_id id;
    int k;
} keyed_id;

static int by_id(const void *a, const void *b)
{
    return id_cmp(&((const keyed_id *)a)->id, &((const keyed_id *)b)->id);
}

/* ids with their indices, sorted by identity (caller frees), NULL when out of memory. */
static keyed_id *sorted_ids(const cb_contact_ids *ids)
{
    keyed_id *ix = cb_malloc_array((size_t)ids->n + 1, sizeof *ix);
    for (int k = 0; ix && k < ids->n; k++)
        ix[k] = (keyed_id){ids->id[k], k};
    if (ix)
        qsort(ix, (size_t)ids->n, sizeof *ix, by_id);
    return ix;
}

/* The index of the contact with identity id among the n sorted ones, or −1: binary search. */
static int find_id(const keyed_id *ix, int n, const cb_contact_id *id)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2, c = id_cmp(&ix[mid].id, id);
        if (c == 0)
            return ix[mid].k;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* The first repeated identity of ids (as "LINE of the repeat, LINE of the first"), or 0. */
static int first_repeat(const keyed_id *ix, int n, int *second)
{
    for (int k = 1; k < n; k++)
        if (id_cmp(&ix[k].id, &ix[k - 1].id) == 0) {
            int a = ix[k].k < ix[k - 1].k ? ix[k].k : ix[k - 1].k;
            *second = ix[k].k + ix[k - 1].k - a;
            return a + 1;
        }
    return 0;
}

/* One integer in [−1, IDS_MAX_BODY] from *s (advanced past it). */
static int parse_id_field(char **s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(*s, &end, 10);
    if (end == *s || errno || v < -1 || v > IDS_MAX_BODY || (*end && *end != ' ' && *end != '\t'))
        return 0;
    *out = v;
    *s = end;
    return 1;
}

/* The lines of an .ids file (text already checked, len bytes) into ids (n from the header, at
 * most what len bytes can hold, checked before allocating). */
static int parse_ids(const char *path, char *data, size_t len, cb_contact_ids *ids,
                     cb_error *err)
{
    char *line = data, *next = strchr(line, '\n');
    long n = -1;
    char tail;
    if (next)
        *next++ = '\0';
    if (sscanf(line, IDS_MAGIC " %ld %c", &n, &tail) != 1 || n < 0 || n > INT_MAX / 8)
        return cb_fail_at(err, CB_ERR_INPUT, path, 1, "not a contact-id file (line 1 must be "
                          "'" IDS_MAGIC " NC')");
    if ((size_t)n > len / IDS_MIN_LINE)
        return cb_fail_at(err, CB_ERR_INPUT, path, 1, "%ld contacts declared, the file's %zu "
                          "bytes hold at most %zu lines 'A B F'", n, len, len / IDS_MIN_LINE);
    if (!(ids->id = cb_malloc_array((size_t)n + 1, sizeof *ids->id)))
        return cb_fail_at(err, CB_ERR_NOMEM, path, 1, "out of memory");
    for (long k = 0; k < n; k++) {
        line = next;
        next = line ? strchr(line, '\n') : NULL;
        if (next)
            *next++ = '\0';
        cb_contact_id *id = &ids->id[k];
        char *s = line && (*line || next) ? line : NULL; /* NULL: past the last line */
        if (!s)
            return cb_fail_at(err, CB_ERR_INPUT, path, k + 2, "the file ends after %ld of %ld "
                              "contacts", k, n);
        if (!parse_id_field(&s, &id->a) || !parse_id_field(&s, &id->b) ||
            !parse_id_field(&s, &id->f) || s[strspn(s, " \t\r")])
            return cb_fail_at(err, CB_ERR_INPUT, path, k + 2, "not 'A B F' (three integers from "
                              "-1 to %ld)", IDS_MAX_BODY);
        ids->n = (int)k + 1;
    }
    if (next && next[strspn(next, " \t\r\n")])
        return cb_fail_at(err, CB_ERR_INPUT, path, n + 2, "more lines than the %ld contacts of "
                          "line 1", n);
    return CB_OK;
}

/* nc identities, each once: CB_ERR_INPUT naming the line of a repeat (line k + 2 of contact k). */
int cb_contact_ids_check(const char *path, int nc, const cb_contact_ids *ids, cb_error *err)
{
    int second = 0, first, rc = CB_OK;
    keyed_id *ix = NULL;
    if (ids->n != nc)
        return cb_fail_at(err, CB_ERR_INPUT, path, 1, "%d contact ids, the problem has nc = %d",
                          ids->n, nc);
    if (!(ix = sorted_ids(ids)))
        return cb_fail_at(err, CB_ERR_NOMEM, path, 0, "out of memory");
    if ((first = first_repeat(ix, ids->n, &second)) > 0)
        rc = cb_fail_at(err, CB_ERR_INPUT, path, second + 2, "contact id %ld %ld %ld is already "
                        "on line %d", ids->id[second].a, ids->id[second].b, ids->id[second].f,
                        first + 1);
    free(ix);
    return rc;
}

int cb_contact_ids_read(const char *path, int nc, cb_contact_ids *ids, cb_error *err)
{
    char *data = NULL;
    size_t len;
    int rc = cb_read_file(path, IDS_MAX_BYTES, &data, &len, err);
    if (rc == CB_OK)
        rc = cb_text_check(path, data, len, err);
    if (rc == CB_OK)
        rc = parse_ids(path, data, len, ids, err);
    if (rc == CB_OK)
        rc = cb_contact_ids_check(path, nc, ids, err);
    free(data);
    if (rc != CB_OK)
        cb_contact_ids_free(ids);
    return rc;
}

int cb_contact_ids_write(const char *path, const cb_contact_ids *ids, cb_error *err)
{
    cb_outbuf o;
    if (!ids || ids->n < 0 || (ids->n > 0 && !ids->id))
        return cb_fail_at(err, CB_ERR_INPUT, path, 0, "contact ids: none given");
    if (cb_outbuf_open(&o, err) != CB_OK)
        return CB_ERR_NOMEM;
    fprintf(o.f, IDS_MAGIC " %d\n", ids->n);
    for (int k = 0; k < ids->n; k++)
        fprintf(o.f, "%ld %ld %ld\n", ids->id[k].a, ids->id[k].b, ids->id[k].f);
    return cb_outbuf_commit(&o, path, err);
}

/* p_to(contact α of to) = p_from(the contact of from with α's identity), else 0. */
int cb_contact_ids_map(const cb_contact_ids *from, const double *p_from, const cb_contact_ids *to,
                       double *p_to, int d)
{
    int carried = 0;
    keyed_id *ix = NULL;
    size_t n = to ? (size_t)to->n * (size_t)d : 0;
    if (p_to && n)
        memset(p_to, 0, n * sizeof *p_to);
    if (!from || !to || !from->id || !to->id || !p_from || !p_to || !(ix = sorted_ids(from)))
        return 0;
    for (int a = 0; a < to->n; a++) {
        int b = find_id(ix, from->n, &to->id[a]);
        if (b >= 0) {
            memcpy(p_to + (size_t)a * d, p_from + (size_t)b * d, (size_t)d * sizeof *p_to);
            carried++;
        }
    }
    free(ix);
    return carried;
}

long cb_contact_ids_missing(const cb_contact_ids *x, const cb_contact_ids *y)
{
    keyed_id *ix = sorted_ids(y);
    long missing = 0;
    if (!ix)
        return -1;
    for (int a = 0; a < x->n; a++)
        missing += find_id(ix, y->n, &x->id[a]) < 0;
    free(ix);
    return missing;
}

void cb_contact_ids_free(cb_contact_ids *ids)
{
    if (!ids)
        return;
    free(ids->id);
    ids->id = NULL;
    ids->n = 0;
}
