// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the guest workload's page pattern (guest/pattern.c): the
 * verification must catch any single flipped bit, a page of another index
 * or seed, a zero page, and must accept exactly the pattern written.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../guest/compiler.h"
#include "../guest/pattern.h"

static uint64_t page[GPAT_WORDS];

static void test_roundtrip(void **state)
{
	uint64_t idx;

	(void)state;
	for (idx = 0; idx < 2000; idx += 7) {
		gpat_fill(page, 12345, idx, 512);
		assert_true(gpat_check(page, 12345, idx, 512));
	}
	gpat_fill(page, UINT64_MAX, UINT32_MAX, 512);
	assert_true(gpat_check(page, UINT64_MAX, UINT32_MAX, 512));
}

static void test_known_vector(void **state)
{
	uint64_t s = 0;

	(void)state;
	/* Reference splitmix64 outputs for state 0. */
	assert_int_equal(gpat_splitmix64(&s), 0xe220a8397b1dcdafULL);
	assert_int_equal(gpat_splitmix64(&s), 0x6e789e6aa1b965f4ULL);
	assert_int_equal(gpat_splitmix64(&s), 0x06c45d188009454fULL);
}

static void test_every_bit_flip_detected(void **state)
{
	size_t bit;

	(void)state;
	gpat_fill(page, 42, 99, 512);
	for (bit = 0; bit < GPAT_PAGE * 8; bit++) {
		page[bit / 64] ^= 1ULL << (bit % 64);
		assert_false(gpat_check(page, 42, 99, 512));
		page[bit / 64] ^= 1ULL << (bit % 64);
	}
	assert_true(gpat_check(page, 42, 99, 512));
}

static void test_wrong_seed_or_index(void **state)
{
	uint64_t i;

	(void)state;
	for (i = 0; i < 512; i++) {
		gpat_fill(page, 1000, i, 512);
		assert_false(gpat_check(page, 1001, i, 512));
		assert_false(gpat_check(page, 999, i, 512));
		assert_false(gpat_check(page, 1000, i + 1, 512));
		if (i)
			assert_false(gpat_check(page, 1000, i - 1, 512));
	}
}

static void test_zero_and_neighbour_pages(void **state)
{
	uint64_t other[GPAT_WORDS];

	(void)state;
	memset(page, 0, sizeof(page));
	assert_false(gpat_check(page, 0, 0, 512));
	assert_false(gpat_check(page, 7, 3, 512));
	/* Pages of the same seed must differ pairwise (no aliasing). */
	gpat_fill(page, 7, 3, 512);
	gpat_fill(other, 7, 4, 512);
	assert_memory_not_equal(page, other, sizeof(page));
	gpat_fill(other, 8, 3, 512);
	assert_memory_not_equal(page, other, sizeof(page));
	/* A page whose halves come from two different pages is corrupt. */
	memcpy(other, page, GPAT_PAGE / 2);
	assert_false(gpat_check(other, 8, 3, 512));
}

static void test_compressible(void **state)
{
	static const unsigned int u[] = { 1, 7, 64, 511, 512 };
	uint64_t full[GPAT_WORDS];
	size_t k, i, bit;

	(void)state;
	gpat_fill(full, 77, 5, 512);
	for (k = 0; k < ARRAY_SIZE(u); k++) {
		gpat_fill(page, 77, 5, u[k]);
		assert_true(gpat_check(page, 77, 5, u[k]));
		/* The unique words are the start of the full stream... */
		assert_memory_equal(page, full, u[k] * 8);
		/* ...repeated over the page. */
		for (i = u[k]; i < GPAT_WORDS; i++)
			assert_true(page[i] == page[i % u[k]]);
		/* Another uniq is another pattern. */
		if (u[k] < 512)
			assert_false(gpat_check(page, 77, 5, 512));
		assert_false(gpat_check(page, 78, 5, u[k]));
		assert_false(gpat_check(page, 77, 6, u[k]));
		/* A flipped bit anywhere, in a repeat too, is caught. */
		for (bit = 0; bit < GPAT_PAGE * 8; bit += 61) {
			page[bit / 64] ^= 1ULL << (bit % 64);
			assert_false(gpat_check(page, 77, 5, u[k]));
			page[bit / 64] ^= 1ULL << (bit % 64);
		}
	}
	/* 0 and out of range mean 512. */
	gpat_fill(page, 77, 5, 0);
	assert_memory_equal(page, full, sizeof(full));
	assert_true(gpat_check(page, 77, 5, 9999));
}

static void test_permutation(void **state)
{
	enum { N = 10007 };
	uint32_t *perm = malloc(N * sizeof(*perm));
	unsigned char *seen = calloc(N, 1);
	size_t i, fixed = 0;

	(void)state;
	assert_non_null(perm);
	assert_non_null(seen);
	gpat_permute(perm, N, 5);
	for (i = 0; i < N; i++) {
		assert_true(perm[i] < N);
		assert_int_equal(seen[perm[i]], 0);
		seen[perm[i]] = 1;
		fixed += perm[i] == i;
	}
	/* A shuffle, not the identity (expected fixed points: about 1). */
	assert_true(fixed < 20);
	free(perm);
	free(seen);
}

static void test_rng_below(void **state)
{
	struct gpat_rng r;
	unsigned int hist[10] = { 0 };
	int i;

	(void)state;
	gpat_rng_init(&r, 3);
	for (i = 0; i < 100000; i++) {
		uint64_t v = gpat_rng_below(&r, 10);

		assert_true(v < 10);
		hist[v]++;
	}
	for (i = 0; i < 10; i++)
		assert_in_range(hist[i], 9000, 11000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_known_vector),
		cmocka_unit_test(test_every_bit_flip_detected),
		cmocka_unit_test(test_wrong_seed_or_index),
		cmocka_unit_test(test_zero_and_neighbour_pages),
		cmocka_unit_test(test_compressible),
		cmocka_unit_test(test_permutation),
		cmocka_unit_test(test_rng_below),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
