// SPDX-License-Identifier: GPL-2.0
/* Unit tests for swapctl build --config-set (kconfig_set_add, kconfig.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "build.h"

static void test_set_lines_and_suffix(void **state)
{
	struct kconfig_set set;
	char err[256];

	(void)state;
	memset(&set, 0, sizeof(set));
	assert_int_equal(kconfig_set_add(&set, "CONFIG_SWAP=n", err,
					 sizeof(err)), 0);
	/* n is written the way .config says it, so the check finds it */
	assert_string_equal(set.frag, "# CONFIG_SWAP is not set\n");
	assert_string_equal(set.suffix, "-cfg-swap_n");
	assert_int_equal(kconfig_set_add(&set, "CONFIG_BLK_CGROUP=n", err,
					 sizeof(err)), 0);
	assert_int_equal(kconfig_set_add(&set, "CONFIG_NR_CPUS=4", err,
					 sizeof(err)), 0);
	assert_int_equal(kconfig_set_add(&set, "CONFIG_LOG_BUF_SHIFT=0x11",
					 err, sizeof(err)), 0);
	assert_string_equal(set.frag,
			    "# CONFIG_SWAP is not set\n"
			    "# CONFIG_BLK_CGROUP is not set\n"
			    "CONFIG_NR_CPUS=4\n"
			    "CONFIG_LOG_BUF_SHIFT=0x11\n");
	assert_string_equal(set.suffix, "-cfg-swap_n-blk_cgroup_n-nr_cpus_4-"
			    "log_buf_shift_0x11");
	assert_int_equal(set.n, 4);
}

static void expect_error(const char *arg, const char *why)
{
	struct kconfig_set set;
	char err[256] = "";

	memset(&set, 0, sizeof(set));
	assert_int_equal(kconfig_set_add(&set, "CONFIG_SWAP=y", err,
					 sizeof(err)), 0);
	assert_int_equal(kconfig_set_add(&set, arg, err, sizeof(err)), -1);
	if (!strstr(err, why))
		fail_msg("%s: '%s' does not say '%s'", arg, err, why);
	/* a refused setting changes nothing */
	assert_string_equal(set.frag, "CONFIG_SWAP=y\n");
	assert_string_equal(set.suffix, "-cfg-swap_y");
	assert_int_equal(set.n, 1);
}

static void test_set_errors(void **state)
{
	(void)state;
	expect_error("SWAP=n", "give CONFIG_SYMBOL=VALUE");
	expect_error("CONFIG_SWAP", "give CONFIG_SYMBOL=VALUE");
	expect_error("CONFIG_=y", "give CONFIG_SYMBOL=VALUE");
	expect_error("CONFIG_swap=n", "not a Kconfig symbol");
	expect_error("CONFIG_A-B=n", "not a Kconfig symbol");
	expect_error("CONFIG_MEMCG=", "must be y, m, n or an integer");
	expect_error("CONFIG_MEMCG=no", "must be y, m, n or an integer");
	expect_error("CONFIG_MEMCG=\"x\"", "must be y, m, n or an integer");
	expect_error("CONFIG_NR_CPUS=-", "must be y, m, n or an integer");
	expect_error("CONFIG_NR_CPUS=0x", "must be y, m, n or an integer");
	expect_error("CONFIG_NR_CPUS=0xg", "must be y, m, n or an integer");
	/* the same symbol twice, whatever the values */
	expect_error("CONFIG_SWAP=n", "CONFIG_SWAP: given twice");
	expect_error("CONFIG_SWAP=y", "CONFIG_SWAP: given twice");
}

static void test_set_twice_after_n(void **state)
{
	struct kconfig_set set;
	char err[256];

	(void)state;
	memset(&set, 0, sizeof(set));
	assert_int_equal(kconfig_set_add(&set, "CONFIG_MEMCG=n", err,
					 sizeof(err)), 0);
	assert_int_equal(kconfig_set_add(&set, "CONFIG_MEMCG=y", err,
					 sizeof(err)), -1);
	assert_non_null(strstr(err, "given twice"));
	/* a prefix or a suffix of a symbol given is another symbol */
	assert_int_equal(kconfig_set_add(&set, "CONFIG_MEM=y", err,
					 sizeof(err)), 0);
	assert_int_equal(kconfig_set_add(&set, "CONFIG_A_CONFIG_MEMCG=y", err,
					 sizeof(err)), 0);
	assert_int_equal(kconfig_set_add(&set, "CONFIG_A_CONFIG_MEM=y", err,
					 sizeof(err)), 0);
	assert_int_equal(set.n, 4);
}

static void test_set_too_many(void **state)
{
	struct kconfig_set set;
	char err[256], arg[64];
	int i, ret = 0;

	(void)state;
	memset(&set, 0, sizeof(set));
	for (i = 0; i < 100 && !ret; i++) {
		snprintf(arg, sizeof(arg), "CONFIG_SYMBOL_NUMBER_%d=y", i);
		ret = kconfig_set_add(&set, arg, err, sizeof(err));
	}
	assert_int_equal(ret, -1);
	assert_non_null(strstr(err, "too many settings"));
	assert_true(strlen(set.suffix) < sizeof(set.suffix));
	assert_true(strlen(set.frag) < sizeof(set.frag));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_lines_and_suffix),
		cmocka_unit_test(test_set_errors),
		cmocka_unit_test(test_set_twice_after_n),
		cmocka_unit_test(test_set_too_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
