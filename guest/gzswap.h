/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zswap's own counters from debugfs (/sys/kernel/debug/zswap/, both the
 * 6.1 and the 6.12 line): pages written back from the pool to the swap
 * device, the pool's size, how often it was full. The workload and the
 * command runner put them in their result line's "values" when the plan
 * enables zswap (swapctl-agent(7)). The parser is pure, for the tests.
 */
#ifndef GUEST_GZSWAP_H
#define GUEST_GZSWAP_H

#include <stdbool.h>
#include <stdint.h>

#include "gplan.h"
#include "json.h"

#define GZSWAP_DIR	"/sys/kernel/debug/zswap"

struct gzswap {
	uint64_t written_back_pages;	/* zswap_writeback_entry() done */
	uint64_t pool_total_size;	/* bytes, now */
	uint64_t pool_limit_hit;	/* stores that found the pool full */
	uint64_t pool_peak;		/* the largest pool_total_size read */
	bool read;			/* every file was read once */
};

/* "123\n" (a debugfs u64 or atomic_t) into *@v: 0, or -1 if malformed. */
int gzswap_parse_u64(const char *text, uint64_t *v);
/*
 * Read @dir's files into @z (pool_peak kept as the largest so far):
 * 0, or -1 with errno (ENOENT: no such file, EINVAL: malformed).
 */
int gzswap_read(const char *dir, struct gzswap *z);
/* Whether @p has "zswap enabled=1". */
bool gzswap_enabled(const struct gplan *p);
/*
 * Mount debugfs on /sys/kernel/debug unless GZSWAP_DIR is there, then
 * gzswap_read() it.
 */
int gzswap_sample(struct gzswap *z);
/* @z as a "values" object (nothing before the first good read). */
void gzswap_values(struct gj *j, const struct gzswap *z);

#endif
