// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the pristine source's extraction directory
 * (src/build/kernel-tree.c, issue 33): <dir>.tmp is made exclusively,
 * never through a link; one a killed extraction left is removed when it
 * is provably ours, and anything else there is refused, not removed.
 * A tiny tarball stands for the kernel's: nothing is built.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "build.h"
#include "config.h"
#include "util.h"

static char top[64];
static struct swapctl_config cfg;
static struct build_ctx c;

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char p[256], tar[256], stage[128];
	const char *argv[] = { "tar", "-cf", tar, "-C", stage, "linux-6.1",
			       NULL };
	struct util_run_opts o = { .out_fd = -1 };

	(void)state;
	snprintf(top, sizeof(top), "/tmp/swapctl-kt-XXXXXX");
	assert_non_null(mkdtemp(top));
	snprintf(stage, sizeof(stage), "%s/stage", top);
	snprintf(p, sizeof(p), "%s/linux-6.1", stage);
	assert_int_equal(util_mkdir_p(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/linux-6.1/Makefile", stage);
	put(p, "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n");
	snprintf(tar, sizeof(tar), "%s/linux-source-6.1.tar", top);
	assert_int_equal(util_run(argv, &o), 0);
	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.workdir, 100, "%s/wd", top);
	memset(&c, 0, sizeof(c));
	c.cfg = &cfg;
	snprintf(c.line, sizeof(c.line), "6.1");
	snprintf(c.tarball, sizeof(c.tarball), "%s", tar);
	assert_int_equal(tree_tarball_sha(&c), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	util_rm_rf(top);
	return 0;
}

/* <workdir>/src/<id>[.tmp] */
static void src_path(char *buf, size_t len, const char *sfx)
{
	snprintf(buf, len, "%.100s/src/%s%s", cfg.workdir, c.pristine_id, sfx);
}

static void test_clean(void **state)
{
	char tmp[256];

	(void)state;
	assert_int_equal(tree_extract(&c), 0);
	assert_non_null(strstr(c.pristine, "/linux-6.1"));
	src_path(tmp, sizeof(tmp), ".tmp");
	assert_false(util_exists(tmp));
}

static void test_stale_tmp_of_ours_is_removed(void **state)
{
	char tmp[256], p[512];

	(void)state;
	src_path(tmp, sizeof(tmp), ".tmp/linux-6.1");
	assert_int_equal(util_mkdir_p(tmp, 0755), 0);
	src_path(tmp, sizeof(tmp), ".tmp");
	snprintf(p, sizeof(p), "%s/.swapctl-extracting", tmp);
	put(p, "");
	snprintf(p, sizeof(p), "%s/linux-6.1/half", tmp);
	put(p, "a killed tar");
	assert_int_equal(tree_extract(&c), 0);
	assert_false(util_exists(tmp));
	assert_false(util_exists(strcat(c.pristine, "/half")));
}

static void test_tmp_not_ours_is_refused(void **state)
{
	char tmp[256], p[512];

	(void)state;
	src_path(tmp, sizeof(tmp), ".tmp");
	assert_int_equal(util_mkdir_p(tmp, 0755), 0);
	snprintf(p, sizeof(p), "%s/precious", tmp);
	put(p, "keep");
	assert_int_equal(tree_extract(&c), EXIT_SETUP);
	assert_true(util_exists(p));
}

static void test_tmp_link_is_refused(void **state)
{
	char tmp[256], victim[256], p[512];

	(void)state;
	snprintf(victim, sizeof(victim), "%s/victim", top);
	assert_int_equal(mkdir(victim, 0755), 0);
	/* even with our mark in it, a link is not ours */
	snprintf(p, sizeof(p), "%s/.swapctl-extracting", victim);
	put(p, "");
	snprintf(p, sizeof(p), "%s/precious", victim);
	put(p, "keep");
	src_path(tmp, sizeof(tmp), "");
	assert_int_equal(util_mkdir_p(tmp, 0755), 0);
	assert_int_equal(rmdir(tmp), 0);
	src_path(tmp, sizeof(tmp), ".tmp");
	assert_int_equal(symlink(victim, tmp), 0);
	assert_int_equal(tree_extract(&c), EXIT_SETUP);
	assert_true(util_exists(p));
	snprintf(p, sizeof(p), "%s/linux-6.1", victim);
	assert_false(util_exists(p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_stale_tmp_of_ours_is_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tmp_not_ours_is_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_tmp_link_is_refused,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
