/* conebench bench — the phases of nsgs's order=domains on a problem and the bound they put on
 * N threads (BENCHMARKS.md, "Threads and nsgs on sphere-pile steps", session 41).
 *
 * A visit's work is taken as 2 + the blocks of its row of W (BSR: what it reads and writes;
 * nsgs's VISIT_WEIGHT and block products); each phase's units are dealt out to the threads as
 * the sweep deals them (longest first, to the least loaded), and the bound is the total work
 * over the sum of each phase's largest thread share: the speedup the phases allow when every
 * visit costs its work and a barrier costs nothing.
 *
 * Usage: bench_domains FILE [THREADS]   (BSR W; default 2 threads)
 */
#include "../support/require.h"
#include <stdio.h>
#include <stdlib.h>

#include "conebench/io.h"
#include "conebench/solver.h"
#include "nsgs_colour.h"

/* The largest thread's share of the units u[0..m) (work w, decreasing) dealt to `threads`. */
static long long largest_share(const long long *w, int m, int threads)
{
    long long load[CB_THREADS_MAX] = {0}, big = 0;
    for (int k = 0; k < m; k++) {
        int best = 0;
        for (int j = 1; j < threads; j++)
            best = load[j] < load[best] ? j : best;
        load[best] += w[k];
        big = load[best] > big ? load[best] : big;
    }
    return big;
}

static int by_decreasing(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x < y) - (x > y);
}

int main(int argc, char **argv)
{
    int threads = argc > 2 ? atoi(argv[2]) : 2;
    if (argc < 2 || threads < 1 || threads > CB_THREADS_MAX) {
        fprintf(stderr, "usage: bench_domains FILE [THREADS]\n");
        return 2;
    }
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    cb_problem *p = NULL;
    cb_error err;
    if (cb_read_problem(argv[1], &rs, &p, &err) != CB_OK || p->storage != CB_STORAGE_BSR) {
        fprintf(stderr, "bench_domains: %s: %s\n", argv[1], p ? "W is not BSR" : err.text);
        cb_problem_free(p);
        return 2;
    }
    cb_nsgs_colouring c;
    assert_true(cb_nsgs_domains(p, &c) == CB_OK);
    long long total = 0, bound = 0, w[CB_DOMAIN_MAX_UNITS];
    printf("%s: nc %d, %d phases\n", argv[1], p->nc, c.nphases);
    for (int k = 0; k < c.nphases; k++) {
        int m = 0, largest = 0;
        long long work = 0;
        for (int i = c.start[k]; i < c.start[k + 1]; i = c.uend[i], m++) {
            assert_true(m < CB_DOMAIN_MAX_UNITS);
            w[m] = 0;
            for (int j = i; j < c.uend[i]; j++)
                w[m] += 2 + p->bsr.row_ptr[c.order[j] + 1] - p->bsr.row_ptr[c.order[j]];
            largest = c.uend[i] - i > largest ? c.uend[i] - i : largest;
            work += w[m];
        }
        qsort(w, (size_t)m, sizeof *w, by_decreasing);
        long long share = largest_share(w, m, threads);
        printf("phase %d: %6d contacts, %2d units (largest %5d contacts), work %8lld, largest "
               "thread share %8lld\n", k, c.start[k + 1] - c.start[k], m, largest, work, share);
        total += work, bound += share;
    }
    printf("bound of the phases' work at %d threads: %.3f\n", threads,
           bound ? (double)total / (double)bound : 0.0);
    cb_nsgs_colouring_free(&c);
    cb_problem_free(p);
    return 0;
}
