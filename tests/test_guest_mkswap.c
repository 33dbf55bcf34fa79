// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the guest's own mkswap (guest/mkswap.c): the v1 header
 * layout the kernel's sys_swapon() checks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../guest/mkswap.h"

static const unsigned char uuid[16] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
};

static uint32_t u32_at(const unsigned char *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, 4);
	return v;
}

static void test_layout(void **state)
{
	unsigned char page[4096];
	size_t i;

	(void)state;
	memset(page, 0xff, sizeof(page));
	assert_int_equal(gswap_header(page, 4096, 512ULL << 20, uuid,
				      "swapctl"), 0);
	assert_memory_equal(page + 4096 - 10, "SWAPSPACE2", 10);
	assert_int_equal(u32_at(page, 1024), 1);		/* version */
	assert_int_equal(u32_at(page, 1028), 131071);	/* last_page */
	assert_int_equal(u32_at(page, 1032), 0);		/* nr_badpages */
	assert_memory_equal(page + 1036, uuid, 16);
	assert_string_equal((char *)page + 1052, "swapctl");
	/* Boot bits, padding and bad page list are zero. */
	for (i = 0; i < 1024; i++)
		assert_int_equal(page[i], 0);
	for (i = 1052 + 7; i < 4096 - 10; i++)
		assert_int_equal(page[i], 0);
}

static void test_partial_page_and_sizes(void **state)
{
	unsigned char page[4096];

	(void)state;
	/* A trailing partial page is not part of the area. */
	assert_int_equal(gswap_header(page, 4096, 40960 + 4095, uuid, NULL),
			 0);
	assert_int_equal(u32_at(page, 1028), 9);
	/* Too small for the kernel. */
	assert_int_equal(gswap_header(page, 4096, 9 * 4096, uuid, NULL), -1);
	assert_int_equal(gswap_header(page, 4096, 0, uuid, NULL), -1);
	/* Larger than a 32-bit last_page can describe. */
	assert_int_equal(gswap_header(page, 4096, (1ULL << 32) * 4096 + 4096,
				      uuid, NULL), -1);
	/* A page size too small to hold header and magic. */
	assert_int_equal(gswap_header(page, 1024, 1 << 20, uuid, NULL), -1);
}

static void test_long_label_truncated(void **state)
{
	unsigned char page[4096];

	(void)state;
	assert_int_equal(gswap_header(page, 4096, 1 << 20, uuid,
				      "a-label-longer-than-16-bytes"), 0);
	assert_memory_equal(page + 1052, "a-label-longer-t", 16);
	assert_int_equal(page[1068], 0);
}

static void test_write_file(void **state)
{
	char path[] = "/tmp/test_guest_mkswapXXXXXX";
	unsigned char page[4096];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	assert_int_equal(gswap_write(fd, 1 << 20, "t"), 0);
	assert_int_equal(pread(fd, page, sizeof(page), 0), (ssize_t)sizeof(page));
	assert_memory_equal(page + sizeof(page) - 10, "SWAPSPACE2", 10);
	assert_int_equal(u32_at(page, 1028), 255);
	assert_int_equal(gswap_write(fd, 4096, "t"), -22);
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_partial_page_and_sizes),
		cmocka_unit_test(test_long_label_truncated),
		cmocka_unit_test(test_write_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
