/* conebench tests — allocation failure, in the style of CSparse's Tcov: for each native solver
 * and three problems (a random rolling3d multibody problem in BSR storage, a random coulomb3d
 * SPD problem in dense storage, a coulomb3d problem in global form), one cb_solve call is run
 * once to count its allocations (N), then N more times with the k-th allocation failing
 * (k = 1..N). Each run must return CB_ERR_NOMEM and leave no block of its own allocated; no
 * run may crash (make sanitize / make valgrind run this program under ASan / memcheck too,
 * with CONEBENCH_QUICK: there only some of the later allocations fail, see QUICK_ALL).
 *
 * The hook: this program is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,
 * --wrap=free (Makefile), so every malloc/calloc/realloc/free of conebench's code goes through
 * the __wrap_ functions below; SuiteSparse's own allocations (KLU, CHOLMOD) go through the
 * function pointers of SuiteSparse_config, which are pointed at the same functions. Not
 * counted: allocations inside LAPACKE and OpenBLAS (shared libraries calling libc directly). */
#include "test_support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <suitesparse/SuiteSparse_config.h>

#include "conebench/generate.h"
#include "conebench/io.h"
#include "io_internal.h"
#include <fclib.h>
#include <unistd.h>
#include "base.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *ptr, size_t size);
void __real_free(void *ptr);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *ptr, size_t size);
void __wrap_free(void *ptr);

/* CONEBENCH_QUICK (make sanitize, make valgrind): the first QUICK_ALL allocations of a solve
 * (its setup and first iteration) each fail, then every QUICK_STRIDE-th. */
#define QUICK_ALL 300
#define QUICK_STRIDE 37

/* Blocks allocated while armed and not yet freed, with their sizes: an open-addressing set. */
#define LIVE_SLOTS (1u << 16)
#define TOMBSTONE ((void *)1)
static struct {
    void *p;
    size_t size;
} live[LIVE_SLOTS];
static long nlive;

static struct {
    int armed;    /* count (and maybe fail) allocations */
    long count;   /* allocations seen while armed */
    long fail_at; /* the allocation (1-based) that fails; 0: none */
    int shrink;   /* the failed allocation was a realloc shrinking a block */
} hook;

static size_t slot_of(const void *p) { return (size_t)(((uintptr_t)p >> 4) * 2654435761u) % LIVE_SLOTS; }

static void live_add(void *p, size_t size)
{
    size_t i = slot_of(p);
    while (live[i].p && live[i].p != TOMBSTONE)
        i = (i + 1) % LIVE_SLOTS;
    live[i].p = p;
    live[i].size = size;
    if (++nlive >= (long)(LIVE_SLOTS / 2))
        abort(); /* the set is sized for small problems */
}

/* The slot of p in the set, or LIVE_SLOTS when p is not there. */
static size_t live_find(const void *p)
{
    for (size_t i = slot_of(p); live[i].p; i = (i + 1) % LIVE_SLOTS)
        if (live[i].p == p)
            return i;
    return LIVE_SLOTS;
}

static void live_remove(void *p)
{
    size_t i = live_find(p);
    if (i < LIVE_SLOTS) {
        live[i].p = TOMBSTONE;
        nlive--;
    }
}

/* 1 when this allocation is to fail (counting it when armed). */
static int fail_now(void) { return hook.armed && ++hook.count == hook.fail_at; }

void *__wrap_malloc(size_t size)
{
    if (fail_now())
        return NULL;
    void *p = __real_malloc(size);
    if (p && hook.armed)
        live_add(p, size);
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    if (fail_now())
        return NULL;
    void *p = __real_calloc(count, size);
    if (p && hook.armed)
        live_add(p, count * size);
    return p;
}

void *__wrap_realloc(void *ptr, size_t size)
{
    if (fail_now()) {
        size_t i = ptr ? live_find(ptr) : LIVE_SLOTS;
        hook.shrink = i < LIVE_SLOTS && size <= live[i].size;
        return NULL; /* ptr stays valid, as realloc leaves it */
    }
    void *p = __real_realloc(ptr, size);
    if (p && ptr)
        live_remove(ptr);
    if (p && hook.armed)
        live_add(p, size);
    return p;
}

void __wrap_free(void *ptr)
{
    if (ptr)
        live_remove(ptr);
    __real_free(ptr);
}

static void arm(long fail_at)
{
    memset(live, 0, sizeof live);
    nlive = 0;
    hook.count = 0;
    hook.fail_at = fail_at;
    hook.shrink = 0;
    hook.armed = 1;
}

/* The solver options of every run below (none unless a test sets them). */
static const cb_option *run_opt;
static int run_nopt;

/* One cb_solve of sv on prob from p = 0 with the fail_at-th allocation failing (0: none);
 * returns its code, the allocation count and the blocks it left allocated (after
 * cb_info_free); p_out (n entries) receives the reaction. */
static int solve_failing(const cb_solver *sv, const cb_problem *prob, long fail_at,
                         long *count, long *leaked, cb_info *info_out, double *p_out)
{
    cb_settings s;
    cb_settings_default(&s);
    s.max_iter = 200;
    s.options = run_opt, s.noptions = run_nopt;
    s.trace = 1; /* the trace's allocations too */
    cb_solution sol;
    assert_int_equal(cb_solution_alloc(prob, &sol, NULL), CB_OK);
    cb_info info;
    cb_error err;
    arm(fail_at);
    int rc = cb_solve(sv, prob, &s, &sol, &info, &err);
    hook.armed = 0;
    cb_info_free(&info);
    *count = hook.count;
    *leaked = nlive;
    *info_out = info;
    memcpy(p_out, sol.p, sol.n * sizeof *p_out);
    cb_solution_free(&sol);
    return rc;
}

/* Every allocation of one solve of sv on prob fails in turn: CB_ERR_NOMEM, nothing left
 * allocated. Returns the number of allocations of the solve (0 when sv does not take prob). */
static long fail_each(const cb_solver *sv, const cb_problem *prob, const char *label)
{
    size_t n = cb_problem_n(prob);
    double *p_ref = cb_malloc_array(n, sizeof *p_ref), *p = cb_malloc_array(n, sizeof *p);
    assert_non_null(p_ref);
    assert_non_null(p);
    long count = 0, leaked = 0, c, absorbed = 0;
    cb_info ref, info;
    int rc = solve_failing(sv, prob, 0, &count, &leaked, &ref, p_ref);
    if (rc == CB_ERR_INPUT && ref.status == CB_STATUS_UNSUPPORTED)
        count = 0; /* this solver does not take this storage */
    else {
        assert_int_equal(rc, CB_OK);
        assert_int_equal(leaked, 0);
        assert_true(count > 0);
    }
    for (long k = 1; k <= count; k += cbt_quick() && k >= QUICK_ALL ? QUICK_STRIDE : 1) {
        rc = solve_failing(sv, prob, k, &c, &leaked, &info, p);
        if ((rc != CB_ERR_NOMEM && !hook.shrink) || leaked != 0)
            print_error("%s on %s: allocation %ld of %ld failed: rc %d, %ld blocks leaked\n",
                        sv->name, label, k, count, rc, leaked);
        assert_int_equal(leaked, 0);
        if (rc == CB_OK && hook.shrink) {
            /* Absorbed: SuiteSparse_realloc reports a failed shrink as a success and keeps the
             * larger block (KLU trims its LU factors this way at the end of klu_factor), so
             * the run goes on with the same numbers: it must end exactly as the reference. */
            assert_int_equal(info.status, ref.status);
            assert_int_equal(info.solved, ref.solved);
            assert_int_equal(info.iterations, ref.iterations);
            assert_memory_equal(p, p_ref, n * sizeof *p);
            absorbed++;
            continue;
        }
        assert_int_equal(rc, CB_ERR_NOMEM);
    }
    if (absorbed)
        print_message("%s on %s: %ld failed shrinks absorbed (SuiteSparse_realloc)\n", sv->name,
                      label, absorbed);
    free(p_ref);
    free(p);
    return count;
}

static const char *const native[] = {"nsgs", "psor", "pfp", "eg", "apgd", "admm", "nsn", "ipm",
                                     "ipm+nsn", "nsn+nsgs"};
#define NNATIVE (sizeof native / sizeof *native)

static void fail_all_solvers(cb_problem *prob, const char *label)
{
    SuiteSparse_config.malloc_func = __wrap_malloc;
    SuiteSparse_config.calloc_func = __wrap_calloc;
    SuiteSparse_config.realloc_func = __wrap_realloc;
    SuiteSparse_config.free_func = __wrap_free;
    for (size_t i = 0; i < NNATIVE; i++) {
        const cb_solver *sv = cb_solver_find(native[i]);
        assert_non_null(sv);
        long n = fail_each(sv, prob, label);
        print_message("%-5s on %s: %ld allocations, each failed in turn\n", native[i], label, n);
    }
    cb_problem_free(prob);
}

static cb_problem *random_problem(cb_kind kind, cb_gen_matrix matrix, cb_storage storage,
                                  int nc, uint64_t seed)
{
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = kind;
    g.matrix = matrix;
    g.storage = storage;
    g.nc = nc;
    g.seed = seed;
    cb_problem *prob = NULL;
    assert_int_equal(cb_generate_random(&g, &prob, NULL, NULL, NULL), CB_OK);
    return prob;
}

static void test_rolling3d_multibody(void **state)
{
    (void)state;
    fail_all_solvers(random_problem(CB_KIND_ROLLING3D, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 6, 3),
                     "rolling3d multibody (BSR)");
}

static void test_coulomb3d_spd(void **state)
{
    (void)state;
    fail_all_solvers(random_problem(CB_KIND_COULOMB3D, CB_GEN_SPD, CB_STORAGE_DENSE, 6, 5),
                     "coulomb3d SPD (dense)");
}

static void test_coulomb3d_global(void **state)
{
    (void)state;
    fail_all_solvers(cbt_global_problem(CB_KIND_COULOMB3D, 3, 2, 5, 0.0, 9),
                     "coulomb3d global");
}

/* One workspace's life (solver.h) on the BSR problem prob with the fail_at-th allocation failing
 * (0: none): cb_setup, a solve, new q and W values, a solve, and, when that second solve ran out
 * of memory (its update; *retried = 1), the same solve again with nothing failing, which must
 * work (the workspace is still usable); cb_cleanup. Returns the first failing code; p_out gets
 * the last answer. */
static int ws_failing(const cb_solver *sv, const cb_problem *prob, long fail_at, long *count,
                      long *leaked, double *p_out, int *retried)
{
    cb_settings s;
    cb_settings_default(&s);
    s.max_iter = 200;
    s.options = run_opt, s.noptions = run_nopt;
    cb_solution sol;
    assert_int_equal(cb_solution_alloc(prob, &sol, NULL), CB_OK);
    size_t n = cb_problem_n(prob), nw = (size_t)prob->bsr.nnzb * prob->d * prob->d;
    cb_info info = {0};
    cb_error err;
    cb_workspace *ws = NULL;
    *retried = 0;
    arm(fail_at);
    int rc = cb_setup(&ws, sv, prob, &s, &err), again = CB_OK;
    if (rc == CB_OK && (rc = cb_solve_ws(ws, &sol, &info, &err)) == CB_OK) {
        cb_info_free(&info);
        rc = cb_update_q(ws, prob->q, n, &err);
        if (rc == CB_OK)
            rc = cb_update_W(ws, prob->bsr.val, nw, &err);
        if (rc == CB_OK && (rc = cb_solve_ws(ws, &sol, &info, &err)) == CB_ERR_NOMEM) {
            hook.fail_at = 0; /* the start is still the first answer */
            cb_info_free(&info);
            again = cb_solve_ws(ws, &sol, &info, &err);
            *retried = 1;
        }
    }
    cb_info_free(&info);
    cb_cleanup(ws);
    hook.armed = 0;
    assert_int_equal(again, CB_OK);
    *count = hook.count;
    *leaked = nlive;
    memcpy(p_out, sol.p, n * sizeof *p_out);
    cb_solution_free(&sol);
    return rc;
}

/* Every allocation of sv's workspace life on prob fails in turn: CB_ERR_NOMEM from the call
 * that ran out, nothing left allocated, and a workspace whose update ran out still solves, to
 * the bits of the run where nothing failed. */
static void ws_fail_each(const cb_solver *sv, const cb_problem *prob, double *p_ref, double *p)
{
    size_t n = cb_problem_n(prob);
    long count, leaked, c;
    int retried, nretried = 0;
    assert_int_equal(ws_failing(sv, prob, 0, &count, &leaked, p_ref, &retried), CB_OK);
    assert_int_equal(leaked, 0);
    for (long k = 1; k <= count; k += cbt_quick() && k >= QUICK_ALL ? QUICK_STRIDE : 1) {
        int rc = ws_failing(sv, prob, k, &c, &leaked, p, &retried);
        if ((rc != CB_ERR_NOMEM && !hook.shrink) || leaked != 0)
            print_error("%s workspace: allocation %ld of %ld failed: rc %d, %ld leaked\n",
                        sv->name, k, count, rc, leaked);
        assert_int_equal(leaked, 0);
        assert_true(rc == CB_ERR_NOMEM || hook.shrink);
        if (retried || (rc == CB_OK && hook.shrink))
            assert_memory_equal(p, p_ref, n * sizeof *p);
        nretried += retried;
    }
    print_message("%-5s workspace: %ld allocations, each failed in turn (%d in an update, "
                  "solved again after)\n", sv->name, count, nretried);
}

/* ws_fail_each for every native solver on a multibody BSR problem. */
static void test_workspace(void **state)
{
    (void)state;
    cb_problem *prob = random_problem(CB_KIND_ROLLING3D, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 6, 3);
    size_t n = cb_problem_n(prob);
    double *p_ref = cb_malloc_array(n, sizeof *p_ref), *p = cb_malloc_array(n, sizeof *p);
    assert_non_null(p_ref);
    assert_non_null(p);
    for (size_t i = 0; i < NNATIVE; i++)
        ws_fail_each(cb_solver_find(native[i]), prob, p_ref, p);
    free(p_ref);
    free(p);
    cb_problem_free(prob);
}

/* nsn's small path (at most 20 contacts) allocates nothing in a solve after its setup, at one
 * thread and at two (BENCHMARKS.md, "small problems"): a workspace's second solve, from zero
 * again, counted allocation by allocation; both judged solved. */
static void test_small_solve_allocates_nothing(void **state)
{
    (void)state;
    static const cb_kind kinds[] = {CB_KIND_COULOMB2D, CB_KIND_COULOMB3D, CB_KIND_ROLLING3D};
    for (size_t k = 0; k < 2 * sizeof kinds / sizeof *kinds; k++)
        for (int threads = 1; threads <= 2; threads++) {
            cb_storage storage = k % 2 ? CB_STORAGE_BSR : CB_STORAGE_DENSE;
            cb_problem *prob = random_problem(kinds[k / 2], CB_GEN_MULTIBODY, storage, 12, 5);
            cb_settings s;
            cb_settings_default(&s);
            s.threads = threads;
            cb_workspace *ws = NULL;
            cb_solution sol = {0};
            cb_info info = {0};
            assert_int_equal(cb_solution_alloc(prob, &sol, NULL), CB_OK);
            assert_int_equal(cb_setup(&ws, cb_solver_find("nsn"), prob, &s, NULL), CB_OK);
            assert_int_equal(cb_solve_ws(ws, &sol, &info, NULL), CB_OK);
            assert_int_equal(info.status, CB_STATUS_CONVERGED);
            cb_info_free(&info);
            assert_int_equal(cb_warm_start(ws, NULL, 0, NULL), CB_OK);
            arm(0);
            int rc = cb_solve_ws(ws, &sol, &info, NULL);
            hook.armed = 0;
            assert_int_equal(rc, CB_OK);
            assert_int_equal(info.status, CB_STATUS_CONVERGED);
            cb_judgement j;
            assert_int_equal(cb_judge(prob, sol.p, s.tol, NULL, &j, NULL), CB_OK);
            assert_true(j.solved);
            print_message("%-9s nc 12 %s, %d thread(s): %ld allocations in the second solve\n",
                          cb_kind_name(kinds[k / 2]), k % 2 ? "BSR" : "dense", threads,
                          hook.count);
            assert_int_equal(hook.count, 0);
            cb_info_free(&info);
            cb_solution_free(&sol);
            cb_cleanup(ws);
            cb_problem_free(prob);
        }
}

/* apgd with W's half (half=on: its copy, strips and spill allocated at setup and again at each
 * update of W): a solve and a workspace's life, each allocation failing in turn. */
static void test_apgd_half(void **state)
{
    (void)state;
    static const cb_option on[] = {{"half", "on"}};
    cb_problem *prob = random_problem(CB_KIND_ROLLING3D, CB_GEN_MULTIBODY, CB_STORAGE_BSR, 6, 3);
    size_t n = cb_problem_n(prob);
    double *p_ref = cb_malloc_array(n, sizeof *p_ref), *p = cb_malloc_array(n, sizeof *p);
    assert_non_null(p_ref);
    assert_non_null(p);
    run_opt = on, run_nopt = 1;
    long count = fail_each(cb_solver_find("apgd"), prob, "rolling3d multibody, half=on");
    print_message("apgd half=on: %ld allocations, each failed in turn\n", count);
    ws_fail_each(cb_solver_find("apgd"), prob, p_ref, p);
    run_opt = NULL, run_nopt = 0;
    free(p_ref);
    free(p);
    cb_problem_free(prob);
}

/* Read the FCLIB file at path in this process (cb_read_fclib) with the fail_at-th allocation
 * failing; returns its code, the allocation count and the blocks left allocated. */
static int read_failing(const char *path, long fail_at, long *count, long *leaked)
{
    cb_problem *p = NULL;
    cb_error err;
    arm(fail_at);
    int rc = cb_read_fclib(path, NULL, &p, &err);
    cb_problem_free(p);
    hook.armed = 0;
    *count = hook.count;
    *leaked = nlive;
    return rc;
}

/* The FCLIB reader's conversions into BSR (io_fclib.c): a compressed-column W whose block
 * pattern is not symmetric (compressed_to_bsr, then transpose_copy) and sorted triplets (as
 * cb_write_fclib writes them), each allocation failing in turn: CB_ERR_NOMEM, nothing left
 * allocated (libfclib's and HDF5's own allocations are not counted: shared libraries). */
static void test_fclib_read(void **state)
{
    (void)state;
    char dir[] = "/tmp/cb_alloc_fclibXXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    /* W 4×4 by columns, coulomb2d: blocks (0, 0), (1, 0), (1, 1); block (0, 1) not stored */
    int p[5] = {0, 2, 4, 5, 6}, idx[6] = {0, 2, 1, 3, 2, 3};
    double x[6] = {4, 0.5, 5, 0.25, 6, 7}, q[4] = {-1, 0.5, 0.2, 0.1}, mu[2] = {0.3, 0.4};
    struct fclib_matrix W = {6, 4, 4, p, idx, x, -1, NULL};
    struct fclib_local L = {&W, NULL, NULL, mu, q, NULL, 2, NULL};
    cb_problem *gen = NULL;
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/w%d.hdf5", dir, k);
        if (k == 0) {
            assert_int_equal(fclib_write_local(&L, path), 1);
        } else {
            cb_random_settings rs;
            cb_random_settings_default(&rs);
            rs.kind = CB_KIND_ROLLING3D, rs.nc = 6, rs.seed = 3, rs.storage = CB_STORAGE_BSR;
            assert_int_equal(cb_generate_random(&rs, &gen, NULL, NULL, NULL), CB_OK);
            assert_int_equal(cb_write_problem_as(path, gen, CB_FORMAT_FCLIB, NULL), CB_OK);
        }
        long count = 0, leaked = 0, c;
        assert_int_equal(read_failing(path, 0, &count, &leaked), CB_OK);
        assert_int_equal(leaked, 0);
        for (long f = 1; f <= count; f++) {
            int rc = read_failing(path, f, &c, &leaked);
            if (rc != CB_ERR_NOMEM || leaked != 0)
                print_error("%s: allocation %ld of %ld failed: rc %d, %ld leaked\n", path, f,
                            count, rc, leaked);
            assert_int_equal(rc, CB_ERR_NOMEM);
            assert_int_equal(leaked, 0);
        }
        print_message("FCLIB read (%s): %ld allocations, each failed in turn\n",
                      k ? "sorted triplets" : "compressed columns", count);
        remove(path);
    }
    cb_problem_free(gen);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rolling3d_multibody),
        cmocka_unit_test(test_coulomb3d_spd),
        cmocka_unit_test(test_coulomb3d_global),
        cmocka_unit_test(test_workspace),
        cmocka_unit_test(test_small_solve_allocates_nothing),
        cmocka_unit_test(test_apgd_half),
        cmocka_unit_test(test_fclib_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
