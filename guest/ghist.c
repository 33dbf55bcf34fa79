// SPDX-License-Identifier: GPL-2.0
/*
 * ghist: fixed-size log-linear latency histogram (see ghist.h and
 * common/agentproto.h for the bucket layout).
 */
#include <string.h>

#include "ghist.h"

#define SUB_BITS	AGENT_LAT_SUB_BITS
#define SUB		(1u << SUB_BITS)

void ghist_init(struct ghist *h)
{
	memset(h, 0, sizeof(*h));
}

unsigned int ghist_index(uint64_t us)
{
	unsigned int k;

	if (us < SUB)
		return (unsigned int)us;
	k = 63 - (unsigned int)__builtin_clzll(us);
	if (k >= AGENT_LAT_TOP_BITS)
		return GHIST_BUCKETS;
	return ((k - SUB_BITS + 1) << SUB_BITS) +
	       (unsigned int)((us >> (k - SUB_BITS)) & (SUB - 1));
}

uint64_t ghist_lo(unsigned int i)
{
	unsigned int o = i >> SUB_BITS;

	if (!o)
		return i;
	return (uint64_t)(SUB + (i & (SUB - 1))) << (o - 1);
}

uint64_t ghist_hi(unsigned int i)
{
	unsigned int o = i >> SUB_BITS;

	if (!o)
		return i;
	return ghist_lo(i) + (1ULL << (o - 1)) - 1;
}

void ghist_add(struct ghist *h, uint64_t us)
{
	unsigned int i = ghist_index(us);

	if (i < GHIST_BUCKETS)
		h->b[i]++;
	else
		h->over++;
	h->n++;
	if (us > h->max_us)
		h->max_us = us;
}

void ghist_merge(struct ghist *dst, const struct ghist *src)
{
	unsigned int i;

	for (i = 0; i < GHIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->over += src->over;
	dst->n += src->n;
	if (src->max_us > dst->max_us)
		dst->max_us = src->max_us;
}

uint64_t ghist_quantile(const struct ghist *h, unsigned int permille)
{
	uint64_t rank, seen = 0;
	unsigned int i;

	if (!h->n)
		return 0;
	if (permille > 1000)
		permille = 1000;
	rank = (h->n * permille + 999) / 1000;
	if (!rank)
		rank = 1;
	for (i = 0; i < GHIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank)
			return ghist_hi(i) < h->max_us ? ghist_hi(i) :
			       h->max_us;
	}
	return h->max_us;
}

void ghist_members(struct gj *j, const struct ghist *h)
{
	gj_u64(j, "swapin_faults", h->n);
	gj_u64(j, "swapin_p50_us", ghist_quantile(h, 500));
	gj_u64(j, "swapin_p99_us", ghist_quantile(h, 990));
	gj_u64(j, "swapin_max_us", h->max_us);
}
