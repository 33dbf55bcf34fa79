// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the one directory in a directory (src/core/subdir.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "subdir.h"
#include "util.h"

static void mk(const char *top, const char *name, bool dir)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, name);
	if (dir) {
		assert_int_equal(mkdir(path, 0755), 0);
		return;
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
}

static void test_only(void **state)
{
	char top[] = "/tmp/test_subdirXXXXXX", name[64];

	(void)state;
	assert_non_null(mkdtemp(top));
	assert_int_equal(subdir_only(top, name, sizeof(name)), -1);
	/* files, hidden directories and temporary ones do not count */
	mk(top, "a.id", false);
	mk(top, ".git", true);
	mk(top, "0123.tmp", true);
	assert_int_equal(subdir_only(top, name, sizeof(name)), -1);
	mk(top, "linux-source-6.1", true);
	assert_int_equal(subdir_only(top, name, sizeof(name)), 0);
	assert_string_equal(name, "linux-source-6.1");
	mk(top, "linux-source-6.12", true);
	assert_int_equal(subdir_only(top, name, sizeof(name)), -1);
	assert_int_equal(subdir_only("/nonexistent", name, sizeof(name)), -1);
	util_rm_rf(top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
