/* conebench — FCLIB HDF5 writers (conebench/io.h). fclib_local (Coulomb, dense W), fclib_global
 * and the solution go through Debian's libfclib 3.1 (fclib_write_local, fclib_write_global,
 * fclib_write_solution); three groups are written with the HDF5 C API:
 *  - fclib_local with a BSR W, in fclib_write_local's layout (below), because W's triplets are
 *    written FW_CHUNK entries at a time from its blocks (libfclib needs all of them in memory:
 *    16 bytes an entry beside W's 8, so a conversion held 3× the bytes of W);
 *  - fclib_global_rolling (libfclib 3.1 can neither write nor read it), in the layout Siconos
 *    writes (rolling/Chute-ndof-768-nc-4-3.hdf5): spacedim, matrix groups M and H (nzmax, m, n,
 *    nz, p, i, x), vectors/{f, w, mu, mu_r}, info/{title, description, math_info};
 *  - conebench's local rolling extension (rolling3d, rollspin3d): an fclib_local group laid out
 *    as fclib_write_local lays one out (spacedim = d = 5 or 6, W, vectors/{q, mu}, info), which
 *    libfclib's fclib_read_local reads as it is, plus what FCLIB has no field for:
 *    vectors/mu_r, vectors/mu_s (rollspin3d) and the string /fclib_local/conebench_kind; its
 *    info/math_info says so. A local rolling2d problem is refused: its spacedim 3 would read as
 *    a Coulomb 3D problem in any FCLIB reader that does not know the extension.
 *
 * Matrices are laid out so that io_fclib.c reads back the same bits:
 *  - the global form's M and H as their own triplets, in order (nz = nnz, i = rows, p = columns);
 *  - a dense W as compressed columns holding all n² entries (nz = −1), read back as dense;
 *  - a BSR W (factored W: its assembled BSR) as the triplets of every entry of its stored
 *    blocks, block row by block row, each block column-major, streamed from the blocks.
 * What FCLIB cannot hold is refused (CB_ERR_INPUT, nothing written): local rolling2d (above),
 * global problems with spinning friction (rollspin3d), solutions of global problems (FCLIB stores
 * the velocities v with them, conebench's solvers give p and y).
 *
 * libfclib calls exit(1) on a failed HDF5 call, so the file is written in a child process
 * (src/core/child.h) to a temporary file next to the target, renamed over it only when the
 * child reports success and removed otherwise: no partial file. */
#include "io_internal.h"

#include <fclib.h>
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "base.h"
#include "fileio.h"
#include "fclib_check.h"

/* Entries of a BSR W written to the file at a time (16 bytes each in the buffers). */
#define FW_CHUNK 65536

typedef enum { FW_LOCAL = 0, FW_GLOBAL = 1, FW_ROLLING = 2, FW_LOCAL_EXT = 3 } fw_group;

/* What the child writes: one problem group (matrices A = W or M, B = H) and an optional solution.
 * Arrays are borrowed from the problem except those in own_* (allocated here). */
typedef struct {
    fw_group group;
    int spacedim;
    struct fclib_matrix A, B;
    double *v1, *w, *mu, *mu_r, *mu_s; /* v1: q (local) or f (global) */
    char *title;
    const char *kind;           /* conebench_kind of the local extension, else NULL */
    const char *math_info;      /* info/math_info, or NULL */
    double *sol_r, *sol_u;      /* solution (r = p, u = y) or NULL */
    int *own_p, *own_i;
    double *own_x;
    cb_problem *own_bsr;        /* assembled copy of a factored W */
    const cb_bsr *bsr;          /* A's entries come from these blocks (A.p, A.i, A.x NULL) */
    int bsr_d;                  /* their size */
    const char *tmp;            /* the temporary file (cb_outfile's) */
} fw_job;

static const char fw_ok[2] = {'o', 'k'};
static const char fw_err[4] = {'e', 'r', 'r', ':'};

static const char fw_description[] = "written by conebench " CB_VERSION;

/* info/math_info of the groups written with HDF5 (one line each, ASCII). */
static const char fw_math_rolling3d[] =
    "conebench local rolling extension (FCLIB 3.1 has no local rolling problem): kind rolling3d "
    "(/fclib_local/conebench_kind), spacedim 5; y = W r + q, per contact r = (r_N, r_T1, r_T2, "
    "m_R1, m_R2) with |(r_T1, r_T2)| <= mu r_N (vectors/mu) and |(m_R1, m_R2)| <= mu_r r_N "
    "(vectors/mu_r); y = (u_N, u_T1, u_T2, w_R1, w_R2)";
static const char fw_math_rollspin3d[] =
    "conebench local rolling extension (FCLIB 3.1 has no local rolling problem): kind rollspin3d "
    "(/fclib_local/conebench_kind), spacedim 6; y = W r + q, per contact r = (r_N, r_T1, r_T2, "
    "m_R1, m_R2, m_S) with |(r_T1, r_T2)| <= mu r_N (vectors/mu), |(m_R1, m_R2)| <= mu_r r_N "
    "(vectors/mu_r) and |m_S| <= mu_s r_N (vectors/mu_s); y = (u_N, u_T1, u_T2, w_R1, w_R2, w_S)";
static const char fw_math_global_rolling[] =
    "global rolling friction problem (Siconos fclib_global_rolling): M v = H r + f, u = H^T v + w; "
    "per contact r = (r_N, r_T, m_R) with |r_T| <= mu r_N and |m_R| <= mu_r r_N (spacedim 3: "
    "one tangent, one rolling component; spacedim 5: two of each)";

/* ".hdf5" / ".h5" (any case) → FCLIB, anything else → Siconos text. */
cb_format cb_format_of_path(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    int h5 = dot && (!strcasecmp(dot, ".hdf5") || !strcasecmp(dot, ".h5"));
    return h5 ? CB_FORMAT_FCLIB : CB_FORMAT_SICONOS;
}

/* Release what j owns. */
static void fw_job_free(fw_job *j)
{
    free(j->own_p);
    free(j->own_i);
    free(j->own_x);
    cb_problem_free(j->own_bsr);
    memset(j, 0, sizeof *j);
}

/* A triplet matrix view of t (rows in i, columns in p, as io_fclib.c reads them). */
static void triplet_view(const cb_triplets *t, struct fclib_matrix *A)
{
    memset(A, 0, sizeof *A);
    A->nzmax = A->nz = t->nnz;
    A->m = t->nrow;
    A->n = t->ncol;
    A->i = t->i;
    A->p = t->j;
    A->x = t->x;
}

/* Dense n×n column-major W as compressed columns with every entry: p[j] = j·n, i = 0..n−1. */
static int dense_view(const char *path, const cb_problem *P, fw_job *j, cb_error *err)
{
    long long n = (long long)cb_problem_n(P);
    if (n * n > INT_MAX)
        return cb_fail(err, CB_ERR_INPUT, "%s: dense W of %lld x %lld entries exceeds FCLIB's int "
                       "sizes", path, n, n);
    j->own_p = cb_malloc_array((size_t)n + 1, sizeof(int));
    j->own_i = cb_malloc_array((size_t)(n * n), sizeof(int));
    if (!j->own_p || !j->own_i)
        return cb_fail(err, CB_ERR_NOMEM, "%s: W: out of memory", path);
    for (long long c = 0; c <= n; c++)
        j->own_p[c] = (int)(c * n);
    for (long long k = 0; k < n * n; k++)
        j->own_i[k] = (int)(k % n);
    j->A = (struct fclib_matrix){(int)(n * n), (int)n, (int)n, j->own_p, j->own_i, P->W, -1, NULL};
    return CB_OK;
}

/* BSR W as the triplets of every entry of its stored blocks (row a·d + r, column col·d + c),
 * made in the child as they are written (put_bsr_entries): only the sizes here. */
static int bsr_view(const char *path, const cb_problem *P, fw_job *j, cb_error *err)
{
    long long nnz = (long long)P->bsr.nnzb * P->d * P->d;
    if (nnz > INT_MAX)
        return cb_fail(err, CB_ERR_INPUT, "%s: W has %lld stored entries, more than FCLIB's int "
                       "sizes hold", path, nnz);
    int n = (int)cb_problem_n(P);
    j->A = (struct fclib_matrix){(int)nnz, n, n, NULL, NULL, NULL, (int)nnz, NULL};
    j->bsr = &P->bsr;
    j->bsr_d = P->d;
    return CB_OK;
}

/* FCLIB can hold a local problem of this kind (rolling2d cannot: see the file comment). */
int cb_fclib_local_kind_check(const char *path, cb_kind kind, cb_error *err)
{
    if (kind != CB_KIND_ROLLING2D)
        return CB_OK;
    return cb_fail(err, CB_ERR_INPUT, "%s: a local rolling2d problem cannot be written to FCLIB "
                   "(its spacedim 3 would read as a Coulomb 3D problem in FCLIB readers that do "
                   "not know conebench's extension): write Siconos text (.dat)", path);
}

/* A local problem: W in the layout of its storage, q, μ (+ the extension for rolling kinds). */
static int local_job(const char *path, const cb_problem *P, fw_job *j, cb_error *err)
{
    int rc = cb_fclib_local_kind_check(path, P->kind, err);
    if (rc != CB_OK)
        return rc;
    int coulomb = P->kind == CB_KIND_COULOMB2D || P->kind == CB_KIND_COULOMB3D;
    j->group = coulomb ? FW_LOCAL : FW_LOCAL_EXT;
    j->spacedim = P->d;
    j->v1 = P->q;
    j->mu = P->mu;
    if (!coulomb) {
        j->kind = cb_kind_name(P->kind);
        j->mu_r = P->mu_r;
        j->mu_s = P->kind == CB_KIND_ROLLSPIN3D ? P->mu_s : NULL;
        j->math_info = P->kind == CB_KIND_ROLLSPIN3D ? fw_math_rollspin3d : fw_math_rolling3d;
    }
    if (P->storage == CB_STORAGE_DENSE)
        return dense_view(path, P, j, err);
    if (P->storage == CB_STORAGE_FACTORED) {
        rc = cb_problem_to_bsr(P, &j->own_bsr, err);
        if (rc != CB_OK)
            return rc;
        P = j->own_bsr;
    }
    return bsr_view(path, P, j, err);
}

/* A problem with a global form: fclib_global (Coulomb) or fclib_global_rolling (μ_r). */
static int global_job(const char *path, const cb_problem *P, fw_job *j, cb_error *err)
{
    int coulomb = P->kind == CB_KIND_COULOMB2D || P->kind == CB_KIND_COULOMB3D;
    if (!coulomb && P->kind != CB_KIND_ROLLING2D && P->kind != CB_KIND_ROLLING3D)
        return cb_fail(err, CB_ERR_INPUT, "%s: a global %s problem cannot be written to FCLIB "
                       "(fclib_global_rolling holds mu and mu_r, no spinning friction): write "
                       "Siconos text (.dat)", path, cb_kind_name(P->kind));
    j->group = coulomb ? FW_GLOBAL : FW_ROLLING;
    j->spacedim = P->d;
    triplet_view(&P->global->M, &j->A);
    triplet_view(&P->global->H, &j->B);
    j->v1 = P->global->f;
    j->w = P->global->w;
    j->mu = P->mu;
    j->mu_r = coulomb ? NULL : P->mu_r;
    j->math_info = coulomb ? NULL : fw_math_global_rolling;
    return CB_OK;
}

/* ---------------------------------------------------------------- in the child */

/* Dataset loc/name: n values of the native type `type` from data; 1 on success. */
static int put(hid_t loc, const char *name, hid_t type, hsize_t n, const void *data)
{
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t ds = sp < 0 ? H5I_INVALID_HID
                      : H5Dcreate2(loc, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int ok = ds >= 0 && (n == 0 || H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
    if (ds >= 0)
        ok = H5Dclose(ds) >= 0 && ok;
    if (sp >= 0)
        H5Sclose(sp);
    return ok;
}

/* Scalar fixed-length NUL-terminated ASCII string loc/name, as H5LTmake_dataset_string makes. */
static int put_string(hid_t loc, const char *name, const char *text)
{
    hid_t ty = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR), ds = H5I_INVALID_HID;
    int ok = ty >= 0 && sp >= 0 && H5Tset_size(ty, strlen(text) + 1) >= 0 &&
             H5Tset_strpad(ty, H5T_STR_NULLTERM) >= 0;
    if (ok)
        ds = H5Dcreate2(loc, name, ty, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ok = ds >= 0 && H5Dwrite(ds, ty, H5S_ALL, H5S_ALL, H5P_DEFAULT, text) >= 0;
    if (ds >= 0)
        ok = H5Dclose(ds) >= 0 && ok;
    if (sp >= 0)
        H5Sclose(sp);
    if (ty >= 0)
        H5Tclose(ty);
    return ok;
}

/* Triplets of a BSR W on their way to the datasets p (columns), i (rows), x: FW_CHUNK at a time. */
typedef struct {
    hid_t ds[3];
    int *col, *row;
    double *val;
    hsize_t off, cnt;
} fw_stream;

/* The cnt buffered triplets into entries off .. off + cnt − 1 of the three datasets. */
static int flush_chunk(fw_stream *st)
{
    const hid_t type[3] = {H5T_NATIVE_INT, H5T_NATIVE_INT, H5T_NATIVE_DOUBLE};
    const void *buf[3] = {st->col, st->row, st->val};
    hid_t mem = H5Screate_simple(1, &st->cnt, NULL);
    int ok = mem >= 0;
    for (int k = 0; k < 3 && ok; k++) {
        hid_t fs = H5Dget_space(st->ds[k]);
        ok = fs >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, &st->off, NULL, &st->cnt, NULL) >= 0 &&
             H5Dwrite(st->ds[k], type[k], mem, fs, H5P_DEFAULT, buf[k]) >= 0;
        if (fs >= 0)
            H5Sclose(fs);
    }
    if (mem >= 0)
        H5Sclose(mem);
    st->off += st->cnt;
    st->cnt = 0;
    return ok;
}

/* Every entry of B's blocks, block row by block row, each block column-major (e = r + c·d):
 * row a·d + r, column col·d + c. */
static int stream_blocks(fw_stream *st, const cb_bsr *B, int nc, int d)
{
    long long dd = (long long)d * d;
    int ok = 1;
    for (int a = 0; a < nc && ok; a++)
        for (int b = B->row_ptr[a]; b < B->row_ptr[a + 1] && ok; b++)
            for (long long e = 0; e < dd && ok; e++) {
                st->row[st->cnt] = (int)(a * d + e % d);
                st->col[st->cnt] = (int)(B->col[b] * d + e / d);
                st->val[st->cnt] = B->val[(size_t)b * (size_t)dd + (size_t)e];
                if (++st->cnt == FW_CHUNK)
                    ok = flush_chunk(st);
            }
    return ok && (st->cnt == 0 || flush_chunk(st));
}

/* Datasets p, i, x of nnz entries each, filled from the blocks of j->bsr. */
static int put_bsr_entries(hid_t g, const fw_job *j, hsize_t nnz)
{
    static const char *const name[3] = {"p", "i", "x"};
    fw_stream st = {{H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID}, NULL, NULL, NULL, 0, 0};
    hid_t sp = H5Screate_simple(1, &nnz, NULL);
    int ok = sp >= 0;
    for (int k = 0; k < 3 && ok; k++) {
        st.ds[k] = H5Dcreate2(g, name[k], k < 2 ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, sp,
                              H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        ok = st.ds[k] >= 0;
    }
    st.col = malloc(FW_CHUNK * sizeof *st.col);
    st.row = malloc(FW_CHUNK * sizeof *st.row);
    st.val = malloc(FW_CHUNK * sizeof *st.val);
    ok = ok && st.col && st.row && st.val && stream_blocks(&st, j->bsr, j->A.m / j->bsr_d, j->bsr_d);
    for (int k = 0; k < 3; k++)
        if (st.ds[k] >= 0)
            ok = H5Dclose(st.ds[k]) >= 0 && ok;
    if (sp >= 0)
        H5Sclose(sp);
    free(st.col);
    free(st.row);
    free(st.val);
    return ok;
}

/* Matrix group loc/name (triplets or compressed columns), as libfclib's writer lays one out;
 * the triplets of j's BSR W when A is j's W and j has one. */
static int put_matrix(hid_t loc, const char *name, const struct fclib_matrix *A, const fw_job *j)
{
    hsize_t np = (hsize_t)(A->nz >= 0 ? A->nz : A->n + 1);
    hsize_t ni = (hsize_t)(A->nz >= 0 ? A->nz : A->nzmax);
    int streamed = j && j->bsr && A == &j->A;
    hid_t g = H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        return 0;
    int ok = put(g, "nzmax", H5T_NATIVE_INT, 1, &A->nzmax) && put(g, "m", H5T_NATIVE_INT, 1, &A->m) &&
             put(g, "n", H5T_NATIVE_INT, 1, &A->n) && put(g, "nz", H5T_NATIVE_INT, 1, &A->nz);
    if (ok && streamed)
        ok = put_bsr_entries(g, j, ni);
    else if (ok)
        ok = put(g, "p", H5T_NATIVE_INT, np, A->p) && put(g, "i", H5T_NATIVE_INT, ni, A->i) &&
             put(g, "x", H5T_NATIVE_DOUBLE, (hsize_t)A->nzmax, A->x);
    return H5Gclose(g) >= 0 && ok;
}

/* A vector of a "vectors" group; skipped when x is NULL. */
typedef struct {
    const char *name;
    hsize_t n;
    const double *x;
} fw_vec;

/* Group loc/vectors holding the nv vectors of v. */
static int put_vectors(hid_t loc, const fw_vec *v, int nv)
{
    hid_t g = H5Gcreate2(loc, "vectors", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        return 0;
    int ok = 1;
    for (int k = 0; k < nv && ok; k++)
        ok = !v[k].x || put(g, v[k].name, H5T_NATIVE_DOUBLE, v[k].n, v[k].x);
    return H5Gclose(g) >= 0 && ok;
}

/* Group loc/info: title (when named), description, math_info, as libfclib writes fclib_info. */
static int put_info(hid_t loc, const fw_job *j)
{
    hid_t g = H5Gcreate2(loc, "info", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        return 0;
    int ok = (!j->title || put_string(g, "title", j->title)) &&
             put_string(g, "description", fw_description) &&
             (!j->math_info || put_string(g, "math_info", j->math_info));
    return H5Gclose(g) >= 0 && ok;
}

/* /fclib_global_rolling: spacedim, M, H, vectors f (ndof), w (nc·d), mu and mu_r (nc), info. */
static int put_rolling(hid_t g, const fw_job *j)
{
    hsize_t m = (hsize_t)j->B.n, nc = m / (hsize_t)j->spacedim;
    const fw_vec v[4] = {{"f", (hsize_t)j->A.m, j->v1}, {"w", m, j->w}, {"mu", nc, j->mu},
                         {"mu_r", nc, j->mu_r}};
    return put(g, "spacedim", H5T_NATIVE_INT, 1, &j->spacedim) && put_matrix(g, "M", &j->A, NULL) &&
           put_matrix(g, "H", &j->B, NULL) && put_vectors(g, v, 4) && put_info(g, j);
}

/* /fclib_local as fclib_write_local lays it out: spacedim = d, W, vectors q (n) and mu (nc),
 * info; with conebench's extension (j->kind set) also vectors mu_r[, mu_s] and conebench_kind. */
static int put_local(hid_t g, const fw_job *j)
{
    hsize_t n = (hsize_t)j->A.m, nc = n / (hsize_t)j->spacedim;
    const fw_vec v[4] = {{"q", n, j->v1}, {"mu", nc, j->mu}, {"mu_r", nc, j->mu_r},
                         {"mu_s", nc, j->mu_s}};
    return put(g, "spacedim", H5T_NATIVE_INT, 1, &j->spacedim) && put_matrix(g, "W", &j->A, j) &&
           put_vectors(g, v, 4) && (!j->kind || put_string(g, CB_FCLIB_KIND_DATASET, j->kind)) &&
           put_info(g, j);
}

/* A new file holding the group `name`, filled by body. */
static int put_group_file(const fw_job *j, const char *name, int (*body)(hid_t, const fw_job *))
{
    hid_t file = H5Fcreate(j->tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0)
        return 0;
    hid_t g = H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int ok = g >= 0 && body(g, j);
    if (g >= 0)
        ok = H5Gclose(g) >= 0 && ok;
    return H5Fclose(file) >= 0 && ok;
}

/* The problem group through libfclib (or HDF5: see the file comment), then the solution. */
static int write_job(fw_job *j)
{
    struct fclib_info info = {j->title, (char *)fw_description, NULL};
    int ok;
    if (j->group == FW_LOCAL && !j->bsr) {
        struct fclib_local L = {&j->A, NULL, NULL, j->mu, j->v1, NULL, j->spacedim, &info};
        ok = fclib_write_local(&L, j->tmp);
    } else if (j->group == FW_GLOBAL) {
        struct fclib_global G = {&j->A, &j->B, NULL, j->mu, j->v1, NULL, j->w, j->spacedim, &info};
        ok = fclib_write_global(&G, j->tmp);
    } else if (j->group == FW_ROLLING) {
        ok = put_group_file(j, CB_FCLIB_GROUP_ROLLING, put_rolling);
    } else {
        ok = put_group_file(j, CB_FCLIB_GROUP_LOCAL, put_local);
    }
    if (ok && j->sol_r) {
        struct fclib_solution s = {NULL, j->sol_u, j->sol_r, NULL};
        ok = fclib_write_solution(&s, j->tmp);
    }
    return ok;
}

/* The system's reason in an HDF5 error ("… error message = 'REASON', …" of the file driver):
 * the first found, into the 200-byte buffer data. */
static herr_t find_reason(unsigned n, const H5E_error2_t *e, void *data)
{
    static const char key[] = "error message = '";
    char *reason = data;
    const char *m = e->desc ? strstr(e->desc, key) : NULL;
    (void)n;
    if (!reason[0] && m) {
        m += sizeof key - 1;
        snprintf(reason, 200, "%.*s", (int)strcspn(m, "'\n"), m);
    }
    return 0;
}

/* HDF5's error handler in the child, called as a call fails: the first system reason (a full
 * disk, say) goes to the parent at once, "err:REASON" (libfclib exits right after a failure). */
static herr_t send_reason(hid_t stack, void *data)
{
    int *fd = data;
    char reason[200] = "";
    if (*fd < 0 || H5Ewalk2(stack, H5E_WALK_UPWARD, find_reason, reason) < 0 || !reason[0])
        return 0;
    if (cb_write_all(*fd, fw_err, sizeof fw_err) == 0)
        cb_write_all(*fd, reason, strlen(reason));
    *fd = -1; /* once */
    return 0;
}

/* The child: write, then answer "ok" (libfclib exits with status 1 on its own failures, after
 * a line on stderr that is not conebench's: the child's stderr goes to /dev/null; the reason
 * reaches the parent through send_reason). */
static int write_in_child(void *arg, int fd)
{
    static int err_fd;
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDERR_FILENO);
        close(null);
    }
    err_fd = fd;
    H5Eset_auto2(H5E_DEFAULT, send_reason, &err_fd);
    int ok = write_job(arg);
    return ok && err_fd >= 0 && cb_write_all(fd, fw_ok, sizeof fw_ok) == 0 ? 0 : 1;
}

/* The reason the child sent, printable, or NULL. */
static const char *child_reason(const cb_child_result *r)
{
    if (r->len <= sizeof fw_err || memcmp(r->data, fw_err, sizeof fw_err) != 0)
        return NULL;
    for (size_t k = sizeof fw_err; k < r->len; k++)
        if (r->data[k] < 0x20 || r->data[k] > 0x7e)
            r->data[k] = '?';
    return r->data + sizeof fw_err;
}

/* ---------------------------------------------------------------- in the parent */

/* Run the child on a temporary file (cb_outfile) that goes to path when the child succeeded. */
static int run_job(const char *path, fw_job *j, cb_error *err)
{
    cb_outfile out;
    cb_child_result r;
    int rc = cb_outfile_begin(&out, path, err);
    if (rc != CB_OK)
        return rc;
    j->tmp = out.tmp;
    rc = cb_child_run(write_in_child, j, 0, &r, err);
    int ok = rc == CB_OK && r.end == CB_CHILD_EXITED && r.code == 0 && r.len == sizeof fw_ok &&
             memcmp(r.data, fw_ok, sizeof fw_ok) == 0;
    int killed = rc == CB_OK && cb_child_killed_from_outside(&r);
    const char *why = rc == CB_OK && !ok ? child_reason(&r) : NULL;
    if (rc == CB_OK && killed)
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "the process writing it was killed (out of "
                        "memory, or stopped by a user): nothing written");
    else if (rc == CB_OK && why)
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "write failed: %s (nothing written)", why);
    else if (rc == CB_OK && !ok)
        rc = cb_fail_at(err, CB_ERR_IO, path, 0,
                        "the HDF5 library (libfclib) failed to write the file");
    cb_child_result_free(&r);
    j->tmp = NULL;
    if (rc == CB_OK)
        return cb_outfile_commit(&out, err);
    cb_outfile_discard(&out);
    return rc;
}

/* Check prob, fill j (global group when it has a global form, else local). */
static int prepare_job(const char *path, const cb_problem *prob, fw_job *j, cb_error *err)
{
    memset(j, 0, sizeof *j);
    if (!path || !prob)
        return cb_fail(err, CB_ERR_INPUT, "%s: NULL", path ? "problem" : "path");
    int rc = cb_problem_check(prob, err);
    if (rc != CB_OK)
        return rc;
    if (prob->nc == 0) /* FCLIB readers (libfclib's and ours) take nc ≥ 1 */
        return cb_fail_at(err, CB_ERR_INPUT, path, 0, "FCLIB holds no problem without contacts "
                          "(nc = 0): write Siconos text");
    j->title = prob->name;
    return prob->global ? global_job(path, prob, j, err) : local_job(path, prob, j, err);
}

/* prob → the FCLIB group that holds it, written atomically (see the file comment). */
int cb_write_fclib(const char *path, const cb_problem *prob, cb_error *err)
{
    fw_job j;
    int rc = prepare_job(path, prob, &j, err);
    if (rc == CB_OK)
        rc = run_job(path, &j, err);
    fw_job_free(&j);
    return rc;
}

/* FCLIB stores solutions of local problems only here (see the header). */
static int solution_allowed(const char *path, const fw_job *j, cb_error *err)
{
    if (j->group == FW_LOCAL || j->group == FW_LOCAL_EXT)
        return CB_OK;
    return cb_fail(err, CB_ERR_INPUT, "%s: an FCLIB solution of a global problem holds the "
                   "velocities v, which conebench does not compute: write a text solution", path);
}

/* The refusals of the two writers above, nothing written. */
int cb_fclib_check(const char *path, const cb_problem *prob, int with_solution, cb_error *err)
{
    fw_job j;
    int rc = prepare_job(path, prob, &j, err);
    if (rc == CB_OK && with_solution)
        rc = solution_allowed(path, &j, err);
    fw_job_free(&j);
    return rc;
}

/* prob → its FCLIB group, then /solution: r = p, u = y (n = nc·d each). */
int cb_write_fclib_solution(const char *path, const cb_problem *prob, const double *p,
                            const double *y, cb_error *err)
{
    fw_job j;
    int rc = prepare_job(path, prob, &j, err);
    size_t n = rc == CB_OK ? cb_problem_n(prob) : 0;
    if (rc == CB_OK)
        rc = solution_allowed(path, &j, err);
    if (rc == CB_OK && (!p || !y))
        rc = cb_fail(err, CB_ERR_INPUT, "%s: solution: p and y are required", path);
    for (size_t k = 0; rc == CB_OK && k < n; k++)
        if (!isfinite(p[k]) || !isfinite(y[k]))
            rc = cb_fail(err, CB_ERR_INPUT, "%s: solution: entry %zu of %s is not finite", path,
                         k, isfinite(p[k]) ? "y" : "p");
    j.sol_r = (double *)p;
    j.sol_u = (double *)y;
    if (rc == CB_OK)
        rc = run_job(path, &j, err);
    fw_job_free(&j);
    return rc;
}
