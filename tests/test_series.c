// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the quilt series reader (src/build/series.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "series.h"
#include "util.h"

static char root[256];

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];

	assert_int_equal(util_path(p, sizeof(p), "%s/%s", root, rel), 0);
	assert_int_equal(util_write_file_atomic(p, text, strlen(text), 0644),
			 0);
}

static int setup(void **state)
{
	char p[PATH_MAX];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/test_series.XXXXXX");
	assert_non_null(mkdtemp(root));
	util_path(p, sizeof(p), "%s/s1/sub", root);
	assert_int_equal(util_mkdir_p(p, 0755), 0);
	util_path(p, sizeof(p), "%s/baseline", root);
	assert_int_equal(util_mkdir_p(p, 0755), 0);
	util_path(p, sizeof(p), "%s/nofile", root);
	assert_int_equal(util_mkdir_p(p, 0755), 0);
	put("s1/0001-a.patch", "--- a/x\n+++ b/x\n");
	put("s1/sub/0002-b.patch", "abc");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	util_rm_rf(root);
	return 0;
}

static int parse(struct series *s, const char *text, char *err, size_t len)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "s1");
	util_path(s->dir, sizeof(s->dir), "%s/s1", root);
	util_path(s->file, sizeof(s->file), "%s/s1/series", root);
	return series_parse(s, text, err, len);
}

static void test_valid(void **state)
{
	struct series s;
	char err[512] = "", sha[65], *stamp;

	(void)state;
	assert_int_equal(parse(&s,
			       "# the series\n"
			       "\n"
			       "0001-a.patch\n"
			       "   sub/0002-b.patch -p0   # trailing comment\n",
			       err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.patches[0].name, "0001-a.patch");
	assert_int_equal(s.patches[0].strip, 1);
	assert_int_equal(s.patches[0].line, 3);
	assert_string_equal(s.patches[1].name, "sub/0002-b.patch");
	assert_int_equal(s.patches[1].strip, 0);
	assert_int_equal(s.patches[1].line, 4);
	/* sha256("abc") */
	assert_string_equal(s.patches[1].sha256,
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(util_sha256_file(s.patches[0].path, sha), 0);
	assert_string_equal(s.patches[0].sha256, sha);

	stamp = series_stamp(&s, 1);
	assert_non_null(stamp);
	assert_non_null(strstr(stamp, " -p1 0001-a.patch\n"));
	assert_null(strstr(stamp, "0002"));
	free(stamp);
	stamp = series_stamp(&s, (size_t)-1);
	assert_non_null(strstr(stamp, "ba7816bf"));
	assert_non_null(strstr(stamp, " -p0 sub/0002-b.patch\n"));
	free(stamp);
	stamp = series_stamp(&s, 0);
	assert_string_equal(stamp, "");
	free(stamp);
	series_free(&s);
}

static void expect_error(const char *text, const char *msg)
{
	struct series s;
	char err[512] = "";

	assert_int_equal(parse(&s, text, err, sizeof(err)), -1);
	if (!strstr(err, msg))
		fail_msg("error '%s' lacks '%s'", err, msg);
	assert_null(s.patches);
	assert_int_equal(s.n, 0);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("0001-a.patch\n\nmissing.patch\n",
		     "s1/series:3: ");
	expect_error("0001-a.patch\n\nmissing.patch\n",
		     "missing.patch: No such file");
	expect_error("0001-a.patch -R\n", "series:1: 0001-a.patch: unknown option '-R'");
	expect_error("0001-a.patch -px\n", "series:1: 0001-a.patch: unknown option '-px'");
	expect_error("0001-a.patch -p 1\n", "unknown option '-p'");
	expect_error("/etc/passwd\n", "series:1: '/etc/passwd'");
	expect_error("../s1/0001-a.patch\n", "series:1: '../s1/0001-a.patch'");
	expect_error("sub/../../x\n", "must be relative");
	expect_error("0001-a.patch\n0001-a.patch\n",
		     "series:2: 0001-a.patch is listed twice (first on line 1)");
	expect_error("sub\n", "series:1: ");
}

static void test_load(void **state)
{
	struct series s;
	char err[512] = "";

	(void)state;
	put("s1/series", "0001-a.patch\nsub/0002-b.patch\n");
	assert_int_equal(series_load(&s, root, "s1", err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	assert_non_null(strstr(s.file, "/s1/series"));
	series_free(&s);

	/* baseline without a series file: no patches */
	assert_int_equal(series_load(&s, root, "baseline", err, sizeof(err)),
			 0);
	assert_int_equal(s.n, 0);
	series_free(&s);

	/* another series without a series file: an error */
	assert_int_equal(series_load(&s, root, "nofile", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "nofile/series: No such file"));

	/* no directory at all */
	assert_int_equal(series_load(&s, root, "nodir", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "no such series directory"));
}

/* series_load_path(): what --apply PATH accepts, and how it names it */
static void test_load_path(void **state)
{
	static const char diff[] = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
	static const char mail[] =
		"From 0123 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n"
		"---\n x | 2 +-\n\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n";
	char p[PATH_MAX], err[512] = "";
	struct series s;

	(void)state;
	util_path(p, sizeof(p), "%s/pd", root);
	assert_int_equal(util_mkdir_p(p, 0755), 0);
	put("pd/0000-cover-letter.patch",
	    "From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 0/2] all\n\ntext\n");
	put("pd/0002-two.patch", mail);
	put("pd/0001-one.diff", diff);
	put("pd/notes.txt", diff);
	/* a directory without a series file: *.patch and *.diff by name,
	 * without the cover letter (no diff) */
	assert_int_equal(series_load_path(&s, p, err, sizeof(err)), 0);
	assert_string_equal(s.name, "pd");
	assert_false(s.mbox);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.patches[0].name, "0001-one.diff");
	assert_false(s.patches[0].mail);
	assert_string_equal(s.patches[1].name, "0002-two.patch");
	assert_true(s.patches[1].mail);
	series_free(&s);

	/* an mbox: one entry, named after the file */
	util_path(p, sizeof(p), "%s/pd/0002-two.patch", root);
	put("v3-batch.mbox", mail);
	util_path(p, sizeof(p), "%s/v3-batch.mbox", root);
	assert_int_equal(series_load_path(&s, p, err, sizeof(err)), 0);
	assert_true(s.mbox);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.name, "v3-batch");
	assert_string_equal(s.patches[0].name, "v3-batch.mbox");
	series_free(&s);

	/* a quilt series file: named after its directory */
	put("s1/series", "0001-a.patch\n");
	util_path(p, sizeof(p), "%s/s1/series", root);
	assert_int_equal(series_load_path(&s, p, err, sizeof(err)), 0);
	assert_string_equal(s.name, "s1");
	assert_int_equal(s.n, 1);
	assert_string_equal(s.patches[0].name, "0001-a.patch");
	series_free(&s);

	/* errors: nothing there, a directory without patches, an empty
	 * series file */
	util_path(p, sizeof(p), "%s/none", root);
	assert_int_equal(series_load_path(&s, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "none: No such file"));
	util_path(p, sizeof(p), "%s/nofile", root);
	assert_int_equal(series_load_path(&s, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no *.patch or *.diff file with a diff"));
	put("nofile/series", "# nothing yet\n");
	util_path(p, sizeof(p), "%s/nofile/series", root);
	assert_int_equal(series_load_path(&s, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the series lists no patch"));
	util_path(p, sizeof(p), "%s/nofile/series", root);
	unlink(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_load_path),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
