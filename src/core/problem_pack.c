/* conebench — a problem as bytes, for a child process of the same executable (conebench/child.h):
 * the HDF5 reader's child sends the problem it read, a solve worker receives each step's.
 *
 * Layout (host byte order): pack_header, then W: dense (n² doubles), BSR (row_ptr nc + 1 ints,
 * col nnzb ints, val nnzb·d² doubles) or factored (minv nbody·10 doubles, body 2nc ints, G
 * 2nc·6d doubles: the derived arrays are rebuilt by cb_problem_factored_finish); then q (n
 * doubles), μ, μ_r, μ_s (nc doubles each), n = nc·d. Name and provenance are not packed. */
#include "conebench/problem.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char pack_magic[8] = "cbprob2";

typedef struct {
    char magic[8];
    int32_t kind, nc, storage, nnzb, nbody, unused;
    uint64_t bytes; /* payload after the header */
} pack_header;

typedef struct {
    void *ptr;
    size_t bytes;
} pack_part;

#define PACK_PARTS 7 /* W in up to 3 arrays, q, μ, μ_r, μ_s */

/* The regions of W: `count` values of `size` bytes each (overflow-checked), at ptr. */
static int part_of(void *ptr, size_t count, size_t size, pack_part *out)
{
    size_t bytes;
    *out = (pack_part){ptr, 0};
    if (cb_mul_size(count, size, &bytes))
        return 0;
    out->bytes = bytes;
    return 1;
}

/* The payload regions of p (sizes from kind, nc, storage, nnzb, nbody); 0 on overflow. */
static int pack_parts(const cb_problem *p, int nnzb, int nbody, pack_part part[PACK_PARTS],
                      size_t *total)
{
    size_t nc = (size_t)p->nc, n = nc * (size_t)p->d, dd = (size_t)p->d * (size_t)p->d, nn;
    int k = 0, ok = 1;
    if (p->storage == CB_STORAGE_DENSE) {
        ok = cb_mul_size(n, n, &nn) == 0 && part_of(p->W, nn, sizeof(double), &part[k++]);
    } else if (p->storage == CB_STORAGE_BSR) {
        ok = cb_mul_size((size_t)nnzb, dd, &nn) == 0 &&
             part_of(p->bsr.val, nn, sizeof(double), &part[k + 2]);
        part[k++] = (pack_part){p->bsr.row_ptr, (nc + 1) * sizeof(int)};
        part[k++] = (pack_part){p->bsr.col, (size_t)nnzb * sizeof(int)};
        k++;
    } else {
        ok = part_of(p->fac.minv, (size_t)nbody, 10 * sizeof(double), &part[k++]);
        part[k++] = (pack_part){p->fac.body, 2 * nc * sizeof(int)};
        part[k++] = (pack_part){p->fac.G, 2 * nc * 6 * (size_t)p->d * sizeof(double)};
    }
    part[k++] = (pack_part){p->q, n * sizeof(double)};
    part[k++] = (pack_part){p->mu, nc * sizeof(double)};
    part[k++] = (pack_part){p->mu_r, nc * sizeof(double)};
    part[k++] = (pack_part){p->mu_s, nc * sizeof(double)};
    for (; k < PACK_PARTS; k++)
        part[k] = (pack_part){NULL, 0};
    *total = 0;
    for (int i = 0; i < PACK_PARTS && ok; i++) {
        ok = *total <= SIZE_MAX - part[i].bytes;
        *total += ok ? part[i].bytes : 0;
    }
    return ok;
}

int cb_problem_pack(FILE *f, const cb_problem *p, cb_error *err)
{
    pack_header h;
    pack_part part[PACK_PARTS];
    size_t total = 0;
    if (!p)
        return cb_fail(err, CB_ERR_INPUT, "pack: no problem");
    if (!pack_parts(p, p->bsr.nnzb, p->fac.nbody, part, &total))
        return cb_fail(err, CB_ERR_INPUT, "pack: the problem's size overflows");
    memset(&h, 0, sizeof h);
    memcpy(h.magic, pack_magic, sizeof h.magic);
    h.kind = (int32_t)p->kind;
    h.nc = p->nc;
    h.storage = (int32_t)p->storage;
    h.nnzb = p->storage == CB_STORAGE_BSR ? p->bsr.nnzb : 0;
    h.nbody = p->storage == CB_STORAGE_FACTORED ? p->fac.nbody : 0;
    h.bytes = total;
    int bad = fwrite(&h, sizeof h, 1, f) != 1;
    for (int i = 0; i < PACK_PARTS && !bad; i++)
        bad = part[i].bytes && fwrite(part[i].ptr, part[i].bytes, 1, f) != 1;
    return bad ? cb_fail(err, CB_ERR_NOMEM, "pack: write failed") : CB_OK;
}

/* The header's sizes are those of a problem and match the bytes present. */
static int header_ok(const pack_header *h, size_t avail, pack_part part[PACK_PARTS])
{
    cb_problem shape;
    size_t total = 0;
    memset(&shape, 0, sizeof shape);
    shape.kind = (cb_kind)h->kind;
    shape.d = cb_kind_dim(shape.kind);
    shape.nc = h->nc;
    shape.storage = (cb_storage)h->storage;
    int bsr = h->storage == CB_STORAGE_BSR, fac = h->storage == CB_STORAGE_FACTORED;
    if (memcmp(h->magic, pack_magic, sizeof h->magic) != 0 || shape.d == 0 || h->nc < 1 ||
        (long long)h->nc * shape.d > INT32_MAX || h->nnzb < 0 || (!bsr && h->nnzb != 0) ||
        (fac ? h->nbody < 1 : h->nbody != 0) || (!bsr && !fac && h->storage != CB_STORAGE_DENSE))
        return 0;
    return pack_parts(&shape, h->nnzb, h->nbody, part, &total) && total == h->bytes &&
           total <= avail;
}

/* Allocate the problem the header describes. */
static int alloc_shape(const pack_header *h, cb_problem **out, cb_error *err)
{
    if (h->storage == CB_STORAGE_FACTORED)
        return cb_problem_alloc_factored((cb_kind)h->kind, h->nc, h->nbody, out, err);
    return cb_problem_alloc((cb_kind)h->kind, h->nc, (cb_storage)h->storage, h->nnzb, out, err);
}

int cb_problem_unpack(const char *buf, size_t len, cb_problem **out, size_t *used,
                      cb_error *err)
{
    pack_header h;
    pack_part part[PACK_PARTS];
    *out = NULL;
    if (len < sizeof h)
        return cb_fail(err, CB_ERR_INPUT, "packed problem: %zu bytes, no header", len);
    memcpy(&h, buf, sizeof h);
    if (!header_ok(&h, len - sizeof h, part))
        return cb_fail(err, CB_ERR_INPUT, "packed problem: inconsistent header or short data");
    int rc = alloc_shape(&h, out, err);
    if (rc != CB_OK)
        return rc;
    pack_parts(*out, h.nnzb, h.nbody, part, used);
    const char *at = buf + sizeof h;
    for (int i = 0; i < PACK_PARTS; i++) {
        if (part[i].bytes)
            memcpy(part[i].ptr, at, part[i].bytes);
        at += part[i].bytes;
    }
    *used += sizeof h;
    if ((*out)->storage == CB_STORAGE_FACTORED)
        rc = cb_problem_factored_finish(*out, err);
    if (rc == CB_OK)
        rc = cb_problem_check(*out, err);
    if (rc != CB_OK) {
        cb_problem_free(*out);
        *out = NULL;
    }
    return rc;
}
