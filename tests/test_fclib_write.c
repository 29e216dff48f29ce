/* conebench tests — FCLIB out (src/io/io_fclib_write.c: cb_write_fclib, cb_write_fclib_solution;
 * the global Siconos text writer of io_siconos.c).
 *
 * Round trips: every problem file of the data folder (recursively, .dat and .hdf5) read, written
 * to FCLIB, read back, written to Siconos text, read back: the three problems have the same
 * bits (kind, nc, d, storage, W, q, μ, μ_r, μ_s, the global form). Files written by conebench are
 * read by libfclib's own readers (fclib_read_local / _global / _solution) and their sizes and
 * values checked against the problem. What FCLIB cannot hold is refused, nothing written. */
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

/* A local problem with rolling friction is refused, exactly so, and nothing is written. */
static void check_refused(const cb_problem *p, const char *h5)
{
    char want[1024];
    cb_error e = {{0}};
    snprintf(want, sizeof want, "%s: a local %s problem cannot be written to FCLIB (fclib_local "
             "holds W, q and mu only; rolling friction only in global problems): write Siconos "
             "text (.dat)", h5, cb_kind_name(p->kind));
    assert_int_equal(cb_write_fclib(h5, p, &e), CB_ERR_INPUT);
    assert_string_equal(e.text, want);
    assert_false(exists(h5));
}

/* P0 → FCLIB → P1 → Siconos text → P2: P0 = P1 = P2. 1 if done, 0 if refused. */
static int round_trip(const char *file)
{
    cb_error e = {{0}};
    const char *h5 = tmp_path("rt.hdf5"), *txt = tmp_path("rt.dat");
    cb_problem *p0 = read_ok(file), *p1 = NULL, *p2 = NULL;
    int local_rolling = !p0->global && p0->kind != CB_KIND_COULOMB2D &&
                        p0->kind != CB_KIND_COULOMB3D;
    if (local_rolling) {
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
                  local_rolling ? "refused (FCLIB has no local rolling problem)"
                                : "FCLIB and back: identical");
    unlink(h5);
    unlink(txt);
    cb_problem_free(p0);
    cb_problem_free(p1);
    cb_problem_free(p2);
    return !local_rolling;
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
    print_message("round trip: %d problem files, %d identical through FCLIB and back, %d refused "
                  "(local rolling)\n", l.n, same, l.n - same);
    assert_true(l.n >= 20);
    assert_true(same >= 16);
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

static void libfclib_local(cb_kind kind, cb_storage storage)
{
    double *p = NULL, *y = NULL;
    cb_problem *P = random_problem(kind, 7, storage, &p, &y);
    const char *path = tmp_path("local.hdf5");
    cb_error e = {{0}};
    size_t n = cb_problem_n(P);
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
    struct fclib_solution *S = fclib_read_solution(path);
    assert_non_null(S);
    same_bytes(S->r, p, n * sizeof(double), "libfclib solution r");
    same_bytes(S->u, y, n * sizeof(double), "libfclib solution u");
    print_message("  libfclib reads %s %s: spacedim %d, W %d x %d (nz %d), q, mu, solution r, u "
                  "identical\n", cb_kind_name(kind), cb_storage_name(storage), L->spacedim,
                  L->W->m, L->W->n, L->W->nz);
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
    libfclib_local(CB_KIND_COULOMB3D, CB_STORAGE_BSR);
    libfclib_local(CB_KIND_COULOMB3D, CB_STORAGE_DENSE);
    libfclib_local(CB_KIND_COULOMB2D, CB_STORAGE_BSR);
    libfclib_local(CB_KIND_COULOMB2D, CB_STORAGE_DENSE);
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

/* What FCLIB cannot hold: refused with the reason, nothing written, an old file kept. */
static void test_refusals(void **state)
{
    (void)state;
    double *p = NULL, *y = NULL;
    const char *path = tmp_path("refused.hdf5");
    cb_error e = {{0}};
    cb_problem *R = random_problem(CB_KIND_ROLLING3D, 3, CB_STORAGE_BSR, &p, &y);
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
    assert_non_null(strstr(e.text, "no/such/dir.hdf5: cannot create a temporary file: No such"));
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
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_data_round_trip),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(g_tmp);
    return rc;
}
