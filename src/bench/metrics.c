/* conebench — shifted geometric means, performance ratios and profiles, medians. */
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* exp(Σ log(x_i + s) / n) − s */
double cb_shifted_geomean(const double *x, int n, double shift)
{
    if (n <= 0)
        return NAN;
    double acc = 0;
    for (int i = 0; i < n; i++)
        acc += log(x[i] + shift);
    return exp(acc / n) - shift;
}

/* r_ps = t_ps / min_s t_ps (inf where t_ps is inf or no solver solved p). */
void cb_perf_ratios(const double *cost, int np, int ns, double *ratio)
{
    for (int p = 0; p < np; p++) {
        double best = INFINITY;
        for (int s = 0; s < ns; s++)
            best = fmin(best, cost[p * ns + s]);
        for (int s = 0; s < ns; s++) {
            double c = cost[p * ns + s];
            ratio[p * ns + s] = isfinite(c) && isfinite(best)
                                    ? (best > 0 ? c / best : (c > 0 ? INFINITY : 1.0))
                                    : INFINITY;
        }
    }
}

/* ρ_s(τ) = fraction of problems with r_ps ≤ τ. */
double cb_perf_profile(const double *ratio, int np, int ns, int s, double tau)
{
    if (np <= 0)
        return NAN;
    int k = 0;
    for (int p = 0; p < np; p++)
        k += isfinite(ratio[p * ns + s]) && ratio[p * ns + s] <= tau;
    return (double)k / np;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Middle value of the sorted copy (mean of the two middle ones for even n). */
double cb_median(const double *x, int n)
{
    if (n <= 0)
        return NAN;
    double *c = malloc((size_t)n * sizeof *c);
    if (!c)
        return NAN;
    memcpy(c, x, (size_t)n * sizeof *c);
    qsort(c, (size_t)n, sizeof *c, cmp_double);
    double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
    free(c);
    return m;
}
