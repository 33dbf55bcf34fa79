// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of kernel lines (src/core/kline.c): which names are lines,
 * the kernels' names per line, the tarballs, and the line of a release
 * or a Makefile; and config_tarball(): kernel_tarball wins only for the
 * configured line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "kline.h"

static void test_valid(void **state)
{
	(void)state;
	assert_true(kline_valid("6.1"));
	assert_true(kline_valid("6.12"));
	assert_true(kline_valid("10.0"));
	assert_false(kline_valid(""));
	assert_false(kline_valid("6"));
	assert_false(kline_valid("6."));
	assert_false(kline_valid(".12"));
	assert_false(kline_valid("6.12.3"));
	assert_false(kline_valid("v6.12"));
	assert_false(kline_valid("6.12-rc1"));
	assert_false(kline_valid("6.1@x"));
	assert_false(kline_valid("6.1234567890123456"));
}

static void test_names(void **state)
{
	char buf[80];

	(void)state;
	assert_int_equal(kline_kernel_name(buf, sizeof(buf), "baseline",
					   "6.1"), 0);
	assert_string_equal(buf, "baseline");
	assert_int_equal(kline_kernel_name(buf, sizeof(buf), "swap-ops-debug",
					   "6.12"), 0);
	assert_string_equal(buf, "swap-ops-debug@6.12");
	assert_int_equal(kline_kernel_name(buf, sizeof(buf), "swap-ops.03",
					   "6.12"), 0);
	assert_string_equal(buf, "swap-ops.03@6.12");
	/* too long: refused, never cut into another kernel's name */
	assert_int_equal(kline_kernel_name(buf, 12, "baseline", "6.12"), -1);
	assert_string_equal(kline_suffix("6.12", buf, sizeof(buf)), "@6.12");
	assert_string_equal(kline_suffix("6.1", buf, sizeof(buf)), "");
	assert_true(kline_is_first("6.1"));
	assert_false(kline_is_first("6.12"));
	assert_false(kline_is_first("6.10"));
}

static void test_order(void **state)
{
	(void)state;
	assert_true(kline_before("6.1", 6, 8));
	assert_true(kline_before("5.15", 6, 8));
	assert_false(kline_before("6.8", 6, 8));
	assert_false(kline_before("6.12", 6, 8));
	assert_false(kline_before("7.0", 6, 8));
}

static void test_of(void **state)
{
	char buf[KLINE_MAX];

	(void)state;
	/* /usr/src/linux-source-6.12.tar.xz does not fit 16 bytes */
	assert_int_equal(kline_tarball(buf, sizeof(buf), "6.12"), -1);
	assert_int_equal(kline_of_release("6.12.57+", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "6.12");
	assert_int_equal(kline_of_release("6.1.0-swapctl", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "6.1");
	assert_int_equal(kline_of_release("unknown", buf, sizeof(buf)), -1);
	assert_int_equal(kline_of_release(NULL, buf, sizeof(buf)), -1);
	assert_int_equal(kline_of_makefile(
		"# SPDX-License-Identifier: GPL-2.0\nVERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 57\nEXTRAVERSION =\n",
		buf, sizeof(buf)), 0);
	assert_string_equal(buf, "6.12");
	assert_int_equal(kline_of_makefile("VERSION = 6\nSUBLEVEL = 1\n", buf,
					   sizeof(buf)), -1);
	/* a longer name that starts the same is not the key */
	assert_int_equal(kline_of_makefile("VERSIONS = 9\nVERSION=6\nPATCHLEVEL\t= 1\n",
					   buf, sizeof(buf)), 0);
	assert_string_equal(buf, "6.1");
}

static void test_config_tarball(void **state)
{
	struct swapctl_config c;
	char err[256], t[4096];

	(void)state;
	config_defaults(&c);
	assert_string_equal(c.kernel_line, "6.1");
	assert_int_equal(config_tarball(&c, "6.1", t, sizeof(t)), 0);
	assert_string_equal(t, "/usr/src/linux-source-6.1.tar.xz");
	assert_int_equal(config_tarball(&c, "6.12", t, sizeof(t)), 0);
	assert_string_equal(t, "/usr/src/linux-source-6.12.tar.xz");
	/* kernel_tarball is the configured line's, not another's */
	assert_int_equal(config_parse_string(&c, "t.conf",
		"kernel_tarball = /srv/l.tar.xz\n", err, sizeof(err)), 0);
	assert_int_equal(config_tarball(&c, "6.1", t, sizeof(t)), 0);
	assert_string_equal(t, "/srv/l.tar.xz");
	assert_int_equal(config_tarball(&c, "6.12", t, sizeof(t)), 0);
	assert_string_equal(t, "/usr/src/linux-source-6.12.tar.xz");
	assert_int_equal(config_parse_string(&c, "t.conf",
		"kernel_line = 6.12\n", err, sizeof(err)), 0);
	assert_int_equal(config_tarball(&c, "6.12", t, sizeof(t)), 0);
	assert_string_equal(t, "/srv/l.tar.xz");
	assert_int_equal(config_tarball(&c, "6.1", t, sizeof(t)), 0);
	assert_string_equal(t, "/usr/src/linux-source-6.1.tar.xz");
	assert_int_equal(config_parse_string(&c, "t.conf",
		"kernel_line = 6.12.1\n", err, sizeof(err)), -1);
	assert_string_equal(err, "t.conf:1: kernel_line: '6.12.1' is not a kernel line (MAJOR.MINOR, as 6.1 or 6.12)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_of),
		cmocka_unit_test(test_config_tarball),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
