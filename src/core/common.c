/* conebench — errors, clocks, checked allocation, small helpers (finite check, sorted union). */
#include "conebench/common.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int vfail(cb_error *err, int code, const char *prefix, const char *fmt, va_list ap)
{
    if (err) {
        size_t k = (size_t)snprintf(err->text, sizeof err->text, "%s", prefix);
        if (k < sizeof err->text)
            vsnprintf(err->text + k, sizeof err->text - k, fmt, ap);
    }
    return code;
}

int cb_fail(cb_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, code, "", fmt, ap);
    va_end(ap);
    return code;
}

int cb_fail_at(cb_error *err, int code, const char *file, long line, const char *fmt, ...)
{
    char prefix[600];
    snprintf(prefix, sizeof prefix, "%s:%ld: ", file ? file : "?", line);
    va_list ap;
    va_start(ap, fmt);
    vfail(err, code, prefix, fmt, ap);
    va_end(ap);
    return code;
}

void cb_error_clear(cb_error *err)
{
    if (err)
        err->text[0] = '\0';
}

static double (*clock_hook)(void); /* tests only: cb_clock_override */

void cb_clock_override(double (*now)(void)) { clock_hook = now; }

/* clock in seconds (the test hook, when set, instead). */
static double clock_seconds(clockid_t clock)
{
    if (clock_hook)
        return clock_hook();
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double cb_now(void) { return clock_seconds(CLOCK_MONOTONIC); }

double cb_cpu_now(void) { return clock_seconds(CLOCK_THREAD_CPUTIME_ID); }

double cb_process_cpu_now(void) { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

int cb_mul_size(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return -1;
    *out = a * b;
    return 0;
}

void *cb_calloc(size_t count, size_t size)
{
    size_t bytes;
    if (cb_mul_size(count, size, &bytes) != 0)
        return NULL;
    return calloc(bytes ? count : 1, bytes ? size : 1);
}

void *cb_malloc_array(size_t count, size_t size)
{
    size_t bytes;
    if (cb_mul_size(count, size, &bytes) != 0)
        return NULL;
    return malloc(bytes ? bytes : 1);
}

char *cb_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

/* 1 when every x[i] is finite (not NaN, not ±∞). */
int cb_all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

int cb_sorted_union(const int *a, int na, const int *b, int nb, int shift, int *out)
{
    int i = 0, j = 0, n = 0, last = -1;
    while (i < na || j < nb) {
        int x = (j >= nb || (i < na && a[i] <= b[j]) ? a[i++] : b[j++]) >> shift;
        if (x != last) {
            if (out)
                out[n] = x;
            n++;
            last = x;
        }
    }
    return n;
}
