/* conebench — deterministic pseudo-random numbers (xoshiro256**, seeded by splitmix64).
 * Same seed ⇒ same stream on every platform. */
#ifndef CONEBENCH_RNG_H
#define CONEBENCH_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} cb_rng;

void cb_rng_seed(cb_rng *r, uint64_t seed);
uint64_t cb_rng_u64(cb_rng *r);
/* Uniform in [0, 1). */
double cb_rng_uniform(cb_rng *r);
/* Uniform in [lo, hi). */
double cb_rng_range(cb_rng *r, double lo, double hi);
/* Standard normal (Box–Muller). */
double cb_rng_normal(cb_rng *r);
/* Uniform integer in [0, n), n > 0. */
uint64_t cb_rng_below(cb_rng *r, uint64_t n);

#endif
