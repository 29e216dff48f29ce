/* conebench tests — shared helpers (cmocka). */
#ifndef CONEBENCH_TEST_SUPPORT_H
#define CONEBENCH_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "conebench/solver.h"
#include "base.h"

/* Directory of the Siconos data (../shared/data or $CONEBENCH_DATA), or NULL when absent.
 * Prints once why it is absent. */
const char *cbt_data_dir(void);
/* Full path of a data file (static buffer), or NULL when the data folder is absent. */
const char *cbt_data_path(const char *relative);
/* Skip the current cmocka test when the data folder is absent, saying so. */
#define CBT_REQUIRE_DATA()                                                                   \
    do {                                                                                     \
        if (!cbt_data_dir()) {                                                               \
            print_message("skipped: Siconos data folder absent (../shared/data or "          \
                          "$CONEBENCH_DATA)\n");                                             \
            skip();                                                                          \
        }                                                                                    \
    } while (0)
/* Built with the Siconos adapters (the Makefile defines CB_HAVE_SICONOS; make SICONOS=0 builds
 * without them and without Siconos' headers and library). Code that includes a Siconos header
 * sits under #if CB_HAVE_SICONOS. */
#ifndef CB_HAVE_SICONOS
#define CB_HAVE_SICONOS 1
#endif
/* Skip the current cmocka test, saying so, when this conebench has no Siconos adapters (the
 * test calls Siconos or a siconos-* solver). */
#define CBT_REQUIRE_SICONOS()                                                                \
    do {                                                                                     \
        if (!cb_solver_built_with_siconos()) {                                               \
            print_message("skipped: built without Siconos (make SICONOS=0)\n");              \
            skip();                                                                          \
        }                                                                                    \
    } while (0)
/* The stand-in for a test whose code needs Siconos' headers when they are left out: a cmocka
 * test NAME that skips, saying so. */
#define CBT_SICONOS_ONLY_TEST(name)                                                          \
    static void name(void **state)                                                           \
    {                                                                                        \
        (void)state;                                                                         \
        CBT_REQUIRE_SICONOS();                                                               \
    }
/* Siconos 4.4's own error of the reaction p (fc3d_compute_error / rolling_fc3d_compute_error on
 * a dense copy, norm = ‖q‖, tolerance tol) for a rolling3d or coulomb3d problem: a second
 * opinion on the judge. NaN when built without Siconos (cb_solver_built_with_siconos() = 0). */
double cbt_siconos_error(const cb_problem *prob, const double *p, double tol);
/* 1 when CONEBENCH_QUICK is set (sanitizer/valgrind runs use fewer random samples). */
int cbt_quick(void);
/* n, or n/div when quick (at least 1). */
long cbt_scale(long n, long div);
/* Relative difference |a−b| / max(|a|, |b|, floor). */
double cbt_reldiff(double a, double b, double floor);
/* Max over i of |a_i − b_i| / max(‖a‖∞, ‖b‖∞, floor). */
double cbt_vec_reldiff(const double *a, const double *b, size_t n, double floor);
/* 1 when the BSR W of p stores every block's mirror and W_ab = W_baᵀ bit for bit. */
int cbt_bsr_symmetric_bits(const cb_problem *p);
/* A fresh temporary directory under /tmp (static buffer), removed with its contents when the
 * test program exits (kept when CONEBENCH_KEEP_TMP is set). */
const char *cbt_tmpdir(void);

/* A condensed global problem with its global form (test_support.c: nb bodies of 6 velocities,
 * `extra` velocities no contact touches, M block diagonal positive definite, plus skew·(B − Bᵀ)
 * when skew > 0; nc contacts with random H columns). Aborts the test on failure. */
cb_problem *cbt_global_problem(cb_kind kind, int nb, int extra, int nc, double skew,
                               uint64_t seed);

/* One solver run through cb_solve: the judged info, the return code and the reaction p (owned;
 * free with cbt_run_free). */
typedef struct {
    cb_info info;
    double *p;
    int rc;
    cb_error err;
} cbt_run_result;

/* Solve prob with sv from p = 0 (or from warm when not NULL) with settings s; keeps p. */
cbt_run_result cbt_run(const cb_solver *sv, const cb_problem *prob, const cb_settings *s,
                       const double *warm);
void cbt_run_free(cbt_run_result *r);

/* A fake clock for time-limit tests (cb_clock_override): from 0, cb_now and cb_cpu_now advance
 * by `step` seconds at every read, so a limit of L s allows at most ceil(L / step) reads on any
 * machine. step <= 0 restores the real clocks. */
void cbt_fake_clock(double step);
/* Reads of the fake clock since cbt_fake_clock. */
long cbt_fake_clock_reads(void);

/* Run `$CONEBENCH_BIN ARGS...` (args: NULL-terminated, without the program) with stdout and
 * stderr sent to out_path and err_path (NULL: /dev/null); returns its exit status (-1 when it
 * did not exit normally). Skips the current test, saying so, when CONEBENCH_BIN is not set
 * (make test sets it). Library tests check CLI behaviour through this, never by linking the
 * CLI's code. */
int cbt_cli(const char *const *args, const char *out_path, const char *err_path);
/* The whole file as a NUL-terminated string (malloc'd, caller frees); fails the test when it
 * cannot be read. */
char *cbt_slurp(const char *path);
/* 1 when an executable NAME is in one of $PATH's folders (no shell). */
int cbt_have_program(const char *name);

#endif
