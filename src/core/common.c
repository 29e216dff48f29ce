/* conebench — errors, clocks, checked allocation, small helpers (finite check, sorted union). */
#include "conebench/common.h"
#include "base.h"

#include <limits.h>
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

/* Longest name the edit distance is computed for (longer ones are never suggested). */
#define CB_SUGGEST_MAX_LEN 64

/* Optimal string alignment distance between a and b (Damerau–Levenshtein without repeated
 * edits of one substring): d(i,j) = min(d(i-1,j)+1, d(i,j-1)+1, d(i-1,j-1)+[a_i != b_j],
 * d(i-2,j-2)+1 when a_i a_{i-1} = b_{j-1} b_j). */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > CB_SUGGEST_MAX_LEN || lb > CB_SUGGEST_MAX_LEN)
        return INT_MAX;
    int d[CB_SUGGEST_MAX_LEN + 1][CB_SUGGEST_MAX_LEN + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            best = d[i - 1][j] + 1 < best ? d[i - 1][j] + 1 : best;
            best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

void cb_suggest_init(cb_suggest *g, const char *name)
{
    g->name = name ? name : "";
    g->best = NULL;
    g->dist = INT_MAX;
}

void cb_suggest_add(cb_suggest *g, const char *candidate)
{
    if (!candidate)
        return;
    int d = edit_distance(g->name, candidate);
    if (d < g->dist) {
        g->dist = d;
        g->best = candidate;
    }
}

const char *cb_suggest_best(const cb_suggest *g)
{
    int len = (int)strlen(g->name), limit = 1 + len / 4;
    limit = limit > 3 ? 3 : limit;
    return g->best && g->dist > 0 && g->dist <= limit && g->dist < len ? g->best : NULL;
}

const char *cb_suggest_text(const cb_suggest *g, char *buf, size_t len)
{
    const char *best = cb_suggest_best(g);
    if (best)
        snprintf(buf, len, " (did you mean '%s'?)", best);
    else if (len)
        buf[0] = '\0';
    return buf;
}
