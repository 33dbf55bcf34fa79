/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload's page pattern: every 4 KiB page holds 512 words of a
 * splitmix64 stream seeded by hash(seed, page index), so a page that comes
 * back from swap with the wrong content, another page's content, or zeroes
 * is detected.
 */
#ifndef GUEST_PATTERN_H
#define GUEST_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GPAT_PAGE	4096
#define GPAT_WORDS	(GPAT_PAGE / sizeof(uint64_t))

uint64_t gpat_splitmix64(uint64_t *state);
uint64_t gpat_page_key(uint64_t seed, uint64_t index);
/*
 * Fill @page with the pattern of (@seed, @index): @uniq (1..512) words of
 * the stream, repeated cyclically over the page. 512 makes an
 * incompressible page; fewer make it compressible (zram, zswap) while
 * every word is still checked.
 */
void gpat_fill(void *page, uint64_t seed, uint64_t index, unsigned int uniq);
/* True when @page holds exactly the pattern of (@seed, @index, @uniq). */
bool gpat_check(const void *page, uint64_t seed, uint64_t index,
		unsigned int uniq);

/* A small PRNG for page orders and rewrite subsets (not the pattern). */
struct gpat_rng {
	uint64_t s;
};

void gpat_rng_init(struct gpat_rng *r, uint64_t seed);
/* Uniform in [0, n), n > 0. */
uint64_t gpat_rng_below(struct gpat_rng *r, uint64_t n);
/* Fill @perm with a random permutation of 0..n-1. */
void gpat_permute(uint32_t *perm, size_t n, uint64_t seed);

#endif
