/* conebench tests — shared helpers. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conebench/io.h"
#include "conebench/problem.h"
#include "fileio.h"
#include "rng.h"
#include "base.h"

#if CB_HAVE_SICONOS
#include <FrictionContactProblem.h>
#include <NumericsMatrix.h>
#include <RollingFrictionContactProblem.h>
#include <fc3d_compute_error.h>
#include <rolling_fc3d_compute_error.h>
#endif

static int is_dir(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *cbt_data_dir(void)
{
    static int done = 0;
    static const char *dir = NULL;
    if (!done) {
        const char *env = getenv("CONEBENCH_DATA");
        if (env && *env && is_dir(env))
            dir = env;
        else if (is_dir("../shared/data"))
            dir = "../shared/data";
        if (!dir)
            fprintf(stderr, "note: Siconos data folder absent (../shared/data or $CONEBENCH_DATA):"
                            " data tests are skipped\n");
        done = 1;
    }
    return dir;
}

const char *cbt_data_path(const char *relative)
{
    static char buf[4096];
    const char *dir = cbt_data_dir();
    if (!dir)
        return NULL;
    snprintf(buf, sizeof buf, "%s/%s", dir, relative);
    return buf;
}

#if CB_HAVE_SICONOS
/* e = Siconos' natural-map residual of (p, W p + q), normalised by ‖q‖ (its own code). */
double cbt_siconos_error(const cb_problem *prob, const double *p, double tol)
{
    cb_problem *dn = NULL;
    assert_int_equal(cb_problem_to_dense(prob, &dn, NULL), CB_OK);
    size_t n = cb_problem_n(dn), nc = (size_t)dn->nc;
    double *W = malloc(n * n * sizeof(double)), *q = malloc(n * sizeof(double)),
           *mu = malloc(nc * sizeof(double)), *mur = malloc(nc * sizeof(double)),
           *z = malloc(n * sizeof(double)), *w = calloc(n, sizeof(double)), error = -1.0,
           nq = 0.0;
    assert_true(W && q && mu && mur && z && w);
    memcpy(W, dn->W, n * n * sizeof(double));
    memcpy(q, dn->q, n * sizeof(double));
    memcpy(mu, dn->mu, nc * sizeof(double));
    memcpy(mur, dn->mu_r, nc * sizeof(double));
    memcpy(z, p, n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        nq += q[i] * q[i];
    NumericsMatrix *M = NM_create_from_data(NM_DENSE, (int)n, (int)n, W); /* owns W */
    if (dn->kind == CB_KIND_ROLLING3D) {
        RollingFrictionContactProblem *sp =
            rollingFrictionContactProblem_new_with_data(5, (int)nc, M, q, mu, mur);
        rolling_fc3d_compute_error(sp, z, w, tol, NULL, sqrt(nq), &error);
        rollingFrictionContactProblem_free(sp); /* frees M, q, mu, mu_r */
    } else {
        assert_int_equal(dn->kind, CB_KIND_COULOMB3D);
        free(mur);
        FrictionContactProblem *fp = frictionContactProblem_new_with_data(3, (int)nc, M, q, mu);
        fc3d_compute_error(fp, z, w, tol, NULL, sqrt(nq), &error);
        frictionContactProblem_free(fp);
    }
    free(z);
    free(w);
    cb_problem_free(dn);
    return error;
}
#else
double cbt_siconos_error(const cb_problem *prob, const double *p, double tol)
{
    (void)prob, (void)p, (void)tol;
    return NAN;
}
#endif

int cbt_quick(void)
{
    const char *q = getenv("CONEBENCH_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

long cbt_scale(long n, long div)
{
    if (!cbt_quick())
        return n;
    long m = n / div;
    return m < 1 ? 1 : m;
}

double cbt_reldiff(double a, double b, double floor)
{
    double s = fmax(fmax(fabs(a), fabs(b)), floor);
    return fabs(a - b) / s;
}

double cbt_vec_reldiff(const double *a, const double *b, size_t n, double floor)
{
    double s = floor, m = 0;
    for (size_t i = 0; i < n; i++)
        s = fmax(s, fmax(fabs(a[i]), fabs(b[i])));
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs(a[i] - b[i]));
    return m / s;
}

int cbt_bsr_symmetric_bits(const cb_problem *p)
{
    const cb_bsr *B = &p->bsr;
    size_t d = (size_t)p->d;
    for (int a = 0; a < p->nc; a++)
        for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++) {
            int b = B->col[k], t = B->row_ptr[b];
            while (t < B->row_ptr[b + 1] && B->col[t] != a) /* the mirror, by a plain scan */
                t++;
            if (t == B->row_ptr[b + 1])
                return 0;
            for (size_t i = 0; i < d; i++)
                for (size_t j = 0; j < d; j++)
                    if (memcmp(&B->val[k * d * d + i + j * d], &B->val[t * d * d + j + i * d],
                               sizeof(double)))
                        return 0;
        }
    return 1;
}

#define TMPDIR_MAX 256 /* temporary directories one test program may make */
static char tmp_made[TMPDIR_MAX][64];
static int tmp_count;
static pid_t tmp_owner;

/* At exit of the process that made them (not of a forked child): every directory cbt_tmpdir
 * made, with what the tests wrote in it, unless CONEBENCH_KEEP_TMP is set (to look at them). */
static void remove_tmpdirs(void)
{
    const char *keep = getenv("CONEBENCH_KEEP_TMP");
    if (getpid() != tmp_owner || (keep && *keep))
        return;
    for (int i = 0; i < tmp_count; i++)
        cb_remove_tree(tmp_made[i], 0);
}

const char *cbt_tmpdir(void)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "/tmp/cbtest.XXXXXX");
    if (!mkdtemp(buf))
        return "/tmp";
    if (tmp_count == 0) {
        tmp_owner = getpid();
        atexit(remove_tmpdirs);
    }
    if (tmp_count < TMPDIR_MAX)
        snprintf(tmp_made[tmp_count++], sizeof tmp_made[0], "%s", buf);
    return buf;
}

cbt_run_result cbt_run(const cb_solver *sv, const cb_problem *prob, const cb_settings *s,
                       const double *warm)
{
    cbt_run_result r;
    memset(&r, 0, sizeof r);
    cb_solution sol;
    assert_int_equal(cb_solution_alloc(prob, &sol, NULL), CB_OK);
    if (warm)
        memcpy(sol.p, warm, sol.n * sizeof(double));
    r.rc = cb_solve(sv, prob, s, &sol, &r.info, &r.err);
    r.p = sol.p;
    sol.p = NULL;
    cb_solution_free(&sol);
    return r;
}

void cbt_run_free(cbt_run_result *r)
{
    if (!r)
        return;
    cb_info_free(&r->info);
    free(r->p);
    r->p = NULL;
}

static double fake_step;
static long fake_reads;

static double fake_now(void)
{
    return fake_step * (double)fake_reads++;
}

void cbt_fake_clock(double step)
{
    fake_step = step;
    fake_reads = 0;
    cb_clock_override(step > 0 ? fake_now : NULL);
}

long cbt_fake_clock_reads(void) { return fake_reads; }

/* In the child: stdout and stderr to the two files, then exec the binary. */
static void cli_child(const char *bin, const char *const *args, const char *out, const char *err)
{
    const char *argv[64];
    int n = 0;
    argv[n++] = bin;
    for (int i = 0; args[i] && n < 63; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    int fo = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = open(err ? err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
        _exit(126);
    execv(bin, (char *const *)argv);
    _exit(127);
}

int cbt_cli(const char *const *args, const char *out_path, const char *err_path)
{
    const char *bin = getenv("CONEBENCH_BIN");
    if (!bin || !*bin) {
        print_message("skipped: CONEBENCH_BIN not set (make test sets it)\n");
        skip();
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        cli_child(bin, args, out_path, err_path);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

char *cbt_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = NULL;
    size_t cap = 0, len = 0, n;
    do {
        if (len + 4096 + 1 > cap) {
            cap = 2 * cap + 8192;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
    } while (n > 0);
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* A global problem (M v = H p + f, y = Hᵀ v + w) of nb bodies with 6 velocities each plus
 * `extra` velocities no contact touches (as in the Siconos Spheres file), M block diagonal and
 * positive definite (random A Aᵀ + I per body; plus skew·(B − Bᵀ) when skew > 0: the Siconos
 * GRFC3D Chute M is not symmetric either), nc contacts between bodies a % nb and (a + 1) % nb
 * (the ground for every third) with random H columns, condensed (cb_condense_global). */
cb_problem *cbt_global_problem(cb_kind kind, int nb, int extra, int nc, double skew,
                               uint64_t seed)
{
    cb_rng r;
    cb_rng_seed(&r, seed);
    int d = cb_kind_dim(kind), ndof = 6 * nb + extra, n = nc * d, k = 0;
    cb_global_problem g;
    memset(&g, 0, sizeof g);
    g.kind = kind, g.ndof = ndof, g.nc = nc;
    int mnz = 36 * nb + extra, hnz = n * 12;
    g.M = (cb_triplets){ndof, ndof, mnz, calloc(mnz, sizeof(int)), calloc(mnz, sizeof(int)),
                        calloc(mnz, sizeof(double))};
    g.H = (cb_triplets){ndof, n, 0, calloc(hnz, sizeof(int)), calloc(hnz, sizeof(int)),
                        calloc(hnz, sizeof(double))};
    g.f = calloc(ndof, sizeof(double)), g.w = calloc(n, sizeof(double));
    g.mu = calloc(nc, sizeof(double)), g.mu_r = calloc(nc, sizeof(double));
    g.mu_s = calloc(nc, sizeof(double));
    for (int b = 0; b < nb; b++) {
        double A[36], B[36];
        for (int i = 0; i < 36; i++)
            A[i] = cb_rng_normal(&r), B[i] = cb_rng_normal(&r);
        for (int j = 0; j < 6; j++)
            for (int i = 0; i < 6; i++, k++) {
                double m = (i == j) + skew * (B[i + 6 * j] - B[j + 6 * i]);
                for (int l = 0; l < 6; l++)
                    m += A[i + 6 * l] * A[j + 6 * l];
                g.M.i[k] = 6 * b + i, g.M.j[k] = 6 * b + j, g.M.x[k] = m;
            }
    }
    for (int e = 0; e < extra; e++, k++)
        g.M.i[k] = g.M.j[k] = 6 * nb + e, g.M.x[k] = 1.0 + e;
    for (int a = 0; a < nc; a++) {
        int bodies[2] = {a % nb, a % 3 == 2 ? -1 : (a + 1) % nb};
        for (int c = 0; c < d; c++)
            for (int s2 = 0; s2 < 2; s2++)
                for (int i = 0; bodies[s2] >= 0 && i < 6; i++, g.H.nnz++) {
                    g.H.i[g.H.nnz] = 6 * bodies[s2] + i, g.H.j[g.H.nnz] = a * d + c;
                    g.H.x[g.H.nnz] = cb_rng_normal(&r);
                }
        g.mu[a] = 0.5, g.mu_r[a] = cb_kind_nblocks(kind) >= 2 ? 0.1 : 0.0;
    }
    for (int i = 0; i < ndof; i++)
        g.f[i] = cb_rng_normal(&r);
    for (int i = 0; i < n; i++)
        g.w[i] = cb_rng_normal(&r);
    cb_problem *prob = NULL;
    cb_error err = {{0}};
    if (cb_condense_global(&g, &prob, &err) != CB_OK)
        fail_msg("cb_condense_global: %s", err.text);
    cb_global_problem_free(&g);
    return prob;
}

int cbt_have_program(const char *name)
{
    const char *path = getenv("PATH");
    char exe[4096];
    for (const char *p = path ? path : ""; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(exe, sizeof exe, "%.*s/%s", (int)(n ? n : 1), n ? p : ".", name);
        if (access(exe, X_OK) == 0)
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}
