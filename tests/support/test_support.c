/* conebench tests — shared helpers. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

const char *cbt_tmpdir(void)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "/tmp/cbtest.XXXXXX");
    if (!mkdtemp(buf))
        return "/tmp";
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
