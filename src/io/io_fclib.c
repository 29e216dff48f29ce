/* conebench — FCLIB HDF5 reader: fclib_local and fclib_global through Debian's libfclib 3.1,
 * fclib_global_rolling (absent from libfclib 3.1) with the HDF5 C API. Global problems are condensed
 * with cb_condense_global (W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w).
 *
 * libfclib 3.1 is not a defensive parser: any failed HDF5 call inside it ends in exit(1), it reads whole
 * datasets into buffers sized from other datasets (a longer dataset overflows the heap), reads string
 * dimensions into one hsize_t (a rank-2 string overflows its stack) and divides by spacedim. So before a
 * file is handed to libfclib, every object libfclib will open is opened and read here with the same HDF5
 * calls and every size it trusts is checked (the "probe"). Only a file that passes is read by libfclib, and
 * its result is validated again while it is converted (pointers, index ranges, finiteness, μ ≥ 0).
 * HDF5's automatic error printing is switched off for the whole read and restored afterwards.
 * HDF5 itself still crashes on some damaged files: cb_read_problem runs this reader in a child
 * process (io_child.c). Messages are "FILE: what" (no line: HDF5 has none).
 *
 * Layout (checked on ../shared/data): a matrix group holds the scalars nzmax, m, n, nz and arrays p, i, x.
 * nz = -2: compressed rows (p: m+1 row pointers, i: column indices); nz = -1: compressed columns;
 * nz ≥ 0: nz triplets with i = ROW and p = COLUMN (fclib.h's comment says the opposite; the data and
 * Siconos' fclib_interface.c agree with this reading). Triplet x may hold nz ≤ entries ≤ nzmax values.
 * A local W is read as BSR, except a W in compressed columns holding all n² entries in order (as
 * cb_write_fclib writes a dense W, io_fclib_write.c), which is read as dense. A local W of
 * triplets that come by block row (as cb_write_fclib writes a BSR W) is not read by libfclib:
 * after the probe, /fclib_local is read here, W streamed from the file into BSR FC_CHUNK entries
 * at a time in two passes (pattern, then values), with the checks and messages of the libfclib
 * path; at the first entry whose block row goes back, libfclib reads the file as before.
 *
 * conebench's local rolling extension (io_fclib_write.c): an /fclib_local group whose string
 * dataset conebench_kind names the kind (its d must equal spacedim) and whose vectors group holds
 * mu_r (kinds with a rolling block) and mu_s (rollspin3d) next to q and mu. W, q, mu are read
 * by libfclib as for any local problem; the kind and mu_r, mu_s here. Without conebench_kind,
 * spacedim must be 2 or 3 (a Coulomb problem), so a spacedim-5 group is never read as something
 * it is not.
 */
#include "io_internal.h"
#include "base.h"
#include "bsr_half.h"
#include "fileio.h"

#include <fclib.h>
#include <errno.h>
#include <hdf5.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FC_MAX_DIM 0x3fffffff             /* bound on m, n: m + 1 never overflows */
#define FC_MAX_ENTRIES ((hsize_t)1 << 27) /* bound on the entry count of any dataset */
#define FC_MAX_STRING ((size_t)1 << 20)   /* bound on an info string */
#define FC_MAX_RATIO 1100                 /* deflate cannot expand data more than ~1032 times */

typedef struct fclib_matrix fc_matrix;

/* Entries of W's datasets the streaming reader holds at a time (16 bytes each). */
#define FC_CHUNK 65536

typedef enum { FC_INT, FC_DOUBLE, FC_STRING } fc_type;

typedef struct {
    const char *path; /* the file, first in every message */
    cb_error *err;
} fc_ctx;

/* A global problem as stored (arrays owned when read here, borrowed from libfclib otherwise). */
typedef struct {
    int spacedim;
    fc_matrix M, H;
    double *f, *w, *mu, *mu_r;
} fc_global;

static const char *const fc_groups[3] = {CB_FCLIB_GROUP_LOCAL, CB_FCLIB_GROUP_GLOBAL,
                                         CB_FCLIB_GROUP_ROLLING};

/* ---------------------------------------------------------------- errors */

static int fc_fail(const fc_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fc_fail(const fc_ctx *c, const char *fmt, ...)
{
    char msg[CB_ERROR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cb_fail(c->err, CB_ERR_INPUT, "%s: %s", c->path, msg);
}

static int fc_nomem(const fc_ctx *c, const char *field)
{
    return cb_fail(c->err, CB_ERR_NOMEM, "%s: %s: out of memory", c->path, field);
}

/* Pass on the error of a conebench call, prefixed with the file. */
static int fc_relay(const fc_ctx *c, int rc, const cb_error *e)
{
    return cb_fail(c->err, rc, "%s: %s", c->path, e->text[0] ? e->text : "failed");
}

/* ---------------------------------------------------------------- HDF5 objects */

/* *yes = whether loc has a link `name`. */
static int has_link(const fc_ctx *c, hid_t loc, const char *where, const char *name, int *yes)
{
    htri_t e = H5Lexists(loc, name, H5P_DEFAULT);
    *yes = e > 0;
    if (e < 0)
        return fc_fail(c, "%s/%s: cannot be looked up (corrupt file?)", where, name);
    return CB_OK;
}

/* loc/name must exist and be a hard link (libfclib opens objects by path: no soft or external links). */
static int require_hard_link(const fc_ctx *c, hid_t loc, const char *where, const char *name)
{
    int yes;
    int rc = has_link(c, loc, where, name, &yes);
    if (rc != CB_OK)
        return rc;
    if (!yes)
        return fc_fail(c, "%s/%s: missing", where, name);
    H5L_info_t li;
    if (H5Lget_info(loc, name, &li, H5P_DEFAULT) < 0 || li.type != H5L_TYPE_HARD)
        return fc_fail(c, "%s/%s: must be a hard link", where, name);
    return CB_OK;
}

static herr_t count_link(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
    (void)g;
    (void)name;
    (void)info;
    ++*(long *)data;
    return 0;
}

/* Open group loc/name; its links must be listable (libfclib searches them with H5LTfind_dataset). */
static int open_group(const fc_ctx *c, hid_t loc, const char *where, const char *name, hid_t *gid)
{
    *gid = H5I_INVALID_HID;
    int rc = require_hard_link(c, loc, where, name);
    if (rc != CB_OK)
        return rc;
    hid_t g = H5Gopen2(loc, name, H5P_DEFAULT);
    if (g < 0)
        return fc_fail(c, "%s/%s: not a readable group", where, name);
    long links = 0;
    if (H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, NULL, count_link, &links) < 0) {
        H5Gclose(g);
        return fc_fail(c, "%s/%s: the group cannot be listed (corrupt file?)", where, name);
    }
    *gid = g;
    return CB_OK;
}

/* Entry count of a scalar, null or 1-D dataset; -1 for any other shape. */
static int dataset_count(hid_t ds, hsize_t *count)
{
    hid_t sp = H5Dget_space(ds);
    if (sp < 0)
        return -1;
    int ok = 0;
    H5S_class_t cls = H5Sget_simple_extent_type(sp);
    if (cls == H5S_SCALAR || cls == H5S_NULL) {
        *count = cls == H5S_SCALAR ? 1 : 0;
        ok = 1;
    } else if (cls == H5S_SIMPLE && H5Sget_simple_extent_ndims(sp) == 1) {
        hsize_t dim = 0;
        ok = H5Sget_simple_extent_dims(sp, &dim, NULL) == 1;
        *count = dim;
    }
    H5Sclose(sp);
    return ok ? 0 : -1;
}

/* 1 if the dataset's element type can be read as t (libfclib converts to native int/double). */
static int type_ok(hid_t ds, fc_type t)
{
    hid_t ty = H5Dget_type(ds);
    if (ty < 0)
        return 0;
    H5T_class_t cls = H5Tget_class(ty);
    size_t size = H5Tget_size(ty);
    int ok;
    if (t == FC_INT)
        ok = cls == H5T_INTEGER && size >= 1 && size <= 8;
    else if (t == FC_DOUBLE)
        ok = (cls == H5T_FLOAT && size >= 2 && size <= 16) ||
             (cls == H5T_INTEGER && size >= 1 && size <= 8);
    else
        ok = cls == H5T_STRING && H5Tis_variable_str(ty) == 0 && size >= 1 && size <= FC_MAX_STRING;
    H5Tclose(ty);
    return ok;
}

/* 1 if the data are stored in the file itself (compact, contiguous or chunked; no external file) and
 * actually there: an unallocated dataset of 2^27 fill values, or a bomb of compressed zeros, is refused. */
static int storage_ok(hid_t ds, hsize_t count)
{
    hid_t dcpl = H5Dget_create_plist(ds);
    if (dcpl < 0)
        return 0;
    H5D_layout_t lay = H5Pget_layout(dcpl);
    int ext = H5Pget_external_count(dcpl), nfilt = H5Pget_nfilters(dcpl);
    H5Pclose(dcpl);
    if ((lay != H5D_COMPACT && lay != H5D_CONTIGUOUS && lay != H5D_CHUNKED) || ext != 0 || nfilt < 0)
        return 0;
    hid_t ty = H5Dget_type(ds);
    if (ty < 0)
        return 0;
    hsize_t need = count * (hsize_t)H5Tget_size(ty); /* ≤ 2^27 · 2^20: no overflow */
    H5Tclose(ty);
    hsize_t have = H5Dget_storage_size(ds);
    return nfilt == 0 ? have >= need : have * FC_MAX_RATIO >= need;
}

static const char *type_name(fc_type t)
{
    return t == FC_INT ? "integers" : t == FC_DOUBLE ? "numbers" : "a fixed-length string";
}

/* Open dataset loc/name after checking its link, shape, type and storage; *count = its entries. */
static int open_dataset(const fc_ctx *c, hid_t loc, const char *where, const char *name, fc_type t,
                        hid_t *dsid, hsize_t *count)
{
    *dsid = H5I_INVALID_HID;
    int rc = require_hard_link(c, loc, where, name);
    if (rc != CB_OK)
        return rc;
    hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT);
    if (ds < 0)
        return fc_fail(c, "%s/%s: not a readable dataset", where, name);
    if (dataset_count(ds, count) != 0 || *count > FC_MAX_ENTRIES)
        rc = fc_fail(c, "%s/%s: must be a scalar or a 1-D dataset of at most %llu entries", where,
                     name, (unsigned long long)FC_MAX_ENTRIES);
    else if (!type_ok(ds, t))
        rc = fc_fail(c, "%s/%s: must hold %s", where, name, type_name(t));
    else if (!storage_ok(ds, *count))
        rc = fc_fail(c, "%s/%s: data not stored in the file (unallocated, external or inflated)",
                     where, name);
    if (rc != CB_OK)
        H5Dclose(ds);
    else
        *dsid = ds;
    return rc;
}

static int count_error(const fc_ctx *c, const char *where, const char *name, hsize_t n, hsize_t lo,
                       hsize_t hi)
{
    if (lo == hi)
        return fc_fail(c, "%s/%s: has %llu entries, expected %llu", where, name,
                       (unsigned long long)n, (unsigned long long)lo);
    return fc_fail(c, "%s/%s: has %llu entries, expected between %llu and %llu", where, name,
                   (unsigned long long)n, (unsigned long long)lo, (unsigned long long)hi);
}

/* Entries off … off + cnt − 1 of the 1-D dataset ds as mem (a native type) into buf: 1 when
 * they read. */
static int read_range(hid_t ds, hid_t mem, hsize_t off, hsize_t cnt, void *buf)
{
    hid_t fs = H5Dget_space(ds), ms = H5Screate_simple(1, &cnt, NULL);
    int ok = fs >= 0 && ms >= 0 &&
             H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &cnt, NULL) >= 0 &&
             H5Dread(ds, mem, ms, fs, H5P_DEFAULT, buf) >= 0;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return ok;
}

/* Read the n entries of ds as mem (a native number type) FC_CHUNK at a time: they read. */
static int reads_in_chunks(hid_t ds, hid_t mem, hsize_t n)
{
    void *buf = cb_malloc_array(FC_CHUNK, H5Tget_size(mem));
    int ok = buf != NULL;
    for (hsize_t off = 0; off < n && ok; off += FC_CHUNK)
        ok = read_range(ds, mem, off, n - off < FC_CHUNK ? n - off : FC_CHUNK, buf);
    free(buf);
    return ok;
}

/* Read dataset loc/name, which must have lo ≤ entries ≤ hi, as native int or double (a string with its
 * own type, as H5LTread_dataset_string does) into a new buffer *out; with out == NULL only check that it
 * reads (numbers FC_CHUNK at a time: the probe of a large W holds no copy of it). */
static int read_dataset(const fc_ctx *c, hid_t loc, const char *where, const char *name, fc_type t,
                        hsize_t lo, hsize_t hi, void **out)
{
    hid_t ds, mem = H5I_INVALID_HID;
    hsize_t n = 0;
    void *buf = NULL;
    int rc = open_dataset(c, loc, where, name, t, &ds, &n);
    if (rc != CB_OK)
        return rc;
    if (n < lo || n > hi)
        rc = count_error(c, where, name, n, lo, hi);
    else if ((mem = t == FC_INT      ? H5Tcopy(H5T_NATIVE_INT)
                    : t == FC_DOUBLE ? H5Tcopy(H5T_NATIVE_DOUBLE)
                                     : H5Dget_type(ds)) < 0)
        rc = fc_fail(c, "%s/%s: unsupported data type", where, name);
    else if (!out && t != FC_STRING && n > FC_CHUNK) {
        if (!reads_in_chunks(ds, mem, n))
            rc = fc_fail(c, "%s/%s: the data cannot be read (corrupt file?)", where, name);
    } else if (!(buf = cb_calloc((size_t)n * H5Tget_size(mem) + 1, 1)))
        rc = fc_nomem(c, name);
    else if (H5Dread(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        rc = fc_fail(c, "%s/%s: the data cannot be read (corrupt file?)", where, name);
    if (rc == CB_OK && out) {
        *out = buf;
        buf = NULL;
    }
    free(buf);
    if (mem >= 0)
        H5Tclose(mem);
    H5Dclose(ds);
    return rc;
}

static int read_int(const fc_ctx *c, hid_t loc, const char *where, const char *name, int *v)
{
    void *buf = NULL;
    int rc = read_dataset(c, loc, where, name, FC_INT, 1, 1, &buf);
    if (rc == CB_OK)
        *v = *(int *)buf;
    free(buf);
    return rc;
}

/* Read n doubles into a new *out, or only check that they read (out == NULL). */
static int read_vector(const fc_ctx *c, hid_t loc, const char *where, const char *name, hsize_t n,
                       double **out)
{
    void *buf = NULL;
    int rc = read_dataset(c, loc, where, name, FC_DOUBLE, n, n, out ? &buf : NULL);
    if (out)
        *out = buf;
    return rc;
}

/* ---------------------------------------------------------------- matrices and info */

/* Entry counts [lo, hi] of p, i, x implied by a matrix header, as libfclib 3.1 allocates them. */
static int matrix_layout(const fc_ctx *c, const char *gw, const fc_matrix *h, hsize_t lim[3][2])
{
    if (h->m < 0 || h->n < 0 || h->m > FC_MAX_DIM || h->n > FC_MAX_DIM)
        return fc_fail(c, "%s/m, n: size %d x %d is invalid", gw, h->m, h->n);
    if (h->nzmax < 0 || (hsize_t)h->nzmax > FC_MAX_ENTRIES) /* libfclib mallocs nzmax values */
        return fc_fail(c, "%s/nzmax: %d is invalid", gw, h->nzmax);
    hsize_t nzmax = (hsize_t)h->nzmax, np;
    if (h->nz >= 0) {
        if (h->nz > h->nzmax)
            return fc_fail(c, "%s/nz: %d triplets exceed nzmax = %d", gw, h->nz, h->nzmax);
        hsize_t nz = (hsize_t)h->nz;
        hsize_t l[3][2] = {{nz, nz}, {nz, nz}, {nz, nzmax}};
        memcpy(lim, l, sizeof l);
        return CB_OK;
    }
    if (h->nz != -1 && h->nz != -2)
        return fc_fail(c, "%s/nz: %d is neither a triplet count (>= 0), -1 (compressed columns) nor "
                          "-2 (compressed rows)", gw, h->nz);
    np = (hsize_t)(h->nz == -1 ? h->n : h->m) + 1;
    hsize_t l[3][2] = {{np, np}, {nzmax, nzmax}, {nzmax, nzmax}};
    memcpy(lim, l, sizeof l);
    return CB_OK;
}

/* The optional matrix info libfclib reads when "conditioning" exists. */
static int probe_matrix_info(const fc_ctx *c, hid_t g, const char *gw)
{
    int yes;
    int rc = has_link(c, g, gw, "conditioning", &yes);
    if (rc != CB_OK || !yes)
        return rc;
    rc = has_link(c, g, gw, "comment", &yes);
    if (rc == CB_OK && yes)
        rc = read_dataset(c, g, gw, "comment", FC_STRING, 1, 1, NULL);
    if (rc == CB_OK)
        rc = read_dataset(c, g, gw, "conditioning", FC_DOUBLE, 1, 1, NULL);
    if (rc == CB_OK)
        rc = read_dataset(c, g, gw, "determinant", FC_DOUBLE, 1, 1, NULL);
    if (rc == CB_OK)
        rc = read_dataset(c, g, gw, "rank", FC_INT, 1, 1, NULL);
    return rc;
}

/* What read_matrix does with a matrix's arrays p, i, x beyond checking their counts, types and
 * storage: nothing (FC_COUNT), read them through to check that they read (FC_CHECK), or keep
 * them (FC_KEEP). */
enum { FC_COUNT = -1, FC_CHECK = 0, FC_KEEP = 1 };

/* Entries [lo, hi] of dataset loc/name, its type and storage checked, nothing read. */
static int check_count(const fc_ctx *c, hid_t loc, const char *where, const char *name, fc_type t,
                       hsize_t lo, hsize_t hi)
{
    hid_t ds;
    hsize_t n = 0;
    int rc = open_dataset(c, loc, where, name, t, &ds, &n);
    if (rc != CB_OK)
        return rc;
    if (n < lo || n > hi)
        rc = count_error(c, where, name, n, lo, hi);
    H5Dclose(ds);
    return rc;
}

/* Matrix group loc/name: *h gets its header and, with keep = FC_KEEP, its arrays p, i, x (else
 * h's arrays stay NULL: see FC_COUNT, FC_CHECK). */
static int read_matrix(const fc_ctx *c, hid_t loc, const char *where, const char *name, int keep,
                       fc_matrix *h)
{
    static const char *const arr_name[3] = {"p", "i", "x"};
    char gw[256];
    hid_t g;
    hsize_t lim[3][2];
    void *arr[3] = {NULL, NULL, NULL};
    memset(h, 0, sizeof *h);
    snprintf(gw, sizeof gw, "%s/%s", where, name);
    int rc = open_group(c, loc, where, name, &g);
    if (rc != CB_OK)
        return rc;
    rc = read_int(c, g, gw, "nzmax", &h->nzmax);
    if (rc == CB_OK)
        rc = read_int(c, g, gw, "m", &h->m);
    if (rc == CB_OK)
        rc = read_int(c, g, gw, "n", &h->n);
    if (rc == CB_OK)
        rc = read_int(c, g, gw, "nz", &h->nz);
    if (rc == CB_OK)
        rc = matrix_layout(c, gw, h, lim);
    for (int k = 0; k < 3 && rc == CB_OK; k++)
        rc = keep == FC_COUNT
                 ? check_count(c, g, gw, arr_name[k], k < 2 ? FC_INT : FC_DOUBLE, lim[k][0],
                               lim[k][1])
                 : read_dataset(c, g, gw, arr_name[k], k < 2 ? FC_INT : FC_DOUBLE, lim[k][0],
                                lim[k][1], keep == FC_KEEP ? &arr[k] : NULL);
    if (rc == CB_OK)
        rc = probe_matrix_info(c, g, gw);
    H5Gclose(g);
    if (rc != CB_OK || keep != FC_KEEP) {
        free(arr[0]);
        free(arr[1]);
        free(arr[2]);
        return rc;
    }
    h->p = arr[0];
    h->i = arr[1];
    h->x = arr[2];
    return CB_OK;
}

/* The optional problem info (title, description, math_info) libfclib reads. */
static int probe_problem_info(const fc_ctx *c, hid_t root, const char *where)
{
    static const char *const names[3] = {"title", "description", "math_info"};
    char gw[128];
    hid_t g;
    int yes;
    int rc = has_link(c, root, where, "info", &yes);
    if (rc != CB_OK || !yes)
        return rc;
    rc = open_group(c, root, where, "info", &g);
    if (rc != CB_OK)
        return rc;
    snprintf(gw, sizeof gw, "%s/info", where);
    for (int k = 0; k < 3 && rc == CB_OK; k++) {
        rc = has_link(c, g, gw, names[k], &yes);
        if (rc == CB_OK && yes)
            rc = read_dataset(c, g, gw, names[k], FC_STRING, 1, 1, NULL);
    }
    H5Gclose(g);
    return rc;
}

/* ---------------------------------------------------------------- problem groups */

/* W square, n = nc·d with nc ≥ 1. */
static int check_local_shape(const fc_ctx *c, const fc_matrix *W, int d)
{
    if (W->m != W->n || W->m < d || W->m % d != 0)
        return fc_fail(c, "/fclib_local/W: %d x %d, must be square with a size that is a positive "
                          "multiple of spacedim = %d", W->m, W->n, d);
    return CB_OK;
}

/* What /fclib_local says beyond libfclib's fclib_local: the kind (conebench's extension
 * dataset conebench_kind, else Coulomb of spacedim 2 or 3) and the extension's μ_r, μ_s. */
typedef struct {
    cb_kind kind;
    double *mu_r, *mu_s; /* nc each, owned; NULL when the kind has no such block */
    fc_matrix W;         /* W's header as the probe read it (no arrays) */
} fc_local_ext;

static void fc_local_ext_free(fc_local_ext *x)
{
    free(x->mu_r);
    free(x->mu_s);
    memset(x, 0, sizeof *x);
}

/* x->kind from conebench_kind (its d must be spacedim d) or, without it, from d ∈ {2, 3}. */
static int local_kind(const fc_ctx *c, hid_t root, const char *where, int d, fc_local_ext *x)
{
    void *name = NULL;
    int yes = 0;
    int rc = has_link(c, root, where, CB_FCLIB_KIND_DATASET, &yes);
    if (rc == CB_OK && !yes) {
        x->kind = d == 2 ? CB_KIND_COULOMB2D : CB_KIND_COULOMB3D;
        if (d != 2 && d != 3)
            rc = fc_fail(c, "%s/spacedim: %d, must be 2 or 3 (an FCLIB Coulomb problem), or the "
                         "group must name its kind in %s/%s (conebench's local rolling "
                         "extension): neither", where, d, where, CB_FCLIB_KIND_DATASET);
        return rc;
    }
    if (rc == CB_OK)
        rc = read_dataset(c, root, where, CB_FCLIB_KIND_DATASET, FC_STRING, 1, 1, &name);
    if (rc == CB_OK && cb_kind_parse(name, &x->kind) != CB_OK)
        rc = fc_fail(c, "%s/%s: '%.40s' is not coulomb2d, coulomb3d, rolling2d, rolling3d or "
                     "rollspin3d", where, CB_FCLIB_KIND_DATASET, (char *)name);
    else if (rc == CB_OK && cb_kind_dim(x->kind) != d)
        rc = fc_fail(c, "%s/%s: %s has d = %d but %s/spacedim is %d", where,
                     CB_FCLIB_KIND_DATASET, cb_kind_name(x->kind), cb_kind_dim(x->kind), where, d);
    free(name);
    return rc;
}

static int check_coeffs(const fc_ctx *c, const char *field, const double *x, size_t n);

/* The extension's vectors/mu_r (kinds with a rolling block) and mu_s (rollspin3d), nc each. */
static int local_ext_vectors(const fc_ctx *c, hid_t vec, const char *vw, hsize_t nc,
                             fc_local_ext *x)
{
    int rc = CB_OK;
    if (cb_kind_nblocks(x->kind) >= 2)
        rc = read_vector(c, vec, vw, "mu_r", nc, &x->mu_r);
    if (rc == CB_OK && x->kind == CB_KIND_ROLLSPIN3D)
        rc = read_vector(c, vec, vw, "mu_s", nc, &x->mu_s);
    if (rc == CB_OK && x->mu_r)
        rc = check_coeffs(c, "/fclib_local/vectors/mu_r", x->mu_r, (size_t)nc);
    if (rc == CB_OK && x->mu_s)
        rc = check_coeffs(c, "/fclib_local/vectors/mu_s", x->mu_s, (size_t)nc);
    return rc;
}

/* Everything fclib_read_local will touch, before it touches it; x gets the kind and the
 * extension's vectors (freed on failure). */
static int probe_local(const fc_ctx *c, hid_t file, fc_local_ext *x)
{
    const char *where = "/fclib_local", *vw = "/fclib_local/vectors";
    hid_t root, vec;
    fc_matrix W;
    int d = 0, yes = 0;
    memset(x, 0, sizeof *x);
    memset(&W, 0, sizeof W);
    int rc = open_group(c, file, "", fc_groups[0], &root);
    if (rc != CB_OK)
        return rc;
    rc = read_int(c, root, where, "spacedim", &d);
    if (rc == CB_OK)
        rc = local_kind(c, root, where, d, x);
    if (rc == CB_OK)
        rc = has_link(c, root, where, "V", &yes);
    if (rc == CB_OK && yes)
        rc = fc_fail(c, "%s/V: mixed problems (V, R, s) are not supported", where);
    if (rc == CB_OK)
        rc = read_matrix(c, root, where, "W", FC_COUNT, &W); /* read: read_local */
    if (rc == CB_OK)
        rc = check_local_shape(c, &W, d);
    x->W = W;
    if (rc == CB_OK && (rc = open_group(c, root, where, "vectors", &vec)) == CB_OK) {
        hsize_t m = (hsize_t)W.m, nc = m / (hsize_t)d;
        rc = read_vector(c, vec, vw, "q", m, NULL);
        if (rc == CB_OK)
            rc = read_vector(c, vec, vw, "mu", nc, NULL);
        if (rc == CB_OK)
            rc = local_ext_vectors(c, vec, vw, nc, x);
        H5Gclose(vec);
    }
    if (rc == CB_OK)
        rc = probe_problem_info(c, root, where);
    H5Gclose(root);
    if (rc != CB_OK)
        fc_local_ext_free(x);
    return rc;
}

static void fc_global_free(fc_global *G)
{
    free(G->M.p);
    free(G->M.i);
    free(G->M.x);
    free(G->H.p);
    free(G->H.i);
    free(G->H.x);
    free(G->f);
    free(G->w);
    free(G->mu);
    free(G->mu_r);
    memset(G, 0, sizeof *G);
}

/* M square (ndof ≥ 1), H ndof × nc·d with nc ≥ 1. */
static int check_global_shape(const fc_ctx *c, const char *where, const fc_global *G)
{
    int d = G->spacedim;
    if (G->M.m != G->M.n || G->M.m < 1)
        return fc_fail(c, "%s/M: %d x %d, must be square and non-empty", where, G->M.m, G->M.n);
    if (G->H.m != G->M.m)
        return fc_fail(c, "%s/H: has %d rows, M has %d", where, G->H.m, G->M.m);
    if (G->H.n < d || G->H.n % d != 0)
        return fc_fail(c, "%s/H: %d columns, must be a positive multiple of spacedim = %d", where,
                       G->H.n, d);
    return CB_OK;
}

/* f (ndof), w (nc·d), mu (nc) and for rolling problems mu_r (nc): read (keep) or checked. */
static int read_global_vectors(const fc_ctx *c, hid_t root, const char *where, int rolling, int keep,
                               fc_global *G)
{
    char vw[96];
    hid_t v;
    hsize_t n = (hsize_t)G->M.m, m = (hsize_t)G->H.n, nc = m / (hsize_t)G->spacedim;
    snprintf(vw, sizeof vw, "%s/vectors", where);
    int rc = open_group(c, root, where, "vectors", &v);
    if (rc != CB_OK)
        return rc;
    rc = read_vector(c, v, vw, "f", n, keep ? &G->f : NULL);
    if (rc == CB_OK)
        rc = read_vector(c, v, vw, "w", m, keep ? &G->w : NULL);
    if (rc == CB_OK)
        rc = read_vector(c, v, vw, "mu", nc, keep ? &G->mu : NULL);
    if (rc == CB_OK && rolling)
        rc = read_vector(c, v, vw, "mu_r", nc, keep ? &G->mu_r : NULL);
    H5Gclose(v);
    return rc;
}

/* Group /group of a global problem: read it (keep) or check what fclib_read_global will touch. */
static int read_global_group(const fc_ctx *c, hid_t file, const char *group, int rolling, int keep,
                             fc_global *G)
{
    char where[64];
    hid_t root;
    int yes = 0;
    memset(G, 0, sizeof *G);
    snprintf(where, sizeof where, "/%s", group);
    int rc = open_group(c, file, "", group, &root);
    if (rc != CB_OK)
        return rc;
    rc = read_int(c, root, where, "spacedim", &G->spacedim);
    if (rc == CB_OK && !(rolling ? G->spacedim == 3 || G->spacedim == 5
                                 : G->spacedim == 2 || G->spacedim == 3))
        rc = fc_fail(c, "%s/spacedim: %d, must be %s", where, G->spacedim,
                     rolling ? "3 or 5" : "2 or 3");
    if (rc == CB_OK)
        rc = has_link(c, root, where, "G", &yes);
    if (rc == CB_OK && yes)
        rc = fc_fail(c, "%s/G: equality constraints (G, b) are not supported", where);
    if (rc == CB_OK)
        rc = read_matrix(c, root, where, "M", keep ? FC_KEEP : FC_CHECK, &G->M);
    if (rc == CB_OK)
        rc = read_matrix(c, root, where, "H", keep ? FC_KEEP : FC_CHECK, &G->H);
    if (rc == CB_OK)
        rc = check_global_shape(c, where, G);
    if (rc == CB_OK)
        rc = read_global_vectors(c, root, where, rolling, keep, G);
    if (rc == CB_OK && !rolling)
        rc = probe_problem_info(c, root, where);
    H5Gclose(root);
    if (rc != CB_OK)
        fc_global_free(G);
    return rc;
}

/* ---------------------------------------------------------------- conversion */

static int check_finite(const fc_ctx *c, const char *field, const double *x, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!isfinite(x[k]))
            return fc_fail(c, "%s: entry %zu is not finite", field, k);
    return CB_OK;
}

static int check_coeffs(const fc_ctx *c, const char *field, const double *x, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!isfinite(x[k]) || x[k] < 0)
            return fc_fail(c, "%s: entry %zu is %g, must be finite and >= 0", field, k, x[k]);
    return CB_OK;
}

/* Number of stored entries; for compressed layouts checks the pointer array first. */
static int matrix_nnz(const fc_ctx *c, const char *field, const fc_matrix *A, int *nnz)
{
    if (A->nz >= 0) {
        *nnz = A->nz;
        return CB_OK;
    }
    int outer = A->nz == -1 ? A->n : A->m;
    if (A->p[0] != 0)
        return fc_fail(c, "%s/p: first pointer is %d, must be 0", field, A->p[0]);
    for (int k = 0; k < outer; k++)
        if (A->p[k + 1] < A->p[k])
            return fc_fail(c, "%s/p: pointers decrease at %d", field, k);
    if (A->p[outer] > A->nzmax)
        return fc_fail(c, "%s/p: last pointer %d exceeds nzmax = %d", field, A->p[outer], A->nzmax);
    *nnz = A->p[outer];
    return CB_OK;
}

/* Entry k's row and column; o is the compressed outer index, advanced as k grows. */
static void entry_at(const fc_matrix *A, int k, int *o, int *r, int *col)
{
    if (A->nz >= 0) {
        *r = A->i[k];
        *col = A->p[k];
        return;
    }
    while (k >= A->p[*o + 1])
        (*o)++;
    *r = A->nz == -1 ? A->i[k] : *o;
    *col = A->nz == -1 ? *o : A->i[k];
}

/* Check the nnz entries of A (index ranges, finiteness); with outer, also write each entry's
 * compressed outer index there (its column for CSC, its row for CSR). */
static int check_entries(const fc_ctx *c, const char *field, const fc_matrix *A, int nnz,
                         int *outer)
{
    int o = 0;
    for (int k = 0; k < nnz; k++) {
        int r, col;
        entry_at(A, k, &o, &r, &col);
        if (r < 0 || r >= A->m)
            return fc_fail(c, "%s/%s: row index %d out of range [0, %d) at entry %d", field,
                           A->nz == -2 ? "p" : "i", r, A->m, k);
        if (col < 0 || col >= A->n)
            return fc_fail(c, "%s/%s: column index %d out of range [0, %d) at entry %d", field,
                           A->nz == -1 ? "p" : A->nz == -2 ? "i" : "p", col, A->n, k);
        if (!isfinite(A->x[k]))
            return fc_fail(c, "%s/x: entry %d is not finite", field, k);
        if (outer)
            outer[k] = o;
    }
    return CB_OK;
}

/* Any fclib layout → triplets (row, column, value), copied. On failure t is left empty. */
static int matrix_to_triplets(const fc_ctx *c, const char *field, const fc_matrix *A, cb_triplets *t)
{
    int nnz = 0;
    memset(t, 0, sizeof *t);
    int rc = matrix_nnz(c, field, A, &nnz);
    if (rc != CB_OK)
        return rc;
    t->nrow = A->m;
    t->ncol = A->n;
    t->nnz = nnz;
    t->i = cb_malloc_array((size_t)nnz, sizeof(int));
    t->j = cb_malloc_array((size_t)nnz, sizeof(int));
    t->x = cb_malloc_array((size_t)nnz, sizeof(double));
    rc = t->i && t->j && t->x ? check_entries(c, field, A, nnz, NULL) : fc_nomem(c, field);
    for (int k = 0, o = 0; rc == CB_OK && k < nnz; k++) {
        entry_at(A, k, &o, &t->i[k], &t->j[k]);
        t->x[k] = A->x[k];
    }
    if (rc != CB_OK)
        cb_triplets_free(t);
    return rc;
}

/* A as triplets that share A's arrays (no copy of the values): only a compressed layout's outer
 * indices are written out, into *owned (the caller frees it; NULL for coordinates). */
static int matrix_view(const fc_ctx *c, const char *field, const fc_matrix *A, cb_triplets *t,
                       int **owned)
{
    int nnz = 0;
    memset(t, 0, sizeof *t);
    *owned = NULL;
    int rc = matrix_nnz(c, field, A, &nnz);
    if (rc == CB_OK && A->nz < 0 && !(*owned = cb_malloc_array(nnz ? (size_t)nnz : 1, sizeof(int))))
        rc = fc_nomem(c, field);
    if (rc == CB_OK)
        rc = check_entries(c, field, A, nnz, *owned);
    if (rc != CB_OK)
        return rc;
    t->nrow = A->m;
    t->ncol = A->n;
    t->nnz = nnz;
    t->x = A->x;
    t->i = A->nz == -2 ? *owned : A->i;
    t->j = A->nz == -1 ? *owned : A->nz == -2 ? A->i : A->p;
    return CB_OK;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Counting sort of the entries by block row: row a's entries are order[start[a] .. start[a+1]). */
static void bucket_rows(const cb_triplets *t, int d, int nc, int *order, int *start, int *cursor)
{
    memset(start, 0, ((size_t)nc + 1) * sizeof(int));
    for (int k = 0; k < t->nnz; k++)
        start[t->i[k] / d + 1]++;
    for (int a = 0; a < nc; a++) {
        start[a + 1] += start[a];
        cursor[a] = start[a];
    }
    for (int k = 0; k < t->nnz; k++)
        order[cursor[t->i[k] / d]++] = k;
}

/* Number of distinct d×d blocks, counting every diagonal block. */
static long long count_blocks(const cb_triplets *t, int d, int nc, const int *order, const int *start,
                              int *mark)
{
    long long nnzb = 0;
    for (int b = 0; b < nc; b++)
        mark[b] = -1;
    for (int a = 0; a < nc; a++) {
        mark[a] = a;
        nnzb++;
        for (int k = start[a]; k < start[a + 1]; k++) {
            int b = t->j[order[k]] / d;
            if (mark[b] != a) {
                mark[b] = a;
                nnzb++;
            }
        }
    }
    return nnzb;
}

/* Fill P's BSR structure (sorted block columns, diagonal always present) and sum the entries. */
static void fill_bsr(cb_problem *P, const cb_triplets *t, const int *order, const int *start,
                     int *mark, int *slot)
{
    int d = P->d, pos = 0;
    cb_bsr *B = &P->bsr;
    for (int b = 0; b < P->nc; b++)
        mark[b] = -1;
    for (int a = 0; a < P->nc; a++) {
        int k0 = pos;
        B->row_ptr[a] = pos;
        mark[a] = a;
        B->col[pos++] = a;
        for (int k = start[a]; k < start[a + 1]; k++) {
            int b = t->j[order[k]] / d;
            if (mark[b] != a) {
                mark[b] = a;
                B->col[pos++] = b;
            }
        }
        qsort(B->col + k0, (size_t)(pos - k0), sizeof(int), cmp_int);
        for (int k = k0; k < pos; k++)
            slot[B->col[k]] = k;
        for (int k = start[a]; k < start[a + 1]; k++) {
            int e = order[k], r = t->i[e], col = t->j[e];
            B->val[(size_t)slot[col / d] * d * d + (size_t)(r % d) + (size_t)(col % d) * d] += t->x[e];
        }
    }
    B->row_ptr[P->nc] = pos;
}

/* A new BSR problem of nnzb blocks (q, μ zero), or the reason it cannot be made. */
static int alloc_bsr(const fc_ctx *c, cb_kind kind, int nc, long long nnzb, cb_problem **out)
{
    cb_error e;
    cb_error_clear(&e);
    if (nnzb > INT_MAX)
        return fc_fail(c, "W: %lld blocks, too many for BSR storage", nnzb);
    int rc = cb_problem_alloc(kind, nc, CB_STORAGE_BSR, (int)nnzb, out, &e);
    return rc == CB_OK ? CB_OK : fc_relay(c, rc, &e);
}

/* n×n triplets (n = nc·d) → a new BSR problem (duplicates summed); q, μ are left zero. */
static int triplets_to_bsr(const fc_ctx *c, const cb_triplets *t, cb_kind kind, int nc,
                           cb_problem **out)
{
    int d = cb_kind_dim(kind), rc = CB_OK;
    int *order = cb_malloc_array((size_t)t->nnz, sizeof(int));
    int *start = cb_malloc_array((size_t)nc + 1, sizeof(int));
    int *mark = cb_malloc_array((size_t)nc, sizeof(int));
    int *slot = cb_malloc_array((size_t)nc, sizeof(int));
    if (!order || !start || !mark || !slot) {
        rc = fc_nomem(c, "W");
    } else {
        bucket_rows(t, d, nc, order, start, mark);
        rc = alloc_bsr(c, kind, nc, count_blocks(t, d, nc, order, start, mark), out);
        if (rc == CB_OK)
            fill_bsr(*out, t, order, start, mark, slot);
    }
    free(order);
    free(start);
    free(mark);
    free(slot);
    return rc;
}

/* ------------------------------------------------ compressed W straight into BSR, streaming */

/* A compressed W (CSR: nz = −2, CSC: nz = −1) read outer index by outer index is M = W (CSR) or
 * M = Wᵀ (CSC) row by row: M's block row b holds the entries of outer indices b·d … b·d + d − 1.
 * Triplets sorted by block row (as cb_write_fclib writes them) are M = W row by row too. Built
 * that way, M fills in order while libfclib's arrays are read in order, so their pages are given
 * back behind the reader (cb_buffer_release) and the two are not resident in full together; a
 * CSC W is then transposed in place. Duplicates are summed in entry order, as triplets_to_bsr
 * sums them: the same bits. */

typedef struct {
    fc_matrix *A;
    size_t done_x, done_i, done_p; /* bytes of A->x, A->i (and a triplet A->p) given back */
} fc_stream;

/* 1 when triplets (nz ≥ 0) come by block row: i[k] / d never decreases. */
static int triplets_by_block_row(const fc_matrix *A, int nnz, int d)
{
    for (int k = 1; k < nnz; k++)
        if (A->i[k] / d < A->i[k - 1] / d)
            return 0;
    return A->nz >= 0;
}

/* Entries [lo, hi) of M's block row b: compressed, p[b·d], p[(b+1)·d]; triplets, the run of
 * block row b found from lo (the run before it ended there). */
static void row_range(const fc_matrix *A, int d, int b, int lo, int *hi)
{
    if (A->nz < 0) {
        *hi = A->p[(b + 1) * d];
        return;
    }
    int k = lo;
    while (k < A->nz && A->i[k] / d == b)
        k++;
    *hi = k;
}

/* M's column of entry k: the inner index (compressed) or the triplet's column. */
static int entry_col(const fc_matrix *A, int k)
{
    return A->nz < 0 ? A->i[k] : A->p[k];
}

/* Number of distinct d×d blocks of M, counting every diagonal block. */
static long long count_outer_blocks(const fc_matrix *A, int d, int nc, int *mark)
{
    long long nnzb = 0;
    for (int b = 0; b < nc; b++)
        mark[b] = -1;
    for (int b = 0, lo = 0, hi; b < nc; b++, lo = hi) {
        row_range(A, d, b, lo, &hi);
        mark[b] = b;
        nnzb++;
        for (int k = lo; k < hi; k++)
            if (mark[entry_col(A, k) / d] != b) {
                mark[entry_col(A, k) / d] = b;
                nnzb++;
            }
    }
    return nnzb;
}

/* Give back the pages of A's arrays below entry k (every CB_RELEASE_STEP bytes). */
static void stream_release(fc_stream *st, int k)
{
    size_t bx = (size_t)k * sizeof(double), bi = (size_t)k * sizeof(int);
    if (bx >= st->done_x + CB_RELEASE_STEP) {
        cb_buffer_release((char *)st->A->x, &st->done_x, bx);
        cb_buffer_release((char *)st->A->i, &st->done_i, bi);
        if (st->A->nz >= 0)
            cb_buffer_release((char *)st->A->p, &st->done_p, bi);
    }
}

/* Block row b of M (entries [lo, hi)) into P's BSR from position pos (sorted block columns, the
 * diagonal always present); returns the next position. M(r, j) = x_k, r the outer index of k
 * (compressed) or its row (triplets). */
static int fill_outer_row(cb_problem *P, const fc_matrix *A, int b, int lo, int hi, int pos,
                          int *mark, int *slot)
{
    int d = P->d, k0 = pos, o = b * d;
    cb_bsr *B = &P->bsr;
    B->row_ptr[b] = pos;
    mark[b] = b;
    B->col[pos++] = b;
    for (int k = lo; k < hi; k++)
        if (mark[entry_col(A, k) / d] != b) {
            mark[entry_col(A, k) / d] = b;
            B->col[pos++] = entry_col(A, k) / d;
        }
    qsort(B->col + k0, (size_t)(pos - k0), sizeof(int), cmp_int);
    for (int k = k0; k < pos; k++)
        slot[B->col[k]] = k;
    for (int k = lo; k < hi; k++) {
        while (A->nz < 0 && k >= A->p[o + 1])
            o++;
        int r = A->nz < 0 ? o : A->i[k], j = entry_col(A, k);
        B->val[(size_t)slot[j / d] * d * d + (size_t)(r % d) + (size_t)(j % d) * d] += A->x[k];
    }
    return pos;
}

/* B ← Bᵀ in place (each block (a, b) swapped with its mirror (b, a), both transposed) when B's
 * block pattern is symmetric; 0 (B unchanged) when it is not. */
static int transpose_in_place(cb_bsr *B, int nc, int d)
{
    for (int a = 0; a < nc; a++)
        for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++)
            if (cb_bsr_find(B, B->col[k], a) < 0)
                return 0;
    size_t dd = (size_t)d * d;
    for (int a = 0; a < nc; a++)
        for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
            int b = B->col[k];
            if (b < a)
                continue;
            double *u = B->val + (size_t)k * dd;
            double *v = B->val + (size_t)cb_bsr_find(B, b, a) * dd;
            for (int c = 0; c < d; c++)
                for (int r = b == a ? c + 1 : 0; r < d; r++) { /* u ↔ vᵀ (a diagonal block: uᵀ) */
                    double t = u[r + (size_t)c * d];
                    u[r + (size_t)c * d] = v[c + (size_t)r * d];
                    v[c + (size_t)r * d] = t;
                }
        }
    return 1;
}

/* *P ← its transpose in a new problem (a block pattern that is not symmetric). */
static int transpose_copy(const fc_ctx *c, cb_problem **P)
{
    const cb_bsr *M = &(*P)->bsr;
    int nc = (*P)->nc, d = (*P)->d;
    cb_problem *T = NULL;
    cb_error e;
    cb_error_clear(&e);
    int rc = cb_problem_alloc((*P)->kind, nc, CB_STORAGE_BSR, M->nnzb, &T, &e);
    if (rc != CB_OK)
        return fc_relay(c, rc, &e);
    cb_bsr *B = &T->bsr;
    for (int k = 0; k < M->nnzb; k++) /* row counts of Mᵀ, shifted by one */
        B->row_ptr[M->col[k] + 1]++;
    for (int a = 0; a < nc; a++)
        B->row_ptr[a + 1] += B->row_ptr[a];
    int *next = cb_malloc_array((size_t)nc, sizeof(int));
    if (!next) {
        cb_problem_free(T);
        return fc_nomem(c, "W");
    }
    memcpy(next, B->row_ptr, (size_t)nc * sizeof(int));
    for (int a = 0; a < nc; a++) /* rows of M in order: Mᵀ's columns come sorted */
        for (int k = M->row_ptr[a]; k < M->row_ptr[a + 1]; k++) {
            int t = next[M->col[k]]++;
            B->col[t] = a;
            for (int r = 0; r < d; r++)
                for (int q = 0; q < d; q++)
                    B->val[(size_t)t * d * d + r + (size_t)q * d] =
                        M->val[(size_t)k * d * d + q + (size_t)r * d];
        }
    free(next);
    cb_problem_free(*P);
    *P = T;
    return CB_OK;
}

/* A compressed W or triplets by block row (checked) → a new BSR problem, A's arrays given back
 * as they are read (A is libfclib's and is not read again). */
static int compressed_to_bsr(const fc_ctx *c, fc_matrix *A, cb_kind kind, int nc,
                             cb_problem **out)
{
    int d = cb_kind_dim(kind), rc = CB_OK;
    int *mark = cb_malloc_array((size_t)nc, sizeof(int));
    int *slot = cb_malloc_array((size_t)nc, sizeof(int));
    *out = NULL;
    if (!mark || !slot) {
        rc = fc_nomem(c, "W");
    } else {
        rc = alloc_bsr(c, kind, nc, count_outer_blocks(A, d, nc, mark), out);
    }
    if (rc == CB_OK) {
        fc_stream st = {A, 0, 0, 0};
        int pos = 0;
        for (int b = 0; b < nc; b++)
            mark[b] = -1;
        for (int b = 0, lo = 0, hi; b < nc; b++, lo = hi) {
            row_range(A, d, b, lo, &hi);
            pos = fill_outer_row(*out, A, b, lo, hi, pos, mark, slot);
            stream_release(&st, hi);
        }
        (*out)->bsr.row_ptr[nc] = pos;
        if (A->nz == -1 && !transpose_in_place(&(*out)->bsr, nc, d))
            rc = transpose_copy(c, out);
    }
    if (rc != CB_OK) {
        cb_problem_free(*out);
        *out = NULL;
    }
    free(mark);
    free(slot);
    return rc;
}

/* ------------------------------------------------ triplets by block row, streamed from the file */

/* W's datasets i, p, x (rows, columns, values) open, read FC_CHUNK entries at a time. */
typedef struct {
    hid_t ds[3];
    int *row, *col;
    double *val;
} fc_wfile;

static const char *const fc_wname[3] = {"i", "p", "x"};

static void wfile_close(fc_wfile *f)
{
    for (int k = 0; k < 3; k++)
        if (f->ds[k] >= 0)
            H5Dclose(f->ds[k]);
    free(f->row);
    free(f->col);
    free(f->val);
}

/* Open the group's W/i, W/p, W/x (the probe checked their shapes, types and counts). */
static int wfile_open(const fc_ctx *c, hid_t root, fc_wfile *f)
{
    const char *gw = "/fclib_local/W";
    hid_t g;
    *f = (fc_wfile){{H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID}, NULL, NULL, NULL};
    int rc = open_group(c, root, "/fclib_local", "W", &g);
    if (rc != CB_OK)
        return rc;
    for (int k = 0; k < 3 && rc == CB_OK; k++) {
        hsize_t n;
        rc = open_dataset(c, g, gw, fc_wname[k], k < 2 ? FC_INT : FC_DOUBLE, &f->ds[k], &n);
    }
    H5Gclose(g);
    f->row = cb_malloc_array(FC_CHUNK, sizeof(int));
    f->col = cb_malloc_array(FC_CHUNK, sizeof(int));
    f->val = cb_malloc_array(FC_CHUNK, sizeof(double));
    if (rc == CB_OK && (!f->row || !f->col || !f->val))
        rc = fc_nomem(c, "W");
    return rc;
}

/* Entries off … off + cnt − 1 of the three datasets into the buffers, as native int / double. */
static int wfile_read(const fc_ctx *c, fc_wfile *f, hsize_t off, hsize_t cnt)
{
    void *buf[3] = {f->row, f->col, f->val};
    for (int k = 0; k < 3; k++)
        if (!read_range(f->ds[k], k < 2 ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, off, cnt, buf[k]))
            return fc_fail(c, "/fclib_local/W/%s: the data cannot be read (corrupt file?)",
                           fc_wname[k]);
    return CB_OK;
}

/* W's block pattern while pass 1 reads it: per block row its diagonal, then its other block
 * columns as they first come (sorted when the row ends), in a growing array. */
typedef struct {
    int *row_ptr, *cols, *mark;
    long long n, cap;
    int cur;
} fc_pattern;

/* Block column v appended to the pattern (CB_ERR_NOMEM, or CB_ERR_INPUT past INT_MAX blocks). */
static int pattern_push(fc_pattern *pt, int v)
{
    if (pt->n == INT_MAX)
        return CB_ERR_INPUT;
    if (pt->n == pt->cap) {
        int *grown = realloc(pt->cols, (size_t)(2 * pt->cap) * sizeof(int));
        if (!grown)
            return CB_ERR_NOMEM;
        pt->cols = grown;
        pt->cap *= 2;
    }
    pt->cols[pt->n++] = v;
    return CB_OK;
}

/* Block rows cur + 1 … b begin, each with its diagonal (a row without entries keeps only it);
 * the rows they end are sorted. */
static int pattern_advance(fc_pattern *pt, int b)
{
    int rc = CB_OK;
    while (pt->cur < b && rc == CB_OK) {
        if (pt->cur >= 0)
            qsort(pt->cols + pt->row_ptr[pt->cur], (size_t)(pt->n - pt->row_ptr[pt->cur]),
                  sizeof(int), cmp_int);
        pt->cur++;
        pt->row_ptr[pt->cur] = (int)pt->n;
        pt->mark[pt->cur] = pt->cur;
        rc = pattern_push(pt, pt->cur);
    }
    return rc;
}

/* Block column cb in the current block row, once. */
static int pattern_add(fc_pattern *pt, int cb)
{
    if (pt->mark[cb] == pt->cur)
        return CB_OK;
    pt->mark[cb] = pt->cur;
    return pattern_push(pt, cb);
}

/* The last block rows begin and every row is sorted; row_ptr[nc] closes the pattern. */
static int pattern_finish(fc_pattern *pt, int nc)
{
    int rc = pattern_advance(pt, nc - 1);
    if (rc == CB_OK) {
        qsort(pt->cols + pt->row_ptr[nc - 1], (size_t)(pt->n - pt->row_ptr[nc - 1]), sizeof(int),
              cmp_int);
        pt->row_ptr[nc] = (int)pt->n;
    }
    return rc;
}

/* The reason a pattern call failed. */
static int pattern_error(const fc_ctx *c, int rc)
{
    return rc == CB_ERR_NOMEM ? fc_nomem(c, "W")
                              : fc_fail(c, "W: more than %d blocks, too many for BSR storage",
                                        INT_MAX - 1);
}

/* Pass 1 over W's nz triplets (n×n, blocks d×d): each entry checked in order as check_entries
 * checks it (row, column, value) and the block pattern built in pt; *by_row = 0 at the first
 * entry whose block row goes back (W is then libfclib's to read). */
static int stream_pattern(const fc_ctx *c, fc_wfile *f, int n, int d, hsize_t nz, fc_pattern *pt,
                          int *by_row)
{
    int rc = CB_OK;
    *by_row = 1;
    for (hsize_t off = 0; off < nz && rc == CB_OK && *by_row; off += FC_CHUNK) {
        hsize_t cnt = nz - off < FC_CHUNK ? nz - off : FC_CHUNK;
        rc = wfile_read(c, f, off, cnt);
        for (hsize_t k = 0; k < cnt && rc == CB_OK && *by_row; k++) {
            int r = f->row[k], col = f->col[k], e = (int)(off + k);
            if (r < 0 || r >= n)
                rc = fc_fail(c, "/fclib_local/W/i: row index %d out of range [0, %d) at entry %d",
                             r, n, e);
            else if (col < 0 || col >= n)
                rc = fc_fail(c, "/fclib_local/W/p: column index %d out of range [0, %d) at entry "
                             "%d", col, n, e);
            else if (!isfinite(f->val[k]))
                rc = fc_fail(c, "/fclib_local/W/x: entry %d is not finite", e);
            else if (r / d < pt->cur)
                *by_row = 0;
            else if ((rc = pattern_advance(pt, r / d)) != CB_OK ||
                     (rc = pattern_add(pt, col / d)) != CB_OK)
                rc = pattern_error(c, rc);
        }
    }
    if (rc == CB_OK && *by_row && (rc = pattern_finish(pt, n / d)) != CB_OK)
        rc = pattern_error(c, rc);
    return rc;
}

/* Pass 2: W's values summed into P's blocks in entry order, as fill_outer_row sums them (the
 * same bits); slot (nc) is scratch. An entry that pass 1 did not see so is refused. */
static int stream_values(const fc_ctx *c, fc_wfile *f, hsize_t nz, cb_problem *P, int *slot)
{
    int d = P->d, n = P->nc * d, cur = -1, rc = CB_OK;
    size_t dd = (size_t)d * (size_t)d;
    cb_bsr *B = &P->bsr;
    for (hsize_t off = 0; off < nz && rc == CB_OK; off += FC_CHUNK) {
        hsize_t cnt = nz - off < FC_CHUNK ? nz - off : FC_CHUNK;
        rc = wfile_read(c, f, off, cnt);
        for (hsize_t k = 0; k < cnt && rc == CB_OK; k++) {
            int r = f->row[k], col = f->col[k], t = -1;
            if (r >= 0 && r < n && col >= 0 && col < n && r / d >= cur) {
                for (; cur < r / d; cur++) /* rows cur + 1 … r/d: their block columns' slots */
                    for (int j = B->row_ptr[cur + 1]; j < B->row_ptr[cur + 2]; j++)
                        slot[B->col[j]] = j;
                t = slot[col / d];
            }
            if (t < 0 || t < B->row_ptr[cur] || t >= B->row_ptr[cur + 1] || B->col[t] != col / d)
                rc = fc_fail(c, "/fclib_local/W: entry %llu changed while the file was read",
                             (unsigned long long)(off + k));
            else
                B->val[(size_t)t * dd + (size_t)(r % d) + (size_t)(col % d) * d] += f->val[k];
        }
    }
    return rc;
}

/* W's nz triplets (by block row) from the file into a new BSR problem of kind (q, μ zero):
 * *out NULL and CB_OK when they do not come by block row. */
static int stream_W(const fc_ctx *c, hid_t root, cb_kind kind, int n, hsize_t nz, cb_problem **out)
{
    int d = cb_kind_dim(kind), nc = n / d, by_row = 0;
    fc_wfile f;
    fc_pattern pt = {cb_malloc_array((size_t)nc + 1, sizeof(int)), cb_malloc_array((size_t)nc,
                     sizeof(int)), cb_malloc_array((size_t)nc, sizeof(int)), 0, nc, -1};
    *out = NULL;
    int rc = wfile_open(c, root, &f);
    if (rc == CB_OK && (!pt.row_ptr || !pt.cols || !pt.mark))
        rc = fc_nomem(c, "W");
    for (int b = 0; rc == CB_OK && b < nc; b++)
        pt.mark[b] = -1;
    if (rc == CB_OK)
        rc = stream_pattern(c, &f, n, d, nz, &pt, &by_row);
    if (rc == CB_OK && by_row && (rc = alloc_bsr(c, kind, nc, pt.n, out)) == CB_OK) {
        memcpy((*out)->bsr.row_ptr, pt.row_ptr, ((size_t)nc + 1) * sizeof(int));
        memcpy((*out)->bsr.col, pt.cols, (size_t)pt.n * sizeof(int));
        free(pt.cols); /* before the values come */
        pt.cols = NULL;
        rc = stream_values(c, &f, nz, *out, pt.mark);
    }
    if (rc != CB_OK) {
        cb_problem_free(*out);
        *out = NULL;
    }
    wfile_close(&f);
    free(pt.row_ptr);
    free(pt.cols);
    free(pt.mark);
    return rc;
}

/* The file's kind, or the caller's forced kind when it has the file's d and every block of the file. */
static int choose_kind(const fc_ctx *c, const cb_read_settings *s, cb_kind file_kind, cb_kind *kind)
{
    *kind = file_kind;
    if (!s || !s->force_kind)
        return CB_OK;
    int d = cb_kind_dim(file_kind);
    if (cb_kind_dim(s->kind) != d)
        return fc_fail(c, "kind: %s has d = %d but the file has spacedim %d", cb_kind_name(s->kind),
                       cb_kind_dim(s->kind), d);
    if (cb_kind_nblocks(s->kind) < cb_kind_nblocks(file_kind))
        return fc_fail(c, "kind: %s has no rolling block but the file has mu_r",
                       cb_kind_name(s->kind));
    *kind = s->kind;
    return CB_OK;
}

/* 1 when W is compressed columns holding every entry in order (p[j] = j·n, column j's rows
 * 0..n−1): a dense matrix, read as dense storage (cb_write_fclib writes dense W so). */
static int is_full_csc(const fc_matrix *W)
{
    long long n = W->n;
    if (W->nz != -1 || W->m != W->n || W->nzmax != n * n)
        return 0;
    for (long long col = 0; col <= n; col++)
        if (W->p[col] != col * n)
            return 0;
    for (long long k = 0; k < n * n; k++)
        if (W->i[k] != k % n)
            return 0;
    return 1;
}

/* W (n = nc·d, square) → a new problem: dense storage for a full compressed-column W (its values
 * are W column-major), BSR otherwise; q, μ left zero. */
static int local_matrix(const fc_ctx *c, fc_matrix *W, cb_kind kind, int nc, cb_problem **out)
{
    cb_triplets t = {0};
    cb_error e;
    cb_error_clear(&e);
    int rc;
    if (is_full_csc(W)) {
        size_t nn = (size_t)W->nzmax;
        rc = check_finite(c, "/fclib_local/W/x", W->x, nn);
        if (rc == CB_OK && (rc = cb_problem_alloc(kind, nc, CB_STORAGE_DENSE, 0, out, &e)) != CB_OK)
            rc = fc_relay(c, rc, &e);
        if (rc == CB_OK)
            memcpy((*out)->W, W->x, nn * sizeof(double));
        return rc;
    }
    int nnz = 0;
    rc = matrix_nnz(c, "/fclib_local/W", W, &nnz);
    if (rc == CB_OK && (W->nz < 0 || triplets_by_block_row(W, nnz, cb_kind_dim(kind)))) {
        rc = check_entries(c, "/fclib_local/W", W, nnz, NULL); /* then streamed into BSR */
        return rc == CB_OK ? compressed_to_bsr(c, W, kind, nc, out) : rc;
    }
    int *owned = NULL;
    rc = matrix_view(c, "/fclib_local/W", W, &t, &owned);
    if (rc == CB_OK)
        rc = triplets_to_bsr(c, &t, kind, nc, out);
    free(owned); /* t shares W's arrays otherwise */
    return rc;
}

/* libfclib's fclib_local and the extension x → problem (dense or BSR, local_matrix). */
static int local_to_problem(const fc_ctx *c, const struct fclib_local *L, const fc_local_ext *x,
                            const cb_read_settings *s, cb_problem **out)
{
    cb_kind kind = x->kind;
    int d = L->spacedim, rc;
    if (d != cb_kind_dim(x->kind))
        return fc_fail(c, "/fclib_local/spacedim: libfclib read %d, the file's %s has d = %d", d,
                       cb_kind_name(x->kind), cb_kind_dim(x->kind));
    if (!L->W || !L->q || !L->mu)
        return fc_fail(c, "/fclib_local: libfclib returned an incomplete problem");
    rc = choose_kind(c, s, x->kind, &kind);
    if (rc == CB_OK)
        rc = check_local_shape(c, L->W, d);
    int n = L->W->m, nc = n / d;
    if (rc == CB_OK)
        rc = check_finite(c, "/fclib_local/vectors/q", L->q, (size_t)n);
    if (rc == CB_OK)
        rc = check_coeffs(c, "/fclib_local/vectors/mu", L->mu, (size_t)nc);
    if (rc == CB_OK)
        rc = local_matrix(c, L->W, kind, nc, out);
    if (rc != CB_OK)
        return rc;
    memcpy((*out)->q, L->q, (size_t)n * sizeof(double));
    memcpy((*out)->mu, L->mu, (size_t)nc * sizeof(double));
    if (x->mu_r)
        memcpy((*out)->mu_r, x->mu_r, (size_t)nc * sizeof(double));
    if (x->mu_s)
        memcpy((*out)->mu_s, x->mu_s, (size_t)nc * sizeof(double));
    return CB_OK;
}

/* Check the vectors of a global problem (sizes were checked when they were read). */
static int check_global_vectors(const fc_ctx *c, const char *where, const fc_global *G)
{
    char field[96];
    size_t n = (size_t)G->M.m, m = (size_t)G->H.n, nc = m / (size_t)G->spacedim;
    if (!G->f || !G->w || !G->mu)
        return fc_fail(c, "%s/vectors: missing f, w or mu", where);
    snprintf(field, sizeof field, "%s/vectors/f", where);
    int rc = check_finite(c, field, G->f, n);
    snprintf(field, sizeof field, "%s/vectors/w", where);
    if (rc == CB_OK)
        rc = check_finite(c, field, G->w, m);
    snprintf(field, sizeof field, "%s/vectors/mu", where);
    if (rc == CB_OK)
        rc = check_coeffs(c, field, G->mu, nc);
    snprintf(field, sizeof field, "%s/vectors/mu_r", where);
    if (rc == CB_OK && G->mu_r)
        rc = check_coeffs(c, field, G->mu_r, nc);
    return rc;
}

/* A global problem (M, H, f, w, μ[, μ_r]) → condensed dense problem. */
static int global_to_problem(const fc_ctx *c, const char *where, const fc_global *G,
                             cb_kind file_kind, const cb_read_settings *s, cb_problem **out)
{
    char field[96];
    cb_global_problem g;
    cb_error e;
    double *zeros = NULL;
    memset(&g, 0, sizeof g);
    cb_error_clear(&e);
    int rc = choose_kind(c, s, file_kind, &g.kind);
    if (rc == CB_OK)
        rc = check_global_shape(c, where, G);
    if (rc == CB_OK)
        rc = check_global_vectors(c, where, G);
    snprintf(field, sizeof field, "%s/M", where);
    if (rc == CB_OK)
        rc = matrix_to_triplets(c, field, &G->M, &g.M);
    snprintf(field, sizeof field, "%s/H", where);
    if (rc == CB_OK)
        rc = matrix_to_triplets(c, field, &G->H, &g.H);
    g.ndof = G->M.m;
    g.nc = G->H.n / G->spacedim;
    if (rc == CB_OK && !(zeros = cb_calloc((size_t)g.nc, sizeof(double))))
        rc = fc_nomem(c, where);
    if (rc == CB_OK) {
        g.f = G->f;
        g.w = G->w;
        g.mu = G->mu;
        g.mu_r = G->mu_r ? G->mu_r : zeros;
        g.mu_s = zeros;
        *out = NULL;
        if ((rc = cb_condense_global(&g, out, &e)) != CB_OK) {
            *out = NULL;
            rc = fc_relay(c, rc, &e);
        }
    }
    cb_triplets_free(&g.M);
    cb_triplets_free(&g.H);
    free(zeros);
    return rc;
}

/* ---------------------------------------------------------------- the three groups */

/* q (n) and μ (nc) of /fclib_local into new arrays, checked as local_to_problem checks them. */
static int local_vectors(const fc_ctx *c, hid_t root, int n, int nc, double **q, double **mu)
{
    const char *vw = "/fclib_local/vectors";
    hid_t vec;
    int rc = open_group(c, root, "/fclib_local", "vectors", &vec);
    if (rc != CB_OK)
        return rc;
    rc = read_vector(c, vec, vw, "q", (hsize_t)n, q);
    if (rc == CB_OK)
        rc = read_vector(c, vec, vw, "mu", (hsize_t)nc, mu);
    H5Gclose(vec);
    if (rc == CB_OK)
        rc = check_finite(c, "/fclib_local/vectors/q", *q, (size_t)n);
    if (rc == CB_OK)
        rc = check_coeffs(c, "/fclib_local/vectors/mu", *mu, (size_t)nc);
    return rc;
}

/* /fclib_local read here instead of by libfclib when W holds triplets that come by block row
 * (as cb_write_fclib writes them): W goes from the file into BSR FC_CHUNK entries at a time
 * and is never whole in memory twice (libfclib's arrays take 16 bytes an entry beside BSR's 8).
 * *out stays NULL (CB_OK) when W is laid out otherwise: libfclib's turn. */
static int read_local_streamed(const fc_ctx *c, hid_t file, const fc_local_ext *x,
                               const cb_read_settings *s, cb_problem **out)
{
    int n = x->W.m, nc = n / cb_kind_dim(x->kind);
    double *q = NULL, *mu = NULL;
    cb_kind kind;
    hid_t root;
    *out = NULL;
    if (x->W.nz < 0)
        return CB_OK;
    int rc = choose_kind(c, s, x->kind, &kind);
    if (rc == CB_OK && (rc = open_group(c, file, "", fc_groups[0], &root)) == CB_OK) {
        rc = local_vectors(c, root, n, nc, &q, &mu);
        if (rc == CB_OK)
            rc = stream_W(c, root, kind, n, (hsize_t)x->W.nz, out);
        H5Gclose(root);
    }
    if (rc == CB_OK && *out) {
        memcpy((*out)->q, q, (size_t)n * sizeof(double));
        memcpy((*out)->mu, mu, (size_t)nc * sizeof(double));
        if (x->mu_r)
            memcpy((*out)->mu_r, x->mu_r, (size_t)nc * sizeof(double));
        if (x->mu_s)
            memcpy((*out)->mu_s, x->mu_s, (size_t)nc * sizeof(double));
    }
    free(q);
    free(mu);
    return rc;
}

/* The rest of the probe for libfclib's path: W's arrays read through (the streamed path reads
 * them itself, so probe_local only counted them). */
static int probe_W_data(const fc_ctx *c, hid_t file)
{
    hid_t root;
    fc_matrix W;
    int rc = open_group(c, file, "", fc_groups[0], &root);
    if (rc != CB_OK)
        return rc;
    rc = read_matrix(c, root, "/fclib_local", "W", FC_CHECK, &W);
    H5Gclose(root);
    return rc;
}

/* /fclib_local: probed here, read here when W streams (read_local_streamed), else by libfclib
 * once W's arrays are known to read (probe_W_data); its extension (if any) read here. */
static int read_local(const fc_ctx *c, hid_t file, const cb_read_settings *s, cb_problem **out)
{
    fc_local_ext x;
    int rc = probe_local(c, file, &x);
    if (rc != CB_OK)
        return rc;
    rc = read_local_streamed(c, file, &x, s, out);
    if (rc == CB_OK && !*out)
        rc = probe_W_data(c, file);
    if (rc != CB_OK || *out) {
        fc_local_ext_free(&x);
        return rc;
    }
    struct fclib_local *L = fclib_read_local(c->path);
    if (!L) {
        rc = fc_fail(c, "/fclib_local: libfclib could not read the problem");
    } else {
        rc = local_to_problem(c, L, &x, s, out);
        fclib_delete_local(L); /* frees the members, not the struct */
        free(L);
    }
    fc_local_ext_free(&x);
    return rc;
}

static int read_global(const fc_ctx *c, hid_t file, const cb_read_settings *s, cb_problem **out)
{
    fc_global G;
    int rc = read_global_group(c, file, fc_groups[1], 0, 0, &G); /* probe only */
    if (rc != CB_OK)
        return rc;
    struct fclib_global *F = fclib_read_global(c->path);
    if (!F)
        return fc_fail(c, "/fclib_global: libfclib could not read the problem");
    if (!F->M || !F->H) {
        rc = fc_fail(c, "/fclib_global: libfclib returned an incomplete problem");
    } else {
        fc_global view = {F->spacedim, *F->M, *F->H, F->f, F->w, F->mu, NULL};
        cb_kind kind = F->spacedim == 2 ? CB_KIND_COULOMB2D : CB_KIND_COULOMB3D;
        rc = global_to_problem(c, "/fclib_global", &view, kind, s, out);
    }
    fclib_delete_global(F); /* frees the members, not the struct */
    free(F);
    return rc;
}

static int read_rolling(const fc_ctx *c, hid_t file, const cb_read_settings *s, cb_problem **out)
{
    fc_global G;
    int rc = read_global_group(c, file, fc_groups[2], 1, 1, &G);
    if (rc != CB_OK)
        return rc;
    cb_kind kind = G.spacedim == 3 ? CB_KIND_ROLLING2D : CB_KIND_ROLLING3D;
    rc = global_to_problem(c, "/fclib_global_rolling", &G, kind, s, out);
    fc_global_free(&G);
    return rc;
}

/* Dispatch on the one problem group the file has. */
static int read_open_file(const fc_ctx *c, hid_t file, const cb_read_settings *s, cb_problem **out)
{
    int found = -1, yes = 0;
    for (int k = 0; k < 3; k++) {
        int rc = has_link(c, file, "", fc_groups[k], &yes);
        if (rc != CB_OK)
            return rc;
        if (yes && found >= 0)
            return fc_fail(c, "both /%s and /%s present: ambiguous FCLIB file", fc_groups[found],
                           fc_groups[k]);
        if (yes)
            found = k;
    }
    if (found < 0)
        return fc_fail(c, "no /fclib_local, /fclib_global or /fclib_global_rolling group: not an "
                          "FCLIB problem");
    if (found == 0)
        return read_local(c, file, s, out);
    if (found == 1)
        return read_global(c, file, s, out);
    return read_rolling(c, file, s, out);
}

/* Name (basename without extension) and provenance source. */
static int set_origin(const fc_ctx *c, cb_problem *p)
{
    const char *base = strrchr(c->path, '/');
    char *name = cb_strdup(base ? base + 1 : c->path);
    if (!name)
        return fc_nomem(c, "name");
    char *dot = strrchr(name, '.');
    if (dot && dot != name)
        *dot = '\0';
    int rc = cb_problem_set_name(p, name);
    free(name);
    if (rc == CB_OK)
        rc = cb_problem_set_provenance(p, c->path, NULL, NULL, 0);
    return rc == CB_OK ? CB_OK : fc_nomem(c, "provenance");
}

int cb_read_fclib(const char *path, const cb_read_settings *s, cb_problem **out, cb_error *err)
{
    fc_ctx c = {path, err};
    H5E_auto2_t old_fn = NULL;
    void *old_data = NULL;
    int rc;
    *out = NULL;
    if (!path)
        return cb_fail(err, CB_ERR_INPUT, "path: NULL");
    FILE *f = fopen(path, "rb");
    if (!f)
        return cb_fail(err, CB_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    fclose(f);
    H5Eget_auto2(H5E_DEFAULT, &old_fn, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) {
        rc = fc_fail(&c, "not a readable HDF5 file (truncated or corrupt?)");
    } else {
        rc = read_open_file(&c, file, s, out);
        H5Fclose(file);
    }
    H5Eset_auto2(H5E_DEFAULT, old_fn, old_data);
    if (rc == CB_OK)
        rc = set_origin(&c, *out);
    if (rc != CB_OK) {
        cb_problem_free(*out);
        *out = NULL;
    }
    return rc;
}
