/* conebench — xoshiro256** generator seeded by splitmix64. */
#include "rng.h"

#include <math.h>

#include "conebench/common.h"
#include "detmath.h"

/* splitmix64 step: z = mix(x += golden gamma). */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void cb_rng_seed(cb_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t cb_rng_u64(cb_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* 53 random bits scaled to [0, 1). */
double cb_rng_uniform(cb_rng *r) { return (double)(cb_rng_u64(r) >> 11) * 0x1.0p-53; }

double cb_rng_range(cb_rng *r, double lo, double hi) { return lo + (hi - lo) * cb_rng_uniform(r); }

/* Box–Muller: √(−2 ln u1) cos(2π u2), u1 ∈ (0, 1]. */
double cb_rng_normal(cb_rng *r)
{
    double u1 = 1.0 - cb_rng_uniform(r);
    double u2 = cb_rng_uniform(r);
    return sqrt(-2.0 * cb_log(u1)) * cb_cos(2.0 * CB_PI * u2);
}

/* Lemire-free simple rejection: uniform integer below n without modulo bias. */
uint64_t cb_rng_below(cb_rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do {
        x = cb_rng_u64(r);
    } while (x >= limit);
    return x % n;
}
