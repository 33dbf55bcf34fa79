// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the workload's swap-in latency histogram (guest/ghist.c):
 * the buckets tile 0 .. 2^AGENT_LAT_TOP_BITS us without gap or overlap,
 * percentiles of known distributions are within the stated error (exact
 * below 64 us, else at least the true value and less than 1/32 above),
 * never above the exact maximum, the overflow bucket reports the maximum,
 * and merging is adding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../guest/ghist.h"

static struct ghist h, h2, all;

static void test_buckets(void **state)
{
	unsigned int i;

	(void)state;
	assert_int_equal(GHIST_BUCKETS, 640);
	assert_int_equal(ghist_lo(0), 0);
	for (i = 0; i < GHIST_BUCKETS; i++) {
		uint64_t lo = ghist_lo(i), hi = ghist_hi(i);

		assert_true(lo <= hi);
		assert_int_equal(ghist_index(lo), i);
		assert_int_equal(ghist_index(hi), i);
		if (i + 1 < GHIST_BUCKETS)
			assert_int_equal(ghist_lo(i + 1), hi + 1);
		if (lo < 64)
			assert_int_equal(lo, hi);	/* exact */
		else
			assert_true((hi - lo + 1) * 32 <= lo);	/* 1/32 */
	}
	assert_int_equal(ghist_hi(GHIST_BUCKETS - 1),
			 (1ULL << AGENT_LAT_TOP_BITS) - 1);
	/* 10 s is bucketed, 2^24 us and beyond overflow */
	assert_true(ghist_index(10000000) < GHIST_BUCKETS);
	assert_int_equal(ghist_index(1ULL << AGENT_LAT_TOP_BITS),
			 GHIST_BUCKETS);
	assert_int_equal(ghist_index(UINT64_MAX), GHIST_BUCKETS);
}

/* the nearest-rank quantile of sorted @x[@n] */
static uint64_t exact_q(const uint64_t *x, size_t n, unsigned int permille)
{
	size_t rank = (n * permille + 999) / 1000;

	return x[rank ? rank - 1 : 0];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the stated error: exact below 64, else in [true, true * 33/32) */
static void assert_close(uint64_t got, uint64_t want)
{
	if (want < 64) {
		assert_int_equal(got, want);
		return;
	}
	assert_true(got >= want);
	assert_true(got * 32 < want * 33);
}

static void test_uniform(void **state)
{
	uint64_t v;

	(void)state;
	ghist_init(&h);
	for (v = 1; v <= 1000; v++)
		ghist_add(&h, v);
	assert_int_equal(h.n, 1000);
	assert_int_equal(h.max_us, 1000);
	/* 500 is in 496..503, 990 in 976..991 */
	assert_int_equal(ghist_quantile(&h, 500), 503);
	assert_int_equal(ghist_quantile(&h, 990), 991);
	assert_close(ghist_quantile(&h, 500), 500);
	assert_close(ghist_quantile(&h, 990), 990);
	assert_int_equal(ghist_quantile(&h, 1000), 1000);
	/* small values are exact */
	ghist_init(&h);
	for (v = 0; v < 64; v++)
		ghist_add(&h, v);
	assert_int_equal(ghist_quantile(&h, 500), 31);
	assert_int_equal(ghist_quantile(&h, 990), 63);
}

static void test_known_shapes(void **state)
{
	unsigned int i;

	(void)state;
	/* empty */
	ghist_init(&h);
	assert_int_equal(ghist_quantile(&h, 500), 0);
	assert_int_equal(ghist_quantile(&h, 990), 0);
	/* constant: every figure is the value, never its bucket's top */
	for (i = 0; i < 1000; i++)
		ghist_add(&h, 1000);
	assert_int_equal(ghist_quantile(&h, 500), 1000);
	assert_int_equal(ghist_quantile(&h, 990), 1000);
	assert_int_equal(h.max_us, 1000);
	/* 98 fast, 2 slow: p50 fast, p99 (rank 99) slow, the max exact */
	ghist_init(&h);
	for (i = 0; i < 98; i++)
		ghist_add(&h, 10);
	ghist_add(&h, 5000);
	ghist_add(&h, 4900);
	assert_int_equal(ghist_quantile(&h, 500), 10);
	assert_close(ghist_quantile(&h, 990), 4900);
	assert_true(ghist_quantile(&h, 990) <= 5000);
	assert_int_equal(h.max_us, 5000);
	/* 1 slow in 100: p99 (rank 99) is still fast */
	ghist_init(&h);
	for (i = 0; i < 99; i++)
		ghist_add(&h, 10);
	ghist_add(&h, 5000);
	assert_int_equal(ghist_quantile(&h, 990), 10);
}

static void test_overflow(void **state)
{
	unsigned int i;

	(void)state;
	ghist_init(&h);
	for (i = 0; i < 100; i++)
		ghist_add(&h, 10);
	ghist_add(&h, 30000000);	/* 30 s */
	assert_int_equal(h.over, 1);
	assert_int_equal(h.n, 101);
	assert_int_equal(ghist_quantile(&h, 990), 10);	/* rank 100 */
	assert_int_equal(ghist_quantile(&h, 1000), 30000000);
	/* all beyond the top: every percentile is the exact maximum */
	ghist_init(&h);
	ghist_add(&h, 20000000);
	ghist_add(&h, 25000000);
	assert_int_equal(ghist_quantile(&h, 500), 25000000);
	assert_int_equal(ghist_quantile(&h, 990), 25000000);
	/* the last bucket's top, then one past it */
	ghist_init(&h);
	ghist_add(&h, (1ULL << AGENT_LAT_TOP_BITS) - 1);
	assert_int_equal(h.over, 0);
	ghist_add(&h, 1ULL << AGENT_LAT_TOP_BITS);
	assert_int_equal(h.over, 1);
}

/* Random log-spread samples: every percentile within the error; merge. */
static void test_random_and_merge(void **state)
{
	static uint64_t x[20000];
	unsigned int i, p;
	uint64_t s = 12345;

	(void)state;
	ghist_init(&h);
	ghist_init(&h2);
	ghist_init(&all);
	for (i = 0; i < 20000; i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		/* 2^0 .. 2^22 us, log-uniform */
		x[i] = (s >> 40) >> (s >> 59 < 2 ? 0 : (s >> 33) % 24);
		ghist_add(i % 3 ? &h : &h2, x[i]);
		ghist_add(&all, x[i]);
	}
	ghist_merge(&h, &h2);
	assert_memory_equal(&h, &all, sizeof(h));
	qsort(x, 20000, sizeof(x[0]), cmp_u64);
	assert_int_equal(h.max_us, x[19999]);
	for (p = 1; p <= 1000; p += 7)
		assert_close(ghist_quantile(&h, p), exact_q(x, 20000, p));
	assert_close(ghist_quantile(&h, 500), exact_q(x, 20000, 500));
	assert_close(ghist_quantile(&h, 990), exact_q(x, 20000, 990));
	assert_true(ghist_quantile(&h, 500) <= ghist_quantile(&h, 990));
	assert_true(ghist_quantile(&h, 990) <= h.max_us);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_known_shapes),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_random_and_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
