/* conebench benchmarks: the median of a sample, the one statistic the bench programs report
 * (with min and max). Header-only: the bench programs link no test-support object. */
#ifndef CONEBENCH_TESTS_BENCH_MEDIAN_H
#define CONEBENCH_TESTS_BENCH_MEDIAN_H

#include <stdlib.h>
#include <string.h>

#define CBB_MEDIAN_MAX 101 /* samples one median takes, at most */

static inline int cbb_by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of t[0..n), 1 ≤ n ≤ CBB_MEDIAN_MAX (even n: the mean of the middle two); t is left
 * as it was. */
static inline double cbb_median(const double *t, int n)
{
    double s[CBB_MEDIAN_MAX];
    memcpy(s, t, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cbb_by_value);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

#endif
