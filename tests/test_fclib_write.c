/* conebench tests — FCLIB out (src/io/io_fclib_write.c: cb_write_fclib, cb_write_fclib_solution;
 * the global Siconos text writer of io_siconos.c).
 *
 * Round trips: every problem file of the data folder (recursively, .dat and .hdf5) read, written
 * to FCLIB, read back, written to Siconos text, read back: the three problems have the same
 * bits (kind, nc, d, storage, W, q, μ, μ_r, μ_s, the global form). Files written by conebench are
 * read by libfclib's own readers (fclib_read_local / _global / _solution) and their sizes and
 * values checked against the problem: local Coulomb, local rolling3d / rollspin3d (conebench's
 * extension, read by libfclib as a local problem of spacedim 5 / 6; the extension datasets are
 * read here with HDF5) and global Coulomb; a W of several write chunks has the layout and
 * values of libfclib's own writer. The global rolling group has the groups, datasets and
 * types of Siconos's own file (rolling/Chute-ndof-768-nc-4-3.hdf5). A spacedim-5 local group
 * without the extension, or with a wrong one, is an input error. What FCLIB cannot hold is
 * refused, nothing written. */
#include "test_support.h"

#include "conebench/generate.h"
#include "conebench/io.h"

#include <dirent.h>
#include <fclib.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char g_tmp[256];

/* A path in the test's temporary folder: g_tmp/name (one of 4 rotating buffers). */
static const char *tmp_path(const char *name)
{
    static char buf[4][512];
    static unsigned calls;
    char *b = buf[calls++ % 4];
    snprintf(b, 512, "%s/%s", g_tmp, name);
    return b;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Number of entries of g_tmp other than . and .. (no temporary file may be left behind). */
static int tmp_entries(void)
{
    DIR *d = opendir(g_tmp);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void same_bytes(const void *a, const void *b, size_t bytes, const char *what)
{
    if ((a == NULL) != (b == NULL) || (bytes && memcmp(a, b, bytes) != 0))
        fail_msg("%s differs", what);
}

static void same_triplets(const cb_triplets *a, const cb_triplets *b, const char *what)
{
    assert_int_equal(a->nrow, b->nrow);
    assert_int_equal(a->ncol, b->ncol);
    assert_int_equal(a->nnz, b->nnz);
    same_bytes(a->i, b->i, (size_t)a->nnz * sizeof(int), what);
    same_bytes(a->j, b->j, (size_t)a->nnz * sizeof(int), what);
    same_bytes(a->x, b->x, (size_t)a->nnz * sizeof(double), what);
}

/* a and b are the same problem, bit for bit. */
static void same_problem(const cb_problem *a, const cb_problem *b)
{
    size_t n = cb_problem_n(a), nc = (size_t)a->nc, dd = (size_t)a->d * (size_t)a->d;
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->nc, b->nc);
    assert_int_equal(a->d, b->d);
    assert_int_equal(a->storage, b->storage);
    if (a->storage == CB_STORAGE_DENSE) {
        same_bytes(a->W, b->W, n * n * sizeof(double), "W");
    } else {
        assert_int_equal(a->bsr.nnzb, b->bsr.nnzb);
        same_bytes(a->bsr.row_ptr, b->bsr.row_ptr, (nc + 1) * sizeof(int), "W row_ptr");
        same_bytes(a->bsr.col, b->bsr.col, (size_t)a->bsr.nnzb * sizeof(int), "W col");
        same_bytes(a->bsr.val, b->bsr.val, (size_t)a->bsr.nnzb * dd * sizeof(double), "W val");
    }
    same_bytes(a->q, b->q, n * sizeof(double), "q");
    same_bytes(a->mu, b->mu, nc * sizeof(double), "mu");
    same_bytes(a->mu_r, b->mu_r, nc * sizeof(double), "mu_r");
    same_bytes(a->mu_s, b->mu_s, nc * sizeof(double), "mu_s");
    assert_int_equal(a->global != NULL, b->global != NULL);
    if (!a->global)
        return;
    assert_int_equal(a->global->ndof, b->global->ndof);
    same_triplets(&a->global->M, &b->global->M, "M");
    same_triplets(&a->global->H, &b->global->H, "H");
    same_bytes(a->global->f, b->global->f, (size_t)a->global->ndof * sizeof(double), "f");
    same_bytes(a->global->w, b->global->w, n * sizeof(double), "w");
}

static cb_problem *read_ok(const char *path)
{
    cb_problem *p = NULL;
    cb_error e = {{0}};
    int rc = cb_read_problem(path, NULL, &p, &e);
    if (rc != CB_OK)
        fail_msg("%s", e.text);
    return p;
}

static void write_ok(int rc, const cb_error *e)
{
    if (rc != CB_OK)
        fail_msg("%s", e->text);
}

/* ------------------------------------------------------------------ the data folder */

typedef struct {
    char **path;
    int n, cap;
} path_list;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .dat and .hdf5 file under dir (recursively) into l. */
static void collect(const char *dir, path_list *l)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        char full[4096];
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        assert_int_equal(stat(full, &st), 0);
        size_t len = strlen(full);
        if (S_ISDIR(st.st_mode)) {
            collect(full, l);
        } else if ((len > 4 && !strcmp(full + len - 4, ".dat")) ||
                   (len > 5 && !strcmp(full + len - 5, ".hdf5"))) {
            if (l->n == l->cap) {
                l->cap = l->cap ? 2 * l->cap : 32;
                l->path = realloc(l->path, (size_t)l->cap * sizeof *l->path);
                assert_non_null(l->path);
            }
            l->path[l->n++] = strdup(full);
        }
    }
    closedir(d);
}

/* A local rolling2d problem is refused, exactly so, and nothing is written. */
static void check_refused(const cb_problem *p, const char *h5)
{
    char want[1024];
    cb_error e = {{0}};
    snprintf(want, sizeof want, "%s: a local rolling2d problem cannot be written to FCLIB (its "
             "spacedim 3 would read as a Coulomb 3D problem in FCLIB readers that do not know "
             "conebench's extension): write Siconos text (.dat)", h5);
    assert_int_equal(cb_write_fclib(h5, p, &e), CB_ERR_INPUT);
    assert_string_equal(e.text, want);
    assert_false(exists(h5));
}

/* P0 → FCLIB → P1 → Siconos text → P2: P0 = P1 = P2. 1 if done, 0 if refused (local rolling2d). */
static int round_trip(const char *file)
{
    cb_error e = {{0}};
    const char *h5 = tmp_path("rt.hdf5"), *txt = tmp_path("rt.dat");
    cb_problem *p0 = read_ok(file), *p1 = NULL, *p2 = NULL;
    int refused = !p0->global && p0->kind == CB_KIND_ROLLING2D;
    if (refused) {
        check_refused(p0, h5);
    } else {
        write_ok(cb_write_fclib(h5, p0, &e), &e);
        p1 = read_ok(h5);
        same_problem(p0, p1);
        write_ok(cb_write_problem(txt, p1, &e), &e);
        p2 = read_ok(txt);
        same_problem(p0, p2);
    }
    print_message("  %-58s %-10s nc = %3d %-5s %-6s %s\n", file + strlen(cbt_data_dir()) + 1,
                  cb_kind_name(p0->kind), p0->nc, cb_storage_name(p0->storage),
                  p0->global ? "global" : "local",
                  refused ? "refused (local rolling2d)" : "FCLIB and back: identical");
    unlink(h5);
    unlink(txt);
    cb_problem_free(p0);
    cb_problem_free(p1);
    cb_problem_free(p2);
    return !refused;
}

static void test_data_round_trip(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    path_list l = {0};
    collect(cbt_data_dir(), &l);
    qsort(l.path, (size_t)l.n, sizeof *l.path, cmp_str);
    int same = 0;
    for (int k = 0; k < l.n; k++) {
        same += round_trip(l.path[k]);
        free(l.path[k]);
    }
    free(l.path);
    if (same == l.n)
        print_message("round trip: %d problem files, %d identical through FCLIB and back\n", l.n,
                      same);
    else
        print_message("round trip: %d problem files, %d identical through FCLIB and back, %d "
                      "refused (local rolling2d)\n", l.n, same, l.n - same);
    assert_true(l.n >= 20);
    assert_true(same >= 20);
    assert_int_equal(tmp_entries(), 0);
}

/* ------------------------------------------------------------------ libfclib reads our files */

static cb_problem *random_problem(cb_kind kind, int nc, cb_storage storage, double **p, double **y)
{
    cb_random_settings s;
    cb_problem *P = NULL;
    cb_error e = {{0}};
    cb_random_settings_default(&s);
    s.kind = kind;
    s.nc = nc;
    s.seed = 5;
    s.storage = storage;
    int rc = cb_generate_random(&s, &P, p, y, &e);
    if (rc != CB_OK)
        fail_msg("%s", e.text);
    return P;
}

/* Entry (r, c) of W (dense or BSR). */
static double W_entry(const cb_problem *P, int r, int c)
{
    size_t n = cb_problem_n(P);
    if (P->storage == CB_STORAGE_DENSE)
        return P->W[(size_t)r + (size_t)c * n];
    int d = P->d, a = r / d, b = c / d;
    for (int k = P->bsr.row_ptr[a]; k < P->bsr.row_ptr[a + 1]; k++)
        if (P->bsr.col[k] == b)
            return P->bsr.val[(size_t)k * d * d + (size_t)(r % d) + (size_t)(c % d) * d];
    return 0.0;
}

/* libfclib's W (compressed columns or triplets) has P's entries, and every stored block. */
static void check_fclib_W(const struct fclib_matrix *W, const cb_problem *P)
{
    int n = (int)cb_problem_n(P);
    assert_int_equal(W->m, n);
    assert_int_equal(W->n, n);
    if (P->storage == CB_STORAGE_DENSE) {
        assert_int_equal(W->nz, -1);
        assert_int_equal(W->nzmax, n * n);
        for (int c = 0; c < n; c++)
            for (int k = W->p[c]; k < W->p[c + 1]; k++)
                assert_true(W->x[k] == W_entry(P, W->i[k], c));
        return;
    }
    assert_int_equal(W->nz, P->bsr.nnzb * P->d * P->d);
    assert_int_equal(W->nzmax, W->nz);
    for (int k = 0; k < W->nz; k++)
        assert_true(W->x[k] == W_entry(P, W->i[k], W->p[k]));
}

/* ------------------------------------------------------------------ HDF5 by hand */

/* Open dataset name of the open file f, which must hold n entries (strings: scalar, n = 1). */
static hid_t h5_open(hid_t f, const char *name, hsize_t n)
{
    hid_t ds = H5Dopen2(f, name, H5P_DEFAULT);
    if (ds < 0)
        fail_msg("%s: no such dataset", name);
    hid_t sp = H5Dget_space(ds);
    hssize_t count = H5Sget_simple_extent_npoints(sp);
    H5Sclose(sp);
    assert_int_equal(count, (hssize_t)n);
    return ds;
}

/* The n doubles of dataset name in the file path, read with the HDF5 C API. */
static void h5_doubles(const char *path, const char *name, size_t n, double *out)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t ds = h5_open(f, name, n);
    assert_true(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0);
    H5Dclose(ds);
    H5Fclose(f);
}

/* The fixed-length string dataset name of path into buf (cap bytes, NUL-terminated). */
static void h5_string(const char *path, const char *name, char *buf, size_t cap)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t ds = h5_open(f, name, 1), ty = H5Dget_type(ds);
    assert_int_equal(H5Tget_class(ty), H5T_STRING);
    assert_true(H5Tget_size(ty) < cap);
    memset(buf, 0, cap);
    assert_true(H5Dread(ds, ty, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Tclose(ty);
    H5Dclose(ds);
    H5Fclose(f);
}

/* Remove dataset name from path and, with text, put the string text there instead. */
static void h5_replace_string(const char *path, const char *name, const char *text)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    assert_true(H5Ldelete(f, name, H5P_DEFAULT) >= 0);
    if (text) {
        hid_t ty = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
        assert_true(H5Tset_size(ty, strlen(text) + 1) >= 0);
        hid_t ds = H5Dcreate2(f, name, ty, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        assert_true(ds >= 0 && H5Dwrite(ds, ty, H5S_ALL, H5S_ALL, H5P_DEFAULT, text) >= 0);
        H5Dclose(ds);
        H5Sclose(sp);
        H5Tclose(ty);
    }
    assert_true(H5Fclose(f) >= 0);
}

/* conebench's local rolling extension as stored in path, read here with HDF5: the kind string,
 * vectors/mu_r and (rollspin3d) vectors/mu_s hold P's kind and bits. */
static void check_extension(const char *path, const cb_problem *P)
{
    char kind[32];
    size_t nc = (size_t)P->nc;
    double *v = malloc(nc * sizeof(double));
    assert_non_null(v);
    h5_string(path, "/fclib_local/conebench_kind", kind, sizeof kind);
    assert_string_equal(kind, cb_kind_name(P->kind));
    h5_doubles(path, "/fclib_local/vectors/mu_r", nc, v);
    same_bytes(v, P->mu_r, nc * sizeof(double), "extension mu_r");
    if (P->kind == CB_KIND_ROLLSPIN3D) {
        h5_doubles(path, "/fclib_local/vectors/mu_s", nc, v);
        same_bytes(v, P->mu_s, nc * sizeof(double), "extension mu_s");
    }
    free(v);
}

/* A written local problem of kind/storage with its solution: libfclib's fclib_read_local and
 * fclib_read_solution read W, q, mu, r, u as they are; our reader gives back the same problem. */
static void libfclib_local(cb_kind kind, cb_storage storage)
{
    double *p = NULL, *y = NULL;
    cb_problem *P = random_problem(kind, 7, storage, &p, &y);
    const char *path = tmp_path("local.hdf5");
    cb_error e = {{0}};
    size_t n = cb_problem_n(P);
    int ext = kind != CB_KIND_COULOMB2D && kind != CB_KIND_COULOMB3D;
    write_ok(cb_write_fclib_solution(path, P, p, y, &e), &e);
    struct fclib_local *L = fclib_read_local(path);
    assert_non_null(L);
    assert_int_equal(L->spacedim, P->d);
    assert_null(L->V);
    check_fclib_W(L->W, P);
    same_bytes(L->q, P->q, n * sizeof(double), "libfclib q");
    same_bytes(L->mu, P->mu, (size_t)P->nc * sizeof(double), "libfclib mu");
    assert_non_null(L->info);
    assert_string_equal(L->info->title, P->name);
    if (ext) {
        assert_non_null(L->info->math_info);
        assert_non_null(strstr(L->info->math_info, "conebench local rolling extension"));
        check_extension(path, P);
    }
    struct fclib_solution *S = fclib_read_solution(path);
    assert_non_null(S);
    same_bytes(S->r, p, n * sizeof(double), "libfclib solution r");
    same_bytes(S->u, y, n * sizeof(double), "libfclib solution u");
    print_message("  libfclib reads %s %s: spacedim %d, W %d x %d (nz %d), q, mu, solution r, u "
                  "identical%s\n", cb_kind_name(kind), cb_storage_name(storage), L->spacedim,
                  L->W->m, L->W->n, L->W->nz,
                  !ext ? "" : kind == CB_KIND_ROLLSPIN3D ? "; extension kind, mu_r, mu_s identical"
                                                         : "; extension kind, mu_r identical");
    free(S->r);
    free(S->u);
    free(S);
    fclib_delete_local(L);
    free(L);
    cb_problem *back = read_ok(path);
    same_problem(P, back);
    cb_problem_free(back);
    cb_problem_free(P);
    free(p);
    free(y);
    unlink(path);
}

static void test_libfclib_reads_local(void **state)
{
    (void)state;
    const cb_kind kinds[4] = {CB_KIND_COULOMB3D, CB_KIND_COULOMB2D, CB_KIND_ROLLING3D,
                              CB_KIND_ROLLSPIN3D};
    for (int k = 0; k < 4; k++) {
        libfclib_local(kinds[k], CB_STORAGE_BSR);
        libfclib_local(kinds[k], CB_STORAGE_DENSE);
    }
    assert_int_equal(tmp_entries(), 0);
}

/* expect: cb_read_problem(path) fails with CB_ERR_INPUT and the message "path: what". */
static void read_fails(const char *path, const char *what)
{
    char want[1024];
    cb_problem *p = NULL;
    cb_error e = {{0}};
    snprintf(want, sizeof want, "%s: %s", path, what);
    assert_int_equal(cb_read_problem(path, NULL, &p, &e), CB_ERR_INPUT);
    assert_null(p);
    assert_string_equal(e.text, want);
}

/* A local group of spacedim 5 without the extension, or with a wrong one, is never read as a
 * problem: the error names the dataset and the reason. */
static void test_local_extension_errors(void **state)
{
    (void)state;
    cb_problem *P = random_problem(CB_KIND_ROLLING3D, 3, CB_STORAGE_BSR, NULL, NULL);
    const char *path = tmp_path("ext.hdf5"), *kind = "/fclib_local/conebench_kind";
    cb_error e = {{0}};
    write_ok(cb_write_fclib(path, P, &e), &e);
    h5_replace_string(path, kind, NULL);
    read_fails(path, "/fclib_local/spacedim: 5, must be 2 or 3 (an FCLIB Coulomb problem), or the "
               "group must name its kind in /fclib_local/conebench_kind (conebench's local "
               "rolling extension): neither");
    write_ok(cb_write_fclib(path, P, &e), &e);
    h5_replace_string(path, kind, "coulomb3d");
    read_fails(path, "/fclib_local/conebench_kind: coulomb3d has d = 3 but /fclib_local/spacedim "
               "is 5");
    h5_replace_string(path, kind, "rolling9d");
    read_fails(path, "/fclib_local/conebench_kind: 'rolling9d' is not coulomb2d, coulomb3d, "
               "rolling2d, rolling3d or rollspin3d");
    write_ok(cb_write_fclib(path, P, &e), &e);
    h5_replace_string(path, "/fclib_local/vectors/mu_r", NULL);
    read_fails(path, "/fclib_local/vectors/mu_r: missing");
    print_message("  /fclib_local of spacedim 5: without conebench_kind, with a wrong one, without "
                  "mu_r: input errors naming the dataset\n");
    unlink(path);
    cb_problem_free(P);
    assert_int_equal(tmp_entries(), 0);
}

/* A small global problem: ndof = 4 (M = diag(2, 4, 1, 5) plus a coupling), nc = 2 contacts. */
static cb_problem *small_global(cb_kind kind)
{
    static int Mi[] = {0, 1, 2, 3, 0, 1}, Mj[] = {0, 1, 2, 3, 1, 0};
    static double Mx[] = {2, 4, 1, 5, 0.5, 0.5};
    int d = cb_kind_dim(kind), n = 2 * d;
    cb_global_problem g = {kind, 4, 2, {0}, {0}, NULL, NULL, NULL, NULL, NULL};
    g.M = (cb_triplets){4, 4, 6, Mi, Mj, Mx};
    int Hi[12], Hj[12];
    double Hx[12], f[4] = {-1, 0.25, -3, 1e-3}, w[12], mu[2] = {0.3, 0.7}, mur[2] = {0.1, 0.05};
    double mus[2] = {0.01, 0.02};
    for (int k = 0; k < n; k++) {
        Hi[k] = k % 4;
        Hj[k] = k;
        Hx[k] = 1.0 + 0.125 * k;
        w[k] = 0.5 - 0.0625 * k;
    }
    g.H = (cb_triplets){4, n, n, Hi, Hj, Hx};
    g.f = f, g.w = w, g.mu = mu, g.mu_r = mur, g.mu_s = mus;
    cb_problem *P = NULL;
    cb_error e = {{0}};
    if (cb_condense_global(&g, &P, &e) != CB_OK)
        fail_msg("%s", e.text);
    assert_int_equal(cb_problem_set_name(P, "small-global"), CB_OK);
    return P;
}

static void test_libfclib_reads_global(void **state)
{
    (void)state;
    cb_problem *P = small_global(CB_KIND_COULOMB3D);
    const char *path = tmp_path("global.hdf5");
    cb_error e = {{0}};
    write_ok(cb_write_fclib(path, P, &e), &e);
    struct fclib_global *G = fclib_read_global(path);
    assert_non_null(G);
    assert_int_equal(G->spacedim, 3);
    assert_null(G->G);
    const cb_triplets *M = &P->global->M, *H = &P->global->H;
    struct fclib_matrix *FM = G->M, *FH = G->H;
    assert_int_equal(FM->m, 4);
    assert_int_equal(FM->n, 4);
    assert_int_equal(FM->nz, 6);
    assert_int_equal(FH->m, 4);
    assert_int_equal(FH->n, 6);
    assert_int_equal(FH->nz, 6);
    same_bytes(FM->i, M->i, 6 * sizeof(int), "libfclib M rows");
    same_bytes(FM->p, M->j, 6 * sizeof(int), "libfclib M columns");
    same_bytes(FM->x, M->x, 6 * sizeof(double), "libfclib M values");
    same_bytes(FH->i, H->i, 6 * sizeof(int), "libfclib H rows");
    same_bytes(FH->p, H->j, 6 * sizeof(int), "libfclib H columns");
    same_bytes(FH->x, H->x, 6 * sizeof(double), "libfclib H values");
    same_bytes(G->f, P->global->f, 4 * sizeof(double), "libfclib f");
    same_bytes(G->w, P->global->w, 6 * sizeof(double), "libfclib w");
    same_bytes(G->mu, P->mu, 2 * sizeof(double), "libfclib mu");
    assert_string_equal(G->info->title, "small-global");
    print_message("  libfclib reads the global problem: spacedim 3, M 4 x 4 (6 triplets), H 4 x 6 "
                  "(6 triplets), f, w, mu identical\n");
    fclib_delete_global(G);
    free(G);
    cb_problem *back = read_ok(path);
    same_problem(P, back);
    cb_problem_free(back);
    cb_problem_free(P);
    unlink(path);
}

/* Global rolling: fclib_global_rolling (our reader; libfclib 3.1 has none) and Siconos text. */
static void test_global_rolling(void **state)
{
    (void)state;
    const cb_kind kinds[2] = {CB_KIND_ROLLING2D, CB_KIND_ROLLING3D};
    const char *h5 = tmp_path("rolling.hdf5"), *txt = tmp_path("rolling.dat");
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    for (int k = 0; k < 2; k++) {
        cb_problem *P = small_global(kinds[k]), *a = NULL, *b = NULL;
        cb_error e = {{0}};
        write_ok(cb_write_fclib(h5, P, &e), &e);
        a = read_ok(h5);
        same_problem(P, a);
        rs.force_kind = 1; /* d = 3 in Siconos text is coulomb3d unless told rolling2d */
        rs.kind = kinds[k];
        write_ok(cb_write_problem(txt, a, &e), &e);
        assert_int_equal(cb_read_problem(txt, &rs, &b, &e), CB_OK);
        same_problem(P, b);
        cb_problem_free(P);
        cb_problem_free(a);
        cb_problem_free(b);
    }
    unlink(h5);
    unlink(txt);
    assert_int_equal(tmp_entries(), 0);
}

/* ------------------------------------------------------------------ Siconos's global rolling layout */

/* A group's objects, one line each, in name order (no sizes: they depend on the problem). */
typedef struct {
    char text[16384];
    size_t len;
    int count;
} layout;

/* "name: dataset CLASS size S order O rank R" (strings: pad and character set, not size) or
 * "name: group". */
static herr_t layout_line(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
    layout *l = data;
    char line[512];
    (void)info;
    hid_t o = H5Oopen(g, name, H5P_DEFAULT);
    assert_true(o >= 0);
    if (H5Iget_type(o) == H5I_DATASET) {
        hid_t ty = H5Dget_type(o), sp = H5Dget_space(o);
        H5T_class_t cls = H5Tget_class(ty);
        int str = cls == H5T_STRING;
        snprintf(line, sizeof line, "%s: dataset class %d size %zu order %d pad %d cset %d rank %d\n",
                 name, (int)cls, str ? 0 : H5Tget_size(ty), str ? -1 : (int)H5Tget_order(ty),
                 str ? (int)H5Tget_strpad(ty) : -1, str ? (int)H5Tget_cset(ty) : -1,
                 H5Sget_simple_extent_ndims(sp));
        H5Sclose(sp);
        H5Tclose(ty);
    } else {
        snprintf(line, sizeof line, "%s: group\n", name);
    }
    H5Oclose(o);
    size_t len = strlen(line);
    assert_true(l->len + len < sizeof l->text);
    memcpy(l->text + l->len, line, len + 1);
    l->len += len;
    l->count++;
    return 0;
}

/* The layout of group `group` of the file path (recursively). */
static void group_layout(const char *path, const char *group, layout *l)
{
    memset(l, 0, sizeof *l);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t g = H5Gopen2(f, group, H5P_DEFAULT);
    assert_true(g >= 0);
    assert_true(H5Lvisit(g, H5_INDEX_NAME, H5_ITER_INC, layout_line, l) >= 0);
    H5Gclose(g);
    H5Fclose(f);
}

/* The data folder's Siconos file read and written by conebench: our /fclib_global_rolling has
 * its groups, datasets, types and ranks (Siconos also stores /solution, with the velocities v
 * conebench does not compute). */
static void test_siconos_rolling_layout(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    static layout ours, theirs;
    const char *sic = cbt_data_path("rolling/Chute-ndof-768-nc-4-3.hdf5");
    const char *path = tmp_path("chute.hdf5");
    cb_problem *P = read_ok(sic);
    cb_error e = {{0}};
    write_ok(cb_write_fclib(path, P, &e), &e);
    group_layout(sic, "/fclib_global_rolling", &theirs);
    group_layout(path, "/fclib_global_rolling", &ours);
    assert_string_equal(ours.text, theirs.text);
    assert_true(ours.count >= 25);
    print_message("  /fclib_global_rolling written by conebench: the %d groups and datasets of "
                  "Siconos's rolling/Chute-ndof-768-nc-4-3.hdf5 (names, type classes, sizes, byte "
                  "order, ranks)\n", ours.count);
    unlink(path);
    cb_problem_free(P);
    assert_int_equal(tmp_entries(), 0);
}

/* P (local Coulomb, BSR) written by libfclib's own fclib_write_local, W as the triplets of its
 * blocks laid out by hand here (block row by block row, each block column-major): the file
 * conebench wrote through libfclib before it streamed W. */
static void libfclib_writes(const cb_problem *P, const char *path)
{
    int d = P->d, n = (int)cb_problem_n(P), nnz = P->bsr.nnzb * d * d, k = 0;
    int *row = malloc((size_t)nnz * sizeof(int)), *col = malloc((size_t)nnz * sizeof(int));
    double *x = malloc((size_t)nnz * sizeof(double));
    assert_true(row && col && x);
    for (int a = 0; a < P->nc; a++)
        for (int b = P->bsr.row_ptr[a]; b < P->bsr.row_ptr[a + 1]; b++)
            for (int c = 0; c < d; c++)
                for (int r = 0; r < d; r++, k++) {
                    row[k] = a * d + r;
                    col[k] = P->bsr.col[b] * d + c;
                    x[k] = W_entry(P, row[k], col[k]);
                }
    struct fclib_matrix W = {nnz, n, n, col, row, x, nnz, NULL};
    struct fclib_info info = {P->name, "written by libfclib", NULL};
    struct fclib_local L = {&W, NULL, NULL, P->mu, P->q, NULL, d, &info};
    assert_int_equal(fclib_write_local(&L, path), 1);
    free(row);
    free(col);
    free(x);
}

/* W's triplets go to the file 65 536 at a time (FW_CHUNK of io_fclib_write.c) straight from
 * its blocks: on a W of several such chunks and a partial one, a local Coulomb file has the
 * layout of libfclib's own (groups, datasets, types, ranks) and the same W, q, mu as libfclib
 * reads them; a rolling3d one holds every entry of W; both read back as the problem. */
static void test_streamed_W(void **state)
{
    (void)state;
    const long long chunk = 65536;
    const cb_kind kinds[2] = {CB_KIND_COULOMB3D, CB_KIND_ROLLING3D};
    for (int t = 0; t < 2; t++) {
        double *p = NULL, *y = NULL;
        cb_error e = {{0}};
        cb_problem *P = random_problem(kinds[t], 4000, CB_STORAGE_BSR, &p, &y);
        long long nnz = (long long)P->bsr.nnzb * P->d * P->d;
        assert_true(nnz > 2 * chunk && nnz % chunk != 0);
        const char *ours = tmp_path("streamed.hdf5"), *theirs = tmp_path("libfclib.hdf5");
        write_ok(cb_write_fclib(ours, P, &e), &e);
        struct fclib_local *L = fclib_read_local(ours);
        assert_non_null(L);
        check_fclib_W(L->W, P);
        if (kinds[t] == CB_KIND_COULOMB3D) {
            static layout lo, lt;
            libfclib_writes(P, theirs);
            group_layout(ours, "/fclib_local", &lo);
            group_layout(theirs, "/fclib_local", &lt);
            assert_string_equal(lo.text, lt.text);
            struct fclib_local *R = fclib_read_local(theirs);
            assert_non_null(R);
            size_t m = (size_t)nnz;
            same_bytes(L->W->i, R->W->i, m * sizeof(int), "W rows against libfclib's file");
            same_bytes(L->W->p, R->W->p, m * sizeof(int), "W columns against libfclib's file");
            same_bytes(L->W->x, R->W->x, m * sizeof(double), "W values against libfclib's file");
            same_bytes(L->q, R->q, cb_problem_n(P) * sizeof(double), "q against libfclib's file");
            same_bytes(L->mu, R->mu, (size_t)P->nc * sizeof(double), "mu against libfclib's file");
            fclib_delete_local(R);
            free(R);
            unlink(theirs);
        }
        fclib_delete_local(L);
        free(L);
        cb_problem *back = read_ok(ours);
        same_problem(P, back);
        print_message("  %s nc = %d: W's %lld entries streamed (%lld chunks and %lld), read back "
                      "identical%s\n", cb_kind_name(P->kind), P->nc, nnz, nnz / chunk, nnz % chunk,
                      t == 0 ? "; layout, W, q, mu as libfclib's own fclib_write_local" : "");
        unlink(ours);
        cb_problem_free(back);
        cb_problem_free(P);
        free(p);
        free(y);
    }
    assert_int_equal(tmp_entries(), 0);
}

/* What FCLIB cannot hold: refused with the reason, nothing written, an old file kept. */
static void test_refusals(void **state)
{
    (void)state;
    double *p = NULL, *y = NULL;
    const char *path = tmp_path("refused.hdf5");
    cb_error e = {{0}};
    cb_problem *R = random_problem(CB_KIND_ROLLING2D, 3, CB_STORAGE_BSR, &p, &y);
    check_refused(R, path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    assert_int_equal(cb_write_fclib(path, R, &e), CB_ERR_INPUT);
    char buf[16] = {0};
    f = fopen(path, "r");
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "old\n");
    unlink(path);
    cb_problem *S = small_global(CB_KIND_ROLLSPIN3D);
    assert_int_equal(cb_write_fclib(path, S, &e), CB_ERR_INPUT);
    assert_non_null(strstr(e.text, "a global rollspin3d problem cannot be written to FCLIB"));
    cb_problem *G = small_global(CB_KIND_COULOMB3D);
    double zeros[6] = {0};
    assert_int_equal(cb_write_fclib_solution(path, G, zeros, zeros, &e), CB_ERR_INPUT);
    assert_non_null(strstr(e.text, ": an FCLIB solution of a global problem holds the velocities"));
    assert_int_equal(cb_write_fclib(tmp_path("no/such/dir.hdf5"), G, &e), CB_ERR_INPUT);
    assert_non_null(strstr(e.text, "no/such/dir.hdf5:0: cannot create a temporary file: No such"));
    assert_int_equal(tmp_entries(), 0);
    cb_problem_free(R);
    cb_problem_free(S);
    cb_problem_free(G);
    free(p);
    free(y);
}

static void test_format_of_path(void **state)
{
    (void)state;
    assert_int_equal(cb_format_of_path("a.hdf5"), CB_FORMAT_FCLIB);
    assert_int_equal(cb_format_of_path("dir.x/a.H5"), CB_FORMAT_FCLIB);
    assert_int_equal(cb_format_of_path("a.hdf5.dat"), CB_FORMAT_SICONOS);
    assert_int_equal(cb_format_of_path("h5"), CB_FORMAT_SICONOS);
    assert_int_equal(cb_format_of_path(NULL), CB_FORMAT_SICONOS);
}

int main(void)
{
    snprintf(g_tmp, sizeof g_tmp, "/tmp/cb_fclib_write_XXXXXX");
    if (!mkdtemp(g_tmp))
        return 1;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* libfclib's readers try paths that may be absent */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_of_path),
        cmocka_unit_test(test_libfclib_reads_local),
        cmocka_unit_test(test_libfclib_reads_global),
        cmocka_unit_test(test_global_rolling),
        cmocka_unit_test(test_local_extension_errors),
        cmocka_unit_test(test_siconos_rolling_layout),
        cmocka_unit_test(test_streamed_W),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_data_round_trip),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(g_tmp);
    return rc;
}
