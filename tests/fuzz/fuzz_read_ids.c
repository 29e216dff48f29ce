/* libFuzzer target: the contact-id reader of step sequences (.ids files, src/io/sequence.h) must
 * reject or accept any bytes without a crash, a leak or an exit. What it accepts has the count of
 * its header line, each field from -1 up and no identity twice; written back with
 * cb_contact_ids_write it reads back the same; and carried onto itself by cb_contact_ids_map it
 * moves every contact's values unchanged. */
#include <stdint.h>
#include "../support/require.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "sequence.h"

#define D 2 /* values per contact in the mapping check */

/* The count the header line declares ("conebench-ids NC"), or 0. */
static int declared(const uint8_t *data, size_t size)
{
    char head[64] = {0};
    long n = 0;
    memcpy(head, data, size < sizeof head - 1 ? size : sizeof head - 1);
    return sscanf(head, "conebench-ids %ld", &n) == 1 && n >= 0 && n < 100000 ? (int)n : 0;
}

static void check_accepted(const cb_contact_ids *ids, int nc, const char *back)
{
    cb_contact_ids again = {0};
    assert_true(ids->n == nc);
    for (int k = 0; k < ids->n; k++)
        assert_true(ids->id[k].a >= -1 && ids->id[k].b >= -1 && ids->id[k].f >= -1);
    assert_true(cb_contact_ids_write(back, ids, NULL) == CB_OK);
    assert_true(cb_contact_ids_read(back, nc, &again, NULL) == CB_OK);
    assert_true(again.n == ids->n &&
           (ids->n == 0 || !memcmp(again.id, ids->id, (size_t)ids->n * sizeof *ids->id)));
    size_t n = ((size_t)nc + 1) * D;
    double *p = malloc(n * sizeof *p), *q = malloc(n * sizeof *q);
    assert_true(p && q);
    for (int k = 0; k < nc * D; k++)
        p[k] = k + 1;
    assert_true(cb_contact_ids_map(ids, p, &again, q, D) == nc);
    assert_true(nc == 0 || !memcmp(p, q, (size_t)nc * D * sizeof *p));
    assert_true(cb_contact_ids_missing(ids, &again) == 0);
    free(p);
    free(q);
    cb_contact_ids_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input("read_ids", data, size);
    int nc = declared(data, size);
    cb_contact_ids ids = {0};
    cb_error err;
    if (cb_contact_ids_read(path, nc, &ids, &err) == CB_OK)
        check_accepted(&ids, nc, fuzz_back());
    else
        assert_true(ids.id == NULL && err.text[0]);
    cb_contact_ids_free(&ids);
    return 0;
}
