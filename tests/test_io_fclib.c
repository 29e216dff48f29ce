/* conebench tests — FCLIB HDF5 reader (problems/io_fclib.c, cb_read_fclib).
 *
 * Data tests use ../shared/data (or $CONEBENCH_DATA) and skip cleanly without it; the malformed-file
 * tests write their own small files with libfclib's writer and the HDF5 C API into a temp directory. */
#include "test_support.h"

#include "conebench/io.h"
#include "io_internal.h"

#include <dirent.h>
#include <fclib.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if CB_HAVE_SICONOS
#include "FrictionContactProblem.h"
#include "GlobalFrictionContactProblem.h"
#include "NumericsMatrix.h"
#endif

static char g_tmp[256];
static cb_problem *g_spheres; /* Spheres-i099 condensed once (12000 dofs: slow), shared */

/* ------------------------------------------------------------------ helpers */

static const char *tmp_path(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", g_tmp, name);
    return buf[k];
}

static int read_fclib(const char *path, cb_problem **p, cb_error *e)
{
    cb_error_clear(e);
    return cb_read_fclib(path, NULL, p, e);
}

/* rc is CB_ERR_INPUT, the message starts with "path:" and names `field`. */
static void expect_input_error(int rc, const cb_problem *p, const cb_error *e, const char *path,
                               const char *field)
{
    if (rc != CB_ERR_INPUT || strncmp(e->text, path, strlen(path)) != 0 ||
        e->text[strlen(path)] != ':' || !strstr(e->text, field))
        print_error("rc = %d, message '%s', expected a message on %s naming '%s'\n", rc, e->text,
                    path, field);
    assert_int_equal(rc, CB_ERR_INPUT);
    assert_null(p);
    assert_memory_equal(e->text, path, strlen(path));
    assert_int_equal(e->text[strlen(path)], ':');
    assert_non_null(strstr(e->text, field));
}

/* Every HDF5 object the reader opened is closed again. */
static void assert_no_open_hdf5_ids(void)
{
    assert_int_equal(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL), 0);
}

/* Dense n×n column-major W of a raw libfclib matrix (compressed rows). */
static double *dense_from_fclib_csr(const struct fclib_matrix *A)
{
    assert_int_equal(A->nz, -2);
    double *W = calloc((size_t)A->m * (size_t)A->n, sizeof(double));
    assert_non_null(W);
    for (int r = 0; r < A->m; r++)
        for (int k = A->p[r]; k < A->p[r + 1]; k++)
            W[(size_t)r + (size_t)A->i[k] * (size_t)A->m] += A->x[k];
    return W;
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)n);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* ------------------------------------------------------------------ the shared data */

typedef struct {
    const char *file;
    cb_kind kind;
    int nc;
    cb_storage storage;
} known_file;

static const known_file known[] = {
    {"fc3d/BoxesStack-local_problem_test.hdf5", CB_KIND_COULOMB3D, 48, CB_STORAGE_BSR},
    {"fc3d/Capsules-i125-1213.hdf5", CB_KIND_COULOMB3D, 286, CB_STORAGE_BSR},
    {"fc3d/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", CB_KIND_COULOMB3D, 60, CB_STORAGE_BSR},
    {"fc3d/Spheres-i099-356-679.hdf5", CB_KIND_COULOMB3D, 356, CB_STORAGE_DENSE},
    {"rolling/Chute-ndof-768-nc-4-3.hdf5", CB_KIND_ROLLING3D, 4, CB_STORAGE_DENSE},
};
#define NKNOWN (sizeof known / sizeof known[0])
#define SPHERES "fc3d/Spheres-i099-356-679.hdf5"

static const cb_problem *spheres(void)
{
    if (!g_spheres) {
        cb_error e;
        char path[4096];
        snprintf(path, sizeof path, "%s", cbt_data_path(SPHERES));
        int rc = read_fclib(path, &g_spheres, &e);
        if (rc != CB_OK)
            print_error("%s\n", e.text);
        assert_int_equal(rc, CB_OK);
    }
    return g_spheres;
}

static int skip_slow(const char *file)
{
    /* Spheres condenses a 12000-dof M densely (~20 s, ~0.8 GB): not under valgrind/ASan. */
    return cbt_quick() && strcmp(file, SPHERES) == 0;
}

static void check_known(const known_file *k)
{
    char path[4096];
    cb_problem *p = NULL;
    cb_error e;
    snprintf(path, sizeof path, "%s", cbt_data_path(k->file));
    const cb_problem *q = NULL;
    if (strcmp(k->file, SPHERES) == 0) {
        q = spheres();
    } else {
        int rc = read_fclib(path, &p, &e);
        if (rc != CB_OK)
            print_error("%s\n", e.text);
        assert_int_equal(rc, CB_OK);
        q = p;
    }
    print_message("  %-48s %-10s nc = %3d  %s\n", k->file, cb_kind_name(q->kind), q->nc,
                  cb_storage_name(q->storage));
    assert_int_equal(q->kind, k->kind);
    assert_int_equal(q->nc, k->nc);
    assert_int_equal(q->d, cb_kind_dim(k->kind));
    assert_int_equal(q->storage, k->storage);
    assert_int_equal(cb_problem_check(q, &e), CB_OK);
    assert_non_null(q->name);
    cb_problem_free(p);
}

/* Every .hdf5 file of fc3d/ and rolling/ is known (kind, nc) and loads. */
static void test_data_files_load(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    const char *dirs[2] = {"fc3d", "rolling"};
    int seen[NKNOWN] = {0}, count = 0;
    for (int d = 0; d < 2; d++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", cbt_data_path(dirs[d]));
        DIR *dh = opendir(dir);
        assert_non_null(dh);
        struct dirent *ent;
        while ((ent = readdir(dh))) {
            size_t l = strlen(ent->d_name);
            if (l < 5 || strcmp(ent->d_name + l - 5, ".hdf5") != 0)
                continue;
            char rel[512];
            snprintf(rel, sizeof rel, "%s/%s", dirs[d], ent->d_name);
            size_t k = 0;
            while (k < NKNOWN && strcmp(known[k].file, rel) != 0)
                k++;
            if (k == NKNOWN)
                print_error("unexpected data file %s: add it to the table\n", rel);
            assert_true(k < NKNOWN);
            seen[k] = 1;
            count++;
            if (skip_slow(rel))
                print_message("  %-48s skipped in quick mode (slow dense condensation)\n", rel);
            else
                check_known(&known[k]);
        }
        closedir(dh);
    }
    for (size_t k = 0; k < NKNOWN; k++)
        assert_true(seen[k]);
    assert_int_equal(count, (int)NKNOWN);
    assert_no_open_hdf5_ids();
}

/* cb_read_problem reads HDF5 in a child process: the problem it hands back has the same bits
 * as the one read in this process (dense and BSR W, q, μ, μ_r, μ_s). */
static void test_child_read_same_bits(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    for (size_t k = 0; k < NKNOWN; k++) {
        if (strcmp(known[k].file, SPHERES) == 0)
            continue; /* 20 s of condensation, and the same dense path as Chute */
        char path[4096];
        cb_problem *a = NULL, *b = NULL;
        cb_error e;
        snprintf(path, sizeof path, "%s", cbt_data_path(known[k].file));
        assert_int_equal(read_fclib(path, &a, &e), CB_OK);
        if (cb_read_problem(path, NULL, &b, &e) != CB_OK)
            fail_msg("%s", e.text);
        assert_int_equal(b->kind, a->kind);
        assert_int_equal(b->nc, a->nc);
        assert_int_equal(b->storage, a->storage);
        size_t n = cb_problem_n(a), nc = (size_t)a->nc, dd = (size_t)(a->d * a->d);
        if (a->storage == CB_STORAGE_DENSE) {
            assert_memory_equal(b->W, a->W, n * n * sizeof(double));
        } else {
            assert_int_equal(b->bsr.nnzb, a->bsr.nnzb);
            assert_memory_equal(b->bsr.row_ptr, a->bsr.row_ptr, (nc + 1) * sizeof(int));
            assert_memory_equal(b->bsr.col, a->bsr.col, (size_t)a->bsr.nnzb * sizeof(int));
            assert_memory_equal(b->bsr.val, a->bsr.val, (size_t)a->bsr.nnzb * dd * sizeof(double));
        }
        assert_memory_equal(b->q, a->q, n * sizeof(double));
        assert_memory_equal(b->mu, a->mu, nc * sizeof(double));
        assert_memory_equal(b->mu_r, a->mu_r, nc * sizeof(double));
        assert_memory_equal(b->mu_s, a->mu_s, nc * sizeof(double));
        print_message("  %-48s same bits through the child\n", known[k].file);
        cb_problem_free(a);
        cb_problem_free(b);
    }
}

/* fclib_local: W, q, μ entry for entry as libfclib's fclib_read_local returns them (independent path:
 * dense W straight from the raw compressed rows vs our BSR made dense by cb_problem_to_dense). */
static void test_local_matches_libfclib(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    for (size_t k = 0; k < NKNOWN; k++) {
        if (known[k].storage != CB_STORAGE_BSR)
            continue;
        char path[4096];
        cb_problem *p = NULL, *dense = NULL;
        cb_error e;
        snprintf(path, sizeof path, "%s", cbt_data_path(known[k].file));
        assert_int_equal(read_fclib(path, &p, &e), CB_OK);
        assert_int_equal(cb_problem_to_dense(p, &dense, &e), CB_OK);
        struct fclib_local *L = fclib_read_local(path);
        assert_non_null(L);
        int n = L->W->m;
        assert_int_equal(n, (int)cb_problem_n(p));
        assert_int_equal(L->spacedim, p->d);
        double *W = dense_from_fclib_csr(L->W);
        size_t diff = 0;
        for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
            diff += W[i] != dense->W[i];
        for (int i = 0; i < n; i++)
            diff += L->q[i] != p->q[i];
        for (int a = 0; a < p->nc; a++)
            diff += L->mu[a] != p->mu[a] || p->mu_r[a] != 0 || p->mu_s[a] != 0;
        print_message("  %-48s %d x %d, %d stored, %d blocks: %zu differences\n", known[k].file, n,
                      n, L->W->p[n], p->bsr.nnzb, diff);
        assert_int_equal(diff, 0);
        free(W);
        fclib_delete_local(L);
        free(L);
        cb_problem_free(dense);
        cb_problem_free(p);
    }
    assert_no_open_hdf5_ids();
}

/* Chute (global rolling, 768 dofs, 4 contacts) condensed from the HDF5 file (this reader) and from the
 * Siconos text dump GRFC3D_Chute (io_siconos.c) must agree.
 * Tolerance, from the data: the .dat prints M and H through CSparse's cs_print, "%g", 6 significant
 * digits (q = f and b = w are printed with %.24e, exact). M and H differ from the HDF5 values by up to
 * 2.1e-6 and 5.7e-7 relative (max |Δ| / max |·|). Condensing both (LU, or Cholesky of the symmetric
 * part — the same figures) gives max|ΔW| / max|W| = 1.45e-6 and max|Δq| / max|q| = 5.3e-5: q is more
 * sensitive because Hᵀ M⁻¹ f is a sum of large terms that mostly cancel. Bounds: 1e-5 on W and 2e-4 on
 * q (about 7× and 4× the measured differences, far below the 1e-3 of a genuinely different problem). */
static void test_chute_hdf5_vs_dat(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    char h5[4096], dat[4096];
    cb_problem *a = NULL, *b = NULL;
    cb_error e;
    snprintf(h5, sizeof h5, "%s", cbt_data_path("rolling/Chute-ndof-768-nc-4-3.hdf5"));
    snprintf(dat, sizeof dat, "%s", cbt_data_path("rolling/GRFC3D_Chute-ndof-768-nc-4-3.dat"));
    int rc = read_fclib(h5, &a, &e);
    if (rc != CB_OK)
        print_error("%s\n", e.text);
    assert_int_equal(rc, CB_OK);
    cb_error_clear(&e);
    rc = cb_read_problem(dat, NULL, &b, &e);
    if (rc != CB_OK)
        print_error("%s\n", e.text);
    assert_int_equal(rc, CB_OK);
    assert_int_equal(a->kind, CB_KIND_ROLLING3D);
    assert_int_equal(b->kind, a->kind);
    assert_int_equal(b->nc, a->nc);
    cb_problem *da = NULL, *db = NULL;
    assert_int_equal(cb_problem_to_dense(a, &da, &e), CB_OK);
    assert_int_equal(cb_problem_to_dense(b, &db, &e), CB_OK);
    size_t n = cb_problem_n(a);
    double dw = cbt_vec_reldiff(da->W, db->W, n * n, 0.0);
    double dq = cbt_vec_reldiff(da->q, db->q, n, 0.0);
    double dmu = cbt_vec_reldiff(a->mu, b->mu, (size_t)a->nc, 0.0);
    double dmur = cbt_vec_reldiff(a->mu_r, b->mu_r, (size_t)a->nc, 0.0);
    print_message("  Chute .hdf5 vs .dat: W %.3g, q %.3g, mu %.3g, mu_r %.3g (max|diff| / max|.|)\n",
                  dw, dq, dmu, dmur);
    assert_true(dw <= 1e-5);
    assert_true(dq <= 2e-4);
    assert_true(dmu == 0 && dmur == 0);
    cb_problem_free(da);
    cb_problem_free(db);
    cb_problem_free(a);
    cb_problem_free(b);
    assert_no_open_hdf5_ids();
}

#if CB_HAVE_SICONOS
/* Siconos NumericsMatrix (sparse triplets) of the rows `map` keeps (map[row] = new row or -1). */
static NumericsMatrix *siconos_rows(const struct fclib_matrix *A, const int *map, int nrow)
{
    NumericsMatrix *N = NM_create(NM_SPARSE, nrow, A->n);
    NM_triplet_alloc(N, A->nz);
    for (int k = 0; k < A->nz; k++)
        if (map[A->i[k]] >= 0) /* fclib triplets: i = row, p = column */
            NM_entry(N, map[A->i[k]], A->p[k], A->x[k]);
    return N;
}

/* The condensed Spheres-i099 (fclib_global, M diagonal 12000 × 12000, H 12000 × 1068) against Siconos'
 * own globalFrictionContact_reformulation_FrictionContact (its sparse LU path), to 1e-10 relative.
 * libsiconos_numerics 4.4 in Debian is built without fclib (no from_fclib_global), so the problem is
 * read with libfclib and handed to Siconos as NumericsMatrix triplets. Because M is diagonal (checked),
 * the dofs H does not touch contribute nothing to Hᵀ M⁻¹ H nor to Hᵀ M⁻¹ f: Siconos gets only the 2518
 * touched dofs (its NM_LU_inv forms a dense inverse: the full 12000 dofs take ~2 min and ~10 GB, with
 * the same result — measured once: 2.5e-16 on W, 1.6e-16 on q). */
static void test_spheres_vs_siconos(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    if (cbt_quick()) {
        print_message("skipped in quick mode (slow dense condensation)\n");
        skip();
    }
    const cb_problem *p = spheres();
    struct fclib_global *F = fclib_read_global(cbt_data_path(SPHERES));
    assert_non_null(F);
    assert_true(F->M->nz >= 0 && F->H->nz >= 0);
    int ndof = F->M->m, m = F->H->n, nc = m / F->spacedim, n2 = 0;
    int *map = malloc((size_t)ndof * sizeof(int)), *keep = calloc((size_t)ndof, sizeof(int));
    assert_non_null(map);
    assert_non_null(keep);
    for (int k = 0; k < F->M->nz; k++)
        assert_int_equal(F->M->i[k], F->M->p[k]); /* diagonal */
    for (int k = 0; k < F->H->nz; k++)
        keep[F->H->i[k]] = 1;
    for (int r = 0; r < ndof; r++)
        map[r] = keep[r] ? n2++ : -1;
    GlobalFrictionContactProblem *g = globalFrictionContactProblem_new();
    g->dimension = F->spacedim;
    g->numberOfContacts = nc;
    g->M = NM_create(NM_SPARSE, n2, n2);
    NM_triplet_alloc(g->M, n2);
    for (int k = 0; k < F->M->nz; k++)
        if (map[F->M->i[k]] >= 0)
            NM_entry(g->M, map[F->M->i[k]], map[F->M->i[k]], F->M->x[k]);
    g->H = siconos_rows(F->H, map, n2);
    g->q = malloc((size_t)n2 * sizeof(double));
    g->b = malloc((size_t)m * sizeof(double));
    g->mu = malloc((size_t)nc * sizeof(double));
    for (int r = 0; r < ndof; r++)
        if (map[r] >= 0)
            g->q[map[r]] = F->f[r];
    memcpy(g->b, F->w, (size_t)m * sizeof(double));
    memcpy(g->mu, F->mu, (size_t)nc * sizeof(double));
    FrictionContactProblem *L = globalFrictionContact_reformulation_FrictionContact(g);
    assert_non_null(L);
    NumericsMatrix *D = NM_create(NM_DENSE, m, m);
    NM_to_dense(L->M, D);
    assert_int_equal((int)cb_problem_n(p), m);
    double dw = cbt_vec_reldiff(p->W, D->matrix0, (size_t)m * (size_t)m, 0.0);
    double dq = cbt_vec_reldiff(p->q, L->q, (size_t)m, 0.0);
    double dmu = cbt_vec_reldiff(p->mu, L->mu, (size_t)nc, 0.0);
    print_message("  Spheres vs Siconos (%d of %d dofs touched by H): W %.3g, q %.3g, mu %.3g\n", n2,
                  ndof, dw, dq, dmu);
    assert_true(dw <= 1e-10);
    assert_true(dq <= 1e-10);
    assert_true(dmu == 0);
    NM_free(D); /* frees D itself too */
    frictionContactProblem_free(L);
    globalFrictionContact_free(g); /* frees g itself too */
    free(map);
    free(keep);
    fclib_delete_global(F);
    free(F);
    assert_no_open_hdf5_ids();
}
#else
CBT_SICONOS_ONLY_TEST(test_spheres_vs_siconos)
#endif

/* ------------------------------------------------------------------ not HDF5 / broken HDF5 */

static const unsigned char hdf5_sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

static void test_garbage_with_signature(void **state)
{
    (void)state;
    unsigned char buf[4096];
    unsigned s = 12345;
    for (size_t k = 0; k < sizeof buf; k++) {
        s = s * 1103515245u + 12345u;
        buf[k] = (unsigned char)(s >> 16);
    }
    memcpy(buf, hdf5_sig, 8);
    const char *path = tmp_path("garbage.hdf5");
    write_bytes(path, buf, sizeof buf);
    cb_problem *p = NULL;
    cb_error e;
    int rc = read_fclib(path, &p, &e);
    print_message("  garbage: %s\n", e.text);
    expect_input_error(rc, p, &e, path, "HDF5");
    write_bytes(path, hdf5_sig, 8); /* signature only */
    expect_input_error(read_fclib(path, &p, &e), p, &e, path, "HDF5");
    write_bytes(path, "", 0);
    expect_input_error(read_fclib(path, &p, &e), p, &e, path, "HDF5");
    cb_error_clear(&e);
    assert_int_equal(cb_read_fclib(tmp_path("does-not-exist.hdf5"), NULL, &p, &e), CB_ERR_IO);
    assert_null(p);
    assert_no_open_hdf5_ids();
}

/* HDF5's automatic error printing is off during the read and restored afterwards. */
static int g_printed;
static herr_t counting_printer(hid_t stack, void *data)
{
    (void)stack;
    (void)data;
    g_printed++;
    return 0;
}

static void test_error_printing_restored(void **state)
{
    (void)state;
    H5E_auto2_t fn;
    void *data;
    int tag = 0;
    H5Eset_auto2(H5E_DEFAULT, counting_printer, &tag);
    const char *path = tmp_path("garbage2.hdf5");
    unsigned char buf[1024] = {0};
    memcpy(buf, hdf5_sig, 8);
    write_bytes(path, buf, sizeof buf);
    cb_problem *p = NULL;
    cb_error e;
    g_printed = 0;
    assert_int_equal(read_fclib(path, &p, &e), CB_ERR_INPUT);
    assert_int_equal(g_printed, 0);
    H5Eget_auto2(H5E_DEFAULT, &fn, &data);
    assert_true(fn == counting_printer && data == &tag);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* Truncations and byte flips of a real file: CB_OK with a valid problem or CB_ERR_INPUT — never a
 * crash, an exit() inside libfclib, or a leak. */
static void test_truncated_and_corrupted(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    size_t len;
    unsigned char *orig = slurp(cbt_data_path("fc3d/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5"), &len);
    unsigned char *buf = malloc(len);
    assert_non_null(buf);
    const char *path = tmp_path("broken.hdf5");
    long ntrunc = cbt_scale(64, 8), nflip = cbt_scale(400, 20), ok = 0, bad = 0;
    unsigned s = 777;
    for (long t = 0; t < ntrunc + nflip; t++) {
        size_t n = len;
        memcpy(buf, orig, len);
        if (t < ntrunc) {
            n = (size_t)((double)len * (double)t / (double)ntrunc);
        } else {
            for (int f = 0; f < 1 + (int)(t % 4); f++) {
                s = s * 1103515245u + 12345u;
                size_t at = (s >> 8) % len;
                buf[at] ^= (unsigned char)(1u << (s % 8));
            }
        }
        write_bytes(path, buf, n);
        cb_problem *p = NULL;
        cb_error e;
        int rc = read_fclib(path, &p, &e);
        if (rc != CB_OK && rc != CB_ERR_INPUT)
            print_error("variant %ld: rc %d %s\n", t, rc, e.text);
        assert_true(rc == CB_OK || rc == CB_ERR_INPUT);
        if (rc == CB_OK)
            assert_int_equal(cb_problem_check(p, &e), CB_OK);
        else
            assert_memory_equal(e.text, path, strlen(path));
        if (rc == CB_OK)
            ok++;
        else
            bad++;
        cb_problem_free(p);
    }
    print_message("  %ld truncated + %ld corrupted variants: %ld read, %ld rejected\n", ntrunc, nflip,
                  ok, bad);
    free(buf);
    free(orig);
    assert_no_open_hdf5_ids();
}

/* ------------------------------------------------------------------ small files written here */

/* The 6×6 W (nc = 2, d = 3) of the small local problem, with an all-zero block (0, 1). */
static double small_W(int i, int j)
{
    if (i == j)
        return 4.0 + i;
    if (i < 3 && j >= 3)
        return 0.0;
    return 0.125 * (i + 1) - 0.0625 * j;
}

static const double small_q[6] = {-1, 0.5, 0.25, -2, 0.1, -0.3};

/* Write the small local problem with libfclib's writer, W in layout nz (-2 rows, -1 columns, 0
 * triplets), as spacedim d (2: nc = 3; 3: nc = 2). */
static void write_small_local(const char *path, int nz, int d)
{
    int p[64], idx[64], cnt = 0;
    double x[64], mu[3] = {0.3, 0.7, 0.5};
    int outer = 6;
    remove(path);
    for (int o = 0; o < outer; o++) {
        if (nz < 0)
            p[o] = cnt;
        for (int in = 0; in < 6; in++) {
            int r = nz == -1 ? in : o, c = nz == -1 ? o : in;
            if (small_W(r, c) == 0.0)
                continue;
            if (nz >= 0) {
                p[cnt] = c;
                idx[cnt] = r;
            } else {
                idx[cnt] = nz == -1 ? r : c;
            }
            x[cnt++] = small_W(r, c);
        }
    }
    if (nz < 0)
        p[outer] = cnt;
    struct fclib_matrix W = {cnt, 6, 6, p, idx, x, nz >= 0 ? cnt : nz, NULL};
    struct fclib_local L = {&W, NULL, NULL, mu, (double *)small_q, NULL, d, NULL};
    assert_int_equal(fclib_write_local(&L, path), 1);
}

static void check_small_local(const cb_problem *p, int d)
{
    cb_problem *dense = NULL;
    cb_error e;
    assert_int_equal(p->d, d);
    assert_int_equal(p->nc, 6 / d);
    assert_int_equal(p->storage, CB_STORAGE_BSR);
    assert_int_equal(cb_problem_check(p, &e), CB_OK);
    assert_int_equal(cb_problem_to_dense(p, &dense, &e), CB_OK);
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 6; i++)
            assert_true(dense->W[i + 6 * j] == small_W(i, j));
    assert_memory_equal(p->q, small_q, sizeof small_q);
    assert_true(p->mu[0] == 0.3 && p->mu[1] == 0.7);
    cb_problem_free(dense);
}

/* Compressed rows, compressed columns and triplets; spacedim 3 and 2. */
static void test_small_local_layouts(void **state)
{
    (void)state;
    const int layouts[3] = {-2, -1, 0};
    for (int d = 2; d <= 3; d++)
        for (int k = 0; k < 3; k++) {
            const char *path = tmp_path("small_local.hdf5");
            write_small_local(path, layouts[k], d);
            cb_problem *p = NULL;
            cb_error e;
            int rc = read_fclib(path, &p, &e);
            if (rc != CB_OK)
                print_error("%s\n", e.text);
            assert_int_equal(rc, CB_OK);
            assert_int_equal(p->kind, d == 3 ? CB_KIND_COULOMB3D : CB_KIND_COULOMB2D);
            check_small_local(p, d);
            if (d == 3) /* blocks (0,0), (1,0), (1,1): the zero block (0,1) is not stored */
                assert_int_equal(p->bsr.nnzb, 3);
            assert_string_equal(p->name, "small_local");
            assert_string_equal(p->prov.source, path);
            cb_problem_free(p);
        }
    assert_no_open_hdf5_ids();
}

/* W of the large local files: values differ from their mirrors (W_ij ≠ W_ji), blocks (0, 1),
 * (1, 0) and the diagonal block (2, 2) are zero (not stored); the block pattern is symmetric. */
static double large_W(int i, int j)
{
    if ((i / 3 < 2 && j / 3 < 2 && i / 3 != j / 3) || (i / 3 == 2 && j / 3 == 2))
        return 0.0;
    return (double)(i + 1) + (double)(j + 1) / 7919.0;
}

/* Write W (n = 1 200, nc = 400, d = 3) in layout nz: −2 rows, −1 columns, 0 triplets by rows,
 * 1 triplets by columns (entry (0, 0) stored twice, 1 + 0.5, in every layout). */
static void write_large_local(const char *path, int nz, int n)
{
    size_t cap = (size_t)n * n + 1;
    int *p = malloc(cap * sizeof(int)), *idx = malloc(cap * sizeof(int)), cnt = 0;
    double *x = malloc(cap * sizeof(double)), *q = calloc((size_t)n, sizeof(double));
    double *mu = calloc((size_t)n / 3, sizeof(double));
    assert_true(p && idx && x && q && mu);
    int by_col = nz == -1 || nz == 1;
    remove(path);
    for (int o = 0; o < n; o++) {
        if (nz < 0)
            p[o] = cnt;
        for (int in = 0; in < n; in++) {
            int r = by_col ? in : o, c = by_col ? o : in;
            double v = large_W(r, c);
            for (int twice = r == 0 && c == 0 ? 2 : 1; v != 0.0 && twice > 0; twice--) {
                if (nz >= 0)
                    p[cnt] = c, idx[cnt] = r;
                else
                    idx[cnt] = by_col ? r : c;
                x[cnt++] = r == 0 && c == 0 ? (twice == 2 ? 1.0 : 0.5) : v;
            }
        }
    }
    if (nz < 0)
        p[n] = cnt;
    for (int a = 0; a < n / 3; a++)
        mu[a] = 0.5;
    struct fclib_matrix W = {cnt, n, n, p, idx, x, nz >= 0 ? cnt : nz, NULL};
    struct fclib_local L = {&W, NULL, NULL, mu, q, NULL, 3, NULL};
    assert_int_equal(fclib_write_local(&L, path), 1);
    free(p), free(idx), free(x), free(q), free(mu);
}

/* Every layout of a 1 200×1 200 W (11.5 MB of values: libfclib's arrays are given back while the
 * BSR fills, io_fclib.c compressed_to_bsr) reads back entry for entry: CSR and triplets by rows
 * as they come, CSC through the in-place transpose (a symmetric block pattern), triplets by
 * columns through the general path; the zero diagonal block is stored, the zero blocks (0, 1)
 * and (1, 0) are not. The child's path (cb_read_problem, the answer given back as it is
 * unpacked) gives the same bits. */
static void test_large_local_layouts(void **state)
{
    (void)state;
    const int n = 1200, layouts[4] = {-2, -1, 0, 1};
    for (int k = 0; k < 4; k++) {
        const char *path = tmp_path("large_local.hdf5");
        write_large_local(path, layouts[k], n);
        cb_problem *p = NULL, *c = NULL, *dense = NULL;
        cb_error e;
        if (read_fclib(path, &p, &e) != CB_OK)
            fail_msg("%s", e.text);
        assert_int_equal(p->storage, CB_STORAGE_BSR);
        assert_int_equal(p->bsr.nnzb, (n / 3) * (n / 3) - 2);
        assert_int_equal(cb_problem_to_dense(p, &dense, &e), CB_OK);
        size_t diff = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                diff += dense->W[i + (size_t)j * n] != (i == 0 && j == 0 ? 1.5 : large_W(i, j));
        assert_int_equal(diff, 0);
        assert_int_equal(cb_read_problem(path, NULL, &c, &e), CB_OK);
        assert_int_equal(c->bsr.nnzb, p->bsr.nnzb);
        assert_memory_equal(c->bsr.col, p->bsr.col, (size_t)p->bsr.nnzb * sizeof(int));
        assert_memory_equal(c->bsr.val, p->bsr.val, (size_t)p->bsr.nnzb * 9 * sizeof(double));
        cb_problem_free(dense);
        cb_problem_free(c);
        cb_problem_free(p);
    }
    assert_no_open_hdf5_ids();
}

/* A forced kind must have the file's d (and its rolling block, if any). */
static void test_force_kind(void **state)
{
    (void)state;
    const char *path = tmp_path("small_force.hdf5");
    write_small_local(path, -2, 3);
    cb_read_settings s;
    cb_read_settings_default(&s);
    s.force_kind = 1;
    s.kind = CB_KIND_ROLLING2D;
    cb_problem *p = NULL;
    cb_error e;
    assert_int_equal(cb_read_fclib(path, &s, &p, &e), CB_OK);
    assert_int_equal(p->kind, CB_KIND_ROLLING2D);
    check_small_local(p, 3);
    cb_problem_free(p);
    p = NULL;
    s.kind = CB_KIND_ROLLING3D;
    cb_error_clear(&e);
    expect_input_error(cb_read_fclib(path, &s, &p, &e), p, &e, path, "kind");
}

/* HDF5 writing helpers for mutations. */
static void h5_unlink_if_present(hid_t file, const char *obj)
{
    if (H5Lexists(file, obj, H5P_DEFAULT) > 0)
        assert_true(H5Ldelete(file, obj, H5P_DEFAULT) >= 0);
}

static void h5_put(hid_t file, const char *obj, hid_t type, int rank, const hsize_t *dims,
                   const void *data)
{
    h5_unlink_if_present(file, obj);
    hid_t sp = rank ? H5Screate_simple(rank, dims, NULL) : H5Screate(H5S_SCALAR);
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t ds = H5Dcreate2(file, obj, type, sp, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    H5Pclose(lcpl);
    assert_true(ds >= 0);
    if (data)
        assert_true(H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
    H5Dclose(ds);
    H5Sclose(sp);
}

static void h5_ints(hid_t file, const char *obj, const int *v, int n)
{
    hsize_t dim = (hsize_t)n;
    h5_put(file, obj, H5T_NATIVE_INT, 1, &dim, v);
}

static void h5_doubles(hid_t file, const char *obj, const double *v, int n)
{
    hsize_t dim = (hsize_t)n;
    h5_put(file, obj, H5T_NATIVE_DOUBLE, 1, &dim, v);
}

typedef enum {
    MUT_INTS, MUT_DOUBLES, MUT_DELETE, MUT_GROUP, MUT_SOFTLINK, MUT_STRING2D, MUT_DOUBLES2D,
    MUT_UNALLOCATED
} mut_kind;

typedef struct {
    const char *obj;
    mut_kind kind;
    int n;
    int iv[24];
    double dv[8];
    const char *expect; /* substring of the message */
} mutation;

static void apply_mutation(const char *path, const mutation *m)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    if (m->kind == MUT_INTS) {
        h5_ints(f, m->obj, m->iv, m->n);
    } else if (m->kind == MUT_DOUBLES) {
        h5_doubles(f, m->obj, m->dv, m->n);
    } else if (m->kind == MUT_DELETE) {
        h5_unlink_if_present(f, m->obj);
    } else if (m->kind == MUT_GROUP) {
        h5_unlink_if_present(f, m->obj);
        hid_t g = H5Gcreate2(f, m->obj, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        assert_true(g >= 0);
        H5Gclose(g);
    } else if (m->kind == MUT_SOFTLINK) {
        h5_unlink_if_present(f, m->obj);
        assert_true(H5Lcreate_soft("/fclib_local/vectors/q", f, m->obj, H5P_DEFAULT,
                                   H5P_DEFAULT) >= 0);
    } else if (m->kind == MUT_STRING2D) {
        hid_t t = H5Tcopy(H5T_C_S1);
        H5Tset_size(t, 4);
        hsize_t dims[2] = {2, 2};
        h5_put(f, m->obj, t, 2, dims, "abcdefghijklmnop");
        H5Tclose(t);
    } else if (m->kind == MUT_DOUBLES2D) {
        hsize_t dims[2] = {2, 2};
        double v[4] = {1, 2, 3, 4};
        h5_put(f, m->obj, H5T_NATIVE_DOUBLE, 2, dims, v);
    } else {
        hsize_t dim = (hsize_t)1 << 26; /* never written: fill values only */
        h5_put(f, m->obj, H5T_NATIVE_DOUBLE, 1, &dim, NULL);
    }
    H5Fclose(f);
}

static void run_mutations(const mutation *muts, size_t count, void (*make)(const char *))
{
    for (size_t k = 0; k < count; k++) {
        const char *path = tmp_path("mutated.hdf5");
        make(path);
        apply_mutation(path, &muts[k]);
        cb_problem *p = NULL;
        cb_error e;
        int rc = read_fclib(path, &p, &e);
        print_message("  %-34s -> %s\n", muts[k].obj, e.text + strlen(path) + 2);
        expect_input_error(rc, p, &e, path, muts[k].expect);
        cb_problem_free(p);
    }
    assert_no_open_hdf5_ids();
}

static void make_small_local(const char *path)
{
    write_small_local(path, -2, 3);
}

/* The small local file has W with 26 stored entries (nzmax 26), row pointers p (7 entries)
 * {0, 2, 5, 8, 14, 20, 26}. */
static const mutation local_mutations[] = {
    {"/fclib_local/spacedim", MUT_INTS, 1, {0}, {0}, "/fclib_local/spacedim"},
    {"/fclib_local/spacedim", MUT_INTS, 1, {4}, {0}, "/fclib_local/spacedim"},
    {"/fclib_local/spacedim", MUT_DOUBLES, 1, {0}, {3.0}, "/fclib_local/spacedim"},
    {"/fclib_local/spacedim", MUT_INTS, 2, {3, 3}, {0}, "/fclib_local/spacedim"},
    {"/fclib_local/W/p", MUT_INTS, 20, {0}, {0}, "/fclib_local/W/p"}, /* heap overflow in libfclib */
    {"/fclib_local/W/p", MUT_INTS, 7, {0, 2, 5, 4, 14, 20, 26}, {0}, "/fclib_local/W/p"},
    {"/fclib_local/W/p", MUT_INTS, 7, {1, 2, 5, 8, 14, 20, 26}, {0}, "/fclib_local/W/p"},
    {"/fclib_local/W/p", MUT_INTS, 7, {0, 2, 5, 8, 14, 20, 27}, {0}, "/fclib_local/W/p"},
    {"/fclib_local/W/nz", MUT_INTS, 1, {5}, {0}, "/fclib_local/W"},
    {"/fclib_local/W/nz", MUT_INTS, 1, {-3}, {0}, "/fclib_local/W/nz"},
    {"/fclib_local/W/m", MUT_INTS, 1, {9}, {0}, "/fclib_local/W"},
    {"/fclib_local/W/m", MUT_INTS, 1, {0x7fffffff}, {0}, "/fclib_local/W"},
    {"/fclib_local/W/n", MUT_INTS, 1, {-6}, {0}, "/fclib_local/W"},
    {"/fclib_local/W/nzmax", MUT_INTS, 1, {-1}, {0}, "/fclib_local/W/nzmax"},
    {"/fclib_local/W/nzmax", MUT_INTS, 1, {31}, {0}, "/fclib_local/W/i"},
    {"/fclib_local/W/x", MUT_DOUBLES2D, 0, {0}, {0}, "/fclib_local/W/x"},
    {"/fclib_local/W/x", MUT_SOFTLINK, 0, {0}, {0}, "/fclib_local/W/x"},
    {"/fclib_local/W/x", MUT_DELETE, 0, {0}, {0}, "/fclib_local/W/x"},
    {"/fclib_local/W", MUT_INTS, 1, {1}, {0}, "/fclib_local/W"},
    {"/fclib_local/vectors/q", MUT_DOUBLES, 6, {0}, {1, 2, NAN, 4, 5, 6}, "/fclib_local/vectors/q"},
    {"/fclib_local/vectors/q", MUT_DOUBLES, 5, {0}, {1, 2, 3, 4, 5}, "/fclib_local/vectors/q"},
    {"/fclib_local/vectors/q", MUT_UNALLOCATED, 0, {0}, {0}, "/fclib_local/vectors/q"},
    {"/fclib_local/vectors/mu", MUT_DOUBLES, 2, {0}, {0.3, -0.1}, "/fclib_local/vectors/mu"},
    {"/fclib_local/vectors/mu", MUT_DOUBLES, 2, {0}, {0.3, INFINITY}, "/fclib_local/vectors/mu"},
    {"/fclib_local/vectors/mu", MUT_DOUBLES, 3, {0}, {1, 1, 1}, "/fclib_local/vectors/mu"},
    {"/fclib_local/vectors", MUT_DELETE, 0, {0}, {0}, "/fclib_local/vectors"},
    {"/fclib_local/V", MUT_GROUP, 0, {0}, {0}, "/fclib_local/V"},
    {"/fclib_local/info", MUT_GROUP, 0, {0}, {0}, "ok-placeholder"}, /* replaced below */
    {"/fclib_local/info/title", MUT_STRING2D, 0, {0}, {0}, "/fclib_local/info/title"},
    {"/fclib_local/W/conditioning", MUT_DOUBLES, 1, {0}, {1.0}, "/fclib_local/W/determinant"},
    {"/fclib_global", MUT_GROUP, 0, {0}, {0}, "ambiguous"},
    {"/fclib_local", MUT_DELETE, 0, {0}, {0}, "not an FCLIB problem"},
};

/* W/x with a non-finite value and an index out of range (written through libfclib). */
static void test_local_bad_values(void **state)
{
    (void)state;
    const char *path = tmp_path("bad_values.hdf5");
    int p[3] = {0, 1, 2}, i[2] = {0, 7};
    double x[2] = {1, 1}, mu[2] = {0.5, 0.5}, q[6] = {0};
    struct fclib_matrix W = {2, 6, 6, p, i, x, -2, NULL};
    int pp[7] = {0, 1, 2, 2, 2, 2, 2};
    W.p = pp;
    struct fclib_local L = {&W, NULL, NULL, mu, q, NULL, 3, NULL};
    remove(path);
    assert_int_equal(fclib_write_local(&L, path), 1);
    cb_problem *pr = NULL;
    cb_error e;
    expect_input_error(read_fclib(path, &pr, &e), pr, &e, path, "/fclib_local/W/i");
    i[1] = 1;
    x[0] = INFINITY;
    remove(path);
    assert_int_equal(fclib_write_local(&L, path), 1);
    expect_input_error(read_fclib(path, &pr, &e), pr, &e, path, "/fclib_local/W/x");
    assert_no_open_hdf5_ids();
}

/* Triplets W (6×6, d = 3) of four entries, by block row (rows 0, 1, 4, 5) or not (rows 4, 5,
 * 0, 1), entry k damaged by `what` (0 none, 1 row 7, 2 column −1, 3 value NaN). */
static void write_triplets(const char *path, int by_row, int k, int what)
{
    int rows[4] = {0, 1, 4, 5}, cols[4] = {0, 1, 4, 5}, r[4], c[4];
    double x[4], mu[2] = {0.5, 0.5}, q[6] = {0};
    for (int t = 0; t < 4; t++) {
        int s = by_row ? t : (t + 2) % 4;
        r[t] = rows[s], c[t] = cols[s], x[t] = 1.0 + s;
    }
    if (what == 1)
        r[k] = 7;
    else if (what == 2)
        c[k] = -1;
    else if (what == 3)
        x[k] = NAN;
    struct fclib_matrix W = {4, 6, 6, c, r, x, 4, NULL};
    struct fclib_local L = {&W, NULL, NULL, mu, q, NULL, 3, NULL};
    remove(path);
    assert_int_equal(fclib_write_local(&L, path), 1);
}

/* Triplets by block row are read from the file a chunk at a time (io_fclib.c stream_W), others
 * by libfclib: both give the same problem and, for a damaged entry, the same message, the one
 * check_entries gives (the entry's index, the dataset, the reason). The damage is at entry 3 of
 * the file not by block row: after entry 2, where its block row goes back and libfclib takes
 * over. */
static void test_streamed_bad_entries(void **state)
{
    (void)state;
    static const char *const want[4] = {NULL, "/fclib_local/W/i: row index 7 out of range [0, 6) "
                                        "at entry %d", "/fclib_local/W/p: column index -1 out of "
                                        "range [0, 6) at entry %d", "/fclib_local/W/x: entry %d is "
                                        "not finite"};
    const char *path = tmp_path("triplets.hdf5");
    cb_problem *good[2] = {NULL, NULL};
    for (int what = 0; what < 4; what++)
        for (int by_row = 0; by_row < 2; by_row++) {
            cb_problem *p = NULL;
            cb_error e;
            char msg[128];
            write_triplets(path, by_row, by_row ? 2 : 3, what);
            int rc = read_fclib(path, &p, &e);
            if (what == 0) {
                assert_int_equal(rc, CB_OK);
                good[by_row] = p;
                continue;
            }
            snprintf(msg, sizeof msg, want[what], by_row ? 2 : 3);
            expect_input_error(rc, p, &e, path, msg);
            assert_string_equal(e.text + strlen(path) + 2, msg);
        }
    assert_int_equal(good[0]->bsr.nnzb, 2);
    assert_int_equal(good[1]->bsr.nnzb, good[0]->bsr.nnzb);
    assert_memory_equal(good[1]->bsr.col, good[0]->bsr.col, 2 * sizeof(int));
    assert_memory_equal(good[1]->bsr.val, good[0]->bsr.val, 2 * 9 * sizeof(double));
    assert_true(good[1]->bsr.val[0] == 1.0 && good[1]->bsr.val[4] == 2.0 &&
                good[1]->bsr.val[9 + 4] == 3.0 && good[1]->bsr.val[9 + 8] == 4.0);
    cb_problem_free(good[0]);
    cb_problem_free(good[1]);
    assert_no_open_hdf5_ids();
}

static void test_local_mutations(void **state)
{
    (void)state;
    size_t n = sizeof local_mutations / sizeof local_mutations[0];
    for (size_t k = 0; k < n; k++) {
        if (strcmp(local_mutations[k].expect, "ok-placeholder") == 0) {
            /* an empty info group is fine */
            const char *path = tmp_path("mutated.hdf5");
            make_small_local(path);
            apply_mutation(path, &local_mutations[k]);
            cb_problem *p = NULL;
            cb_error e;
            assert_int_equal(read_fclib(path, &p, &e), CB_OK);
            cb_problem_free(p);
            continue;
        }
        run_mutations(&local_mutations[k], 1, make_small_local);
    }
}

/* Small global problem: ndof 6 (diagonal M), nc 1, d 3. W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w. */
static const double gM[6] = {2, 2, 2, 0.5, 0.5, 0.25};
static const double gf[6] = {0, 0, -19.62, 0.1, 0, 0};
static const double gw[5] = {0.01, -0.02, 0.03, 0.004, -0.005};

static double small_H(int r, int c)
{
    return (r == c) ? 1.0 : ((r + 2 * c) % 3 == 0 ? 0.5 * (r - c) : 0.0);
}

static void expected_global(int d, double *W, double *q)
{
    for (int a = 0; a < d; a++) {
        q[a] = gw[a];
        for (int r = 0; r < 6; r++)
            q[a] += small_H(r, a) * gf[r] / gM[r];
        for (int b = 0; b < d; b++) {
            W[a + d * b] = 0;
            for (int r = 0; r < 6; r++)
                W[a + d * b] += small_H(r, a) * small_H(r, b) / gM[r];
        }
    }
}

static void make_small_global(const char *path)
{
    int Mi[6], Mp[6], Hi[36], Hp[36], nh = 0;
    double Hx[36], mu = 0.4;
    for (int r = 0; r < 6; r++)
        Mi[r] = Mp[r] = r;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 6; r++)
            if (small_H(r, c) != 0.0) {
                Hi[nh] = r;
                Hp[nh] = c;
                Hx[nh++] = small_H(r, c);
            }
    struct fclib_matrix M = {6, 6, 6, Mp, Mi, (double *)gM, 6, NULL};
    struct fclib_matrix H = {nh, 6, 3, Hp, Hi, Hx, nh, NULL};
    struct fclib_global G = {&M, &H, NULL, &mu, (double *)gf, NULL, (double *)gw, 3, NULL};
    remove(path);
    assert_int_equal(fclib_write_global(&G, path), 1);
}

static void check_small_global(const cb_problem *p, int d)
{
    double W[25], q[5];
    cb_problem *dense = NULL;
    cb_error e;
    expected_global(d, W, q);
    assert_int_equal(p->nc, 1);
    assert_int_equal(p->d, d);
    assert_int_equal(cb_problem_to_dense(p, &dense, &e), CB_OK);
    double dw = cbt_vec_reldiff(dense->W, W, (size_t)d * d, 0), dq = cbt_vec_reldiff(p->q, q, (size_t)d, 0);
    print_message("  small global d = %d: W %.3g, q %.3g from the hand computation\n", d, dw, dq);
    assert_true(dw < 1e-14 && dq < 1e-14);
    cb_problem_free(dense);
}

static void test_small_global(void **state)
{
    (void)state;
    const char *path = tmp_path("small_global.hdf5");
    make_small_global(path);
    cb_problem *p = NULL;
    cb_error e;
    int rc = read_fclib(path, &p, &e);
    if (rc != CB_OK)
        print_error("%s\n", e.text);
    assert_int_equal(rc, CB_OK);
    assert_int_equal(p->kind, CB_KIND_COULOMB3D);
    check_small_global(p, 3);
    assert_true(p->mu[0] == 0.4);
    cb_problem_free(p);
    static const mutation muts[] = {
        {"/fclib_global/G", MUT_GROUP, 0, {0}, {0}, "/fclib_global/G"},
        {"/fclib_global/M/m", MUT_INTS, 1, {5}, {0}, "/fclib_global/M"},
        {"/fclib_global/H/p", MUT_INTS, 6, {0, 0, 1, 1, 2, 7}, {0}, "/fclib_global/H"},
        {"/fclib_global/H/n", MUT_INTS, 1, {4}, {0}, "/fclib_global/H"},
        {"/fclib_global/vectors/w", MUT_DOUBLES, 2, {0}, {1, 2}, "/fclib_global/vectors/w"},
        {"/fclib_global/vectors/f", MUT_DOUBLES, 6, {0}, {0, 0, NAN, 0, 0, 0}, "/fclib_global/vectors/f"},
        {"/fclib_global/spacedim", MUT_INTS, 1, {5}, {0}, "/fclib_global/spacedim"},
        /* triplet x may be shorter than nzmax, but libfclib still mallocs nzmax values */
        {"/fclib_global/H/nzmax", MUT_INTS, 1, {1 << 29}, {0}, "/fclib_global/H/nzmax"},
    };
    run_mutations(muts, sizeof muts / sizeof muts[0], make_small_global);
}

/* Rolling (spacedim 5 or 3) written with the HDF5 C API, as fclib's newer writer lays it out. */
static int g_roll_d = 5;
static void make_small_rolling(const char *path)
{
    int d = g_roll_d, Mi[6], Hi[36], Hp[36], nh = 0, sd = d, m = 6, nzmax = 6;
    double Hx[36], mu = 0.4, mur = 0.05;
    for (int r = 0; r < 6; r++)
        Mi[r] = r;
    for (int c = 0; c < d; c++)
        for (int r = 0; r < 6; r++)
            if (small_H(r, c) != 0.0) {
                Hi[nh] = r;
                Hp[nh] = c;
                Hx[nh++] = small_H(r, c);
            }
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(f >= 0);
    const char *groups[4] = {"/fclib_global_rolling", "/fclib_global_rolling/M",
                             "/fclib_global_rolling/H", "/fclib_global_rolling/vectors"};
    for (int k = 0; k < 4; k++)
        H5Gclose(H5Gcreate2(f, groups[k], H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    h5_ints(f, "/fclib_global_rolling/spacedim", &sd, 1);
    h5_ints(f, "/fclib_global_rolling/M/m", &m, 1);
    h5_ints(f, "/fclib_global_rolling/M/n", &m, 1);
    h5_ints(f, "/fclib_global_rolling/M/nz", &m, 1);
    h5_ints(f, "/fclib_global_rolling/M/nzmax", &nzmax, 1);
    h5_ints(f, "/fclib_global_rolling/M/i", Mi, 6);
    h5_ints(f, "/fclib_global_rolling/M/p", Mi, 6);
    h5_doubles(f, "/fclib_global_rolling/M/x", gM, 6);
    h5_ints(f, "/fclib_global_rolling/H/m", &m, 1);
    h5_ints(f, "/fclib_global_rolling/H/n", &d, 1);
    h5_ints(f, "/fclib_global_rolling/H/nz", &nh, 1);
    h5_ints(f, "/fclib_global_rolling/H/nzmax", &nh, 1);
    h5_ints(f, "/fclib_global_rolling/H/i", Hi, nh);
    h5_ints(f, "/fclib_global_rolling/H/p", Hp, nh);
    h5_doubles(f, "/fclib_global_rolling/H/x", Hx, nh);
    h5_doubles(f, "/fclib_global_rolling/vectors/f", gf, 6);
    h5_doubles(f, "/fclib_global_rolling/vectors/w", gw, d);
    h5_doubles(f, "/fclib_global_rolling/vectors/mu", &mu, 1);
    h5_doubles(f, "/fclib_global_rolling/vectors/mu_r", &mur, 1);
    H5Fclose(f);
}

static void test_small_rolling(void **state)
{
    (void)state;
    for (g_roll_d = 3; g_roll_d <= 5; g_roll_d += 2) {
        const char *path = tmp_path("small_rolling.hdf5");
        make_small_rolling(path);
        cb_problem *p = NULL;
        cb_error e;
        int rc = read_fclib(path, &p, &e);
        if (rc != CB_OK)
            print_error("%s\n", e.text);
        assert_int_equal(rc, CB_OK);
        assert_int_equal(p->kind, g_roll_d == 5 ? CB_KIND_ROLLING3D : CB_KIND_ROLLING2D);
        check_small_global(p, g_roll_d);
        assert_true(p->mu[0] == 0.4 && p->mu_r[0] == 0.05);
        cb_problem_free(p);
    }
    g_roll_d = 5;
    static const mutation muts[] = {
        {"/fclib_global_rolling/vectors/mu_r", MUT_DOUBLES, 1, {0}, {-0.1}, "/fclib_global_rolling/vectors/mu_r"},
        {"/fclib_global_rolling/vectors/mu_r", MUT_DELETE, 0, {0}, {0}, "/fclib_global_rolling/vectors/mu_r"},
        {"/fclib_global_rolling/spacedim", MUT_INTS, 1, {4}, {0}, "/fclib_global_rolling/spacedim"},
        {"/fclib_global_rolling/G", MUT_GROUP, 0, {0}, {0}, "/fclib_global_rolling/G"},
        {"/fclib_global_rolling/H/i", MUT_INTS, 6, {0, 1, 2, 3, 4, 6}, {0}, "/fclib_global_rolling/H"},
        {"/fclib_global_rolling/M/x", MUT_DOUBLES, 6, {0}, {1, 1, 1, 1, 1, INFINITY}, "/fclib_global_rolling/M/x"},
    };
    run_mutations(muts, sizeof muts / sizeof muts[0], make_small_rolling);
    /* a forced kind without the rolling block is refused */
    const char *path = tmp_path("small_rolling.hdf5");
    make_small_rolling(path);
    cb_read_settings s;
    cb_read_settings_default(&s);
    s.force_kind = 1;
    s.kind = CB_KIND_COULOMB3D;
    cb_problem *p = NULL;
    cb_error e;
    cb_error_clear(&e);
    expect_input_error(cb_read_fclib(path, &s, &p, &e), p, &e, path, "kind");
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_tmp, sizeof g_tmp, "%s", cbt_tmpdir());
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* the test's own HDF5 writes probe for files */
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    static const char *const files[] = {"garbage.hdf5",      "garbage2.hdf5",    "broken.hdf5",
                                        "small_local.hdf5",  "small_force.hdf5", "mutated.hdf5",
                                        "bad_values.hdf5",   "small_global.hdf5", "small_rolling.hdf5"};
    cb_problem_free(g_spheres);
    g_spheres = NULL;
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++)
        remove(tmp_path(files[k]));
    rmdir(g_tmp);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data_files_load),
        cmocka_unit_test(test_child_read_same_bits),
        cmocka_unit_test(test_local_matches_libfclib),
        cmocka_unit_test(test_chute_hdf5_vs_dat),
        cmocka_unit_test(test_spheres_vs_siconos),
        cmocka_unit_test(test_garbage_with_signature),
        cmocka_unit_test(test_error_printing_restored),
        cmocka_unit_test(test_truncated_and_corrupted),
        cmocka_unit_test(test_small_local_layouts),
        cmocka_unit_test(test_large_local_layouts),
        cmocka_unit_test(test_force_kind),
        cmocka_unit_test(test_local_bad_values),
        cmocka_unit_test(test_local_mutations),
        cmocka_unit_test(test_streamed_bad_entries),
        cmocka_unit_test(test_small_global),
        cmocka_unit_test(test_small_rolling),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
