// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the host's /proc/meminfo reader (src/core/meminfo.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "meminfo.h"

static void test_parse(void **state)
{
	const char *text = "MemTotal:        4028884 kB\n"
			   "MemFree:          107448 kB\n"
			   "MemAvailable:    2560004 kB\n"
			   "SwapTotal:             0 kB\n";
	unsigned long long kb = 7;

	(void)state;
	assert_int_equal(meminfo_parse(text, "MemTotal", &kb), 0);
	assert_int_equal(kb, 4028884);
	assert_int_equal(meminfo_parse(text, "MemAvailable", &kb), 0);
	assert_int_equal(kb, 2560004);
	assert_int_equal(meminfo_parse(text, "SwapTotal", &kb), 0);
	assert_int_equal(kb, 0);
	/* a prefix of a key is not the key */
	assert_int_equal(meminfo_parse(text, "Mem", &kb), -1);
	assert_int_equal(meminfo_parse(text, "Swap", &kb), -1);
	assert_int_equal(meminfo_parse("MemTotal: many kB\n", "MemTotal", &kb),
			 -1);
	assert_int_equal(meminfo_parse("", "MemTotal", &kb), -1);
	assert_int_equal(kb, 0);
}

static void test_host(void **state)
{
	(void)state;
	/* this host has both (MemAvailable since Linux 3.14) */
	assert_true(meminfo_mb("MemTotal") > 0);
	assert_true(meminfo_mb("MemAvailable") > 0);
	assert_true(meminfo_mb("MemAvailable") <= meminfo_mb("MemTotal"));
	assert_int_equal(meminfo_mb("NoSuchLine"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
