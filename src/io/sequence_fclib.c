/* conebench — a sequence step stored as an FCLIB file: its contact identities and its time in
 * datasets of conebench's own, /conebench/ids (nc × 3 integers) and /conebench/t (one double),
 * beside FCLIB's groups (HDF5 C API: FCLIB readers ignore groups they do not know). */
#include "sequence.h"

#include <hdf5.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

#define GROUP "/conebench"
#define IDS_SET GROUP "/ids"
#define TIME_SET GROUP "/t"

/* HDF5's own error printing off for one call sequence (restored by h5_quiet_end). */
typedef struct {
    H5E_auto2_t fn;
    void *data;
} h5_quiet;

static void h5_quiet_begin(h5_quiet *q)
{
    H5Eget_auto2(H5E_DEFAULT, &q->fn, &q->data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static void h5_quiet_end(const h5_quiet *q)
{
    H5Eset_auto2(H5E_DEFAULT, q->fn, q->data);
}

/* 1 when the link /conebench and then name exist in file. */
static int has_set(hid_t file, const char *name)
{
    return H5Lexists(file, GROUP, H5P_DEFAULT) > 0 && H5Lexists(file, name, H5P_DEFAULT) > 0;
}

/* The rows of /conebench/ids (an n × 3 dataset) into ids; 0 on success, −1 when malformed. */
static int read_ids_set(hid_t file, cb_contact_ids *ids)
{
    hid_t set = H5Dopen2(file, IDS_SET, H5P_DEFAULT);
    hid_t space = set >= 0 ? H5Dget_space(set) : -1;
    hsize_t dims[2] = {0, 0};
    int ok = space >= 0 && H5Sget_simple_extent_ndims(space) == 2 &&
             H5Sget_simple_extent_dims(space, dims, NULL) == 2 && dims[1] == 3 &&
             dims[0] <= (hsize_t)(INT_MAX / 8);
    long *v = ok ? cb_malloc_array((size_t)dims[0] * 3 + 1, sizeof *v) : NULL;
    ids->id = v ? cb_malloc_array((size_t)dims[0] + 1, sizeof *ids->id) : NULL;
    ok = ok && ids->id && H5Dread(set, H5T_NATIVE_LONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0;
    for (hsize_t k = 0; ok && k < dims[0]; k++) {
        ids->id[k] = (cb_contact_id){v[3 * k], v[3 * k + 1], v[3 * k + 2]};
        ok = v[3 * k] >= -1 && v[3 * k + 1] >= -1 && v[3 * k + 2] >= -1;
    }
    ids->n = ok ? (int)dims[0] : 0;
    free(v);
    if (space >= 0)
        H5Sclose(space);
    if (set >= 0)
        H5Dclose(set);
    return ok ? 0 : -1;
}

int cb_sequence_fclib_ids(const char *path, int nc, cb_contact_ids *ids, cb_error *err)
{
    h5_quiet q;
    int rc = CB_OK;
    memset(ids, 0, sizeof *ids);
    h5_quiet_begin(&q);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0)
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 0, "not a readable HDF5 file");
    else if (has_set(file, IDS_SET) && read_ids_set(file, ids) != 0)
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 0, IDS_SET ": not an nc x 3 array of integers "
                        "from -1 up");
    if (file >= 0)
        H5Fclose(file);
    h5_quiet_end(&q);
    if (rc == CB_OK && ids->id)
        rc = cb_contact_ids_check(path, nc, ids, err);
    if (rc != CB_OK)
        cb_contact_ids_free(ids);
    return rc;
}

int cb_sequence_fclib_time(const char *path, double *t, cb_error *err)
{
    h5_quiet q;
    int rc = CB_OK;
    double v = NAN;
    *t = NAN;
    h5_quiet_begin(&q);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t set = file >= 0 && has_set(file, TIME_SET) ? H5Dopen2(file, TIME_SET, H5P_DEFAULT) : -1;
    hid_t space = set >= 0 ? H5Dget_space(set) : -1;
    if (file < 0)
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 0, "not a readable HDF5 file");
    else if (set >= 0 && (space < 0 || H5Sget_simple_extent_npoints(space) != 1 ||
                          H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) < 0 ||
                          !isfinite(v)))
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 0, TIME_SET ": not one finite number");
    else
        *t = v;
    if (space >= 0)
        H5Sclose(space);
    if (set >= 0)
        H5Dclose(set);
    if (file >= 0)
        H5Fclose(file);
    h5_quiet_end(&q);
    return rc;
}

/* Write an array dataset of dims (rank 1 or 2) under file; 0 on success. */
static int write_set(hid_t file, const char *name, int rank, const hsize_t *dims, hid_t type,
                     const void *data)
{
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t set = space >= 0 ? H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT,
                                        H5P_DEFAULT) : -1;
    int ok = set >= 0 && H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0;
    if (set >= 0)
        H5Dclose(set);
    if (space >= 0)
        H5Sclose(space);
    return ok ? 0 : -1;
}

int cb_sequence_fclib_annotate(const char *path, const cb_contact_ids *ids, double t,
                               cb_error *err)
{
    h5_quiet q;
    size_t n = ids ? (size_t)ids->n : 0;
    long *v = cb_malloc_array(3 * n + 1, sizeof *v);
    if (!v)
        return cb_fail_at(err, CB_ERR_NOMEM, path, 0, "out of memory");
    for (size_t k = 0; k < n; k++)
        v[3 * k] = ids->id[k].a, v[3 * k + 1] = ids->id[k].b, v[3 * k + 2] = ids->id[k].f;
    h5_quiet_begin(&q);
    hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t group = file >= 0 && H5Lexists(file, GROUP, H5P_DEFAULT) <= 0
                      ? H5Gcreate2(file, GROUP, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    hsize_t dims[2] = {n, 3}, one = 1;
    int ok = group >= 0 && (!ids || write_set(file, IDS_SET, 2, dims, H5T_NATIVE_LONG, v) == 0) &&
             (!isfinite(t) || write_set(file, TIME_SET, 1, &one, H5T_NATIVE_DOUBLE, &t) == 0);
    if (group >= 0)
        H5Gclose(group);
    if (file >= 0 && H5Fclose(file) < 0)
        ok = 0;
    h5_quiet_end(&q);
    free(v);
    return ok ? CB_OK : cb_fail_at(err, CB_ERR_IO, path, 0, "cannot add " GROUP " to the file");
}
