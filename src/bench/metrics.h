/* conebench — benchmark metrics: shifted geometric means and Dolan–Moré performance
 * profiles. Pure functions on arrays; no I/O. */
#ifndef CONEBENCH_METRICS_H
#define CONEBENCH_METRICS_H

/* exp(mean(log(x_i + shift))) − shift, over n > 0 values x_i ≥ 0; NaN when n = 0. */
double cb_shifted_geomean(const double *x, int n, double shift);

/* Performance ratios: cost is np × ns row-major (cost[p*ns + s]); a failed run has cost +inf.
 * ratio[p*ns + s] = cost / min_s cost over solvers of problem p, +inf for failures, and +inf for
 * every solver of a problem nobody solved. */
void cb_perf_ratios(const double *cost, int np, int ns, double *ratio);

/* ρ_s(τ) = |{p : ratio[p][s] ≤ τ}| / np (Dolan & Moré 2002). */
double cb_perf_profile(const double *ratio, int np, int ns, int s, double tau);

/* Median of n values (sorts a copy; NaN when n = 0). */
double cb_median(const double *x, int n);

#endif
