/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ghist: the workload's swap-in latency histogram, fixed size (no
 * allocation per sample), in microseconds. The bucket layout and the
 * error of its percentiles are the protocol's (common/agentproto.h,
 * AGENT_LAT_*): exact below 64 us, else less than 1/32 above the true
 * value, never below it and never above the exact maximum.
 */
#ifndef GUEST_GHIST_H
#define GUEST_GHIST_H

#include <stdint.h>

#include "../common/agentproto.h"
#include "json.h"

#define GHIST_BUCKETS	AGENT_LAT_BUCKETS

struct ghist {
	uint64_t n;			/* samples */
	uint64_t max_us;		/* the largest, exact */
	uint64_t over;			/* samples >= 2^AGENT_LAT_TOP_BITS us */
	uint64_t b[GHIST_BUCKETS];
};

void ghist_init(struct ghist *h);
/* One sample of @us microseconds. */
void ghist_add(struct ghist *h, uint64_t us);
/* @dst += @src (the merged histogram of both sample sets). */
void ghist_merge(struct ghist *dst, const struct ghist *src);
/* The bucket of @us; GHIST_BUCKETS for the overflow bucket. */
unsigned int ghist_index(uint64_t us);
/* The smallest and largest value of bucket @i (< GHIST_BUCKETS). */
uint64_t ghist_lo(unsigned int i);
uint64_t ghist_hi(unsigned int i);
/*
 * The nearest-rank @permille/1000 quantile (1..1000): the upper bound of
 * the bucket holding the ceil(n * permille / 1000)-th smallest sample,
 * at most max_us (max_us itself in the overflow bucket); 0 when empty.
 */
uint64_t ghist_quantile(const struct ghist *h, unsigned int permille);
/*
 * The protocol's four members of @h into the open object: swapin_faults,
 * swapin_p50_us, swapin_p99_us, swapin_max_us (common/agentproto.h).
 */
void ghist_members(struct gj *j, const struct ghist *h);

#endif
