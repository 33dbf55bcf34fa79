/* SPDX-License-Identifier: GPL-2.0 */
/*
 * redisrun's pure parts, for the tests: redis-benchmark's --csv output
 * and the data set's values.
 */
#ifndef GUEST_GREDIS_H
#define GUEST_GREDIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One row of redis-benchmark --csv: requests/s and latencies in us. */
struct gredis_csv {
	uint64_t rps;
	uint64_t avg_us, p50_us, p99_us, max_us;
};

/*
 * The row of test @test ("GET") of redis-benchmark --csv output @text:
 * a header row naming the columns ("test","rps",...,"p99_latency_ms"),
 * then one row per test, every field quoted. Columns are found by their
 * header name, in any order; "test" and "rps" are required, a missing
 * latency column reads 0. 0, or -1 with @err set (no header, no such
 * row, a field that is not a number, a short row).
 */
int gredis_parse_csv(const char *text, const char *test,
		     struct gredis_csv *out, char *err, size_t errlen);

/*
 * The value of key @idx: @len bytes from @seed, of which 8-byte words
 * repeat every @uniq words (1: compresses very well; len / 8: random).
 */
void gredis_value(uint64_t seed, uint64_t idx, unsigned int uniq,
		  char *buf, size_t len);

#endif
