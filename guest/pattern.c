// SPDX-License-Identifier: GPL-2.0
/*
 * Page pattern generation and verification (see pattern.h).
 */

#include "pattern.h"

uint64_t gpat_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t gpat_page_key(uint64_t seed, uint64_t index)
{
	uint64_t s = seed ^ (index * 0xd6e8feb86659fd93ULL);

	/* Two rounds so that neighbouring (seed, index) pairs diverge. */
	gpat_splitmix64(&s);
	return gpat_splitmix64(&s);
}

static unsigned int clamp_uniq(unsigned int uniq)
{
	if (uniq == 0 || uniq > GPAT_WORDS)
		return GPAT_WORDS;
	return uniq;
}

void gpat_fill(void *page, uint64_t seed, uint64_t index, unsigned int uniq)
{
	uint64_t st = gpat_page_key(seed, index);
	uint64_t *w = page;
	size_t i;

	uniq = clamp_uniq(uniq);
	for (i = 0; i < uniq; i++)
		w[i] = gpat_splitmix64(&st);
	for (; i < GPAT_WORDS; i++)
		w[i] = w[i - uniq];
}

bool gpat_check(const void *page, uint64_t seed, uint64_t index,
		unsigned int uniq)
{
	uint64_t st = gpat_page_key(seed, index);
	uint64_t exp[GPAT_WORDS];
	const uint64_t *w = page;
	uint64_t diff = 0;
	size_t i;

	uniq = clamp_uniq(uniq);
	/* Read every word (no early exit): the cost is the same per page. */
	for (i = 0; i < uniq; i++) {
		exp[i] = gpat_splitmix64(&st);
		diff |= w[i] ^ exp[i];
	}
	for (; i < GPAT_WORDS; i++)
		diff |= w[i] ^ exp[i % uniq];
	return diff == 0;
}

void gpat_rng_init(struct gpat_rng *r, uint64_t seed)
{
	r->s = seed ^ 0x5851f42d4c957f2dULL;
}

uint64_t gpat_rng_below(struct gpat_rng *r, uint64_t n)
{
	/* Lemire's multiply-shift; the tiny bias is irrelevant here. */
	return (uint64_t)(((__uint128_t)gpat_splitmix64(&r->s) * n) >> 64);
}

void gpat_permute(uint32_t *perm, size_t n, uint64_t seed)
{
	struct gpat_rng r;
	size_t i;

	gpat_rng_init(&r, seed);
	for (i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (i = n; i > 1; i--) {
		size_t j = gpat_rng_below(&r, i);
		uint32_t t = perm[i - 1];

		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}
