/* conebench — the gate's time statistics: a per-solver ratio current/baseline with a bootstrap
 * 95 % confidence interval. Pure functions on samples (no clock, no
 * I/O), so the gate's verdicts are tested with recorded or synthetic timings. */
#include "gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "base.h"


void cb_ab_stats_default(cb_ab_stats *s)
{
    s->threshold = CB_AB_THRESHOLD;
    s->nboot = CB_AB_NBOOT;
    s->seed = 1;
    s->min_time = CB_AB_MIN_TIME;
}

#define AB_TAIL 0.025 /* each tail of the 95 % interval */

/* P(Binomial(n, 1/n) ≥ ⌈n/2⌉) = Σ_{k ≥ ⌈n/2⌉} C(n,k) (1/n)^k (1 − 1/n)^(n−k). */
double cb_ab_extreme_median_prob(int n)
{
    double p = 1.0 / n, sum = 0.0, c = 1.0; /* c = C(n, k) */
    for (int k = 0; k <= n; k++) {
        if (k >= (n + 1) / 2)
            sum += c * pow(p, k) * pow(1.0 - p, n - k);
        c = c * (n - k) / (k + 1);
    }
    return sum;
}

/* The least n whose extreme-median probability is at most the tail (at most CB_BENCH_MAX_REPS). */
int cb_ab_min_repetitions(void)
{
    int n = 1;
    while (n < CB_BENCH_MAX_REPS && cb_ab_extreme_median_prob(n) > AB_TAIL)
        n++;
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One log ratio log(cur/base) with its weight. */
typedef struct {
    double x, w;
} wpoint;

static int cmp_wpoint(const void *a, const void *b)
{
    double x = ((const wpoint *)a)->x, y = ((const wpoint *)b)->x;
    return (x > y) - (x < y);
}

/* Weighted median: the smallest x at which the cumulative weight reaches half the total. */
static double weighted_median(wpoint *pt, int n)
{
    double total = 0.0, acc = 0.0;
    qsort(pt, (size_t)n, sizeof *pt, cmp_wpoint);
    for (int i = 0; i < n; i++)
        total += pt[i].w;
    for (int i = 0; i < n; i++) {
        acc += pt[i].w;
        if (acc >= 0.5 * total)
            return pt[i].x;
    }
    return pt[n - 1].x;
}

typedef struct {
    const cb_ab_run *runs;
    int nruns, npoints;
    wpoint *pt;   /* npoints = Σ npairs */
} ab_ctx;

/* exp(weighted median of log(cur/base) over every pair of every run), each run weighing 1 in
 * total; with rng, the pairs of each run are first resampled with replacement. */
static double pooled_ratio(ab_ctx *x, cb_rng *rng)
{
    int k = 0;
    for (int i = 0; i < x->nruns; i++) {
        const cb_ab_run *r = &x->runs[i];
        for (int j = 0; j < r->npairs; j++) {
            const cb_ab_pair *pr = &r->pairs[rng ? cb_rng_below(rng, (uint64_t)r->npairs)
                                                 : (uint64_t)j];
            x->pt[k++] = (wpoint){log(pr->cur / pr->base), 1.0 / r->npairs};
        }
    }
    return exp(weighted_median(x->pt, k));
}

/* Validate the samples: every run has pairs, every time finite and > 0. */
static int check_runs(const cb_ab_run *runs, int nruns, int *npoints, cb_error *err)
{
    *npoints = 0;
    for (int i = 0; i < nruns; i++) {
        if (runs[i].npairs < 1 || !runs[i].pairs)
            return cb_fail(err, CB_ERR_INPUT, "samples: run %d has no repetition", i);
        for (int k = 0; k < runs[i].npairs; k++) {
            double a = runs[i].pairs[k].base, b = runs[i].pairs[k].cur;
            if (!(a > 0) || !(b > 0) || !isfinite(a) || !isfinite(b))
                return cb_fail(err, CB_ERR_INPUT, "samples: run %d repetition %d: times must be "
                               "finite and > 0 (got %g, %g)", i, k, a, b);
        }
        *npoints += runs[i].npairs;
    }
    return CB_OK;
}

/* The fewest repetitions of any run. */
static int fewest_pairs(const cb_ab_run *runs, int nruns)
{
    int m = runs[0].npairs;
    for (int i = 1; i < nruns; i++)
        m = runs[i].npairs < m ? runs[i].npairs : m;
    return m;
}

/* Point estimate, then nboot bootstrap replicates: the pairs of every run resampled with
 * replacement (a stratified bootstrap: the campaign's runs are a fixed set, not a sample); the
 * interval is the 2.5 and 97.5 percentiles of the replicates. A run with fewer pairs than
 * cb_ab_min_repetitions(): point estimate only, verdict INSUFFICIENT. */
int cb_ab_ratio(const cb_ab_run *runs, int nruns, const cb_ab_stats *s, cb_ab_estimate *out,
                cb_error *err)
{
    memset(out, 0, sizeof *out);
    out->ratio = out->lo = out->hi = NAN;
    if (nruns < 1 || !runs)
        return CB_OK; /* nothing to compare: verdict none */
    if (s->nboot < 100 || !(s->threshold >= 0))
        return cb_fail(err, CB_ERR_INPUT, "stats: need nboot ≥ 100 and threshold ≥ 0");
    ab_ctx x = {runs, nruns, 0, NULL};
    int rc = check_runs(runs, nruns, &x.npoints, err);
    double *boot = rc == CB_OK ? cb_calloc((size_t)s->nboot, sizeof *boot) : NULL;
    x.pt = rc == CB_OK ? cb_calloc((size_t)x.npoints, sizeof *x.pt) : NULL;
    if (rc == CB_OK && (!boot || !x.pt))
        rc = cb_fail(err, CB_ERR_NOMEM, "stats: out of memory");
    if (rc == CB_OK) {
        out->runs = nruns;
        out->min_reps = fewest_pairs(runs, nruns);
        out->needed = cb_ab_min_repetitions();
        out->ratio = pooled_ratio(&x, NULL);
        out->verdict = CB_AB_INSUFFICIENT;
    }
    if (rc == CB_OK && out->min_reps >= out->needed) {
        cb_rng rng;
        cb_rng_seed(&rng, s->seed);
        for (int b = 0; b < s->nboot; b++)
            boot[b] = pooled_ratio(&x, &rng);
        qsort(boot, (size_t)s->nboot, sizeof *boot, cmp_double);
        out->lo = boot[(int)floor(0.025 * (s->nboot - 1))];
        out->hi = boot[(int)ceil(0.975 * (s->nboot - 1))];
        out->verdict = out->lo > 1.0 + s->threshold         ? CB_AB_REGRESSION
                       : out->hi < 1.0 / (1.0 + s->threshold) ? CB_AB_IMPROVEMENT
                                                               : CB_AB_SAME;
    }
    free(boot);
    free(x.pt);
    return rc;
}

const char *cb_ab_verdict_name(cb_ab_verdict v)
{
    switch (v) {
    case CB_AB_REGRESSION: return "REGRESSION";
    case CB_AB_IMPROVEMENT: return "improvement";
    case CB_AB_SAME: return "same";
    case CB_AB_INSUFFICIENT: return "not enough repetitions";
    default: return "no data";
    }
}
