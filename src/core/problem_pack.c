/* conebench — a problem as bytes, for a child process of the same executable (src/core/child.h):
 * the HDF5 reader's child sends the problem it read, a solve worker receives each step's.
 *
 * Layout (host byte order): pack_header, then W: dense (n² doubles), BSR (row_ptr nc + 1 ints,
 * col nnzb ints, val nnzb·d² doubles) or factored (minv nbody·10 doubles, body 2nc ints, G
 * 2nc·6d doubles: the derived arrays are rebuilt by cb_problem_factored_finish); then q (n
 * doubles), μ, μ_r, μ_s (nc doubles each), n = nc·d; then, when header.global is 1, the global
 * form: global_header, M and H (rows, columns as ints, values as doubles; nnz each), f (ndof
 * doubles) and w (n doubles). Name and provenance are not packed. */
#include "conebench/problem.h"
#include "base.h"
#include "problem_pack.h"
#include "fileio.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char pack_magic[8] = "cbprob2";

typedef struct {
    char magic[8];
    int32_t kind, nc, storage, nnzb, nbody, global;
    uint64_t bytes; /* payload after the header, the global form's excluded */
} pack_header;

typedef struct {
    int32_t ndof, mnnz, hnnz, unused;
} global_header;

#define GLOBAL_PARTS 8 /* M i, j, x; H i, j, x; f; w */

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

/* The regions of a global form of gh's sizes (n = nc·d) at g's arrays; 0 on overflow. */
static int global_parts(const global_header *gh, cb_global_form *g, size_t n,
                        pack_part part[GLOBAL_PARTS], size_t *total)
{
    int ok = gh->ndof >= 1 && gh->mnnz >= 0 && gh->hnnz >= 0;
    ok = ok && part_of(g->M.i, (size_t)gh->mnnz, sizeof(int), &part[0]) &&
         part_of(g->M.j, (size_t)gh->mnnz, sizeof(int), &part[1]) &&
         part_of(g->M.x, (size_t)gh->mnnz, sizeof(double), &part[2]) &&
         part_of(g->H.i, (size_t)gh->hnnz, sizeof(int), &part[3]) &&
         part_of(g->H.j, (size_t)gh->hnnz, sizeof(int), &part[4]) &&
         part_of(g->H.x, (size_t)gh->hnnz, sizeof(double), &part[5]) &&
         part_of(g->f, (size_t)gh->ndof, sizeof(double), &part[6]) &&
         part_of(g->w, n, sizeof(double), &part[7]);
    *total = 0;
    for (int i = 0; i < GLOBAL_PARTS && ok; i++) {
        ok = *total <= SIZE_MAX - part[i].bytes;
        *total += ok ? part[i].bytes : 0;
    }
    return ok;
}

/* Write p's global form (after the problem's payload). */
static int pack_global(FILE *f, const cb_problem *p)
{
    global_header gh = {p->global->ndof, p->global->M.nnz, p->global->H.nnz, 0};
    pack_part part[GLOBAL_PARTS];
    size_t total;
    if (!global_parts(&gh, p->global, cb_problem_n(p), part, &total))
        return 1;
    int bad = fwrite(&gh, sizeof gh, 1, f) != 1;
    for (int i = 0; i < GLOBAL_PARTS && !bad; i++)
        bad = part[i].bytes && fwrite(part[i].ptr, part[i].bytes, 1, f) != 1;
    return bad;
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
    h.global = p->global != NULL;
    h.bytes = total;
    int bad = fwrite(&h, sizeof h, 1, f) != 1;
    for (int i = 0; i < PACK_PARTS && !bad; i++)
        bad = part[i].bytes && fwrite(part[i].ptr, part[i].bytes, 1, f) != 1;
    if (!bad && p->global)
        bad = pack_global(f, p);
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
        (fac ? h->nbody < 1 : h->nbody != 0) || (!bsr && !fac && h->storage != CB_STORAGE_DENSE) ||
        (h->global != 0 && h->global != 1))
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

/* The global form packed at buf (avail bytes) into p->global; *used grows by what it read. */
static int unpack_global(const char *buf, size_t avail, cb_problem *p, size_t *used,
                         cb_error *err)
{
    global_header gh;
    pack_part part[GLOBAL_PARTS];
    cb_global_form shape;
    size_t total = 0;
    memset(&shape, 0, sizeof shape);
    if (avail < sizeof gh)
        return cb_fail(err, CB_ERR_INPUT, "packed problem: the global form is cut short");
    memcpy(&gh, buf, sizeof gh);
    if (!global_parts(&gh, &shape, cb_problem_n(p), part, &total) || total > avail - sizeof gh)
        return cb_fail(err, CB_ERR_INPUT, "packed problem: inconsistent global form");
    cb_global_form *g = cb_calloc(1, sizeof *g);
    if (!g)
        return cb_fail(err, CB_ERR_NOMEM, "packed problem: out of memory");
    p->global = g; /* freed with p */
    g->ndof = gh.ndof;
    g->M = (cb_triplets){gh.ndof, gh.ndof, gh.mnnz, NULL, NULL, NULL};
    g->H = (cb_triplets){gh.ndof, (int)cb_problem_n(p), gh.hnnz, NULL, NULL, NULL};
    void **dst[GLOBAL_PARTS] = {(void **)&g->M.i, (void **)&g->M.j, (void **)&g->M.x,
                                (void **)&g->H.i, (void **)&g->H.j, (void **)&g->H.x,
                                (void **)&g->f,   (void **)&g->w};
    const char *at = buf + sizeof gh;
    for (int i = 0; i < GLOBAL_PARTS; at += part[i].bytes, i++) {
        if (!(*dst[i] = cb_malloc_array(part[i].bytes ? part[i].bytes : 1, 1)))
            return cb_fail(err, CB_ERR_NOMEM, "packed problem: out of memory");
        memcpy(*dst[i], at, part[i].bytes);
    }
    *used += sizeof gh + total;
    return CB_OK;
}

/* dst ← src (bytes); with rel (the buffer src lies in), in steps of CB_RELEASE_STEP, each
 * step's source pages given back once copied (cb_buffer_release). */
static void copy_part(void *dst, const char *src, size_t bytes, char *rel, size_t *rel_done)
{
    size_t step = rel ? CB_RELEASE_STEP : bytes;
    for (size_t at = 0; at < bytes; at += step) {
        size_t k = bytes - at < step ? bytes - at : step;
        memcpy((char *)dst + at, src + at, k);
        if (rel)
            cb_buffer_release(rel, rel_done, (size_t)(src + at + k - rel));
    }
}

/* cb_problem_unpack; rel: buf itself when its pages may be given back as they are copied. */
static int unpack(const char *buf, size_t len, char *rel, cb_problem **out, size_t *used,
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
    size_t rel_done = 0;
    for (int i = 0; i < PACK_PARTS; i++) {
        if (part[i].bytes)
            copy_part(part[i].ptr, at, part[i].bytes, rel, &rel_done);
        at += part[i].bytes;
    }
    *used += sizeof h;
    if (h.global)
        rc = unpack_global(at, len - *used, *out, used, err);
    if (rc == CB_OK && (*out)->storage == CB_STORAGE_FACTORED)
        rc = cb_problem_factored_finish(*out, err);
    if (rc == CB_OK)
        rc = cb_problem_check(*out, err);
    if (rc != CB_OK) {
        cb_problem_free(*out);
        *out = NULL;
    }
    return rc;
}

int cb_problem_unpack(const char *buf, size_t len, cb_problem **out, size_t *used,
                      cb_error *err)
{
    return unpack(buf, len, NULL, out, used, err);
}

int cb_problem_unpack_consume(char *buf, size_t len, cb_problem **out, size_t *used,
                              cb_error *err)
{
    return unpack(buf, len, buf, out, used, err);
}
