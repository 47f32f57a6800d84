/*
 * prng.c: SplitMix64 (Steele, Lea and Flood, 2014), the generator behind
 * --fail-rate and --samples.  It is ours rather than rand(3) so that a
 * seed gives the same draws on every libc and machine; upkit-sim(1)
 * documents it so that anyone can replay a run.
 */
#include "sim.h"

#define GOLDEN 0x9e3779b97f4a7c15ULL

/* prng_seed: an independent stream per (seed, stream), e.g. iteration. */
void
prng_seed(struct prng *p, uint64_t seed, uint64_t stream)
{
	p->state = seed ^ (stream * GOLDEN);
	(void)prng_next(p);
}

uint64_t
prng_next(struct prng *p)
{
	uint64_t z = (p->state += GOLDEN);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double
prng_unit(struct prng *p)
{
	return (double)(prng_next(p) >> 11) * (1.0 / 9007199254740992.0);
}

/* prng_below: by rejection, so that every value is equally likely. */
uint64_t
prng_below(struct prng *p, uint64_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = prng_next(p);
	while (x >= limit);
	return x % n;
}
